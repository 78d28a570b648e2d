//! Where a grid query's pairs go, and the check that decides each candidate: the squared
//! distance between two bounding circles against their squared reach, and their layers where
//! they are checked.

use super::Aside;
use crate::pipeline::placed::PlacedColliders;
use core::ops::Range;

/// Where a query's pairs go: the pairs of placed colliders whose bounding circles touch, and,
/// with `CHECK_LAYERS`, whose layers interact. (A constant, so that the hot loops are compiled
/// once for each, with no test of it inside.)
pub(super) struct Found<'a, const CHECK_LAYERS: bool> {
    pub(super) placed: &'a PlacedColliders,
    pub(super) pairs: &'a mut Vec<[u32; 2]>,
}

/// Which built colliders [`Found::push_each_of_runs`] pairs a queried collider with.
pub(super) enum Everyone<'a> {
    /// Those from this index on: within one group, the colliders after the queried one.
    From(u32),
    /// All but those kept aside (listed in the order the runs list them), which are met by
    /// their boxes instead.
    ButAside(&'a [Aside]),
}

impl<const CHECK_LAYERS: bool> Found<'_, CHECK_LAYERS> {
    /// Appends `[collider, other]` if their layers interact (when checked) and their bounding
    /// circles touch: the exact check, squared distance against squared reach.
    #[inline(always)]
    pub(super) fn push_if_touching(&mut self, collider: u32, other: u32) {
        let (placed, first, second) = (self.placed, collider as usize, other as usize);
        if CHECK_LAYERS && !placed.layers[first].interacts_with(&placed.layers[second]) {
            return;
        }
        let reach = placed.radii[first] + placed.radii[second];
        if placed.centers[first].distance_squared(placed.centers[second]) <= reach * reach {
            self.pairs.push([collider, other]);
        }
    }

    /// Appends the pairs of `collider` with the colliders of `runs` that `everyone` names, as
    /// [`push_if_touching`](Self::push_if_touching) finds them, in one loop over their
    /// bounding circles: for a queried collider that looks at every built one.
    #[inline(never)]
    pub(super) fn push_each_of_runs(
        &mut self,
        collider: u32,
        runs: &[Range<u32>],
        everyone: Everyone,
    ) {
        let (after, aside) = match everyone {
            Everyone::From(after) => (after, &[][..]),
            Everyone::ButAside(aside) => (0, aside),
        };
        let placed = self.placed;
        let (centers, radii, layers) = (&placed.centers, &placed.radii, &placed.layers);
        let index = collider as usize;
        let (center, radius, own_layers) = (centers[index], radii[index], layers[index]);
        let mut aside = aside.iter().map(|aside| aside.collider).peekable();
        for run in runs {
            for other in run.start.max(after)..run.end {
                if aside.next_if_eq(&other).is_some() {
                    continue;
                }
                let at = other as usize;
                let reach = radius + radii[at];
                if center.distance_squared(centers[at]) <= reach * reach
                    && (!CHECK_LAYERS || own_layers.interacts_with(&layers[at]))
                {
                    self.pairs.push([collider, other]);
                }
            }
        }
        debug_assert!(
            aside.next().is_none(),
            "each collider kept aside is in the runs"
        );
    }
}

impl Aside {
    /// Appends `[queried, self.collider]` if the queried collider's bounding circle reaches
    /// this collider's box, and then as [`Found::push_if_touching`] says.
    #[inline]
    pub(super) fn push_if_touching<const CHECK_LAYERS: bool>(
        &self,
        queried: u32,
        found: &mut Found<CHECK_LAYERS>,
    ) {
        let index = queried as usize;
        let (center, radius) = (found.placed.centers[index], found.placed.radii[index]);
        if self.bounds.touches_circle(center, radius) {
            found.push_if_touching(queried, self.collider);
        }
    }
}
