//! Touching again after parting: two shapes that overlap at the start of their motions, part,
//! and meet again before the end. Only a concave polygon allows it (a bullet leaving one arm of
//! a U and crossing the other): two convex shapes under straight motions overlap over one
//! stretch of time, since the set of relative offsets at which they overlap is convex.
//!
//! # How
//! Whether the shapes overlap changes only at a time when their outlines touch. Those times
//! are listed, a few more with them (each is a root of a simple equation, kept when it lands
//! near the feature it belongs to): for a circle against an edge, the centre at the radius from
//! either end or from the edge's line beside it; for two polygonal shapes, a vertex of either
//! crossing an edge of the other. Between two neighbouring times the answer stays the same, so
//! the shapes are tested at the middle of each stretch in turn until they are apart: the first
//! gap. From there the ordinary [sweep](super) finds where they touch again, exactly.

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
/// `None` for two convex shapes, which cannot part and meet again, for shapes that never part,
/// and for shapes or motions that the sweeps reject. Allocates only for shapes of many
/// vertices.
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
    if motion == Vec2::ZERO || !(is_concave(first) || is_concave(second)) {
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

/// The times at which two outlines may touch: inline up to 64, on the heap beyond.
type Times = SmallVec<[f64; 64]>;

/// A time in `(0, 1)` at which `first`, moved by that share of `motion`, and `second`, at
/// rest, are apart, before any later time at which they touch: the middle of the first stretch
/// between two times when their outlines may touch (see the [module docs](self)) at which they
/// do not overlap.
fn first_gap(first: Shape, second: Shape, motion: Vec2) -> Option<f32> {
    let mut times = Times::new();
    touch_times(first, second, motion.as_dvec2(), &mut times);
    times.retain(|time| *time > 0.0 && *time < 1.0);
    times.sort_by(f64::total_cmp);
    times.push(1.0);
    let mut buffer = Buffer::new();
    let mut before = 0.0;
    for &time in &times {
        let middle = (0.5 * (before + time)) as f32;
        before = time;
        if middle <= 0.0 || middle >= 1.0 {
            continue;
        }
        buffer.clear();
        if !overlap(moved(first, middle * motion, &mut buffer), second) {
            return Some(middle);
        }
    }
    None
}

/// Pushes every time at which the outlines of `first`, moving by `motion`, and `second`, at
/// rest, may touch: a few more than they do, none fewer.
fn touch_times(first: Shape, second: Shape, motion: DVec2, times: &mut Times) {
    match (first, second) {
        (Shape::Circle(circle), other) => {
            let center = circle.center.as_dvec2();
            circle_times(center, motion, f64::from(circle.radius), other, times);
        }
        (other, Shape::Circle(circle)) => {
            let center = circle.center.as_dvec2();
            circle_times(center, -motion, f64::from(circle.radius), other, times);
        }
        (first, second) => {
            vertex_times(first, second, motion, times);
            vertex_times(second, first, -motion, times);
        }
    }
}

/// The times at which a circle of `radius`, its centre at `center` moving by `motion`, may
/// touch an edge of `outline`: its centre at the radius from an end, or from the edge's line
/// beside the edge. Edges out of the circle's reach along the way are passed over.
fn circle_times(center: DVec2, motion: DVec2, radius: f64, outline: Shape, times: &mut Times) {
    let motion_squared = motion.length_squared();
    let reach = Reach::of([center]).swept(motion, radius);
    for edge in outline_edges(outline) {
        let (start, end) = (edge.a.as_dvec2(), edge.b.as_dvec2());
        if !reach.meets(Reach::of([start, end])) {
            continue;
        }
        for corner in [start, end] {
            // |offset + t·motion|² = r²
            let offset = center - corner;
            let half_b = offset.dot(motion);
            let c = offset.length_squared() - radius * radius;
            let discriminant = half_b * half_b - motion_squared * c;
            if discriminant >= 0.0 {
                let root = discriminant.sqrt();
                times.push((-half_b - root) / motion_squared);
                times.push((-half_b + root) / motion_squared);
            }
        }
        let along = end - start;
        let length = along.length();
        if length == 0.0 {
            continue;
        }
        let (unit, normal) = (along / length, along.perp() / length);
        let (height, rate) = (normal.dot(center - start), normal.dot(motion));
        if rate == 0.0 {
            continue;
        }
        for side in [radius, -radius] {
            let time = (side - height) / rate;
            let foot = unit.dot(center + time * motion - start);
            if beside(foot, length) {
                times.push(time);
            }
        }
    }
}

/// The times at which a vertex (or segment end) of `moving`, moving by `motion`, crosses an
/// edge of `still`. Edges out of `moving`'s reach along the way, and vertices whose way does
/// not come near `still`, are passed over.
fn vertex_times(moving: Shape, still: Shape, motion: DVec2, times: &mut Times) {
    let vertices: &[Vec2] = match &moving {
        Shape::Polygon(vertices) => vertices,
        Shape::Segment(segment) => &[segment.a, segment.b],
        Shape::Circle(_) => return,
    };
    let reach = Reach::of(vertices.iter().map(|vertex| vertex.as_dvec2())).swept(motion, 0.0);
    // A vertex meets `still` only from within its box moved back along the way.
    let ends = outline_edges(still).flat_map(|edge| [edge.a, edge.b].map(Vec2::as_dvec2));
    let near = Reach::of(ends).swept(-motion, 0.0);
    let vertices: SmallVec<[DVec2; 32]> = vertices
        .iter()
        .map(|vertex| vertex.as_dvec2())
        .filter(|&vertex| near.holds(vertex))
        .collect();
    for edge in outline_edges(still) {
        let (start, end) = (edge.a.as_dvec2(), edge.b.as_dvec2());
        let along = end - start;
        let length = along.length();
        let rate = along.perp_dot(motion);
        if length == 0.0 || rate == 0.0 || !reach.meets(Reach::of([start, end])) {
            continue;
        }
        for &vertex in &vertices {
            let offset = vertex - start;
            // along × (offset + t·motion) = 0
            let time = -along.perp_dot(offset) / rate;
            let foot = along.dot(offset + time * motion) / length;
            if beside(foot, length) {
                times.push(time);
            }
        }
    }
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

    fn holds(&self, point: DVec2) -> bool {
        point.cmpge(self.min).all() && point.cmple(self.max).all()
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

/// Whether a point whose foot lies `foot` along an edge of `length` is beside it: with a
/// generous margin, since a time too many costs one more test and a time too few a wrong
/// answer.
fn beside(foot: f64, length: f64) -> bool {
    let margin = 0.01 * length;
    (-margin..=length + margin).contains(&foot)
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

/// Whether `shape` is a polygon with a corner that turns the other way from the rest: a
/// concave one. Corners on a straight line count as neither.
fn is_concave(shape: Shape) -> bool {
    let Shape::Polygon(vertices) = shape else {
        return false;
    };
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
        assert!(is_concave(Shape::Polygon(&u)));
        let mut reversed = u;
        reversed.reverse();
        assert!(is_concave(Shape::Polygon(&reversed)));
        // A square with a vertex in the middle of an edge: convex.
        let square = [
            v(0.0, 0.0),
            v(5.0, 0.0),
            v(10.0, 0.0),
            v(10.0, 10.0),
            v(0.0, 10.0),
        ];
        assert!(!is_concave(Shape::Polygon(&square)));
        let segment = Segment::new(v(0.0, 0.0), v(1.0, 0.0));
        assert!(!is_concave(Shape::Segment(segment)));
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
