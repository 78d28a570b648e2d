//! Stages 2 and 3 in one system, find contacts: the broad phase's passes find the candidate
//! pairs, and the narrow phase's exact tests turn them into contacts, a batch at a time, as
//! they are found.
//!
//! This stage owns the split of the work across Bevy's `ComputeTaskPool` (see
//! [`ParallelSplit`]): with enough colliders in a pass, their search is cut into pieces, and each
//! piece's thread tests the pairs it found, so that no list of every candidate is written and
//! read again. A crowded piece (colliders spawned together over the same targets) hands its
//! extra pairs back for another thread to test. With too few colliders to split but enough pairs
//! (a crowd over one target), the pairs alone are split. The broad phase and its grid know
//! nothing of this: they build, and answer "which pairs among these colliders".

use super::broad_phase::{BroadPhase, Grid, Pass};
use super::narrow_phase::NarrowPhase;
use super::parallel::ParallelSplit;
use super::parts::Parts;
use super::placed::PlacedColliders;
use crate::contacts::Contacts;
use crate::filter::{FilterPairs, PairFilter};
use crate::settings::CollisionSettings;
use bevy::ecs::error::{BevyError, Severity};
use bevy::ecs::system::{
    ReadOnlySystemParam, StaticSystemParam, SystemParam, SystemParamValidationError,
};
use bevy::prelude::*;
use core::ops::Range;

/// What every run of the stage reads and writes, whether a [`PairFilter`] is installed or not.
#[derive(SystemParam)]
pub(crate) struct Stage<'w, 's> {
    placed: Res<'w, PlacedColliders>,
    previous: Res<'w, Contacts>,
    settings: Res<'w, CollisionSettings>,
    broad_phase: ResMut<'w, BroadPhase>,
    narrow_phase: ResMut<'w, NarrowPhase>,
    scratch: Local<'s, SearchScratch>,
    parts: Res<'w, Parts>,
}

/// Finds this run's contacts: every pass of the broad phase, its pairs tested as found.
#[inline(never)]
pub(crate) fn find_contacts(stage: Stage) {
    stage.run(&|_, _| true);
}

/// [`find_contacts`], with the installed [`PairFilter`] asked about each pair in which a
/// collider carries [`FilterPairs`]. While no collider carries it, the same as without.
///
/// The filter's own parameters are checked here, every run, not by Bevy before the system runs (which
/// would skip the whole search, and end every contact of the world): while they ask to be
/// skipped (a `Single` that matches no entity, or several), the filter is not asked; where
/// they are wrong (a resource that does not exist), the search runs without the filter and
/// the error goes to Bevy's error handler as a warning, once until the parameters are right
/// again (Bevy's default handler would panic at an error, and a warning each run would flood
/// the log).
#[inline(never)]
pub(crate) fn find_filtered_contacts<F>(
    stage: Stage,
    filter: Result<StaticSystemParam<F>, SystemParamValidationError>,
    filtered: Query<(), With<FilterPairs>>,
    mut failing: Local<bool>,
) -> Result
where
    F: ReadOnlySystemParam,
    for<'w, 's> F::Item<'w, 's>: PairFilter,
{
    let filter = match filter {
        Ok(filter) => filter,
        Err(error) => {
            find_contacts(stage);
            let new = !error.skipped && !core::mem::replace(&mut *failing, true);
            return match new {
                true => Err(BevyError::from(error).with_severity(Severity::Warning)),
                false => Ok(()),
            };
        }
    };
    *failing = false;
    if filtered.is_empty() {
        find_contacts(stage);
    } else {
        let filter = &*filter;
        let keep = |a, b| !(filtered.contains(a) || filtered.contains(b)) || filter.allows(a, b);
        stage.run(&keep);
    }
    Ok(())
}

impl Stage<'_, '_> {
    /// Every pass of the broad phase, its pairs tested as found: those `keep` keeps.
    /// The parts of one body that makes no contacts between its parts are left out before
    /// anything else is asked of them: no exact test, no filter.
    fn run(mut self, keep: &(impl Fn(Entity, Entity) -> bool + Sync)) {
        let parts = &*self.parts;
        let keep = &|a, b| !parts.one_body(a, b) && keep(a, b);
        let (tests, mut lists) = self.narrow_phase.start(&self.placed, &self.previous);
        let search = Search {
            placed: &self.placed,
            settings: &self.settings,
            test: &|pairs: &[[u32; 2]], list: &mut Vec<_>| tests.test(pairs, list, keep),
        };
        let scratch = &mut *self.scratch;
        self.broad_phase.passes(&self.placed, |grid, pass| {
            search.pass(grid, &pass, scratch, &mut lists);
        });
        self.narrow_phase.finish(tests, lists);
    }
}

/// Scratch space of the search, kept between runs.
#[derive(Default)]
pub(crate) struct SearchScratch {
    /// The pieces a large pass is cut into.
    pieces: Vec<Range<u32>>,
    /// The pairs of a pass searched on the calling thread.
    pairs: Vec<[u32; 2]>,
}

/// What every pass of one run shares.
struct Search<'a, F> {
    placed: &'a PlacedColliders,
    settings: &'a CollisionSettings,
    /// The exact tests: appends what it makes of a batch of pairs to a list.
    test: &'a F,
}

/// A piece of a pass split across threads.
enum Work<'a> {
    /// Find the pairs of these runs' colliders, then test them.
    Search(&'a [Range<u32>]),
    /// Test these pairs, found by another piece.
    Test(Vec<[u32; 2]>),
}

impl<F> Search<'_, F> {
    /// Finds the pairs of `pass` in `grid` and hands them to the tests in batches, each pair
    /// once. What the tests make goes into `lists`: onto the first list, for a pass run on the
    /// calling thread; into a list of its own, pushed onto `lists`, for each piece and each
    /// handed back batch of a split, never copied. Which pair goes where depends on the
    /// thread count.
    fn pass<T: Send>(
        &self,
        grid: &Grid,
        pass: &Pass<'_>,
        scratch: &mut SearchScratch,
        lists: &mut Vec<Vec<T>>,
    ) where
        F: Fn(&[[u32; 2]], &mut Vec<T>) + Sync,
    {
        debug_assert_eq!(
            pass.len,
            pass.runs.iter().map(ExactSizeIterator::len).sum::<usize>()
        );
        let Some(split) = ParallelSplit::of(pass.len, self.settings) else {
            let pairs = &mut scratch.pairs;
            pairs.clear();
            grid.query_runs(self.placed, pass.runs, pass.join, pairs);
            match ParallelSplit::of(pairs.len(), self.settings) {
                Some(split) => {
                    let batches = pairs.chunks(split.piece_size).collect();
                    lists.extend(split.work_through(batches, |batch, _| self.test_alone(batch)));
                }
                None => (self.test)(pairs, first_list(lists)),
            }
            return;
        };
        let pieces = cut(pass.runs, split.piece_size as u32, &mut scratch.pieces);
        // An exact test costs ten to twenty times the search for one collider's pairs: a batch of
        // pairs a quarter of a piece's size is already a few times the piece's own search.
        let batch_size = (split.piece_size / 4).max(1);
        let work = pieces.into_iter().map(Work::Search).collect();
        lists.extend(split.work_through(work, |work, handed_back| {
            let mut pairs = match work {
                Work::Search(runs) => {
                    let mut pairs = Vec::new();
                    grid.query_runs(self.placed, runs, pass.join, &mut pairs);
                    pairs
                }
                Work::Test(pairs) => return self.test_alone(&pairs),
            };
            // Colliders that crowd over the same targets were often spawned together, so they
            // are neighbours in their table and one piece finds all their pairs: those beyond
            // a batch are handed back, for another thread to take.
            while pairs.len() > batch_size {
                let batch = pairs.split_off(pairs.len() - batch_size);
                handed_back.push(Work::Test(batch));
            }
            self.test_alone(&pairs)
        }));
    }

    /// What the tests make of a batch of pairs, in a list of its own.
    fn test_alone<T>(&self, pairs: &[[u32; 2]]) -> Vec<T>
    where
        F: Fn(&[[u32; 2]], &mut Vec<T>),
    {
        let mut made = Vec::new();
        (self.test)(pairs, &mut made);
        made
    }
}

/// Cuts `runs` into pieces of about `piece_size` colliders each, in `scratch`: each piece the
/// runs (or parts of runs) it holds. A piece may hold many short runs.
fn cut<'a>(
    runs: &[Range<u32>],
    piece_size: u32,
    scratch: &'a mut Vec<Range<u32>>,
) -> Vec<&'a [Range<u32>]> {
    scratch.clear();
    let mut piece_ends = Vec::new();
    let mut filled = 0;
    for run in runs {
        let mut start = run.start;
        while start < run.end {
            let end = run.end.min(start + (piece_size - filled));
            scratch.push(start..end);
            filled += end - start;
            if filled == piece_size {
                piece_ends.push(scratch.len());
                filled = 0;
            }
            start = end;
        }
    }
    if filled > 0 {
        piece_ends.push(scratch.len());
    }
    let mut piece_start = 0;
    piece_ends
        .into_iter()
        .map(|piece_end| {
            let piece = &scratch[piece_start..piece_end];
            piece_start = piece_end;
            piece
        })
        .collect()
}

/// The first of `lists`, where a pass run on the calling thread appends (a new one if there
/// is none).
fn first_list<T>(lists: &mut Vec<Vec<T>>) -> &mut Vec<T> {
    if lists.is_empty() {
        lists.push(Vec::new());
    }
    &mut lists[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::{CollisionLayers, LayerMask};
    use crate::pipeline::broad_phase::tests::{brute_force, placed_from, sorted};
    use std::sync::Mutex;

    /// The pairs every pass finds among `placed`, split as `settings` say, and the size of
    /// each batch handed to the tests.
    fn search_all(
        placed: &PlacedColliders,
        settings: &CollisionSettings,
    ) -> (Vec<[u32; 2]>, Vec<usize>) {
        let batches = Mutex::new(Vec::new());
        let test = |batch: &[[u32; 2]], pairs: &mut Vec<[u32; 2]>| {
            batches.lock().unwrap().push(batch.len());
            pairs.extend(batch);
        };
        let search = Search {
            placed,
            settings,
            test: &test,
        };
        let (mut lists, mut scratch) = (Vec::new(), SearchScratch::default());
        BroadPhase::default().passes(placed, |grid, pass| {
            search.pass(grid, &pass, &mut scratch, &mut lists);
        });
        (lists.concat(), batches.into_inner().unwrap())
    }

    /// Split across two threads, with the colliders that crowd over the targets at the start of
    /// the list (so in the first pieces, which hand most of their pairs back for another
    /// thread), or with the pairs alone split (too few colliders to split, but enough pairs):
    /// the same pairs as a quadratic loop, each once, and as found on one thread.
    #[cfg(feature = "parallel")]
    #[test]
    fn pairs_split_across_threads_are_every_pair_once() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        crate::pipeline::parallel::two_thread_pool();
        let (bullets, targets) = (
            CollisionLayers::new(LayerMask::layer(0), LayerMask::layer(1)),
            CollisionLayers::new(
                LayerMask::layer(1),
                LayerMask::layer(0) | LayerMask::layer(1),
            ),
        );
        let mut rng = StdRng::seed_from_u64(11);
        let mut discs: Vec<_> = (0..3000)
            .map(|index| {
                let spread = if index < 800 { 60.0 } else { 600.0 };
                let center =
                    Vec2::new(rng.random_range(0.0..spread), rng.random_range(0.0..spread));
                (center, 2.0, bullets)
            })
            .collect();
        discs.extend((0..40).map(|index| (Vec2::splat(index as f32 * 1.5), 20.0, targets)));
        let placed = placed_from(&discs);
        let expected = brute_force(&placed);
        assert!(expected.len() > 5000, "{}", expected.len());
        let serial = CollisionSettings {
            parallel_threshold: usize::MAX,
            ..default()
        };
        let (pairs, batches) = search_all(&placed, &serial);
        assert_eq!(sorted(&pairs), expected);
        assert_eq!(batches.len(), 2, "one batch per pass on one thread");
        // The bullets' query is cut into pieces and the targets' among themselves is one:
        // more batches than that means the crowded pieces handed pairs back.
        let everything = CollisionSettings {
            parallel_threshold: 1,
            ..default()
        };
        // A machine of one core never splits (see `ParallelSplit::of`): nothing more to test.
        let Some(bullets_split) = ParallelSplit::of(3000, &everything) else {
            assert_eq!(crate::pipeline::parallel::cores(), 1);
            return;
        };
        let pieces = 3000_usize.div_ceil(bullets_split.piece_size) + 1;
        // Searched on one thread (3,000 bullets), but more than that many pairs.
        let pairs_alone = 3500;
        for threshold in [1, pairs_alone] {
            let settings = CollisionSettings {
                parallel_threshold: threshold,
                ..default()
            };
            let (pairs, batches) = search_all(&placed, &settings);
            let least = if threshold == 1 { pieces + 1 } else { 3 };
            assert!(batches.len() >= least, "{threshold}: {batches:?}");
            assert_eq!(sorted(&pairs), expected, "{threshold}");
        }
    }

    #[test]
    fn runs_are_cut_into_pieces_of_the_size_asked() {
        let runs = [0..5, 10..11, 20..33, 40..40, 50..52];
        let mut scratch = Vec::new();
        let pieces = cut(&runs, 4, &mut scratch);
        let sizes: Vec<u32> = pieces
            .iter()
            .map(|piece| piece.iter().map(|run| run.end - run.start).sum())
            .collect();
        assert_eq!(sizes, [4, 4, 4, 4, 4, 1]);
        let colliders: Vec<u32> = pieces
            .iter()
            .flat_map(|piece| piece.iter().cloned().flatten())
            .collect();
        let expected: Vec<u32> = runs.iter().cloned().flatten().collect();
        assert_eq!(colliders, expected, "every collider once, in order");
    }
}
