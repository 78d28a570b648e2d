//! The last run's contacts, as the narrow phase asks of them: was this pair one?

use crate::contact::Contact;
use crate::contacts::Contacts;
use bevy::prelude::*;
use std::sync::{Mutex, OnceLock, PoisonError};

/// The pairs of the last run's contacts, to look up.
pub(super) struct PreviousPairs<'a> {
    contacts: &'a Contacts,
    /// Every pair of `contacts`, in order: listed on the first question of a run, and then
    /// looked up in a few cache lines rather than across the contacts themselves.
    pairs: OnceLock<Vec<(Entity, Entity)>>,
    /// The room the list is made in, kept from run to run.
    room: Mutex<Vec<(Entity, Entity)>>,
}

impl<'a> PreviousPairs<'a> {
    /// The pairs of `contacts`, listed in `room` when first asked.
    pub fn of(contacts: &'a Contacts, room: Vec<(Entity, Entity)>) -> Self {
        Self {
            contacts,
            pairs: OnceLock::new(),
            room: Mutex::new(room),
        }
    }

    /// The room of the list, for the next run.
    pub fn into_room(self) -> Vec<(Entity, Entity)> {
        let room = self.room.into_inner();
        self.pairs
            .into_inner()
            .unwrap_or_else(|| room.unwrap_or_else(PoisonError::into_inner))
    }

    /// A lookup of pairs one after another (see [`Lookup::contains`]).
    pub fn lookup(&self) -> Lookup<'_, 'a> {
        Lookup {
            previous: self,
            near: 0,
        }
    }

    /// The pairs, listed on the first call of a run, or `None` while another thread lists
    /// them: a thread of the pool never waits for another here.
    fn pairs(&self) -> Option<&[(Entity, Entity)]> {
        if let Some(pairs) = self.pairs.get() {
            return Some(pairs);
        }
        let Ok(mut room) = self.room.try_lock() else {
            return None;
        };
        // Listed by a thread that let go of the room since the first look.
        if let Some(pairs) = self.pairs.get() {
            return Some(pairs);
        }
        let mut list = core::mem::take(&mut *room);
        list.clear();
        list.extend(self.contacts.iter().map(Contact::pair));
        Some(self.pairs.get_or_init(|| list))
    }
}

/// Pairs looked up in [`PreviousPairs`] one after another, each from where the last one was.
pub(super) struct Lookup<'p, 'a> {
    /// The list looked in.
    previous: &'p PreviousPairs<'a>,
    /// The index of the last pair of the list that sorts before the last pair asked about (or
    /// zero): where a pair asked next, in order, is looked for from.
    near: usize,
}

impl Lookup<'_, '_> {
    /// Whether `a` and `b` (`a < b`) were a contact of the last run. A pair that sorts after
    /// the last one asked about (as a batch's tests ask, in order) is looked for from there,
    /// in a few steps through nearby memory, not from the middle of the whole list.
    /// While another thread lists the pairs, the contacts themselves are searched.
    pub fn contains(&mut self, a: Entity, b: Entity) -> bool {
        let Some(pairs) = self.previous.pairs() else {
            return self.previous.contacts.contains(a, b);
        };
        let pair = (a, b);
        // The pairs before `low` sort before `pair`; from there, steps that double in length
        // until one lands on a pair that does not (or past the end).
        let mut low = if pairs.get(self.near).is_some_and(|&near| near <= pair) {
            self.near
        } else {
            0
        };
        let mut step = 1;
        let high = loop {
            let next = low + step;
            if next >= pairs.len() || pairs[next] >= pair {
                break next.min(pairs.len());
            }
            low = next;
            step *= 2;
        };
        let at = low + pairs[low..high].partition_point(|&listed| listed < pair);
        // The pair before: it sorts before this one, so before any asked after it.
        self.near = at.saturating_sub(1);
        pairs.get(at) == Some(&pair)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Containment, Points};
    use crate::layers::CollisionLayers;
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// The same answers as [`Contacts::contains`], over contacts kept in several lists.
    #[test]
    fn previous_pairs_are_the_contacts_pairs() {
        let entity = |index: u32| Entity::from_raw_u32(index).expect("a valid index");
        let mut rng = StdRng::seed_from_u64(3);
        let mut pairs: Vec<(Entity, Entity)> = (0..300)
            .map(|_| {
                let (one, other) = (
                    entity(rng.random_range(1..40)),
                    entity(rng.random_range(1..40)),
                );
                (one.min(other), one.max(other))
            })
            .filter(|(a, b)| a != b)
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        let contact = |&(a, b): &(Entity, Entity)| Contact {
            a,
            b,
            points: Points::new(),
            containment: Containment::Coincident,
            impact: None,
            layers: [CollisionLayers::ALL; 2],
            bodies: [a, b],
        };
        // Cut into lists that follow each other, as the narrow phase hands them on.
        let mut lists: Vec<Vec<Contact>> = pairs
            .chunks(17)
            .map(|chunk| chunk.iter().map(contact).collect())
            .collect();
        let mut contacts = Contacts::empty();
        contacts.replace(&mut lists);
        // Room kept from an earlier run, with pairs of its own: not read.
        let room = vec![(entity(1), entity(2)); 50];
        let previous = PreviousPairs::of(&contacts, room);
        let mut asked: Vec<(Entity, Entity)> = (1..41)
            .flat_map(|a| {
                (a + 1..41).map(move |b| (entity(a).min(entity(b)), entity(a).max(entity(b))))
            })
            .collect();
        // Asked in order (as a batch asks), then in any order, each time from where the last
        // question was looked for.
        for round in 0..2 {
            if round == 1 {
                asked.shuffle(&mut rng);
            } else {
                asked.sort_unstable();
            }
            let mut lookup = previous.lookup();
            let mut moved_on = 0;
            for (index, &(a, b)) in asked.iter().enumerate() {
                if round == 0 && index > 0 && lookup.near > 0 {
                    // In order, each from where the last one was, not from the start again.
                    assert!(previous.pairs().unwrap()[lookup.near] <= (a, b), "{a} {b}");
                    moved_on += 1;
                }
                let found = lookup.contains(a, b);
                assert_eq!(found, lookup.contains(a, b), "asked again");
                assert_eq!(found, contacts.contains(a, b), "{a} {b}");
                assert_eq!(found, pairs.binary_search(&(a, b)).is_ok(), "{a} {b}");
            }
            if round == 0 {
                assert!(moved_on > asked.len() / 2, "{moved_on} of {}", asked.len());
            }
        }
        let room = previous.into_room();
        assert_eq!(room, pairs, "the room holds the list");
        // While another thread holds the room, listing the pairs, a question is answered from
        // the contacts themselves, and the list is made by the next question after.
        let previous = PreviousPairs::of(&contacts, room);
        let held = previous.room.lock().unwrap();
        for &(a, b) in &asked {
            assert_eq!(previous.lookup().contains(a, b), contacts.contains(a, b));
        }
        assert!(previous.pairs.get().is_none(), "not listed while held");
        drop(held);
        assert_eq!(previous.pairs(), Some(&pairs[..]));
        let room = previous.into_room();
        // No contacts: nothing was.
        let none = Contacts::empty();
        let previous = PreviousPairs::of(&none, room);
        let mut lookup = previous.lookup();
        assert!(!lookup.contains(entity(1), entity(2)));
        assert!(!lookup.contains(entity(1), entity(2)));
        assert!(previous.into_room().is_empty());
    }
}
