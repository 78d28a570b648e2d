//! The spatial index: this frame's colliders grouped by their layers, each group's grid built
//! the first time a spatial query asks about its layers, and kept until the next prepare.
//!
//! Nothing is built in a frame without queries. A query looks only at the groups on the
//! layers it asks for, so a homing missile looking for the nearest of a few dozen enemies never
//! touches the grid of fifty thousand bullets. Past
//! [`MAX_GROUPS`] distinct layer values, one grid holds every collider instead (as in the broad
//! phase), and each candidate's layers are checked.

use super::bodies::Bodies;
use super::broad_phase::{Grid, Groups, MAX_GROUPS, RadiusSpread};
use crate::layers::LayerMask;
use bevy::prelude::*;
use smallvec::SmallVec;
use std::sync::OnceLock;

/// The spatial index of this frame's [`Bodies`]: see the [module docs](self).
#[derive(Resource, Default)]
pub struct SpatialIndex {
    state: OnceLock<IndexState>,
}

/// The groups, and each one's grid once asked for.
struct IndexState {
    groups: Groups,
    grids: Vec<OnceLock<Grid>>,
    /// One grid over everyone, past [`MAX_GROUPS`] groups.
    everyone: OnceLock<Grid>,
}

impl SpatialIndex {
    /// Forgets the last frame's grids: the prepare stage calls it when it rewrites [`Bodies`].
    pub(crate) fn reset(&mut self) {
        self.state = OnceLock::new();
    }

    /// The grids that together hold every body whose memberships meet `mask`: more bodies may
    /// be in them, so a query checks each candidate's layers.
    pub(crate) fn grids<'a>(&'a self, bodies: &Bodies, mask: LayerMask) -> SmallVec<[&'a Grid; 4]> {
        let state = self.state.get_or_init(|| {
            let mut groups = Groups::default();
            groups.build(bodies);
            let grids = groups.active().iter().map(|_| OnceLock::new()).collect();
            IndexState {
                groups,
                grids,
                everyone: OnceLock::new(),
            }
        });
        let groups = state.groups.active();
        if groups.len() > MAX_GROUPS {
            let grid = state.everyone.get_or_init(|| {
                let mut grid = Grid::default();
                let everyone = 0..bodies.entities.len() as u32;
                let everyone = core::slice::from_ref(&everyone);
                let typical_radius = RadiusSpread::of(&bodies.radii, everyone).typical;
                grid.build(bodies, everyone, typical_radius, 0.0, 0);
                grid
            });
            return SmallVec::from_buf_and_len([grid; 4], 1);
        }
        groups
            .iter()
            .enumerate()
            .zip(&state.grids)
            .filter(|((_, group), _)| group.layers.memberships.intersects(mask))
            .map(|((index, _), grid)| {
                grid.get_or_init(|| {
                    let mut grid = Grid::default();
                    let runs = state.groups.runs_of(index);
                    let typical_radius = RadiusSpread::of(&bodies.radii, &runs).typical;
                    grid.build(bodies, &runs, typical_radius, 0.0, 0);
                    grid
                })
            })
            .collect()
    }
}
