//! One candidate pair through the exact tests: where the two meet now, and, when they moved
//! relative to each other, where they met along their paths.

use super::previous_pairs::Lookup;
use crate::geometry::sweep::{
    KnownApart, SweepStart, Turn, sweep_from_start_with, sweep_turning, touch_after_parting,
    touching_at_end,
};
use crate::geometry::{
    Circle, Containment, Impact, Intersection, Points, Shape, intersect,
    intersect_measured_polygon_circle,
};
use crate::pipeline::placed::{DiscPath, PathEnds, PlacedColliders, PlacedPolygon, PlacedShape};
use bevy::prelude::*;

/// Where colliders `first` and `second` meet now, as [`intersect`] finds: a polygon and a disc
/// with the polygon's size measured once a frame, and a disc deep inside a polygon (in a bullet
/// hell, about two in five of the pairs of a bullet and an enemy) without looking at the
/// polygon's edges (see [`PlacedPolygon::surely_holds`]).
#[inline]
pub(super) fn intersect_now(
    placed: &PlacedColliders,
    first: usize,
    second: usize,
) -> Option<Intersection> {
    if let Some((polygon, disc, disc_first)) = placed.still_disc_and_polygon(first, second) {
        let hit = polygon_circle(polygon, disc);
        return if disc_first {
            hit.map(Intersection::mirrored)
        } else {
            hit
        };
    }
    match (placed.placed_shape(first), placed.placed_shape(second)) {
        (PlacedShape::Polygon(polygon), PlacedShape::Other(Shape::Circle(circle))) => {
            polygon_circle(polygon, circle)
        }
        (PlacedShape::Other(Shape::Circle(circle)), PlacedShape::Polygon(polygon)) => {
            polygon_circle(polygon, circle).map(Intersection::mirrored)
        }
        (first, second) => intersect(first.shape(), second.shape()),
    }
}

/// A placed polygon (first) against a disc (second).
#[inline(always)]
fn polygon_circle(polygon: PlacedPolygon, circle: Circle) -> Option<Intersection> {
    if polygon.surely_holds(circle) {
        return Some(Intersection::contained(Containment::SecondInFirst));
    }
    intersect_measured_polygon_circle(polygon.measured(), circle)
}

/// The contact between colliders `first` and `second` (`first` the lower entity, each moved
/// by its one of `motions`, read here if not given) that moved relative to each other or
/// turned, if they touch now or met along their paths: after being apart at the start, or at
/// the start itself when they were no contact of the last run (`previous`): a collider that
/// moved onto the start of a swept one's path since then.
#[inline(always)]
pub(super) fn test_pair(
    placed: &PlacedColliders,
    previous: &mut Lookup,
    [first, second]: [usize; 2],
    motions: Option<[Vec2; 2]>,
    scratch: &mut (Vec<Vec2>, Vec<Vec2>),
) -> Option<Meeting> {
    // A laser swinging among still bullets: most in its bounding circle lie outside the
    // angles it swept, and meet it nowhere.
    let turning = placed.any_turning();
    if turning && (placed.outside_turn(first, second) || placed.outside_turn(second, first)) {
        return None;
    }
    let [first_motion, second_motion] =
        motions.unwrap_or_else(|| [placed.motion(first), placed.motion(second)]);
    // Most pairs that moved are a moving collider and a still one.
    let moving_and_still = if second_motion == Vec2::ZERO {
        Some(MovingAndStill {
            moving: first,
            still: second,
        })
    } else if first_motion == Vec2::ZERO {
        Some(MovingAndStill {
            moving: second,
            still: first,
        })
    } else {
        None
    };
    // A swept disc and a collider that did not move (a bullet and an enemy): the bulk of the
    // pairs that moved.
    if let Some(pair) = moving_and_still
        && let Some(path) = placed.disc_path(pair.moving, pair.still)
    {
        let disc_first = pair.moving == first;
        let motions = [first_motion, second_motion];
        return test_disc_path(
            placed,
            previous,
            [first, second],
            motions,
            path,
            disc_first,
            scratch,
        );
    }
    // A swept bullet's bounding circle holds its whole path: it is often paired with colliders
    // it is far from now.
    let clear_now = match moving_and_still {
        Some(pair) => placed.clear_now(pair.moving, pair.still),
        None => placed.clear_now(first, second) || placed.clear_now(second, first),
    };
    let now = if clear_now {
        None
    } else {
        intersect_now(placed, first, second)
    };
    let turns = if turning {
        (placed.turn(first), placed.turn(second))
    } else {
        (None, None)
    };
    let turned = turns.0.is_some() || turns.1.is_some();
    let mut both_turns = None;
    let (swept, relative_motion) = if turned {
        // A segment or polygon that turned: its whole motion, turn and path together.
        let turn = |index: usize, turn: Option<Turn>| {
            turn.unwrap_or(Turn {
                translation: placed.motion(index),
                ..Turn::default()
            })
        };
        let (first_turn, second_turn) = (turn(first, turns.0), turn(second, turns.1));
        let (first_now, second_now) = (placed.shape(first), placed.shape(second));
        let swept = sweep_turning(first_now, first_turn, second_now, second_turn);
        both_turns = Some([first_turn, second_turn]);
        (swept, second_turn.translation - first_turn.translation)
    } else if first_motion == second_motion {
        // No relative motion: where they are now says it all.
        (SweepStart::Apart(None), Vec2::ZERO)
    } else {
        let first_start = placed.start_shape(first, &mut scratch.0);
        let second_start = placed.start_shape(second, &mut scratch.1);
        let swept = sweep_from_start_with(
            first_start,
            first_motion,
            second_start,
            second_motion,
            KnownApart::default(),
            None,
        );
        (swept, second_motion - first_motion)
    };
    let sweep = SweepOutcome {
        swept,
        motions: [first_motion, second_motion],
        relative_motion,
        turns: both_turns,
    };
    meeting(placed, previous, [first, second], now, sweep, scratch)
}

/// The contact of a swept disc and a collider that did not move (`path`), colliders `first`
/// and `second` (`first` the lower entity, the disc when `disc_first`) of `motions`, as
/// [`test_pair`] finds: most pairs are told by the quick looks of [`DiscPath`], the rest swept.
#[inline(always)]
fn test_disc_path(
    placed: &PlacedColliders,
    previous: &mut Lookup,
    [first, second]: [usize; 2],
    [first_motion, second_motion]: [Vec2; 2],
    path: DiscPath,
    disc_first: bool,
    scratch: &mut (Vec<Vec2>, Vec<Vec2>),
) -> Option<Meeting> {
    let now = match path.polygon {
        _ if path.clear_now() => None,
        Some(polygon) => {
            let hit = polygon_circle(polygon, path.now);
            if disc_first {
                hit.map(Intersection::mirrored)
            } else {
                hit
            }
        }
        None => intersect_now(placed, first, second),
    };
    if path.motion == Vec2::ZERO {
        // No relative motion: where they are now says it all.
        return now.map(|hit| Meeting { hit, impact: None });
    }
    if now.is_none() && path.apart_along_path() {
        // Apart all along the path, and now: no contact, as the sweep would find.
        return None;
    }
    let swept = if path.overlapped_at_start() {
        // Overlapping at the start of the path (a bullet inside an enemy, or leaving it): no
        // impact, as the sweep would find.
        // The still collider is the one that may be a polygon. A disc it surely holds where
        // the path starts and now is held all along (the held circle is convex): they never
        // parted.
        let held = |polygon: &PlacedPolygon| {
            let start = Circle::new(path.start(), path.now.radius);
            polygon.surely_holds(start) && polygon.surely_holds(path.now)
        };
        let may_part = path
            .polygon
            .is_some_and(|polygon| polygon.concave && !held(&polygon));
        if now.is_some() && !may_part {
            // Inside still: where they meet now says it all (a concave polygon's other part
            // may have been met on the way: see `meeting`).
            return now.map(|hit| Meeting { hit, impact: None });
        }
        SweepStart::Overlapping
    } else {
        let PathEnds {
            known,
            apart_all_along,
        } = path.ends();
        if now.is_none() && apart_all_along {
            // Past a polygon's corner, beyond one of its edges' lines (by more than the polygon
            // overhangs it) all along the path, and apart now: no contact, as the sweep would
            // find.
            return None;
        }
        let (first_scratch, second_scratch) = scratch;
        let first_start = placed.start_shape(first, first_scratch);
        let second_start = placed.start_shape(second, second_scratch);
        let measured = path.polygon.map(|polygon| polygon.measured());
        sweep_from_start_with(
            first_start,
            first_motion,
            second_start,
            second_motion,
            known,
            measured,
        )
    };
    let sweep = SweepOutcome {
        swept,
        motions: [first_motion, second_motion],
        relative_motion: second_motion - first_motion,
        turns: None,
    };
    meeting(placed, previous, [first, second], now, sweep, scratch)
}

/// What a pair's sweep found (see [`meeting`]).
struct SweepOutcome {
    /// Whether they overlapped at the start of their paths, or else where they first touched.
    swept: SweepStart,
    /// The two colliders' motions.
    motions: [Vec2; 2],
    /// The second collider's motion less the first's.
    relative_motion: Vec2,
    /// The two colliders' turns, where either turned.
    turns: Option<[Turn; 2]>,
}

/// The contact of colliders `first` and `second`, from where they meet `now` and what their
/// `sweep` found (nothing, without relative motion).
#[inline(always)]
fn meeting(
    placed: &PlacedColliders,
    previous: &mut Lookup,
    [first, second]: [usize; 2],
    now: Option<Intersection>,
    sweep: SweepOutcome,
    (first_scratch, second_scratch): &mut (Vec<Vec2>, Vec<Vec2>),
) -> Option<Meeting> {
    let SweepOutcome {
        swept,
        motions: [first_motion, second_motion],
        relative_motion,
        turns,
    } = sweep;
    let mut at_start = None;
    let impact = match swept {
        SweepStart::Overlapping => {
            // Met at the start of the paths: no first touch along them. A contact of the last
            // run goes on; where a concave polygon let the two part and meet again on the way
            // (a bullet leaving one arm of a U and crossing the other), that second touch is
            // its impact (two convex shapes cannot; a turning pair is not asked), and apart
            // now, it ends unless they met again. Otherwise, apart now, a new contact is where
            // the outlines crossed at the start.
            let concave =
                turns.is_none() && (placed.is_concave(first) || placed.is_concave(second));
            if !(concave || now.is_none()) {
                return now.map(|hit| Meeting { hit, impact: None });
            }
            let (a, b) = (placed.entities[first], placed.entities[second]);
            let going_on = previous.contains(a, b);
            let new_at_start = now.is_none() && !going_on;
            let parting = concave && going_on;
            if new_at_start || parting {
                let first_start = placed.start_shape(first, first_scratch);
                let second_start = placed.start_shape(second, second_scratch);
                if new_at_start {
                    at_start = intersect(first_start, second_start);
                }
                parting
                    .then(|| {
                        touch_after_parting(first_start, first_motion, second_start, second_motion)
                    })
                    .flatten()
            } else {
                None
            }
        }
        SweepStart::Apart(Some(impact)) => Some(impact),
        // Without relative motion, nothing was swept.
        SweepStart::Apart(None) if relative_motion == Vec2::ZERO && turns.is_none() => None,
        // A pair touching now, apart at the start, was met at the end at the latest: the
        // turning sweep stops a tolerance short of a touch, and the linear one moves the start
        // shapes forward again, which rounding can leave an ulp from where the colliders are now.
        SweepStart::Apart(None) => now.as_ref().and_then(|hit| {
            let normal = relative_motion.normalize_or(Vec2::Y);
            if let Some([first_turn, second_turn]) = turns {
                // Against the first's velocity there relative to the second's, turns included
                // (as the turning sweep's own fallback). Without points, one holds the other:
                // a point of the one held, in both.
                let held = match hit.containment {
                    Containment::FirstInSecond => first,
                    _ => second,
                };
                let point = hit.points.first().copied();
                let point = point.unwrap_or_else(|| match placed.shape(held) {
                    Shape::Circle(circle) => circle.center,
                    Shape::Segment(segment) => segment.a,
                    Shape::Polygon(vertices) => vertices.first().copied().unwrap_or_default(),
                });
                let velocity =
                    second_turn.velocity_at_end(point) - first_turn.velocity_at_end(point);
                return Some(Impact {
                    time: 1.0,
                    point,
                    normal: velocity.normalize_or(normal),
                });
            }
            let (first_now, second_now) = (placed.shape(first), placed.shape(second));
            touching_at_end(first_now, Vec2::ZERO, second_now, Vec2::ZERO)
                .map(|touch| Impact { normal, ..touch })
        }),
    };
    let hit = match (now.or(at_start), impact) {
        (Some(hit), _) => hit,
        // They met along the way and are apart again: where they first touched.
        (None, Some(impact)) => Intersection::crossing(Points::from_slice(&[impact.point])),
        (None, None) => return None,
    };
    Some(Meeting { hit, impact })
}

/// A pair of colliders of which one did not move this run.
#[derive(Clone, Copy)]
struct MovingAndStill {
    /// The one that moved.
    moving: usize,
    /// The one that did not.
    still: usize,
}

/// Where two colliders meet, as their contact tells it.
pub(super) struct Meeting {
    /// Where their outlines cross or touch, or which holds the other: now, or else at the
    /// start of their paths, or else where they first touched along them.
    pub hit: Intersection,
    /// Where they first touched along their paths, if they did this run.
    pub impact: Option<Impact>,
}
