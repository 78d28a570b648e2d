//! Polygon–polygon: two solid polygons, each convex or concave.

use super::segment_segment::{nearest_point_between, push_crossings, segments_meet};
use super::{
    Containment, Intersection, Points, Segment, TOLERANCE, all_in_range, bounds::polygon_size,
    edges, point_in_polygon, push_unique,
};
use bevy::math::Vec2;
use smallvec::SmallVec;

/// Whether two solid polygons share a point: an edge of one meets an edge of the other, or one
/// lies wholly inside the other (a vertex of it is inside the other).
///
/// Edges are tested pairwise, `O(n·m)`, skipping edges outside the other polygon's bounding box.
/// Non-finite input gives `false`.
pub fn overlap_polygon_polygon(first: &[Vec2], second: &[Vec2]) -> bool {
    if !(all_in_range(first) && all_in_range(second)) || first.is_empty() || second.is_empty() {
        return false;
    }
    let second_box = BoundingBox::of(second);
    let first_box = BoundingBox::of(first);
    if !first_box.overlaps(&second_box) {
        return false;
    }
    for edge in edges(first) {
        if !second_box.overlaps(&BoundingBox::of_segment(edge)) {
            continue;
        }
        if edges(second).any(|other| segments_meet(edge, other)) {
            return true;
        }
    }
    point_in_polygon(first[0], second) || point_in_polygon(second[0], first)
}

/// The points where two polygons' outlines cross or touch, ordered along the first polygon's
/// outline; or, when they do not meet, which one holds the other.
///
/// Collinear edges give the two ends of the piece they share; a shared vertex is reported once.
pub fn intersect_polygon_polygon(first: &[Vec2], second: &[Vec2]) -> Option<Intersection> {
    if !(all_in_range(first) && all_in_range(second)) || first.is_empty() || second.is_empty() {
        return None;
    }
    let second_box = BoundingBox::of(second);
    if !BoundingBox::of(first).overlaps(&second_box) {
        return None;
    }
    // One pass over the edge pairs, with the overlap test's own predicate on each (so the two
    // always agree); crossings are computed only for pairs that meet.
    let mut tolerance = None;
    let mut met = false;
    let mut points = Points::new();
    let mut on_edge = Points::new();
    for edge in edges(first) {
        if !second_box.overlaps(&BoundingBox::of_segment(edge)) {
            continue;
        }
        on_edge.clear();
        for other in edges(second) {
            if segments_meet(edge, other) {
                met = true;
                let tolerance = *tolerance.get_or_insert_with(|| {
                    TOLERANCE * (polygon_size(first) + polygon_size(second))
                });
                push_crossings(edge, other, tolerance, &mut on_edge);
            }
        }
        if on_edge.is_empty() {
            continue;
        }
        // Points from different edges of `second` arrive out of order: sort along `edge`.
        let direction = edge.b - edge.a;
        let mut along: SmallVec<[(f32, Vec2); 4]> = on_edge
            .iter()
            .map(|&point| (direction.dot(point - edge.a), point))
            .collect();
        along.sort_unstable_by(|p, q| p.0.total_cmp(&q.0));
        let tolerance = tolerance.unwrap_or(0.0);
        for (_, point) in along {
            push_unique(&mut points, point, tolerance);
        }
    }
    if !points.is_empty() {
        return Some(Intersection::crossing(points));
    }
    if met {
        // The exact test saw a touch that rounding hid from the tolerant one.
        let nearest = edges(first)
            .flat_map(|edge| edges(second).map(move |other| (edge, other)))
            .find(|(edge, other)| segments_meet(*edge, *other))
            .map_or(first[0], |(edge, other)| nearest_point_between(edge, other));
        return Some(Intersection::crossing(Points::from_slice(&[nearest])));
    }
    let (inner, outer, containment) = if point_in_polygon(first[0], second) {
        (first, second, Containment::FirstInSecond)
    } else if point_in_polygon(second[0], first) {
        (second, first, Containment::SecondInFirst)
    } else {
        return None;
    };
    if inner.iter().all(|&vertex| point_in_polygon(vertex, outer)) {
        return Some(Intersection::contained(containment));
    }
    // Some vertices in, some out, yet no edges met exactly: the outlines pass a hair apart at a
    // vertex, where rounding parted the two tests. The tolerant test finds where.
    let tolerance = TOLERANCE * (polygon_size(first) + polygon_size(second));
    for edge in edges(first) {
        for other in edges(second) {
            push_crossings(edge, other, tolerance, &mut points);
        }
    }
    if points.is_empty() {
        points.push(inner[0]);
    }
    Some(Intersection::crossing(points))
}

/// An axis-aligned box, for skipping edges that cannot meet the other polygon.
#[derive(Clone, Copy)]
struct BoundingBox {
    min: Vec2,
    max: Vec2,
}

impl BoundingBox {
    #[inline]
    fn of(vertices: &[Vec2]) -> Self {
        vertices.iter().fold(
            Self {
                min: Vec2::INFINITY,
                max: Vec2::NEG_INFINITY,
            },
            |bounds, &v| Self {
                min: bounds.min.min(v),
                max: bounds.max.max(v),
            },
        )
    }

    #[inline]
    fn of_segment(segment: Segment) -> Self {
        Self {
            min: segment.a.min(segment.b),
            max: segment.a.max(segment.b),
        }
    }

    #[inline]
    fn overlaps(&self, other: &Self) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }
}
