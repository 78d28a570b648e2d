//! [`ParallelSplit`]: the one rule by which a stage splits its work across the task pool, and
//! the one way it runs the pieces.
//!
//! The compute pool belongs to the whole game: a split's threads take pieces while there are
//! any and then leave; a thread that waits for the others (the calling one) waits asleep, in
//! the pool's scope, and no thread is held past the system that made the split.

use crate::settings::CollisionSettings;
use bevy::tasks::{ComputeTaskPool, Scope};
use core::panic::AssertUnwindSafe;
use core::sync::atomic::{AtomicBool, Ordering};
use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// How a stage splits `len` items of work across Bevy's `ComputeTaskPool`: into pieces of
/// `piece_size` items, run by [`work_through`](Self::work_through) on up to `threads` threads.
#[derive(Clone, Copy)]
pub(crate) struct ParallelSplit {
    pub pool: &'static ComputeTaskPool,
    pub piece_size: usize,
    /// The threads that run the pieces, the calling one included: the pool's, but no more
    /// than the machine has cores.
    pub threads: usize,
}

impl ParallelSplit {
    /// The fewest items in a piece: below it a task costs more than it saves.
    const MIN_PIECE: usize = 64;

    /// How many pieces per thread the work is cut into: enough that a thread done early takes
    /// another (8 and 16 measured slower on two threads, the pieces' own cost showing).
    const PIECES_PER_THREAD: usize = 4;

    /// How to split `len` items into about [`PIECES_PER_THREAD`](Self::PIECES_PER_THREAD)
    /// pieces per thread, or `None` to run them on the calling thread: when the pool has one
    /// thread, or the machine one core, or there are fewer than
    /// [`CollisionSettings::parallel_threshold`] items, or none.
    ///
    /// A pool with more threads than the machine has cores (one sized for a larger machine,
    /// or set so by the game) is used by as many threads as there are cores: more would only
    /// take turns on them, each turn a thread woken and put to sleep.
    pub fn of(len: usize, settings: &CollisionSettings) -> Option<Self> {
        let pool = ComputeTaskPool::try_get()?;
        let threads = pool.thread_num().min(cores());
        // Nothing to do is not split, even at a threshold of zero.
        let enough = len > 0 && len >= settings.parallel_threshold;
        (threads > 1 && enough).then(|| Self {
            pool,
            piece_size: len
                .div_ceil(threads * Self::PIECES_PER_THREAD)
                .max(Self::MIN_PIECE),
            threads,
        })
    }

    /// Runs `work` on every piece, on the calling thread and on the pool's other threads, and
    /// returns the results in the order of `pieces`. `work` may hand back more pieces (pushed
    /// onto its second argument), which are run the same way; their results come after those
    /// of `pieces`, in an order that depends on the threads.
    ///
    /// Each thread takes the next piece that no thread has taken, until none is left, and
    /// then its task ends. A thread that hands back pieces while fewer than
    /// [`threads`](Self::threads) take pieces starts another task for them. The calling
    /// thread, once it finds no piece, waits for the pieces still running elsewhere as the
    /// pool's scope does: asleep, or running other tasks of the pool.
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
                // The calling thread, and the workers started below.
                working: self.threads.min(piece_count).max(1),
            }),
            threads: self.threads,
            panic: Mutex::new(None),
            panicked: AtomicBool::new(false),
            results: Mutex::new(Vec::with_capacity(piece_count)),
        };
        let (shared, work) = (&state, &work);
        self.pool.scope(|scope| {
            for _ in 1..self.threads.min(piece_count) {
                shared.start_worker(work, scope);
            }
            shared.work(work, scope);
        });
        let Shared { panic, results, .. } = state;
        if let Some(panic) = panic.into_inner().unwrap_or_else(PoisonError::into_inner) {
            std::panic::resume_unwind(panic);
        }
        let mut results = results.into_inner().unwrap_or_else(PoisonError::into_inner);
        results.sort_unstable_by_key(|(index, _)| *index);
        results.into_iter().map(|(_, result)| result).collect()
    }
}

/// The cores this process may run on (asked once: the answer costs a system call or more).
pub(crate) fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |cores| cores.get()))
}

/// What the threads of [`ParallelSplit::work_through`] share.
struct Shared<P, T> {
    queue: Mutex<Queue<P>>,
    /// The most threads that take pieces at once.
    threads: usize,
    /// The first panic of a piece's work, resumed once every thread is done.
    panic: Mutex<Option<Box<dyn core::any::Any + Send>>>,
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
    /// How many threads take pieces now: counted under the queue's lock as a thread is
    /// started, and as it finds no piece or its piece panics, so that a thread handing back
    /// pieces sees exactly who is still at work.
    working: usize,
}

impl<P: Send, T: Send> Shared<P, T> {
    /// Starts a task on the pool that takes pieces too (counted in [`Queue::working`] by the
    /// caller).
    fn start_worker<'scope, W>(&'scope self, work: &'scope W, scope: &'scope Scope<'scope, '_, ()>)
    where
        W: Fn(P, &mut Vec<P>) -> T + Sync,
    {
        scope.spawn(async move { self.work(work, scope) });
    }

    /// Takes and runs pieces until none is waiting, then stops; a panic is kept for the
    /// caller, and stops the others.
    fn work<'scope, W>(&'scope self, work: &'scope W, scope: &'scope Scope<'scope, '_, ()>)
    where
        W: Fn(P, &mut Vec<P>) -> T + Sync,
    {
        let run = std::panic::catch_unwind(AssertUnwindSafe(|| self.take_and_run(work, scope)));
        if let Err(payload) = run {
            // It stopped in a piece's work, not where `take` counts it out.
            lock(&self.queue).working -= 1;
            self.panicked.store(true, Ordering::Relaxed);
            lock(&self.panic).get_or_insert(payload);
        }
    }

    /// Takes and runs pieces until none is waiting.
    fn take_and_run<'scope, W>(&'scope self, work: &'scope W, scope: &'scope Scope<'scope, '_, ()>)
    where
        W: Fn(P, &mut Vec<P>) -> T + Sync,
    {
        let mut handed_back = Vec::new();
        while let Some((index, piece)) = self.take() {
            let panicking = Panicking(self);
            let result = work(piece, &mut handed_back);
            core::mem::forget(panicking);
            let handed = handed_back.len();
            if handed > 0 {
                let mut queue = lock(&self.queue);
                let first = queue.next_index;
                queue.next_index += handed;
                queue.pieces.extend((first..).zip(handed_back.drain(..)));
                // Threads that found no piece have left: enough come back for these.
                let start = self.threads.saturating_sub(queue.working).min(handed);
                queue.working += start;
                drop(queue);
                for _ in 0..start {
                    self.start_worker(work, scope);
                }
            }
            lock(&self.results).push((index, result));
        }
    }

    /// The next piece no thread has taken, if any (none once a piece has panicked); where there
    /// is none, the calling thread stops, and is counted out of [`Queue::working`].
    fn take(&self) -> Option<(usize, P)> {
        let mut queue = lock(&self.queue);
        let next = if self.panicked.load(Ordering::Relaxed) {
            None
        } else {
            queue.pieces.pop_front()
        };
        if next.is_none() {
            queue.working -= 1;
        }
        next
    }
}

/// Dropped only while a piece's work unwinds (it is forgotten when the work returns): stops
/// the other pieces from being taken.
struct Panicking<'a, P, T>(&'a Shared<P, T>);

impl<P, T> Drop for Panicking<'_, P, T> {
    fn drop(&mut self) {
        self.0.panicked.store(true, Ordering::Relaxed);
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
    #[cfg(feature = "parallel")]
    use core::sync::atomic::AtomicUsize;
    #[cfg(feature = "parallel")]
    use core::time::Duration;

    /// A split into pieces of one item over a pool of two threads.
    #[cfg(feature = "parallel")]
    fn two_threads() -> ParallelSplit {
        ParallelSplit {
            pool: two_thread_pool(),
            piece_size: 1,
            threads: 2,
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
                std::thread::sleep(Duration::from_micros(20));
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

    /// Pieces that sleep (a thread descheduled mid-piece): the calling thread, out of
    /// pieces, waits for them, and every result is there, in order.
    #[cfg(feature = "parallel")]
    #[test]
    fn pieces_still_running_elsewhere_are_waited_for() {
        let split = two_threads();
        for _ in 0..5 {
            let results = split.work_through((0..6).collect(), |piece: usize, _| {
                std::thread::sleep(Duration::from_millis(1));
                piece
            });
            assert_eq!(results, (0..6).collect::<Vec<_>>());
        }
    }

    /// A crowded piece hands back its work after the other thread found no piece and left: a
    /// thread comes back for it, and the pieces handed back run on both threads. (Before,
    /// the thread that handed them back ran them all.)
    #[cfg(feature = "parallel")]
    #[test]
    fn pieces_handed_back_late_are_shared() {
        let split = two_threads();
        let shared_in_a_round = (0..10).any(|_| {
            let threads = Mutex::new(std::collections::HashSet::new());
            split.work_through(vec![0_u32, 1], |piece, handed_back| match piece {
                // The other thread takes piece 1 meanwhile, finds no more, and leaves.
                0 => {
                    std::thread::sleep(Duration::from_millis(5));
                    handed_back.extend(100..120);
                }
                1 => {}
                _ => {
                    lock(&threads).insert(std::thread::current().id());
                    // 20 ms in all: time for the other thread to wake on a busy machine.
                    std::thread::sleep(Duration::from_millis(1));
                }
            });
            lock(&threads).len() == 2
        });
        assert!(shared_in_a_round, "one thread ran every piece handed back");
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn no_pieces_no_work() {
        let results: Vec<()> =
            two_threads().work_through(Vec::<u8>::new(), |_, _| panic!("there is no piece to run"));
        assert!(results.is_empty());
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn nothing_to_do_is_not_split_even_at_a_threshold_of_zero() {
        two_thread_pool();
        let everything = CollisionSettings {
            parallel_threshold: 0,
            ..Default::default()
        };
        assert!(ParallelSplit::of(0, &everything).is_none());
        // A machine of one core never splits.
        assert_eq!(ParallelSplit::of(1, &everything).is_some(), cores() > 1);
    }
}
