//! The per-frame stages, in order: [`prepare`] places every collider in the world,
//! [`broad_phase`] finds the pairs whose bounding circles meet, [`narrow_phase`] runs the
//! exact test on each, and [`events`] turns the result into messages and triggers.
//!
//! Each stage owns the resource it writes and reads only those of the stages before it:
//! [`Bodies`](bodies::Bodies) (prepare), `BroadPhase`, `NarrowPhase`, and the public
//! [`Contacts`](crate::Contacts) (events). The plugin puts each stage's system into its
//! [`CollisionSystems`](crate::CollisionSystems) set; [`ParallelSplit`](parallel::ParallelSplit)
//! is the one rule by which a stage decides whether, and how finely, to split its work across
//! the task pool. Each stage's system is `#[inline(never)]`, so that a profiler (the scene
//! bench's `--instructions`) counts it under its own name.

pub(crate) mod bodies;
pub(crate) mod broad_phase;
mod events;
mod narrow_phase;
mod parallel;
mod prepare;
pub(crate) mod spatial_index;

pub(crate) use broad_phase::find_candidate_pairs as broad_phase;
pub(crate) use events::write_contact_events as events;
pub(crate) use narrow_phase::test_candidate_pairs as narrow_phase;
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
