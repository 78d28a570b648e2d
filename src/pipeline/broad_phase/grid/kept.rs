//! A grid kept from frame to frame for the same colliders, placed elsewhere in the list.

use super::Grid;
use crate::pipeline::placed::PlacedColliders;
use core::ops::Range;

impl Grid {
    /// The runs of colliders the grid was built from.
    pub(crate) fn runs(&self) -> &[Range<u32>] {
        &self.built
    }

    /// Moves every built collider's number by `offset` (wrapping, so backwards too): a grid kept
    /// for the same colliders, with the same bounding circles, now placed `offset` further on in
    /// [`PlacedColliders`]. The boxes of the colliders kept aside are taken from `placed` again:
    /// a swept collider's path may differ inside the same bounding circle.
    pub(crate) fn renumber(&mut self, placed: &PlacedColliders, offset: u32) {
        if offset != 0 {
            for entry in &mut self.entries {
                entry.collider = entry.collider.wrapping_add(offset);
            }
            for run in &mut self.built {
                *run = run.start.wrapping_add(offset)..run.end.wrapping_add(offset);
            }
        }
        for aside in &mut self.oversized {
            aside.collider = aside.collider.wrapping_add(offset);
            aside.bounds = placed.path_box(aside.collider as usize);
        }
    }
}
