//! Which cells of the grid a box or a bounding circle covers, in either layout, and the rule
//! by which a pair is reported once: from the first cell the two share.

use super::{CellRange, Covered, Entry, Grid, Layout};
use bevy::math::DVec2;
use bevy::prelude::*;

impl CellRange {
    /// Calls `visit` with every array cell of the range, row by row: in the dense layout the
    /// cells themselves (the masks are all ones), in the wrapped layout each real cell folded
    /// onto the array (the range spans less than a period, so no array cell comes twice).
    /// Two plain loops: a grid's build visits a few cells for each of its colliders.
    #[inline]
    pub(super) fn for_each_cell(self, array: CellArray, mut visit: impl FnMut(usize)) {
        let CellArray {
            columns,
            column_mask,
            row_mask,
        } = array;
        // Less than a period, or than the grid's side: no overflow.
        let width = self.last_column.wrapping_sub(self.first_column) + 1;
        let height = self.last_row.wrapping_sub(self.first_row) + 1;
        for row_step in 0..height {
            let row_start = (self.first_row.wrapping_add(row_step) & row_mask) * columns;
            for column_step in 0..width {
                let column = self.first_column.wrapping_add(column_step) & column_mask;
                visit((row_start + column) as usize);
            }
        }
    }

    /// Every array cell of the range, in the order of [`for_each_cell`](Self::for_each_cell).
    #[cfg(test)]
    pub(super) fn cells(self, grid: &Grid) -> Vec<usize> {
        let mut cells = Vec::new();
        self.for_each_cell(grid.array(), |cell| cells.push(cell));
        cells
    }
}

/// How a grid's cells lie in its array: what [`CellRange::for_each_cell`] needs of it.
#[derive(Clone, Copy)]
pub(super) struct CellArray {
    columns: u32,
    /// All ones in the dense layout; the wrapped layout's columns less one.
    column_mask: u32,
    row_mask: u32,
}

impl Grid {
    /// How its cells lie in its array.
    #[inline]
    pub(super) fn array(&self) -> CellArray {
        CellArray {
            columns: self.columns,
            column_mask: self.column_mask,
            row_mask: self.row_mask,
        }
    }

    /// The cells the box `half_width` around `center` covers, clipped to the grid; `None` when
    /// it misses the grid or is not finite. In the dense layout the box is taken in the grid's
    /// own coordinates (from its origin, where a collider's centre and a queried point round
    /// alike) and padded by a few units in their last place, so that rounding in its edges
    /// never loses a pair that the exact check keeps. (The folded layout works in `f64`.)
    #[inline]
    pub(super) fn cells_covered(&self, center: Vec2, half_width: f32) -> Option<Covered> {
        match self.layout {
            Layout::Dense {
                origin,
                inverse_cell_size,
            } => self
                .dense_cells_covered(origin, inverse_cell_size, center, half_width)
                .map(Covered::Cells),
            Layout::Wrapped {
                origin,
                inverse_cell_size,
                ..
            } => {
                // In `f64`, padded by the rounding of the exact check (relative to the reach).
                // The reach is taken from the centre before the distance from the grid's
                // corner, so that each edge is what a centre queried there would be, rounded
                // the same way (each step rounds monotonically): in a grid folded over a box up
                // to 1e18 wide, that distance rounds by more than a small collider's size, and
                // a box measured from its rounded centre could miss a centre it reaches.
                let center = center.as_dvec2();
                let half_width = f64::from(half_width) * (1.0 + 4.0 * f64::from(f32::EPSILON));
                self.wrapped_range(
                    (center - half_width - origin) * inverse_cell_size,
                    (center + half_width - origin) * inverse_cell_size,
                )
            }
        }
    }

    /// [`cells_covered`](Self::cells_covered) in the dense layout.
    #[inline]
    pub(super) fn dense_cells_covered(
        &self,
        origin: Vec2,
        inverse_cell_size: f32,
        center: Vec2,
        half_width: f32,
    ) -> Option<CellRange> {
        let local = center - origin;
        let half_width = half_width + 4.0 * f32::EPSILON * (local.abs().max_element() + half_width);
        self.dense_local_box_covered(inverse_cell_size, local - half_width, local + half_width)
    }

    /// The cells the box from `min` to `max` covers, clipped to the grid; `None` when it misses
    /// the grid or is not finite.
    #[inline]
    pub(super) fn box_covered(&self, min: Vec2, max: Vec2) -> Option<Covered> {
        match self.layout {
            Layout::Dense {
                origin,
                inverse_cell_size,
            } => self
                .dense_box_covered(origin, inverse_cell_size, min, max)
                .map(Covered::Cells),
            Layout::Wrapped {
                origin,
                inverse_cell_size,
                ..
            } => self.wrapped_range(
                // Each edge as a centre queried there would be, rounded the same way.
                (min.as_dvec2() - origin) * inverse_cell_size,
                (max.as_dvec2() - origin) * inverse_cell_size,
            ),
        }
    }

    /// The folded layout's cells from `low` to `high`, in real cell numbers (fractional).
    #[inline]
    pub(super) fn wrapped_range(&self, low: DVec2, high: DVec2) -> Option<Covered> {
        let Layout::Wrapped {
            real_columns,
            real_rows,
            ..
        } = self.layout
        else {
            return None;
        };
        // Written so that NaN fails every comparison and is rejected. A box touching the far
        // edge (`low == real_columns`) still meets the last cell.
        if !(high.x >= 0.0 && high.y >= 0.0 && low.x <= real_columns && low.y <= real_rows) {
            return None;
        }
        // Saturating casts: monotonic, so boxes that overlap keep overlapping ranges.
        let clip = |value: f64, count: f64| value.max(0.0).min(count - 1.0) as u64;
        let (first_column, last_column) = (clip(low.x, real_columns), clip(high.x, real_columns));
        let (first_row, last_row) = (clip(low.y, real_rows), clip(high.y, real_rows));
        if last_column - first_column >= u64::from(self.columns)
            || last_row - first_row >= u64::from(self.rows)
        {
            return Some(Covered::Oversized);
        }
        // The low 32 bits, as `CellRange` says.
        Some(Covered::Cells(CellRange {
            first_column: first_column as u32,
            first_row: first_row as u32,
            last_column: last_column as u32,
            last_row: last_row as u32,
        }))
    }

    /// [`box_covered`](Self::box_covered) in the dense layout.
    #[inline]
    pub(super) fn dense_box_covered(
        &self,
        origin: Vec2,
        inverse_cell_size: f32,
        min: Vec2,
        max: Vec2,
    ) -> Option<CellRange> {
        self.dense_local_box_covered(inverse_cell_size, min - origin, max - origin)
    }

    /// The cells of the box from `min` to `max`, in the grid's coordinates (from its origin).
    #[inline]
    pub(super) fn dense_local_box_covered(
        &self,
        inverse_cell_size: f32,
        min: Vec2,
        max: Vec2,
    ) -> Option<CellRange> {
        let low = min * inverse_cell_size;
        let high = max * inverse_cell_size;
        let (columns, rows) = (self.columns as f32, self.rows as f32);
        // Written so that NaN fails every comparison and is rejected. A box touching the far
        // edge (`low == columns`) still meets the last cell.
        if !(high.x >= 0.0 && high.y >= 0.0 && low.x <= columns && low.y <= rows) {
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

    /// Calls `visit` for each entry of the cells of `range` (real cell numbers, folded onto
    /// the array), from the first real cell that its range and `range` share only: the
    /// visited cell must be `range`'s first or the entry's (difference zero), and not before
    /// the entry's (difference not negative), in each direction. See
    /// [`query_run_wrapped`](Self::query_run_wrapped) for why that reports a touching pair
    /// once in the folded layout; in the dense one it is the plain first shared cell.
    pub(super) fn for_each_first_shared(&self, range: CellRange, mut visit: impl FnMut(&Entry)) {
        for row_step in 0..=range.last_row.wrapping_sub(range.first_row) {
            let row = range.first_row.wrapping_add(row_step);
            let row_start = (row & self.row_mask) * self.columns;
            for column_step in 0..=range.last_column.wrapping_sub(range.first_column) {
                let column = range.first_column.wrapping_add(column_step);
                let cell = (row_start + (column & self.column_mask)) as usize;
                let entries =
                    &self.entries[self.starts[cell] as usize..self.starts[cell + 1] as usize];
                for entry in entries {
                    let column_past = column.wrapping_sub(entry.first_column) as i32;
                    let row_past = row.wrapping_sub(entry.first_row) as i32;
                    if column_past >= 0
                        && row_past >= 0
                        && (column_step == 0 || column_past == 0)
                        && (row_step == 0 || row_past == 0)
                    {
                        visit(entry);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{covered, grid};
    use super::*;

    #[test]
    fn cells_are_about_a_collider_wide() {
        let grid = grid();
        assert_eq!((grid.columns, grid.rows), (14, 9));
        assert!(matches!(
            grid.layout,
            Layout::Dense {
                inverse_cell_size: 1.0,
                origin: Vec2 { x: -2.0, y: -2.0 },
            }
        ));
    }

    #[test]
    fn a_circle_covers_the_cells_of_its_box() {
        let grid = grid();
        let range = covered(&grid, Vec2::new(3.5, 2.5), 1.0).unwrap();
        assert_eq!(
            range,
            CellRange {
                first_column: 4,
                first_row: 3,
                last_column: 6,
                last_row: 5
            }
        );
        assert_eq!(range.cells(&grid).len(), 9);
    }

    #[test]
    fn a_circle_over_the_border_is_clipped_to_the_grid() {
        let grid = grid();
        let range = covered(&grid, Vec2::new(-1.0, 4.5), 1.4).unwrap();
        assert_eq!(
            range,
            CellRange {
                first_column: 0,
                first_row: 5,
                last_column: 2,
                last_row: 7
            }
        );
        // A box whose edge lies exactly on a cell's edge also takes the cell before it: the
        // padding against rounding.
        let on_edge = covered(&grid, Vec2::new(3.0, 2.0), 1.0).unwrap();
        assert_eq!((on_edge.first_column, on_edge.first_row), (3, 2));
        let huge = covered(&grid, Vec2::new(5.0, 2.0), 1e30).unwrap();
        assert_eq!((huge.last_column, huge.last_row), (13, 8));
    }

    #[test]
    fn a_circle_beside_the_grid_or_not_finite_covers_nothing() {
        let grid = grid();
        assert_eq!(covered(&grid, Vec2::new(20.0, 2.0), 1.0), None);
        assert_eq!(covered(&grid, Vec2::new(5.0, -5.0), 1.0), None);
        assert_eq!(covered(&grid, Vec2::new(f32::NAN, 2.0), 1.0), None);
        assert_eq!(covered(&grid, Vec2::new(5.0, 2.0), f32::NAN), None);
    }
}
