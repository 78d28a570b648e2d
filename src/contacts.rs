//! What is in contact now, without reading messages: [`Contacts`], every contact of the last
//! run, and [`CollidingEntities`], one entity's side of it.
//!
//! The contacts are kept as the narrow phase made them: in one list on one thread, or in one
//! list per piece of work when it was split across threads. The lists follow each other in
//! `(a, b)` order, so that together they read as one sorted list without being copied into one.

use crate::contact::Contact;
use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;
use core::iter::FusedIterator;
use std::sync::OnceLock;

/// Every contact of the pipeline's last run, to look up without reading messages: each pair
/// that overlaps, or that met along its [`Swept`](crate::Swept) paths in that run (see
/// [`Contact`]).
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_collision_events::prelude::*;
/// #[derive(Component)]
/// struct Player;
///
/// fn player_is_hit(contacts: Res<Contacts>, player: Single<Entity, With<Player>>) -> bool {
///     contacts.touching(*player).next().is_some()
/// }
/// # bevy::ecs::system::assert_is_system(player_is_hit.map(drop));
/// ```
///
/// Only the plugin makes and changes it: the pipeline diffs each run against it to find the
/// pairs that start and end, so a game cannot build one of its own to put in its place.
///
/// ```compile_fail
/// # use bevy_collision_events::Contacts;
/// let replacement = Contacts::default();
/// ```
///
/// # Scheduling
/// Replaced in [`CollisionSystems::WriteEvents`](crate::CollisionSystems::WriteEvents); between two
/// runs it holds the last run's contacts.
#[derive(Resource, Debug)]
pub struct Contacts {
    /// The contacts in `(a, b)` order, as lists that follow each other (see
    /// [`follow_each_other`]).
    lists: Vec<Vec<Contact>>,
    /// How many contacts the lists hold.
    len: usize,
    /// Where each entity's contacts are, for both sides of every contact; built on the first
    /// per-entity question after a run.
    by_entity: OnceLock<ContactIndex>,
    /// The same for both sides' bodies ([`Contact::bodies`]), each contact once under a body
    /// that holds both sides; built on the first per-body question after a run.
    by_body: OnceLock<ContactIndex>,
}

/// `(key, list, index in the list)` for each contact under each of its keys (an entity, or a
/// body), sorted: a key's contacts lie side by side, in `(a, b)` order.
#[derive(Debug)]
struct ContactIndex(Vec<(Entity, u32, u32)>);

impl ContactIndex {
    /// Every contact of `lists` under each of its two `keys` (once where they are the same).
    fn of(lists: &[Vec<Contact>], len: usize, keys: impl Fn(&Contact) -> [Entity; 2]) -> Self {
        let mut index = Vec::with_capacity(2 * len);
        for (list_index, list) in lists.iter().enumerate() {
            for (at, contact) in list.iter().enumerate() {
                let (list_index, at) = (list_index as u32, at as u32);
                let [first, second] = keys(contact);
                index.push((first, list_index, at));
                if second != first {
                    index.push((second, list_index, at));
                }
            }
        }
        index.sort_unstable();
        Self(index)
    }

    /// The contacts of `lists` (which the index was made from) under `key`.
    fn get<'a>(
        &'a self,
        lists: &'a [Vec<Contact>],
        key: Entity,
    ) -> impl Iterator<Item = &'a Contact> {
        let start = self.0.partition_point(|&(e, ..)| e < key);
        self.0[start..]
            .iter()
            .take_while(move |&&(e, ..)| e == key)
            .map(|&(_, list, at)| &lists[list as usize][at as usize])
    }
}

impl Contacts {
    /// No contacts: what the plugin starts with.
    pub(crate) fn empty() -> Self {
        Self {
            lists: Vec::new(),
            len: 0,
            by_entity: OnceLock::new(),
            by_body: OnceLock::new(),
        }
    }

    /// Makes the contacts of `lists` the current ones, and leaves the previous ones' lists in
    /// `lists`. Each must be sorted by `(a, b)`, and each must start after the one before it
    /// ends (see [`follow_each_other`]); empty ones are dropped.
    pub(crate) fn replace(&mut self, lists: &mut Vec<Vec<Contact>>) {
        lists.retain(|list| !list.is_empty());
        debug_assert!(
            lists
                .iter()
                .all(|list| list.is_sorted_by_key(Contact::pair))
        );
        debug_assert!(follow_each_other(lists.iter()));
        core::mem::swap(&mut self.lists, lists);
        self.len = self.lists.iter().map(Vec::len).sum();
        self.by_entity.take();
        self.by_body.take();
    }

    /// The lists the contacts are kept in, in `(a, b)` order.
    pub(crate) fn lists(&self) -> &[Vec<Contact>] {
        &self.lists
    }

    /// Every contact, in `(a, b)` order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &Contact> + FusedIterator + Clone {
        Iter {
            lists: self.lists.iter(),
            list: [].iter(),
            left: self.len,
        }
    }

    /// How many contacts there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no contact.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The contact between two entities, in either order.
    pub fn get(&self, first: Entity, second: Entity) -> Option<&Contact> {
        let key = (first.min(second), first.max(second));
        // The one list that can hold it: the first whose last contact is not before it.
        let list = self
            .lists
            .partition_point(|list| list.last().is_some_and(|last| last.pair() < key));
        let list = self.lists.get(list)?;
        list.binary_search_by_key(&key, Contact::pair)
            .ok()
            .map(|index| &list[index])
    }

    /// Whether the colliders of two entities are in contact (a body's parts are looked up by
    /// their own entities: see [`Contact::bodies`]).
    pub fn contains(&self, first: Entity, second: Entity) -> bool {
        self.get(first, second).is_some()
    }

    /// The contacts in which `entity` is one of the two colliders, `a` or `b`. A
    /// [`CollisionBody`](crate::CollisionBody) with its colliders on its children has its
    /// contacts under its parts' entities: [`of_body`](Self::of_body) gives them all.
    ///
    /// The first call after a run (of this, [`touching`](Self::touching) or
    /// [`first_hit`](Self::first_hit), or a [`CollidingEntities`] given to an entity) sorts
    /// both sides of every contact, once.
    pub fn of(&self, entity: Entity) -> impl Iterator<Item = &Contact> {
        let index = self.by_entity.get_or_init(|| {
            ContactIndex::of(&self.lists, self.len, |contact| contact.pair().into())
        });
        index.get(&self.lists, entity)
    }

    /// The contacts whose [`bodies`](Contact::bodies) name `body`: its own collider's and its
    /// parts', as they were when each contact started (a contact keeps the bodies it started
    /// with: see [`CollisionBody`](crate::CollisionBody)), in `(a, b)` order, each once (a
    /// contact between two of its parts too, where
    /// [`contacts_between_parts`](crate::CollisionBody::contacts_between_parts) asks for them).
    /// A collider under no body names itself, so for contacts that started while it was so,
    /// this is [`of`](Self::of); a part's contacts are its body's. Between runs, a body
    /// despawned since still has its last run's contacts.
    ///
    /// The first call after a run sorts both sides' bodies of every contact, once.
    pub fn of_body(&self, body: Entity) -> impl Iterator<Item = &Contact> {
        let index = self
            .by_body
            .get_or_init(|| ContactIndex::of(&self.lists, self.len, |contact| contact.bodies));
        index.get(&self.lists, body)
    }

    /// The entities whose colliders are in contact with the collider of `entity` (see
    /// [`of`](Self::of)).
    pub fn touching(&self, entity: Entity) -> impl Iterator<Item = Entity> {
        self.of(entity)
            .filter_map(move |contact| contact.other(entity))
    }

    /// The contact of `entity` that came first along this run's paths: the one with the
    /// earliest [`impact`](Contact::impact) time, a contact without one (see there: touching
    /// at the start of the paths, not swept, or going on from an earlier run) counting as
    /// time zero; among equals, the lowest other entity. A fast [`Swept`](crate::Swept) bullet
    /// may cross a wall and the enemy behind it in one run, and make both contacts: this is the
    /// wall's. An observer that spends the bullet asks whether the bullet met its entity (or a
    /// part of its body) first:
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_collision_events::prelude::*;
    /// #[derive(Component)]
    /// struct Bullet;
    ///
    /// /// Observed on each enemy and wall (on a body, not on its parts): a bullet is spent on
    /// /// what it met first.
    /// fn spend_bullet(
    ///     hit: On<ContactStarted>,
    ///     contacts: Res<Contacts>,
    ///     bullets: Query<(), With<Bullet>>,
    ///     mut commands: Commands,
    /// ) {
    ///     let first = contacts.first_hit(hit.other);
    ///     let struck = first.and_then(|contact| contact.body_of(contact.other(hit.other)?));
    ///     if bullets.contains(hit.other) && struck == Some(hit.entity) {
    ///         commands.entity(hit.other).try_despawn();
    ///     }
    /// }
    /// # let mut world = World::new();
    /// # world.spawn(PolygonCollider::rectangle(40.0, 20.0)).observe(spend_bullet);
    /// ```
    ///
    /// So that every bullet is spent somewhere, its layers should meet only what spends it: a
    /// contact going on from an earlier run (a bullet fired from inside its own ship) stays its
    /// first hit while it lasts, unless it parts and meets again on the way (a concave ship's
    /// other arm), at that time. And `Contacts` holds the whole run's contacts while its
    /// observers run: the first hit may be an entity an earlier observer despawned (a one-hit
    /// enemy), which a game that despawns in its observers checks for.
    pub fn first_hit(&self, entity: Entity) -> Option<&Contact> {
        let time = |contact: &Contact| contact.impact.map_or(0.0, |impact| impact.time);
        self.of(entity).min_by(|one, other| {
            let order = time(one).total_cmp(&time(other));
            order.then_with(|| one.other(entity).cmp(&other.other(entity)))
        })
    }
}

/// Every contact of [`Contacts`], in `(a, b)` order, list after list.
#[derive(Clone)]
struct Iter<'a> {
    /// The lists not yet started.
    lists: core::slice::Iter<'a, Vec<Contact>>,
    /// What is left of the list being read.
    list: core::slice::Iter<'a, Contact>,
    /// How many contacts are left, in all.
    left: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a Contact;

    fn next(&mut self) -> Option<&'a Contact> {
        loop {
            if let Some(contact) = self.list.next() {
                self.left -= 1;
                return Some(contact);
            }
            self.list = self.lists.next()?.iter();
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }

    fn fold<B, F: FnMut(B, &'a Contact) -> B>(self, init: B, mut f: F) -> B {
        let rest = self.list.fold(init, &mut f);
        self.lists
            .fold(rest, |acc, list| list.iter().fold(acc, &mut f))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl FusedIterator for Iter<'_> {}

/// Whether each list that holds a contact starts after the last one before it ends: lists,
/// each sorted, that read as one sorted list one after the other.
pub(crate) fn follow_each_other<'a>(lists: impl IntoIterator<Item = &'a Vec<Contact>>) -> bool {
    let mut ends = lists
        .into_iter()
        .filter_map(|list| Some((list.first()?.pair(), list.last()?.pair())));
    let Some((_, mut last)) = ends.next() else {
        return true;
    };
    ends.all(|(first, end)| core::mem::replace(&mut last, end) < first)
}

/// The entities this one is in contact with now (see [`Contacts`]), kept up to date on the
/// entities that have this
/// component (add it to those you want to ask: with none, it costs nothing).
///
/// Whenever it is given to an entity (inserted, inserted again, cloned), it lists what the
/// entity was in contact with at the pipeline's last run, as [`Contacts`] has it,
/// whatever value it was given. It is kept up to date while the entity is disabled with Bevy's
/// `Disabled` too (its contacts end then), so that it is right when the entity comes back. An
/// entity disabled by a disabling component of the game's own (registered with
/// `register_disabling_component` before the first update) is out of the pipeline's sight:
/// its set keeps what it held while disabled, and is filled again as that component is removed.
///
/// It reads as the set of entities it holds (`Deref` to an `EntityHashSet`):
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_collision_events::prelude::*;
/// #[derive(Component)]
/// struct Lava;
///
/// /// The player burns while it stands in any lava (spawned with `CollidingEntities`).
/// fn burn(player: Single<&CollidingEntities>, lava: Query<(), With<Lava>>) {
///     if player.iter().any(|&entity| lava.contains(entity)) {
///         info!("ouch");
///     }
/// }
/// # bevy::ecs::system::assert_is_system(burn);
/// ```
///
/// A value written in place through reflection (an inspector's edit, a scene applied over an
/// entity that has the set already) is not filled again: it keeps what was written, changed
/// only as contacts start and end. Remove the set and insert it again to fill it.
///
/// # Scheduling
/// Updated in [`CollisionSystems::WriteEvents`](crate::CollisionSystems::WriteEvents).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Deref, Reflect)]
#[component(on_insert = CollidingEntities::fill)]
#[reflect(Component, Debug, Default, Clone, PartialEq)]
pub struct CollidingEntities(EntityHashSet);

impl CollidingEntities {
    /// Lists what the entity is in contact with now: only the pipeline says that, so a set
    /// given to an entity is filled from the last run's contacts, not kept as it was given.
    fn fill(mut world: DeferredWorld, context: HookContext) {
        Self::refill(&mut world, context.entity);
    }

    /// Fills the set of `entity` (if it has one) from the last run's contacts.
    pub(crate) fn refill(world: &mut DeferredWorld, entity: Entity) {
        let has_set = world
            .get_entity(entity)
            .is_ok_and(|entity| entity.contains::<Self>());
        if !has_set {
            return;
        }
        let touching: Vec<Entity> = world
            .get_resource::<Contacts>()
            .map(|contacts| contacts.touching(entity).collect())
            .unwrap_or_default();
        if let Some(mut set) = world.get_mut::<Self>(entity) {
            set.replace(touching);
        }
    }

    /// Records that the entity is now in contact with `other`.
    pub(crate) fn insert(&mut self, other: Entity) {
        self.0.insert(other);
    }

    /// Records that the entity is no longer in contact with `other`.
    pub(crate) fn remove(&mut self, other: Entity) {
        self.0.remove(&other);
    }

    /// Records that the entity is in contact with exactly `others`.
    pub(crate) fn replace(&mut self, others: impl IntoIterator<Item = Entity>) {
        self.0.clear();
        self.0.extend(others);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::fixtures::{contact, entity};

    /// The pairs, sorted, in lists of the given lengths.
    fn contacts_in_lists(pairs: &[(u32, u32)], lengths: &[usize]) -> Contacts {
        assert_eq!(lengths.iter().sum::<usize>(), pairs.len());
        let mut pairs = pairs.iter().map(|&(a, b)| contact(a, b));
        let mut lists = lengths
            .iter()
            .map(|&length| pairs.by_ref().take(length).collect())
            .collect();
        let mut contacts = Contacts::empty();
        contacts.replace(&mut lists);
        contacts
    }

    fn contacts(pairs: &[(u32, u32)]) -> Contacts {
        contacts_in_lists(pairs, &[pairs.len()])
    }

    /// Eight pairs in `(a, b)` order.
    const EIGHT: [(u32, u32); 8] = [
        (1, 2),
        (1, 5),
        (2, 3),
        (2, 9),
        (3, 9),
        (4, 5),
        (6, 7),
        (7, 8),
    ];

    /// However the contacts are cut into lists, they are read, counted and found alike.
    #[test]
    fn lists_read_as_one() {
        let one = contacts(&EIGHT);
        for lengths in [&[8][..], &[1, 7], &[3, 3, 2], &[1; 8], &[7, 1]] {
            let cut = contacts_in_lists(&EIGHT, lengths);
            assert_eq!(cut.len(), 8);
            assert!(cut.iter().eq(one.iter()), "{lengths:?}");
            assert_eq!(cut.iter().len(), 8);
            let mut iter = cut.iter();
            iter.nth(2);
            assert_eq!(iter.len(), 5, "{lengths:?}");
            let folded = cut.iter().fold(Vec::new(), |mut all, contact| {
                all.push(contact.pair());
                all
            });
            assert!(
                folded
                    .iter()
                    .eq(one.iter().map(Contact::pair).collect::<Vec<_>>().iter())
            );
            for a in 0..10 {
                for b in 0..10 {
                    let (a, b) = (entity(a), entity(b));
                    assert_eq!(cut.get(a, b), one.get(a, b), "{lengths:?} {a} {b}");
                    assert!(cut.of(a).eq(one.of(a)), "{lengths:?} {a}");
                }
            }
        }
        assert_eq!(one.get(entity(9), entity(3)), Some(&contact(3, 9)));
        assert_eq!(one.get(entity(1), entity(3)), None);
    }

    #[test]
    fn of_finds_an_entity_on_either_side() {
        let contacts = contacts(&[(1, 2), (1, 5), (2, 3), (4, 5)]);
        let of = |index| {
            let mut others: Vec<Entity> = contacts.touching(entity(index)).collect();
            others.sort();
            others
        };
        assert_eq!(of(1), [entity(2), entity(5)]);
        assert_eq!(of(2), [entity(1), entity(3)]);
        assert_eq!(of(5), [entity(1), entity(4)]);
        assert_eq!(of(6), []);
        assert_eq!(contacts.of(entity(3)).next(), Some(&contact(2, 3)));
    }

    #[test]
    fn of_is_rebuilt_when_the_contacts_are_replaced() {
        let mut contacts = contacts(&[(1, 2)]);
        assert_eq!(contacts.touching(entity(1)).count(), 1);
        let mut next = vec![vec![contact(3, 4)], vec![contact(4, 5)]];
        contacts.replace(&mut next);
        assert_eq!(
            next,
            [vec![contact(1, 2)]],
            "the previous contacts are handed back"
        );
        assert_eq!(contacts.len(), 2);
        assert_eq!(contacts.touching(entity(1)).count(), 0);
        assert_eq!(
            contacts.touching(entity(4)).collect::<Vec<_>>(),
            [entity(3), entity(5)]
        );
    }

    /// Emptied lists (the events stage run again with no narrow phase between) are dropped:
    /// there is no contact, and nothing is found.
    #[test]
    fn empty_lists_are_dropped() {
        let mut contacts = contacts(&[(1, 2)]);
        let mut emptied = vec![Vec::new(), Vec::with_capacity(4)];
        contacts.replace(&mut emptied);
        assert!(contacts.is_empty() && contacts.lists().is_empty());
        assert_eq!(contacts.iter().len(), 0);
        assert!(contacts.get(entity(1), entity(2)).is_none());
    }

    #[test]
    fn get_takes_either_order() {
        let contacts = contacts(&[(1, 2), (3, 9)]);
        assert_eq!(contacts.get(entity(9), entity(3)), Some(&contact(3, 9)));
        assert!(contacts.contains(entity(1), entity(2)));
        assert!(!contacts.contains(entity(1), entity(3)));
        assert!(Contacts::empty().get(entity(1), entity(2)).is_none());
        assert!(Contacts::empty().is_empty());
    }

    #[test]
    fn lists_follow_each_other_only_in_order() {
        let list = |pairs: &[(u32, u32)]| pairs.iter().map(|&(a, b)| contact(a, b)).collect();
        let (low, high): (Vec<Contact>, Vec<Contact>) = (list(&[(1, 2), (1, 5)]), list(&[(2, 3)]));
        assert!(follow_each_other([&low, &Vec::new(), &high]));
        assert!(!follow_each_other([&high, &low]));
        let overlapping: Vec<Contact> = list(&[(1, 3), (4, 5)]);
        assert!(!follow_each_other([&low, &overlapping]));
        assert!(follow_each_other([]));
    }
}
