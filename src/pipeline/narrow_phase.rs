//! Stage 3, narrow phase: the exact pair test on every candidate, with the crossing points.
//!
//! Each candidate pair is ordered by entity (`a < b`) and handed to
//! [`geometry::intersect`](crate::geometry::intersect) with the two world shapes; the pairs
//! that overlap become [`Contact`]s. With enough pairs the work is split across Bevy's
//! `ComputeTaskPool`; chunk results are concatenated in order and sorted by `(a, b)`, so the
//! result is the same whatever the thread count.

use super::ParallelSplit;
use super::bodies::Bodies;
use super::broad_phase::BroadPhase;
use crate::contact::Contact;
use crate::geometry::intersect;
use crate::settings::CollisionSettings;
use bevy::prelude::*;

/// This frame's contacts, sorted by `(a, b)`, before they become events.
#[derive(Resource, Default)]
pub(crate) struct NarrowPhase {
    pub contacts: Vec<Contact>,
}

/// Runs the exact test on every candidate pair.
pub(crate) fn test_candidate_pairs(
    bodies: Res<Bodies>,
    broad_phase: Res<BroadPhase>,
    settings: Res<CollisionSettings>,
    mut narrow_phase: ResMut<NarrowPhase>,
) {
    let contacts = &mut narrow_phase.contacts;
    contacts.clear();
    let pairs = &broad_phase.pairs;
    let bodies = &*bodies;
    match ParallelSplit::of(pairs.len(), 4, &settings) {
        Some(split) => {
            let chunks = split.pool.scope(|scope| {
                for chunk in pairs.chunks(split.piece_size) {
                    scope.spawn(async move {
                        let mut found = Vec::new();
                        test_pairs(bodies, chunk, &mut found);
                        found
                    });
                }
            });
            for chunk in chunks {
                contacts.extend(chunk);
            }
        }
        None => test_pairs(bodies, pairs, contacts),
    }
    contacts.sort_unstable_by_key(|contact| (contact.a, contact.b));
}

fn test_pairs(bodies: &Bodies, pairs: &[[u32; 2]], contacts: &mut Vec<Contact>) {
    for &[first, second] in pairs {
        let (mut first, mut second) = (first as usize, second as usize);
        if bodies.entities[first] > bodies.entities[second] {
            core::mem::swap(&mut first, &mut second);
        }
        if let Some(hit) = intersect(bodies.shape(first), bodies.shape(second)) {
            contacts.push(Contact {
                a: bodies.entities[first],
                b: bodies.entities[second],
                points: hit.points,
                containment: hit.containment,
            });
        }
    }
}
