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
//! [`TOLERANCE`](crate::geometry::TOLERANCE) of the smaller one's size (but no nearer than
//! `f32` positions tell apart across the gap where they are nearest, nor than the rounding of
//! the `f64` arithmetic that poses them). The distances are exact, in `f64`.
//! Shapes sliding along each other a hair apart would take tiny steps by that bound: from
//! [`PIECES_FROM`] steps on, a second bound is taken edge by edge ([`time_apart`]): how fast
//! each pair of edges closes in across the gap between them, which sliding does not add to,
//! and how fast a turn can change that. A pair that still stays a hair apart for
//! [`MAX_STEPS`] steps (a shape circling a hair inside a round wall) is tested for the rest
//! of the motion at [`FINAL_STEPS`] even steps, which bounds the work but can pass a feature
//! thinner than the distance moved in one of them.

use super::posed::{Gap, Motion, Posed, distance, time_apart};
use super::{Impact, SweepStart};
use crate::geometry::{MIN_SIZE, Shape, TOLERANCE};
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

impl Turn {
    /// The velocity, per whole motion, of the shape's point now at `point`, at the end of the
    /// motion: the translation, and the turn about the pivot (as the sweep's own fallback
    /// normal takes it). Worked out from the pivot, so it keeps its precision far from the
    /// origin.
    pub(crate) fn velocity_at_end(self, point: Vec2) -> Vec2 {
        self.translation + (point - self.pivot).perp() * self.angle
    }
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
    let least = Moving::least_stop(&a, &b);
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
        let tolerance = touching_distance(least, &gap);
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
                tolerance / 2.0,
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
        if gap.distance <= touching_distance(least, &gap) {
            return SweepStart::Apart(Some(impact(&a, &b, time, &gap)));
        }
    }
    SweepStart::Apart(None)
}

/// Sub-steps of what is left of the motion when the advancement runs out of steps.
const FINAL_STEPS: usize = 256;

/// How near two shapes come before the advancement stops and reports them touching, where
/// their nearest points are `gap`'s: the `least` distance of the pair (see
/// [`Moving::least_stop`]), but no nearer than `f32` positions there tell apart across the
/// gap (a circle of radius zero has no size to take a tolerance from).
fn touching_distance(least: f64, gap: &Gap) -> f64 {
    let across = (gap.on_first - gap.on_second).normalize_or_zero().abs();
    let coordinates = gap.on_first.abs().max(gap.on_second.abs());
    least.max(f64::from(f32::EPSILON) * across.dot(coordinates))
}

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

    /// The least distance within which the advancement stops for `a` and `b` (see
    /// [`touching_distance`]): the tolerance of the smaller one's size, so that a saw spinning
    /// half a pixel over a floor many thousand times its size is not taken for touching it; but
    /// no less than the rounding of the `f64` arithmetic that poses them, where the gap between
    /// a point and a line through it is noise (a point at the origin has neither size nor
    /// coordinates to take a distance from).
    fn least_stop(a: &Self, b: &Self) -> f64 {
        let smaller = f64::from(TOLERANCE) * a.size.min(b.size).max(f64::from(MIN_SIZE));
        let scale = |moving: &Self| {
            moving.pivot.abs().max_element() + moving.translation.abs().max_element() + moving.reach
        };
        let arithmetic = 64.0 * f64::EPSILON * scale(a).max(scale(b));
        smaller.max(arithmetic)
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
mod tests;
