//! The contact entity events: [`ContactStarted`] and [`ContactEnded`] triggered on each side's
//! collider (and through it on its body), by one command a run that holds the run's starts and
//! ends in order. Whether anyone listens is asked of Bevy's own record of observers as each
//! event's turn comes, so that an event no observer could hear costs no trigger, and an
//! observer added by an earlier one of the same run hears the later events, as with any
//! triggered event.

use crate::contact::{Contact, ContactEnded, ContactStarted, PartToBody, goes_to_body};
use bevy::ecs::event::{EventKey, PropagateEntityTrigger};
use bevy::ecs::observer::CachedObservers;
use bevy::ecs::traversal::Traversal;
use bevy::prelude::*;

/// The keys under which Bevy files observers of the two contact entity events.
#[derive(Resource, Clone, Copy)]
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

/// One side of a pair: a collider, the other, and their bodies.
#[derive(Clone, Copy)]
pub(super) struct Side {
    pub(super) entity: Entity,
    pub(super) other: Entity,
    body: Entity,
    other_body: Entity,
}

impl Side {
    /// The pair seen from `a` (its message's side), then from `b`.
    pub(super) fn both(contact: &Contact) -> [Self; 2] {
        Self::of([contact.a, contact.b], contact.bodies)
    }

    /// The pair of colliders `pair`, whose bodies are `bodies`, seen from the first, then from
    /// the second.
    fn of([a, b]: [Entity; 2], [body_a, body_b]: [Entity; 2]) -> [Self; 2] {
        [
            Self {
                entity: a,
                other: b,
                body: body_a,
                other_body: body_b,
            },
            Self {
                entity: b,
                other: a,
                body: body_b,
                other_body: body_a,
            },
        ]
    }
}

/// A pair whose contact started or ended in a run: its colliders and their bodies.
#[derive(Clone, Copy)]
pub(super) struct PairChange {
    started: bool,
    pair: [Entity; 2],
    bodies: [Entity; 2],
}

/// The room of the last run's [`ContactTriggers`], kept for the next.
#[derive(Resource, Default)]
pub(crate) struct TriggerRoom(Vec<PairChange>);

/// The starts and ends of one run, in the order its messages were written, to trigger on
/// their colliders when the command is applied (see [`Self::apply`]).
pub(super) struct ContactTriggers(Vec<PairChange>);

impl ContactTriggers {
    /// An empty list, in the room the last run's left.
    pub(super) fn in_room(room: &mut TriggerRoom) -> Self {
        let mut list = core::mem::take(&mut room.0);
        list.clear();
        Self(list)
    }

    /// Adds a pair whose contact started (`started`) or ended.
    #[inline]
    pub(super) fn push(&mut self, started: bool, contact: &Contact) {
        self.0.push(PairChange {
            started,
            pair: [contact.a, contact.b],
            bodies: contact.bodies,
        });
    }

    /// Queues the triggers on `commands`, or, with nothing to trigger, hands the room back.
    pub(super) fn queue(self, commands: &mut Commands, room: &mut TriggerRoom) {
        if self.0.is_empty() {
            room.0 = self.0;
        } else {
            commands.queue(self);
        }
    }
}

impl Command for ContactTriggers {
    type Out = ();

    /// Triggers each side's event, in order, where an observer could hear it: a global one, or
    /// one of the side's collider or of its body. The world's queued commands are applied after
    /// each trigger, as they are between commands: what an observer's commands did (a despawn,
    /// an observer added) holds for the next event.
    fn apply(self, world: &mut World) {
        let Some(&keys) = world.get_resource::<ContactEventKeys>() else {
            return;
        };
        let heard = |world: &World, key: EventKey| {
            world
                .observers()
                .try_get_observers(key)
                .is_some_and(|observers| {
                    !observers.global_observers().is_empty()
                        || !observers.entity_observers().is_empty()
                })
        };
        // No observer runs unless one exists, so none can be added meanwhile.
        if heard(world, keys.started) || heard(world, keys.ended) {
            trigger_in_order(world, keys, &self.0);
        }
        if let Some(mut room) = world.get_resource_mut::<TriggerRoom>() {
            let mut list = self.0;
            // A burst of changes leaves no lasting room.
            if list.capacity() > 4 * list.len().max(1024) {
                list.shrink_to(list.len());
            }
            room.0 = list;
        }
    }
}

/// Triggers each side of each change in `changes`, in order, where it is heard (see
/// [`trigger_if_heard`]), and applies the commands its observers queued after each.
fn trigger_in_order(world: &mut World, keys: ContactEventKeys, changes: &[PairChange]) {
    for change in changes {
        for side in Side::of(change.pair, change.bodies) {
            let triggered = if change.started {
                trigger_if_heard(world, keys.started, ContactStarted::on(side))
            } else {
                trigger_if_heard(world, keys.ended, ContactEnded::on(side))
            };
            if triggered {
                world.flush();
            }
        }
    }
}

/// Triggers `event` (see [`trigger_if_spawned`]) if an observer of its kind (`key`) could hear
/// it: a global one, or one of its collider or of the body it goes on to. Says whether it did.
fn trigger_if_heard<E>(world: &mut World, key: EventKey, event: E) -> bool
where
    E: ContactEvent,
    for<'a> E::Trigger<'a>: Default,
{
    let watches = |observers: &CachedObservers, entity: Entity| {
        observers
            .entity_observers()
            .get(&entity)
            .is_some_and(|watching| !watching.is_empty())
    };
    let (entity, body) = (event.event_target(), event.body());
    let heard = world
        .observers()
        .try_get_observers(key)
        .is_some_and(|observers| {
            !observers.global_observers().is_empty()
                || watches(observers, entity)
                || event.goes_to_body() && watches(observers, body)
        });
    if heard {
        trigger_if_spawned(world, event);
    }
    heard
}

/// The contact entity events, each also a message (see [`trigger_if_spawned`]).
pub(super) trait ContactEvent: EntityEvent + Copy + Send + 'static {
    /// The event about `side`'s collider.
    fn on(side: Side) -> Self;

    /// The event to trigger instead when its entity, a part, was despawned: the same event on
    /// the body, so that the body hears every start and end of its parts' contacts, in pairs
    /// (a part despawned by an earlier observer of the run still started its contact, which
    /// ends at the next run). None where the other collider is the body's own (parts set to
    /// meet each other): such an event never goes on to the body ([`PartToBody`]).
    fn for_body_of_despawned_part(self) -> Option<Self> {
        self.goes_to_body().then(|| self.on_body())
    }

    /// Whether the event goes on from its entity to its body ([`PartToBody`]).
    fn goes_to_body(&self) -> bool {
        goes_to_body(self.event_target(), self.body(), self.other())
    }

    /// The body this event names for its entity.
    fn body(&self) -> Entity;

    /// The other collider of the pair.
    fn other(&self) -> Entity;

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
            fn other(&self) -> Entity {
                self.other
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

/// Triggers `event` on its entity if the entity still exists: an observer of an earlier
/// trigger of the same run may have despawned it (a mine that removes what touched it), and
/// an entity event on a despawned entity would hand its observers an entity that their
/// commands cannot reach. A part's start or end goes on to the body the contact names
/// ([`PartToBody`]) if that still exists; a despawned part's goes to that body alone.
fn trigger_if_spawned<E>(world: &mut World, event: E)
where
    E: ContactEvent,
    for<'a> E::Trigger<'a>: Default,
{
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
