//! Contacts put in `(a, b)` order. A contact is over a hundred bytes and a batch's contacts
//! come in any order once a game has recycled its entities, so rather than compare and swap
//! contacts, their pairs are sorted as small keys, a byte at a time without comparisons (a radix
//! sort, over the bytes in which the pairs differ), and each contact is then moved into place
//! once.

use crate::contact::Contact;

/// A contact's pair as one number that sorts as the pair does (`Entity` orders by its bits),
/// its bytes least significant first, and where the contact is.
#[derive(Clone, Copy, Default)]
struct Key {
    pair: [u8; 16],
    place: u32,
}

impl Key {
    fn of(contact: &Contact, place: usize) -> Self {
        let (a, b) = contact.pair();
        let pair = (u128::from(a.to_bits()) << 64) | u128::from(b.to_bits());
        Self {
            pair: pair.to_le_bytes(),
            place: place as u32,
        }
    }

    /// The pair as the number it is.
    fn pair(&self) -> u128 {
        u128::from_le_bytes(self.pair)
    }
}

/// Below this many contacts, a comparison sort of the keys costs less than the passes of a
/// radix sort over its 256 buckets.
const FEW: usize = 64;

/// Sorts `contacts` by pair, as `sort_unstable_by_key(Contact::pair)` would (each pair of
/// entities meets once, so the order is the same): the keys are sorted, then the contacts
/// are moved along each cycle of the order, one swap each.
pub(super) fn sort_by_pair(contacts: &mut [Contact]) {
    let mut keys: Vec<Key> = contacts
        .iter()
        .enumerate()
        .map(|(place, contact)| Key::of(contact, place))
        .collect();
    if keys.len() < FEW {
        keys.sort_unstable_by_key(Key::pair);
    } else {
        radix_sort(&mut keys);
    }
    // `keys[i].place` is where the contact that belongs at `i` is now. Each cycle is followed
    // from its first place: the contact for the current place is swapped in from where it
    // is, which then waits for its own; a place done is marked with its own number.
    for start in 0..contacts.len() {
        let mut current = start;
        loop {
            let from = keys[current].place as usize;
            keys[current].place = current as u32;
            if from == start {
                break;
            }
            contacts.swap(current, from);
            current = from;
        }
    }
}

/// Sorts `keys` by pair, least significant byte first, one stable pass of counting and
/// placing per byte in which any two pairs differ (most of a pair's sixteen bytes are the same
/// in every contact of a frame: the entities' generations, the high bytes of their indices).
fn radix_sort(keys: &mut Vec<Key>) {
    let Some(first) = keys.first().map(Key::pair) else {
        return;
    };
    let differing = keys.iter().fold(0, |bits, key| bits | (key.pair() ^ first));
    let mut sorted = vec![Key::default(); keys.len()];
    for byte in 0..16 {
        if (differing >> (8 * byte)) & 0xff == 0 {
            continue;
        }
        let mut starts = [0_u32; 256];
        for key in keys.iter() {
            starts[usize::from(key.pair[byte])] += 1;
        }
        let mut total = 0;
        for start in &mut starts {
            (*start, total) = (total, total + *start);
        }
        for key in keys.iter() {
            let start = &mut starts[usize::from(key.pair[byte])];
            sorted[*start as usize] = *key;
            *start += 1;
        }
        core::mem::swap(keys, &mut sorted);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::ecs::entity::EntityGeneration;
    use bevy::prelude::*;
    use rand::seq::SliceRandom;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// Shuffled, reversed, sorted already or of one or no contact, the contacts come out as the
    /// standard library's sort of the whole contacts puts them, each contact whole.
    #[test]
    fn contacts_sort_as_the_standard_sort_by_pair_does() {
        let mut rng = StdRng::seed_from_u64(5);
        for round in 0..200 {
            let count = match round {
                0..4 => [0, 1, FEW - 1, FEW][round],
                _ if round % 4 == 0 => rng.random_range(0..FEW),
                _ => rng.random_range(FEW..600),
            };
            let entity = |rng: &mut StdRng| {
                let index = Entity::from_raw_u32(rng.random_range(0..3000))
                    .unwrap()
                    .index();
                let generation = EntityGeneration::FIRST.after_versions(rng.random_range(0..3));
                Entity::from_index_and_generation(index, generation)
            };
            let mut pairs = Vec::new();
            while pairs.len() < count {
                let (a, b) = (entity(&mut rng), entity(&mut rng));
                if a != b && !pairs.contains(&(a.min(b), a.max(b))) {
                    pairs.push((a.min(b), a.max(b)));
                }
            }
            let mut contacts: Vec<Contact> = (0..count)
                // Each told apart by its point.
                .map(|index| {
                    Contact::new(pairs[index].0, pairs[index].1, [Vec2::splat(index as f32)])
                })
                .collect();
            match round % 3 {
                0 => contacts.shuffle(&mut rng),
                1 => contacts.sort_unstable_by_key(|contact| core::cmp::Reverse(contact.pair())),
                _ => contacts.sort_unstable_by_key(Contact::pair),
            }
            let mut expected = contacts.clone();
            expected.sort_unstable_by_key(Contact::pair);
            sort_by_pair(&mut contacts);
            assert_eq!(contacts, expected, "round {round}");
        }
    }
}
