//! Distances and closest points on segments: the helpers that several pair files share.

use super::Segment;
use bevy::math::Vec2;

impl Segment {
    /// Whether `point` is clearly farther than `√radius_squared` from the segment's line, and
    /// so from the segment: the cross product of the direction and `point − a` is the distance
    /// to the line times the length, compared squared with the squared radius times the
    /// squared length (no square root, no division). With a margin of ten parts in a million,
    /// only clear misses are rejected: near the boundary [`distance_squared_to`] decides, so a
    /// test that uses this first gives the same answers. (An overflowing product on the left
    /// is a clear miss; on the right, or a NaN, it rejects nothing.)
    ///
    /// [`distance_squared_to`]: Self::distance_squared_to
    #[inline]
    pub(crate) fn clearly_beyond(self, point: Vec2, radius_squared: f32) -> bool {
        let direction = self.b - self.a;
        let side = direction.perp_dot(point - self.a);
        side * side > radius_squared * direction.length_squared() * (1.0 + 1e-5)
    }

    /// The squared distance from `point` to the nearest point of the segment, without a
    /// square root. The nearest point lies in one of three regions: behind `a` (it is `a`),
    /// beyond `b` (it is `b`), or beside the segment (the foot of the perpendicular).
    #[inline]
    pub(crate) fn distance_squared_to(self, point: Vec2) -> f32 {
        let direction = self.b - self.a;
        let from_a = point - self.a;
        let along = direction.dot(from_a);
        if along <= 0.0 {
            // Behind `a` (or a zero-length segment).
            from_a.length_squared()
        } else {
            let length_squared = direction.length_squared();
            if along >= length_squared {
                // Beyond `b`.
                point.distance_squared(self.b)
            } else {
                // Beside the segment: the squared distance to its line.
                squared_distance_beside(direction.perp_dot(from_a), length_squared)
            }
        }
    }

    /// Whether the segment is not [clearly beyond](Self::clearly_beyond) `point` and comes
    /// within `√radius_squared` of it ([`distance_squared_to`](Self::distance_squared_to)):
    /// both tests, bit for bit, for the cost of about one.
    #[inline]
    pub(crate) fn reaches(self, point: Vec2, radius_squared: f32) -> bool {
        let direction = self.b - self.a;
        let from_a = point - self.a;
        let side = direction.perp_dot(from_a);
        let length_squared = direction.length_squared();
        if side * side > radius_squared * length_squared * (1.0 + 1e-5) {
            return false;
        }
        // As `distance_squared_to` finds it.
        let along = direction.dot(from_a);
        let distance_squared = if along <= 0.0 {
            from_a.length_squared()
        } else if along >= length_squared {
            point.distance_squared(self.b)
        } else {
            squared_distance_beside(side, length_squared)
        };
        distance_squared <= radius_squared
    }

    /// The point of the segment nearest to `point`.
    #[inline]
    pub(crate) fn closest_point(self, point: Vec2) -> Vec2 {
        let direction = self.b - self.a;
        let length_squared = direction.length_squared();
        if length_squared == 0.0 {
            return self.a;
        }
        let t = (direction.dot(point - self.a) / length_squared).clamp(0.0, 1.0);
        self.a + direction * t
    }

    /// The midpoint of the closest pair of points of two segments: the answer of last resort
    /// when an exact test says they meet but rounding hides where.
    pub(crate) fn nearest_point_between(self, other: Segment) -> Vec2 {
        let candidates = [
            (self.a, other.closest_point(self.a)),
            (self.b, other.closest_point(self.b)),
            (self.closest_point(other.a), other.a),
            (self.closest_point(other.b), other.b),
        ];
        let (p, q) = candidates
            .into_iter()
            .min_by(|(a, b), (c, d)| a.distance_squared(*b).total_cmp(&c.distance_squared(*d)))
            .unwrap_or((self.a, other.a));
        p.midpoint(q)
    }
}

/// The squared distance to a segment's line of a point beside it: `side` is the distance times
/// the segment's length (whose square is `length_squared`). The square of `side` can overflow
/// (far from the origin) or fall below the normal range (tiny shapes) where the distance's own
/// square does not, so it is divided first there.
#[inline]
fn squared_distance_beside(side: f32, length_squared: f32) -> f32 {
    let squared = side * side;
    if squared.is_finite() && (squared >= f32::MIN_POSITIVE || side == 0.0) {
        squared / length_squared
    } else {
        let distance = side / length_squared.sqrt();
        distance * distance
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEGMENT: Segment = Segment::new(Vec2::ZERO, Vec2::new(10.0, 0.0));

    /// `reaches` answers as its two tests, over random segments and points of every scale,
    /// down to where squares underflow and up to where they overflow.
    #[test]
    fn reaches_is_not_clearly_beyond_and_within() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(29);
        let mut point = |scale: f32| {
            Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)) * scale
        };
        let (mut within, mut beyond) = (0, 0);
        for round in 0..100_000 {
            let scale = 10f32.powi(round % 37 - 18);
            let segment = Segment::new(point(scale), point(scale));
            let radius = (round % 7) as f32 * 0.1 * scale;
            // Every other centre a radius from the segment's line, to within rounding, beside
            // it or a little past an end.
            let centre = if round % 2 == 0 {
                point(scale)
            } else {
                let (along, off) = (point(1.2).x + 0.5, 1.0 + point(1e-6).y);
                let across = (segment.b - segment.a).perp().normalize_or_zero();
                segment.a.lerp(segment.b, along) + across * radius * off
            };
            let radius_squared = radius * radius;
            let expected = !segment.clearly_beyond(centre, radius_squared)
                && segment.distance_squared_to(centre) <= radius_squared;
            within += usize::from(expected);
            beyond += usize::from(segment.clearly_beyond(centre, radius_squared));
            assert_eq!(
                segment.reaches(centre, radius_squared),
                expected,
                "{segment:?}, {centre}, {radius}"
            );
        }
        assert!(
            within > 10_000 && beyond > 10_000,
            "{within} within, {beyond} beyond"
        );
        // A point a hair off a long edge: its distance's square underflows to zero, within a
        // radius of zero, but its side's square does not: clearly beyond.
        let edge = Segment::new(Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0));
        let hair = Vec2::new(0.0, 1e-23);
        assert_eq!(edge.distance_squared_to(hair), 0.0);
        assert!(edge.clearly_beyond(hair, 0.0));
        assert!(!edge.reaches(hair, 0.0));
    }

    #[test]
    fn distance_in_each_region() {
        // Behind `a`, beside, beyond `b`.
        assert_eq!(SEGMENT.distance_squared_to(Vec2::new(-3.0, 4.0)), 25.0);
        assert_eq!(SEGMENT.distance_squared_to(Vec2::new(5.0, -2.0)), 4.0);
        assert_eq!(SEGMENT.distance_squared_to(Vec2::new(13.0, 4.0)), 25.0);
    }

    #[test]
    fn distances_far_from_the_origin_do_not_overflow() {
        // Coordinates of 1e18 (the supported range): the side value's square would overflow.
        let far = Segment::new(Vec2::new(-1e18, 0.0), Vec2::new(1e18, 0.0));
        let distance = far.distance_squared_to(Vec2::new(0.0, 3e17)).sqrt();
        assert!((distance / 3e17 - 1.0).abs() < 1e-6, "{distance}");
    }

    #[test]
    fn a_zero_length_segment_is_a_point() {
        let point = Segment::new(Vec2::ONE, Vec2::ONE);
        assert_eq!(point.distance_squared_to(Vec2::new(4.0, 5.0)), 25.0);
        assert_eq!(point.closest_point(Vec2::new(4.0, 5.0)), Vec2::ONE);
    }

    #[test]
    fn closest_point_is_clamped_to_the_ends() {
        assert_eq!(SEGMENT.closest_point(Vec2::new(-5.0, 1.0)), Vec2::ZERO);
        assert_eq!(
            SEGMENT.closest_point(Vec2::new(4.0, 7.0)),
            Vec2::new(4.0, 0.0)
        );
        assert_eq!(SEGMENT.closest_point(Vec2::new(20.0, -1.0)), SEGMENT.b);
    }

    #[test]
    fn nearest_point_between_two_segments_is_the_middle_of_their_gap() {
        let above = Segment::new(Vec2::new(4.0, 2.0), Vec2::new(6.0, 8.0));
        assert_eq!(SEGMENT.nearest_point_between(above), Vec2::new(4.0, 1.0));
    }
}
