//! The last run's contacts, as the narrow phase asks of them: was this pair one?

use crate::contact::Contact;
use crate::contacts::Contacts;
use bevy::prelude::*;
use std::sync::OnceLock;

/// The pairs of the last run's contacts, to look up.
pub(super) struct PreviousPairs<'a> {
    contacts: &'a Contacts,
    /// Every pair of `contacts`, in order: listed on the first question of a run, and then
    /// looked up in a few cache lines rather than across the contacts themselves.
    pairs: OnceLock<Vec<(Entity, Entity)>>,
}

impl<'a> PreviousPairs<'a> {
    /// The pairs of `contacts`, listed when first asked.
    pub fn of(contacts: &'a Contacts) -> Self {
        Self {
            contacts,
            pairs: OnceLock::new(),
        }
    }

    /// Whether `a` and `b` (`a < b`) were a contact of the last run.
    pub fn contains(&self, a: Entity, b: Entity) -> bool {
        let pairs = self
            .pairs
            .get_or_init(|| self.contacts.iter().map(Contact::pair).collect());
        pairs.binary_search(&(a, b)).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Containment, Points};
    use crate::layers::CollisionLayers;
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
        let previous = PreviousPairs::of(&contacts);
        for a in 1..40 {
            for b in a + 1..40 {
                let (a, b) = (entity(a).min(entity(b)), entity(a).max(entity(b)));
                assert_eq!(previous.contains(a, b), contacts.contains(a, b), "{a} {b}");
                assert_eq!(
                    previous.contains(a, b),
                    pairs.binary_search(&(a, b)).is_ok()
                );
            }
        }
    }
}
