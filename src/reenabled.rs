//! Entities enabled again: what the pipeline catches up on when a disabling component (Bevy's
//! `Disabled`, or a game's own) leaves an entity that no system saw while it was disabled.

use crate::contacts::CollidingEntities;
use crate::swept::Swept;
use bevy::ecs::component::{ComponentId, Components};
use bevy::ecs::entity_disabling::{DefaultQueryFilters, Disabled};
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;

/// When Bevy's `Disabled` leaves an entity, its `Swept` and its descendants' start with no
/// path ([`Swept::forget_starts`]). Its `CollidingEntities` needs nothing: the pipeline keeps
/// it up to date while the entity is disabled.
pub(crate) fn forget_starts_when_enabled(enabled: On<Remove, Disabled>, mut world: DeferredWorld) {
    Swept::forget_starts(&mut world, enabled.entity);
}

/// Watches the disabling components other than Bevy's `Disabled` (the game's own). An entity
/// that loses one has its `CollidingEntities` filled again, since while it was disabled the
/// pipeline's queries did not see its set, and its contacts ended without it hearing; and its
/// `Swept` and its descendants' start with no path, as when `Disabled` goes. Runs before the
/// pipeline when the disabling components change (the pipeline's queries are built from them
/// at its first run); `watched` are those already watched. A game without any watches nothing.
pub(crate) fn watch_disabling_components(
    filters: Res<DefaultQueryFilters>,
    components: &Components,
    mut watched: Local<Vec<ComponentId>>,
    mut commands: Commands,
) {
    let disabled = components.component_id::<Disabled>();
    let new: Vec<ComponentId> = filters
        .disabling_ids()
        .filter(|&id| Some(id) != disabled && !watched.contains(&id))
        .collect();
    if new.is_empty() {
        return;
    }
    watched.extend(&new);
    let catch_up = |removed: On<Remove>, mut world: DeferredWorld| {
        CollidingEntities::refill(&mut world, removed.event_target());
        Swept::forget_starts(&mut world, removed.event_target());
    };
    commands.spawn(Observer::new(catch_up).with_components(new));
}
