//! The per-frame stages, in order: [`prepare`] places every collider in the world, the
//! [`broad_phase`] finds the pairs whose bounding circles meet, the [`narrow_phase`] runs the
//! exact test on each, and [`events`] turns the result into messages and triggers. The broad
//! and narrow phases run in one system, the narrow phase's: it hands the broad phase the
//! exact test to run on each batch of pairs, mostly on the thread that found them.
//!
//! Each stage owns the resource it writes and reads only those of the stages before it:
//! [`Bodies`](bodies::Bodies) (prepare), `BroadPhase` (its groups, grid and scratch space),
//! `NarrowPhase`, and the public [`Contacts`](crate::Contacts) (events). The plugin puts each
//! system into its [`CollisionSystems`](crate::CollisionSystems) set;
//! [`ParallelSplit`](parallel::ParallelSplit) is the one rule by which a stage decides whether,
//! and how finely, to split its work across the task pool, and the one way it runs the
//! pieces. Each system, and the broad phase's
//! search, is `#[inline(never)]`, so that a profiler (the scene bench's `--instructions`)
//! counts it under its own name.

pub(crate) mod bodies;
pub(crate) mod broad_phase;
mod events;
mod narrow_phase;
mod parallel;
mod prepare;
pub(crate) mod spatial_index;

pub(crate) use events::write_contact_events as events;
pub(crate) use narrow_phase::find_contacts as narrow_phase;
pub(crate) use prepare::prepare_bodies as prepare;
pub(crate) use prepare::remember_path_starts;

use bevy::prelude::*;

/// Initialises the resources the stages own.
pub(crate) fn init(app: &mut App) {
    app.init_resource::<bodies::Bodies>()
        .init_resource::<broad_phase::BroadPhase>()
        .init_resource::<narrow_phase::NarrowPhase>()
        .init_resource::<events::ContactEventKeys>()
        .init_resource::<spatial_index::SpatialIndex>();
}
