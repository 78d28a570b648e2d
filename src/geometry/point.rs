//! Point-in-shape tests, and the point of a shape nearest to a point.

use super::{Circle, Shape, all_in_range, edges, in_range};
use bevy::math::Vec2;

/// The point of a shape nearest to a given point: see [`closest_point`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoint {
    /// The shape's point nearest to the one asked about: that point itself when it lies in the
    /// shape.
    pub point: Vec2,
    /// How far it is: zero when the point lies in the shape.
    pub distance: f32,
}

/// The point of the closed `shape` nearest to `point`, and how far it is: zero, and `point`
/// itself, when `point` lies in the shape (inside a circle or polygon, or on its outline).
///
/// Non-finite or out-of-range input gives `None`.
pub fn closest_point(shape: Shape, point: Vec2) -> Option<ClosestPoint> {
    if !in_range(point) {
        return None;
    }
    let nearest = match shape {
        Shape::Circle(disc) => {
            if !disc.is_valid() {
                return None;
            }
            let offset = point - disc.center;
            if offset.length_squared() <= disc.radius * disc.radius {
                point
            } else {
                disc.center + offset.normalize_or_zero() * disc.radius
            }
        }
        Shape::Segment(segment) => {
            if !segment.is_valid() {
                return None;
            }
            segment.closest_point(point)
        }
        Shape::Polygon(vertices) => {
            if vertices.is_empty() || !all_in_range(vertices) {
                return None;
            }
            if point_in_polygon(point, vertices) {
                point
            } else {
                nearest_outline_point(vertices, point)
            }
        }
    };
    Some(ClosestPoint {
        point: nearest,
        distance: point.distance(nearest),
    })
}

/// Whether `point` lies in the solid circle `circle`, circumference included: `|p − c|² ≤ r²`.
///
/// Non-finite input or a negative radius gives `false`.
#[inline]
pub fn point_in_circle(point: Vec2, circle: Circle) -> bool {
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
/// Fewer than three vertices, or non-finite or out-of-range input, give `false`.
#[inline]
pub fn point_in_polygon(point: Vec2, vertices: &[Vec2]) -> bool {
    in_range(point) && all_in_range(vertices) && point_in_polygon_unchecked(point, vertices)
}

/// [`point_in_polygon`] for input already found in range (a pair test's, checked once).
#[inline]
pub(crate) fn point_in_polygon_unchecked(point: Vec2, vertices: &[Vec2]) -> bool {
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
    let spans = starts_below != (p1.y <= point.y);
    // When the edge spans the ray's height, the point is left of the edge's crossing with the
    // ray exactly when it is left of the edge directed upwards. Computed whether or not it
    // spans, and combined with `&` and `|`: no branch to mispredict, which costs more here
    // than the product.
    let side = (p1 - p0).perp_dot(point - p0);
    spans & ((starts_below & (side > 0.0)) | (!starts_below & (side < 0.0)))
}

/// The point of the polygon's outline nearest to `point`.
pub(crate) fn nearest_outline_point(vertices: &[Vec2], point: Vec2) -> Vec2 {
    edges(vertices)
        .map(|edge| edge.closest_point(point))
        .min_by(|p, q| {
            p.distance_squared(point)
                .total_cmp(&q.distance_squared(point))
        })
        .unwrap_or(point)
}
