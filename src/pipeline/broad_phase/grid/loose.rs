//! Colliders binned by the cell of their centre alone, in grids for spatial queries.
//!
//! A grid's build writes a collider into every cell its box covers: about four for a collider
//! a cell wide. A grid for spatial queries instead bins each collider no wider than half a cell
//! in the one cell of its centre, and grows every query's box, or path, by the largest radius of
//! those colliders ([`Grid::loose_reach`](super::Grid)): a collider whose box meets the query's
//! has its centre within that reach of it, so its cell is among those the grown query reads.
//! A wider collider (an outlier: a wall among bullets) is binned in the cells of its box as in
//! any grid. The build writes a quarter of the entries; a query reads a few more cells.
//!
//! Each cell of a centre is found as a query's box finds its cells, by the same monotone
//! steps from the same origin: a centre at or past the grown box's low corner, in `f32`, lands
//! in a cell at or past the box's first.

use super::{CellRange, Grid, Layout};
use bevy::prelude::*;

/// How a grid for spatial queries bins its colliders (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Binning {
    /// Each collider in every cell its box covers: the fewest cells a query reads. For a group
    /// built once and kept while it stands still (walls).
    Boxes,
    /// Each collider no wider than half a cell in the cell of its centre alone: about half the
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::{CollisionLayers, LayerMask};
    use crate::pipeline::broad_phase::tests::placed_from;
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
}
