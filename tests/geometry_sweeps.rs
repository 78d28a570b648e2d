//! Sweeps (time of impact under translation): named cases.
//!
//! Every named case goes through the dispatcher in both argument orders and checks that the two
//! agree bit for bit (time and point; the normal negated) and that the normal is a unit vector
//! facing the relative motion.

use bevy::math::{DVec2, Vec2};
use bevy_collision_events::geometry::{Disc, Impact, Segment, Shape, overlap, sweep};

/// How far a computed time (times the speed) or point may be from the expected one.
const CLOSE: f32 = 1e-4;

fn circle(x: f32, y: f32, radius: f32) -> Shape<'static> {
    Shape::Circle(Disc::new(Vec2::new(x, y), radius))
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
        let bullet = Shape::Circle(Disc::new(start, BULLET));
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
            let end = Disc::new(v(-BULLET - gap + speed, 0.0), BULLET);
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
