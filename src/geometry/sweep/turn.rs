//! Sweeps with a turn: shapes that turn about a point as they move (a boss's laser sweeping
//! across the screen, a spinning blade), found by conservative advancement.
//!
//! Each shape is given where it is at the end of the motion, with its [`Turn`]: the
//! translation it made and the angle it turned through about its pivot (which moves with it).
//! At time `s ∈ [0, 1]` a point `x` of the end shape is at `pivot + (s − 1)·translation +
//! rotate((s − 1)·angle)(x − pivot)`. No point of a shape moves faster than `|translation| +
//! |angle|·reach` per unit of time, `reach` being its farthest point from the pivot, so the
//! distance between two shapes shrinks no faster than the sum of the two bounds for their
//! relative motion. Conservative advancement (Mirtich, *Impulse-based Dynamic Simulation of
//! Rigid Body Systems*, 1996) steps the time forward by the distance over that bound: no step
//! can pass a contact, and the steps shrink as the shapes close in, until they are within
//! [`TOLERANCE`](crate::geometry::TOLERANCE) of their size. The distances are exact, in `f64`.
//! Shapes sliding along each other a hair apart would take tiny steps by that bound: from
//! [`PIECES_FROM`] steps on, a second bound is taken edge by edge ([`time_apart`]): how fast
//! each pair of edges closes in across the gap between them, which sliding does not add to.
//! A pair that still stays a hair apart for [`MAX_STEPS`] steps (shapes that turn as they
//! slide) is tested for the rest of the motion at [`FINAL_STEPS`] even steps, which bounds the
//! work but can pass a feature thinner than the distance moved in one of them.

use super::posed::{Gap, Motion, Posed, distance, time_apart};
use super::{Impact, SweepStart};
use crate::geometry::{Shape, TOLERANCE};
use bevy::math::DVec2;
use bevy::prelude::*;

/// The corners of a shape.
type CornerList = Vec<DVec2>;

/// How a shape moved to where it is: its translation, and the angle it turned through about
/// `pivot` (radians, counter-clockwise; the pivot is where it is at the end).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Turn {
    pub translation: Vec2,
    pub angle: f32,
    pub pivot: Vec2,
}

/// The most steps taken before a pair is given up as grazing: the steps shrink only while
/// the shapes stay within a hair of touching without touching.
const MAX_STEPS: usize = 1000;

/// The step from which the advancement also bounds the time apart piece by piece
/// ([`time_apart`]): most pairs meet or part in fewer, and a pair still close after this
/// many is likely sliding along the other, where the bound is far tighter.
const PIECES_FROM: usize = 8;

/// When and where `first` and `second`, each at the end of its [`Turn`], first touched along
/// their motions; or that they overlap at the start.
pub(crate) fn sweep_turning(
    first: Shape,
    first_turn: Turn,
    second: Shape,
    second_turn: Turn,
) -> SweepStart {
    let (a, b) = (
        Moving::of(first, first_turn),
        Moving::of(second, second_turn),
    );
    let (Some(a), Some(b)) = (a, b) else {
        return SweepStart::Apart(None);
    };
    if Moving::sectors_apart(&a, &b) || Moving::sectors_apart(&b, &a) {
        return SweepStart::Apart(None);
    }
    let speed = (a.translation - b.translation).length() + a.turn_speed() + b.turn_speed();
    let tolerance = f64::from(TOLERANCE) * (a.size + b.size);
    let mut time = 0.0;
    let (mut first_now, mut second_now) = (
        CornerList::with_capacity(a.corners()),
        CornerList::with_capacity(b.corners()),
    );
    for step in 0..MAX_STEPS {
        let (first_posed, second_posed) = (a.at(time, &mut first_now), b.at(time, &mut second_now));
        let near = Moving::speed_near(&a, &b, second_posed, time).min(Moving::speed_near(
            &b,
            &a,
            first_posed,
            time,
        ));
        let gap = distance(first_posed, second_posed);
        if gap.distance <= 0.0 && step == 0 {
            return SweepStart::Overlapping;
        }
        if gap.distance <= tolerance {
            return SweepStart::Apart(Some(impact(&a, &b, time, &gap)));
        }
        let speed = speed.min(near + (a.angle.abs() + b.angle.abs()) * gap.distance);
        if speed <= 0.0 {
            return SweepStart::Apart(None);
        }
        let mut advance = gap.distance / speed;
        if step >= PIECES_FROM {
            let apart = time_apart(
                first_posed,
                a.motion_at(time),
                second_posed,
                b.motion_at(time),
            );
            advance = advance.max(apart);
        }
        time += advance;
        if time > 1.0 {
            return SweepStart::Apart(None);
        }
    }
    // The steps shrink without end only while the shapes stay a hair apart: the rest of the
    // motion in fixed sub-steps, so that a pair that does meet is not let through.
    let rest = time;
    for step in 1..=FINAL_STEPS {
        let time = rest + (1.0 - rest) * step as f64 / FINAL_STEPS as f64;
        let gap = distance(a.at(time, &mut first_now), b.at(time, &mut second_now));
        if gap.distance <= tolerance {
            return SweepStart::Apart(Some(impact(&a, &b, time, &gap)));
        }
    }
    SweepStart::Apart(None)
}

/// Sub-steps of what is left of the motion when the advancement runs out of steps.
const FINAL_STEPS: usize = 256;

/// The impact at `time`, where the shapes are `gap` apart: the point between their nearest
/// points, the normal from the second's towards the first's (where they touch at a point
/// already, against the first's motion there relative to the second's).
fn impact(a: &Moving, b: &Moving, time: f64, gap: &Gap) -> Impact {
    let normal = (gap.on_first - gap.on_second).normalize_or_zero();
    let normal = if normal == DVec2::ZERO {
        let point = gap.on_first;
        (b.velocity_at(point, time) - a.velocity_at(point, time)).normalize_or(DVec2::Y)
    } else {
        normal
    };
    Impact {
        time: time as f32,
        point: ((gap.on_first + gap.on_second) / 2.0).as_vec2(),
        normal: normal.as_vec2(),
    }
}

/// A shape in `f64` at the end of its motion, and the motion.
struct Moving {
    shape: Corners,
    translation: DVec2,
    angle: f64,
    pivot: DVec2,
    /// Its farthest point from the pivot.
    reach: f64,
    /// Its bounding radius, for the tolerance.
    size: f64,
}

/// A circle, or corners: a polygon's loop, a segment's ends.
enum Corners {
    Circle(DVec2, f64),
    Points(CornerList),
}

impl Moving {
    fn of(shape: Shape, turn: Turn) -> Option<Self> {
        let pivot = turn.pivot.as_dvec2();
        let shape = match shape {
            Shape::Circle(circle) => {
                Corners::Circle(circle.center.as_dvec2(), f64::from(circle.radius))
            }
            Shape::Segment(segment) => {
                Corners::Points(vec![segment.a.as_dvec2(), segment.b.as_dvec2()])
            }
            Shape::Polygon(vertices) => {
                Corners::Points(vertices.iter().map(|v| v.as_dvec2()).collect())
            }
        };
        let (reach, size) = match &shape {
            Corners::Circle(center, radius) => (center.distance(pivot) + radius, *radius),
            Corners::Points(points) => {
                let reach = points.iter().map(|p| p.distance(pivot)).fold(0.0, f64::max);
                let low = points.iter().copied().reduce(DVec2::min)?;
                let high = points.iter().copied().reduce(DVec2::max)?;
                (reach, (high - low).length() / 2.0)
            }
        };
        let finite = reach.is_finite()
            && turn.pivot.is_finite()
            && turn.translation.is_finite()
            && turn.angle.is_finite();
        finite.then_some(Self {
            shape,
            translation: turn.translation.as_dvec2(),
            angle: f64::from(turn.angle),
            pivot,
            reach,
            size,
        })
    }

    /// Whether `circle`, a circle that does not move, lies outside the sector of angles that
    /// `turning`, which only turns, sweeps about its pivot: then they never meet. (A quick
    /// answer for the common case of a laser turning among still bullets; `false` where it
    /// does not apply or cannot tell.)
    fn sectors_apart(turning: &Self, circle: &Self) -> bool {
        let (Corners::Points(points), Corners::Circle(center, radius)) =
            (&turning.shape, &circle.shape)
        else {
            return false;
        };
        if turning.translation != DVec2::ZERO || circle.translation != DVec2::ZERO {
            return false;
        }
        let pivot = turning.pivot;
        let to_circle = *center - pivot;
        let distance = to_circle.length();
        // Margins for rounding: a millionth of a radian, and of the sizes.
        let margin = 1e-6;
        // The corners within `near` of the pivot are left out of the wedge below (their angle
        // says little), so the shape reaches up to `near` beyond the wedge (each of its points
        // lies between a point of the wedge and such a corner): where there are any, the
        // circle is grown by as much.
        let near = margin * (1.0 + turning.reach);
        let angle_of = |point: DVec2| {
            let offset = point - pivot;
            to_circle.perp_dot(offset).atan2(to_circle.dot(offset))
        };
        // The shape's corners, but the pivot itself (which does not move); the shape must lie
        // within a quarter turn of angles, seen from the pivot, for one interval to hold it.
        let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
        let mut first = None;
        let mut left_out = false;
        for &point in points {
            if point.distance(pivot) <= near {
                left_out = true;
                continue;
            }
            let angle = angle_of(point);
            // Unwrapped next to the first corner's angle, so that an interval across ±π holds.
            let first_angle = *first.get_or_insert(angle);
            let angle = first_angle
                + (angle - first_angle + core::f64::consts::PI).rem_euclid(core::f64::consts::TAU)
                - core::f64::consts::PI;
            low = low.min(angle);
            high = high.max(angle);
        }
        if first.is_none() || high - low >= core::f64::consts::FRAC_PI_2 {
            return false;
        }
        let grown = radius + if left_out { near } else { 0.0 };
        if distance <= grown * (1.0 + margin) {
            return false;
        }
        // Angles as seen from the pivot, measured from the circle's direction: the grown
        // circle spans `±spread`.
        let spread = (grown / distance).asin() + 2.0 * margin;
        // A wedge narrower than half a turn is convex, so it holds the hull of the corners,
        // and the whole shape with it. (A pivot inside the shape spreads its corners wider.)
        let (swept_low, swept_high) = if turning.angle >= 0.0 {
            (low - turning.angle, high)
        } else {
            (low, high - turning.angle)
        };
        // The circle sits at angle 0 in this frame: the swept interval, widened by the
        // circle's spread either side and wrapped round, must miss angle 0.
        let widened = swept_high - swept_low + 2.0 * spread;
        let start = (swept_low - spread).rem_euclid(core::f64::consts::TAU);
        start > margin && start + widened < core::f64::consts::TAU - margin
    }

    /// A bound on how fast the distance between `turning` and `other` (which does not turn,
    /// placed at `time` as `other_posed`) can shrink while it is at most `gap` more than now,
    /// less the `gap` term the caller adds: tighter than `turning`'s fastest point. The points
    /// of `turning` nearest `other` lie no farther from its pivot than `other`'s farthest
    /// point, its drift over the rest of the motion, and the gap; the turn carries them no
    /// faster than that distance allows. Unbounded where it does not apply.
    fn speed_near(turning: &Self, other: &Self, other_posed: Posed, time: f64) -> f64 {
        if other.angle != 0.0 {
            return f64::INFINITY;
        }
        let pivot = turning.pivot + turning.translation * (time - 1.0);
        let farthest = match other_posed {
            Posed::Circle(center, radius) => center.distance(pivot) + radius,
            Posed::Points(points) => points.iter().map(|p| p.distance(pivot)).fold(0.0, f64::max),
        };
        let relative = (other.translation - turning.translation).length();
        relative + turning.angle.abs() * (farthest + relative).min(turning.reach)
    }

    /// How it moves at `time`.
    fn motion_at(&self, time: f64) -> Motion {
        Motion {
            velocity: self.translation,
            pivot: self.pivot + self.translation * (time - 1.0),
            spin: self.angle,
        }
    }

    /// How fast the point of the shape at `point` moves at `time`.
    fn velocity_at(&self, point: DVec2, time: f64) -> DVec2 {
        let pivot = self.pivot + self.translation * (time - 1.0);
        self.translation + (point - pivot).perp() * self.angle
    }

    /// How many corners it has (none for a circle).
    fn corners(&self) -> usize {
        match &self.shape {
            Corners::Circle(..) => 0,
            Corners::Points(points) => points.len(),
        }
    }

    /// The most any point moves per unit of time through the turn alone.
    fn turn_speed(&self) -> f64 {
        self.angle.abs() * self.reach
    }

    /// The shape at `time`, its corners written to `scratch`.
    fn at<'a>(&self, time: f64, scratch: &'a mut CornerList) -> Posed<'a> {
        let back = time - 1.0;
        let pivot = self.pivot + self.translation * back;
        // Most shapes in a pair with a turning one (bullets) do not turn.
        let rotation = if self.angle == 0.0 {
            DVec2::X
        } else {
            DVec2::from_angle(self.angle * back)
        };
        let place = |point: DVec2| pivot + rotation.rotate(point - self.pivot);
        match &self.shape {
            Corners::Circle(center, radius) => Posed::Circle(place(*center), *radius),
            Corners::Points(points) => {
                scratch.clear();
                scratch.extend(points.iter().map(|&point| place(point)));
                Posed::Points(scratch)
            }
        }
    }
}

#[cfg(test)]
mod tests {
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
                let half =
                    Vec2::from_angle(rng.random_range(0.0..TAU)) * rng.random_range(5.0..100.0);
                (None, vec![center - half, center + half])
            }
            kind => {
                let corners = rng.random_range(3..8) * if kind == 3 { 2 } else { 1 };
                let size = rng.random_range(5.0..40.0);
                let turn = rng.random_range(0.0..TAU);
                let points = (0..corners)
                    .map(|i| {
                        let reach = if kind == 3 && i % 2 == 1 { 0.4 } else { 1.0 };
                        center
                            + Vec2::from_angle(turn + i as f32 * TAU / corners as f32)
                                * size
                                * reach
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
        let place =
            |p: Vec2| (pivot + rotation.rotate(p.as_dvec2() - turn.pivot.as_dvec2())).as_vec2();
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
                let back =
                    DVec2::from_angle(-f64::from(angle) * (1.0 - step as f64 / STEPS as f64));
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
}
