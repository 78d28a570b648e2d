//! The checks: everything a sweep must satisfy for one scene, and the tolerances it is held to.

use bevy::math::{DVec2, Vec2};
use bevy_collision_events::geometry::{
    Impact, TOLERANCE, overlap, sweep, sweep_circle_circle, sweep_polygon_circle,
    sweep_polygon_polygon, sweep_polygon_segment, sweep_segment_circle, sweep_segment_segment,
};
use proptest::prelude::*;

use crate::generated::{Generated, Scene};
use crate::reference::{Reference, STEPS, contact, distance_to_segment, scan};

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
///    (`normal · relative ≤ min(1e-5 + distance tolerance / smaller size, 1e-3) |relative|`:
///    at a graze the normal tilts with the point's rounding).
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
///      tolerances, or points on a stretch along which the outlines touch.
pub(crate) fn check_sweep(scene: &Scene) -> Result<(), TestCaseError> {
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

    // 2. Well formed. The normal faces the relative motion up to its rounding: at a graze it
    // is nearly square to the motion, and it tilts with the point, by as much as the point's
    // tolerance over the smaller shape's size.
    let relative = scene.relative();
    let tolerances = Tolerances::of(scene);
    let smaller = scene.first.size().min(scene.second.size()) as f64;
    // At most a thousandth: a point (a circle of radius zero) would allow any tilt.
    let tilt = (1e-5 + tolerances.distance / smaller).min(1e-3);
    if let Some(impact) = forward {
        prop_assert!((0.0..=1.0).contains(&impact.time), "{:?}", impact);
        prop_assert!(impact.point.is_finite(), "{:?}", impact);
        prop_assert!((impact.normal.length() - 1.0).abs() < 1e-5, "{:?}", impact);
        prop_assert!(
            relative == Vec2::ZERO
                || f64::from(impact.normal.dot(relative)) <= tilt * f64::from(relative.length()),
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
        // Where the outlines touch along a stretch (edges nearly parallel), any point of it is
        // the touch, and the two may pick different ones: then every point between the two
        // must lie on both outlines.
        let time = ours.time as f64;
        let shifts = (
            scene.first_motion.as_dvec2() * time,
            scene.second_motion.as_dvec2() * time,
        );
        let along_both = (0..=8).all(|step| {
            let between = ours
                .point
                .as_dvec2()
                .lerp(pair.point.as_dvec2(), step as f64 / 8.0);
            reference1.outline_distance(between, shifts.0) <= tolerances.distance
                && reference2.outline_distance(between, shifts.1) <= tolerances.distance
        });
        prop_assert!(
            (ours.time - pair.time).abs() as f64 <= 2.0 * tolerances.time
                && (ours.point.distance(pair.point) as f64 <= 2.0 * tolerances.distance
                    || along_both),
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
        // Later than that only at a graze: no deeper than the distance tolerance until then,
        // at the scan's own steps (a shallow approach, where the time is ill-conditioned: its
        // error grows as the slope shrinks, while the depth it stands for does not).
        let steps = ((time - first_overlap) * STEPS as f64).ceil() as usize;
        let graze = (0..=steps).all(|step| {
            let between =
                first_overlap + (time - first_overlap) * step as f64 / steps.max(1) as f64;
            let then = contact(&reference1, &reference2, relative64 * between);
            !then.overlap || then.gap <= tolerances.distance
        });
        prop_assert!(
            time <= first_overlap + tolerances.time || graze,
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
