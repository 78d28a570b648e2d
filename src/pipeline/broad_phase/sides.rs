//! Groups merged into sides: groups that never meet each other, handled as one.
//!
//! Thirty kinds of player bullet, each on a layer value of its own, all meet the enemies and
//! none meets another: compared group by group, the enemies would be binned thirty times and
//! the bullets read in thirty passes. As one side, the bullets are read once, and each
//! candidate's layers are checked instead. Likewise one side meets all its partners in one
//! pass: the bullets are read once for the enemies, the walls and the shields together.

use super::groups::{Group, RadiusSpread};
use crate::layers::{CollisionLayers, LayerMask};
use core::ops::Range;

/// Groups that never meet each other, or one group that meets itself.
#[derive(Default)]
pub(crate) struct Side {
    /// The layer values of its groups.
    pub layers: Vec<CollisionLayers>,
    /// Its colliders, as runs of consecutive collider indices in collider order (runs of its
    /// different groups that follow each other are joined).
    pub runs: Vec<Range<u32>>,
    /// How many colliders the runs hold.
    pub len: usize,
    /// How the members' bounding radii run.
    pub radius: RadiusSpread,
    /// Whether its one group meets itself.
    pub meets_itself: bool,
    /// Every layer its groups are on, and every layer they filter for: a group that is on
    /// none of the filtered layers, or filters for none of the layers, meets none of them.
    any_memberships: LayerMask,
    any_filters: LayerMask,
}

impl Side {
    /// Whether no group of this side meets `layers`.
    fn never_meets(&self, layers: &CollisionLayers) -> bool {
        !layers.memberships.intersects(self.any_filters)
            || !self.any_memberships.intersects(layers.filters)
            || !self.layers.iter().any(|mine| mine.interacts_with(layers))
    }

    /// Whether some collider of this side may meet some collider of `other`.
    pub fn meets(&self, other: &Self) -> bool {
        self.interactions(other).any(|interacts| interacts)
    }

    /// Whether every collider of this side meets every collider of `other` when their circles
    /// touch, so that no pair's layers need checking.
    pub fn always_meets(&self, other: &Self) -> bool {
        self.interactions(other).all(|interacts| interacts)
    }

    /// Whether each of this side's layer values interacts with each of `other`'s.
    fn interactions<'a>(&'a self, other: &'a Self) -> impl Iterator<Item = bool> + 'a {
        self.layers.iter().flat_map(move |mine| {
            other
                .layers
                .iter()
                .map(move |theirs| mine.interacts_with(theirs))
        })
    }
}

/// Beyond this many distinct layer values, merging them into sides would cost more than it
/// saves (it is quadratic in their number): the broad phase puts every collider in one grid.
pub(crate) const MAX_MERGED_GROUPS: usize = 256;

/// This frame's sides, rebuilt every frame while keeping last frame's allocations.
#[derive(Default)]
pub(crate) struct Sides {
    sides: Vec<Side>,
    /// How many of `sides` are this frame's.
    active: usize,
    /// Scratch: each group's side.
    side_of_group: Vec<usize>,
    /// Scratch: group indices, largest group first.
    by_size: Vec<usize>,
}

impl Sides {
    /// This frame's sides, largest first.
    pub fn active(&self) -> &[Side] {
        &self.sides[..self.active]
    }

    /// Merges `groups` into sides: largest first, each group that does not meet itself joins
    /// the first side none of whose groups it meets. Quadratic in the number of groups: the
    /// broad phase calls it for at most [`MAX_MERGED_GROUPS`] of them. `runs_in_order` is
    /// every group's runs in collider order (see
    /// [`Groups::runs_in_order`](super::groups::Groups::runs_in_order)), `radii` the colliders'
    /// bounding radii.
    pub fn build(
        &mut self,
        groups: &[Group],
        runs_in_order: &[(Range<u32>, usize)],
        radii: &[f32],
    ) {
        for side in &mut self.sides[..self.active] {
            side.layers.clear();
            side.runs.clear();
            side.len = 0;
            side.radius = RadiusSpread::default();
            side.any_memberships = LayerMask::NONE;
            side.any_filters = LayerMask::NONE;
        }
        self.active = 0;
        self.by_size.clear();
        self.by_size.extend(0..groups.len());
        self.by_size
            .sort_unstable_by_key(|&group| core::cmp::Reverse(groups[group].len));
        self.side_of_group.clear();
        self.side_of_group.resize(groups.len(), 0);
        for &index in &self.by_size {
            let group = &groups[index];
            let meets_itself = group.layers.interacts_with(&group.layers);
            let joined = (!meets_itself)
                .then(|| {
                    self.sides[..self.active]
                        .iter()
                        .position(|side| !side.meets_itself && side.never_meets(&group.layers))
                })
                .flatten();
            let side = joined.unwrap_or_else(|| {
                if self.active == self.sides.len() {
                    self.sides.push(Side::default());
                }
                self.active += 1;
                self.sides[self.active - 1].meets_itself = meets_itself;
                self.active - 1
            });
            let side_entry = &mut self.sides[side];
            side_entry.layers.push(group.layers);
            side_entry.any_memberships |= group.layers.memberships;
            side_entry.any_filters |= group.layers.filters;
            side_entry.len += group.len;
            self.side_of_group[index] = side;
        }
        // Runs that follow each other on one side are joined here, before they reach the
        // side's list: layer values alternating collider by collider in one archetype make runs of
        // one collider, all on the same side.
        let mut joined: Option<(usize, Range<u32>)> = None;
        for (run, group) in runs_in_order {
            let side = self.side_of_group[*group];
            match &mut joined {
                Some((joined_side, joined_run))
                    if *joined_side == side && joined_run.end == run.start =>
                {
                    joined_run.end = run.end;
                }
                _ => {
                    if let Some((side, run)) = joined.replace((side, run.clone())) {
                        push_run(&mut self.sides[side].runs, run);
                    }
                }
            }
        }
        if let Some((side, run)) = joined {
            push_run(&mut self.sides[side].runs, run);
        }
        for side in &mut self.sides[..self.active] {
            side.radius = RadiusSpread::of(radii, &side.runs);
        }
        // Largest first: each side then meets only the smaller sides after it.
        self.sides[..self.active].sort_by_key(|side| core::cmp::Reverse(side.len));
        // Keep no more than twice the sides in use, so old ones do not pile up.
        self.sides.truncate(2 * self.active.max(8));
    }
}

/// Appends `run` to `runs`, joined to the last one if it follows it.
fn push_run(runs: &mut Vec<Range<u32>>, run: Range<u32>) {
    match runs.last_mut() {
        Some(last) if last.end == run.start => last.end = run.end,
        _ => runs.push(run),
    }
}

#[cfg(test)]
mod tests {
    #![expect(
        clippy::single_range_in_vec_init,
        reason = "lists of runs, some of which hold one run"
    )]

    use super::*;
    use crate::layers::LayerMask;

    fn group(layers: CollisionLayers, runs: &[Range<u32>]) -> Group {
        let len = runs.iter().map(ExactSizeIterator::len).sum();
        Group { layers, len }
    }

    #[test]
    fn runs_are_joined_only_when_they_follow_each_other() {
        let enemies = CollisionLayers::new(LayerMask::layer(0), LayerMask::ALL);
        let bullet = |kind| CollisionLayers::new(LayerMask::layer(kind), LayerMask::layer(0));
        let groups = [
            group(bullet(1), &[0..2, 4..6, 9..10]),
            group(bullet(2), &[3..4, 8..9]),
            group(enemies, &[6..7, 9..9]),
        ];
        // One side's runs with a gap between them (0..2, 3..4), one side's runs that follow
        // each other (3..4, 4..6), and an empty run of the other side between two that touch
        // (8..9, 9..9, 9..10).
        let runs_in_order = [
            (0..2, 0),
            (3..4, 1),
            (4..6, 0),
            (6..7, 2),
            (8..9, 1),
            (9..9, 2),
            (9..10, 0),
        ];
        let mut sides = Sides::default();
        sides.build(&groups, &runs_in_order, &[1.0; 10]);
        let [bullets, enemies_side] = sides.active() else {
            panic!("two sides, not {}", sides.active().len());
        };
        assert_eq!(bullets.runs, [0..2, 3..6, 8..10]);
        assert_eq!(enemies_side.runs, [6..7, 9..9]);
    }

    #[test]
    fn groups_that_never_meet_share_a_side_with_their_runs_joined() {
        let enemies = CollisionLayers::new(LayerMask::layer(0), LayerMask::ALL);
        let bullet = |kind| CollisionLayers::new(LayerMask::layer(kind), LayerMask::layer(0));
        // Bullets of kinds 1 and 2 alternate, then an enemy, then more bullets of kind 3.
        let groups = [
            group(bullet(1), &[0..1, 2..3]),
            group(bullet(2), &[1..2, 3..4]),
            group(enemies, &[4..5]),
            group(bullet(3), &[5..8]),
        ];
        let runs_in_order = [
            (0..1, 0),
            (1..2, 1),
            (2..3, 0),
            (3..4, 1),
            (4..5, 2),
            (5..8, 3),
        ];
        let mut sides = Sides::default();
        let radii = [1.0, 2.0, 1.0, 2.0, 30.0, 3.0, 3.0, 3.0];
        sides.build(&groups, &runs_in_order, &radii);
        let [bullets, enemies_side] = sides.active() else {
            panic!("two sides, not {}", sides.active().len());
        };
        assert_eq!(bullets.len, 7);
        assert_eq!(bullets.runs, [0..4, 5..8]);
        assert_eq!(
            (bullets.radius.typical, bullets.radius.largest),
            (15.0 / 7.0, 3.0)
        );
        assert_eq!(
            (enemies_side.radius.typical, enemies_side.radius.largest),
            (30.0, 30.0)
        );
        assert_eq!(bullets.layers.len(), 3);
        assert!(!bullets.meets_itself);
        // The enemies meet themselves (their filters hold their own layer): a side alone.
        assert!(enemies_side.meets_itself);
        assert_eq!(enemies_side.runs, [4..5]);
        assert!(bullets.meets(enemies_side));
        assert!(bullets.always_meets(enemies_side));
    }

    #[test]
    fn groups_that_meet_stay_apart() {
        let a = CollisionLayers::new(LayerMask::layer(0), LayerMask::layer(1));
        let b = CollisionLayers::new(LayerMask::layer(1), LayerMask::layer(0));
        let c = CollisionLayers::new(LayerMask::layer(2), LayerMask::layer(1));
        let groups = [group(a, &[0..5]), group(b, &[5..7]), group(c, &[7..8])];
        let runs_in_order = [(0..5, 0), (5..7, 1), (7..8, 2)];
        let mut sides = Sides::default();
        sides.build(&groups, &runs_in_order, &[1.0; 8]);
        // `a` and `c` never meet, nor do `b` and `c`; `a` and `b` do.
        let active = sides.active();
        assert_eq!(active.len(), 2);
        assert_eq!(active[0].runs, [0..5, 7..8]);
        assert_eq!(active[1].runs, [5..7]);
        assert!(active[0].meets(&active[1]));
        assert!(!active[0].always_meets(&active[1]));
    }
}
