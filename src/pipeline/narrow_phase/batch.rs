//! One batch of candidate pairs through the exact tests, in the order that makes the
//! contacts come out sorted, reading ahead where that saves waiting for memory.

use super::pair::{Meeting, intersect_now, test_pair};
use super::previous_pairs::{Lookup, PreviousPairs};
use crate::contact::Contact;
use crate::layers::CollisionLayers;
use crate::pipeline::placed::PlacedColliders;
use bevy::prelude::*;

/// Runs the exact test on each pair that `keep` keeps and appends the contacts; `previous`
/// holds the last run's, and `moving` says whether any collider moved along a path (or turned)
/// this run. Returns whether the contacts appended are in `(a, b)` order. (Not inlined, so that
/// a profiler tells the tests from the search that calls them.)
#[inline(never)]
pub(super) fn test_pairs(
    placed: &PlacedColliders,
    previous: &PreviousPairs,
    pairs: &[[u32; 2]],
    contacts: &mut Vec<Contact>,
    keep: &impl Fn(Entity, Entity) -> bool,
    moving: bool,
) -> bool {
    // From last to first: the pairs come in the order of the colliders' tables, which follows
    // their entities' indices for entities spawned fresh, and Bevy orders entities against their
    // indices. So the contacts come out in `(a, b)` order, or nearly: whether they did is
    // followed as they are made, while each is at hand, and they are sorted only if not.
    let mut tests = BatchTests {
        placed,
        previous: previous.lookup(),
        keep,
        scratch: (Vec::new(), Vec::new()),
        contacts,
        last: None,
        in_order: true,
    };
    if !moving {
        // Most runs of a bullet hell: nothing moved along a path, and where the colliders are
        // now says it all.
        for &pair in pairs.iter().rev() {
            tests.test(OrderedPair::read(placed, pair), None);
        }
        return tests.in_order;
    }
    if placed.any_turning() {
        // Every pair is tested along its paths, and the turn's own check turns most away
        // before any collider's shape is read.
        for &pair in pairs.iter().rev() {
            // Its motions are read only for the pairs that the turn's check keeps.
            let ordered = OrderedPair::read(placed, pair);
            tests.test(
                OrderedPair {
                    still: false,
                    ..ordered
                },
                None,
            );
        }
        return tests.in_order;
    }
    let mut chunk = [ReadAhead::UNFILLED; CHUNK];
    for pairs in pairs.rchunks(CHUNK) {
        // A chunk's colliders read first, in a loop whose loads do not wait on each other: the
        // processor fetches many of them from memory at once, where the tests would wait for
        // each in turn.
        let chunk = &mut chunk[..pairs.len()];
        for (read_ahead, &pair) in chunk.iter_mut().rev().zip(pairs) {
            let ordered = OrderedPair::read_moving(placed, pair);
            let [first, second] = ordered.pair.map(|index| index as usize);
            let layers = [placed.layers[first], placed.layers[second]];
            *read_ahead = ReadAhead { ordered, layers };
        }
        for read_ahead in chunk.iter() {
            tests.test(read_ahead.ordered, Some(read_ahead.layers));
        }
    }
    tests.in_order
}

/// One batch's exact tests, and the contacts they append.
struct BatchTests<'a, 'c, K> {
    /// This run's colliders.
    placed: &'a PlacedColliders,
    /// The last run's contacts, looked up in the order of the batch's.
    previous: Lookup<'a, 'a>,
    /// Whether to test a pair of entities.
    keep: &'a K,
    /// A swept polygon's vertices moved back to the start of its path, for each side.
    scratch: (Vec<Vec2>, Vec<Vec2>),
    /// Where the contacts are appended.
    contacts: &'c mut Vec<Contact>,
    /// The last contact's pair.
    last: Option<(Entity, Entity)>,
    /// Whether the contacts came in `(a, b)` order.
    in_order: bool,
}

impl<K: Fn(Entity, Entity) -> bool> BatchTests<'_, '_, K> {
    /// Appends the contact of the `ordered` pair if they meet: where they are now says it all
    /// for a pair that is [`still`](OrderedPair::still). Their `layers`, if read ahead; read
    /// here otherwise, for a contact only.
    #[inline(always)]
    fn test(&mut self, ordered: OrderedPair, layers: Option<[CollisionLayers; 2]>) {
        let placed = self.placed;
        let [a, b] = ordered.entities;
        if !(self.keep)(a, b) {
            return;
        }
        let [first, second] = ordered.pair.map(|index| index as usize);
        let meeting = if ordered.still {
            intersect_now(placed, first, second).map(|hit| Meeting { hit, impact: None })
        } else {
            test_pair(
                placed,
                &mut self.previous,
                [first, second],
                ordered.motions,
                &mut self.scratch,
            )
        };
        let Some(Meeting { hit, impact }) = meeting else {
            return;
        };
        let pair = (a, b);
        self.in_order &= self.last.is_none_or(|last| last < pair);
        self.last = Some(pair);
        self.contacts.push(Contact {
            a,
            b,
            points: hit.points,
            containment: hit.containment,
            impact,
            layers: layers.unwrap_or_else(|| [placed.layers[first], placed.layers[second]]),
            // Each its own body, until the events stage gives the contacts their bodies.
            bodies: [a, b],
        });
    }
}

/// How many pairs [`test_pairs`] reads ahead.
const CHUNK: usize = 64;

/// A candidate pair, the collider of the lower entity first.
#[derive(Clone, Copy)]
struct OrderedPair {
    /// The two colliders' indices in [`PlacedColliders`].
    pair: [u32; 2],
    /// Their entities, in the same order.
    entities: [Entity; 2],
    /// How far each moved along its path, in the same order (see
    /// [`PlacedColliders::motion`]), if read ahead.
    motions: Option<[Vec2; 2]>,
    /// Whether its two colliders did not move along a path relative to each other.
    still: bool,
}

/// A candidate pair read ahead of its test, with the layers its contact would carry.
#[derive(Clone, Copy)]
struct ReadAhead {
    /// The pair, in order.
    ordered: OrderedPair,
    /// Its colliders' layers, in the same order.
    layers: [CollisionLayers; 2],
}

impl ReadAhead {
    /// A chunk's entry not filled yet.
    const UNFILLED: Self = Self {
        ordered: OrderedPair {
            pair: [0; 2],
            entities: [Entity::PLACEHOLDER; 2],
            motions: None,
            still: true,
        },
        layers: [CollisionLayers::NONE; 2],
    };
}

impl OrderedPair {
    /// Colliders `pair`, put in order and read, still, without their motions.
    #[inline(always)]
    fn read(placed: &PlacedColliders, pair: [u32; 2]) -> Self {
        let [first, second] = placed.ordered(pair);
        let [one, other] = [first, second].map(|index| index as usize);
        Self {
            pair: [first, second],
            entities: [placed.entities[one], placed.entities[other]],
            motions: None,
            still: true,
        }
    }

    /// Colliders `pair`, put in order and read with their motions, still when they did not
    /// move relative to each other (most pairs).
    #[inline(always)]
    fn read_moving(placed: &PlacedColliders, pair: [u32; 2]) -> Self {
        let [first, second] = placed.ordered(pair);
        let [one, other] = [first, second].map(|index| index as usize);
        let motions = [placed.motion(one), placed.motion(other)];
        Self {
            pair: [first, second],
            entities: [placed.entities[one], placed.entities[other]],
            motions: Some(motions),
            still: motions[0] == motions[1],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contacts::Contacts;
    use crate::geometry::Circle;
    use crate::layers::LayerMask;
    use crate::pipeline::placed::WorldShape;
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// Circles on a small field, entities in shuffled order, a third of them moved along a
    /// path when `moving`; and every pair whose bounds meet, cut to a count that is not a
    /// whole number of chunks.
    fn circles(moving: bool) -> (PlacedColliders, Vec<[u32; 2]>) {
        let mut rng = StdRng::seed_from_u64(11);
        let mut entities: Vec<u32> = (1..=150).collect();
        entities.shuffle(&mut rng);
        let mut placed = PlacedColliders::default();
        placed.circle_slots(0, 0);
        for entity in entities {
            let center = Vec2::new(rng.random_range(0.0..60.0), rng.random_range(0.0..60.0));
            let disc = Circle::new(center, rng.random_range(1.0..5.0));
            let motion = Vec2::new(rng.random_range(-8.0..8.0), rng.random_range(-8.0..8.0));
            let motion = if moving && rng.random_bool(1.0 / 3.0) {
                motion
            } else {
                Vec2::ZERO
            };
            let layers = CollisionLayers::new(LayerMask(entity), LayerMask::ALL);
            let entity = Entity::from_raw_u32(entity).unwrap();
            placed.push(
                entity,
                Some(&layers),
                disc,
                WorldShape::Circle(disc),
                motion,
            );
        }
        let count = placed.entities.len() as u32;
        let mut pairs: Vec<[u32; 2]> = (0..count)
            .flat_map(|one| (one + 1..count).map(move |other| [one, other]))
            .filter(|&[one, other]| {
                let [one, other] = [one as usize, other as usize];
                let reach = placed.radii[one] + placed.radii[other];
                placed.centers[one].distance(placed.centers[other]) <= reach
            })
            .collect();
        pairs.shuffle(&mut rng);
        assert!(pairs.len() > 3 * CHUNK, "{} pairs", pairs.len());
        pairs.truncate(3 * CHUNK + 37);
        (placed, pairs)
    }

    /// What testing `pairs` one after the other, from last to first, appends, and whether in
    /// order.
    fn one_by_one(placed: &PlacedColliders, pairs: &[[u32; 2]]) -> (Vec<Contact>, bool) {
        let empty = Contacts::empty();
        let previous = PreviousPairs::of(&empty, Vec::new());
        let mut contacts = Vec::new();
        let mut tests = BatchTests {
            placed,
            previous: previous.lookup(),
            keep: &|_, _| true,
            scratch: (Vec::new(), Vec::new()),
            contacts: &mut contacts,
            last: None,
            in_order: true,
        };
        for &pair in pairs.iter().rev() {
            tests.test(OrderedPair::read_moving(placed, pair), None);
        }
        let in_order = tests.in_order;
        (contacts, in_order)
    }

    /// Reading ahead a chunk at a time makes the contacts that testing the pairs one after the
    /// other makes, in the same order; in a run where nothing moved, so does the loop without
    /// the read-ahead. Each contact carries its own entities' layers, and the filter is asked
    /// once a pair, with the lower entity first.
    #[test]
    fn reading_ahead_changes_no_contact() {
        let empty = Contacts::empty();
        let previous = PreviousPairs::of(&empty, Vec::new());
        for moving in [true, false] {
            let (placed, pairs) = circles(moving);
            assert_eq!(placed.any_moving(), moving);
            let (expected, expected_in_order) = one_by_one(&placed, &pairs);
            assert!(expected.len() > CHUNK, "{} contacts", expected.len());
            let impacts = expected.iter().filter(|contact| contact.impact.is_some());
            assert_eq!(
                impacts.count() > 0,
                moving,
                "swept pairs met along their paths"
            );
            let runs = if moving {
                vec![true]
            } else {
                vec![true, false]
            };
            for read_ahead in runs {
                let mut contacts = Vec::new();
                let asked = std::sync::Mutex::new(Vec::new());
                let keep = |a: Entity, b: Entity| {
                    assert!(a < b, "{a} {b}");
                    asked.lock().unwrap().push((a, b));
                    true
                };
                let in_order =
                    test_pairs(&placed, &previous, &pairs, &mut contacts, &keep, read_ahead);
                assert_eq!(
                    contacts, expected,
                    "moving {moving}, read ahead {read_ahead}"
                );
                assert_eq!(in_order, expected_in_order);
                assert_eq!(asked.into_inner().unwrap().len(), pairs.len());
                for contact in &contacts {
                    let layers_of = |entity: Entity| {
                        let index = placed.entities.iter().position(|&e| e == entity).unwrap();
                        placed.layers[index]
                    };
                    assert_eq!(contact.layers, [layers_of(contact.a), layers_of(contact.b)]);
                }
            }
        }
    }
}
