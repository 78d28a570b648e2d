//! Sweeps: when and where two shapes, each moving by a straight translation over the same
//! interval, first touch (their time of impact).
//!
//! A bullet of radius 3 moving 15 px a frame crosses a zero-width wall between two frames;
//! testing the two poses misses it. A sweep tests the whole motion, exactly: no sub-steps.
//!
//! # The functions
//! Each shape pair has its own file, named like the overlap pairs (`polygon_circle`, the more
//! complex shape first), with one function `sweep_[first]_[second](first, second, motion)`:
//! `first` moves by `motion`, `second` **stays at rest**. Any motion of both reduces to that
//! one: only the **relative motion** `first_motion − second_motion` decides whether and when
//! they touch. [`sweep()`] takes any two [`Shape`]s in either order, each with its own motion,
//! calls the pair function with the relative motion, puts the point into the common frame, and
//! mirrors the answer when the arguments came the other way round. Both orders give the same
//! time and point **bit for bit**, and the negated normal: the pair (and, for two shapes of one
//! kind, which of them goes first) is put in one fixed order before anything is computed.
//!
//! # The answer
//! `Some(`[`Impact`]`)` when the shapes are apart at the start and touch at some time of the
//! motion:
//! - [`time`](Impact::time): the earliest fraction `t ∈ [0, 1]` of the motion at which the
//!   closed shapes share a point (touching counts, as everywhere in this module);
//! - [`point`](Impact::point): where they touch at that time, with **both shapes moved by
//!   `t` × their own motion** (for a pair function, the second shape at rest: its frame);
//! - [`normal`](Impact::normal): a unit vector **from the second shape towards the first**,
//!   perpendicular to the outline that is smooth at the point: the edge or segment that a vertex
//!   or end ran into, or the circle. The first runs into the second, so
//!   `normal · relative_motion ≤ 0` (up to rounding). Where a vertex meets a vertex either
//!   adjacent edge's normal may be given; where a segment end meets an end head-on along their
//!   common line (collinear approach) the normal is the opposite of the relative motion.
//!
//! `None` when:
//! - the shapes already overlap at the start, by this module's exact [`overlap`] test (there is
//!   no "first" touch; ask [`intersect`](super::intersect));
//! - they never touch for `t ∈ [0, 1]` (they pass by, move apart, or stop short);
//! - the relative motion is zero (but see the guarantee below);
//! - any input is non-finite or out of range: a shape that the overlap tests reject (see
//!   [`MAX_COORDINATE`](super::MAX_COORDINATE)) or a motion with a component beyond it.
//!   Nothing panics, and no answer holds NaN or an infinity.
//!
//! # How
//! Under translation the first contact of two disjoint shapes is on their outlines, so concave
//! polygons need nothing special. Each case reduces to rays (moving points) against fixed
//! shapes (Ericson, *Real-Time Collision Detection*, §5.5, "Testing moving objects"):
//! - circle–circle: the first centre's ray against the circle of radius `r₁ + r₂` around the
//!   second;
//! - a circle against a segment or polygon: seen from the segment, the circle's centre moves by
//!   the opposite motion; the circle touches an edge exactly when its centre is within `r` of
//!   it, so the centre's ray meets the **capsule** around the edge (two end circles, two flat
//!   sides), the earliest over the edges;
//! - segments and polygons: two disjoint closed polygonal shapes first meet where a **vertex**
//!   (segment end) of one runs into an **edge** of the other, so the answer is the earliest of
//!   the rays of every vertex of the first (along the motion) against every edge of the second,
//!   and of every vertex of the second (against the motion) against every edge of the first.
//!   Polygons with fewer than three vertices are the polyline their [edges](super#the-shapes)
//!   form.
//!
//! Quadratics are solved in a stable form (see the ray primitives), so that gaps of a fraction
//! of a pixel are not lost to coordinates of a million or motions of thousands of pixels.
//!
//! # The guarantee at the end of the motion
//! Whenever the shapes are apart at the start (`!overlap` of the start poses) and overlap at the
//! end (`overlap` of the shapes moved by their full motion: every centre, segment end and
//! vertex plus its own motion, as [`sweep()`] is given them; for a pair function, the first
//! moved by `motion`), the sweep returns `Some` with `time ≤ 1`. A frame's end-of-motion
//! contact therefore always has an impact. The rays find it except, rarely, by rounding near a
//! graze. Then the answer is:
//! - `time = 1`;
//! - the first point that [`intersect`](super::intersect) reports at the end poses, or, when it reports one shape
//!   inside the other, the point of the feature pair nearest to touching (where a shape that
//!   touches the other's outline from inside touches it);
//! - the unit opposite of the relative motion as the normal (for a zero relative motion, the
//!   direction from the second shape's bounding box's centre to the first's; `+y` when they
//!   coincide).
//!
//! # Tolerance
//! No tolerance decides whether the shapes touch: the rays' tests are exact closed-set tests
//! evaluated in `f32`, like the overlap tests. The point lies on both outlines, at its time,
//! within the module's [tolerance](super#tolerance) (`TOLERANCE × size`) plus the rounding of
//! the coordinates themselves (an `f32` near `1e6` is a multiple of `1/16`).
//!
//! # Cost
//! Circle pairs cost one ray per edge; segment and polygon pairs one ray per vertex–edge pair,
//! edges outside the swept bounding box skipped. Nothing allocates, except that the guarantee
//! above, checked only when no ray hits and the end poses' boxes are near, moves a polygon of
//! more than 32 vertices into a heap buffer.
//!
//! # Touching again after parting
//! Shapes that overlap at the start, part and meet again before the end (a disc leaving one arm
//! of a concave polygon and crossing another) have no first touch; the pipeline asks where they
//! meet again (see the `parting` module), the impact of a contact that goes on.

mod circle_circle;
mod guard;
mod parting;
mod polygon_circle;
mod polygon_polygon;
mod polygon_segment;
mod posed;
mod segment_circle;
mod segment_segment;
mod turn;

pub use circle_circle::sweep_circle_circle;
pub use polygon_circle::sweep_polygon_circle;
pub use polygon_polygon::sweep_polygon_polygon;
pub use polygon_segment::sweep_polygon_segment;
pub use segment_circle::sweep_segment_circle;
pub use segment_segment::sweep_segment_segment;

use super::{Impact, MeasuredPolygon, Shape, in_range, overlap};
use bevy::math::Vec2;
use core::cmp::Ordering;
pub(crate) use guard::touching_at_end;
use guard::{is_valid, is_whole};
pub(crate) use parting::{is_concave, touch_after_parting};
pub(crate) use turn::{Turn, sweep_turning};

/// When and where two shapes, `first` moving by `first_motion` and `second` by
/// `second_motion` over the same interval, first touch; see the [module docs](self) for the
/// conventions.
///
/// Calls the pair function (the more complex shape first) with the relative motion, adds
/// `time × motion` of the shape that the pair function held at rest to the point, and negates
/// the normal when the arguments came the other way round. Both orders agree bit for bit.
pub fn sweep(
    first: Shape,
    first_motion: Vec2,
    second: Shape,
    second_motion: Vec2,
) -> Option<Impact> {
    match sweep_from_start(first, first_motion, second, second_motion) {
        SweepStart::Apart(impact) => impact,
        SweepStart::Overlapping => None,
    }
}

/// What [`sweep`] finds, and whether that is because the shapes already overlap at the start:
/// the pipeline asks both, and the overlap test is the larger part of a sweep that finds
/// nothing.
#[derive(Debug, PartialEq)]
pub(crate) enum SweepStart {
    /// The shapes overlap at the start: no impact.
    Overlapping,
    /// Apart at the start (or not valid shapes and motions, which meet nothing): the impact,
    /// if they touch along the way.
    Apart(Option<Impact>),
}

/// [`sweep`], telling an overlap at the start apart from a miss.
pub(crate) fn sweep_from_start(
    first: Shape,
    first_motion: Vec2,
    second: Shape,
    second_motion: Vec2,
) -> SweepStart {
    sweep_from_start_with(
        first,
        first_motion,
        second,
        second_motion,
        KnownApart::default(),
        None,
    )
}

/// What a caller knows of two shapes before their sweep, from their bounding circles.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct KnownApart {
    /// [`overlap`] finds the shapes apart at the start.
    pub at_start: bool,
    /// [`intersect`](super::intersect) finds the shapes apart at the end, each moved by its
    /// whole motion as [`touching_at_end`] moves it.
    pub at_end: bool,
}

/// [`sweep_from_start`], told what the caller knows. Shapes `known` apart at the start skip the
/// overlap test there; shapes known apart at the end skip the check for a touch there.
/// `measured`, if given, is a polygon the pipeline placed and measured, still: its edges' lines
/// pick the edges to cast against. The answer is the same.
pub(crate) fn sweep_from_start_with(
    first: Shape,
    first_motion: Vec2,
    second: Shape,
    second_motion: Vec2,
    known: KnownApart,
    measured: Option<MeasuredPolygon>,
) -> SweepStart {
    if !(is_valid(first) && is_valid(second) && in_range(first_motion) && in_range(second_motion)) {
        return SweepStart::Apart(None);
    }
    let swapped = order(first, first_motion, second, second_motion) == Ordering::Greater;
    let (first, first_motion, second, second_motion) = if swapped {
        (second, second_motion, first, first_motion)
    } else {
        (first, first_motion, second, second_motion)
    };
    if !known.at_start && overlap(first, second) {
        return SweepStart::Overlapping;
    }
    let impact = first_touch(first, second, first_motion - second_motion, measured)
        .map(|hit| Impact {
            point: hit.point + hit.time * second_motion,
            ..hit
        })
        .or_else(|| {
            if known.at_end {
                return None;
            }
            touching_at_end(first, first_motion, second, second_motion)
        });
    SweepStart::Apart(impact.map(|impact| if swapped { impact.mirrored() } else { impact }))
}

/// The earliest touch found by the rays, `second` at rest and `first` moving by `motion`, in
/// `second`'s frame; for valid shapes apart at the start. Pairs that come the other way round
/// are swept from the other side (the more complex shape moving by the opposite motion), then
/// carried back into this frame and mirrored.
fn first_touch(
    first: Shape,
    second: Shape,
    motion: Vec2,
    measured: Option<MeasuredPolygon>,
) -> Option<Impact> {
    use Shape::{Circle as C, Polygon as P, Segment as S};
    if motion == Vec2::ZERO {
        return None;
    }
    let reversed = |hit: Option<Impact>| {
        hit.map(|hit| Impact {
            point: hit.point + hit.time * motion,
            ..hit.mirrored()
        })
    };
    let hit = match (first, second) {
        (C(a), C(b)) => circle_circle::first_touch(a, b, motion),
        (S(s), C(c)) => segment_circle::first_touch(s, c, motion),
        (C(c), S(s)) => reversed(segment_circle::first_touch(s, c, -motion)),
        (S(a), S(b)) => segment_segment::first_touch(a, b, motion),
        (P(p), C(c)) => polygon_circle::first_touch(p, c, motion, measured),
        (C(c), P(p)) => reversed(polygon_circle::first_touch(p, c, -motion, measured)),
        (P(p), S(s)) => polygon_segment::first_touch(p, s, motion),
        (S(s), P(p)) => reversed(polygon_segment::first_touch(p, s, -motion)),
        (P(a), P(b)) => polygon_polygon::first_touch(a, b, motion),
    };
    hit.filter(is_whole)
}

/// The fixed order of a pair: `Greater` when `second` must go first, being the more complex
/// shape (polygon, then segment, then circle), or, for two of one kind, the lesser by its
/// numbers (coordinates, then motion, compared with `total_cmp`).
fn order(first: Shape, first_motion: Vec2, second: Shape, second_motion: Vec2) -> Ordering {
    use Shape::{Circle as C, Polygon as P, Segment as S};
    let rank = |shape: Shape| match shape {
        C(_) => 0,
        S(_) => 1,
        P(_) => 2,
    };
    let shapes = match (first, second) {
        (C(a), C(b)) => compare(
            &[a.center.x, a.center.y, a.radius],
            &[b.center.x, b.center.y, b.radius],
        ),
        (S(a), S(b)) => compare(&[a.a.x, a.a.y, a.b.x, a.b.y], &[b.a.x, b.a.y, b.b.x, b.b.y]),
        (P(a), P(b)) => a.len().cmp(&b.len()).then_with(|| {
            a.iter()
                .zip(b)
                .map(|(p, q)| compare(&[p.x, p.y], &[q.x, q.y]))
                .find(|order| order.is_ne())
                .unwrap_or(Ordering::Equal)
        }),
        _ => rank(second).cmp(&rank(first)),
    };
    shapes.then_with(|| {
        compare(
            &[first_motion.x, first_motion.y],
            &[second_motion.x, second_motion.y],
        )
    })
}

/// Lexicographic `total_cmp` of two equally long lists of numbers.
fn compare(first: &[f32], second: &[f32]) -> Ordering {
    first
        .iter()
        .zip(second)
        .map(|(a, b)| a.total_cmp(b))
        .find(|order| order.is_ne())
        .unwrap_or(Ordering::Equal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Circle, Segment};

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn the_order_puts_the_more_complex_shape_first_and_is_antisymmetric() {
        let square = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)];
        let shapes = [
            Shape::Circle(Circle::new(v(1.0, 2.0), 3.0)),
            Shape::Circle(Circle::new(v(1.0, 2.0), 4.0)),
            Shape::Segment(Segment::new(v(0.0, 0.0), v(1.0, 0.0))),
            Shape::Polygon(&square),
            Shape::Polygon(&square[..3]),
        ];
        let motions = [Vec2::ZERO, v(1.0, 0.0)];
        for (i, &a) in shapes.iter().enumerate() {
            for &b in &shapes[i..] {
                for &m in &motions {
                    for &n in &motions {
                        assert_eq!(order(a, m, b, n), order(b, n, a, m).reverse());
                    }
                }
            }
        }
        let circle = shapes[0];
        assert_eq!(
            order(circle, Vec2::ZERO, shapes[3], Vec2::ZERO),
            Ordering::Greater
        );
    }

    #[test]
    fn a_pair_the_other_way_round_is_swept_from_the_other_side() {
        // A circle moving onto a wall, asked as (circle, segment): the segment is swept by the
        // opposite motion and the answer carried back into the wall's frame.
        let circle = Shape::Circle(Circle::new(v(-5.0, 0.0), 1.0));
        let wall = Shape::Segment(Segment::new(v(0.0, -5.0), v(0.0, 5.0)));
        let hit = first_touch(circle, wall, v(8.0, 0.0), None).unwrap();
        assert_eq!(hit.time, 0.5);
        assert!(hit.point.distance(v(0.0, 0.0)) < 1e-6, "{hit:?}");
        assert_eq!(hit.normal, v(-1.0, 0.0));
        let other_way = first_touch(wall, circle, v(-8.0, 0.0), None).unwrap();
        assert_eq!(other_way.time, 0.5);
        assert_eq!(other_way.normal, v(1.0, 0.0));
    }
}
