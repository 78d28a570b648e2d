//! Polygon–segment: a solid polygon, convex or concave, against a segment (a laser, a wall).

use super::segment_segment::{drop_straight_joins, push_crossings, segments_meet};
use super::{
    Containment, Intersection, Points, Segment, TOLERANCE, all_in_range, bounds::polygon_size,
    drop_near_duplicates, edges, point_in_polygon_unchecked,
};
use bevy::math::Vec2;
use smallvec::SmallVec;

/// Whether a solid polygon and a segment share a point: the segment meets an edge, or lies
/// wholly inside (its start is inside the polygon).
///
/// Non-finite input gives `false`.
#[inline]
pub fn overlap_polygon_segment(vertices: &[Vec2], segment: Segment) -> bool {
    if !(segment.is_valid() && all_in_range(vertices)) {
        return false;
    }
    edges(vertices).any(|edge| segments_meet(edge, segment))
        || point_in_polygon_unchecked(segment.a, vertices)
}

/// The points where a segment crosses or touches a polygon's edges, ordered along the
/// polygon's outline; or [`Containment::SecondInFirst`] when the segment lies inside.
///
/// A segment lying along an edge gives the two ends of the shared piece; a segment through a
/// vertex gives that vertex once. To find where a laser from `a` to `b` first enters, take the
/// point nearest to `a`.
pub fn intersect_polygon_segment(vertices: &[Vec2], segment: Segment) -> Option<Intersection> {
    if !(segment.is_valid() && all_in_range(vertices)) {
        return None;
    }
    // One pass, with the overlap test's own predicate on each edge (so the two always agree).
    let mut tolerance = None;
    let mut points = Points::new();
    let mut pieces: SmallVec<[Segment; 2]> = SmallVec::new();
    for edge in edges(vertices) {
        if segments_meet(edge, segment) {
            let tolerance = *tolerance.get_or_insert_with(|| {
                TOLERANCE * (polygon_size(vertices) + segment.half_length())
            });
            pieces.extend(push_crossings(edge, segment, tolerance, &mut points));
        }
    }
    if let Some(tolerance) = tolerance {
        drop_near_duplicates(&mut points, tolerance);
        drop_straight_joins(&mut points, &pieces, tolerance);
    }
    if !points.is_empty() {
        return Some(Intersection::crossing(points));
    }
    let met = tolerance.is_some();
    if met {
        // The exact test saw a touch that rounding hid from the tolerant one.
        let nearest = edges(vertices)
            .filter(|edge| segments_meet(*edge, segment))
            .map(|edge| edge.nearest_point_between(segment))
            .next()
            .unwrap_or(segment.a);
        return Some(Intersection::crossing(Points::from_slice(&[nearest])));
    }
    if !point_in_polygon_unchecked(segment.a, vertices) {
        return None;
    }
    if point_in_polygon_unchecked(segment.b, vertices) {
        return Some(Intersection::contained(Containment::SecondInFirst));
    }
    // One end in, the other out, yet no edge met it exactly: it passes a hair from a vertex,
    // where rounding parted the two tests. The tolerant test finds where.
    let tolerance = TOLERANCE * (polygon_size(vertices) + segment.half_length());
    for edge in edges(vertices) {
        push_crossings(edge, segment, tolerance, &mut points);
    }
    drop_near_duplicates(&mut points, tolerance);
    if points.is_empty() {
        points.push(segment.a);
    }
    Some(Intersection::crossing(points))
}
