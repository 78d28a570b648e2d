//! Bounding circles for the broad phase, and the size that scales the tolerance.

use super::{Circle, Segment};
use bevy::math::{Vec2, bounding::BoundingCircle};

impl Circle {
    /// The circle itself, as a [`BoundingCircle`] (a negative or NaN radius: a point).
    #[inline]
    pub fn bounding_circle(&self) -> BoundingCircle {
        BoundingCircle::new(self.center, self.radius.max(0.0))
    }
}

impl Segment {
    /// The smallest circle around the segment: centred on its midpoint, radius half its length.
    #[inline]
    pub fn bounding_circle(&self) -> BoundingCircle {
        // `max` turns a NaN length (non-finite ends) into zero, never a negative radius.
        BoundingCircle::new(self.a.midpoint(self.b), self.half_length().max(0.0))
    }
}

/// The smallest circle enclosing `points` (a polygon's vertices), grown by a relative `1e-6`
/// so that every point lies inside it despite rounding. Empty input gives a zero circle at the
/// origin.
///
/// Welzl's incremental algorithm, on the points in an order shuffled with a fixed seed (the same
/// answer every time): expected linear time whatever their order. A polygon's vertices come in
/// the order that makes the algorithm slowest (each one round a curve outside the circle of
/// those before it): a circle drawn with 20,000 vertices takes fifty million looks at a point
/// in order, and twenty thousand shuffled. Up to 16 points are taken in their own order, with
/// nothing to allocate.
pub fn bounding_circle_of_points(points: &[Vec2]) -> BoundingCircle {
    if points.is_empty() {
        return BoundingCircle::new(Vec2::ZERO, 0.0);
    }
    let circle = if points.len() <= IN_ORDER_UP_TO {
        enclosing(points, &mut 0)
    } else {
        let mut shuffled = points.to_vec();
        shuffle(&mut shuffled);
        enclosing(&shuffled, &mut 0)
    };
    // Grow so that every point is inside whatever the rounding above.
    let radius = points
        .iter()
        .map(|p| p.distance(circle.center))
        .fold(circle.radius, f32::max);
    BoundingCircle::new(circle.center, (radius * (1.0 + 1e-6)).max(0.0))
}

/// Up to this many points, [`bounding_circle_of_points`] takes them in their own order: at
/// worst a few thousand steps.
const IN_ORDER_UP_TO: usize = 16;

/// The smallest circle enclosing `points` (not empty), by Welzl's incremental algorithm in
/// their order, counting in `steps` each point it looks at.
fn enclosing(points: &[Vec2], steps: &mut usize) -> Enclosing {
    let mut circle = Enclosing::point(points[0]);
    for (i, &p) in points.iter().enumerate().skip(1) {
        *steps += 1;
        if circle.contains(p) {
            continue;
        }
        circle = Enclosing::point(p);
        for (j, &q) in points[..i].iter().enumerate() {
            *steps += 1;
            if circle.contains(q) {
                continue;
            }
            circle = Enclosing::diameter(p, q);
            *steps += j;
            for &r in &points[..j] {
                if !circle.contains(r) {
                    circle = Enclosing::through(p, q, r);
                }
            }
        }
    }
    circle
}

/// Shuffles `points` in place (Fisher and Yates), with a fixed seed: the same order for the
/// same points every time.
fn shuffle(points: &mut [Vec2]) {
    // xorshift64*: plenty for an order that no polygon's vertices follow by chance.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in (1..points.len()).rev() {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let random = state.wrapping_mul(0x2545_F491_4F6C_DD1D);
        let j = ((random >> 32) * (i as u64 + 1)) >> 32;
        points.swap(i, j as usize);
    }
}

/// The radius of a polygon's bounding box's circumcircle (half the box's diagonal): the
/// polygon's size for the [tolerance](super#tolerance), found in one pass. Empty input gives 0.
#[inline]
pub fn polygon_size(vertices: &[Vec2]) -> f32 {
    if vertices.is_empty() {
        0.0
    } else {
        BoundingBox::of(vertices).half_diagonal()
    }
}

/// An axis-aligned box around points: what the polygon pair tests skip edges with, and what
/// [`polygon_size`] measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BoundingBox {
    pub min: Vec2,
    pub max: Vec2,
}

impl BoundingBox {
    /// The box around the vertices. Plain comparisons, so that it compiles to branch-free
    /// min/max; a NaN coordinate is passed over (callers check the range first).
    #[inline]
    pub fn of(vertices: &[Vec2]) -> Self {
        let mut bounds = Self {
            min: Vec2::INFINITY,
            max: Vec2::NEG_INFINITY,
        };
        for &v in vertices {
            bounds.min.x = if v.x < bounds.min.x {
                v.x
            } else {
                bounds.min.x
            };
            bounds.min.y = if v.y < bounds.min.y {
                v.y
            } else {
                bounds.min.y
            };
            bounds.max.x = if v.x > bounds.max.x {
                v.x
            } else {
                bounds.max.x
            };
            bounds.max.y = if v.y > bounds.max.y {
                v.y
            } else {
                bounds.max.y
            };
        }
        bounds
    }

    /// The box around a segment.
    #[inline]
    pub fn of_segment(segment: Segment) -> Self {
        Self {
            min: segment.a.min(segment.b),
            max: segment.a.max(segment.b),
        }
    }

    /// The middle of the box.
    #[inline]
    pub fn center(&self) -> Vec2 {
        self.min.midpoint(self.max)
    }

    /// Half the diagonal: the radius of the circle through the box's corners.
    #[inline]
    pub fn half_diagonal(&self) -> f32 {
        0.5 * self.min.distance(self.max)
    }

    /// Whether the closed box and the closed circle of `radius` around `center` share a point
    /// (up to rounding in the distance: pad the box for a conservative answer).
    #[inline]
    pub fn touches_circle(&self, center: Vec2, radius: f32) -> bool {
        let nearest = center.max(self.min).min(self.max);
        center.distance_squared(nearest) <= radius * radius
    }

    /// Whether two closed boxes share a point.
    #[inline]
    pub fn overlaps(&self, other: &Self) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
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
    ///
    /// The centre's offset from `p` is a cubic expression in the other two points' offsets over
    /// a quadratic one: worked out with the offsets divided by their largest coordinate (so
    /// at most 1) and multiplied back, so that neither overflows for coordinates in range.
    fn through(p: Vec2, q: Vec2, r: Vec2) -> Self {
        let scale = (q - p).abs().max((r - p).abs()).max_element();
        if scale.is_nan() || scale == 0.0 {
            return Self::point(p);
        }
        let (qp, rp) = ((q - p) / scale, (r - p) / scale);
        let denominator = 2.0 * qp.perp_dot(rp);
        if denominator.abs() > f32::EPSILON * qp.length_squared().max(rp.length_squared()) {
            let offset = Vec2::new(
                rp.y * qp.length_squared() - qp.y * rp.length_squared(),
                qp.x * rp.length_squared() - rp.x * qp.length_squared(),
            ) / denominator;
            return Self {
                center: p + offset * scale,
                radius: offset.length() * scale,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polygon_size_is_half_the_box_diagonal() {
        let triangle = [Vec2::ZERO, Vec2::new(6.0, 0.0), Vec2::new(3.0, 8.0)];
        assert_eq!(polygon_size(&triangle), 5.0);
        assert_eq!(polygon_size(&[]), 0.0);
    }

    #[test]
    fn boxes_touching_at_an_edge_overlap() {
        let left = BoundingBox::of(&[Vec2::ZERO, Vec2::ONE]);
        let right = BoundingBox::of_segment(Segment::new(Vec2::new(1.0, 0.5), Vec2::new(2.0, 3.0)));
        assert!(left.overlaps(&right) && right.overlaps(&left));
        let apart = BoundingBox::of(&[Vec2::new(1.5, 0.0), Vec2::new(2.0, 1.0)]);
        assert!(!left.overlaps(&apart));
    }

    /// The vertices of a circle drawn with many of them, in order: each lies outside the
    /// circle of those before it, Welzl's slowest order. Shuffled, the steps stay linear; and
    /// the circle found is the drawn one.
    #[test]
    fn a_circle_of_many_vertices_is_enclosed_in_linear_steps() {
        const COUNT: usize = 20_000;
        let points: Vec<Vec2> = (0..COUNT)
            .map(|i| Vec2::from_angle(core::f32::consts::TAU * i as f32 / COUNT as f32) * 100.0)
            .collect();
        let mut shuffled = points.clone();
        shuffle(&mut shuffled);
        let mut steps = 0;
        enclosing(&shuffled, &mut steps);
        assert!(steps < 20 * COUNT, "{steps} steps");
        let mut in_order = 0;
        enclosing(&points[..2_000], &mut in_order);
        assert!(in_order > 1_000_000, "{in_order} steps in order, for 2,000");
        let circle = bounding_circle_of_points(&points);
        assert!(circle.center.length() < 1e-3, "{circle:?}");
        assert!((circle.radius() - 100.0).abs() < 1e-3, "{circle:?}");
    }

    #[test]
    fn the_enclosing_circle_holds_every_point() {
        let points = [
            Vec2::new(0.0, 0.0),
            Vec2::new(10.0, 1.0),
            Vec2::new(4.0, 9.0),
            Vec2::new(5.0, 3.0),
            Vec2::new(-2.0, 6.0),
        ];
        let circle = bounding_circle_of_points(&points);
        for p in points {
            assert!(p.distance(circle.center) <= circle.radius(), "{p} outside");
        }
    }
}
