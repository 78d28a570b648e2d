//! Stage 4, events: this frame's contacts diffed against the last frame's, and turned into
//! what the user reads: [`Contact`], [`ContactStarted`] and [`ContactEnded`] messages, the
//! entity events, [`Contacts`] and [`CollidingEntities`]. Its two halves touch nothing in
//! common: with enough contacts (see [`ParallelSplit`]), the copy of every contact into its
//! message runs on one thread while the starts and ends are found and written on another.

use super::narrow_phase::NarrowPhase;
use super::parallel::ParallelSplit;
use super::parts::{BodyChanges, Parts};
use super::triggers::{ContactEvent, ContactTriggers, Side, TriggerRoom};
use crate::contact::{Contact, ContactEnded, ContactStarted};
use crate::contacts::{CollidingEntities, Contacts};
use crate::settings::CollisionSettings;
use bevy::ecs::entity_disabling::Disabled;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use core::cmp::Ordering;

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
    commands: Commands<'w, 's>,
    trigger_room: ResMut<'w, TriggerRoom>,
}

impl ChangeWriters<'_, '_> {
    /// Writes every pair that starts or ends between `previous` and `current` (each the lists
    /// of a frame's contacts, in `(a, b)` order).
    fn write(&mut self, previous: &[Vec<Contact>], current: &[Vec<Contact>]) {
        let Self {
            started,
            ended,
            colliding,
            commands,
            trigger_room,
        } = self;
        let any_sets = !colliding.is_empty();
        let mut triggers = ContactTriggers::in_room(trigger_room);
        diff(
            previous.iter().flatten(),
            current.iter().flatten(),
            |change| {
                let (contact, is_start) = match change {
                    Change::Started(contact) => (contact, true),
                    Change::Ended(contact) => (contact, false),
                };
                let sides = Side::both(contact);
                if is_start {
                    started.write(ContactStarted::on(sides[0]));
                } else {
                    ended.write(ContactEnded::on(sides[0]));
                }
                triggers.push(is_start, contact);
                if any_sets {
                    for side in sides {
                        if let Ok(mut set) = colliding.get_mut(side.entity) {
                            if is_start {
                                set.insert(side.other);
                            } else {
                                set.remove(side.other);
                            }
                        }
                    }
                }
            },
        );
        triggers.queue(commands, trigger_room);
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

/// Diffs this frame's contacts against the last frame's and writes every message and trigger
/// (the [`Contact`] messages only while [`CollisionSettings::contact_messages`] asks).
#[inline(never)]
pub(crate) fn write_contact_events(
    mut narrow_phase: ResMut<NarrowPhase>,
    mut contacts: ResMut<Contacts>,
    mut contact_writer: MessageWriter<Contact>,
    mut changes: ChangeWriters,
    parts: Res<Parts>,
    mut body_changes: ResMut<BodyChanges>,
    settings: Res<CollisionSettings>,
) {
    if !narrow_phase.take_unwritten() {
        // No search since the last run of this stage (a run condition paused it): the
        // contacts stay as they were, with no messages, until it runs again.
        return;
    }
    // Only while any `CollisionBody` exists (or did last run): each contact is given its bodies.
    body_changes.give_bodies(&parts, contacts.iter(), &mut narrow_phase.contacts);
    // This frame's contacts become current; last frame's are diffed, then their room reused.
    let previous = &mut narrow_phase.contacts;
    contacts.replace(previous);
    let current = contacts.lists();
    let diff = Half::Changes(&mut changes, previous);
    if !settings.contact_messages {
        diff.write(current);
        return;
    }
    let halves = [Half::Contacts(&mut contact_writer), diff];
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
