//! The per-frame stages, in order: [`prepare`] places every collider in the world,
//! [`broad_phase`] finds the pairs whose bounding circles meet, [`narrow_phase`] runs the
//! exact test on each, and [`events`] turns the result into messages and triggers.
//!
//! Each stage owns the resource it writes and reads only those of the stages before it:
//! [`Bodies`](bodies::Bodies) (prepare), `BroadPhase`, `NarrowPhase`, and the public
//! [`Contacts`](crate::Contacts) (events). The plugin puts each stage's system into its
//! [`CollisionSystems`](crate::CollisionSystems) set; [`ParallelSplit`] is the one rule by which
//! a stage decides whether, and how finely, to split its work across the task pool.

pub(crate) mod bodies;
mod broad_phase;
mod events;
mod narrow_phase;
mod prepare;

pub(crate) use broad_phase::find_candidate_pairs as broad_phase;
pub(crate) use events::write_contact_events as events;
pub(crate) use narrow_phase::test_candidate_pairs as narrow_phase;
pub(crate) use prepare::prepare_bodies as prepare;
pub(crate) use prepare::remember_path_starts;

use crate::settings::CollisionSettings;
use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;

/// Initialises the resources the stages own.
pub(crate) fn init(app: &mut App) {
    app.init_resource::<bodies::Bodies>()
        .init_resource::<broad_phase::BroadPhase>()
        .init_resource::<narrow_phase::NarrowPhase>()
        .init_resource::<events::ContactEventKeys>();
}

/// How a stage splits `len` items of work across Bevy's `ComputeTaskPool`: into pieces of
/// `piece_size` items, each a task of the pool's `scope`.
#[derive(Clone, Copy)]
pub(crate) struct ParallelSplit {
    pub pool: &'static ComputeTaskPool,
    pub piece_size: usize,
}

impl ParallelSplit {
    /// The fewest items in a piece: below it a task costs more than it saves.
    const MIN_PIECE: usize = 64;

    /// How to split `len` items into about `pieces_per_thread` pieces per thread, or `None` to
    /// run them on the calling thread: when the pool has one thread, or there are fewer than
    /// [`CollisionSettings::parallel_threshold`] items.
    pub fn of(len: usize, pieces_per_thread: usize, settings: &CollisionSettings) -> Option<Self> {
        let pool = ComputeTaskPool::try_get().filter(|pool| pool.thread_num() > 1)?;
        (len >= settings.parallel_threshold).then(|| Self {
            pool,
            piece_size: len
                .div_ceil(pool.thread_num() * pieces_per_thread.max(1))
                .max(Self::MIN_PIECE),
        })
    }
}
