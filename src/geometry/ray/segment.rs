//! A ray against a closed segment: the crossing of two lines, with care where they run nearly
//! along each other.

use super::{RayEntry, facing, unit_or};
use crate::geometry::Segment;
use bevy::math::Vec2;

/// The earliest point of the ray on the closed segment.
///
/// The ray crosses the segment when the segment's ends lie on opposite sides of the ray's line
/// (or on it) and the crossing lies within the ray. The sides are `direction × (end − origin)`,
/// computed once per end, so the two edges that share a polygon vertex see that vertex on the
/// same side: a ray through a vertex never slips between its two edges. The time is
/// `(e × (origin − a)) / (direction × e)` with `e = b − a` (Cramer's rule on
/// `origin + t·direction = a + u·e`).
///
/// Where the ray runs nearly along the segment (an angle below about `1/16`), Cramer's rule
/// divides two cross products that have both cancelled to little more than their rounding, and
/// its time can put the point far past an end of the segment, or at `t = 0` for a ray leaving
/// the segment behind along its line. There the crossing is found from the sides instead: see
/// [`near_parallel`].
///
/// When the ray runs along the segment's line it meets the nearer end (or starts on the
/// segment); a zero-length segment is a point, hit only by a ray through it.
pub(crate) fn ray_segment(origin: Vec2, direction: Vec2, segment: Segment) -> Option<RayEntry> {
    if direction == Vec2::ZERO {
        return None;
    }
    let to_a = segment.a - origin;
    let to_b = segment.b - origin;
    let a_side = direction.perp_dot(to_a);
    let b_side = direction.perp_dot(to_b);
    if (a_side > 0.0 && b_side > 0.0) || (a_side < 0.0 && b_side < 0.0) {
        return None;
    }
    if a_side == 0.0 && b_side == 0.0 {
        return along_the_line(origin, direction, segment);
    }
    let edge = segment.b - segment.a;
    let mut denominator = direction.perp_dot(edge);
    // `|direction × e| = |direction|·|e|·sin(angle)`, and the product of the largest components
    // is within a factor 2 of `|direction|·|e|`.
    if denominator.abs() < 0.0625 * (direction.abs().max_element() * edge.abs().max_element()) {
        return near_parallel(direction, edge, [to_a, to_b], [a_side, b_side]);
    }
    let mut numerator = -edge.perp_dot(to_a);
    if denominator < 0.0 {
        numerator = -numerator;
        denominator = -denominator;
    }
    if !(0.0..=denominator).contains(&numerator) {
        return None;
    }
    Some(RayEntry::new(
        numerator / denominator,
        edge_normal(direction, edge),
    ))
}

/// The segment's normal, turned to face the ray's origin (the segment has a direction: it is
/// not a point, or the sides would not have straddled with one of them non-zero).
#[inline]
fn edge_normal(direction: Vec2, edge: Vec2) -> Vec2 {
    facing(
        unit_or(edge.perp(), -unit_or(direction, Vec2::Y)),
        direction,
    )
}

/// The crossing of a ray running nearly along a segment, found from the ends' sides (`to` the
/// ends from the origin, `sides` their `direction × to`, straddling, not both zero).
///
/// The ray's line cuts the segment at the fraction `side_a / (side_a − side_b)` of the way from
/// `a` to `b`; that fraction lies in `[0, 1]` (the sides straddle, and the difference is the sum
/// of their sizes), and it is taken from the end nearer the line, so the crossing always lies
/// on the segment, and is that end exactly when the line passes through it. The time is the
/// crossing's projection onto the ray: the moving point is at the crossing then, up to its
/// rounding, however ill-conditioned the crossing of two nearly parallel lines is.
#[cold]
fn near_parallel(direction: Vec2, edge: Vec2, to: [Vec2; 2], sides: [f32; 2]) -> Option<RayEntry> {
    let [to_a, to_b] = to;
    let [a_side, b_side] = sides;
    let crossing = if a_side.abs() <= b_side.abs() {
        to_a + edge * (a_side / (a_side - b_side))
    } else {
        to_b - edge * (b_side / (b_side - a_side))
    };
    let along = direction.dot(crossing);
    let length_squared = direction.length_squared();
    if !(0.0..=length_squared).contains(&along) {
        return None;
    }
    Some(RayEntry::new(
        along / length_squared,
        edge_normal(direction, edge),
    ))
}

/// A ray on the segment's line (or parallel to it within rounding): the nearer end, head-on, or
/// `t = 0` when the origin lies between the ends.
fn along_the_line(origin: Vec2, direction: Vec2, segment: Segment) -> Option<RayEntry> {
    let unit = unit_or(direction, Vec2::Y);
    // Off the line (parallel but apart): the exact side test of the origin says so.
    let edge = segment.b - segment.a;
    if edge.perp_dot(origin - segment.a) != 0.0 {
        return None;
    }
    let length_squared = direction.length_squared();
    let a_along = direction.dot(segment.a - origin);
    let b_along = direction.dot(segment.b - origin);
    let (near, far) = (a_along.min(b_along), a_along.max(b_along));
    if near <= 0.0 && far >= 0.0 {
        // The origin lies on the segment.
        let normal = facing(unit_or(edge.perp(), -unit), direction);
        return Some(RayEntry::new(0.0, normal));
    }
    (near > 0.0 && near <= length_squared).then(|| RayEntry::new(near / length_squared, -unit))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{assert_hit, rays_through_a_shared_vertex, v};
    use super::*;

    #[test]
    fn segment_crossed_in_the_middle() {
        let wall = Segment::new(v(5.0, -5.0), v(5.0, 5.0));
        assert_hit(
            ray_segment(Vec2::ZERO, v(10.0, 0.0), wall),
            0.5,
            v(-1.0, 0.0),
        );
        // From the other side the normal turns round.
        assert_hit(
            ray_segment(v(10.0, 1.0), v(-10.0, 0.0), wall),
            0.5,
            v(1.0, 0.0),
        );
    }

    #[test]
    fn segment_missed_beside_short_and_parallel() {
        let wall = Segment::new(v(5.0, -5.0), v(5.0, 5.0));
        assert_eq!(ray_segment(v(0.0, 6.0), v(10.0, 0.0), wall), None);
        assert_eq!(ray_segment(Vec2::ZERO, v(4.0, 0.0), wall), None);
        assert_eq!(ray_segment(Vec2::ZERO, v(0.0, 10.0), wall), None);
        assert_eq!(ray_segment(Vec2::ZERO, Vec2::ZERO, wall), None);
    }

    #[test]
    fn segment_end_touched_exactly() {
        let wall = Segment::new(v(5.0, 0.0), v(5.0, 5.0));
        assert_hit(
            ray_segment(Vec2::ZERO, v(10.0, 0.0), wall),
            0.5,
            v(-1.0, 0.0),
        );
    }

    #[test]
    fn segment_collinear_hits_the_nearer_end_head_on() {
        let rail = Segment::new(v(8.0, 0.0), v(4.0, 0.0));
        assert_hit(
            ray_segment(Vec2::ZERO, v(10.0, 0.0), rail),
            0.4,
            v(-1.0, 0.0),
        );
        // Coming from beyond the far end.
        assert_hit(
            ray_segment(v(10.0, 0.0), v(-10.0, 0.0), rail),
            0.2,
            v(1.0, 0.0),
        );
        // Too short, or pointing away.
        assert_eq!(ray_segment(Vec2::ZERO, v(3.0, 0.0), rail), None);
        assert_eq!(ray_segment(Vec2::ZERO, v(-3.0, 0.0), rail), None);
    }

    #[test]
    fn segment_origin_on_it_hits_at_once() {
        let wall = Segment::new(v(0.0, -5.0), v(0.0, 5.0));
        assert_hit(
            ray_segment(Vec2::ZERO, v(3.0, 0.0), wall),
            0.0,
            v(-1.0, 0.0),
        );
        // Along it.
        let hit = ray_segment(v(0.0, 1.0), v(0.0, 3.0), wall).unwrap();
        assert_eq!(hit.time, 0.0);
    }

    #[test]
    fn segment_of_zero_length_is_a_point() {
        let point = Segment::new(v(5.0, 0.0), v(5.0, 0.0));
        assert_hit(
            ray_segment(Vec2::ZERO, v(10.0, 0.0), point),
            0.5,
            v(-1.0, 0.0),
        );
        assert_eq!(ray_segment(v(0.0, 1e-3), v(10.0, 0.0), point), None);
    }

    #[test]
    fn a_ray_through_a_shared_vertex_meets_one_of_its_edges() {
        // Rays aimed at a vertex that f32 cannot hold exactly never slip between its edges.
        for ([first, second], origin, direction, angle) in rays_through_a_shared_vertex() {
            let hit =
                ray_segment(origin, direction, first).or(ray_segment(origin, direction, second));
            assert!(hit.is_some(), "slipped through at angle {angle}");
        }
    }

    #[test]
    fn segment_nearly_along_the_ray_is_crossed_on_the_segment() {
        // The ray's line passes exactly through the end (−71.375, −51.125) and leans off the
        // segment's line by 4e-4 over its length: the crossing is that end, at t = 1.
        let rail = Segment::new(v(-105.749405, -85.5), v(-71.375, -51.125));
        let hit = ray_segment(v(1.5, 21.75), v(-72.875, -72.875), rail).unwrap();
        assert_eq!(hit.time, 1.0);
        // Leaving the segment's end behind along its line: no hit.
        let wall = Segment::new(v(14.249947, 14.25), v(0.1, 0.1));
        assert_eq!(ray_segment(Vec2::ZERO, v(-0.1, -0.1), wall), None);
    }
}
