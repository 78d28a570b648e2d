//! Named cases: a bullet against a wall, a thin box and an orb, at speeds from slow to faster
//! than anything on screen is wide.

use bevy::math::{DVec2, Vec2};
use bevy_collision_events::geometry::{Circle, Impact, Shape, overlap};

use crate::common::{CLOSE, both_orders, circle, segment, v};

/// Bullets per speed, and the bullet's radius.
const RUNS: usize = 100;
pub(crate) const BULLET: f32 = 3.0;
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
