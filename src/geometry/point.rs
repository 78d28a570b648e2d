//! Point-in-shape tests.

use super::{Disc, edges, in_range};
use bevy::math::Vec2;

/// Whether `point` lies in the solid disc `circle`, circumference included: `|p − c|² ≤ r²`.
///
/// Non-finite input or a negative radius gives `false`.
#[inline]
pub fn point_in_circle(point: Vec2, circle: Disc) -> bool {
    circle.is_valid()
        && in_range(point)
        && point.distance_squared(circle.center) <= circle.radius * circle.radius
}

/// Whether `point` lies inside the polygon `vertices`, by the crossing-number (even–odd) rule:
/// a ray cast from `point` towards `+x` crosses the outline an odd number of times.
///
/// Works for convex and concave polygons alike, in either winding. An edge counts as crossed
/// under the half-open rule (one end at or below the ray's height, the other above), so a ray
/// through a vertex is counted once. Points exactly on the outline may be reported either way:
/// every pair test in this module checks the outline first, so it never depends on that.
/// Fewer than three vertices, or non-finite input, give `false`.
#[inline]
pub fn point_in_polygon(point: Vec2, vertices: &[Vec2]) -> bool {
    if vertices.len() < 3 {
        return false;
    }
    let mut inside = false;
    for edge in edges(vertices) {
        if crosses_ray(point, edge.a, edge.b) {
            inside = !inside;
        }
    }
    inside
}

/// Whether the edge `p0 → p1` crosses the ray from `point` towards `+x` (half-open rule).
#[inline]
pub(crate) fn crosses_ray(point: Vec2, p0: Vec2, p1: Vec2) -> bool {
    let starts_below = p0.y <= point.y;
    if starts_below == (p1.y <= point.y) {
        return false;
    }
    // The edge spans the ray's height. The point is left of the edge's crossing with the ray
    // exactly when it is left of the edge directed upwards.
    let side = (p1 - p0).perp_dot(point - p0);
    if starts_below { side > 0.0 } else { side < 0.0 }
}
