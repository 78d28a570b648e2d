//! A uniform grid over one group of bodies, for finding the bodies near a bounding circle.

use crate::pipeline::bodies::Bodies;
use crate::pipeline::parallel::ParallelSplit;
use bevy::prelude::*;
use core::ops::Range;

/// What a grid query pairs up.
#[derive(Clone, Copy)]
pub(super) enum Join {
    /// The queried bodies against a different group binned in the grid.
    Between,
    /// The queried bodies against themselves (they are what is binned): each pair once. With
    /// `check_layers`, pairs whose layers do not interact are dropped.
    Within { check_layers: bool },
}

/// A uniform grid over one group's bounding box, each body binned into every cell its
/// bounding box covers, stored compactly (cell `c`'s entries are
/// `entries[starts[c]..starts[c + 1]]`).
#[derive(Default)]
pub(super) struct Grid {
    origin: Vec2,
    inverse_cell_size: f32,
    columns: u32,
    rows: u32,
    starts: Vec<u32>,
    entries: Vec<Entry>,
    /// Each built body's cells, kept while counting so filling need not recompute them.
    ranges: Vec<CellRange>,
}

/// A binned body, with its first cell (for reporting a pair only once).
#[derive(Clone, Copy, Default)]
struct Entry {
    body: u32,
    first_column: u32,
    first_row: u32,
}

/// The cells a bounding box covers, inclusive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct CellRange {
    first_column: u32,
    first_row: u32,
    last_column: u32,
    last_row: u32,
}

impl CellRange {
    /// Every cell of the range, row by row.
    fn cells(self, columns: u32) -> impl Iterator<Item = usize> {
        (self.first_row..=self.last_row).flat_map(move |row| {
            (self.first_column..=self.last_column)
                .map(move |column| (row * columns + column) as usize)
        })
    }
}

impl Grid {
    /// Bins the bodies of `runs`, with cells about twice `typical_radius` wide.
    pub fn build(&mut self, bodies: &Bodies, runs: &[Range<u32>], typical_radius: f32) {
        let members = || runs.iter().flat_map(Clone::clone);
        let count = runs.iter().map(ExactSizeIterator::len).sum::<usize>();
        let (mut min, mut max) = (Vec2::INFINITY, Vec2::NEG_INFINITY);
        for body in members() {
            let (center, radius) = (bodies.centers[body as usize], bodies.radii[body as usize]);
            min = min.min(center - radius);
            max = max.max(center + radius);
        }
        self.fit(min, max, count, typical_radius);
        self.count_entries(bodies, members());
        self.fill_entries(members());
    }

    /// Lays the grid over the box from `min` to `max`: cells about `2 × typical_radius` wide,
    /// but no more than a few cells per body.
    fn fit(&mut self, min: Vec2, max: Vec2, count: usize, typical_radius: f32) {
        let extent = (max - min).max(Vec2::splat(f32::MIN_POSITIVE));
        let max_cells = (4 * count + 64) as f32;
        let body_cell_size = (2.0 * typical_radius).max(f32::MIN_POSITIVE);
        let area_cell_size = (extent.x * extent.y / max_cells).sqrt();
        let cell_size = body_cell_size.max(area_cell_size);
        self.columns = ((extent.x / cell_size) as u32).clamp(1, max_cells as u32);
        self.rows = ((extent.y / cell_size) as u32).clamp(1, max_cells as u32);
        self.origin = min;
        // Cells may come out a little wider than `cell_size` in one direction: use the larger.
        self.inverse_cell_size = (self.columns as f32 / extent.x).min(self.rows as f32 / extent.y);
    }

    /// Counts each cell's entries into `starts[cell + 1]`, then sums them up so that
    /// `starts[cell]` is where the cell's entries begin; keeps each body's cells in `ranges`.
    fn count_entries(&mut self, bodies: &Bodies, members: impl Iterator<Item = u32>) {
        let cell_count = (self.columns * self.rows) as usize;
        self.starts.clear();
        self.starts.resize(cell_count + 1, 0);
        self.ranges.clear();
        for body in members {
            let (center, radius) = (bodies.centers[body as usize], bodies.radii[body as usize]);
            // A body the grid cannot place (not finite) goes in the first cell, where the
            // exact circle check rejects every pair with it.
            let range = self.cells_covered(center, radius).unwrap_or_default();
            self.ranges.push(range);
            for cell in range.cells(self.columns) {
                self.starts[cell + 1] += 1;
            }
        }
        for cell in 0..cell_count {
            self.starts[cell + 1] += self.starts[cell];
        }
    }

    /// Writes the entries, advancing each cell's cursor (`starts[cell]`), then shifts the
    /// starts back.
    fn fill_entries(&mut self, members: impl Iterator<Item = u32>) {
        let cell_count = self.starts.len() - 1;
        self.entries.clear();
        self.entries
            .resize(self.starts[cell_count] as usize, Entry::default());
        for (body, range) in members.zip(&self.ranges) {
            for cell in range.cells(self.columns) {
                let cursor = &mut self.starts[cell];
                self.entries[*cursor as usize] = Entry {
                    body,
                    first_column: range.first_column,
                    first_row: range.first_row,
                };
                *cursor += 1;
            }
        }
        self.starts.copy_within(0..cell_count, 1);
        self.starts[0] = 0;
    }

    /// The cells the box around a circle covers, clipped to the grid; `None` when it misses
    /// the grid or is not finite.
    #[inline]
    fn cells_covered(&self, center: Vec2, radius: f32) -> Option<CellRange> {
        let low = (center - radius - self.origin) * self.inverse_cell_size;
        let high = (center + radius - self.origin) * self.inverse_cell_size;
        let (columns, rows) = (self.columns as f32, self.rows as f32);
        // Written so that NaN fails every comparison and is rejected.
        if !(high.x >= 0.0 && high.y >= 0.0 && low.x < columns && low.y < rows) {
            return None;
        }
        let clip = |value: f32, count: u32| (value.max(0.0) as u32).min(count - 1);
        Some(CellRange {
            first_column: clip(low.x, self.columns),
            first_row: clip(low.y, self.rows),
            last_column: clip(high.x, self.columns),
            last_row: clip(high.y, self.rows),
        })
    }

    /// Appends the pairs between the bodies of `runs` (`len` of them) and the binned bodies,
    /// as `join` says; split across the task pool when there are enough (see
    /// [`ParallelSplit`]). `pieces` is scratch space for the split.
    pub fn query_into(
        &self,
        bodies: &Bodies,
        (runs, len): (&[Range<u32>], usize),
        join: Join,
        split: Option<ParallelSplit>,
        pieces: &mut Vec<Range<u32>>,
        pairs: &mut Vec<[u32; 2]>,
    ) {
        let Some(split) = split else {
            for run in runs {
                self.query_run(bodies, run.clone(), join, pairs);
            }
            return;
        };
        debug_assert_eq!(len, runs.iter().map(ExactSizeIterator::len).sum::<usize>());
        // Cut the runs into pieces of about equal size.
        let piece_size = split.piece_size as u32;
        pieces.clear();
        for run in runs {
            let mut start = run.start;
            while start < run.end {
                let end = run.end.min(start + piece_size);
                pieces.push(start..end);
                start = end;
            }
        }
        let found = split.pool.scope(|scope| {
            for piece in pieces.iter() {
                scope.spawn(async move {
                    let mut found = Vec::new();
                    self.query_run(bodies, piece.clone(), join, &mut found);
                    found
                });
            }
        });
        for chunk in found {
            pairs.extend_from_slice(&chunk);
        }
    }

    /// Appends the pairs between the bodies `run` and the binned bodies, as `join` says.
    fn query_run(&self, bodies: &Bodies, run: Range<u32>, join: Join, pairs: &mut Vec<[u32; 2]>) {
        let (within, check_layers) = match join {
            Join::Between => (false, false),
            Join::Within { check_layers } => (true, check_layers),
        };
        let (start, end) = (run.start as usize, run.end as usize);
        let centers = &bodies.centers[start..end];
        let radii = &bodies.radii[start..end];
        for (offset, (&center, &radius)) in centers.iter().zip(radii).enumerate() {
            let body = (start + offset) as u32;
            let Some(range) = self.cells_covered(center, radius) else {
                continue;
            };
            for row in range.first_row..=range.last_row {
                let row_start = row * self.columns;
                for column in range.first_column..=range.last_column {
                    let cell = (row_start + column) as usize;
                    let entries =
                        &self.entries[self.starts[cell] as usize..self.starts[cell + 1] as usize];
                    for entry in entries {
                        if within && entry.body <= body {
                            continue;
                        }
                        // Report the pair only from the first cell the two share.
                        if column != range.first_column.max(entry.first_column)
                            || row != range.first_row.max(entry.first_row)
                        {
                            continue;
                        }
                        let other = entry.body as usize;
                        if check_layers
                            && !bodies.layers[body as usize].interacts_with(&bodies.layers[other])
                        {
                            continue;
                        }
                        // The exact check: squared distance against squared reach.
                        let reach = radius + bodies.radii[other];
                        if center.distance_squared(bodies.centers[other]) <= reach * reach {
                            pairs.push([body, entry.body]);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 10 × 5 grid of unit cells from the origin.
    fn grid() -> Grid {
        let mut grid = Grid::default();
        grid.fit(Vec2::ZERO, Vec2::new(10.0, 5.0), 1000, 0.5);
        grid
    }

    #[test]
    fn cells_are_about_a_body_wide() {
        let grid = grid();
        assert_eq!((grid.columns, grid.rows), (10, 5));
        assert_eq!(grid.inverse_cell_size, 1.0);
    }

    #[test]
    fn a_circle_covers_the_cells_of_its_box() {
        let range = grid().cells_covered(Vec2::new(3.5, 2.5), 1.0).unwrap();
        assert_eq!(
            range,
            CellRange {
                first_column: 2,
                first_row: 1,
                last_column: 4,
                last_row: 3
            }
        );
        assert_eq!(range.cells(10).count(), 9);
    }

    #[test]
    fn a_circle_over_the_border_is_clipped_to_the_grid() {
        let range = grid().cells_covered(Vec2::new(-1.0, 4.5), 1.5).unwrap();
        assert_eq!(
            range,
            CellRange {
                first_column: 0,
                first_row: 3,
                last_column: 0,
                last_row: 4
            }
        );
        let huge = grid().cells_covered(Vec2::new(5.0, 2.0), 1e30).unwrap();
        assert_eq!((huge.last_column, huge.last_row), (9, 4));
    }

    #[test]
    fn a_circle_beside_the_grid_or_not_finite_covers_nothing() {
        let grid = grid();
        assert_eq!(grid.cells_covered(Vec2::new(20.0, 2.0), 1.0), None);
        assert_eq!(grid.cells_covered(Vec2::new(5.0, -3.0), 1.0), None);
        assert_eq!(grid.cells_covered(Vec2::new(f32::NAN, 2.0), 1.0), None);
        assert_eq!(grid.cells_covered(Vec2::new(5.0, 2.0), f32::NAN), None);
    }

    #[test]
    fn a_sparse_group_gets_no_more_than_a_few_cells_per_body() {
        let mut grid = Grid::default();
        grid.fit(Vec2::ZERO, Vec2::splat(1e6), 10, 1.0);
        assert!(grid.columns * grid.rows <= 4 * 10 + 64);
    }
}
