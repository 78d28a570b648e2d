//! [`ParallelSplit`]: the one rule by which a stage splits its work across the task pool, and
//! the one way it runs the pieces.

use crate::settings::CollisionSettings;
use bevy::tasks::ComputeTaskPool;
use core::panic::AssertUnwindSafe;
use core::sync::atomic::{AtomicUsize, Ordering};
use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// How a stage splits `len` items of work across Bevy's `ComputeTaskPool`: into pieces of
/// `piece_size` items, run by [`work_through`](Self::work_through).
#[derive(Clone, Copy)]
pub(crate) struct ParallelSplit {
    pub pool: &'static ComputeTaskPool,
    pub piece_size: usize,
}

impl ParallelSplit {
    /// The fewest items in a piece: below it a task costs more than it saves.
    const MIN_PIECE: usize = 64;

    /// How many times the calling thread checks, between yields, whether the pieces other
    /// threads are running have finished.
    const SPINS_BEFORE_YIELD: u32 = 256;

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

    /// Runs `work` on every piece, on the calling thread and on the pool's other threads, and
    /// returns the results in the order of `pieces`. `work` may hand back more pieces (pushed
    /// onto its second argument), which are run the same way; their results come after those
    /// of `pieces`, in an order that depends on the threads.
    ///
    /// Each thread takes the next piece that no thread has taken, until none is left. The
    /// calling thread then waits for the pieces still running elsewhere, checking rather than
    /// sleeping: a piece is short, and a thread put to sleep in the task pool's scope is woken
    /// tens of microseconds after the last piece ends (measured on a two-core machine, where
    /// that was about a twelfth of the whole frame at 50,000 bullets). The other threads' tasks
    /// end as soon as they find no piece left; one that starts late finds none and ends at once.
    ///
    /// A panic in `work` is resumed on the calling thread once no thread runs a piece.
    pub fn work_through<P: Send, T: Send>(
        &self,
        pieces: Vec<P>,
        work: impl Fn(P, &mut Vec<P>) -> T + Sync,
    ) -> Vec<T> {
        let piece_count = pieces.len();
        let shared = Shared {
            queue: Mutex::new(pieces.into_iter().enumerate().collect()),
            waiting: AtomicUsize::new(piece_count),
            unfinished: AtomicUsize::new(piece_count),
            next_index: AtomicUsize::new(piece_count),
            results: Mutex::new(Vec::with_capacity(piece_count)),
        };
        let (shared, work) = (&shared, &work);
        let mut first_panic = None;
        self.pool.scope(|scope| {
            for _ in 1..self.pool.thread_num().min(piece_count) {
                scope.spawn(async move { shared.take_and_run(work) });
            }
            let mut spins = 0;
            loop {
                // Caught, so that it unwinds only once the other threads are done with the
                // pieces, which borrow from the caller.
                let run = std::panic::catch_unwind(AssertUnwindSafe(|| shared.take_and_run(work)));
                first_panic = first_panic.take().or(run.err());
                // Wait for the pieces still running elsewhere; take any they hand back.
                while shared.unfinished.load(Ordering::Acquire) > 0
                    && shared.waiting.load(Ordering::Relaxed) == 0
                {
                    spins += 1;
                    if spins % Self::SPINS_BEFORE_YIELD == 0 {
                        std::thread::yield_now();
                    } else {
                        core::hint::spin_loop();
                    }
                }
                if shared.unfinished.load(Ordering::Acquire) == 0 {
                    break;
                }
            }
        });
        if let Some(panic) = first_panic {
            std::panic::resume_unwind(panic);
        }
        let mut results = core::mem::take(&mut *lock(&shared.results));
        results.sort_unstable_by_key(|(index, _)| *index);
        results.into_iter().map(|(_, result)| result).collect()
    }
}

/// What the threads of [`ParallelSplit::work_through`] share.
struct Shared<P, T> {
    /// The pieces no thread has taken yet, with their indices.
    queue: Mutex<VecDeque<(usize, P)>>,
    /// How many pieces `queue` holds, to be read without the lock.
    waiting: AtomicUsize,
    /// The pieces not yet finished, taken or not.
    unfinished: AtomicUsize,
    /// The index of the next piece handed back.
    next_index: AtomicUsize,
    /// The finished pieces' results, with their pieces' indices.
    results: Mutex<Vec<(usize, T)>>,
}

impl<P, T> Shared<P, T> {
    /// Takes and runs pieces until none is waiting.
    fn take_and_run(&self, work: &impl Fn(P, &mut Vec<P>) -> T) {
        let mut handed_back = Vec::new();
        loop {
            let Some((index, piece)) = self.take() else {
                return;
            };
            // Counted as finished even if `work` panics, so that no thread waits for it.
            let _finished = Finished(&self.unfinished);
            let result = work(piece, &mut handed_back);
            if !handed_back.is_empty() {
                // Counted before this piece is finished, so the count never reads zero early.
                self.unfinished
                    .fetch_add(handed_back.len(), Ordering::Relaxed);
                let first = self
                    .next_index
                    .fetch_add(handed_back.len(), Ordering::Relaxed);
                let mut queue = lock(&self.queue);
                self.waiting.fetch_add(handed_back.len(), Ordering::Relaxed);
                queue.extend((first..).zip(handed_back.drain(..)));
            }
            lock(&self.results).push((index, result));
        }
    }

    /// The next piece no thread has taken, if any.
    fn take(&self) -> Option<(usize, P)> {
        let mut queue = lock(&self.queue);
        let next = queue.pop_front()?;
        self.waiting.fetch_sub(1, Ordering::Relaxed);
        Some(next)
    }
}

/// Counts one piece finished when dropped (when its work returns or unwinds).
struct Finished<'a>(&'a AtomicUsize);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Release);
    }
}

/// Locks `mutex`, whether or not a panicking thread held it: the shared state is changed only
/// in single steps, never left half-done.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A split over a pool of two threads (the lib's tests share one pool; without Bevy's
    /// `multi_threaded`, its pools have no threads of their own, so these tests need the
    /// `parallel` feature).
    #[cfg(feature = "parallel")]
    fn two_threads() -> ParallelSplit {
        use bevy::tasks::TaskPoolBuilder;
        let pool = ComputeTaskPool::get_or_init(|| TaskPoolBuilder::new().num_threads(2).build());
        assert!(pool.thread_num() > 1, "the pool needs two threads");
        ParallelSplit {
            pool,
            piece_size: 1,
        }
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn every_piece_runs_once_and_the_results_keep_their_order() {
        let split = two_threads();
        for round in 0..50 {
            let runs = AtomicUsize::new(0);
            // Every seventh piece hands back two more, one of which hands back one more.
            let results = split.work_through((0..40).collect(), |piece: u64, handed_back| {
                runs.fetch_add(1, Ordering::Relaxed);
                if piece < 1000 && piece.is_multiple_of(7) {
                    handed_back.extend([1000 + piece, 2000 + piece]);
                } else if (1000..2000).contains(&piece) {
                    handed_back.push(10_000 + piece);
                }
                // Some work, so that the threads overlap.
                (0..500).fold(piece, |sum, step| sum.wrapping_mul(31).wrapping_add(step)) % 2
                    + 2 * piece
            });
            let extra = 3 * (0..40).filter(|piece| piece % 7 == 0).count();
            assert_eq!(runs.into_inner(), 40 + extra, "round {round}");
            let values: Vec<u64> = results.iter().map(|result| result / 2).collect();
            assert_eq!(
                values[..40],
                (0..40).collect::<Vec<_>>()[..],
                "round {round}"
            );
            let mut handed_back = values[40..].to_vec();
            handed_back.sort_unstable();
            let mut expected: Vec<u64> = (0..40)
                .filter(|piece| piece % 7 == 0)
                .flat_map(|piece| [1000 + piece, 2000 + piece, 11_000 + piece])
                .collect();
            expected.sort_unstable();
            assert_eq!(handed_back, expected, "round {round}");
        }
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn a_panic_in_a_piece_reaches_the_caller_and_nothing_hangs() {
        let split = two_threads();
        // Whichever thread takes the piece that panics (the first, one in the middle, the
        // last), the call returns, with that panic.
        for panicking in [0, 13, 39] {
            let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
                split.work_through((0..40).collect(), |piece: usize, _| {
                    assert_ne!(piece, panicking, "the piece that panics");
                })
            }));
            let payload = outcome.expect_err("the panic was lost");
            let message = payload
                .downcast_ref::<String>()
                .expect("an assertion's message");
            assert!(message.contains("the piece that panics"), "{message}");
        }
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn no_pieces_no_work() {
        let results: Vec<()> =
            two_threads().work_through(Vec::<u8>::new(), |_, _| panic!("there is no piece to run"));
        assert!(results.is_empty());
    }
}
