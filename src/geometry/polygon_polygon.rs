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
    if !overlap_polygon_polygon(first, second) {
        return None;
    }
    let tolerance = TOLERANCE * (polygon_size(first) + polygon_size(second));
    let second_box = BoundingBox::of(second).grown(tolerance);
    let mut points = Points::new();
    let mut on_edge = Points::new();
    for edge in edges(first) {
        if !second_box.overlaps(&BoundingBox::of_segment(edge)) {
            continue;
        }
        on_edge.clear();
        for other in edges(second) {
            push_crossings(edge, other, tolerance, &mut on_edge);
        }
        // Points from different edges of `second` arrive out of order: sort along `edge`.
        let direction = edge.b - edge.a;
        let mut along: SmallVec<[(f32, Vec2); 4]> = on_edge
            .iter()
            .map(|&point| (direction.dot(point - edge.a), point))
            .collect();
        along.sort_unstable_by(|p, q| p.0.total_cmp(&q.0));
        for (_, point) in along {
            push_unique(&mut points, point, tolerance);
        }
    }
    if !points.is_empty() {
        return Some(Intersection::crossing(points));
    }
    if point_in_polygon(first[0], second) {
        return Some(Intersection::contained(Containment::FirstInSecond));
    }
    if point_in_polygon(second[0], first) {
        return Some(Intersection::contained(Containment::SecondInFirst));
    }
    // The exact test saw a touch that rounding hid from the tolerant one.
    let mut best: Option<(f32, Vec2)> = None;
    for edge in edges(first) {
        for other in edges(second) {
            let point = nearest_point_between(edge, other);
            let gap = super::segment_circle::distance_squared_to_segment(point, edge)
                + super::segment_circle::distance_squared_to_segment(point, other);
            if best.is_none_or(|(best_gap, _)| gap < best_gap) {
                best = Some((gap, point));
            }
        }
    }
    let point = best.map_or(first[0], |(_, point)| point);
    Some(Intersection::crossing(Points::from_slice(&[point])))
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
    fn grown(self, margin: f32) -> Self {
        Self {
            min: self.min - margin,
            max: self.max + margin,
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
