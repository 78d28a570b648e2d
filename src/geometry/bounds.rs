//! Bounding circles for the broad phase, and the size that scales the tolerance.

use super::{Circle, Segment};
use bevy::math::{Vec2, bounding::BoundingCircle};

impl Circle {
    /// The disc itself, as a [`BoundingCircle`].
    #[inline]
    pub fn bounding_circle(&self) -> BoundingCircle {
        BoundingCircle::new(self.center, self.radius)
    }
}

impl Segment {
    /// The smallest circle around the segment: centred on its midpoint, radius half its length.
    #[inline]
    pub fn bounding_circle(&self) -> BoundingCircle {
        BoundingCircle::new(self.a.midpoint(self.b), self.half_length())
    }
}

/// The smallest circle enclosing `points` (a polygon's vertices), grown by a relative `1e-6`
/// so that every point lies inside it despite rounding. Empty input gives a zero circle at the
/// origin.
///
/// Welzl's incremental algorithm, without the shuffle so the result is deterministic: expected
/// linear time, cubic in the worst case, which is fine for a polygon's vertices and meant to run
/// once per collider, not per frame.
pub fn bounding_circle_of_points(points: &[Vec2]) -> BoundingCircle {
    let Some(&first) = points.first() else {
        return BoundingCircle::new(Vec2::ZERO, 0.0);
    };
    let mut circle = Enclosing::point(first);
    for (i, &p) in points.iter().enumerate().skip(1) {
        if circle.contains(p) {
            continue;
        }
        circle = Enclosing::point(p);
        for (j, &q) in points[..i].iter().enumerate() {
            if circle.contains(q) {
                continue;
            }
            circle = Enclosing::diameter(p, q);
            for &r in &points[..j] {
                if !circle.contains(r) {
                    circle = Enclosing::through(p, q, r);
                }
            }
        }
    }
    // Grow so that every point is inside whatever the rounding above.
    let radius = points
        .iter()
        .map(|p| p.distance(circle.center))
        .fold(circle.radius, f32::max);
    BoundingCircle::new(circle.center, radius * (1.0 + 1e-6))
}

/// The radius of a polygon's bounding box's circumcircle (half the box's diagonal): the
/// polygon's size for the [tolerance](super#tolerance), found in one pass.
#[inline]
pub fn polygon_size(vertices: &[Vec2]) -> f32 {
    let (min, max) = vertices
        .iter()
        .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(min, max), &v| {
            (min.min(v), max.max(v))
        });
    if vertices.is_empty() {
        0.0
    } else {
        0.5 * min.distance(max)
    }
}

/// A circle under construction in [`bounding_circle_of_points`].
#[derive(Clone, Copy)]
struct Enclosing {
    center: Vec2,
    radius: f32,
}

impl Enclosing {
    fn point(p: Vec2) -> Self {
        Self {
            center: p,
            radius: 0.0,
        }
    }

    fn diameter(p: Vec2, q: Vec2) -> Self {
        Self {
            center: p.midpoint(q),
            radius: 0.5 * p.distance(q),
        }
    }

    /// The circle through three points; for collinear points, the circle on the farthest pair.
    fn through(p: Vec2, q: Vec2, r: Vec2) -> Self {
        let (qp, rp) = (q - p, r - p);
        let denominator = 2.0 * super::cross(qp, rp);
        if denominator.abs() > f32::EPSILON * qp.length_squared().max(rp.length_squared()) {
            let offset = Vec2::new(
                rp.y * qp.length_squared() - qp.y * rp.length_squared(),
                qp.x * rp.length_squared() - rp.x * qp.length_squared(),
            ) / denominator;
            return Self {
                center: p + offset,
                radius: offset.length(),
            };
        }
        [
            Self::diameter(p, q),
            Self::diameter(p, r),
            Self::diameter(q, r),
        ]
        .into_iter()
        .max_by(|a, b| a.radius.total_cmp(&b.radius))
        .unwrap_or(Self::point(p))
    }

    fn contains(&self, p: Vec2) -> bool {
        p.distance(self.center) <= self.radius * (1.0 + 1e-6)
    }
}
