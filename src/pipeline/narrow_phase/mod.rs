//! Stage 3, narrow phase: the exact pair test on every candidate, with the crossing points.
//!
//! The [find contacts](mod@super::find_contacts) stage hands it the broad phase's pairs a batch at
//! a time, as they are found, on whichever thread found them ([`PairTests::test`]); between
//! runs it keeps the contacts, and the room for the next run's ([`NarrowPhase`]).
//!
//! Each candidate pair is ordered by entity (`a < b`) and handed to
//! [`geometry::intersect`](crate::geometry::intersect) with the two world shapes; the pairs
//! that overlap become [`Contact`]s. A pair that moved relative to each other (one or both
//! [`Swept`](crate::Swept)) also gets [`geometry::sweep`](crate::geometry::sweep) from the start
//! of their paths: an impact makes it a contact even when they are apart again at the end.
//! A run where something moved along a path, and nothing turned, reads a batch's colliders a
//! chunk of pairs at a time before testing them, so that the processor fetches them from
//! memory together rather than one test after another.
//! The contacts are put in `(a, b)` order (each pair of entities meets once), so the result
//! is the same whatever the thread count. Each batch's contacts are sorted as they are made,
//! on the thread that made them; when the lists then do not overlap (colliders in the order of
//! their entities, or against it), they are only put in order, and handed on as they are (the
//! events stage and [`Contacts`](crate::Contacts) read them one after the other); when any
//! overlap, they are joined and the whole is sorted.

mod batch;
mod pair;
mod previous_pairs;
mod sort;

use super::parallel::lock;
use super::placed::PlacedColliders;
use crate::contact::Contact;
use crate::contacts::{Contacts, follow_each_other};
use batch::test_pairs;
use bevy::prelude::*;
use core::sync::atomic::{AtomicBool, Ordering};
use previous_pairs::PreviousPairs;
use sort::sort_by_pair;
use std::sync::{Mutex, PoisonError};

/// This run's contacts, in `(a, b)` order, before they become events, and the room kept
/// for the next run's.
#[derive(Resource, Default)]
pub(crate) struct NarrowPhase {
    /// This run's contacts, in lists that follow each other in `(a, b)` order (see
    /// [`into_order`]); after the events stage, the emptied lists of the run before, whose
    /// room is recycled.
    pub contacts: Vec<Vec<Contact>>,
    /// Empty lists kept from run to run (put in order of their room when recycled): the
    /// largest for the calling thread's contacts, the others for the pieces' (a list grown
    /// from nothing would copy its contacts each time it doubles).
    spares: Vec<Vec<Contact>>,
    /// The room of the list of the last run's pairs ([`PreviousPairs`]), kept from run to run.
    previous_room: Vec<(Entity, Entity)>,
    /// Whether [`contacts`](Self::contacts) holds a search's contacts that the events stage has
    /// not written yet: not when a run condition skipped the search.
    unwritten: bool,
}

impl NarrowPhase {
    /// The most empty lists kept: more than the pieces and handed back batches of a split on
    /// a few threads make.
    const MAX_SPARES: usize = 64;

    /// Starts a run: the tests of the pairs among `placed` (`previous` holding the last run's
    /// contacts), and the lists their contacts go into: one for now, the calling thread's,
    /// with the largest room kept.
    pub(crate) fn start<'a>(
        &mut self,
        placed: &'a PlacedColliders,
        previous: &'a Contacts,
    ) -> (PairTests<'a>, Vec<Vec<Contact>>) {
        self.recycle();
        let mut lists = core::mem::take(&mut self.contacts);
        lists.push(self.spares.pop().unwrap_or_default());
        let tests = PairTests {
            placed,
            previous: PreviousPairs::of(previous, core::mem::take(&mut self.previous_room)),
            moving: placed.any_moving(),
            spares: Mutex::new(core::mem::take(&mut self.spares)),
            out_of_order: AtomicBool::new(false),
        };
        (tests, lists)
    }

    /// Ends a run: its contacts are `lists`, filled by `tests`, put in order.
    pub(crate) fn finish(&mut self, tests: PairTests<'_>, mut lists: Vec<Vec<Contact>>) {
        self.spares = tests
            .spares
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let in_order = !tests.out_of_order.into_inner();
        self.previous_room = tests.previous.into_room();
        into_order(&mut lists, in_order, &mut self.spares);
        self.contacts = lists;
        self.unwritten = true;
    }

    /// Whether a search found contacts since the events stage last took them; the events
    /// stage's question, asked once a run.
    pub(crate) fn take_unwritten(&mut self) -> bool {
        core::mem::take(&mut self.unwritten)
    }

    /// Keeps the lists of [`contacts`](Self::contacts) as spares, the largest
    /// [`MAX_SPARES`](Self::MAX_SPARES) of all.
    fn recycle(&mut self) {
        // Emptied already by the events stage, on the thread that diffed them.
        let emptied = self.contacts.drain(..).map(|mut list| {
            list.clear();
            list
        });
        self.spares.extend(emptied);
        self.spares.sort_unstable_by_key(Vec::capacity);
        let surplus = self.spares.len().saturating_sub(Self::MAX_SPARES);
        self.spares.drain(..surplus);
    }
}

/// The exact tests of one run, shared by the threads that run them.
pub(crate) struct PairTests<'a> {
    placed: &'a PlacedColliders,
    /// The last run's contacts.
    previous: PreviousPairs<'a>,
    /// Whether any collider moved along a path (or turned) this run.
    moving: bool,
    /// Empty lists with room, for the pieces' new lists.
    spares: Mutex<Vec<Vec<Contact>>>,
    /// Whether a list got a batch whose first contact sorts before the list's last one.
    out_of_order: AtomicBool,
}

impl PairTests<'_> {
    /// Tests each of `pairs` (indices into the colliders) that `keep` keeps (asked with the
    /// entities in order) and appends the contacts to `list`, this batch's sorted.
    pub(crate) fn test(
        &self,
        pairs: &[[u32; 2]],
        list: &mut Vec<Contact>,
        keep: &impl Fn(Entity, Entity) -> bool,
    ) {
        // A piece's new list: the room of a spare instead.
        if list.capacity() == 0
            && let Some(spare) = lock(&self.spares).pop()
        {
            *list = spare;
        }
        let from = list.len();
        let in_order = test_pairs(self.placed, &self.previous, pairs, list, keep, self.moving);
        // Sorted while they are at hand, on the thread that made them.
        let (before, batch) = list.split_at_mut(from);
        if !in_order {
            sort_by_pair(batch);
        }
        if let (Some(last), Some(first)) = (before.last(), batch.first())
            && last.pair() > first.pair()
        {
            self.out_of_order.store(true, Ordering::Relaxed);
        }
    }
}

/// Puts `lists` (each sorted, unless `in_order` is `false`) in the order of their first
/// contacts, so that they read as one sorted list, without copying them into one: colliders come
/// in the order of their tables, which follows their entities' (or runs against it) as long as
/// the game has not despawned and respawned many of them, and a split's pieces then make
/// lists that do not overlap. When any overlap, or one was not sorted, they are joined into
/// the one with the most room and the whole is sorted. Lists left empty, with room, are moved
/// to `spares`.
fn into_order(lists: &mut Vec<Vec<Contact>>, in_order: bool, spares: &mut Vec<Vec<Contact>>) {
    let empty = lists.extract_if(.., |list| list.is_empty());
    spares.extend(empty.filter(|list| list.capacity() > 0));
    lists.sort_unstable_by_key(|list| list[0].pair());
    if lists.is_empty() || (in_order && follow_each_other(&*lists)) {
        return;
    }
    let roomiest = (0..lists.len())
        .max_by_key(|&index| lists[index].capacity())
        .expect("a list at least");
    let mut all = lists.swap_remove(roomiest);
    all.reserve(lists.iter().map(Vec::len).sum());
    for mut list in lists.drain(..) {
        all.append(&mut list);
        spares.push(list);
    }
    sort_by_pair(&mut all);
    lists.push(all);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Containment, Points};
    use crate::layers::CollisionLayers;
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng};

    /// A contact between two entities of the given raw indices.
    fn contact(a: u32, b: u32) -> Contact {
        let entity = |index| Entity::from_raw_u32(index).expect("a valid index");
        let (a, b) = (entity(a).min(entity(b)), entity(a).max(entity(b)));
        Contact {
            a,
            b,
            points: Points::new(),
            containment: Containment::Coincident,
            impact: None,
            layers: [CollisionLayers::ALL; 2],
            bodies: [a, b],
        }
    }

    /// Whatever the lists (cut from the sorted whole and put in any order, or overlapping,
    /// or one of them not sorted), they end up holding every contact once, read one after the
    /// other in sorted order, none empty; lists that do not overlap are kept as they were (no
    /// contact copied), and an empty first list's room is kept.
    #[test]
    fn lists_are_put_in_order() {
        let mut rng = StdRng::seed_from_u64(7);
        for round in 0..300 {
            let count = rng.random_range(0..60);
            let mut whole: Vec<Contact> = (0..count)
                .map(|i| contact(rng.random_range(0..40), 40 + i))
                .collect();
            whole.sort_unstable_by_key(Contact::pair);
            let expected: Vec<(Entity, Entity)> = whole.iter().map(Contact::pair).collect();
            // Cut into lists, some empty.
            let mut lists: Vec<Vec<Contact>> = Vec::new();
            while !whole.is_empty() || lists.len() < 2 {
                let take = rng.random_range(0..=whole.len().min(12));
                lists.push(whole.drain(..take).collect());
            }
            let kind = round % 3;
            match kind {
                // Lists that do not overlap, in any order.
                0 => lists.shuffle(&mut rng),
                // Overlapping lists: contacts dealt out like cards, each list still sorted.
                1 => {
                    let all: Vec<Contact> = lists.drain(..).flatten().collect();
                    lists = vec![Vec::new(), Vec::new(), Vec::new()];
                    for (i, contact) in all.into_iter().enumerate() {
                        lists[i % 3].push(contact);
                    }
                }
                // One list out of order.
                _ => lists.iter_mut().for_each(|list| list.reverse()),
            }
            // The first list is the room kept from frame to frame: empty, or holding the
            // contacts of a pass run on the calling thread before a split.
            let mut first = if round % 2 == 0 {
                Vec::new()
            } else {
                lists.remove(0)
            };
            first.reserve(100);
            let room = first.as_ptr();
            lists.insert(0, first);
            let in_order = kind != 2
                || lists
                    .iter()
                    .all(|list| list.is_sorted_by_key(Contact::pair));
            // Whether they would read in order once put in the order of their first contacts.
            let mut ends: Vec<_> = lists
                .iter()
                .filter_map(|list| Some((list.first()?.pair(), list.last()?.pair())))
                .collect();
            ends.sort();
            let unmoved = in_order && ends.windows(2).all(|pair| pair[0].1 < pair[1].0);
            let mut rooms: Vec<*const Contact> = lists
                .iter()
                .filter(|list| !list.is_empty())
                .map(|list| list.as_ptr())
                .collect();
            let mut spares = Vec::new();
            into_order(&mut lists, in_order, &mut spares);
            let keys: Vec<(Entity, Entity)> = lists.iter().flatten().map(Contact::pair).collect();
            assert_eq!(keys, expected, "round {round}");
            assert!(lists.iter().all(|list| !list.is_empty()), "round {round}");
            if unmoved {
                let mut kept: Vec<*const Contact> =
                    lists.iter().map(|list| list.as_ptr()).collect();
                rooms.sort();
                kept.sort();
                assert_eq!(kept, rooms, "round {round}: lists in order are not copied");
            } else {
                assert_eq!(lists.len(), 1, "round {round}: joined");
            }
            if round % 2 == 0 && unmoved {
                assert!(
                    spares.iter().any(|spare| spare.as_ptr() == room),
                    "round {round}: the empty first list's room"
                );
            }
            assert!(spares.iter().all(Vec::is_empty), "round {round}");
        }
    }

    /// Last frame's lists become empty spares, the largest last (the calling thread's next),
    /// and no more than `MAX_SPARES` are kept.
    #[test]
    fn lists_are_kept_as_spares_largest_last() {
        let mut narrow_phase = NarrowPhase::default();
        let count = NarrowPhase::MAX_SPARES + 5;
        narrow_phase.contacts = (0..count)
            .map(|i| {
                let mut list = Vec::with_capacity(1 + (i * 37) % count);
                list.push(contact(1, 2));
                list
            })
            .collect();
        narrow_phase.recycle();
        let spares = &narrow_phase.spares;
        assert!(narrow_phase.contacts.is_empty());
        assert_eq!(spares.len(), NarrowPhase::MAX_SPARES);
        assert!(spares.iter().all(Vec::is_empty));
        assert!(spares.is_sorted_by_key(Vec::capacity));
        assert!(spares[0].capacity() > 5, "the smallest ones are dropped");
        assert!(spares.last().unwrap().capacity() >= count);
    }
}
