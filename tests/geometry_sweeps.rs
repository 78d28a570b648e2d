//! Sweeps (time of impact under translation): named cases, then property tests against an
//! independent reference.
//!
//! Every named case goes through the dispatcher in both argument orders and checks that the two
//! agree bit for bit (time and point; the normal negated) and that the normal is a unit vector
//! facing the relative motion.
//!
//! The property tests compare with a reference written here in `f64`, using none of the crate's
//! code: the two shapes' overlap and distance at any time (point–segment distances, segments
//! crossing, point in polygon by crossing number, discs), sampled densely over the motion.
//! [`check_sweep`] lists what is compared and [`Tolerances`] with which margins.

use bevy::math::{DVec2, Vec2};
use bevy_collision_events::geometry::{
    Circle, Impact, Segment, Shape, TOLERANCE, overlap, sweep, sweep_circle_circle,
    sweep_polygon_circle, sweep_polygon_polygon, sweep_polygon_segment, sweep_segment_circle,
    sweep_segment_segment,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// How far a computed time (times the speed) or point may be from the expected one.
const CLOSE: f32 = 1e-4;

fn circle(x: f32, y: f32, radius: f32) -> Shape<'static> {
    Shape::Circle(Circle::new(Vec2::new(x, y), radius))
}

fn segment(ax: f32, ay: f32, bx: f32, by: f32) -> Shape<'static> {
    Shape::Segment(Segment::new(Vec2::new(ax, ay), Vec2::new(bx, by)))
}

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// Sweeps in both orders, checks that they agree bit for bit and that the normal is a unit
/// vector facing the relative motion, and returns the answer for `(first, second)`.
fn both_orders(
    first: Shape,
    first_motion: Vec2,
    second: Shape,
    second_motion: Vec2,
) -> Option<Impact> {
    let forward = sweep(first, first_motion, second, second_motion);
    let backward = sweep(second, second_motion, first, first_motion);
    match (forward, backward) {
        (None, None) => {}
        (Some(f), Some(b)) => {
            assert_eq!(f.time.to_bits(), b.time.to_bits(), "{f:?} vs {b:?}");
            assert_eq!(
                [f.point.x.to_bits(), f.point.y.to_bits()],
                [b.point.x.to_bits(), b.point.y.to_bits()],
                "{f:?} vs {b:?}"
            );
            assert_eq!(f.normal, -b.normal, "{f:?} vs {b:?}");
            assert!((0.0..=1.0).contains(&f.time), "{f:?}");
            assert!((f.normal.length() - 1.0).abs() < 1e-5, "{f:?}");
            let relative = first_motion - second_motion;
            assert!(
                f.normal.dot(relative) <= 1e-5 * relative.length(),
                "{f:?} does not face the relative motion {relative}"
            );
        }
        _ => panic!("one order hits, the other does not: {forward:?} vs {backward:?}"),
    }
    forward
}

fn assert_impact(impact: Option<Impact>, time: f32, point: Vec2, normal: Vec2) {
    let impact = impact.unwrap_or_else(|| panic!("expected an impact at t = {time}"));
    assert!(
        (impact.time - time).abs() <= CLOSE,
        "time {} expected {time} ({impact:?})",
        impact.time
    );
    assert!(
        impact.point.distance(point) <= CLOSE,
        "point {} expected {point} ({impact:?})",
        impact.point
    );
    assert!(
        impact.normal.distance(normal) <= CLOSE,
        "normal {} expected {normal} ({impact:?})",
        impact.normal
    );
}

// ---------------------------------------------------------------------------------------------
// A bullet against a wall, a thin box and an orb

/// Bullets per speed, and the bullet's radius.
const RUNS: usize = 100;
const BULLET: f32 = 3.0;
/// Pixels per frame: slow, typical, fast, and faster than anything on screen is wide.
const SPEEDS: [f32; 4] = [4.0, 15.0, 60.0, 300.0];

/// Fires [`RUNS`] bullets along `+x` at `speed`, run `k` starting at height `height(k)` with its
/// leading point `gap = speed · (k + ½) / RUNS` before the obstacle's face, which lies at
/// `face(height)`: each should touch it at `t = (k + ½) / RUNS` (up to the rounding of the
/// start). `check` gets the impact, the bullet's start and the expected time, and returns what
/// is wrong, if anything. Asserts that every run hits and passes the check.
fn fire(
    obstacle: Shape,
    speed: f32,
    height: impl Fn(usize) -> f32,
    face: impl Fn(f32) -> f32,
    check: impl Fn(Impact, Vec2, f32) -> Option<String>,
) {
    let mut failures = Vec::new();
    for k in 0..RUNS {
        let expected = (k as f32 + 0.5) / RUNS as f32;
        let y = height(k);
        let start = v(face(y) - BULLET - speed * expected, y);
        let bullet = Shape::Circle(Circle::new(start, BULLET));
        let motion = v(speed, 0.0);
        match both_orders(bullet, motion, obstacle, Vec2::ZERO) {
            None => failures.push(format!("run {k} from {start} missed")),
            Some(impact) => {
                if let Some(problem) = check(impact, start, expected) {
                    failures.push(format!("run {k} from {start}: {problem} ({impact:?})"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {RUNS} runs at {speed} px failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Checks an impact against a flat face at `x = face`: the time up to `CLOSE` pixels of travel,
/// the point on the face at the bullet's height, the normal facing the bullet (`−x`).
fn on_flat_face(face: f32, speed: f32) -> impl Fn(Impact, Vec2, f32) -> Option<String> {
    move |impact, start, expected| {
        let travel_error = (impact.time - expected).abs() * speed;
        let point = v(face, start.y);
        if travel_error > CLOSE * (1.0 + speed) {
            Some(format!("time {} expected {expected}", impact.time))
        } else if impact.point.distance(point) > CLOSE * (1.0 + speed) {
            Some(format!("point expected {point}"))
        } else if impact.normal.distance(v(-1.0, 0.0)) > CLOSE {
            Some("normal not −x".into())
        } else {
            None
        }
    }
}

#[test]
fn bullet_through_a_zero_width_wall_hits_every_time() {
    let wall = segment(0.0, -50.0, 0.0, 50.0);
    for speed in SPEEDS {
        fire(
            wall,
            speed,
            |k| -40.0 + 0.8 * k as f32,
            |_| 0.0,
            on_flat_face(0.0, speed),
        );
    }
}

#[test]
fn end_of_frame_poses_alone_miss_most_fast_bullets() {
    // Why sweeps: at 300 px a frame, the bullet's end pose still touches the wall only in the
    // two runs that reach it in the last 2% of the motion (its centre within 3 of the wall).
    let wall = segment(0.0, -50.0, 0.0, 50.0);
    let speed = 300.0;
    let overlapping_at_the_end = (0..RUNS)
        .filter(|&k| {
            let gap = speed * (k as f32 + 0.5) / RUNS as f32;
            let end = Circle::new(v(-BULLET - gap + speed, 0.0), BULLET);
            overlap(Shape::Circle(end), wall)
        })
        .count();
    assert_eq!(overlapping_at_the_end, 2);
}

#[test]
fn bullet_into_a_thin_box_hits_every_time() {
    let thin_box = [v(-1.0, -50.0), v(1.0, -50.0), v(1.0, 50.0), v(-1.0, 50.0)];
    for speed in SPEEDS {
        fire(
            Shape::Polygon(&thin_box),
            speed,
            |k| -40.0 + 0.8 * k as f32,
            |_| -1.0,
            on_flat_face(-1.0, speed),
        );
    }
}

#[test]
fn bullet_into_a_small_orb_hits_every_time() {
    // The orb: radius 4 at the origin. The bullet's centre touches it at distance 7, at
    // x = −√(49 − y²) for a bullet at height y.
    let orb = circle(0.0, 0.0, 4.0);
    let reach = BULLET + 4.0;
    let face = move |y: f32| -(reach * reach - y * y).sqrt() + BULLET;
    for speed in SPEEDS {
        fire(
            orb,
            speed,
            |k| -6.0 + 0.12 * k as f32,
            face,
            move |impact, start, _| {
                // The exact answer in f64 from the bullet's actual (rounded) start.
                let (x0, y) = (start.x as f64, start.y as f64);
                let reach = reach as f64;
                let entry = -(reach * reach - y * y).sqrt();
                let expected = (entry - x0) / speed as f64;
                let normal = DVec2::new(entry, y) / reach;
                let point = normal * 4.0;
                if ((impact.time as f64 - expected) * speed as f64).abs() > CLOSE as f64 {
                    Some(format!("time {} expected {expected}", impact.time))
                } else if impact.point.as_dvec2().distance(point) > CLOSE as f64 {
                    Some(format!("point expected {point}"))
                } else if impact.normal.as_dvec2().distance(normal) > CLOSE as f64 {
                    Some(format!("normal expected {normal}"))
                } else {
                    None
                }
            },
        );
    }
}

#[test]
fn bullet_far_from_the_origin_still_hits() {
    // Near (1e6, −1e6) an f32 is a multiple of 1/16, so the start is rounded to that: the time
    // expected is the one from the rounded start. (At 4 px the smallest gaps round to nothing:
    // those bullets start touching the wall, so 4 px is left out.)
    let (x, y) = (1.0e6, -1.0e6);
    let wall = segment(x, y - 50.0, x, y + 50.0);
    for speed in [15.0, 60.0, 300.0] {
        fire(
            wall,
            speed,
            |k| y - 40.0 + 0.8 * k as f32,
            |_| x,
            move |impact, start, _| {
                let ulp = 1.0 / 16.0;
                let expected = (x - BULLET - start.x) / speed;
                let travel_error = (impact.time - expected).abs() * speed;
                let point = v(x, start.y);
                if travel_error > 2.0 * ulp {
                    Some(format!("time {} expected {expected}", impact.time))
                } else if impact.point.distance(point) > 2.0 * ulp {
                    Some(format!("point expected {point}"))
                } else if impact.normal.distance(v(-1.0, 0.0)) > CLOSE {
                    Some("normal not −x".into())
                } else {
                    None
                }
            },
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Grazing, starting in contact, moving away, standing still

#[test]
fn grazing_an_orb_hits_when_touching_exactly_and_misses_a_hair_away() {
    // The bullet's path passes 7 = 3 + 4 from the orb's centre: it touches at the closest
    // approach, halfway.
    let orb = circle(0.0, 0.0, 4.0);
    let motion = v(40.0, 0.0);
    let touching = both_orders(circle(-20.0, 7.0, BULLET), motion, orb, Vec2::ZERO);
    assert_impact(touching, 0.5, v(0.0, 4.0), v(0.0, 1.0));
    let apart = both_orders(circle(-20.0, 7.001, BULLET), motion, orb, Vec2::ZERO);
    assert_eq!(apart, None);
}

#[test]
fn grazing_a_wall_end_hits_when_touching_exactly_and_misses_a_hair_away() {
    // The wall ends at the origin; the bullet's path passes 3 above it.
    let wall = segment(0.0, -50.0, 0.0, 0.0);
    let motion = v(40.0, 0.0);
    let touching = both_orders(circle(-20.0, 3.0, BULLET), motion, wall, Vec2::ZERO);
    assert_impact(touching, 0.5, v(0.0, 0.0), v(0.0, 1.0));
    let apart = both_orders(circle(-20.0, 3.001, BULLET), motion, wall, Vec2::ZERO);
    assert_eq!(apart, None);
}

#[test]
fn grazing_a_box_top_hits_when_touching_exactly_and_misses_a_hair_away() {
    // Sliding along the top face y = 50, first touching its corner (−1, 50).
    let thin_box = [v(-1.0, -50.0), v(1.0, -50.0), v(1.0, 50.0), v(-1.0, 50.0)];
    let motion = v(40.0, 0.0);
    let polygon = Shape::Polygon(&thin_box);
    let touching = both_orders(circle(-20.0, 53.0, BULLET), motion, polygon, Vec2::ZERO);
    assert_impact(touching, 19.0 / 40.0, v(-1.0, 50.0), v(0.0, 1.0));
    let apart = both_orders(circle(-20.0, 53.001, BULLET), motion, polygon, Vec2::ZERO);
    assert_eq!(apart, None);
}

#[test]
fn grazing_segments_touch_end_to_end_and_miss_a_hair_away() {
    // A segment's end passes exactly over another's end.
    let rest = segment(0.0, -10.0, 0.0, 0.0);
    let motion = v(20.0, 0.0);
    let touching = both_orders(segment(-10.0, 0.0, -10.0, 5.0), motion, rest, Vec2::ZERO);
    let impact = touching.expect("ends meet");
    assert!((impact.time - 0.5).abs() <= CLOSE && impact.point.distance(Vec2::ZERO) <= CLOSE);
    let apart = both_orders(segment(-10.0, 0.001, -10.0, 5.0), motion, rest, Vec2::ZERO);
    assert_eq!(apart, None);
}

#[test]
fn touching_exactly_at_the_end_of_the_motion() {
    let wall = segment(0.0, -50.0, 0.0, 50.0);
    let impact = both_orders(circle(-13.0, 0.0, BULLET), v(10.0, 0.0), wall, Vec2::ZERO);
    assert_impact(impact, 1.0, v(0.0, 0.0), v(-1.0, 0.0));
}

#[test]
fn starting_in_contact_gives_none() {
    let wall = segment(0.0, -50.0, 0.0, 50.0);
    let motion = v(10.0, 0.0);
    // Overlapping, and touching exactly (closed sets: touching is overlapping).
    assert_eq!(
        both_orders(circle(1.0, 0.0, BULLET), motion, wall, Vec2::ZERO),
        None
    );
    assert_eq!(
        both_orders(circle(-3.0, 0.0, BULLET), motion, wall, Vec2::ZERO),
        None
    );
    // A circle inside a polygon, moving out.
    let square = [
        v(-10.0, -10.0),
        v(10.0, -10.0),
        v(10.0, 10.0),
        v(-10.0, 10.0),
    ];
    let polygon = Shape::Polygon(&square);
    assert_eq!(
        both_orders(circle(0.0, 0.0, 1.0), motion, polygon, Vec2::ZERO),
        None
    );
    // A segment across a polygon, and a polygon inside another.
    let across = segment(-20.0, 0.0, 20.0, 0.0);
    assert_eq!(both_orders(across, motion, polygon, Vec2::ZERO), None);
    let small = [v(-1.0, -1.0), v(1.0, -1.0), v(0.0, 1.0)];
    assert_eq!(
        both_orders(Shape::Polygon(&small), motion, polygon, Vec2::ZERO),
        None
    );
}

#[test]
fn moving_away_gives_none() {
    let wall = segment(0.0, -50.0, 0.0, 50.0);
    let away = v(-30.0, 5.0);
    assert_eq!(
        both_orders(circle(-5.0, 0.0, BULLET), away, wall, Vec2::ZERO),
        None
    );
    let orb = circle(0.0, 0.0, 4.0);
    assert_eq!(
        both_orders(circle(-8.0, 0.0, BULLET), away, orb, Vec2::ZERO),
        None
    );
    let square = [v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)];
    let shard = [v(-3.0, 4.0), v(-1.0, 5.0), v(-3.0, 6.0)];
    assert_eq!(
        both_orders(
            Shape::Polygon(&shard),
            away,
            Shape::Polygon(&square),
            Vec2::ZERO
        ),
        None
    );
}

#[test]
fn stopping_short_gives_none() {
    let wall = segment(0.0, -50.0, 0.0, 50.0);
    assert_eq!(
        both_orders(circle(-13.0, 0.0, BULLET), v(9.99, 0.0), wall, Vec2::ZERO),
        None
    );
}

#[test]
fn zero_motion_gives_none() {
    let wall = segment(0.0, -50.0, 0.0, 50.0);
    let bullet = circle(-5.0, 0.0, BULLET);
    assert_eq!(both_orders(bullet, Vec2::ZERO, wall, Vec2::ZERO), None);
    // Moving together is no motion relative to each other.
    let together = v(25.0, -4.0);
    assert_eq!(both_orders(bullet, together, wall, together), None);
}

// ---------------------------------------------------------------------------------------------
// Both shapes moving

#[test]
fn crossing_paths_meet() {
    // A from (−10, 0) along +x, B from (0, −10) along +y, both 20 per frame, radii 1: their
    // centres are √2·|10 − 20t| apart, 2 at t = (10 − √2) / 20.
    let a = circle(-10.0, 0.0, 1.0);
    let b = circle(0.0, -10.0, 1.0);
    let (a_motion, b_motion) = (v(20.0, 0.0), v(0.0, 20.0));
    let time = (10.0 - 2.0f32.sqrt()) / 20.0;
    let b_then = v(0.0, -10.0 + 20.0 * time);
    let normal = v(-1.0, 1.0).normalize();
    let impact = both_orders(a, a_motion, b, b_motion);
    // The point is where they touch then: on B moved by `time × b_motion`.
    assert_impact(impact, time, b_then + normal, normal);
}

#[test]
fn parallel_paths_never_meet() {
    let a = circle(-10.0, 0.0, 1.0);
    let b = circle(0.0, 5.0, 1.0);
    assert_eq!(both_orders(a, v(20.0, 0.0), b, v(20.0, 0.0)), None);
    assert_eq!(both_orders(a, v(20.0, 0.0), b, v(35.0, 0.0)), None);
    let rail = segment(0.0, 5.0, 10.0, 5.0);
    assert_eq!(
        both_orders(rail, v(0.0, 3.0), segment(0.0, 0.0, 10.0, 0.0), v(0.0, 3.0)),
        None
    );
}

#[test]
fn a_wall_moving_onto_a_bullet() {
    // Only the relative motion counts: the wall comes to the bullet. The point is on the wall
    // where it is then.
    let wall = segment(10.0, -50.0, 10.0, 50.0);
    let impact = both_orders(wall, v(-20.0, 0.0), circle(-3.0, 2.0, BULLET), v(0.0, 0.0));
    assert_impact(impact, 0.5, v(0.0, 2.0), v(1.0, 0.0));
}

// ---------------------------------------------------------------------------------------------
// Concave polygons, vertices and ends

/// A "U": a 20 × 10 block with a notch 8 wide cut from the top down to y = 3.
const U_SHAPE: [Vec2; 8] = [
    Vec2::new(-10.0, 0.0),
    Vec2::new(10.0, 0.0),
    Vec2::new(10.0, 10.0),
    Vec2::new(4.0, 10.0),
    Vec2::new(4.0, 3.0),
    Vec2::new(-4.0, 3.0),
    Vec2::new(-4.0, 10.0),
    Vec2::new(-10.0, 10.0),
];

#[test]
fn a_circle_enters_a_concave_notch_and_touches_its_floor() {
    // Falling from (0, 20) by 30: the hull's top (y = 10) would be touched at t = 9/30; the
    // notch's floor (y = 3) is, at t = 16/30.
    let notch = Shape::Polygon(&U_SHAPE);
    let impact = both_orders(circle(0.0, 20.0, 1.0), v(0.0, -30.0), notch, Vec2::ZERO);
    assert_impact(impact, 16.0 / 30.0, v(0.0, 3.0), v(0.0, 1.0));
}

#[test]
fn a_segment_enters_a_concave_notch_and_touches_its_floor() {
    let notch = Shape::Polygon(&U_SHAPE);
    // Upright: its lower end runs into the floor at t = 12/20.
    let upright = segment(1.0, 15.0, 1.0, 25.0);
    let impact = both_orders(upright, v(0.0, -20.0), notch, Vec2::ZERO);
    assert_impact(impact, 0.6, v(1.0, 3.0), v(0.0, 1.0));
    // Level, narrower than the notch: lands flat on the floor (either end is the point).
    let level = segment(-3.0, 15.0, 3.0, 15.0);
    let impact = both_orders(level, v(0.0, -20.0), notch, Vec2::ZERO).expect("lands");
    assert!((impact.time - 0.6).abs() <= CLOSE, "{impact:?}");
    assert!((impact.point.y - 3.0).abs() <= CLOSE && impact.point.x.abs() <= 3.0 + CLOSE);
    assert!(impact.normal.distance(v(0.0, 1.0)) <= CLOSE, "{impact:?}");
    // Level and wider than the notch: caught by the arms' tops at t = 5/20.
    let wide = segment(-6.0, 15.0, 6.0, 15.0);
    let impact = both_orders(wide, v(0.0, -20.0), notch, Vec2::ZERO).expect("caught");
    assert!((impact.time - 0.25).abs() <= CLOSE, "{impact:?}");
}

#[test]
fn a_segment_end_runs_into_a_polygon_edge() {
    let square = [v(-5.0, -5.0), v(5.0, -5.0), v(5.0, 5.0), v(-5.0, 5.0)];
    let impact = both_orders(
        segment(-20.0, 1.0, -12.0, 1.0),
        v(10.0, 0.0),
        Shape::Polygon(&square),
        Vec2::ZERO,
    );
    assert_impact(impact, 0.7, v(-5.0, 1.0), v(-1.0, 0.0));
}

#[test]
fn a_polygon_vertex_runs_into_a_segment() {
    // A diamond whose right vertex (−7, 1) runs into the wall x = 0.
    let diamond = [v(-10.0, -2.0), v(-7.0, 1.0), v(-10.0, 4.0), v(-13.0, 1.0)];
    let wall = segment(0.0, -5.0, 0.0, 5.0);
    let impact = both_orders(Shape::Polygon(&diamond), v(10.0, 0.0), wall, Vec2::ZERO);
    assert_impact(impact, 0.7, v(0.0, 1.0), v(-1.0, 0.0));
}

#[test]
fn a_polygon_vertex_runs_into_another_polygon_edge() {
    let diamond = [v(-10.0, -2.0), v(-7.0, 1.0), v(-10.0, 4.0), v(-13.0, 1.0)];
    let square = [v(0.0, -5.0), v(10.0, -5.0), v(10.0, 5.0), v(0.0, 5.0)];
    let impact = both_orders(
        Shape::Polygon(&diamond),
        v(10.0, 0.0),
        Shape::Polygon(&square),
        Vec2::ZERO,
    );
    assert_impact(impact, 0.7, v(0.0, 1.0), v(-1.0, 0.0));
    // Coming the other way, the square's corner (0, 5) runs into the diamond's lower-right edge.
    let impact = both_orders(
        Shape::Polygon(&square),
        v(-10.0, 0.0),
        Shape::Polygon(&[v(-3.0, 3.0), v(-1.0, 6.0), v(-5.0, 6.0)]),
        Vec2::ZERO,
    );
    // The edge from (−3, 3) to (−1, 6) crosses y = 5 at x = −5/3; its normal facing the
    // square (the first shape) is (3, −2)/√13.
    let normal = v(3.0, -2.0).normalize();
    assert_impact(impact, 1.0 / 6.0, v(-5.0 / 3.0, 5.0), normal);
}

#[test]
fn collinear_segments_meet_end_to_end_head_on() {
    let impact = both_orders(
        segment(-10.0, 0.0, -5.0, 0.0),
        v(10.0, 0.0),
        segment(0.0, 0.0, 5.0, 0.0),
        Vec2::ZERO,
    );
    assert_impact(impact, 0.5, v(0.0, 0.0), v(-1.0, 0.0));
    // Reversed ends, and both moving to meet halfway, where the first's end is at t = ½.
    let impact = both_orders(
        segment(-5.0, 0.0, -10.0, 0.0),
        v(5.0, 0.0),
        segment(5.0, 0.0, 0.0, 0.0),
        v(-5.0, 0.0),
    );
    assert_impact(impact, 0.5, v(-2.5, 0.0), v(-1.0, 0.0));
}

#[test]
fn points_as_zero_radius_circles_and_zero_length_segments() {
    // A point against a wall, and a point into a point.
    let wall = segment(0.0, -5.0, 0.0, 5.0);
    let impact = both_orders(circle(-4.0, 1.0, 0.0), v(8.0, 0.0), wall, Vec2::ZERO);
    assert_impact(impact, 0.5, v(0.0, 1.0), v(-1.0, 0.0));
    let impact = both_orders(
        segment(-4.0, 1.0, -4.0, 1.0),
        v(8.0, 0.0),
        circle(0.0, 1.0, 0.0),
        Vec2::ZERO,
    );
    assert_impact(impact, 0.5, v(0.0, 1.0), v(-1.0, 0.0));
}

#[test]
fn non_finite_or_out_of_range_input_gives_none() {
    let wall = segment(0.0, -5.0, 0.0, 5.0);
    let bullet = circle(-4.0, 1.0, 1.0);
    for motion in [v(f32::NAN, 0.0), v(f32::INFINITY, 0.0), v(0.0, 1e19)] {
        assert_eq!(both_orders(bullet, motion, wall, Vec2::ZERO), None);
    }
    assert_eq!(
        both_orders(circle(-4.0, 1.0, -1.0), v(8.0, 0.0), wall, Vec2::ZERO),
        None
    );
    assert_eq!(
        both_orders(
            bullet,
            v(8.0, 0.0),
            segment(0.0, f32::NAN, 0.0, 5.0),
            Vec2::ZERO
        ),
        None
    );
}

// ---------------------------------------------------------------------------------------------
// Property tests: generated shapes

/// Cases per property; `GEOMETRY_CASES` overrides it.
const CASES: u32 = 3000;

/// A uniform float in `[low, high)`, drawn as an integer: proptest's own float ranges trip a
/// debug assertion of its sampler (`self.low - result < initial.step`) for rare seeds.
fn between(low: f32, high: f32) -> impl Strategy<Value = f32> + Clone {
    const STEPS: u32 = 1 << 24;
    (0..STEPS).prop_map(move |k| low + (high - low) * (k as f32 / STEPS as f32))
}

/// A fixed seed, so CI is reproducible; `GEOMETRY_SEED` picks another, to search further.
fn config() -> Config {
    let from_env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    Config {
        cases: from_env("GEOMETRY_CASES").map_or(CASES, |cases: u64| cases as u32),
        rng_seed: RngSeed::Fixed(from_env("GEOMETRY_SEED").unwrap_or(0x00C0_FFEE)),
        failure_persistence: None,
        ..Config::default()
    }
}

/// A shape owned by the test.
#[derive(Clone, Debug)]
enum Generated {
    Circle(Circle),
    Segment(Segment),
    /// A vertex loop: convex, or star-shaped (concave in general), in either winding.
    Polygon(Vec<Vec2>),
}

impl Generated {
    fn shape(&self) -> Shape<'_> {
        match self {
            Generated::Circle(c) => Shape::Circle(*c),
            Generated::Segment(s) => Shape::Segment(*s),
            Generated::Polygon(v) => Shape::Polygon(v),
        }
    }

    /// Every point moved by `f` (and a radius scaled by `scale`).
    fn map(&self, f: impl Fn(Vec2) -> Vec2, scale: f32) -> Self {
        match self {
            Generated::Circle(c) => Generated::Circle(Circle::new(f(c.center), c.radius * scale)),
            Generated::Segment(s) => Generated::Segment(Segment::new(f(s.a), f(s.b))),
            Generated::Polygon(v) => Generated::Polygon(v.iter().map(|&p| f(p)).collect()),
        }
    }

    /// The shape moved by `offset`, point by point in `f32`: what "moved by its motion" means.
    fn translated(&self, offset: Vec2) -> Self {
        self.map(|p| p + offset, 1.0)
    }

    fn points(&self) -> Vec<Vec2> {
        match self {
            Generated::Circle(c) => vec![c.center],
            Generated::Segment(s) => vec![s.a, s.b],
            Generated::Polygon(v) => v.clone(),
        }
    }

    /// The centre of the bounding box.
    fn center(&self) -> Vec2 {
        let points = self.points();
        let min = points.iter().fold(Vec2::INFINITY, |m, p| m.min(*p));
        let max = points.iter().fold(Vec2::NEG_INFINITY, |m, p| m.max(*p));
        0.5 * (min + max)
    }

    /// How far the shape reaches from its centre.
    fn reach(&self) -> f32 {
        let center = self.center();
        let radius = match self {
            Generated::Circle(c) => c.radius,
            _ => 0.0,
        };
        self.points()
            .iter()
            .map(|p| p.distance(center) + radius)
            .fold(0.0, f32::max)
    }

    /// The size the tolerance is scaled by (the geometry module's rule: a circle's radius, half
    /// a segment, half a polygon's bounding box's diagonal), computed here.
    fn size(&self) -> f32 {
        match self {
            Generated::Circle(c) => c.radius,
            Generated::Segment(s) => 0.5 * s.a.distance(s.b),
            Generated::Polygon(v) => {
                let min = v.iter().fold(Vec2::INFINITY, |m, p| m.min(*p));
                let max = v.iter().fold(Vec2::NEG_INFINITY, |m, p| m.max(*p));
                0.5 * min.distance(max)
            }
        }
    }

    fn max_coordinate(&self) -> f32 {
        self.points()
            .iter()
            .map(|p| p.abs().max_element())
            .fold(0.0, f32::max)
    }

    /// The shape as the reference sees it, in f64.
    fn reference(&self) -> Reference {
        let d = |v: Vec2| v.as_dvec2();
        match self {
            Generated::Circle(c) => Reference::Circle {
                center: d(c.center),
                radius: c.radius as f64,
            },
            Generated::Segment(s) => Reference::Outline {
                corners: vec![d(s.a), d(s.b)],
                edges: vec![(d(s.a), d(s.b))],
                solid: false,
            },
            Generated::Polygon(v) => Reference::Outline {
                corners: v.iter().map(|p| d(*p)).collect(),
                edges: (0..v.len())
                    .map(|i| (d(v[i]), d(v[(i + 1) % v.len()])))
                    .collect(),
                solid: v.len() >= 3,
            },
        }
    }
}

fn circle_shape() -> impl Strategy<Value = Generated> {
    prop_oneof![
        8 => between(0.1, 20.0).prop_map(|r| Generated::Circle(Circle::new(Vec2::ZERO, r))),
        1 => Just(Generated::Circle(Circle::new(Vec2::ZERO, 0.0))),
    ]
}

fn segment_shape() -> impl Strategy<Value = Generated> {
    let end = || (between(-25.0, 25.0), between(-25.0, 25.0)).prop_map(|(x, y)| Vec2::new(x, y));
    prop_oneof![
        8 => (end(), end()).prop_map(|(a, b)| Generated::Segment(Segment::new(a, b))),
        1 => end().prop_map(|a| Generated::Segment(Segment::new(a, a))),
    ]
}

/// A convex polygon: points on an ellipse in the order of their angles.
fn convex_shape() -> impl Strategy<Value = Generated> {
    (
        prop::collection::vec(between(0.0, std::f32::consts::TAU), 3..9),
        between(3.0, 25.0),
        between(3.0, 25.0),
        between(0.0, std::f32::consts::TAU),
        any::<bool>(),
    )
        .prop_filter_map("degenerate", |(mut angles, rx, ry, turn, clockwise)| {
            angles.sort_by(f32::total_cmp);
            let rotation = Vec2::from_angle(turn);
            let mut vertices: Vec<Vec2> = angles
                .iter()
                .map(|a| rotation.rotate(Vec2::new(rx * a.cos(), ry * a.sin())))
                .collect();
            if clockwise {
                vertices.reverse();
            }
            let spread = (0..vertices.len())
                .all(|i| vertices[i].distance(vertices[(i + 1) % vertices.len()]) > 0.5);
            (spread && doubled_area(&vertices) > 4.0).then_some(Generated::Polygon(vertices))
        })
}

/// A star-shaped polygon: spokes of random lengths around its centre (concave in general).
fn star_shape() -> impl Strategy<Value = Generated> {
    (
        prop::collection::vec((between(0.2, 1.0), between(4.0, 30.0)), 3..11),
        between(0.0, std::f32::consts::TAU),
        any::<bool>(),
    )
        .prop_filter_map(
            "a gap of half a turn or more",
            |(spokes, start, clockwise)| {
                let total: f32 = spokes.iter().map(|(gap, _)| gap).sum();
                let mut angle = start;
                let mut vertices = Vec::with_capacity(spokes.len());
                for (gap, radius) in &spokes {
                    let step = gap / total * std::f32::consts::TAU;
                    if step >= 0.95 * std::f32::consts::PI {
                        return None;
                    }
                    vertices.push(Vec2::from_angle(angle) * *radius);
                    angle += step;
                }
                if clockwise {
                    vertices.reverse();
                }
                Some(Generated::Polygon(vertices))
            },
        )
}

fn doubled_area(vertices: &[Vec2]) -> f32 {
    (0..vertices.len())
        .map(|i| vertices[i].perp_dot(vertices[(i + 1) % vertices.len()]))
        .sum::<f32>()
        .abs()
}

/// Two shapes, each with its motion over one frame.
#[derive(Clone, Debug)]
struct Scene {
    first: Generated,
    first_motion: Vec2,
    second: Generated,
    second_motion: Vec2,
}

impl Scene {
    fn relative(&self) -> Vec2 {
        self.first_motion - self.second_motion
    }
}

/// Two shapes placed apart (most of the time) and moving so that they often meet: the first
/// starts `separation × (reach₁ + reach₂)` from the second in a random direction and moves
/// back `approach` times that distance, with a sideways drift; the second moves or not; the
/// whole scene is scaled (tiny to large) and sometimes moved far from the origin.
fn scene(
    first: impl Strategy<Value = Generated>,
    second: impl Strategy<Value = Generated>,
) -> impl Strategy<Value = Scene> {
    let second_motion = prop_oneof![
        Just(Vec2::ZERO),
        (between(-30.0, 30.0), between(-30.0, 30.0)).prop_map(|(x, y)| Vec2::new(x, y)),
    ];
    let approach = prop_oneof![3 => between(0.0, 2.5), 1 => between(0.0, 0.01), 1 => Just(1.0f32)];
    let scale = prop_oneof![Just(0.05f32), Just(1.0f32), Just(30.0f32)];
    let far = prop_oneof![
        3 => Just(Vec2::ZERO),
        1 => (between(-2000.0, 2000.0), between(-2000.0, 2000.0)).prop_map(|(x, y)| Vec2::new(x, y)),
    ];
    (
        (first, second),
        (
            between(0.0, std::f32::consts::TAU),
            between(0.3, 2.5),
            approach,
            between(-1.0, 1.0),
        ),
        (second_motion, scale, far),
    )
        .prop_map(
            |(
                (first, second),
                (angle, separation, approach, drift),
                (second_motion, scale, far),
            )| {
                let direction = Vec2::from_angle(angle);
                let distance = separation * (first.reach() + second.reach());
                let offset = second.center() - first.center() + direction * distance;
                let first = first.translated(offset);
                let relative = -direction * (distance * approach)
                    + direction.perp() * (drift * 0.7 * (first.reach() + second.reach()));
                let place = |p: Vec2| p * scale + far;
                Scene {
                    first: first.map(place, scale),
                    first_motion: (relative + second_motion) * scale,
                    second: second.map(place, scale),
                    second_motion: second_motion * scale,
                }
            },
        )
}

// ---------------------------------------------------------------------------------------------
// The reference, in f64

/// A shape as the reference sees it.
enum Reference {
    Circle {
        center: DVec2,
        radius: f64,
    },
    /// A segment or polygon: its corners (vertices, ends), its edges, and whether it is solid
    /// (a polygon of three or more vertices).
    Outline {
        corners: Vec<DVec2>,
        edges: Vec<(DVec2, DVec2)>,
        solid: bool,
    },
}

impl Reference {
    /// The distance from `point` to the outline, the shape moved by `shift`.
    fn outline_distance(&self, point: DVec2, shift: DVec2) -> f64 {
        match self {
            Reference::Circle { center, radius } => {
                ((point - shift).distance(*center) - radius).abs()
            }
            Reference::Outline { edges, .. } => edges
                .iter()
                .map(|(a, b)| distance_to_segment(point - shift, *a, *b))
                .fold(f64::INFINITY, f64::min),
        }
    }
}

/// Two shapes at one time.
#[derive(Clone, Copy, Debug)]
struct Contact {
    /// Whether the closed shapes share a point.
    overlap: bool,
    /// How far the nearest feature pair is from touching: a vertex (segment end) from an edge
    /// of the other, a circle's centre from an edge or centre, less the radii. Apart, this is
    /// the shapes' distance. Overlapping, it is a lower bound on how far one must move to part
    /// them (the penetration depth): the shapes touch without overlapping only in such feature
    /// contacts, so reaching one takes a move of at least this.
    gap: f64,
}

/// The reference's view of the two shapes, `first` moved by `shift` relative to `second`.
fn contact(first: &Reference, second: &Reference, shift: DVec2) -> Contact {
    use Reference::{Circle, Outline};
    match (first, second) {
        (
            Circle {
                center: c1,
                radius: r1,
            },
            Circle {
                center: c2,
                radius: r2,
            },
        ) => {
            let distance = (*c1 + shift).distance(*c2);
            Contact {
                overlap: distance <= r1 + r2,
                gap: (distance - r1 - r2).abs(),
            }
        }
        (
            Circle { center, radius },
            Outline {
                corners,
                edges,
                solid,
            },
        ) => disc_outline(*center + shift, *radius, corners, edges, *solid),
        (
            Outline {
                corners,
                edges,
                solid,
            },
            Circle { center, radius },
        ) => disc_outline(*center - shift, *radius, corners, edges, *solid),
        (
            Outline {
                corners: corners1,
                edges: edges1,
                solid: solid1,
            },
            Outline {
                corners: corners2,
                edges: edges2,
                solid: solid2,
            },
        ) => {
            let mut gap = f64::INFINITY;
            let mut crossing = false;
            for &(a, b) in edges2 {
                for &corner in corners1 {
                    gap = gap.min(distance_to_segment(corner + shift, a, b));
                }
                for &(c, d) in edges1 {
                    crossing |= segments_cross(c + shift, d + shift, a, b);
                }
            }
            for &(c, d) in edges1 {
                for &corner in corners2 {
                    gap = gap.min(distance_to_segment(corner - shift, c, d));
                }
            }
            let inside = (*solid2 && inside_polygon(corners1[0] + shift, corners2))
                || (*solid1 && inside_polygon(corners2[0] - shift, corners1));
            Contact {
                overlap: gap == 0.0 || crossing || inside,
                gap,
            }
        }
    }
}

fn disc_outline(
    center: DVec2,
    radius: f64,
    corners: &[DVec2],
    edges: &[(DVec2, DVec2)],
    solid: bool,
) -> Contact {
    let mut nearest = f64::INFINITY;
    let mut gap = f64::INFINITY;
    for &(a, b) in edges {
        let distance = distance_to_segment(center, a, b);
        nearest = nearest.min(distance);
        gap = gap.min((distance - radius).abs());
    }
    Contact {
        overlap: nearest <= radius || (solid && inside_polygon(center, corners)),
        gap,
    }
}

fn distance_to_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    let length_squared = ab.length_squared();
    let t = if length_squared == 0.0 {
        0.0
    } else {
        ((p - a).dot(ab) / length_squared).clamp(0.0, 1.0)
    };
    p.distance(a + ab * t)
}

/// Whether two segments cross properly (each one's ends strictly on both sides of the other's
/// line); touching is left to the distances.
fn segments_cross(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let side = |p: DVec2, q: DVec2, x: DVec2| (q - p).perp_dot(x - p);
    let opposite = |s: f64, t: f64| (s < 0.0 && t > 0.0) || (s > 0.0 && t < 0.0);
    opposite(side(a, b, c), side(a, b, d)) && opposite(side(c, d, a), side(c, d, b))
}

/// Point in polygon by the crossing number: a ray towards `+x` crosses the outline an odd
/// number of times.
fn inside_polygon(p: DVec2, vertices: &[DVec2]) -> bool {
    let mut inside = false;
    for i in 0..vertices.len() {
        let (a, b) = (vertices[i], vertices[(i + 1) % vertices.len()]);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// Samples over the motion.
const STEPS: usize = 4096;

/// What the reference saw over the motion.
#[derive(Debug)]
struct Scan {
    /// The first sampled time at which the shapes overlap.
    first_overlap: Option<f64>,
    /// The last sampled time before that (the shapes apart there).
    last_apart: f64,
    /// The largest [`Contact::gap`] of the overlapping samples (a lower bound on the deepest
    /// penetration), up to the point where it passed the depth asked for.
    max_depth: f64,
    /// A lower bound on the shapes' distance over the whole motion, when no sample overlaps.
    min_distance: f64,
}

/// Samples the relative motion at `STEPS + 1` evenly spaced times.
///
/// Times where the shapes are provably apart are skipped: the gap changes by at most `speed`
/// per unit of time (every feature moves at most that fast), so from a sample with gap `g` the
/// shapes cannot meet within `g / speed`; half of that is skipped. That the shapes are apart
/// between two samples with gaps `g₀`, `g₁` a time `h` apart, and how close they come, is
/// bounded by the same rule: at least `(g₀ + g₁ − speed·h) / 2`. The scan stops once the depth
/// passes `enough`.
fn scan(first: &Reference, second: &Reference, relative: DVec2, enough: f64) -> Scan {
    let speed = relative.length();
    let mut result = Scan {
        first_overlap: None,
        last_apart: 0.0,
        max_depth: 0.0,
        min_distance: f64::INFINITY,
    };
    let mut previous: Option<(f64, Contact)> = None;
    let mut k = 0;
    loop {
        let t = k as f64 / STEPS as f64;
        let now = contact(first, second, relative * t);
        if now.overlap {
            result.first_overlap.get_or_insert(t);
            result.max_depth = result.max_depth.max(now.gap);
            result.min_distance = 0.0;
            if result.max_depth > enough {
                break;
            }
        } else {
            if result.first_overlap.is_none() {
                result.last_apart = t;
            }
            let bound = match previous {
                Some((t0, before)) if !before.overlap => {
                    0.5 * (before.gap + now.gap - speed * (t - t0))
                }
                Some(_) => 0.0,
                None => now.gap,
            };
            result.min_distance = result.min_distance.min(bound);
        }
        previous = Some((t, now));
        if k == STEPS || speed == 0.0 {
            break;
        }
        let skip = if now.overlap {
            1
        } else {
            ((0.5 * now.gap / speed * STEPS as f64).floor() as usize).max(1)
        };
        k = (k + skip).min(STEPS);
    }
    result
}

/// The first time the shapes touch, by bisection between the last apart sample and the first
/// overlapping one.
fn touch_time(first: &Reference, second: &Reference, relative: DVec2, scan: &Scan) -> Option<f64> {
    let (mut apart, mut touching) = (scan.last_apart, scan.first_overlap?);
    for _ in 0..60 {
        let middle = 0.5 * (apart + touching);
        if contact(first, second, relative * middle).overlap {
            touching = middle;
        } else {
            apart = middle;
        }
    }
    Some(touching)
}

// ---------------------------------------------------------------------------------------------
// The checks

/// The tolerances of one scene, all scaled by its size, coordinates and motion, so that they
/// do not change when a scene is moved or scaled.
#[derive(Debug)]
struct Tolerances {
    /// How far our point may lie from either outline, and how far from touching the shapes may
    /// be at our time: the module's `TOLERANCE × size` (four times over) plus the rounding of
    /// `f32` coordinates and motions (`4e-6` of their magnitude, about 32 ulps).
    distance: f64,
    /// How much later than the reference's first overlapping sample our time may be: the
    /// distance tolerance as a time.
    time: f64,
    /// The margin that separates clear cases from grazes: `1e-3` of the shapes' size, plus 50
    /// times the distance tolerance. A hit the reference sees deeper than this must be found;
    /// shapes the reference keeps farther apart than this must not be reported hitting.
    margin: f64,
}

impl Tolerances {
    fn of(scene: &Scene) -> Self {
        let size = (scene.first.size() + scene.second.size()) as f64;
        let relative = scene.relative().as_dvec2().length();
        let coordinates = [
            scene.first.max_coordinate(),
            scene.second.max_coordinate(),
            scene.first.translated(scene.first_motion).max_coordinate(),
            scene
                .second
                .translated(scene.second_motion)
                .max_coordinate(),
        ]
        .into_iter()
        .fold(0.0, f32::max) as f64;
        let motions = scene
            .first_motion
            .abs()
            .max(scene.second_motion.abs())
            .max_element() as f64;
        let distance = 4.0 * TOLERANCE as f64 * size + 4e-6 * (coordinates + motions + relative);
        Self {
            distance,
            time: if relative > 0.0 {
                distance / relative
            } else {
                0.0
            },
            margin: 1e-3 * size + 50.0 * distance,
        }
    }
}

/// Everything a sweep must satisfy, for one scene:
///
/// 1. Both argument orders give the same time and point bit for bit, and negated normals.
/// 2. Any answer is finite: a time in `[0, 1]`, a unit normal facing the relative motion
///    (`normal · relative ≤ 1e-5 |relative|`).
/// 3. Shapes that overlap at the start (the crate's `overlap`) give `None`; shapes apart at the
///    start that overlap at the end (each moved by its motion, point by point) give `Some`.
/// 4. Against the reference, when the shapes start clearly apart (reference gap above the
///    margin):
///    - a hit the reference samples deeper than the margin is found;
///    - no hit is reported when the reference keeps the shapes farther apart than the margin;
///    - at our time the reference's gap is within the distance tolerance (the shapes touch
///      then, so an earlier time than the reference's is a graze between its samples, not an
///      error), and our time is no later than the reference's first overlapping sample plus
///      the time tolerance: together, the times agree within a step plus the tolerance, away
///      from grazes;
///    - our point lies on both outlines at our time (`f64` distances) within the distance
///      tolerance;
///    - our normal is perpendicular to an outline through the point (an edge within tolerance
///      of it, or a circle's radius through it) or head-on (opposite the relative motion);
///    - the pair function, given the relative motion, agrees: a hit in the clear cases above,
///      and where both hit, the same time and point (carried into the common frame) within the
///      tolerances.
fn check_sweep(scene: &Scene) -> Result<(), TestCaseError> {
    let (first, second) = (scene.first.shape(), scene.second.shape());
    let forward = sweep(first, scene.first_motion, second, scene.second_motion);
    let backward = sweep(second, scene.second_motion, first, scene.first_motion);

    // 1. Both orders.
    match (forward, backward) {
        (None, None) => {}
        (Some(f), Some(b)) => {
            prop_assert_eq!(f.time.to_bits(), b.time.to_bits(), "{:?} vs {:?}", f, b);
            prop_assert_eq!(
                f.point.x.to_bits(),
                b.point.x.to_bits(),
                "{:?} vs {:?}",
                f,
                b
            );
            prop_assert_eq!(
                f.point.y.to_bits(),
                b.point.y.to_bits(),
                "{:?} vs {:?}",
                f,
                b
            );
            prop_assert_eq!(f.normal, -b.normal, "{:?} vs {:?}", f, b);
        }
        _ => prop_assert!(false, "one order hits: {:?} vs {:?}", forward, backward),
    }

    // 2. Well formed.
    let relative = scene.relative();
    if let Some(impact) = forward {
        prop_assert!((0.0..=1.0).contains(&impact.time), "{:?}", impact);
        prop_assert!(impact.point.is_finite(), "{:?}", impact);
        prop_assert!((impact.normal.length() - 1.0).abs() < 1e-5, "{:?}", impact);
        prop_assert!(
            impact.normal.dot(relative) <= 1e-5 * relative.length(),
            "{:?} against the relative motion {}",
            impact,
            relative
        );
    }

    // 3. Overlap at the start and at the end.
    if overlap(first, second) {
        prop_assert!(
            forward.is_none(),
            "hit though overlapping at the start: {:?}",
            forward
        );
        return Ok(());
    }
    let first_end = scene.first.translated(scene.first_motion);
    let second_end = scene.second.translated(scene.second_motion);
    if overlap(first_end.shape(), second_end.shape()) {
        prop_assert!(
            forward.is_some(),
            "apart at the start, overlapping at the end, yet no impact"
        );
    }

    // 4. The reference.
    let tolerances = Tolerances::of(scene);
    let (reference1, reference2) = (scene.first.reference(), scene.second.reference());
    let relative64 = scene.first_motion.as_dvec2() - scene.second_motion.as_dvec2();
    let start = contact(&reference1, &reference2, DVec2::ZERO);
    if start.overlap || start.gap <= tolerances.margin {
        return Ok(()); // Touching, or nearly, at the start: a matter of rounding.
    }
    let seen = scan(&reference1, &reference2, relative64, tolerances.margin);
    if seen.max_depth > tolerances.margin {
        prop_assert!(
            forward.is_some(),
            "missed: the reference overlaps from t = {:?}, {} deep ({:?})",
            seen.first_overlap,
            seen.max_depth,
            tolerances
        );
    }
    if seen.first_overlap.is_none() && seen.min_distance > tolerances.margin {
        prop_assert!(
            forward.is_none(),
            "hit, yet the reference keeps them {} apart ({:?})",
            seen.min_distance,
            tolerances
        );
    }
    let pair = pair_sweep(scene);
    if seen.max_depth > tolerances.margin {
        prop_assert!(pair.is_some(), "the pair function misses: {:?}", pair);
    }
    if seen.first_overlap.is_none() && seen.min_distance > tolerances.margin {
        prop_assert!(pair.is_none(), "the pair function hits: {:?}", pair);
    }
    if let (Some(ours), Some(pair)) = (forward, pair) {
        prop_assert!(
            (ours.time - pair.time).abs() as f64 <= 2.0 * tolerances.time
                && ours.point.distance(pair.point) as f64 <= 2.0 * tolerances.distance,
            "the dispatcher gives {:?}, the pair function {:?} ({:?})",
            ours,
            pair,
            tolerances
        );
    }
    let Some(impact) = forward else {
        return Ok(());
    };
    let time = impact.time as f64;
    let then = contact(&reference1, &reference2, relative64 * time);
    prop_assert!(
        then.gap <= tolerances.distance,
        "at t = {} the reference has them {} from touching ({:?}, {:?})",
        time,
        then.gap,
        then,
        tolerances
    );
    if let Some(first_overlap) = seen.first_overlap {
        prop_assert!(
            time <= first_overlap + tolerances.time,
            "late: t = {} but the reference overlaps at {} ({:?})",
            time,
            first_overlap,
            tolerances
        );
    }
    let point = impact.point.as_dvec2();
    let first_shift = scene.first_motion.as_dvec2() * time;
    let second_shift = scene.second_motion.as_dvec2() * time;
    let (d1, d2) = (
        reference1.outline_distance(point, first_shift),
        reference2.outline_distance(point, second_shift),
    );
    prop_assert!(
        d1 <= tolerances.distance && d2 <= tolerances.distance,
        "{:?}: the point lies {} from the first outline and {} from the second ({:?})",
        impact,
        d1,
        d2,
        tolerances
    );
    prop_assert!(
        normal_fits(
            impact,
            relative64,
            [
                (&reference1, first_shift, 1.0),
                (&reference2, second_shift, -1.0)
            ],
            &tolerances
        ),
        "{:?}: the normal is perpendicular to no outline through the point ({:?})",
        impact,
        tolerances
    );
    Ok(())
}

/// The pair function's answer for the scene, given the relative motion (the more complex shape
/// first, as the functions are written), carried into the scene's frame and order: its point
/// moved by `time ×` the motion of the shape it held at rest, its normal negated when the
/// shapes went in the other way round.
fn pair_sweep(scene: &Scene) -> Option<Impact> {
    use Generated::{Circle as C, Polygon as P, Segment as S};
    let relative = scene.relative();
    let forward = |impact: Option<Impact>| {
        impact.map(|hit| Impact {
            point: hit.point + hit.time * scene.second_motion,
            ..hit
        })
    };
    let reversed = |impact: Option<Impact>| {
        impact.map(|hit| Impact {
            point: hit.point + hit.time * scene.first_motion,
            ..hit.mirrored()
        })
    };
    match (&scene.first, &scene.second) {
        (C(a), C(b)) => forward(sweep_circle_circle(*a, *b, relative)),
        (S(s), C(c)) => forward(sweep_segment_circle(*s, *c, relative)),
        (C(c), S(s)) => reversed(sweep_segment_circle(*s, *c, -relative)),
        (S(a), S(b)) => forward(sweep_segment_segment(*a, *b, relative)),
        (P(p), C(c)) => forward(sweep_polygon_circle(p, *c, relative)),
        (C(c), P(p)) => reversed(sweep_polygon_circle(p, *c, -relative)),
        (P(p), S(s)) => forward(sweep_polygon_segment(p, *s, relative)),
        (S(s), P(p)) => reversed(sweep_polygon_segment(p, *s, -relative)),
        (P(a), P(b)) => forward(sweep_polygon_polygon(a, b, relative)),
    }
}

/// Whether the normal is perpendicular to an outline through the point, or head-on where that is
/// the rule. `shapes` are the two shapes with their shifts at the impact's time and the side the
/// normal faces (`+1`: the normal points towards that shape, the first; `−1`: away from it).
///
/// Head-on (opposite the relative motion) is accepted only for the guarantee's answer at
/// `t = 1`, or where an edge through the point runs along the motion (segments meeting end to
/// end on one line) or is a point (a zero-length segment).
fn normal_fits(
    impact: Impact,
    relative: DVec2,
    shapes: [(&Reference, DVec2, f64); 2],
    tolerances: &Tolerances,
) -> bool {
    const ANGLE: f64 = 1e-3;
    let normal = impact.normal.as_dvec2();
    let point = impact.point.as_dvec2();
    let near = 4.0 * tolerances.distance;
    let edges_through_point = || {
        shapes.iter().flat_map(|(shape, shift, _)| match shape {
            Reference::Circle { .. } => Vec::new(),
            Reference::Outline { edges, .. } => edges
                .iter()
                .map(|(a, b)| (*a + *shift, *b + *shift))
                .filter(|(a, b)| distance_to_segment(point, *a, *b) <= near)
                .collect(),
        })
    };
    let perpendicular_to_an_edge = edges_through_point()
        .any(|(a, b)| a.distance(b) > 0.0 && normal.dot((b - a).normalize()).abs() <= ANGLE);
    let on_a_circle = shapes.iter().any(|(shape, shift, towards)| match shape {
        Reference::Circle { center, radius } => {
            let outward = point - (*center + *shift);
            // Too small a circle to tell its radius's direction from rounding: any normal.
            *radius <= 1e3 * tolerances.distance
                || (outward.length() > 0.0
                    && (normal * -*towards).dot(outward.normalize()) >= 1.0 - ANGLE)
        }
        Reference::Outline { .. } => false,
    });
    let head_on = relative.length() > 0.0 && normal.dot(relative.normalize()) <= -(1.0 - ANGLE);
    let head_on_allowed = impact.time == 1.0
        || edges_through_point().any(|(a, b)| {
            a.distance(b) <= near
                || (b - a).normalize().perp_dot(relative.normalize()).abs() <= ANGLE
        });
    perpendicular_to_an_edge || on_a_circle || (head_on && head_on_allowed)
}

// ---------------------------------------------------------------------------------------------
// The properties

proptest! {
    #![proptest_config(config())]

    #[test]
    fn circle_circle_sweeps_match_the_reference(s in scene(circle_shape(), circle_shape())) {
        check_sweep(&s)?;
    }

    #[test]
    fn segment_circle_sweeps_match_the_reference(s in scene(segment_shape(), circle_shape())) {
        check_sweep(&s)?;
    }

    #[test]
    fn segment_segment_sweeps_match_the_reference(s in scene(segment_shape(), segment_shape())) {
        check_sweep(&s)?;
    }

    #[test]
    fn convex_polygon_circle_sweeps_match_the_reference(
        s in scene(convex_shape(), circle_shape())
    ) {
        check_sweep(&s)?;
    }

    #[test]
    fn concave_polygon_circle_sweeps_match_the_reference(
        s in scene(star_shape(), circle_shape())
    ) {
        check_sweep(&s)?;
    }

    #[test]
    fn polygon_segment_sweeps_match_the_reference(
        s in scene(prop_oneof![convex_shape(), star_shape()], segment_shape())
    ) {
        check_sweep(&s)?;
    }

    #[test]
    fn polygon_polygon_sweeps_match_the_reference(
        s in scene(prop_oneof![convex_shape(), star_shape()], prop_oneof![convex_shape(), star_shape()])
    ) {
        check_sweep(&s)?;
    }

    /// Scenes cut short where the reference first sees them touch: the end poses touch within
    /// rounding, the case where the rays may miss and the guarantee takes over.
    #[test]
    fn sweeps_ending_in_a_touch_keep_the_guarantee(
        s in scene(any_shape(), any_shape())
    ) {
        let (reference1, reference2) = (s.first.reference(), s.second.reference());
        let relative = s.relative().as_dvec2();
        let seen = scan(&reference1, &reference2, relative, f64::INFINITY);
        let Some(touch) = touch_time(&reference1, &reference2, relative, &seen) else {
            return Ok(());
        };
        let cut = Scene {
            first_motion: s.first_motion * touch as f32,
            second_motion: s.second_motion * touch as f32,
            ..s
        };
        check_sweep(&cut)?;
    }
}

fn any_shape() -> impl Strategy<Value = Generated> {
    prop_oneof![
        circle_shape(),
        segment_shape(),
        convex_shape(),
        star_shape()
    ]
}

// ---------------------------------------------------------------------------------------------
// Wild input: no panic, nothing non-finite

/// Any float: huge, tiny, zero, NaN and infinities included.
fn wild() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<f32>(),
        Just(0.0),
        Just(-0.0),
        Just(f32::MIN_POSITIVE),
        Just(f32::MAX),
        Just(f32::NAN),
        Just(f32::INFINITY),
        between(-1e-30, 1e-30),
        between(-1e30, 1e30),
        between(-1e18, 1e18),
        between(-1e6, 1e6),
    ]
}

fn wild_point() -> impl Strategy<Value = Vec2> {
    (wild(), wild()).prop_map(|(x, y)| Vec2::new(x, y))
}

fn wild_shape() -> impl Strategy<Value = Generated> {
    prop_oneof![
        (wild_point(), wild()).prop_map(|(c, r)| Generated::Circle(Circle::new(c, r))),
        (wild_point(), wild_point()).prop_map(|(a, b)| Generated::Segment(Segment::new(a, b))),
        prop::collection::vec(wild_point(), 1..6).prop_map(Generated::Polygon),
    ]
}

/// The sweep of `a` and `b` agrees both ways round, and an impact is finite: its time in
/// `[0, 1]`, its point finite, its normal of unit length.
fn check_finite_both_ways(
    a: &Generated,
    a_motion: Vec2,
    b: &Generated,
    b_motion: Vec2,
) -> Result<(), TestCaseError> {
    let forward = sweep(a.shape(), a_motion, b.shape(), b_motion);
    let backward = sweep(b.shape(), b_motion, a.shape(), a_motion);
    prop_assert_eq!(forward.map(Impact::mirrored), backward);
    if let Some(impact) = forward {
        prop_assert!((0.0..=1.0).contains(&impact.time), "{:?}", impact);
        prop_assert!(impact.point.is_finite(), "{:?}", impact);
        prop_assert!((impact.normal.length() - 1.0).abs() < 1e-3, "{:?}", impact);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn wild_input_never_panics_or_gives_non_finite_answers(
        a in wild_shape(),
        b in wild_shape(),
        a_motion in wild_point(),
        b_motion in wild_point(),
    ) {
        check_finite_both_ways(&a, a_motion, &b, b_motion)?;
    }
}

proptest! {
    #![proptest_config(config())]

    /// The wild-input checks on scenes that meet, scaled towards the ends of the range (10⁻¹⁵
    /// to 10¹⁵): here most cases reach the checks on the impact, which wild input seldom does.
    #[test]
    fn scenes_scaled_to_the_ends_of_the_range_give_finite_answers_both_ways(
        s in scene(any_shape(), any_shape()),
        exponent in -15i32..=15,
    ) {
        let scale = 10f32.powi(exponent);
        let (a, b) = (s.first.map(|p| p * scale, scale), s.second.map(|p| p * scale, scale));
        let (a_motion, b_motion) = (s.first_motion * scale, s.second_motion * scale);
        check_finite_both_ways(&a, a_motion, &b, b_motion)?;
    }
}

#[test]
fn a_one_vertex_polygon_sweeps_as_a_point() {
    use bevy_collision_events::geometry::{Circle, Segment, Shape, sweep};
    let point = [Vec2::new(0.0, 0.0)];
    let wall = Shape::Segment(Segment::new(Vec2::new(10.0, -5.0), Vec2::new(10.0, 5.0)));
    let hit = sweep(
        Shape::Polygon(&point),
        Vec2::new(20.0, 0.0),
        wall,
        Vec2::ZERO,
    )
    .expect("the point runs into the wall");
    assert!((hit.time - 0.5).abs() < 1e-5, "{hit:?}");
    assert!(hit.point.abs_diff_eq(Vec2::new(10.0, 0.0), 1e-4));
    let orb = Shape::Circle(Circle::new(Vec2::new(10.0, 0.0), 2.0));
    let hit = sweep(
        Shape::Polygon(&point),
        Vec2::new(20.0, 0.0),
        orb,
        Vec2::ZERO,
    )
    .expect("the point runs into the orb");
    assert!((hit.time - 0.4).abs() < 1e-5, "{hit:?}");
    assert!(hit.normal.abs_diff_eq(Vec2::NEG_X, 1e-5));
}

// ---------------------------------------------------------------------------------------------
// Found by the fuzzer
//
// Each case's right answer is worked out here in `f64`, from the same `f32` numbers.

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
