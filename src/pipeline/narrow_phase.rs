//! Stage 3, narrow phase: the exact pair test on every candidate, with the crossing points.
//!
//! It runs the broad phase itself and tests the candidates a batch at a time as they are
//! found: with enough bodies, on the threads of Bevy's `ComputeTaskPool`, each batch mostly on
//! the thread that found it (see [`BroadPhase::run`]). Both phases share one split of the
//! work, with its start and end, and no list of every candidate is written and read again.
//!
//! Each candidate pair is ordered by entity (`a < b`) and handed to
//! [`geometry::intersect`](crate::geometry::intersect) with the two world shapes; the pairs
//! that overlap become [`Contact`]s. A pair that moved relative to each other (one or both
//! [`Swept`](crate::Swept)) also gets [`geometry::sweep`](crate::geometry::sweep) from the start
//! of their paths: an impact makes it a contact even when they are apart again at the end.
//! The contacts are sorted by `(a, b)` (each pair of entities meets once), so the result is
//! the same whatever the thread count.

use super::bodies::Bodies;
use super::broad_phase::BroadPhase;
use crate::contact::Contact;
use crate::geometry::sweep::{SweepStart, sweep_from_start, touching_at_end};
use crate::geometry::{Containment, Impact, Points, intersect};
use crate::settings::CollisionSettings;
use bevy::prelude::*;

/// This frame's contacts, sorted by `(a, b)`, before they become events.
#[derive(Resource, Default)]
pub(crate) struct NarrowPhase {
    pub contacts: Vec<Contact>,
}

/// Finds the candidate pairs (the broad phase) and runs the exact test on each.
#[inline(never)]
pub(crate) fn find_contacts(
    bodies: Res<Bodies>,
    settings: Res<CollisionSettings>,
    mut broad_phase: ResMut<BroadPhase>,
    mut narrow_phase: ResMut<NarrowPhase>,
) {
    let contacts = &mut narrow_phase.contacts;
    contacts.clear();
    let bodies = &*bodies;
    let test =
        |pairs: &[[u32; 2]], contacts: &mut Vec<Contact>| test_pairs(bodies, pairs, contacts);
    broad_phase.run(bodies, &settings, &test, contacts);
    // In place: a stable sort would allocate scratch space for these large values every frame.
    contacts.sort_unstable_by_key(|contact| (contact.a, contact.b));
}

/// Runs the exact test on each pair and appends the contacts. `scratch` holds a swept polygon
/// moved back to the start of its path. (Not inlined, so that a profiler tells the tests from
/// the search that calls them.)
#[inline(never)]
fn test_pairs(bodies: &Bodies, pairs: &[[u32; 2]], contacts: &mut Vec<Contact>) {
    let mut scratch = (Vec::new(), Vec::new());
    for &[first, second] in pairs {
        let (mut first, mut second) = (first as usize, second as usize);
        if bodies.entities[first] > bodies.entities[second] {
            core::mem::swap(&mut first, &mut second);
        }
        if let Some(contact) = test_pair(bodies, first, second, &mut scratch) {
            contacts.push(contact);
        }
    }
}

/// The contact between bodies `first` and `second` (`first` the lower entity), if they touch
/// now or, when either is swept, met along their paths after being apart at the start.
#[inline]
fn test_pair(
    bodies: &Bodies,
    first: usize,
    second: usize,
    (first_scratch, second_scratch): &mut (Vec<Vec2>, Vec<Vec2>),
) -> Option<Contact> {
    let (first_motion, second_motion) = (bodies.motion(first), bodies.motion(second));
    let now = intersect(bodies.shape(first), bodies.shape(second));
    let impact = if first_motion == second_motion {
        // No relative motion: where they are now says it all.
        None
    } else {
        let first_start = bodies.start_shape(first, first_scratch);
        let second_start = bodies.start_shape(second, second_scratch);
        match sweep_from_start(first_start, first_motion, second_start, second_motion) {
            SweepStart::Overlapping => None,
            SweepStart::Apart(Some(impact)) => Some(impact),
            // The sweep moves the start shapes forward again, which rounding can leave an ulp
            // from where the bodies are now: a pair touching now, apart at the start, met at
            // the end at the latest.
            SweepStart::Apart(None) => now.as_ref().and_then(|_| {
                let (first_now, second_now) = (bodies.shape(first), bodies.shape(second));
                touching_at_end(first_now, Vec2::ZERO, second_now, Vec2::ZERO).map(|touch| Impact {
                    normal: (second_motion - first_motion).normalize_or(Vec2::Y),
                    ..touch
                })
            }),
        }
    };
    let (points, containment) = match (now, impact) {
        (Some(hit), _) => (hit.points, hit.containment),
        // They met along the way and are apart again: where they first touched.
        (None, Some(impact)) => (Points::from_slice(&[impact.point]), Containment::Neither),
        (None, None) => return None,
    };
    Some(Contact {
        a: bodies.entities[first],
        b: bodies.entities[second],
        points,
        containment,
        impact,
        layers: [bodies.layers[first], bodies.layers[second]],
    })
}
