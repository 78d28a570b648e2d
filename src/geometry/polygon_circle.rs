//! Polygon–circle: a solid polygon, convex or concave, against a solid disc.

use super::point::{crosses_ray, nearest_outline_point};
use super::segment_circle::push_crossings;
use super::{
    Containment, Disc, Intersection, Points, TOLERANCE, all_in_range, bounds::polygon_size,
    drop_near_duplicates, edges,
};
use bevy::math::Vec2;

/// Whether a solid polygon and a solid disc overlap: an edge comes within `r` of the centre, or
/// the centre lies inside the polygon (crossing number).
///
/// Together the two tests cover both containments: a polygon inside the disc has its edges
/// within `r`, a disc inside the polygon has its centre inside. One pass over the edges, no
/// square root. A negative radius or non-finite input gives `false`.
#[inline]
pub fn overlap_polygon_circle(vertices: &[Vec2], circle: Disc) -> bool {
    if !(circle.is_valid() && all_in_range(vertices)) {
        return false;
    }
    let radius_squared = circle.radius * circle.radius;
    let mut inside = false;
    for edge in edges(vertices) {
        inside ^= crosses_ray(circle.center, edge.a, edge.b);
        if !edge.clearly_beyond(circle.center, radius_squared)
            && edge.distance_squared_to(circle.center) <= radius_squared
        {
            return true;
        }
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
pub fn intersect_polygon_circle(vertices: &[Vec2], circle: Disc) -> Option<Intersection> {
    if !(circle.is_valid() && all_in_range(vertices)) {
        return None;
    }
    // One pass, with the overlap test's own predicates (so the two always agree): edges within
    // `r` of the centre give the crossings, the ray's parity says whether the centre is inside.
    let radius_squared = circle.radius * circle.radius;
    let mut tolerance = None;
    let mut points = Points::new();
    let mut touched = false;
    let mut center_inside = false;
    for edge in edges(vertices) {
        center_inside ^= crosses_ray(circle.center, edge.a, edge.b);
        // Most edges are clearly out of reach: a cheaper test first.
        if !edge.clearly_beyond(circle.center, radius_squared)
            && edge.distance_squared_to(circle.center) <= radius_squared
        {
            touched = true;
            let tolerance = *tolerance
                .get_or_insert_with(|| TOLERANCE * (polygon_size(vertices) + circle.radius));
            push_crossings(edge, circle, tolerance, &mut points);
        }
    }
    if let Some(tolerance) = tolerance {
        drop_near_duplicates(&mut points, tolerance);
    }
    if !points.is_empty() {
        return Some(Intersection::crossing(points));
    }
    if touched {
        // Edges reach into the disc without crossing its circumference: the whole outline is
        // inside it. (Failing that, rounding hid a touch: report the nearest outline point.)
        return Some(if super::point_in_circle(vertices[0], circle) {
            Intersection::contained(Containment::FirstInSecond)
        } else {
            Intersection::crossing(Points::from_slice(&[nearest_outline_point(
                vertices,
                circle.center,
            )]))
        });
    }
    (center_inside && vertices.len() >= 3)
        .then(|| Intersection::contained(Containment::SecondInFirst))
}
