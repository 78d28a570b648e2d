//! [`ParallelSplit`]: the one rule by which a stage splits its work across the task pool, the
//! one way it runs the pieces, and the way it wakes the pool's threads ahead of a split.

use crate::settings::CollisionSettings;
use bevy::platform::time::Instant;
use bevy::tasks::ComputeTaskPool;
use core::panic::AssertUnwindSafe;
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use core::time::Duration;
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

    /// How many pieces per thread the work is cut into: enough that a thread done early takes
    /// another (8 and 16 measured slower on two threads, the pieces' own cost showing).
    const PIECES_PER_THREAD: usize = 4;

    /// How long the calling thread waits for the pieces running elsewhere, checking, before
    /// it leaves the rest of the wait to the task pool's scope (asleep, woken when they end);
    /// and how long a thread woken ahead of a split waits for it (see
    /// [`wake_ahead`](Self::wake_ahead)).
    const MOST_CHECKING: Duration = Duration::from_micros(200);

    /// How to split `len` items into about [`PIECES_PER_THREAD`](Self::PIECES_PER_THREAD)
    /// pieces per thread, or `None` to run them on the calling thread: when the pool has one
    /// thread, or there are fewer than [`CollisionSettings::parallel_threshold`] items.
    pub fn of(len: usize, settings: &CollisionSettings) -> Option<Self> {
        let pool = ComputeTaskPool::try_get().filter(|pool| pool.thread_num() > 1)?;
        (len >= settings.parallel_threshold).then(|| Self {
            pool,
            piece_size: len
                .div_ceil(pool.thread_num() * Self::PIECES_PER_THREAD)
                .max(Self::MIN_PIECE),
        })
    }

    /// Wakes the pool's other threads ahead of a split that the caller may make, after some
    /// work of its own, of up to `len` items (none if [`of`](Self::of) would not split them):
    /// each waits in a task of the pool, checking, until a split starts, the returned guard is
    /// dropped, or [`MOST_CHECKING`](Self::MOST_CHECKING) passes, and then takes the split's
    /// pieces at once. A thread the split itself wakes starts its first piece 12 to 23 µs
    /// after the calling thread on a virtual machine whose idle cores halt: the work done
    /// meanwhile hides that. Keep the guard for no longer than the system that makes the
    /// split runs: a thread waiting is a thread other systems cannot use.
    #[must_use = "the threads stop waiting when the guard is dropped"]
    pub fn wake_ahead(len: usize, settings: &CollisionSettings) -> WokenAhead {
        let Some(split) = Self::of(len, settings) else {
            return WokenAhead { woken: false };
        };
        let seen = WAKE_EPOCH.load(Ordering::Acquire);
        for _ in 1..split.pool.thread_num() {
            let epoch_moved = move || (WAKE_EPOCH.load(Ordering::Acquire) != seen).then_some(());
            let wait = async move {
                spin_until(Self::MOST_CHECKING, epoch_moved);
            };
            split.pool.spawn(wait).detach();
        }
        WokenAhead { woken: true }
    }

    /// Runs `work` on every piece, on the calling thread and on the pool's other threads, and
    /// returns the results in the order of `pieces`. `work` may hand back more pieces (pushed
    /// onto its second argument), which are run the same way; their results come after those
    /// of `pieces`, in an order that depends on the threads. `work` must never block or wait
    /// for the pool: the calling thread may be waiting for it.
    ///
    /// Each thread takes the next piece that no thread has taken, until none is left. The
    /// calling thread then waits for the pieces still running elsewhere checking rather than
    /// asleep, for up to [`MOST_CHECKING`](Self::MOST_CHECKING): a piece is short, and a thread
    /// put to sleep in the task pool's scope is woken tens of microseconds after the last piece
    /// ends (on a two-core machine, about a twelfth of the whole frame at 50,000 bullets). The
    /// other threads' tasks end as soon as they find no piece left; one that starts late finds
    /// none and ends at once. (With more than two threads, pieces handed back after some tasks
    /// have ended are run by fewer threads.)
    ///
    /// A panic in `work` stops the pieces not yet taken and is resumed once no thread runs
    /// one.
    pub fn work_through<P: Send, T: Send>(
        &self,
        pieces: Vec<P>,
        work: impl Fn(P, &mut Vec<P>) -> T + Sync,
    ) -> Vec<T> {
        let piece_count = pieces.len();
        let state = Shared {
            queue: Mutex::new(Queue {
                pieces: pieces.into_iter().enumerate().collect(),
                next_index: piece_count,
            }),
            waiting: AtomicUsize::new(piece_count),
            unfinished: AtomicUsize::new(piece_count),
            panicked: AtomicBool::new(false),
            results: Mutex::new(Vec::with_capacity(piece_count)),
        };
        let (shared, work) = (&state, &work);
        let mut caller_panic = None;
        self.pool.scope(|scope| {
            for _ in 1..self.pool.thread_num().min(piece_count) {
                scope.spawn(async move { shared.take_and_run(work) });
            }
            // The threads woken ahead stop waiting: they take the tasks just spawned.
            end_waits_ahead();
            loop {
                // Caught, so that it unwinds only once the other threads are done with the
                // pieces, which borrow from the caller.
                let run = std::panic::catch_unwind(AssertUnwindSafe(|| shared.take_and_run(work)));
                caller_panic = caller_panic.take().or(run.err());
                if !shared.wait_for_others(Self::MOST_CHECKING) {
                    // Done, or still running after the wait: the scope waits for the rest.
                    break;
                }
                // A piece was handed back while this thread waited: take it too.
            }
        });
        if let Some(panic) = caller_panic {
            std::panic::resume_unwind(panic);
        }
        let mut results = state
            .results
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        results.sort_unstable_by_key(|(index, _)| *index);
        results.into_iter().map(|(_, result)| result).collect()
    }
}

/// Moves on when a split starts or a [`WokenAhead`] guard is dropped, in any app of the
/// process: what the threads woken by [`ParallelSplit::wake_ahead`] wait for (another app's
/// split or guard ends their wait early, and costs nothing but that).
static WAKE_EPOCH: AtomicUsize = AtomicUsize::new(0);

/// Ends the waits of the threads woken ahead (released after the split's tasks are spawned,
/// so that a thread that sees it finds them).
fn end_waits_ahead() {
    WAKE_EPOCH.fetch_add(1, Ordering::Release);
}

/// Returned by [`ParallelSplit::wake_ahead`]: dropped, it ends the wait of the threads woken
/// ahead, whether or not a split came.
pub(crate) struct WokenAhead {
    /// Whether any thread was woken (if not, another app's woken threads are left waiting).
    woken: bool,
}

impl Drop for WokenAhead {
    fn drop(&mut self) {
        if self.woken {
            end_waits_ahead();
        }
    }
}

/// Checks `check` over and over until it gives a value, for up to `most`: that value, or
/// `None` once the time is up.
fn spin_until<R>(most: Duration, mut check: impl FnMut() -> Option<R>) -> Option<R> {
    let start = Instant::now();
    let mut checks: u32 = 0;
    loop {
        if let Some(value) = check() {
            return Some(value);
        }
        checks = checks.wrapping_add(1);
        // The clock read now and then: it costs more than a check.
        if checks.is_multiple_of(64) && start.elapsed() > most {
            return None;
        }
        core::hint::spin_loop();
    }
}

/// What the threads of [`ParallelSplit::work_through`] share.
struct Shared<P, T> {
    queue: Mutex<Queue<P>>,
    /// How many pieces the queue holds, to be read without its lock.
    waiting: AtomicUsize,
    /// The pieces not yet finished, taken or not.
    unfinished: AtomicUsize,
    /// Whether a piece's work panicked: no more pieces are taken.
    panicked: AtomicBool,
    /// The finished pieces' results, with their pieces' indices.
    results: Mutex<Vec<(usize, T)>>,
}

/// The pieces no thread has taken yet.
struct Queue<P> {
    /// The pieces, with their indices.
    pieces: VecDeque<(usize, P)>,
    /// The index of the next piece handed back.
    next_index: usize,
}

impl<P, T> Shared<P, T> {
    /// Takes and runs pieces until none is waiting.
    fn take_and_run(&self, work: &impl Fn(P, &mut Vec<P>) -> T) {
        let mut handed_back = Vec::new();
        while let Some((index, piece)) = self.take() {
            // Counted as finished even if `work` panics, so that no thread waits for it.
            let finished = Finished(self);
            let result = work(piece, &mut handed_back);
            if !handed_back.is_empty() {
                // Counted before this piece is finished, so the count never reads zero early.
                self.unfinished
                    .fetch_add(handed_back.len(), Ordering::Relaxed);
                let mut queue = lock(&self.queue);
                let first = queue.next_index;
                queue.next_index += handed_back.len();
                self.waiting.fetch_add(handed_back.len(), Ordering::Relaxed);
                queue.pieces.extend((first..).zip(handed_back.drain(..)));
            }
            lock(&self.results).push((index, result));
            drop(finished);
        }
    }

    /// The next piece no thread has taken, if any (none once a piece has panicked).
    fn take(&self) -> Option<(usize, P)> {
        if self.panicked.load(Ordering::Relaxed) {
            return None;
        }
        let mut queue = lock(&self.queue);
        let next = queue.pieces.pop_front()?;
        self.waiting.fetch_sub(1, Ordering::Relaxed);
        Some(next)
    }

    /// Waits, checking, up to `most` for the pieces running on other threads: `true` when
    /// one of them handed back a piece meanwhile (to be taken), `false` when all are finished
    /// or the time is up.
    fn wait_for_others(&self, most: Duration) -> bool {
        spin_until(most, || {
            if self.unfinished.load(Ordering::Acquire) == 0 {
                Some(false)
            } else if self.waiting.load(Ordering::Relaxed) > 0
                && !self.panicked.load(Ordering::Relaxed)
            {
                Some(true)
            } else {
                None
            }
        })
        .unwrap_or(false)
    }
}

/// Counts one piece finished when dropped (when its work returns or unwinds); an unwinding
/// piece stops the others from being taken.
struct Finished<'a, P, T>(&'a Shared<P, T>);

impl<P, T> Drop for Finished<'_, P, T> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.panicked.store(true, Ordering::Relaxed);
        }
        self.0.unfinished.fetch_sub(1, Ordering::Release);
    }
}

/// Locks `mutex`, whether or not a panicking thread held it: for state shared by the pieces of
/// a split that is changed only in single steps, never left half-done.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The compute pool with two threads, for tests of the parallel paths (the lib's tests share
/// one pool; without Bevy's `multi_threaded`, its pools have no threads of their own, so such
/// tests need the `parallel` feature).
#[cfg(all(test, feature = "parallel"))]
pub(crate) fn two_thread_pool() -> &'static ComputeTaskPool {
    use bevy::tasks::TaskPoolBuilder;
    let pool = ComputeTaskPool::get_or_init(|| TaskPoolBuilder::new().num_threads(2).build());
    assert!(pool.thread_num() > 1, "the pool needs two threads");
    pool
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A split into pieces of one item over a pool of two threads.
    #[cfg(feature = "parallel")]
    fn two_threads() -> ParallelSplit {
        ParallelSplit {
            pool: two_thread_pool(),
            piece_size: 1,
        }
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn every_piece_runs_once_and_the_results_keep_their_order() {
        let split = two_threads();
        let threads = Mutex::new(std::collections::HashSet::new());
        for round in 0..50 {
            let runs = AtomicUsize::new(0);
            // Every seventh piece hands back two more, one of which hands back one more.
            let results = split.work_through((0..40).collect(), |piece: u64, handed_back| {
                runs.fetch_add(1, Ordering::Relaxed);
                lock(&threads).insert(std::thread::current().id());
                if piece < 1000 && piece.is_multiple_of(7) {
                    handed_back.extend([1000 + piece, 2000 + piece]);
                } else if (1000..2000).contains(&piece) {
                    handed_back.push(10_000 + piece);
                }
                // Long enough for the other thread to wake and take some.
                let start = Instant::now();
                while start.elapsed() < Duration::from_micros(20) {
                    core::hint::spin_loop();
                }
                2 * piece
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
        assert!(lock(&threads).len() > 1, "no piece ran on another thread");
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

    /// Pieces far longer than the calling thread waits checking: it leaves the wait for the
    /// last ones to the scope, and every result is still there, in order.
    #[cfg(feature = "parallel")]
    #[test]
    fn pieces_longer_than_the_check_are_waited_for() {
        let split = two_threads();
        let slow = 5 * ParallelSplit::MOST_CHECKING;
        for _ in 0..5 {
            let results = split.work_through((0..6).collect(), |piece: usize, _| {
                std::thread::sleep(slow);
                piece
            });
            assert_eq!(results, (0..6).collect::<Vec<_>>());
        }
    }

    /// How many threads ran pieces of one split of 40 pieces of 100 µs each, made in a task
    /// of the pool (as a system's is), which this thread waits for without running tasks.
    #[cfg(feature = "parallel")]
    fn threads_of_a_split() -> usize {
        let split = two_threads();
        let task = split.pool.spawn(async move {
            let threads = Mutex::new(std::collections::HashSet::new());
            split.work_through((0..40).collect(), |_: u8, _| {
                lock(&threads).insert(std::thread::current().id());
                let start = Instant::now();
                while start.elapsed() < Duration::from_micros(100) {
                    core::hint::spin_loop();
                }
            });
            lock(&threads).len()
        });
        bevy::tasks::block_on(task)
    }

    /// Threads woken ahead take the pieces of the split that follows; woken with no split
    /// following, they stop waiting (when the guard is dropped) and leave the pool free. A
    /// thread that went on waiting would leave every piece to the pool's other thread. (Not
    /// caught here: a thread that ignored the split and the guard but stopped after its
    /// 0.2 ms, which only costs time.)
    #[cfg(feature = "parallel")]
    #[test]
    fn threads_woken_ahead_take_the_next_split_or_stop_waiting() {
        let pool = two_thread_pool();
        let settings = CollisionSettings {
            parallel_threshold: 1,
        };
        let split = ParallelSplit::of(2, &settings).expect("a split");
        assert!(core::ptr::eq(split.pool, pool));
        // On a loaded machine (other tests share the pool and the cores) a thread may miss a
        // split: one of several must reach both.
        let both_in_one_of = |splits: usize| (0..splits).any(|_| threads_of_a_split() == 2);
        let woken = ParallelSplit::wake_ahead(2, &settings);
        assert!(both_in_one_of(100));
        drop(woken);
        let seen = WAKE_EPOCH.load(Ordering::Acquire);
        drop(ParallelSplit::wake_ahead(2, &settings));
        assert_ne!(
            WAKE_EPOCH.load(Ordering::Acquire),
            seen,
            "the guard ends the wait"
        );
        std::thread::sleep(2 * ParallelSplit::MOST_CHECKING);
        assert!(both_in_one_of(100));
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn no_pieces_no_work() {
        let results: Vec<()> =
            two_threads().work_through(Vec::<u8>::new(), |_, _| panic!("there is no piece to run"));
        assert!(results.is_empty());
    }
}
