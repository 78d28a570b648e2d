//! Stage 2, broad phase: the pairs of colliders whose bounding circles overlap and whose layers
//! match.
//!
//! # How
//! 1. **Groups by layers.** Colliders with the same [`CollisionLayers`](crate::CollisionLayers)
//!    form a group.
//! 2. **Sides.** Groups that never meet each other join one side (see `sides`): all the
//!    player's bullets, whatever their layer values, are one side; a group that meets itself
//!    is a side alone. So in a bullet hell the thousands of bullets of one side are never
//!    compared with each other at all.
//! 3. **One pass per side.** Largest side first, each side meets all the smaller sides it can touch
//!    in one pass: those are binned together into a uniform grid over their bounding box, each
//!    collider in every cell that its box, grown by the side's largest bounding radius (no more
//!    than twice its typical radius, the mean of all but a few outliers far wider than the rest: a
//!    few far wider colliders do not grow every box, nor size every cell), covers; then each
//!    collider of the side reads the one cell under its centre, without sort or duplicate check (a
//!    wider one reads the cells of its box shrunk by that growth, each pair from the first cell the
//!    two share, or, where that box covers more cells than the grid holds colliders, looks at each
//!    of them once: a wall among bullets, over a few enemies' cells). The side is read a block of
//!    colliders at a time: all their cells first (vector instructions), then the few whose cell
//!    holds anyone, listed without a branch. A side that meets itself is binned and queried against
//!    itself, each pair from the first cell the two boxes share (or, in a dense grid, for a
//!    collider whose box covers more cells than the side has colliders, from a look at each
//!    collider after it). A group spread far wider than its colliders (one collider parked far
//!    away) keeps collider-wide cells and folds them onto a fixed array like tiles, rather than
//!    widening its cells until everything shares one (see `grid`). With more than a couple of dozen
//!    sides (or a few hundred distinct layer values, which would take long to merge), comparing
//!    side by side would cost more than it saves: then one grid holds every collider and each
//!    candidate's layers are checked instead.
//! 4. **The exact circle check** (the squared distance between centres against the squared
//!    sum of radii, no square root) decides each candidate, after its layers where a side
//!    holds several layer values.
//!
//! The broad phase builds each pass's grid and hands it over with the colliders to query against
//! it ([`BroadPhase::passes`]); the [find contacts](mod@super::find_contacts) stage runs the
//! queries, split across threads as it sees fit, and tests the pairs as they come.

mod grid;
mod groups;
mod sides;

pub(crate) use grid::{Binning, Grid, Join, Stretch};
pub(crate) use groups::{Groups, RadiusSpread};

use super::placed::PlacedColliders;
use bevy::prelude::*;
use core::ops::Range;
use sides::{MAX_MERGED_GROUPS, Side, Sides};

/// What the broad phase keeps between frames: its groups, sides and grid, rebuilt every
/// frame in last frame's allocations.
#[derive(Resource, Default)]
pub(crate) struct BroadPhase {
    groups: Groups,
    sides: Sides,
    grid: Grid,
    /// Scratch: the runs of the sides a side meets, binned together.
    partner_runs: Vec<Range<u32>>,
}

/// One pass of the search: the colliders of `runs` (`len` of them, indices into the colliders)
/// queried against the grid built for the pass, paired as `join` says.
pub(crate) struct Pass<'a> {
    pub runs: &'a [Range<u32>],
    pub len: usize,
    pub join: Join,
}

/// Beyond this many sides (or distinct `CollisionLayers` values, for the spatial index),
/// comparing side by side (quadratic in their number) stops paying: one grid holds everyone and
/// layers are checked per pair.
pub(crate) const MAX_GROUPS: usize = 24;

/// How much larger than the typical bounding radius of a side (see [`RadiusSpread`]) its grid
/// growth may be: colliders wider than that (a laser among bullets) read the cells of their box
/// instead of one cell, rather than growing every cell.
const MAX_GROWTH_PER_TYPICAL_RADIUS: f32 = 2.0;

impl Side {
    /// The pass that queries this side's colliders, paired as `join` says.
    fn pass(&self, join: Join) -> Pass<'_> {
        Pass {
            runs: &self.runs,
            len: self.len,
            join,
        }
    }
}

impl BroadPhase {
    /// Builds this frame's groups and sides, then, pass after pass, the grid of each pass,
    /// and hands it to `search` with the colliders to query against it: between them, the passes
    /// find every candidate pair (collider indices whose bounding circles overlap and whose layers
    /// match), each once.
    #[inline(never)]
    pub(crate) fn passes(
        &mut self,
        placed: &PlacedColliders,
        mut search: impl FnMut(&Grid, Pass<'_>),
    ) {
        self.groups.build(placed);
        let merged = self.groups.active().len() <= MAX_MERGED_GROUPS;
        if merged {
            let (groups, runs) = (self.groups.active(), self.groups.runs_in_order());
            self.sides.build(groups, runs, &placed.radii);
        }
        let Self {
            sides,
            grid,
            partner_runs,
            ..
        } = self;
        let sides = sides.active();
        if !merged || sides.len() > MAX_GROUPS {
            // Too many sides to compare side by side: one grid over every collider, with the
            // layers checked on each candidate instead.
            let all_colliders = 0..placed.entities.len() as u32;
            let everyone = core::slice::from_ref(&all_colliders);
            let typical_radius = RadiusSpread::of(&placed.radii, everyone).typical;
            grid.build(placed, everyone, typical_radius, 0.0, 0);
            let join = Join::Within { check_layers: true };
            let len = placed.entities.len();
            search(
                grid,
                Pass {
                    runs: everyone,
                    len,
                    join,
                },
            );
            return;
        }
        for (index, side) in sides.iter().enumerate() {
            if side.meets_itself {
                grid.build(placed, &side.runs, side.radius.typical, 0.0, 0);
                let join = Join::Within {
                    check_layers: false,
                };
                search(grid, side.pass(join));
            }
            // Every smaller side it meets, binned together and met in one pass.
            partner_runs.clear();
            let mut check_layers = false;
            for partner in sides[index + 1..].iter().filter(|other| side.meets(other)) {
                partner_runs.extend(partner.runs.iter().cloned());
                // The partners are never paired with each other: only the side's pairs with
                // each may need their layers checked.
                check_layers |= !side.always_meets(partner);
            }
            if partner_runs.is_empty() {
                continue;
            }
            // Over all the partners together: a few far wider ones (walls across the world, a
            // side of their own) are outliers among them too, and size no cell.
            let partner_typical = RadiusSpread::of(&placed.radii, partner_runs).typical;
            let growth = side
                .radius
                .largest
                .min(MAX_GROWTH_PER_TYPICAL_RADIUS * side.radius.typical);
            // Cells about as wide as a partner's grown bounding radius: a few cells per partner,
            // and few colliders of the side in a cell with one that they do not touch.
            let partner_reach = partner_typical.max(side.radius.typical) + growth;
            grid.build(placed, partner_runs, 0.5 * partner_reach, growth, side.len);
            search(grid, side.pass(Join::Between { check_layers }));
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
