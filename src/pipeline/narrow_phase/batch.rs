//! One batch of candidate pairs through the exact tests, in the order that makes the
//! contacts come out sorted, reading ahead where that saves waiting for memory.

use super::pair::{contact, intersect_now, test_pair};
use super::previous_pairs::PreviousPairs;
use crate::contact::Contact;
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
        previous,
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
            tests.test(placed.ordered(pair), true);
        }
        return tests.in_order;
    }
    if placed.any_turning() {
        // Every pair is tested along its paths, and the turn's own check turns most away
        // before any collider's shape is read.
        for &pair in pairs.iter().rev() {
            tests.test(placed.ordered(pair), false);
        }
        return tests.in_order;
    }
    let mut chunk = [OrderedPair::default(); CHUNK];
    for pairs in pairs.rchunks(CHUNK) {
        // A chunk's colliders read first, in a loop whose loads do not wait on each other: the
        // processor fetches many of them from memory at once, where the tests would wait for
        // each in turn.
        let chunk = &mut chunk[..pairs.len()];
        for (ordered, &pair) in chunk.iter_mut().rev().zip(pairs) {
            let [one, other] = pair.map(|index| index as usize);
            *ordered = OrderedPair {
                pair: placed.ordered(pair),
                // Most pairs: neither moved along a path relative to the other.
                still: placed.motion(one) == placed.motion(other),
            };
        }
        for ordered in chunk.iter() {
            tests.test(ordered.pair, ordered.still);
        }
    }
    tests.in_order
}

/// One batch's exact tests, and the contacts they append.
struct BatchTests<'a, 'c, K> {
    /// This run's colliders.
    placed: &'a PlacedColliders,
    /// The last run's contacts.
    previous: &'a PreviousPairs<'a>,
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
    /// Appends the contact of colliders `pair` (the lower entity first) if they meet: where
    /// they are now says it all for a pair that is `still` (neither moved along a path
    /// relative to the other).
    #[inline(always)]
    fn test(&mut self, pair: [u32; 2], still: bool) {
        let placed = self.placed;
        let [first, second] = pair.map(|index| index as usize);
        if !(self.keep)(placed.entities[first], placed.entities[second]) {
            return;
        }
        let contact = if still {
            intersect_now(placed, first, second)
                .map(|now| contact(placed, [first, second], now, None))
        } else {
            test_pair(placed, self.previous, [first, second], &mut self.scratch)
        };
        if let Some(contact) = contact {
            let pair = contact.pair();
            self.in_order &= self.last.is_none_or(|last| last < pair);
            self.last = Some(pair);
            self.contacts.push(contact);
        }
    }
}

/// How many pairs [`test_pairs`] reads ahead.
const CHUNK: usize = 64;

/// A candidate pair, read ahead of its test.
#[derive(Clone, Copy, Default)]
struct OrderedPair {
    /// The two colliders, the lower entity first.
    pair: [u32; 2],
    /// Whether its two colliders did not move along a path relative to each other.
    still: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contacts::Contacts;
    use crate::geometry::Circle;
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
            let entity = Entity::from_raw_u32(entity).unwrap();
            placed.push(entity, None, disc, WorldShape::Circle(disc), motion);
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
        let previous = PreviousPairs::of(&empty);
        let mut contacts = Vec::new();
        let mut tests = BatchTests {
            placed,
            previous: &previous,
            keep: &|_, _| true,
            scratch: (Vec::new(), Vec::new()),
            contacts: &mut contacts,
            last: None,
            in_order: true,
        };
        for &pair in pairs.iter().rev() {
            let [one, other] = pair.map(|index| index as usize);
            let still = placed.motion(one) == placed.motion(other);
            tests.test(placed.ordered(pair), still);
        }
        let in_order = tests.in_order;
        (contacts, in_order)
    }

    /// Reading ahead a chunk at a time makes the contacts that testing the pairs one after the
    /// other makes, in the same order; in a run where nothing moved, so does the loop without
    /// the read-ahead.
    #[test]
    fn reading_ahead_changes_no_contact() {
        let empty = Contacts::empty();
        let previous = PreviousPairs::of(&empty);
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
                let keep = |_, _| true;
                let in_order =
                    test_pairs(&placed, &previous, &pairs, &mut contacts, &keep, read_ahead);
                assert_eq!(
                    contacts, expected,
                    "moving {moving}, read ahead {read_ahead}"
                );
                assert_eq!(in_order, expected_in_order);
            }
        }
    }
}
