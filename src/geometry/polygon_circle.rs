//! Polygon–circle: a solid polygon, convex or concave, against a solid disc (seed 002).

use super::point::crosses_ray;
use super::segment_circle::{distance_squared_to_segment, push_crossings};
use super::{
    Circle, Containment, Intersection, Points, TOLERANCE, all_in_range, bounds::polygon_size,
    edges, point_in_polygon,
};
use bevy::math::Vec2;

/// Whether a solid polygon and a solid disc overlap (seed 002): an edge comes within `r` of the
/// centre, or the centre lies inside the polygon (crossing number).
///
/// Together the two tests cover both containments: a polygon inside the disc has its edges
/// within `r`, a disc inside the polygon has its centre inside. One pass over the edges, no
/// square root. A negative radius or non-finite input gives `false`.
#[inline]
pub fn overlap_polygon_circle(vertices: &[Vec2], circle: Circle) -> bool {
    if !(circle.is_valid() && all_in_range(vertices)) {
        return false;
    }
    let radius_squared = circle.radius * circle.radius;
    let mut inside = false;
    for edge in edges(vertices) {
        if distance_squared_to_segment(circle.center, edge) <= radius_squared {
            return true;
        }
        inside ^= crosses_ray(circle.center, edge.a, edge.b);
    }
    inside && vertices.len() >= 3
}

/// The points where a polygon's edges cross or touch a circumference, ordered along the
/// polygon's outline; or, when they do not meet, which shape holds the other.
///
/// A vertex lying on the circle is reported once. With no points, the polygon is inside the disc
/// ([`Containment::FirstInSecond`]) when its vertices are, and the disc inside the polygon
/// ([`Containment::SecondInFirst`]) when its centre is: in a concave polygon's pocket, not its
/// notch.
pub fn intersect_polygon_circle(vertices: &[Vec2], circle: Circle) -> Option<Intersection> {
    if !overlap_polygon_circle(vertices, circle) {
        return None;
    }
    let tolerance = TOLERANCE * (polygon_size(vertices) + circle.radius);
    let mut points = Points::new();
    for edge in edges(vertices) {
        push_crossings(edge, circle, tolerance, &mut points);
    }
    if !points.is_empty() {
        return Some(Intersection::crossing(points));
    }
    // The outlines do not meet, so each vertex is on the same side of the circumference.
    let containment = if super::point_in_circle(vertices[0], circle) {
        Containment::FirstInSecond
    } else if point_in_polygon(circle.center, vertices) {
        Containment::SecondInFirst
    } else {
        // The exact test saw a touch that rounding hid from the tolerant one: report the
        // polygon's nearest point to the centre.
        return Some(Intersection::crossing(Points::from_slice(&[
            nearest_outline_point(vertices, circle.center),
        ])));
    };
    Some(Intersection::contained(containment))
}

/// The point of the polygon's outline nearest to `point`.
pub(crate) fn nearest_outline_point(vertices: &[Vec2], point: Vec2) -> Vec2 {
    edges(vertices)
        .map(|edge| super::segment_segment::closest_point_on(edge, point))
        .min_by(|p, q| {
            p.distance_squared(point)
                .total_cmp(&q.distance_squared(point))
        })
        .unwrap_or(point)
}
