//! Stage 3, narrow phase: the exact pair test on every candidate, with the crossing points.
//!
//! Each candidate pair is ordered by entity (`a < b`) and handed to
//! [`geometry::intersect`](crate::geometry::intersect) with the two world shapes; the pairs
//! that overlap become [`Contact`]s. With enough pairs the work is split across Bevy's
//! `ComputeTaskPool`. Candidates are sorted by `(a, b)` first and chunk results concatenated
//! in order, so the contacts come out sorted, the same whatever the thread count.

use crate::broad_phase::BroadPhase;
use crate::contact::Contact;
use crate::geometry::intersect;
use crate::plugin::CollisionSettings;
use crate::prepare::Bodies;
use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;

/// This frame's contacts, sorted by `(a, b)`, before they become events.
#[derive(Resource, Default)]
pub(crate) struct NarrowPhase {
    pub contacts: Vec<Contact>,
    /// Scratch: the candidate pairs in entity order.
    ordered: Vec<OrderedPair>,
}

/// Runs the exact test on every candidate pair.
pub(crate) fn test_candidate_pairs(
    bodies: Res<Bodies>,
    broad_phase: Res<BroadPhase>,
    settings: Res<CollisionSettings>,
    mut narrow_phase: ResMut<NarrowPhase>,
) {
    let NarrowPhase { contacts, ordered } = &mut *narrow_phase;
    contacts.clear();
    // Put the candidates in `(a, b)` entity order first: sorting these small records is cheaper
    // than sorting the contacts, which then come out in order.
    ordered.clear();
    ordered.extend(broad_phase.pairs.iter().map(|&[first, second]| {
        let (first_entity, second_entity) = (
            bodies.entities[first as usize],
            bodies.entities[second as usize],
        );
        if first_entity < second_entity {
            OrderedPair {
                a: first_entity,
                b: second_entity,
                bodies: [first, second],
            }
        } else {
            OrderedPair {
                a: second_entity,
                b: first_entity,
                bodies: [second, first],
            }
        }
    }));
    ordered.sort_unstable_by_key(|pair| (pair.a, pair.b));
    let pool = ComputeTaskPool::try_get().filter(|pool| pool.thread_num() > 1);
    match pool {
        Some(pool) if ordered.len() >= settings.parallel_threshold => {
            let chunk_size = ordered.len().div_ceil(pool.thread_num() * 4).max(64);
            let bodies = &*bodies;
            let chunks = pool.scope(|scope| {
                for chunk in ordered.chunks(chunk_size) {
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
        _ => test_pairs(&bodies, ordered, contacts),
    }
}

/// A candidate pair with its entities in order, `a < b`, and their body indices.
#[derive(Clone, Copy)]
pub(crate) struct OrderedPair {
    a: Entity,
    b: Entity,
    bodies: [u32; 2],
}

fn test_pairs(bodies: &Bodies, pairs: &[OrderedPair], contacts: &mut Vec<Contact>) {
    for pair in pairs {
        let [first, second] = pair.bodies.map(|body| body as usize);
        if let Some(hit) = intersect(bodies.shape(first), bodies.shape(second)) {
            contacts.push(Contact {
                a: pair.a,
                b: pair.b,
                points: hit.points,
                containment: hit.containment,
            });
        }
    }
}
