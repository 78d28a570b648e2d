//! A group's grid kept from frame to frame while its colliders' bounding circles stay the same.

use crate::pipeline::broad_phase::{Binning, Grid, RadiusSpread};
use crate::pipeline::placed::PlacedColliders;
use bevy::prelude::*;
use core::ops::Range;

/// A grid, with the bounding circles of the colliders it was built over, in the order of its
/// runs: a later frame whose colliders have the same circles, in runs of the same lengths
/// moved by one offset, keeps it.
#[derive(Default)]
pub(super) struct KeptGrid {
    pub(super) grid: Grid,
    centers: Vec<Vec2>,
    radii: Vec<f32>,
    /// How the grid bins its colliders.
    pub(super) binning: Binning,
    /// Whether the last update built the grid (rather than keep it).
    built_last: bool,
    /// How many times the grid was built: what tests tell a kept grid by.
    #[cfg(test)]
    pub(super) builds: usize,
}

impl KeptGrid {
    /// Makes the grid that of the colliders of `runs` (those of one group, or everyone): kept,
    /// renumbered, where their bounding circles are the same as when it was built; built again
    /// otherwise.
    pub(super) fn update(&mut self, placed: &PlacedColliders, runs: &[Range<u32>]) {
        let offset = self.offset_to(placed, runs);
        // Kept where its colliders stood still, binned by boxes, for the fastest queries.
        if let Some(offset) = offset
            && self.binning == Binning::Boxes
        {
            self.grid.renumber(placed, offset);
            self.built_last = false;
            return;
        }
        // Built a second time in a row, the group moves (bullets), and will be built again next
        // frame: at half the cost, binned by centres. Built after it was kept (walls, a door
        // that opened), or once more where a group binned by centres stood still, by boxes.
        let binning = if offset.is_none() && self.built_last {
            Binning::Centres
        } else {
            Binning::Boxes
        };
        self.built_last = true;
        self.binning = binning;
        let typical_radius = RadiusSpread::of(&placed.radii, runs).typical;
        self.grid
            .build_for_queries(placed, runs, typical_radius, binning);
        #[cfg(test)]
        {
            self.builds += 1;
        }
        self.centers.clear();
        self.radii.clear();
        for run in runs {
            let rows = run.start as usize..run.end as usize;
            self.centers
                .extend_from_slice(&placed.centers[rows.clone()]);
            self.radii.extend_from_slice(&placed.radii[rows]);
        }
    }

    /// How far on in `placed` the colliders the grid was built over now are, where `runs`
    /// hold colliders with the same bounding circles, bit for bit, in runs of the same lengths
    /// each moved by that same offset (wrapping); `None` otherwise, or for no colliders.
    pub(super) fn offset_to(&self, placed: &PlacedColliders, runs: &[Range<u32>]) -> Option<u32> {
        let built = self.grid.runs();
        let offset = runs.first()?.start.wrapping_sub(built.first()?.start);
        let moved = |(run, built): (&Range<u32>, &Range<u32>)| {
            run.start.wrapping_sub(built.start) == offset && run.len() == built.len()
        };
        if runs.len() != built.len() || !runs.iter().zip(built).all(moved) {
            return None;
        }
        let mut kept = 0;
        for run in runs {
            let rows = run.start as usize..run.end as usize;
            let kept_rows = kept..kept + rows.len();
            let same_centers = placed.centers[rows.clone()]
                .iter()
                .zip(&self.centers[kept_rows.clone()])
                .all(|(now, then)| {
                    now.to_array().map(f32::to_bits) == then.to_array().map(f32::to_bits)
                });
            let same_radii = placed.radii[rows]
                .iter()
                .zip(&self.radii[kept_rows.clone()])
                .all(|(now, then)| now.to_bits() == then.to_bits());
            if !(same_centers && same_radii) {
                return None;
            }
            kept = kept_rows.end;
        }
        Some(offset)
    }
}
