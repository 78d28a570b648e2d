//! [`ParallelSplit`]: the one rule by which a stage splits its work across the task pool.

use crate::settings::CollisionSettings;
use bevy::tasks::ComputeTaskPool;

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
