//! The parts of bodies: which collider belongs to which [`CollisionBody`], found once a run
//! while any body exists, by the prepare stage (with the colliders it places, so that a
//! spatial query sees both as of the same run); the contact search then leaves out the pairs
//! of one body's parts, and the events stage gives the contacts their bodies.

use crate::body::CollisionBody;
use crate::contact::Contact;
use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::entity_disabling::Disabled;
use bevy::ecs::query::Allow;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// The hierarchy the parts are found in.
#[derive(SystemParam)]
pub(crate) struct BodyTree<'w, 's> {
    bodies: Query<'w, 's, (Entity, &'static CollisionBody)>,
    /// Every body, disabled ones too: the walk down from a body stops at each, so that the
    /// parts of a body under it, disabled, are bodies of their own, not the outer body's.
    any_body: Query<'w, 's, (), (With<CollisionBody>, Allow<Disabled>)>,
    /// Disabled entities' too: Bevy's `Disabled` on an entity between a body and a part leaves
    /// the part enabled, and still the body's.
    children: Query<'w, 's, &'static Children, Allow<Disabled>>,
}

/// The body a part belongs to.
#[derive(Clone, Copy, PartialEq)]
struct PartOf {
    body: Entity,
    /// Whether the body asks for contacts between its parts.
    contacts_between_parts: bool,
}

/// Each part's body: every entity at or under a [`CollisionBody`], down to the next body.
/// The prepare stage's: found with the colliders it places ([`FindParts`]); the contact
/// search, the events stage and the spatial queries read it. Kept from run to run for its
/// room.
#[derive(Resource, Default)]
pub(crate) struct Parts {
    /// One bit per entity index: set for the indices of parts, a quick "no" for the others
    /// (most colliders, in a game of many bullets and a few bodies).
    marked: Vec<u64>,
    body_of: EntityHashMap<PartOf>,
    /// The last run's `body_of`: where they are the same, every part is its last run's body's.
    last_body_of: EntityHashMap<PartOf>,
    /// Whether the last [`find`](Self::find) found any body.
    found: bool,
}

/// Whether the events stage must give the contacts that go on the bodies they started with:
/// the prepare stage notes that a part's body changed, the events stage takes the note and
/// keeps whether any contact holds on to old bodies.
#[derive(Resource, Default)]
pub(crate) struct BodyChanges {
    /// Whether a part's body changed since the events stage last gave the contacts their
    /// bodies (runs paused between two give a prepare stage but no events stage).
    body_changed: bool,
    /// Whether a contact of the last run kept bodies other than those its colliders belonged
    /// to then.
    kept_any: bool,
}

/// Finds the parts in the prepare stage: see [`Parts`].
#[derive(SystemParam)]
pub(crate) struct FindParts<'w, 's> {
    tree: BodyTree<'w, 's>,
    parts: ResMut<'w, Parts>,
    changes: ResMut<'w, BodyChanges>,
}

impl FindParts<'_, '_> {
    /// Finds every body's parts, and notes whether any part's body changed.
    pub(crate) fn run(&mut self) {
        let changed = self.parts.find(&self.tree);
        self.changes.body_changed |= changed;
    }
}

impl Parts {
    /// Finds every body's parts in `tree`, for this run (nothing is looked at while there is
    /// no body). Returns whether any part's body changed since the last run.
    fn find(&mut self, tree: &BodyTree) -> bool {
        core::mem::swap(&mut self.body_of, &mut self.last_body_of);
        for &part in self.last_body_of.keys() {
            self.marked[part.index_u32() as usize / 64] = 0;
        }
        self.body_of.clear();
        self.found = !tree.bodies.is_empty();
        if self.found {
            self.walk(tree);
        }
        self.body_of != self.last_body_of
    }

    /// Marks every body's parts: every entity at or under it, down to the next body.
    fn walk(&mut self, tree: &BodyTree) {
        let mut below = Vec::new();
        for (body, settings) in &tree.bodies {
            let part = PartOf {
                body,
                contacts_between_parts: settings.contacts_between_parts,
            };
            below.clear();
            below.push(body);
            while let Some(entity) = below.pop() {
                // A body under this one holds its own parts; an entity seen already is part
                // of a loop of `ChildOf`, which Bevy does not forbid.
                if entity != body && tree.any_body.contains(entity)
                    || self.body_of.contains_key(&entity)
                {
                    continue;
                }
                self.mark(entity, part);
                if let Ok(children) = tree.children.get(entity) {
                    below.extend(children.iter());
                }
            }
        }
    }

    fn mark(&mut self, entity: Entity, part: PartOf) {
        let index = entity.index_u32() as usize;
        if index / 64 >= self.marked.len() {
            self.marked.resize(index / 64 + 1, 0);
        }
        self.marked[index / 64] |= 1 << (index % 64);
        self.body_of.insert(entity, part);
    }

    /// Whether colliders `a` and `b` are two parts of one body that makes no contacts between
    /// its parts: a pair the search leaves out.
    #[inline]
    pub(crate) fn one_body(&self, a: Entity, b: Entity) -> bool {
        // Both marked first: a bullet against a body's part costs no look in the table.
        if !(self.found && self.marked(a) && self.marked(b)) {
            return false;
        }
        matches!(
            (self.part_of(a), self.part_of(b)),
            (Some(a), Some(b)) if a.body == b.body && !a.contacts_between_parts
        )
    }

    /// Whether `entity`'s bit is set: it may be a part (a quick no for most colliders).
    #[inline]
    fn marked(&self, entity: Entity) -> bool {
        let index = entity.index_u32() as usize;
        self.marked
            .get(index / 64)
            .is_some_and(|bits| bits & (1 << (index % 64)) != 0)
    }

    /// The body of collider `entity`, as the last prepare stage found it: itself, unless it is a
    /// part of a body.
    #[inline]
    pub(crate) fn body_of(&self, entity: Entity) -> Entity {
        self.part_of(entity).map_or(entity, |part| part.body)
    }

    /// The body of collider `entity`: itself, unless it is a part.
    fn part_of(&self, entity: Entity) -> Option<PartOf> {
        if self.marked(entity) {
            self.body_of.get(&entity).copied()
        } else {
            None
        }
    }

    /// Gives each contact of `lists` its bodies. The search left out the pairs of one body's
    /// parts ([`one_body`](Self::one_body)), from the same parts.
    fn assign(&self, lists: &mut [Vec<Contact>]) {
        for contact in lists.iter_mut().flatten() {
            debug_assert!(
                !self.one_body(contact.a, contact.b),
                "left out by the search"
            );
            let body = |entity: Entity| self.part_of(entity).map_or(entity, |part| part.body);
            contact.bodies = [body(contact.a), body(contact.b)];
        }
    }
}

impl BodyChanges {
    /// Gives this run's contacts (`lists`) their bodies from `parts`, while any body exists.
    /// A contact that goes on from the last run (whose contacts are `previous`, in `(a, b)`
    /// order) keeps the bodies it started with: a part moved to another body, or off its
    /// body, or whose body was disabled (Bevy's `Disabled`) or unmade, while touching
    /// something stays its old body's in that contact until it ends, so that the body that
    /// heard its start hears its end. The last run's bodies are looked up when any part's body
    /// differs from the last run's (told by the parts found, not by the hierarchy's change
    /// detection, which a run at a fixed step may miss: Bevy keeps removals for two frames),
    /// and while a contact holds on to bodies its colliders no longer belong to.
    pub(crate) fn give_bodies<'a>(
        &mut self,
        parts: &Parts,
        previous: impl IntoIterator<Item = &'a Contact>,
        lists: &mut [Vec<Contact>],
    ) {
        let changed = core::mem::take(&mut self.body_changed);
        if changed && parts.found {
            // The contacts may come from a search before the last prepare stage (the events
            // stage skipped in the search's run, then the search paused): a pair that is now
            // two parts of one body is no contact. It ends, if it was one.
            for list in lists.iter_mut() {
                list.retain(|contact| !parts.one_body(contact.a, contact.b));
            }
        }
        if parts.found {
            parts.assign(lists);
        }
        if changed || self.kept_any {
            self.kept_any = keep_started_bodies(previous, lists);
        }
    }
}

/// Gives each contact of `lists` that goes on from `previous` (both in `(a, b)` order) the
/// bodies it had there: one pass over both. Returns whether any of them differ from those it
/// had been given.
fn keep_started_bodies<'a>(
    previous: impl IntoIterator<Item = &'a Contact>,
    lists: &mut [Vec<Contact>],
) -> bool {
    let mut previous = previous.into_iter().peekable();
    let mut kept_any = false;
    for contact in lists.iter_mut().flatten() {
        while previous
            .next_if(|old| old.pair() < contact.pair())
            .is_some()
        {}
        if let Some(old) = previous.next_if(|old| old.pair() == contact.pair()) {
            kept_any |= old.bodies != contact.bodies;
            contact.bodies = old.bodies;
        }
    }
    kept_any
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::fixtures::{contact, entity};

    /// A contact of the last run, given bodies: the pair `(a, b)`, the bodies `[a's, b's]`.
    fn with_bodies(a: u32, b: u32, bodies: [u32; 2]) -> Contact {
        Contact {
            bodies: bodies.map(entity),
            ..contact(a, b)
        }
    }

    /// Only the pairs that go on keep their bodies, whichever of this run's lists holds them,
    /// and whatever the last run's pairs between them.
    #[test]
    fn contacts_that_go_on_keep_their_bodies() {
        let previous = [
            with_bodies(0, 1, [9, 1]),
            with_bodies(1, 3, [1, 9]),
            with_bodies(2, 5, [8, 8]),
            with_bodies(4, 6, [9, 9]),
            with_bodies(7, 8, [7, 9]),
        ];
        let mut lists = vec![
            vec![contact(0, 1), contact(1, 2)],
            vec![],
            vec![contact(2, 5), contact(3, 4), contact(7, 8), contact(7, 9)],
        ];
        keep_started_bodies(&previous, &mut lists);
        let bodies: Vec<[Entity; 2]> = lists.iter().flatten().map(|c| c.bodies).collect();
        let expected = [[9, 1], [1, 2], [8, 8], [3, 4], [7, 9], [7, 9]];
        assert_eq!(bodies, expected.map(|pair| pair.map(entity)));
    }
}
