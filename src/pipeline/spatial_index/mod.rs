//! The spatial index: the last run's colliders grouped by their memberships (what a query's
//! mask picks them by; their filters play no part), each group's grid built the first time a
//! spatial query asks about its layers, and kept until the next prepare.
//!
//! Nothing is built after a run without queries. A group whose colliders have the same bounding
//! circles as when its grid was last built (walls standing still, however the bullets before
//! them in the list come and go) keeps that grid; any other grid is built in the room of the
//! grid its group had after an earlier run: with each collider in the cells of its box, but in
//! a group built two runs in a row (bullets, which move), at about half the cost, with each
//! small collider as the point of its centre (see [`Binning`](super::broad_phase::Binning));
//! such a grid is built once more by boxes when its group stands still. A query looks only at
//! the groups on the layers it asks
//! for, so a homing missile looking for the nearest of a few dozen enemies never touches the
//! grid of fifty thousand bullets. Past [`MAX_GROUPS`] distinct memberships, one grid holds
//! every collider instead (as in the broad phase), and each candidate's layers are checked.

mod kept_grid;

use super::broad_phase::{Grid, Groups, MAX_GROUPS};
use super::parallel::lock;
use super::placed::PlacedColliders;
use crate::layers::LayerMask;
use bevy::prelude::*;
use kept_grid::KeptGrid;
use smallvec::SmallVec;
use std::sync::{Mutex, OnceLock, PoisonError};

/// The spatial index of this frame's [`PlacedColliders`]: see the [module docs](self).
#[derive(Resource, Default)]
pub struct SpatialIndex {
    state: OnceLock<IndexState>,
    /// Each collider's place in [`PlacedColliders`], by entity: filled the first time a frame's
    /// query names colliders by entity.
    places: OnceLock<Places>,
    /// The last frame's groups and grids: this frame's groups are built in their room, and its
    /// grids kept where their colliders' bounding circles are the same, or built in their room.
    spare: Mutex<Spare>,
}

/// Room kept from frame to frame.
#[derive(Default)]
struct Spare {
    groups: Option<Groups>,
    places: Option<Places>,
    /// The latest grid of each group, by the group's place in the list (a game's groups mostly
    /// keep their places from frame to frame, and so their colliders and sizes), from the last
    /// frame that asked for it.
    grids: Vec<KeptGrid>,
    /// The latest grid over everyone.
    everyone: Option<KeptGrid>,
}

/// Each placed collider's place in [`PlacedColliders`], by its entity's index: a table as long
/// as the largest index, filled with one store per collider (no hashing) and never cleared. An
/// entry left from an earlier frame, or another entity's of the same index, names a place
/// that holds another entity now, and is refused.
#[derive(Default)]
struct Places {
    by_index: Vec<u32>,
}

impl Places {
    /// Writes the place of every collider in `placed`.
    fn fill(&mut self, placed: &PlacedColliders) {
        for (place, entity) in placed.entities.iter().enumerate() {
            let index = entity.index_u32() as usize;
            if index >= self.by_index.len() {
                self.by_index.resize(index + 1, u32::MAX);
            }
            self.by_index[index] = place as u32;
        }
    }

    /// Where `entity` is in `placed` (which the table was filled from), if it is there.
    fn of(&self, placed: &PlacedColliders, entity: Entity) -> Option<usize> {
        let place = *self.by_index.get(entity.index_u32() as usize)? as usize;
        (placed.entities.get(place) == Some(&entity)).then_some(place)
    }
}

/// The groups, and each one's grid once asked for.
struct IndexState {
    groups: Groups,
    grids: Vec<OnceLock<KeptGrid>>,
    /// One grid over everyone, past [`MAX_GROUPS`] groups.
    everyone: OnceLock<KeptGrid>,
}

impl SpatialIndex {
    /// Puts this frame's groups and grids aside, to be kept or built in next frame (see
    /// [`KeptGrid`]): the prepare stage calls it when it rewrites [`PlacedColliders`].
    pub(crate) fn reset(&mut self) {
        let spare = self.spare.get_mut().unwrap_or_else(PoisonError::into_inner);
        if let Some(places) = self.places.take() {
            spare.places = Some(places);
        }
        let Some(state) = self.state.take() else {
            return;
        };
        spare.groups = Some(state.groups);
        let built = state
            .grids
            .into_iter()
            .take(MAX_GROUPS)
            .map(OnceLock::into_inner);
        for (index, grid) in built.enumerate() {
            let Some(grid) = grid else { continue };
            if index >= spare.grids.len() {
                spare.grids.resize_with(index + 1, KeptGrid::default);
            }
            spare.grids[index] = grid;
        }
        if let Some(everyone) = state.everyone.into_inner() {
            spare.everyone = Some(everyone);
        }
    }

    /// Where collider `entity` is in `placed`, if it was placed this frame.
    pub(crate) fn place_of(&self, placed: &PlacedColliders, entity: Entity) -> Option<usize> {
        let places = self.places.get_or_init(|| {
            let mut places = lock(&self.spare).places.take().unwrap_or_default();
            places.fill(placed);
            places
        });
        places.of(placed, entity)
    }

    /// The grid of group `group` (`None`: everyone's) after an earlier run, kept or to be
    /// built in: the last one built for it, or a new one.
    fn spare_grid(&self, group: Option<usize>) -> KeptGrid {
        let mut spare = lock(&self.spare);
        match group {
            Some(index) => spare.grids.get_mut(index).map(core::mem::take),
            None => spare.everyone.take(),
        }
        .unwrap_or_default()
    }

    /// The grids that together hold every collider whose memberships meet `mask`: more colliders
    /// may be in them, so a query checks each candidate's layers.
    pub(crate) fn grids<'a>(
        &'a self,
        placed: &PlacedColliders,
        mask: LayerMask,
    ) -> SmallVec<[&'a Grid; 4]> {
        let state = self.state.get_or_init(|| {
            let mut groups = lock(&self.spare).groups.take().unwrap_or_default();
            groups.build_by_memberships(placed);
            let grids = groups.active().iter().map(|_| OnceLock::new()).collect();
            IndexState {
                groups,
                grids,
                everyone: OnceLock::new(),
            }
        });
        let groups = state.groups.active();
        if groups.len() > MAX_GROUPS {
            let kept = state.everyone.get_or_init(|| {
                let mut kept = self.spare_grid(None);
                let everyone = 0..placed.entities.len() as u32;
                kept.update(placed, core::slice::from_ref(&everyone));
                kept
            });
            return SmallVec::from_buf_and_len([&kept.grid; 4], 1);
        }
        // A plain loop: every query asks for its grids.
        let mut grids = SmallVec::new();
        for (index, (group, grid)) in groups.iter().zip(&state.grids).enumerate() {
            if !group.layers.memberships.intersects(mask) {
                continue;
            }
            let kept = grid.get_or_init(|| {
                let mut kept = self.spare_grid(Some(index));
                kept.update(placed, &state.groups.runs_of(index));
                kept
            });
            grids.push(&kept.grid);
        }
        grids
    }
}

#[cfg(test)]
mod tests;
