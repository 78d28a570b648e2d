//! Found by the fuzzer. Each case's right answer is worked out here in `f64`, from the same `f32`
//! numbers.

use bevy::math::{DVec2, Vec2};
use bevy_collision_events::geometry::{
    Circle, Segment, Shape, sweep_circle_circle, sweep_segment_circle,
};

use crate::common::{assert_impact, both_orders, circle, v};
use crate::reference::distance_to_segment;

fn d(point: Vec2) -> DVec2 {
    point.as_dvec2()
}

/// The earliest `t ∈ [0, 1]` at which a point starting at `start` and moving by `motion` is
/// `radius` from `center`, in `f64`: the entry root of `|m + t·motion|² = r²` (`m = start −
/// center`), its discriminant taken as `|motion|²·r² − (m × motion)²`, which does not cancel
/// when the radius is tiny against `|m|`.
fn entry_time(start: DVec2, motion: DVec2, center: DVec2, radius: f64) -> Option<f64> {
    let m = start - center;
    let (a, b) = (motion.length_squared(), m.dot(motion));
    let cross = m.perp_dot(motion);
    let discriminant = a * radius * radius - cross * cross;
    if discriminant < 0.0 {
        return None;
    }
    let t = (-b - discriminant.sqrt()) / a;
    (0.0..=1.0).contains(&t).then_some(t)
}

#[test]
fn a_small_disc_moving_away_from_a_segment_end_along_its_line_never_hits() {
    // The disc sits 0.14 beyond the segment's end (0.1, 0.1), within 4e-6 of its line, and moves
    // straight away from it: the gap only grows.
    let disc = Circle::new(v(0.0, 0.0), 0.00048825142);
    let wall = Segment::new(v(14.249947, 14.25), v(0.1, 0.1));
    let motion = v(-0.1, -0.1);
    for k in 0..=100 {
        let center = d(disc.center) + d(motion) * (k as f64 / 100.0);
        let gap = distance_to_segment(center, d(wall.a), d(wall.b)) - disc.radius as f64;
        assert!(gap > 0.14, "gap {gap} at step {k}");
    }
    let impact = both_orders(
        Shape::Circle(disc),
        motion,
        Shape::Segment(wall),
        Vec2::ZERO,
    );
    assert_eq!(impact, None);
}

#[test]
fn shapes_touching_within_rounding_and_moving_apart_never_hit() {
    // A segment 7e-7 long touching a disc of radius 13.25 (its centre 1.9e-9 inside the disc in
    // `f64`, apart in `f32`), and a polyline whose end lies on a disc's bottom (dipping 1.5e-7
    // into it in `f64`); each then moves out of the disc. In `f64` they overlap only within
    // rounding at the start, and are clearly apart from a hundredth of the motion on: there is
    // no first touch to report, whichever way the start's rounding falls.
    let rod = Segment::new(v(13.25, 6.750518e-7), v(13.25, 0.0));
    let rod_motion = v(13.25, 13.25);
    let ball = Circle::new(v(1.8626451e-9, 6.5642536e-7), 13.25);
    let ball_motion = v(0.0, -2.0802943e-8);
    let polyline = [v(-4.0625, 0.0005380668), v(0.0, 0.0)];
    let polyline_motion = v(3156.5793, -17.25);
    let drum = Circle::new(v(0.0, 17.25), 17.25);
    for k in 1..=100 {
        let t = k as f64 / 100.0;
        let center = d(ball.center) + d(ball_motion - rod_motion) * t;
        let gap = distance_to_segment(center, d(rod.a), d(rod.b)) - ball.radius as f64;
        assert!(gap > 0.0, "gap {gap} at {t}");
        let center = d(drum.center) - d(polyline_motion) * t;
        let gap = distance_to_segment(center, d(polyline[0]), d(polyline[1])) - drum.radius as f64;
        assert!(gap > 0.0, "gap {gap} at {t}");
    }
    let impact = both_orders(
        Shape::Segment(rod),
        rod_motion,
        Shape::Circle(ball),
        ball_motion,
    );
    assert_eq!(impact, None);
    let impact = both_orders(
        Shape::Polygon(&polyline),
        polyline_motion,
        Shape::Circle(drum),
        Vec2::ZERO,
    );
    assert_eq!(impact, None);
}

#[test]
fn discs_meeting_after_a_very_long_motion_keep_the_guarantee() {
    // The first disc crosses 4.4e8 and ends (exactly, in `f32`) at (0, 3.25), overlapping the
    // second: its box must not be rounded at the start's magnitude, where an ulp is 32.
    let first = Circle::new(v(-440813120.0, 2.0), 13.0);
    let second = Circle::new(v(22.75, 0.0), 11.0);
    let motion = v(440813120.0, 1.25);
    let reach = (first.radius + second.radius) as f64;
    assert!(d(first.center).distance(d(second.center)) > reach);
    assert!((d(first.center) + d(motion)).distance(d(second.center)) < reach);
    let time = entry_time(d(first.center), d(motion), d(second.center), reach).unwrap();
    assert!(time > 1.0 - 1e-8, "{time}");
    let impact = sweep_circle_circle(first, second, motion).expect("overlapping at the end");
    assert!(impact.time as f64 >= time - 1e-6, "{impact:?}");
    assert!(impact.normal.dot(motion) <= 0.0, "{impact:?}");
    let impact = both_orders(
        Shape::Circle(first),
        motion,
        Shape::Circle(second),
        Vec2::ZERO,
    )
    .expect("overlapping at the end");
    assert!(impact.time as f64 >= time - 1e-6, "{impact:?}");
}

#[test]
fn a_tiny_disc_met_by_the_end_of_a_very_long_segment_gets_a_normal_facing_the_motion() {
    // The segment's end (0.1, 0) runs left into a disc of radius 1.4e-10 at the origin, a
    // ten-billionth of the distance travelled: the normal is the disc's, from its centre to the
    // end at that time, nearly +x.
    let wall = Segment::new(v(8857199000000.0, 1.593292e-10), v(0.1, 0.0));
    let disc = Circle::new(Vec2::ZERO, 1.4327146e-10);
    let motion = v(-5.875, -1.9645086e-10);
    let radius = disc.radius as f64;
    let time = entry_time(d(wall.b), d(motion), d(disc.center), radius).unwrap();
    let normal = ((d(wall.b) + d(motion) * time) / radius).as_vec2();
    assert!(normal.x > 0.99, "{normal}");
    for impact in [
        sweep_segment_circle(wall, disc, motion),
        both_orders(
            Shape::Segment(wall),
            motion,
            Shape::Circle(disc),
            Vec2::ZERO,
        ),
    ] {
        let impact = impact.expect("the end runs into the disc");
        assert!(
            (impact.time as f64 - time).abs() < 1e-6,
            "{impact:?}, {time}"
        );
        assert!(
            impact.normal.distance(normal) < 1e-3,
            "{impact:?}, {normal}"
        );
        assert!(impact.point.distance(Vec2::ZERO) < 1e-6, "{impact:?}");
    }
}

#[test]
fn two_points_as_zero_radius_discs_meeting_head_on_face_the_motion() {
    // A point falling onto a point at rest: the normal is the opposite of the relative motion.
    let start = v(0.0, 0.74705505);
    let fall = v(0.0, -24.094604);
    let time = (start.y as f64 / -fall.y as f64) as f32;
    let impact = both_orders(
        circle(0.0, 0.0, 0.0),
        Vec2::ZERO,
        Shape::Circle(Circle::new(start, 0.0)),
        fall,
    );
    assert_impact(impact, time, Vec2::ZERO, v(0.0, -1.0));
    // Diagonally, the moving point first.
    let impact = both_orders(
        circle(15.75, 15.75, 0.0),
        v(-103.0, -103.0),
        circle(0.0, 0.0, 0.0),
        Vec2::ZERO,
    );
    let time = (15.75f64 / 103.0) as f32;
    assert_impact(impact, time, Vec2::ZERO, v(1.0, 1.0).normalize());
}

#[test]
fn a_point_running_nearly_along_a_segment_meets_it_at_its_end() {
    // The point moves along y = x + 20.25 and ends exactly on the segment's end (-71.375,
    // -51.125); the segment's line leans off that line by 4e-4 over its length, so the two lines
    // cross at that end, at t = 1.
    let point = Segment::new(v(1.5, 21.75), v(1.5, 21.75));
    let motion = v(-72.875, -72.875);
    let rail = Segment::new(v(-105.749405, -85.5), v(-71.375, -51.125));
    let (o, m, a, b) = (d(point.a), d(motion), d(rail.a), d(rail.b));
    let edge = b - a;
    let time = edge.perp_dot(o - a) / m.perp_dot(edge);
    let along = m.perp_dot(o - a) / m.perp_dot(edge);
    assert!((0.0..=1.0).contains(&time) && (0.0..=1.0).contains(&along));
    let expected = o + m * time;
    assert!(expected.distance(a + edge * along) < 1e-9);
    let impact = both_orders(
        Shape::Segment(point),
        motion,
        Shape::Segment(rail),
        Vec2::ZERO,
    );
    let impact = impact.expect("the point reaches the segment's end");
    assert!(
        (impact.time as f64 - time).abs() < 1e-5,
        "{impact:?}, {time}"
    );
    assert!(
        impact.point.as_dvec2().distance(expected) < 1e-4,
        "{impact:?}, {expected}"
    );
}

#[test]
fn a_segment_touching_a_huge_circle_within_rounding_at_the_start_is_met_at_once() {
    // The segment runs along y = 0 (within 5e-4, far below an f32 step at 2e7) past the
    // circle's lowest point (14250001, 0): touching, or apart by less than rounding, at t = 0.
    let segment = Segment::new(v(21750002.0, -0.00046922825), v(0.0, 0.0));
    let circle = Circle::new(v(14250001.0, 14250001.0), 14250001.0);
    let impact = sweep_segment_circle(segment, circle, v(-7500000.5, 14250001.0))
        .expect("they touch at the start and overlap later");
    assert!(impact.time < 1e-3, "{impact:?}");
}
