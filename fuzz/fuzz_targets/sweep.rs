//! `geometry::sweep` (both shapes moving, both argument orders) and the pair functions
//! `sweep_[first]_[second]` (the first moving by the relative motion, the second at rest), on
//! arbitrary floats and motions.
//!
//! Always (any input):
//! - nothing panics (debug assertions are on in fuzz builds);
//! - an impact has a time in `[0, 1]`, a finite point and a finite normal of unit length
//!   (within `1e-3`);
//! - both orders of `sweep` give the same time and point bit for bit and the negated normal
//!   (sweep module docs);
//! - shapes that overlap at the start give `None`; a non-finite or out-of-range shape or motion
//!   gives `None`;
//! - the guarantee at the end of the motion: in-range shapes apart at the start that overlap
//!   when each is moved by its full motion (in `f32`, as documented) give `Some`.
//!
//! For a precise pair (see `lib::Owned::is_precise`) with in-range motions whose lengths (and
//! that of the relative motion) are 0 or at least `MIN_SIZE`:
//! - the point lies on both outlines, each moved by `time ×` its motion (in `f64`), within
//!   `lib::point_tolerance`, its coordinate term counting the motions' magnitudes too;
//! - the normal faces against the relative motion: `normal · unit(relative) ≤ 1e-3`;
//! - with every number zero or at least `MIN_SIZE` in magnitude, the scene scaled by a power of
//!   two (exactly) gives the same time and normal and the point scaled by exactly that factor.

#![no_main]

use arbitrary::Arbitrary;
use bevy::math::{DVec2, Vec2};
use bevy_collision_events::geometry::{
    Impact, MAX_COORDINATE, Shape, TOLERANCE, overlap, sweep, sweep_circle_circle,
    sweep_polygon_circle, sweep_polygon_polygon, sweep_polygon_segment, sweep_segment_circle,
    sweep_segment_segment,
};
use bevy_collision_events_fuzz::{
    Builder, MIN_SIZE, guarantee_checked, Nudge, Num, Owned, Placement, PointIn, ShapeIn, bits, is_resolved,
    no_tiny_numbers, point_tolerance, power, scale_exactly, strict, vec2, within_scale_checked_range,
};
use libfuzzer_sys::fuzz_target;

/// A motion: any vector, or the difference of two points of the scene (so that a vertex lands
/// exactly on another one at the end of the motion).
#[derive(Arbitrary, Clone, Copy, Debug)]
enum MotionIn {
    Fresh(Num, Num),
    Between(PointIn, PointIn),
    Zero,
}

#[derive(Arbitrary, Debug)]
struct Input {
    first: ShapeIn,
    second: ShapeIn,
    first_motion: MotionIn,
    second_motion: MotionIn,
    placement: Option<Placement>,
    nudge: Option<Nudge>,
    /// The power of two for the scale check.
    scale: i8,
}

fn motion(builder: &mut Builder, motion: MotionIn) -> Vec2 {
    match motion {
        MotionIn::Fresh(x, y) => Vec2::new(x.value(), y.value()),
        MotionIn::Between(p, q) => {
            let p = builder.point(p);
            builder.point(q) - p
        }
        MotionIn::Zero => Vec2::ZERO,
    }
}

fuzz_target!(|input: Input| {
    let mut builder = Builder::default();
    let mut first = builder.shape(&input.first);
    let mut second = builder.shape(&input.second);
    let mut first_motion = motion(&mut builder, input.first_motion);
    let mut second_motion = motion(&mut builder, input.second_motion);
    if let Some(placement) = input.placement {
        first.apply(&placement);
        second.apply(&placement);
        let scale = placement.scale.value();
        first_motion *= scale;
        second_motion *= scale;
    }
    if let Some(nudge) = input.nudge {
        second.nudge(nudge);
    }
    check_sweep(&first, first_motion, &second, second_motion);
    check_pair_function(&first, &second, first_motion - second_motion);
    check_pair_function(&second, &first, second_motion - first_motion);
    check_scaled(&first, first_motion, &second, second_motion, power(input.scale));
});

/// Module docs (`MIN_SIZE`): the same answers at every power-of-two scale, for precise shapes
/// and motions whose numbers are all zero or at least `MIN_SIZE` in magnitude, scaled exactly:
/// the same time and normal, the point scaled.
fn check_scaled(first: &Owned, first_motion: Vec2, second: &Owned, second_motion: Vec2, k: i32) {
    let resolved = |s: &Owned, m: Vec2| {
        s.is_precise()
            && no_tiny_numbers(&s.numbers())
            && no_tiny_numbers(&[m.x, m.y])
            && motion_in_range(m)
            && is_resolved(m.as_dvec2().length())
            && within_scale_checked_range(&s.numbers())
            && within_scale_checked_range(&[s.size() as f32])
            && within_scale_checked_range(&[m.x, m.y])
    };
    if !(resolved(first, first_motion) && resolved(second, second_motion)) {
        return;
    }
    let scale_motion = |m: Vec2| Some(Vec2::new(scale_exactly(m.x, k)?, scale_exactly(m.y, k)?));
    let (Some(first2), Some(second2), Some(m1), Some(m2)) = (
        first.scaled(k),
        second.scaled(k),
        scale_motion(first_motion),
        scale_motion(second_motion),
    ) else {
        return;
    };
    if !(resolved(&first2, m1) && resolved(&second2, m2)) {
        return;
    }
    let factor = 2f32.powi(k);
    let hit = sweep(first.shape(), first_motion, second.shape(), second_motion);
    let hit2 = sweep(first2.shape(), m1, second2.shape(), m2);
    let same = match (hit, hit2) {
        (None, None) => true,
        (Some(x), Some(y)) => {
            x.time.to_bits() == y.time.to_bits() && x.point * factor == y.point && x.normal == y.normal
        }
        _ => false,
    };
    assert!(
        same,
        "sweep changes with the scale 2^{k}\n{}\nscaled: {}\n{hit:?}\nscaled: {hit2:?}",
        context(first, first_motion, second, second_motion),
        context(&first2, m1, &second2, m2)
    );
}

fn motion_in_range(m: Vec2) -> bool {
    m.x.abs() <= MAX_COORDINATE && m.y.abs() <= MAX_COORDINATE
}

fn context(first: &Owned, first_motion: Vec2, second: &Owned, second_motion: Vec2) -> String {
    format!(
        "first: {}, motion {}\nsecond: {}, motion {}",
        first.literal(),
        vec2(first_motion),
        second.literal(),
        vec2(second_motion)
    )
}

fn check_sweep(first: &Owned, first_motion: Vec2, second: &Owned, second_motion: Vec2) {
    let (a, b) = (first.shape(), second.shape());
    let context = || context(first, first_motion, second, second_motion);
    let forward = sweep(a, first_motion, b, second_motion);
    let backward = sweep(b, second_motion, a, first_motion);

    match (forward, backward) {
        (None, None) => {}
        (Some(f), Some(g)) => {
            assert!(
                f.time.to_bits() == g.time.to_bits()
                    && f.point.x.to_bits() == g.point.x.to_bits()
                    && f.point.y.to_bits() == g.point.y.to_bits()
                    && f.normal == -g.normal,
                "the two orders differ (time and point must agree bit for bit, the normal be \
                 negated)\n{}\nforward {f:?}\nbackward {g:?}",
                context()
            );
        }
        _ => panic!(
            "one order hits, the other not\n{}\nforward {forward:?}\nbackward {backward:?}",
            context()
        ),
    }
    check_common(
        forward,
        first,
        second,
        first_motion,
        second_motion,
        &context,
    );
}

/// The pair function of `(first, second)` when that is its order (the more complex shape
/// first; both orders for two of a kind), `first` moving by `motion`.
fn pair_function(first: Shape, second: Shape, motion: Vec2) -> Option<Option<Impact>> {
    use Shape::{Circle as C, Polygon as P, Segment as S};
    Some(match (first, second) {
        (C(a), C(b)) => sweep_circle_circle(a, b, motion),
        (S(s), C(c)) => sweep_segment_circle(s, c, motion),
        (S(a), S(b)) => sweep_segment_segment(a, b, motion),
        (P(p), C(c)) => sweep_polygon_circle(p, c, motion),
        (P(p), S(s)) => sweep_polygon_segment(p, s, motion),
        (P(a), P(b)) => sweep_polygon_polygon(a, b, motion),
        _ => return None,
    })
}

fn check_pair_function(first: &Owned, second: &Owned, motion: Vec2) {
    let Some(hit) = pair_function(first.shape(), second.shape(), motion) else {
        return;
    };
    let context = || {
        format!(
            "pair function, second at rest\n{}",
            self::context(first, motion, second, Vec2::ZERO)
        )
    };
    check_common(hit, first, second, motion, Vec2::ZERO, &context);
}

/// What every sweep answer must satisfy, for `first` moving by `first_motion` and `second` by
/// `second_motion`.
fn check_common(
    hit: Option<Impact>,
    first: &Owned,
    second: &Owned,
    first_motion: Vec2,
    second_motion: Vec2,
    context: &dyn Fn() -> String,
) {
    if let Some(hit) = hit {
        assert!(
            (0.0..=1.0).contains(&hit.time),
            "time outside [0, 1]\n{}\n{hit:?}",
            context()
        );
        assert!(
            hit.point.is_finite() && hit.normal.is_finite(),
            "non-finite point or normal\n{}\n{hit:?}",
            context()
        );
        assert!(
            (hit.normal.as_dvec2().length() - 1.0).abs() <= 1e-3,
            "normal not of unit length\n{}\n{hit:?}",
            context()
        );
    }
    let valid = first.in_range()
        && second.in_range()
        && motion_in_range(first_motion)
        && motion_in_range(second_motion);
    if !valid {
        assert!(hit.is_none(), "out-of-range input hits\n{}\n{hit:?}", context());
        return;
    }
    let (a, b) = (first.shape(), second.shape());
    // Known finding 4: `overlap` can differ with the order; the sweep decides by one order
    // (target `overlap_intersect` checks the symmetry itself). Unless strict, a pair that
    // overlaps at the start in either order is "apart" for nothing below.
    let (ab, ba) = (overlap(a, b), overlap(b, a));
    if ab && (strict() || ba) {
        assert!(hit.is_none(), "overlapping at the start, yet an impact\n{}\n{hit:?}", context());
        return;
    }
    if ba && !strict() {
        return;
    }
    // The guarantee at the end of the motion.
    let (first_end, second_end) = (first.moved(first_motion), second.moved(second_motion));
    let (a_end, b_end) = (first_end.shape(), second_end.shape());
    // Known finding 4 again: asked only where both orders of `overlap` agree, unless strict.
    let numbers: Vec<f32> = [first.numbers(), second.numbers(), first_end.numbers(), second_end.numbers()]
        .concat()
        .into_iter()
        .chain([first_motion.x, first_motion.y, second_motion.x, second_motion.y])
        .collect();
    // Shapes or motions below MIN_SIZE are not resolved (module docs): unless strict, not asked.
    // That includes a motion's component, and the shapes where the motions leave them (a gap
    // at the end below MIN_SIZE reads as touching).
    let tiny_component =
        |m: Vec2| [m.x, m.y].iter().any(|x| *x != 0.0 && f64::from(x.abs()) < MIN_SIZE);
    let resolved = strict()
        || (first.in_resolved_range()
            && second.in_resolved_range()
            && is_resolved(first_motion.as_dvec2().length())
            && is_resolved(second_motion.as_dvec2().length())
            && !tiny_component(first_motion)
            && !tiny_component(second_motion)
            && !first.has_tiny_number()
            && !second.has_tiny_number()
            && !first_end.has_tiny_number()
            && !second_end.has_tiny_number());
    if first_end.in_range()
        && second_end.in_range()
        && resolved
        && guarantee_checked(&numbers)
        && overlap(a_end, b_end)
        && (strict() || overlap(b_end, a_end))
    {
        assert!(
            hit.is_some(),
            "apart at the start, overlapping at the end, yet no impact\n{}",
            context()
        );
    }
    let Some(hit) = hit else {
        return;
    };
    let (m1, m2) = (first_motion.as_dvec2(), second_motion.as_dvec2());
    // Motions are lengths too: below MIN_SIZE their products leave f32's normal range.
    let motions_resolved =
        is_resolved(m1.length()) && is_resolved(m2.length()) && is_resolved((m1 - m2).length());
    // Known finding 3: a number below MIN_SIZE (a subnormal) can make a ray's time wrong.
    let tiny = |m: Vec2| [m.x, m.y].iter().any(|x| *x != 0.0 && f64::from(x.abs()) < MIN_SIZE);
    let known = !strict()
        && (first.has_tiny_number()
            || second.has_tiny_number()
            || tiny(first_motion)
            || tiny(second_motion));
    if !(first.is_precise() && second.is_precise() && motions_resolved) || known {
        return;
    }
    let t = f64::from(hit.time);
    let (outline1, outline2) = (first.outline_moved(t * m1), second.outline_moved(t * m2));
    let sizes = first.size() + second.size();
    let magnitude = first.magnitude().max(second.magnitude())
        + m1.abs().max_element()
        + m2.abs().max_element();
    let tolerance = point_tolerance(sizes, magnitude);
    let p = hit.point.as_dvec2();
    let (d1, d2) = (outline1.distance(p), outline2.distance(p));
    assert!(
        d1 <= tolerance && d2 <= tolerance,
        "impact point {} lies {d1:e} from the first outline and {d2:e} from the second at its \
         time; allowed {tolerance:e} (TOLERANCE × size is {:e})\n{}\n{hit:?}",
        bits(hit.point),
        f64::from(TOLERANCE) * sizes,
        context()
    );
    let relative = m1 - m2;
    if relative != DVec2::ZERO {
        let facing = hit.normal.as_dvec2().dot(relative.normalize());
        assert!(
            facing <= 1e-3,
            "the normal does not face against the relative motion (normal · unit motion = \
             {facing})\n{}\n{hit:?}",
            context()
        );
    }
}
