//! Stage 4, events: this frame's contacts diffed against the last frame's, and turned into
//! what the user reads: [`Contact`], [`ContactStarted`] and [`ContactEnded`] messages, the
//! entity events, [`Contacts`] and [`CollidingEntities`]. Its two halves touch nothing in
//! common: with enough contacts (see [`ParallelSplit`]), the copy of every contact into its
//! message runs on one thread while the starts and ends are found and written on another.

use super::narrow_phase::NarrowPhase;
use super::parallel::ParallelSplit;
use super::parts::{BodyTree, Parts};
use crate::contact::{Contact, ContactEnded, ContactStarted, PartToBody};
use crate::contacts::{CollidingEntities, Contacts};
use crate::settings::CollisionSettings;
use bevy::ecs::entity::Entities;
use bevy::ecs::entity_disabling::Disabled;
use bevy::ecs::event::{EventKey, PropagateEntityTrigger};
use bevy::ecs::observer::{ObservedBy, Observer};
use bevy::ecs::system::SystemParam;
use bevy::ecs::traversal::Traversal;
use bevy::prelude::*;
use core::cmp::Ordering;

/// The keys under which Bevy files observers of the two contact entity events.
#[derive(Resource)]
pub(crate) struct ContactEventKeys {
    started: EventKey,
    ended: EventKey,
}

impl FromWorld for ContactEventKeys {
    fn from_world(world: &mut World) -> Self {
        Self {
            started: world.register_event_key::<ContactStarted>(),
            ended: world.register_event_key::<ContactEnded>(),
        }
    }
}

/// Who could see the contact entity events: an entity event is triggered only on an entity
/// that an observer could see it on, so that no observer costs nothing. Observers see the
/// events of disabled entities too (an object pool's, parked with Bevy's `Disabled`, hears
/// its contacts end): an entity left out of the queries by a disabling component counts as
/// watched. Bevy runs an observer whose own entity is disabled, so such observers count too.
#[derive(SystemParam)]
pub(crate) struct Watchers<'w, 's> {
    keys: Res<'w, ContactEventKeys>,
    observers: Query<'w, 's, &'static Observer, Allow<Disabled>>,
    /// Whether each entity is observed.
    observed: Query<'w, 's, Has<ObservedBy>, Allow<Disabled>>,
    entities: &'w Entities,
}

/// What the observers watch, for this run.
#[derive(Clone, Copy)]
struct Watched {
    /// Whether some observer watches every entity's `ContactStarted` (one added with
    /// `add_observer`).
    started_everywhere: bool,
    /// The same for `ContactEnded`.
    ended_everywhere: bool,
    /// Whether some observer watches entities of its own (one added with `observe`).
    any_entity: bool,
}

impl Watchers<'_, '_> {
    /// Looks through the observers once.
    fn watched(&self) -> Watched {
        let mut watched = Watched {
            started_everywhere: false,
            ended_everywhere: false,
            any_entity: false,
        };
        for observer in &self.observers {
            let descriptor = observer.descriptor();
            if descriptor.entities().is_empty() {
                let keys = descriptor.event_keys();
                watched.started_everywhere |= keys.contains(&self.keys.started);
                watched.ended_everywhere |= keys.contains(&self.keys.ended);
            } else {
                watched.any_entity = true;
            }
        }
        watched
    }

    /// Whether an observer of `entity` itself (of any event) may exist: one does, or the
    /// entity is left out of the query by a disabling component of the game's own. Each look
    /// costs a cache miss in Bevy's entity records: `any_entity` says once whether any
    /// observer watches an entity of its own.
    fn watch(&self, any_entity: bool, entity: Entity) -> bool {
        any_entity
            && self
                .observed
                .get(entity)
                .unwrap_or_else(|_| self.entities.contains_spawned(entity))
    }
}

/// How a pair's contact changed between two frames.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Change<'a> {
    /// The pair overlaps now (this contact) and did not before.
    Started(&'a Contact),
    /// The pair overlapped before (this contact) and does not now.
    Ended(&'a Contact),
}

/// Calls `visit` for every pair in one frame's contacts but not the other's, in `(a, b)`
/// order. Both come in `(a, b)` order: one merge pass.
fn diff<'a>(
    previous: impl IntoIterator<Item = &'a Contact>,
    current: impl IntoIterator<Item = &'a Contact>,
    mut visit: impl FnMut(Change<'a>),
) {
    let (mut old, mut new) = (
        previous.into_iter().peekable(),
        current.into_iter().peekable(),
    );
    loop {
        let order = match (old.peek(), new.peek()) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(o), Some(n)) => o.pair().cmp(&n.pair()),
        };
        match order {
            Ordering::Equal => {
                old.next();
                new.next();
            }
            Ordering::Less => {
                visit(Change::Ended(old.next().expect("peeked")));
            }
            Ordering::Greater => {
                visit(Change::Started(new.next().expect("peeked")));
            }
        }
    }
}

/// One side of a pair: a collider, the other, and their bodies.
#[derive(Clone, Copy)]
struct Side {
    entity: Entity,
    other: Entity,
    body: Entity,
    other_body: Entity,
}

impl Side {
    /// The pair seen from `a` (its message's side), then from `b`.
    fn both(contact: &Contact) -> [Self; 2] {
        let [body_a, body_b] = contact.bodies;
        [
            Self {
                entity: contact.a,
                other: contact.b,
                body: body_a,
                other_body: body_b,
            },
            Self {
                entity: contact.b,
                other: contact.a,
                body: body_b,
                other_body: body_a,
            },
        ]
    }
}

/// The contact entity events, as [`trigger_if_spawned`] triggers them.
trait ContactEvent: EntityEvent + Copy + Send + 'static {
    /// The event about `side`'s collider.
    fn on(side: Side) -> Self;

    /// The event to trigger instead when its entity, a part, was despawned: the same event on
    /// the body, so that the body hears every start and end of its parts' contacts, in pairs
    /// (a part despawned by an earlier observer of the run still started its contact, which
    /// ends at the next run).
    fn for_body_of_despawned_part(self) -> Option<Self> {
        (self.body() != self.event_target()).then(|| self.on_body())
    }

    /// The body this event names for its entity.
    fn body(&self) -> Entity;

    /// The same event on its entity's body.
    fn on_body(self) -> Self;

    /// A trigger that keeps the event on its entity, not sent up to a body.
    fn here<'a>() -> Self::Trigger<'a>;
}

/// A trigger of a contact event that keeps it on its entity, not sent up to a body.
fn kept_here<E: EntityEvent>() -> PropagateEntityTrigger<true, E, PartToBody>
where
    PartToBody: Traversal<E>,
{
    let mut trigger = PropagateEntityTrigger::default();
    trigger.propagate = false;
    trigger
}

/// [`ContactEvent`] for an event of the two, whose fields are the same.
macro_rules! contact_event {
    ($event:ty) => {
        impl ContactEvent for $event {
            fn on(side: Side) -> Self {
                let Side {
                    entity,
                    other,
                    body,
                    other_body,
                } = side;
                Self {
                    entity,
                    other,
                    body,
                    other_body,
                }
            }
            fn body(&self) -> Entity {
                self.body
            }
            fn on_body(self) -> Self {
                Self {
                    entity: self.body,
                    ..self
                }
            }
            fn here<'a>() -> Self::Trigger<'a> {
                kept_here()
            }
        }
    };
}

contact_event!(ContactStarted);
contact_event!(ContactEnded);

/// A command that triggers `event` on its entity if the entity still exists when the command is
/// applied: an observer of an earlier trigger of the same run may have despawned it (a mine
/// that removes what touched it), and an entity event on a despawned entity would hand its
/// observers an entity that their commands cannot reach. A part's start or end goes on to the
/// body the contact names ([`PartToBody`]) if that still exists; a despawned part's goes to
/// that body alone.
fn trigger_if_spawned<E>(event: E) -> impl FnOnce(&mut World) + Send + 'static
where
    E: ContactEvent,
    for<'a> E::Trigger<'a>: Default,
{
    move |world: &mut World| {
        let spawned = |entity: Entity| world.get_entity(entity).is_ok();
        let (entity, body) = (event.event_target(), event.body());
        match (spawned(entity), spawned(body)) {
            (true, true) => world.trigger(event),
            (true, false) => world.trigger_with(event, E::here()),
            (false, true) => {
                if let Some(on_body) = event.for_body_of_despawned_part() {
                    world.trigger(on_body);
                }
            }
            (false, false) => {}
        }
    }
}

/// The entities that keep a [`CollidingEntities`], disabled ones too: their contacts end while
/// they are disabled, and their sets must say so when they come back. (A set given to an
/// entity fills itself from [`Contacts`]: see [`CollidingEntities`].)
type CollidingSets<'w, 's> = Query<'w, 's, &'static mut CollidingEntities, Allow<Disabled>>;

/// What the contacts that start and end are written to: their messages, the entity events'
/// triggers and the [`CollidingEntities`] sets.
#[derive(SystemParam)]
pub(crate) struct ChangeWriters<'w, 's> {
    started: MessageWriter<'w, ContactStarted>,
    ended: MessageWriter<'w, ContactEnded>,
    colliding: CollidingSets<'w, 's>,
    watchers: Watchers<'w, 's>,
    tree: BodyTree<'w, 's>,
    commands: Commands<'w, 's>,
}

impl ChangeWriters<'_, '_> {
    /// Writes every pair that starts or ends between `previous` and `current` (each the lists
    /// of a frame's contacts, in `(a, b)` order).
    fn write(&mut self, previous: &[Vec<Contact>], current: &[Vec<Contact>]) {
        let Self {
            started,
            ended,
            colliding,
            watchers,
            tree: _,
            commands,
        } = self;
        // Looked up on the first change only: most runs start and end nothing.
        let mut found = None;
        let mut watched_now = || match found {
            Some(found) => found,
            None => *found.insert(watchers.watched()),
        };
        let any_sets = !colliding.is_empty();
        // Whether an observer could see an event of collider `entity`: one of it, or of its
        // body (where a part's events go on to). Looking an entity up costs a cache miss: none
        // at all while no observer watches any entity of its own.
        let watched = |any_entity: bool, entity: Entity, body: Entity| {
            watchers.watch(any_entity, entity) || entity != body && watchers.watch(any_entity, body)
        };
        diff(
            previous.iter().flatten(),
            current.iter().flatten(),
            |change| match change {
                Change::Started(contact) => {
                    let sides = Side::both(contact);
                    started.write(ContactStarted::on(sides[0]));
                    let now = watched_now();
                    for side in sides {
                        if now.started_everywhere || watched(now.any_entity, side.entity, side.body)
                        {
                            commands.queue(trigger_if_spawned(ContactStarted::on(side)));
                        }
                        if any_sets && let Ok(mut set) = colliding.get_mut(side.entity) {
                            set.insert(side.other);
                        }
                    }
                }
                Change::Ended(contact) => {
                    let sides = Side::both(contact);
                    ended.write(ContactEnded::on(sides[0]));
                    let now = watched_now();
                    for side in sides {
                        if now.ended_everywhere || watched(now.any_entity, side.entity, side.body) {
                            commands.queue(trigger_if_spawned(ContactEnded::on(side)));
                        }
                        if any_sets && let Ok(mut set) = colliding.get_mut(side.entity) {
                            set.remove(side.other);
                        }
                    }
                }
            },
        );
    }
}

/// The events stage's two halves, which touch nothing in common: with enough contacts, two
/// threads write them at once.
enum Half<'a, 'c, 'w, 's> {
    /// Every contact, copied into its [`Contact`] message.
    Contacts(&'a mut MessageWriter<'c, Contact>),
    /// The pairs that start and end against the previous contacts' lists, which are then
    /// emptied (their room kept for the narrow phase).
    Changes(&'a mut ChangeWriters<'w, 's>, &'a mut Vec<Vec<Contact>>),
}

impl Half<'_, '_, '_, '_> {
    /// Writes this half, `current` being this frame's contacts' lists.
    fn write(self, current: &[Vec<Contact>]) {
        match self {
            Self::Contacts(writer) => {
                for list in current {
                    writer.write_batch(list.iter().cloned());
                }
            }
            Self::Changes(writers, previous) => {
                writers.write(previous, current);
                previous.iter_mut().for_each(Vec::clear);
            }
        }
    }
}

/// How many contacts count as one item of work against
/// [`CollisionSettings::parallel_threshold`]: a contact's copy and diff cost a few times less
/// than placing and testing a collider, and below about three times the threshold the second
/// thread's wake costs more than the half it takes.
const CONTACTS_PER_ITEM: usize = 3;

/// Diffs this frame's contacts against the last frame's and writes every message and trigger.
#[inline(never)]
pub(crate) fn write_contact_events(
    mut narrow_phase: ResMut<NarrowPhase>,
    mut contacts: ResMut<Contacts>,
    mut contact_writer: MessageWriter<Contact>,
    mut changes: ChangeWriters,
    mut parts: Local<Parts>,
    settings: Res<CollisionSettings>,
) {
    if !narrow_phase.take_unwritten() {
        // No search since the last run of this stage (a run condition paused it): the
        // contacts stay as they were, with no messages, until it runs again.
        return;
    }
    // Only while any `CollisionBody` exists (or did last run): each contact is given its bodies.
    parts.give_bodies(&changes.tree, contacts.iter(), &mut narrow_phase.contacts);
    // This frame's contacts become current; last frame's are diffed, then their room reused.
    let previous = &mut narrow_phase.contacts;
    contacts.replace(previous);
    let current = contacts.lists();
    let halves = [
        Half::Contacts(&mut contact_writer),
        Half::Changes(&mut changes, previous),
    ];
    // The copy of every contact costs about as much as the diff and its messages. Each half is
    // light work a contact, so the split waits for [`CONTACTS_PER_ITEM`] times the threshold.
    match ParallelSplit::of(contacts.len() / CONTACTS_PER_ITEM, &settings) {
        Some(split) => {
            split.work_through(halves.into(), |half, _| half.write(current));
        }
        None => {
            for half in halves {
                half.write(current);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::fixtures::{contact, entity};

    fn contacts(pairs: &[(u32, u32)]) -> Vec<Contact> {
        pairs.iter().map(|&(a, b)| contact(a, b)).collect()
    }

    /// How a pair changed, by its entities.
    #[derive(Debug, PartialEq)]
    enum Pair {
        Started(Entity, Entity),
        Ended(Entity, Entity),
    }

    fn changes(previous: &[(u32, u32)], current: &[(u32, u32)]) -> Vec<Pair> {
        let mut changes = Vec::new();
        let (previous, current) = (contacts(previous), contacts(current));
        diff(&previous, &current, |change| {
            changes.push(match change {
                Change::Started(contact) => Pair::Started(contact.a, contact.b),
                Change::Ended(contact) => Pair::Ended(contact.a, contact.b),
            })
        });
        changes
    }

    #[test]
    fn pairs_in_both_frames_do_not_change() {
        assert_eq!(changes(&[(1, 2), (3, 4)], &[(1, 2), (3, 4)]), []);
    }

    #[test]
    fn starts_and_ends_come_in_pair_order() {
        use Pair::{Ended, Started};
        let (e1, e2, e3, e4, e5) = (entity(1), entity(2), entity(3), entity(4), entity(5));
        assert_eq!(
            changes(&[(1, 2), (1, 5), (3, 4)], &[(1, 3), (1, 5), (4, 5)]),
            [
                Ended(e1, e2),
                Started(e1, e3),
                Ended(e3, e4),
                Started(e4, e5)
            ]
        );
    }

    #[test]
    fn an_empty_frame_ends_everything() {
        let (e1, e2) = (entity(1), entity(2));
        assert_eq!(changes(&[(1, 2)], &[]), [Pair::Ended(e1, e2)]);
        assert_eq!(changes(&[], &[(1, 2)]), [Pair::Started(e1, e2)]);
    }
}
