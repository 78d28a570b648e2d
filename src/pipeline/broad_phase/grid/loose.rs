//! Colliders binned by the cell of their centre alone, in grids for spatial queries.
//!
//! A grid's build writes a collider into every cell its box covers: about four for a collider
//! a cell wide. A grid for spatial queries instead may bin each collider no wider than half a
//! cell in the one cell of its centre, and grow every query's box, or path, by the largest
//! radius of those colliders ([`Grid::loose_reach`](super::Grid)): a collider whose box meets
//! the query's has its centre within that reach of it, so its cell is among those the grown
//! query reads. A wider collider (an outlier: a wall among bullets) is binned in the cells of
//! its box as in any grid. The build writes a quarter of the entries; a query reads a few more
//! cells.
//!
//! A centre's cell is found as a query's box finds its cells, by the same monotone steps from
//! the same origin, in `f32` (dense) or `f64` (folded): a centre at or past the grown box's low
//! corner lands in a cell at or past the box's first. A path is walked through a dense grid in
//! `f64` (see [`Grid::walk_cells`]), where a centre's cell, rounded in `f32` from the grid's
//! origin, may lie up to a few units in the last place of the grid's coordinates past the
//! centre's own: [`Grid::walk`] grows the reach by that much too
//! ([`Grid::centre_rounding`](super::Grid)).

use super::{CellRange, Grid, Layout};
use bevy::prelude::*;

/// How a grid for spatial queries bins its colliders (see the [module docs](self)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Binning {
    /// Each collider in every cell its box covers: the fewest cells a query reads. For a group
    /// built once and kept while it stands still (walls).
    #[default]
    Boxes,
    /// Each collider no wider than half a cell as the point of its centre: about half the
    /// build. For a group that moves (bullets), built each frame it is asked about.
    Centres,
}

impl Grid {
    /// Calls `visit` for each built collider whose bounding box may meet the box from `min` to
    /// `max` (its cells meet the box's cells), once each (see [`Grid::visit_box_cells`] for the
    /// folded layout): what a spatial query then tests exactly. Returns whether that was every
    /// built collider (the box spans a whole period of the folding), so that a growing search
    /// can stop. A box that is not one (`min > max`, or NaN) meets nothing.
    pub(crate) fn visit_box(&self, min: Vec2, max: Vec2, visit: impl FnMut(u32)) -> bool {
        if !min.cmple(max).all() {
            return false;
        }
        let (min, max) = self.grown_by_loose_reach(min, max);
        self.visit_box_cells(min, max, visit)
    }

    /// The box from `min` to `max` grown by [`Grid::loose_reach`](super::Grid), and by a few
    /// units in the last place of its coordinates and the reach, for the rounding of its edges:
    /// so that a collider binned by its centre whose box meets the box given has its centre in
    /// the grown one, in `f32`. Unchanged where no collider is binned by its centre.
    fn grown_by_loose_reach(&self, min: Vec2, max: Vec2) -> (Vec2, Vec2) {
        if self.loose_reach == 0.0 {
            // Points, or no collider binned by its centre: none reaches past it.
            return (min, max);
        }
        let coordinates = min.abs().max(max.abs()).max_element();
        let reach = self.loose_reach + 4.0 * f32::EPSILON * (coordinates + self.loose_reach);
        (min - reach, max + reach)
    }

    /// The cell of `center`, clamped to the grid (NaN: the first), as a range of that one
    /// cell: as [`Grid::box_covered`] finds the cells of a box, with no padding (in the
    /// folded layout, the real cell's low 32 bits, as [`CellRange`] holds them).
    pub(super) fn centre_cell(&self, center: Vec2) -> CellRange {
        let (column, row) = match self.layout {
            Layout::Dense {
                origin,
                inverse_cell_size,
            } => {
                let at = (center - origin) * inverse_cell_size;
                let clip = |value: f32, count: u32| (value.max(0.0) as u32).min(count - 1);
                (clip(at.x, self.columns), clip(at.y, self.rows))
            }
            Layout::Wrapped {
                origin,
                inverse_cell_size,
                real_columns,
                real_rows,
            } => {
                let at = (center.as_dvec2() - origin) * inverse_cell_size;
                let clip = |value: f64, count: f64| value.max(0.0).min(count - 1.0) as u64;
                (
                    clip(at.x, real_columns) as u32,
                    clip(at.y, real_rows) as u32,
                )
            }
        };
        CellRange {
            first_column: column,
            first_row: row,
            last_column: column,
            last_row: row,
        }
    }

    /// How far a centre's cell, rounded in `f32` from the grid's origin, may lie past the
    /// centre's own, in a dense grid binned by centres (zero otherwise): a few units in the last
    /// place of the largest coordinate of the grid's origin and box.
    pub(super) fn rounding_of_centres(&self) -> f32 {
        match self.layout {
            Layout::Dense { origin, .. } => {
                let (min, max) = self.bounds;
                let coordinates = origin.abs().max(min.abs()).max(max.abs()).max_element();
                4.0 * f32::EPSILON * coordinates
            }
            Layout::Wrapped { .. } => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::walk::tests::{first_meeting, scattered};
    use super::*;
    use crate::layers::{CollisionLayers, LayerMask};
    use crate::pipeline::broad_phase::Stretch;
    use crate::pipeline::broad_phase::tests::placed_from;
    use core::cell::Cell;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// Random boxes, points among them, over colliders binned by their centres, with a few
    /// wider ones binned by their boxes, in a dense grid and in one folded over a far collider:
    /// each visits every collider whose bounding box meets it (brute force).
    #[test]
    fn a_box_visits_every_collider_binned_by_its_centre_that_it_meets() {
        let layers = CollisionLayers::new(LayerMask::ALL, LayerMask::ALL);
        for seed in 0..6 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut list: Vec<_> = (0..3000)
                .map(|index| {
                    let center = Vec2::new(
                        rng.random_range(-50.0..950.0),
                        rng.random_range(1e4..1e4 + 700.0),
                    );
                    let radius = if index % 101 == 0 {
                        40.0
                    } else {
                        rng.random_range(0.0..6.0)
                    };
                    (center, radius, layers)
                })
                .collect();
            if seed % 2 == 1 {
                list.push((Vec2::splat(-3e6), 2.0, layers));
            }
            let placed = placed_from(&list);
            let everyone = 0..list.len() as u32;
            let mut grid = Grid::default();
            grid.build_for_queries(
                &placed,
                core::slice::from_ref(&everyone),
                3.0,
                Binning::Centres,
            );
            assert_eq!(grid.folded().is_some(), seed % 2 == 1);
            assert!(grid.loose_reach > 0.0);
            for _ in 0..400 {
                let corner = Vec2::new(
                    rng.random_range(-100.0..1000.0),
                    rng.random_range(1e4 - 100.0..1e4 + 800.0),
                );
                let size = match rng.random_range(0..3) {
                    0 => Vec2::ZERO,
                    1 => Vec2::new(rng.random_range(0.0..10.0), rng.random_range(0.0..10.0)),
                    _ => Vec2::new(rng.random_range(0.0..300.0), rng.random_range(0.0..300.0)),
                };
                let (min, max) = (corner, corner + size);
                let mut visited = vec![false; list.len()];
                grid.visit_box(min, max, |collider| visited[collider as usize] = true);
                for (collider, &(center, radius, _)) in list.iter().enumerate() {
                    let meets =
                        (center + radius).cmpge(min).all() && (center - radius).cmple(max).all();
                    assert!(
                        !meets || visited[collider],
                        "seed {seed}: {min} – {max} missed {collider} at {center} r {radius}"
                    );
                }
            }
        }
    }

    /// A short ray near the world's middle through a grid binned by centres whose origin lies
    /// a thousand units away: the centre of a disc the ray passes within its radius lies a hair
    /// below a cell's border, where its own cell rounds past it in `f32`; the walk visits it.
    #[test]
    fn a_walk_far_from_the_grids_origin_visits_a_centre_rounded_across_a_border() {
        let layers = CollisionLayers::new(LayerMask::ALL, LayerMask::ALL);
        let mut list: Vec<_> = (0..201 * 201)
            .map(|index| {
                let (column, row) = ((index % 201) as f32, (index / 201) as f32);
                (
                    Vec2::new(column * 10.0 - 1000.0, row * 10.0 - 1000.0),
                    1.0,
                    layers,
                )
            })
            .collect();
        list.push((Vec2::new(4.980072, 5.0), 1.0, layers));
        let placed = placed_from(&list);
        let mut grid = Grid::default();
        let everyone = 0..list.len() as u32;
        grid.build_for_queries(
            &placed,
            core::slice::from_ref(&everyone),
            1.0,
            Binning::Centres,
        );
        assert!(grid.folded().is_none() && grid.loose_reach == 1.0);
        let stretch = Stretch {
            origin: Vec2::new(3.980_092_5, 0.0),
            direction: Vec2::Y,
            start: 0.0,
            end: 10.0,
            reach: 0.0,
        };
        let disc = list.len() as u32 - 1;
        assert!(first_meeting(stretch, placed.centers[disc as usize], 1.0).is_some());
        let mut visited = false;
        grid.walk(stretch, |_| true, |collider| visited |= collider == disc);
        assert!(visited);
    }

    /// Walks through grids for spatial queries that bin their colliders by their centres, dense
    /// or folded over a far collider, with some colliders wider than half a cell among them:
    /// every collider within the reach is visited, before any step past where the stretch
    /// first meets it (as `check` has it, through `walk`).
    #[test]
    fn a_walk_through_colliders_binned_by_their_centres_visits_every_one_within_reach() {
        for seed in 0..6 {
            let (mut placed, _) = scattered(2000, 600.0, 6.0, 20 + seed);
            // A few wider, binned by their boxes.
            for collider in (0..2000).step_by(97) {
                placed.radii[collider] = 30.0;
            }
            if seed % 2 == 1 {
                placed.centers[5] = Vec2::splat(1e6);
            }
            let mut grid = Grid::default();
            let everyone = 0..2000;
            grid.build_for_queries(
                &placed,
                core::slice::from_ref(&everyone),
                4.0,
                Binning::Centres,
            );
            assert!(grid.loose_reach > 0.0);
            assert_eq!(grid.folded().is_some(), seed % 2 == 1);
            let mut rng = StdRng::seed_from_u64(200 + seed);
            for _ in 0..200 {
                let origin = Vec2::new(
                    rng.random_range(-100.0..700.0),
                    rng.random_range(-100.0..700.0),
                );
                let stretch = Stretch {
                    origin,
                    direction: Vec2::from_angle(rng.random_range(0.0..core::f32::consts::TAU)),
                    start: 0.0,
                    end: rng.random_range(0.0..900.0),
                    reach: rng.random_range(0.0..20.0),
                };
                let entered = Cell::new(f32::NEG_INFINITY);
                let mut first_visit: Vec<Option<f32>> = vec![None; placed.entities.len()];
                grid.walk(
                    stretch,
                    |distance| {
                        entered.set(distance);
                        true
                    },
                    |collider| {
                        first_visit[collider as usize].get_or_insert(entered.get());
                    },
                );
                for (collider, visit) in first_visit.iter().enumerate() {
                    let (center, radius) = (placed.centers[collider], placed.radii[collider]);
                    let Some(meeting) = first_meeting(stretch, center, radius) else {
                        continue;
                    };
                    let entered = visit.unwrap_or_else(|| {
                        panic!("{stretch:?}: collider {collider} at {center} r {radius} missed")
                    });
                    assert!(
                        f64::from(entered) <= meeting + 1e-3,
                        "{stretch:?}: {collider}"
                    );
                }
            }
        }
    }
}
