//! The per-frame stages, in order: [`prepare`] places every collider in the world, the
//! [`broad_phase`] finds the pairs whose bounding circles meet, the [`narrow_phase`] runs the exact
//! test on each, and [`events`] turns the result into messages and triggers. The broad and narrow
//! phases run in one system, [`find_contacts`](mod@find_contacts): it owns the split of their work
//! across the task pool, and on each piece runs the broad phase's search and then the exact tests
//! of the pairs found.
//!
//! Each stage owns the resource it writes and reads only those of the stages before it:
//! [`PlacedColliders`](placed::PlacedColliders) and the bodies' `Parts` (prepare), `BroadPhase`
//! (its groups and grid) and `NarrowPhase` (find contacts), and the public
//! [`Contacts`](crate::Contacts) (events). `BodyChanges` passes a note from prepare to events:
//! whether a part's body changed, and so which contacts keep old bodies. Spatial queries read
//! what prepare wrote. The plugin puts each
//! system into its [`CollisionSystems`](crate::CollisionSystems) set;
//! [`ParallelSplit`](parallel::ParallelSplit) is the one rule by which a stage decides whether, and
//! how finely, to split its work across the task pool, and the one way it runs the pieces. Each
//! system, the grid's search and the exact tests are `#[inline(never)]`, so that a profiler (the
//! scene bench's `--instructions`) counts each under its own name.

pub(crate) mod broad_phase;
mod events;
mod find_contacts;
mod narrow_phase;
mod parallel;
pub(crate) mod parts;
pub(crate) mod placed;
mod prepare;
pub(crate) mod spatial_index;
mod triggers;

pub(crate) use events::write_contact_events as events;
pub(crate) use find_contacts::{find_contacts, find_filtered_contacts};
pub(crate) use prepare::place_colliders as prepare;

use bevy::prelude::*;

/// Initialises the resources the stages own.
pub(crate) fn init(app: &mut App) {
    app.init_resource::<placed::PlacedColliders>()
        .init_resource::<broad_phase::BroadPhase>()
        .init_resource::<narrow_phase::NarrowPhase>()
        .init_resource::<triggers::ContactEventKeys>()
        .init_resource::<triggers::TriggerRoom>()
        .init_resource::<parts::Parts>()
        .init_resource::<parts::BodyChanges>()
        .init_resource::<spatial_index::SpatialIndex>();
}
