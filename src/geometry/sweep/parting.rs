//! Touching again after parting: two shapes that overlap at the start of their motions, part,
//! and meet again before the end. Only a concave polygon allows it (a bullet leaving one arm of
//! a U and crossing the other): two convex shapes under straight motions overlap over one
//! stretch of time, since the set of relative offsets at which they overlap is convex.
//!
//! # How
//! Whether the shapes overlap changes only while a piece of one outline touches a piece of the
//! other. For each pair of pieces that stretch of time is one interval, worked out in closed
//! form: a circle's centre within its radius of an edge (the edge's capsule, convex), or an
//! edge of each crossing (the offsets at which two segments meet form a parallelogram). Where
//! no stretch covers the time, the shapes are either apart or one holds the other throughout:
//! one overlap test in the middle of each such gap, in order, finds the first where they are
//! apart. From there the ordinary [sweep](super) finds where they touch again, exactly.

use super::guard::{Buffer, is_valid, moved};
use super::sweep_from_start;
use super::{SweepStart, in_range};
use crate::geometry::{Impact, Segment, Shape, edges, overlap};
use bevy::math::{DVec2, Vec2};
use smallvec::SmallVec;

/// For shapes that overlap at the start of their motions (`first` moving by `first_motion`,
/// `second` by `second_motion`): where they first touch again after parting, if they do. The
/// [`Impact`] is as a [sweep](super) gives it, its time a fraction of the whole motions.
///
/// `None` for shapes that never part, or never meet again (two convex shapes cannot: ask only
/// where one is a concave polygon, see [`is_concave`]), and for shapes or motions that the
/// sweeps reject. Allocates only for shapes of many vertices.
pub(crate) fn touch_after_parting(
    first: Shape,
    first_motion: Vec2,
    second: Shape,
    second_motion: Vec2,
) -> Option<Impact> {
    let usable = is_valid(first) && is_valid(second);
    if !(usable && in_range(first_motion) && in_range(second_motion)) {
        return None;
    }
    let motion = first_motion - second_motion;
    if motion == Vec2::ZERO {
        return None;
    }
    if corners(first) > corners(second) {
        // The shape tested where it has moved is copied each time: the smaller one.
        let swapped = touch_after_parting(second, second_motion, first, first_motion);
        return swapped.map(Impact::mirrored);
    }
    let gap = first_gap(first, second, motion)?;
    // From the gap on, in `second`'s frame: `first` moved to where it is then, `second` at its
    // start.
    let mut buffer = Buffer::new();
    let parted = moved(first, gap * motion, &mut buffer);
    let rest = (1.0 - gap) * motion;
    let SweepStart::Apart(Some(hit)) = sweep_from_start(parted, rest, second, Vec2::ZERO) else {
        return None;
    };
    let time = gap + (1.0 - gap) * hit.time;
    Some(Impact {
        time,
        // Back into the common frame: `second` moved by its share of its motion.
        point: hit.point + time * second_motion,
        normal: hit.normal,
    })
}

/// Stretches of time, each `(from, to)`: inline up to 32, on the heap beyond.
type Stretches = SmallVec<[(f64, f64); 32]>;

/// A time in `(0, 1)` at which `first`, moved by that share of `motion`, and `second`, at
/// rest, are apart, before a later time at which they touch: the middle of the first stretch
/// that no piece of their outlines covers (see the [module docs](self)), with a covered one
/// after it, at which they do not overlap.
fn first_gap(first: Shape, second: Shape, motion: Vec2) -> Option<f32> {
    let mut touching = Stretches::new();
    outline_stretches(first, second, motion.as_dvec2(), &mut touching);
    touching.sort_by(|one, other| one.0.total_cmp(&other.0));
    let mut buffer = Buffer::new();
    let mut apart = |from: f64, to: f64| {
        let middle = (0.5 * (from + to)) as f32;
        buffer.clear();
        let inside = middle > 0.0 && middle < 1.0;
        (inside && !overlap(moved(first, middle * motion, &mut buffer), second)).then_some(middle)
    };
    // How far from the start the stretches seen so far cover.
    let mut covered = 0.0;
    for (from, to) in touching {
        if from > covered
            && let Some(gap) = apart(covered, from)
        {
            return Some(gap);
        }
        covered = f64::max(covered, to);
        if covered >= 1.0 {
            return None;
        }
    }
    // No outline touches the other after this: whether the shapes are apart here or one holds
    // the other, they do not meet again.
    None
}

/// Pushes the stretches of time in which a piece of the outline of `first`, moving by
/// `motion`, touches one of `second`, at rest (whether the two overlap changes only where
/// their outlines touch): for a circle, its centre within its radius of an edge; for two
/// polygonal shapes, an edge of each crossing. Pieces out of reach of each other along the way
/// are passed over.
fn outline_stretches(first: Shape, second: Shape, motion: DVec2, stretches: &mut Stretches) {
    match (first, second) {
        (Shape::Circle(circle), other) => {
            let center = circle.center.as_dvec2();
            circle_stretches(center, motion, f64::from(circle.radius), other, stretches);
        }
        (other, Shape::Circle(circle)) => {
            let center = circle.center.as_dvec2();
            circle_stretches(center, -motion, f64::from(circle.radius), other, stretches);
        }
        (first, second) => edge_stretches(first, second, motion, stretches),
    }
}

/// The stretches of time in which the centre of a circle of `radius`, at `center` moving by
/// `motion`, lies within the radius of an edge of `outline`: in the edge's capsule, which is
/// convex, so over one stretch (its end circles' and its flat sides' stretches joined).
fn circle_stretches(
    center: DVec2,
    motion: DVec2,
    radius: f64,
    outline: Shape,
    stretches: &mut Stretches,
) {
    let reach = Reach::of([center]).swept(motion, radius);
    for edge in outline_edges(outline) {
        let (start, end) = (edge.a.as_dvec2(), edge.b.as_dvec2());
        if !reach.meets(Reach::of([start, end])) {
            continue;
        }
        let mut joined: Option<(f64, f64)> = None;
        let mut join = |stretch: Option<(f64, f64)>| {
            joined = match (joined, stretch) {
                (Some(one), Some(other)) => Some((one.0.min(other.0), one.1.max(other.1))),
                (one, other) => one.or(other),
            };
        };
        for corner in [start, end] {
            join(in_disc(center - corner, motion, radius));
        }
        let along = end - start;
        let length = along.length();
        if length > 0.0 {
            let (unit, normal) = (along / length, along.perp() / length);
            let from_start = center - start;
            let heights = span(normal.dot(from_start), normal.dot(motion), -radius, radius);
            let feet = span(unit.dot(from_start), unit.dot(motion), 0.0, length);
            join(both(heights, feet));
        }
        stretches.extend(joined);
    }
}

/// The stretches of time in which an edge of `first`, moving by `motion`, crosses or touches
/// an edge of `second`, at rest: the offsets at which two segments meet form a parallelogram
/// (the one's points less the other's), which the motion's line crosses over one stretch.
fn edge_stretches(first: Shape, second: Shape, motion: DVec2, stretches: &mut Stretches) {
    let ends = |edge: Segment| [edge.a, edge.b].map(Vec2::as_dvec2);
    let moving_reach = Reach::of(outline_edges(first).flat_map(ends)).swept(motion, 0.0);
    let near: SmallVec<[[DVec2; 2]; 32]> = outline_edges(second)
        .map(ends)
        .filter(|&edge| moving_reach.meets(Reach::of(edge)))
        .collect();
    for moving in outline_edges(first).map(ends) {
        let reach = Reach::of(moving).swept(motion, 0.0);
        for &still in near.iter().filter(|&&still| reach.meets(Reach::of(still))) {
            stretches.extend(crossing(moving, still, motion));
        }
    }
}

/// When segment `moving`, moving by `motion`, meets segment `still`: `moving`'s point at `u`
/// plus `t·motion` is `still`'s point at `s`, for `s` and `u` in `[0, 1]`.
fn crossing(moving: [DVec2; 2], still: [DVec2; 2], motion: DVec2) -> Option<(f64, f64)> {
    let (moving_along, still_along) = (moving[1] - moving[0], still[1] - still[0]);
    let offset = still[0] - moving[0];
    // t·motion = offset + s·still_along − u·moving_along, solved for s and u by Cramer's rule.
    let determinant = still_along.perp_dot(-moving_along);
    if determinant != 0.0 {
        let s = |point: DVec2| point.perp_dot(-moving_along) / determinant;
        let u = |point: DVec2| still_along.perp_dot(point) / determinant;
        let at_s = span(s(-offset), s(motion), 0.0, 1.0);
        let at_u = span(u(-offset), u(motion), 0.0, 1.0);
        return both(at_s, at_u);
    }
    // Parallel edges (or a point): they meet only on one line, where their spans along it
    // overlap. Off that line by `height`, changing by `rate` over the motion.
    let direction = if moving_along != DVec2::ZERO {
        moving_along
    } else {
        still_along
    };
    let Some(unit) = direction.try_normalize() else {
        // Two points: where the one runs through the other.
        return in_disc(moving[0] - still[0], motion, 0.0);
    };
    let (height, rate) = (unit.perp_dot(-offset), unit.perp_dot(motion));
    let on_line = span(height, rate, 0.0, 0.0);
    // Along the line: the moving span, shifted by `t·motion`, meets the still one.
    let spans = |edge: [DVec2; 2]| {
        let (one, other) = (unit.dot(edge[0]), unit.dot(edge[1]));
        (one.min(other), one.max(other))
    };
    let (moving_span, still_span) = (spans(moving), spans(still));
    let shift = unit.dot(motion);
    let low = span(moving_span.1, shift, still_span.0, f64::INFINITY);
    let high = span(moving_span.0, shift, f64::NEG_INFINITY, still_span.1);
    both(on_line, both(low, high))
}

/// When a point at `offset` from a disc's centre, moving by `motion`, lies in the disc of
/// `radius`.
fn in_disc(offset: DVec2, motion: DVec2, radius: f64) -> Option<(f64, f64)> {
    // |offset + t·motion|² = r²
    let motion_squared = motion.length_squared();
    let half_b = offset.dot(motion);
    let c = offset.length_squared() - radius * radius;
    if motion_squared == 0.0 {
        return (c <= 0.0).then_some((f64::NEG_INFINITY, f64::INFINITY));
    }
    let discriminant = half_b * half_b - motion_squared * c;
    if discriminant < 0.0 {
        return None;
    }
    let root = discriminant.sqrt();
    Some((
        (-half_b - root) / motion_squared,
        (-half_b + root) / motion_squared,
    ))
}

/// When a value starting at `start` and changing by `rate` over the motion lies in
/// `[low, high]`: from, to (unbounded without a change), if ever.
fn span(start: f64, rate: f64, low: f64, high: f64) -> Option<(f64, f64)> {
    if rate == 0.0 {
        return (low <= start && start <= high).then_some((f64::NEG_INFINITY, f64::INFINITY));
    }
    let (at_low, at_high) = ((low - start) / rate, (high - start) / rate);
    Some((at_low.min(at_high), at_low.max(at_high)))
}

/// The stretch within both, if any.
fn both(one: Option<(f64, f64)>, other: Option<(f64, f64)>) -> Option<(f64, f64)> {
    let (one, other) = (one?, other?);
    let (from, to) = (one.0.max(other.0), one.1.min(other.1));
    (from <= to).then_some((from, to))
}

/// A box, grown by a millionth of its coordinates so that rounding leaves out no point near
/// its sides: what a shape reaches along a motion.
#[derive(Clone, Copy, Debug)]
struct Reach {
    min: DVec2,
    max: DVec2,
}

impl Reach {
    /// The box of `points`, grown.
    fn of(points: impl IntoIterator<Item = DVec2>) -> Self {
        let (min, max) = points.into_iter().fold(
            (DVec2::INFINITY, DVec2::NEG_INFINITY),
            |(min, max), point| (min.min(point), max.max(point)),
        );
        let grown = 1e-6 * min.abs().max(max.abs()).max_element();
        Self {
            min: min - grown,
            max: max + grown,
        }
    }

    /// The box swept by this one moving by `motion`, grown by `margin` and by a millionth of
    /// the motion.
    fn swept(self, motion: DVec2, margin: f64) -> Self {
        let grown = margin + 1e-6 * motion.abs().max_element();
        Self {
            min: self.min.min(self.min + motion) - grown,
            max: self.max.max(self.max + motion) + grown,
        }
    }

    fn meets(&self, other: Self) -> bool {
        self.min.cmple(other.max).all() && other.min.cmple(self.max).all()
    }
}

/// How many corners a shape has: a polygon's vertices, a segment's two ends, a circle's one
/// centre.
fn corners(shape: Shape) -> usize {
    match shape {
        Shape::Polygon(vertices) => vertices.len(),
        Shape::Segment(_) => 2,
        Shape::Circle(_) => 1,
    }
}

/// The edges of a segment or polygon (a circle has none).
fn outline_edges(shape: Shape<'_>) -> impl Iterator<Item = Segment> + '_ {
    let vertices: &[Vec2] = match shape {
        Shape::Polygon(vertices) => vertices,
        _ => &[],
    };
    let segment = match shape {
        Shape::Segment(segment) => Some(segment),
        _ => None,
    };
    edges(vertices).chain(segment)
}

/// Whether a polygon's `vertices` have a corner that turns the other way from the rest: a
/// concave polygon. Corners on a straight line count as neither.
pub(crate) fn is_concave(vertices: &[Vec2]) -> bool {
    let count = vertices.len();
    let (mut left, mut right) = (false, false);
    for index in 0..count {
        let [before, at, after] =
            [index, index + 1, index + 2].map(|corner| vertices[corner % count].as_dvec2());
        let turn = (at - before).perp_dot(after - at);
        left |= turn > 0.0;
        right |= turn < 0.0;
    }
    left && right
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Circle;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    /// A U 40 wide and 50 high: arms 10 thick (x in 0..10 and 30..40), a base 10 thick.
    fn u_shape() -> [Vec2; 8] {
        [
            v(0.0, 0.0),
            v(40.0, 0.0),
            v(40.0, 50.0),
            v(30.0, 50.0),
            v(30.0, 10.0),
            v(10.0, 10.0),
            v(10.0, 50.0),
            v(0.0, 50.0),
        ]
    }

    #[test]
    fn a_disc_leaving_one_arm_meets_the_other() {
        let u = u_shape();
        // Radius 2 from (5, 30) to (50, 30): apart once its centre passes x = 12, touching the
        // right arm's inner side when it reaches x = 28.
        let disc = Shape::Circle(Circle::new(v(5.0, 30.0), 2.0));
        let motion = v(45.0, 0.0);
        let hit = touch_after_parting(disc, motion, Shape::Polygon(&u), Vec2::ZERO).unwrap();
        assert!((hit.time - 23.0 / 45.0).abs() < 1e-5, "time {}", hit.time);
        assert!(hit.point.abs_diff_eq(v(30.0, 30.0), 1e-4), "{}", hit.point);
        assert!(hit.normal.abs_diff_eq(v(-1.0, 0.0), 1e-5), "{}", hit.normal);
        // The same pair the other way round, the U moving instead, carried along in the
        // common frame: the same time, the point where the U is then, the normal negated.
        let back = touch_after_parting(Shape::Polygon(&u), -motion, disc, Vec2::ZERO).unwrap();
        assert!((back.time - hit.time).abs() < 1e-6);
        assert!(
            back.point
                .abs_diff_eq(v(30.0, 30.0) - hit.time * motion, 1e-3)
        );
        assert!(back.normal.abs_diff_eq(-hit.normal, 1e-5));
        // Both moving, half each: the point is where the U has moved to.
        let half = 0.5 * motion;
        let both = touch_after_parting(disc, half, Shape::Polygon(&u), -half).unwrap();
        assert!((both.time - hit.time).abs() < 1e-6);
        assert!(
            both.point
                .abs_diff_eq(v(30.0, 30.0) - hit.time * half, 1e-3)
        );
    }

    #[test]
    fn no_second_touch_without_parting_or_without_the_other_arm() {
        let u = u_shape();
        let polygon = Shape::Polygon(&u);
        // Along the base, in the U all the way.
        let low = Shape::Circle(Circle::new(v(5.0, 5.0), 2.0));
        assert_eq!(
            touch_after_parting(low, v(30.0, 0.0), polygon, Vec2::ZERO),
            None
        );
        // Out of the left arm, stopping in the gap.
        let short = Shape::Circle(Circle::new(v(5.0, 30.0), 2.0));
        assert_eq!(
            touch_after_parting(short, v(20.0, 0.0), polygon, Vec2::ZERO),
            None
        );
        // Through a square: convex, one stretch of overlap.
        let square = [v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)];
        let through = Shape::Circle(Circle::new(v(5.0, 5.0), 2.0));
        let square = Shape::Polygon(&square);
        assert_eq!(
            touch_after_parting(through, v(30.0, 0.0), square, Vec2::ZERO),
            None
        );
    }

    #[test]
    fn a_segment_and_a_polygon_meet_again_too() {
        let u = u_shape();
        // A short vertical segment across the left arm, moving right through the right arm:
        // its ends' rays leave the left arm at x = 10 and reach the right one at x = 30.
        let segment = Shape::Segment(Segment::new(v(5.0, 20.0), v(5.0, 40.0)));
        let motion = v(45.0, 0.0);
        let hit = touch_after_parting(segment, motion, Shape::Polygon(&u), Vec2::ZERO).unwrap();
        assert!((hit.time - 25.0 / 45.0).abs() < 1e-5, "time {}", hit.time);
        assert!((hit.point.x - 30.0).abs() < 1e-4, "{}", hit.point);
        assert!(hit.normal.abs_diff_eq(v(-1.0, 0.0), 1e-5), "{}", hit.normal);
        // A square moving the same way.
        let square = [v(2.0, 20.0), v(8.0, 20.0), v(8.0, 26.0), v(2.0, 26.0)];
        let square = Shape::Polygon(&square);
        let hit = touch_after_parting(square, motion, Shape::Polygon(&u), Vec2::ZERO).unwrap();
        assert!((hit.time - 22.0 / 45.0).abs() < 1e-5, "time {}", hit.time);
    }

    #[test]
    fn concave_means_a_corner_turning_the_other_way() {
        let u = u_shape();
        assert!(is_concave(&u));
        let mut reversed = u;
        reversed.reverse();
        assert!(is_concave(&reversed));
        // A square with a vertex in the middle of an edge: convex.
        let square = [
            v(0.0, 0.0),
            v(5.0, 0.0),
            v(10.0, 0.0),
            v(10.0, 10.0),
            v(0.0, 10.0),
        ];
        assert!(!is_concave(&square));
    }

    /// Against dense sub-stepping: discs, segments and squares crossing random stars
    /// (concave), overlapping at the start and apart at the end. Where the steps see them part
    /// and overlap again, the touch is found, after the parting and no later than that step;
    /// where it is found without the steps seeing it, a disc touches the star then (a gap or a
    /// touch thinner than a step), and for the others that is rare.
    #[test]
    fn shapes_through_stars_agree_with_dense_steps() {
        use crate::geometry::overlap_polygon_circle;
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        const STEPS: usize = 2_000;
        let mut rng = StdRng::seed_from_u64(5);
        let (mut again, mut once, mut unseen) = ([0; 3], [0; 3], 0);
        for _ in 0..9_000 {
            let points = rng.random_range(3..=9);
            let inner = rng.random_range(4.0..14.0);
            let star: Vec<Vec2> = (0..2 * points)
                .map(|corner| {
                    let angle = core::f32::consts::PI * corner as f32 / points as f32;
                    let radius = if corner % 2 == 0 { 20.0 } else { inner };
                    radius * Vec2::from_angle(angle)
                })
                .collect();
            let size = rng.random_range(0.3..4.0);
            let center = v(rng.random_range(-18.0..18.0), rng.random_range(-18.0..18.0));
            let kind = rng.random_range(0..3);
            let turn = Vec2::from_angle(rng.random_range(0.0..6.3));
            let square: Vec<Vec2> = [v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)]
                .map(|corner| center + size * turn.rotate(corner))
                .to_vec();
            let shape = match kind {
                0 => Shape::Circle(Circle::new(center, size)),
                1 => Shape::Segment(Segment::new(center - size * turn, center + size * turn)),
                _ => Shape::Polygon(&square),
            };
            let motion =
                rng.random_range(20.0..80.0) * Vec2::from_angle(rng.random_range(0.0..6.3));
            let star_shape = Shape::Polygon(&star);
            let overlaps_at = |time: f32| {
                let mut buffer = Buffer::new();
                overlap(moved(shape, time * motion, &mut buffer), star_shape)
            };
            if !overlaps_at(0.0) || overlaps_at(1.0) {
                continue;
            }
            let overlapping: Vec<bool> = (0..=STEPS)
                .map(|step| overlaps_at(step as f32 / STEPS as f32))
                .collect();
            let parted = overlapping.iter().position(|&overlaps| !overlaps).unwrap();
            let met = (parted..=STEPS).find(|&step| overlapping[step]);
            let found = touch_after_parting(shape, motion, star_shape, Vec2::ZERO);
            let step_time = |step: usize| step as f32 / STEPS as f32;
            match (met, found) {
                (Some(step), Some(hit)) => {
                    assert!(
                        hit.time <= step_time(step) + 1e-5,
                        "{hit:?} after step {step}"
                    );
                    assert!(hit.time >= step_time(parted - 1), "{hit:?} before parting");
                    // The star moving the other way instead: the same touch, seen from it.
                    let back = touch_after_parting(star_shape, -motion, shape, Vec2::ZERO)
                        .expect("met again, the other way round");
                    assert!(
                        (back.time - hit.time).abs() < 1e-4,
                        "{back:?} against {hit:?}"
                    );
                    again[kind] += 1;
                }
                (Some(step), None) => {
                    panic!("met again at step {step}, not found: {star:?} {shape:?} {motion}")
                }
                (None, Some(hit)) => {
                    if let Shape::Circle(disc) = shape {
                        let center = disc.center + hit.time * motion;
                        let grown = Circle::new(center, disc.radius + 1e-3);
                        assert!(
                            overlap_polygon_circle(&star, grown),
                            "{hit:?}: not touching"
                        );
                    }
                    unseen += 1;
                }
                (None, None) => once[kind] += 1,
            }
        }
        for kind in 0..3 {
            assert!(
                again[kind] > 100 && once[kind] > 100,
                "{again:?} again, {once:?} once"
            );
        }
        assert!(
            unseen < 20,
            "{unseen} touches found that the steps did not see"
        );
    }
}
