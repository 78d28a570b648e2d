//! The turning sweep against references: dense sub-stepping, and analytic times where a
//! shape slides along another.

use super::*;
use crate::geometry::{Circle, Segment, overlap};
use core::f32::consts::{PI, TAU};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// The reference's sub-steps: the motion cut into this many.
const STEPS: usize = 4000;

/// A random shape of any kind near the origin: a circle, a segment up to 200 long, a
/// regular polygon, or a star (concave).
fn shape(rng: &mut StdRng) -> (Option<Circle>, Vec<Vec2>) {
    let center = Vec2::new(rng.random_range(-60.0..60.0), rng.random_range(-60.0..60.0));
    match rng.random_range(0..4) {
        0 => (
            Some(Circle::new(center, rng.random_range(1.0..20.0))),
            Vec::new(),
        ),
        1 => {
            let half = Vec2::from_angle(rng.random_range(0.0..TAU)) * rng.random_range(5.0..100.0);
            (None, vec![center - half, center + half])
        }
        kind => {
            let corners = rng.random_range(3..8) * if kind == 3 { 2 } else { 1 };
            let size = rng.random_range(5.0..40.0);
            let turn = rng.random_range(0.0..TAU);
            let points = (0..corners)
                .map(|i| {
                    let reach = if kind == 3 && i % 2 == 1 { 0.4 } else { 1.0 };
                    center + Vec2::from_angle(turn + i as f32 * TAU / corners as f32) * size * reach
                })
                .collect();
            (None, points)
        }
    }
}

fn as_shape<'a>(circle: Option<Circle>, points: &'a [Vec2]) -> Shape<'a> {
    match (circle, points) {
        (Some(circle), _) => Shape::Circle(circle),
        (None, [a, b]) => Shape::Segment(Segment::new(*a, *b)),
        (None, points) => Shape::Polygon(points),
    }
}

/// The shape at `time` of a motion that ends at the shape, in `f64`, cast back.
fn posed(
    circle: Option<Circle>,
    points: &[Vec2],
    turn: Turn,
    time: f64,
) -> (Option<Circle>, Vec<Vec2>) {
    let back = time - 1.0;
    let pivot = turn.pivot.as_dvec2() + turn.translation.as_dvec2() * back;
    let rotation = DVec2::from_angle(f64::from(turn.angle) * back);
    let place = |p: Vec2| (pivot + rotation.rotate(p.as_dvec2() - turn.pivot.as_dvec2())).as_vec2();
    (
        circle.map(|c| Circle::new(place(c.center), c.radius)),
        points.iter().map(|&p| place(p)).collect(),
    )
}

/// A segment turning in place with one end a hair from its pivot, and a still circle
/// close to the pivot: whenever the turn is found to sweep clear of the circle, the
/// segment at each of 4,000 steps of its turn, in `f64`, lies farther from the circle's
/// centre than its radius. First the case of an end 8e-4 from the pivot that passes
/// through a circle beside it while the far end turns away.
#[test]
fn a_turn_found_clear_of_a_circle_never_meets_it() {
    let clear = |near: Vec2, far: Vec2, angle: f32, circle: Circle| {
        let turning = Turn {
            translation: Vec2::ZERO,
            angle,
            pivot: Vec2::ZERO,
        };
        let segment = Moving::of(Shape::Segment(Segment::new(near, far)), turning).unwrap();
        let circle = Moving::of(Shape::Circle(circle), Turn::default()).unwrap();
        Moving::sectors_apart(&segment, &circle)
    };
    let along = Vec2::from_angle(80f32.to_radians());
    let beside = Circle::new(Vec2::new(1.0002, 0.0), 1.0);
    assert!(!clear(
        8e-4 * along,
        -1000.0 * along,
        160f32.to_radians(),
        beside
    ));
    let mut rng = StdRng::seed_from_u64(29);
    let mut found_clear = 0;
    for case in 0..20_000 {
        let direction = |rng: &mut StdRng| Vec2::from_angle(rng.random_range(-PI..PI));
        let near = direction(&mut rng) * rng.random_range(0.0..2e-3);
        let far = direction(&mut rng) * rng.random_range(10.0..1000.0);
        let angle = rng.random_range(-PI..PI);
        let radius = rng.random_range(0.1..3.0);
        let reach = if case % 2 == 0 { radius + 0.01 } else { 1000.0 };
        let circle = Circle::new(direction(&mut rng) * rng.random_range(0.0..reach), radius);
        if !clear(near, far, angle, circle) {
            continue;
        }
        found_clear += 1;
        let center = circle.center.as_dvec2();
        for step in 0..=STEPS {
            let back = DVec2::from_angle(-f64::from(angle) * (1.0 - step as f64 / STEPS as f64));
            let [a, b] = [near, far].map(|end| back.rotate(end.as_dvec2()));
            let along = b - a;
            let t = ((center - a).dot(along) / along.length_squared()).clamp(0.0, 1.0);
            let distance = center.distance(a + along * t);
            assert!(
                distance > f64::from(radius),
                "case {case}: found clear, but at step {step} the segment from {near} to \
                 {far}, turning {angle} about the origin, is {distance} from the centre of \
                 {circle:?}"
            );
        }
    }
    assert!(found_clear > 2_000, "{found_clear} found clear");
}

/// An octagon saw of radius 16 spinning in place over a floor 100,000 wide: turned 22.5°
/// from a corner down to a side down, its lowest point never comes nearer the floor than 0.4,
/// and nothing is met (the floor's size does not widen what counts as touching); turned from
/// a side down to a corner 0.05 into the floor, it meets the floor when that corner reaches
/// it, found in `f64` (the advancement never passes the touch, and stops within the saw's
/// tolerance of it).
#[test]
fn a_saw_spinning_over_a_wide_floor_meets_it_only_where_it_reaches_it() {
    const RADIUS: f64 = 16.0;
    const EIGHTH: f64 = core::f64::consts::FRAC_PI_4;
    let floor = [
        Vec2::new(-50_000.0, -1000.0),
        Vec2::new(50_000.0, -1000.0),
        Vec2::new(50_000.0, 0.0),
        Vec2::new(-50_000.0, 0.0),
    ];
    // The saw with a corner at `first` radians from straight down, its centre at `height`.
    let saw = |first: f64, height: f64| -> Vec<Vec2> {
        (0..8)
            .map(|i| {
                let angle = -core::f64::consts::FRAC_PI_2 + first + i as f64 * EIGHTH;
                (DVec2::new(0.0, height) + DVec2::from_angle(angle) * RADIUS).as_vec2()
            })
            .collect()
    };
    let sweep = |corners: &[Vec2], angle: f64, height: f64| {
        let turn = Turn {
            translation: Vec2::ZERO,
            angle: angle as f32,
            pivot: Vec2::new(0.0, height as f32),
        };
        sweep_turning(
            Shape::Polygon(corners),
            turn,
            Shape::Polygon(&floor),
            Turn::default(),
        )
    };
    // Ends with a side down, having turned from a corner down 0.4 above the floor; and 0.1
    // above it a million pixels along, where `f32` positions are sixteenths apart along the
    // floor (an eighth of a pixel is their resolution there) but far finer across the gap.
    let clear = RADIUS + 0.4;
    let side_down = saw(EIGHTH / 2.0, clear);
    assert_eq!(
        sweep(&side_down, EIGHTH / 2.0, clear),
        SweepStart::Apart(None)
    );
    let along = Vec2::new(1e6, 0.0);
    let moved = |corners: &[Vec2]| -> Vec<Vec2> { corners.iter().map(|&c| c + along).collect() };
    let near_clear = RADIUS + 0.1;
    let (far_floor, far_saw) = (moved(&floor), moved(&saw(EIGHTH / 2.0, near_clear)));
    let far = sweep_turning(
        Shape::Polygon(&far_saw),
        Turn {
            translation: Vec2::ZERO,
            angle: (EIGHTH / 2.0) as f32,
            pivot: Vec2::new(along.x, near_clear as f32),
        },
        Shape::Polygon(&far_floor),
        Turn::default(),
    );
    assert_eq!(far, SweepStart::Apart(None));
    // Ends with a corner 0.05 into the floor, having turned from a side down.
    let sunk = RADIUS - 0.05;
    let corner_down = saw(0.0, sunk);
    let SweepStart::Apart(Some(impact)) = sweep(&corner_down, EIGHTH / 2.0, sunk) else {
        panic!("the corner reaches the floor");
    };
    // The corner nearest straight down is `(1 − time)` of the turn from it: it touches
    // where `sunk = RADIUS · cos((1 − time) · turn)`.
    let reference = 1.0 - (sunk / RADIUS).acos() / (EIGHTH / 2.0);
    let time = f64::from(impact.time);
    assert!(
        time <= reference + 1e-6 && time > reference - 2e-3,
        "met at {time}, the reference at {reference}"
    );
    assert!(impact.normal.abs_diff_eq(Vec2::Y, 1e-3), "{impact:?}");
    assert!(impact.point.y.abs() < 1e-3, "{impact:?}");
}

/// A saw (an octagon of radius 16) rolling 10 along a floor as it spins three radians, its
/// lowest corner a hair (3e-4) above the floor each time one passes under it, over a bump
/// 0.003 high and 0.03 wide: each corner grazing the floor must not use up the advancement's
/// steps (the fixed sub-steps that follow could pass the bump), and the sweep meets the bump
/// no later than dense sub-stepping of the motion does, and not long before.
#[test]
fn a_saw_rolling_a_hair_over_a_floor_meets_a_tiny_bump() {
    const RADIUS: f64 = 16.0;
    const HAIR: f64 = 3e-4;
    const SPIN: f32 = -3.0;
    let pivot = DVec2::new(0.0, RADIUS + HAIR);
    let saw: Vec<Vec2> = (0..8)
        .map(|i| {
            let angle = -core::f64::consts::FRAC_PI_2 + i as f64 * core::f64::consts::FRAC_PI_4;
            (pivot + DVec2::from_angle(angle) * RADIUS).as_vec2()
        })
        .collect();
    let turn = Turn {
        translation: Vec2::new(10.0, 0.0),
        angle: SPIN,
        pivot: pivot.as_vec2(),
    };
    let (left, right, top) = (-2.633f32, -2.603f32, 0.003f32);
    let floor = [
        Vec2::new(-5000.0, -50.0),
        Vec2::new(5000.0, -50.0),
        Vec2::new(5000.0, 0.0),
        Vec2::new(right, 0.0),
        Vec2::new(right, top),
        Vec2::new(left, top),
        Vec2::new(left, 0.0),
        Vec2::new(-5000.0, 0.0),
    ];
    let swept = sweep_turning(
        Shape::Polygon(&saw),
        turn,
        Shape::Polygon(&floor),
        Turn::default(),
    );
    let SweepStart::Apart(Some(impact)) = swept else {
        panic!("the saw passes the bump: {swept:?}");
    };
    // The first sub-step, of 60,000 across the stretch where the saw's corners pass the
    // bump, at which the saw overlaps the floor.
    let reference = (0..=60_000)
        .map(|step| 0.70 + 0.06 * f64::from(step) / 60_000.0)
        .find(|&time| {
            let (_, corners) = posed(None, &saw, turn, time);
            overlap(Shape::Polygon(&corners), Shape::Polygon(&floor))
        })
        .expect("the saw meets the bump");
    let time = f64::from(impact.time);
    assert!(
        time <= reference + 1e-6 && time > reference - 1e-3,
        "met at {time}, the reference at {reference}"
    );
}

/// A point (a circle of radius zero) in the path of a segment turning about one end, near the
/// origin and 100,000 away: met when the segment's line reaches it, as the angle to it says,
/// though the point has no size to take a tolerance from; and a point at the origin itself,
/// with no coordinates to take one from either, met halfway through the turn.
#[test]
fn a_turning_segment_meets_a_point_where_its_line_reaches_it() {
    const TURN: f64 = 1.0;
    for far in [0.0, 1e5] {
        let pivot = DVec2::splat(far);
        for (angle, distance) in [(0.3, 40.0), (0.71, 5.0), (0.95, 99.0)] {
            let point = pivot + DVec2::from_angle(angle) * distance;
            // The segment ends along +x at the end of its turn, which it made clockwise, from
            // `TURN` radians up: it passes `angle` at time `1 − angle / TURN`.
            let segment = Segment::new(pivot.as_vec2(), (pivot + DVec2::X * 100.0).as_vec2());
            let turn = Turn {
                translation: Vec2::ZERO,
                angle: -TURN as f32,
                pivot: pivot.as_vec2(),
            };
            let swept = sweep_turning(
                Shape::Segment(segment),
                turn,
                Shape::Circle(Circle::new(point.as_vec2(), 0.0)),
                Turn::default(),
            );
            let SweepStart::Apart(Some(impact)) = swept else {
                panic!("{far}, {angle}: the segment passes the point: {swept:?}");
            };
            // The point as placed, in `f32`, and its angle from the pivot as placed.
            let placed = point.as_vec2().as_dvec2() - pivot.as_vec2().as_dvec2();
            let reference = 1.0 - placed.to_angle() / TURN;
            // It stops short by at most the `f32` resolution there, over the point's speed.
            let short = 4.0 * f64::from(f32::EPSILON) * (far + 100.0) / (distance * TURN);
            let time = f64::from(impact.time);
            assert!(
                time <= reference + 1e-6 && time > reference - 1e-5 - short,
                "{far}, {angle}: met at {time}, the reference at {reference}"
            );
        }
    }
    let pivot = Vec2::new(-50.0, 0.0);
    let end = pivot + Vec2::from_angle(0.5) * 100.0;
    let turn = Turn {
        translation: Vec2::ZERO,
        angle: 1.0,
        pivot,
    };
    let swept = sweep_turning(
        Shape::Segment(Segment::new(pivot, end)),
        turn,
        Shape::Circle(Circle::new(Vec2::ZERO, 0.0)),
        Turn::default(),
    );
    let SweepStart::Apart(Some(impact)) = swept else {
        panic!("the segment passes the point at the origin: {swept:?}");
    };
    assert!(
        (impact.time - 0.5).abs() < 1e-5,
        "met at {}, the reference at 0.5",
        impact.time
    );
}

/// A segment turning slightly as it slides 0.002 above a floor, across a spike 0.01 wide
/// (too thin for even sub-steps of the slide): the sweep meets the spike's face when the
/// segment's leading end reaches it, found in `f64` by bisection; along the floor with no
/// spike, it meets nothing.
#[test]
fn a_segment_sliding_along_a_floor_meets_a_thin_spike() {
    const TRAVEL: f32 = 100.0;
    const TILT: f32 = 1e-3;
    let segment = [Vec2::new(105.0, 1.002), Vec2::new(105.0, 3.002)];
    let turn = Turn {
        translation: Vec2::new(TRAVEL, 0.0),
        angle: TILT,
        pivot: Vec2::new(105.0, 2.002),
    };
    let floor = |spike: Option<f32>| -> Vec<Vec2> {
        let mut corners = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(200.0, 0.0),
            Vec2::new(200.0, 1.0),
        ];
        if let Some(x) = spike {
            corners.extend([
                Vec2::new(x + 0.01, 1.0),
                Vec2::new(x + 0.01, 5.0),
                Vec2::new(x, 5.0),
                Vec2::new(x, 1.0),
            ]);
        }
        corners.push(Vec2::new(0.0, 1.0));
        corners
    };
    let sweep = |floor: &[Vec2]| {
        sweep_turning(
            Shape::Segment(Segment::new(segment[0], segment[1])),
            turn,
            Shape::Polygon(floor),
            Turn::default(),
        )
    };
    assert_eq!(sweep(&floor(None)), SweepStart::Apart(None));
    let mut rng = StdRng::seed_from_u64(31);
    for _ in 0..50 {
        let spike = rng.random_range(10.0..100.0);
        // The leading end's x at `time`: the centre's x, and half the segment's tilt.
        let leading = |time: f64| {
            let back = time - 1.0;
            105.0 + f64::from(TRAVEL) * back + (f64::from(TILT) * back).sin().abs()
        };
        let (mut low, mut high) = (0.0, 1.0);
        for _ in 0..60 {
            let middle = (low + high) / 2.0;
            if leading(middle) < f64::from(spike) {
                low = middle;
            } else {
                high = middle;
            }
        }
        let SweepStart::Apart(Some(impact)) = sweep(&floor(Some(spike))) else {
            panic!("the segment passes the spike at {spike}");
        };
        assert!(
            (f64::from(impact.time) - low).abs() < 3e-5,
            "met the spike at {spike} at {}, the reference at {low}",
            impact.time
        );
        assert!(impact.normal.abs_diff_eq(Vec2::NEG_X, 1e-3), "{impact:?}");
    }
}

/// A laser 50 long, pivoted at its near end, tilting up as it skims 0.002 above a floor,
/// across a bump 0.01 high: it meets the bump's corner when the line of the laser reaches it,
/// found in `f64` by bisection. Its far end sweeps across the gap in no time, so each step
/// here rests on the bound that follows how fast the turn can change.
#[test]
fn a_laser_tilting_up_from_a_floor_meets_a_low_bump() {
    const TRAVEL: f64 = 100.0;
    const TILT: f64 = 0.2;
    const LENGTH: f64 = 50.0;
    const SKIM: f64 = 1.002;
    const BUMP: f64 = 0.01;
    let pivot = DVec2::new(5.0 + TRAVEL, SKIM);
    let laser = Segment::new(
        pivot.as_vec2(),
        (pivot + DVec2::from_angle(TILT) * LENGTH).as_vec2(),
    );
    let turn = Turn {
        translation: Vec2::new(TRAVEL as f32, 0.0),
        angle: TILT as f32,
        pivot: pivot.as_vec2(),
    };
    let mut rng = StdRng::seed_from_u64(43);
    for _ in 0..50 {
        let bump = rng.random_range(60.0..100.0f32);
        let (left, right, top) = (bump, bump + BUMP as f32, 1.0 + BUMP as f32);
        let floor = [
            Vec2::new(0.0, 0.0),
            Vec2::new(200.0, 0.0),
            Vec2::new(200.0, 1.0),
            Vec2::new(right, 1.0),
            Vec2::new(right, top),
            Vec2::new(left, top),
            Vec2::new(left, 1.0),
            Vec2::new(0.0, 1.0),
        ];
        // The laser's height over the bump's left edge at `time`, less the bump's: from when
        // its far end passes over the edge until its pivot does, it falls through zero once.
        let corner = DVec2::new(f64::from(left), f64::from(top));
        let above = |time: f64| {
            let near = 5.0 + TRAVEL * time;
            SKIM + (corner.x - near) * (TILT * time).tan() - corner.y
        };
        let (mut low, mut high) = (0.0, (corner.x - 5.0) / TRAVEL);
        while 5.0 + TRAVEL * low + LENGTH * (TILT * low).cos() < corner.x {
            low += 1e-3;
        }
        assert!(above(low) > 0.0 && above(high) < 0.0);
        for _ in 0..60 {
            let middle = (low + high) / 2.0;
            if above(middle) > 0.0 {
                low = middle;
            } else {
                high = middle;
            }
        }
        let swept = sweep_turning(
            Shape::Segment(laser),
            turn,
            Shape::Polygon(&floor),
            Turn::default(),
        );
        let SweepStart::Apart(Some(impact)) = swept else {
            panic!("the laser passes the bump at {bump}: {swept:?}");
        };
        let time = f64::from(impact.time);
        assert!(
            time <= low + 1e-5 && time > low - 3e-4,
            "met the bump at {bump} at {time}, the reference at {low}"
        );
    }
}

/// Against dense sub-stepping of the same motions, the exact overlap test at each step:
/// wherever the reference meets the pair, the sweep meets it no later (within a step);
/// where the reference finds them overlapping at the start, so does the sweep (or it meets
/// them at once); and it meets no pair the reference passes by, bar a few grazing ones.
#[test]
fn turning_sweeps_agree_with_dense_sub_stepping() {
    let mut rng = StdRng::seed_from_u64(21);
    let (mut met, mut grazed) = (0, 0);
    let cases = 1500;
    for case in 0..cases {
        let (first, second) = (shape(&mut rng), shape(&mut rng));
        // A third of the pairs only turn (a laser swinging among still bullets).
        let still = case % 3 == 0;
        let turn = |rng: &mut StdRng, circle: bool| Turn {
            translation: if still {
                Vec2::ZERO
            } else {
                Vec2::new(rng.random_range(-80.0..80.0), rng.random_range(-80.0..80.0))
            },
            angle: if circle {
                0.0
            } else {
                rng.random_range(-PI..PI)
            },
            pivot: Vec2::new(rng.random_range(-60.0..60.0), rng.random_range(-60.0..60.0)),
        };
        let (first_turn, second_turn) = (
            turn(&mut rng, first.0.is_some()),
            turn(&mut rng, second.0.is_some()),
        );
        let reference = (0..=STEPS).find(|&step| {
            let time = step as f64 / STEPS as f64;
            let (a, b) = (
                posed(first.0, &first.1, first_turn, time),
                posed(second.0, &second.1, second_turn, time),
            );
            overlap(as_shape(a.0, &a.1), as_shape(b.0, &b.1))
        });
        let swept = sweep_turning(
            as_shape(first.0, &first.1),
            first_turn,
            as_shape(second.0, &second.1),
            second_turn,
        );
        match (reference, swept) {
            (Some(0), SweepStart::Overlapping) => {}
            (Some(0), SweepStart::Apart(Some(impact))) => {
                assert!(
                    impact.time < 1e-3,
                    "case {case}: {impact:?} for a pair overlapping at the start"
                )
            }
            (Some(step), SweepStart::Apart(Some(impact))) => {
                met += 1;
                let reference = step as f32 / STEPS as f32;
                assert!(
                    impact.time <= reference + 1e-4,
                    "case {case}: met at {}, the reference at {reference}",
                    impact.time
                );
                assert!(
                    impact.time >= reference - 0.05,
                    "case {case}: {impact:?} long before {reference}"
                );
                assert!((impact.normal.length() - 1.0).abs() < 1e-4);
            }
            (None, SweepStart::Apart(None)) => {}
            (None, SweepStart::Apart(Some(_))) => grazed += 1,
            (reference, swept) => panic!(
                "case {case}: the reference met them at step {reference:?}, the sweep says {}",
                match swept {
                    SweepStart::Overlapping => "overlapping at the start".to_owned(),
                    SweepStart::Apart(impact) => format!("{impact:?}"),
                }
            ),
        }
    }
    assert!(met > cases / 10, "{met} met along the way");
    assert!(
        grazed * 50 < cases,
        "{grazed} met that the reference passes by"
    );
}

/// A turn's `velocity_at_end` is the derivative, at the end of the motion, of where the
/// shape's point is: a point placed at the start, turned about the pivot and carried by the
/// translation in `f64` through time, differenced over the last millionth of the motion; far
/// from the origin too, up to the rounding of the point and the pivot to `f32` there.
#[test]
fn a_turn_gives_each_point_its_velocity_at_the_end() {
    let quarter = Turn {
        translation: Vec2::ZERO,
        angle: PI / 2.0,
        pivot: Vec2::ZERO,
    };
    assert!(
        quarter
            .velocity_at_end(Vec2::Y)
            .abs_diff_eq(Vec2::new(-PI / 2.0, 0.0), 1e-6)
    );
    let mut rng = StdRng::seed_from_u64(11);
    for far in [0.0, 1e6] {
        for _ in 0..1000 {
            let mut point =
                || DVec2::new(rng.random_range(-50.0..50.0), rng.random_range(-50.0..50.0));
            let (start, start_pivot) = (point() + far, point() + far);
            let translation = point() / 2.0;
            let angle = rng.random_range(-PI..PI);
            // Where the point is at `time` of the motion.
            let at = |time: f64| {
                let turned = DVec2::from_angle(f64::from(angle) * time).rotate(start - start_pivot);
                start_pivot + translation * time + turned
            };
            let step = 1e-6;
            let expected = (at(1.0) - at(1.0 - step)) / step;
            let turn = Turn {
                translation: translation.as_vec2(),
                angle,
                pivot: (start_pivot + translation).as_vec2(),
            };
            let velocity = turn.velocity_at_end(at(1.0).as_vec2()).as_dvec2();
            // The point and the pivot, rounded to `f32`, move the arm by up to that rounding.
            let rounding = f64::from(angle.abs()) * 2.0 * f64::from(f32::EPSILON) * (far + 100.0);
            assert!(
                velocity.abs_diff_eq(expected, 1e-3 * expected.length().max(1.0) + rounding),
                "{start} turned {angle} about {start_pivot}, carried {translation}: {velocity}, \
                 not {expected}"
            );
        }
    }
}
