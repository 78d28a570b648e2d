//! The grid's pair queries: the pairs between the queried colliders and the binned ones, each
//! pair once, as a [`Join`] says. The hot path of the broad phase: a block of colliders at a
//! time, each reading the one cell under its centre.

use super::found::{Everyone, Found};
use super::{
    Aside, Covered, Grid, Layout, MAX_DENSE_CELLS_ACROSS, OUTSIDE_THE_GRID, WIDER_THAN_GROWTH,
};
use crate::pipeline::placed::PlacedColliders;
use bevy::prelude::*;
use core::ops::Range;

/// What a grid query pairs up.
#[derive(Clone, Copy)]
pub(crate) enum Join {
    /// The queried colliders against other colliders binned in the grid. With `check_layers`,
    /// pairs whose layers do not interact are dropped.
    Between { check_layers: bool },
    /// The queried colliders against themselves (they are what is binned): each pair once. With
    /// `check_layers`, pairs whose layers do not interact are dropped.
    Within { check_layers: bool },
}

/// How many queried colliders [`Grid::query_block`] finds the cells of at a time.
const CELL_BLOCK: usize = 256;
const _: () = assert!(CELL_BLOCK.is_power_of_two(), "query_block masks with it");

/// Scratch space for [`Grid::query_runs_one_cell`]: the colliders gathered from short runs, and
/// [`Grid::query_block`]'s own.
struct CellBlock {
    colliders: [u32; CELL_BLOCK],
    centers: [Vec2; CELL_BLOCK],
    radii: [f32; CELL_BLOCK],
    scratch: BlockCells,
}

/// [`Grid::query_block`]'s scratch space: each queried centre's cell, and the list of the
/// queried colliders whose cell is occupied.
struct BlockCells {
    cells: [u32; CELL_BLOCK],
    occupied: [u32; CELL_BLOCK],
}

impl CellBlock {
    fn new() -> Self {
        Self {
            colliders: [0; CELL_BLOCK],
            centers: [Vec2::ZERO; CELL_BLOCK],
            radii: [0.0; CELL_BLOCK],
            scratch: BlockCells {
                cells: [0; CELL_BLOCK],
                occupied: [0; CELL_BLOCK],
            },
        }
    }
}

/// A block of up to [`CELL_BLOCK`] queried colliders: the `i`th is `collider(i)`, with the
/// bounding circle of `centers[i]` and `radii[i]`.
struct QueriedBlock<'a, C: Fn(usize) -> u32> {
    collider: C,
    centers: &'a [Vec2],
    radii: &'a [f32],
}

/// One queried collider's box: `half_width` around its centre.
#[derive(Clone, Copy)]
struct QueriedBox {
    collider: u32,
    center: Vec2,
    half_width: f32,
}

impl Grid {
    /// Appends the pairs between the colliders of `runs` and the binned colliders, as `join`
    /// says, each once.
    #[inline(never)]
    pub(crate) fn query_runs(
        &self,
        placed: &PlacedColliders,
        runs: &[Range<u32>],
        join: Join,
        pairs: &mut Vec<[u32; 2]>,
    ) {
        match join.flags() {
            (_, true) => self.query_runs_found(runs, join, &mut Found::<true> { placed, pairs }),
            (_, false) => self.query_runs_found(runs, join, &mut Found::<false> { placed, pairs }),
        }
    }

    /// [`query_runs`](Self::query_runs), the pairs going to `found`.
    fn query_runs_found<const CHECK_LAYERS: bool>(
        &self,
        runs: &[Range<u32>],
        join: Join,
        found: &mut Found<CHECK_LAYERS>,
    ) {
        let placed = found.placed;
        match (self.layout, join) {
            (_, Join::Between { .. }) => {
                self.query_runs_one_cell(runs, found);
                self.query_aside(runs, found);
            }
            (
                Layout::Dense {
                    origin,
                    inverse_cell_size,
                },
                Join::Within { .. },
            ) => {
                for run in runs {
                    for collider in run.clone() {
                        let queried = QueriedBox {
                            collider,
                            center: placed.centers[collider as usize],
                            half_width: placed.radii[collider as usize],
                        };
                        let inverse = inverse_cell_size;
                        self.query_box_dense(queried, origin, inverse, join, found);
                    }
                }
            }
            (Layout::Wrapped { .. }, Join::Within { .. }) => {
                for run in runs {
                    self.query_run_wrapped(run.clone(), join, found);
                }
            }
        }
    }

    /// Colliders of another side: the hot path. A block of colliders at a time, each block
    /// taken straight from a long run, or gathered from short ones (a side whose layer values
    /// alternate collider by collider has runs of one).
    fn query_runs_one_cell<const CHECK_LAYERS: bool>(
        &self,
        runs: &[Range<u32>],
        found: &mut Found<CHECK_LAYERS>,
    ) {
        let placed = found.placed;
        let mut block = CellBlock::new();
        let CellBlock {
            colliders: gathered_colliders,
            centers,
            radii,
            scratch,
        } = &mut block;
        let mut gathered = 0;
        for run in runs {
            let (start, end) = (run.start as usize, run.end as usize);
            if run.len() < CELL_BLOCK {
                for collider in run.clone() {
                    gathered_colliders[gathered] = collider;
                    centers[gathered] = placed.centers[collider as usize];
                    radii[gathered] = placed.radii[collider as usize];
                    gathered += 1;
                    if gathered == CELL_BLOCK {
                        let block = QueriedBlock {
                            collider: |index: usize| gathered_colliders[index],
                            centers: &centers[..],
                            radii: &radii[..],
                        };
                        self.query_block(block, scratch, found);
                        gathered = 0;
                    }
                }
                continue;
            }
            for first in (start..end).step_by(CELL_BLOCK) {
                let rows = first..end.min(first + CELL_BLOCK);
                let block = QueriedBlock {
                    collider: |index: usize| (first + index) as u32,
                    centers: &placed.centers[rows.clone()],
                    radii: &placed.radii[rows],
                };
                self.query_block(block, scratch, found);
            }
        }
        let rest = QueriedBlock {
            collider: |index: usize| gathered_colliders[index],
            centers: &centers[..gathered],
            radii: &radii[..gathered],
        };
        self.query_block(rest, scratch, found);
    }

    /// Appends the pairs of a block of queried colliders: first every centre's cell (a loop
    /// without branches, which the compiler vectorises), then the list of those whose cell
    /// holds entries, then their entries.
    #[inline]
    fn query_block<const CHECK_LAYERS: bool>(
        &self,
        block: QueriedBlock<impl Fn(usize) -> u32>,
        scratch: &mut BlockCells,
        found: &mut Found<CHECK_LAYERS>,
    ) {
        let QueriedBlock {
            collider,
            centers,
            radii,
        } = block;
        let (starts, entries) = (self.starts.as_slice(), self.entries.as_slice());
        let Some(past_last_cell) = self.listed.len().checked_sub(1) else {
            return; // Not built: no cells.
        };
        let cells = &mut scratch.cells[..centers.len()];
        match self.layout {
            Layout::Dense {
                origin,
                inverse_cell_size,
            } => self.centre_cells(centers, radii, origin, inverse_cell_size, cells),
            Layout::Wrapped { .. } => self.folded_centre_cells(centers, radii, cells),
        }
        // The colliders whose cell holds entries, listed without a branch: most cells are
        // empty, and which are is hard to predict. The sentinels (wider than the growth, or
        // outside a folded grid) are clamped onto the extra slot past the last cell, which is
        // listed: they are told apart below.
        let occupied = &mut scratch.occupied;
        let mut count = 0;
        for (index, &cell) in cells.iter().enumerate() {
            let keep = self.listed[(cell as usize).min(past_last_cell)];
            // `count` is at most `index`, below `CELL_BLOCK` (a power of two): the mask
            // changes nothing, and spares a bounds check.
            occupied[count & (CELL_BLOCK - 1)] = index as u32;
            count += usize::from(keep);
        }
        for &index in &occupied[..count] {
            let (index, cell) = (index as usize, cells[index as usize]);
            let queried = collider(index);
            if cell >= OUTSIDE_THE_GRID {
                if cell == WIDER_THAN_GROWTH {
                    let wide = QueriedBox {
                        collider: queried,
                        center: centers[index],
                        half_width: radii[index] - self.growth,
                    };
                    self.query_wider(wide, found);
                }
                continue;
            }
            let cell = cell as usize;
            for entry in &entries[starts[cell] as usize..starts[cell + 1] as usize] {
                found.push_if_touching(queried, entry.collider);
            }
        }
    }

    /// The pairs of the queried colliders of `runs` with the colliders kept aside, each by its
    /// box first: one tight pass over the queried colliders per collider kept aside (most grids
    /// keep none), rather than a look from every queried collider's cell. Colliders wider than
    /// the growth meet them in [`query_run_wrapped`](Self::query_run_wrapped) instead.
    fn query_aside<const CHECK_LAYERS: bool>(
        &self,
        runs: &[Range<u32>],
        found: &mut Found<CHECK_LAYERS>,
    ) {
        let placed = found.placed;
        for aside in &self.oversized {
            for run in runs {
                let rows = run.start as usize..run.end as usize;
                let circles = placed.centers[rows.clone()].iter().zip(&placed.radii[rows]);
                for (collider, (&center, &radius)) in run.clone().zip(circles) {
                    if radius <= self.growth && aside.bounds.touches_circle(center, radius) {
                        found.push_if_touching(collider, aside.collider);
                    }
                }
            }
        }
    }

    /// The pairs of a queried collider wider than the growth, from the cells of its box (the
    /// box its circle reaches past the growth), or from every built collider where that box
    /// covers more cells than there are of them.
    #[inline(never)]
    fn query_wider<const CHECK_LAYERS: bool>(
        &self,
        wide: QueriedBox,
        found: &mut Found<CHECK_LAYERS>,
    ) {
        let join = Join::Between {
            check_layers: CHECK_LAYERS,
        };
        match self.layout {
            Layout::Dense {
                origin,
                inverse_cell_size,
            } => self.query_box_dense(wide, origin, inverse_cell_size, join, found),
            Layout::Wrapped { .. } => {
                let collider = wide.collider;
                self.query_run_wrapped(collider..collider + 1, join, found)
            }
        }
    }

    /// Folded layout: the array cell of each centre's real cell, [`OUTSIDE_THE_GRID`] for a
    /// centre outside the grid's box (or NaN), which touches nothing built, or
    /// [`WIDER_THAN_GROWTH`] (see [`centre_cells`](Self::centre_cells)). In `f64`, as
    /// [`wrapped_range`](Self::wrapped_range) takes it, without a branch. Every built collider
    /// in that array cell is there once (its range is shorter than a period), and those folded
    /// over from elsewhere fail the exact check.
    #[inline]
    fn folded_centre_cells(&self, centers: &[Vec2], radii: &[f32], cells: &mut [u32]) {
        let Layout::Wrapped {
            origin,
            inverse_cell_size,
            real_columns,
            real_rows,
        } = self.layout
        else {
            unreachable!("a folded query")
        };
        let (columns, growth) = (self.columns, self.growth);
        let (column_mask, row_mask) = (u64::from(self.column_mask), u64::from(self.row_mask));
        for ((cell, &center), &radius) in cells.iter_mut().zip(centers).zip(radii) {
            let at = (center.as_dvec2() - origin) * inverse_cell_size;
            // As `wrapped_range` has it: NaN fails every comparison.
            let inside =
                (at.x >= 0.0) & (at.y >= 0.0) & (at.x <= real_columns) & (at.y <= real_rows);
            // As `wrapped_range` clips them (the same saturating casts, beyond 2⁶⁴ too).
            let column = at.x.max(0.0).min(real_columns - 1.0) as u64 & column_mask;
            let row = at.y.max(0.0).min(real_rows - 1.0) as u64 & row_mask;
            let index = row as u32 * columns + column as u32;
            *cell = if radius > growth {
                WIDER_THAN_GROWTH
            } else if inside {
                index
            } else {
                OUTSIDE_THE_GRID
            };
        }
    }

    /// Dense layout: the cell under each centre, or [`WIDER_THAN_GROWTH`] for a collider wider than
    /// the growth (which reads the cells of its box instead). Clamped to the grid: a centre
    /// before it, or NaN, lands in the first column or row, one past it in the last: the
    /// border, empty but for rounding at the box's edge (and, in the first cell, any collider the
    /// grid could not place); the exact check rejects what is there. (See `build`.)
    #[inline]
    fn centre_cells(
        &self,
        centers: &[Vec2],
        radii: &[f32],
        origin: Vec2,
        inverse_cell_size: f32,
        cells: &mut [u32],
    ) {
        // Below 2²⁴ (see `fit`): exact in `f32`. (The proof of the conversions below rests
        // on it.)
        debug_assert!((1..=MAX_DENSE_CELLS_ACROSS).contains(&self.columns));
        debug_assert!((1..=MAX_DENSE_CELLS_ACROSS).contains(&self.rows));
        let (last_column, last_row) = ((self.columns - 1) as f32, (self.rows - 1) as f32);
        let (columns, growth) = (self.columns, self.growth);
        for ((cell, &center), &radius) in cells.iter_mut().zip(centers).zip(radii) {
            let at = (center - origin) * inverse_cell_size;
            // `f32::max` returns the other argument when one is NaN: NaN becomes zero, and
            // every value ends in `0..=last`, as the saturating casts `as u32` then `min(last)`
            // would leave it.
            let (column, row) = (at.x.max(0.0).min(last_column), at.y.max(0.0).min(last_row));
            // The casts without their saturation, which the compiler converts one lane at a
            // time: measured in the rain of 50,000 bullets (one thread, before the list of
            // occupied cells), the query took 47 instructions a bullet against 59, and
            // 0.29 ms against 0.35.
            #[expect(unsafe_code, reason = "the checked casts do not vectorise")]
            // SAFETY: `to_int_unchecked` needs a value that is not NaN or infinite and that,
            // truncated, fits the type. `column` and `row` are clamped above, not NaN, within
            // `0..=last_column` and `0..=last_row`, below 2²⁴: they fit `i32`.
            let (column, row) = unsafe {
                (
                    column.to_int_unchecked::<i32>(),
                    row.to_int_unchecked::<i32>(),
                )
            };
            // Not negative (clamped at zero), so the casts to `u32` keep the values.
            let index = row as u32 * columns + column as u32;
            *cell = if radius > growth {
                WIDER_THAN_GROWTH
            } else {
                index
            };
        }
    }

    /// Appends the pairs of one queried collider whose box spans cells: each pair from the
    /// first cell the two boxes share (or, where the box covers more cells than the grid holds
    /// colliders, from a look at each of them), and, joined within one group, only with the
    /// colliders after it.
    #[inline(never)]
    fn query_box_dense<const CHECK_LAYERS: bool>(
        &self,
        queried: QueriedBox,
        origin: Vec2,
        inverse_cell_size: f32,
        join: Join,
        found: &mut Found<CHECK_LAYERS>,
    ) {
        let (within, _) = join.flags();
        let QueriedBox {
            collider,
            center,
            half_width,
        } = queried;
        let Some(range) = self.dense_cells_covered(origin, inverse_cell_size, center, half_width)
        else {
            return;
        };
        if self.covers_more_than_built(range) {
            // Each built collider once (within one group, those after it), rather than every
            // cell of the box.
            let after = if within { collider + 1 } else { 0 };
            found.push_each_of_runs(collider, &self.built, Everyone::From(after));
            return;
        }
        self.for_each_first_shared(range, |entry| {
            if !within || entry.collider > collider {
                found.push_if_touching(collider, entry.collider);
            }
        });
    }

    /// The pairs of the colliders `run` in the wrapped layout, for pairs within one group and
    /// for colliders wider than the growth (the others take [`query_block`](Self::query_block)).
    ///
    /// A queried collider visits each real cell its box covers, in its folded array cell. An entry
    /// there may belong to another real cell folded onto the same one; the pair is reported
    /// only from the first real cell the two boxes share, found in each direction as the later
    /// of the two first cells: the visited cell must be the queried collider's first, or the
    /// entry's (difference zero), and not before the entry's (difference not negative). For a
    /// pair that touches, with both ranges shorter than a period, an entry from a folded-over
    /// cell fails that test (its difference is off by a whole period); a pair that does not
    /// touch fails the exact check whatever the cells say. So each touching pair is reported
    /// exactly once.
    #[inline(never)]
    fn query_run_wrapped<const CHECK_LAYERS: bool>(
        &self,
        run: Range<u32>,
        join: Join,
        found: &mut Found<CHECK_LAYERS>,
    ) {
        let (within, _) = join.flags();
        let placed = found.placed;
        for collider in run {
            let (center, radius) = (
                placed.centers[collider as usize],
                placed.radii[collider as usize],
            );
            // The box shrunk by the growth (a point, for a collider no wider than it).
            let half_width = (radius - self.growth).max(0.0);
            let range = match self.cells_covered(center, half_width) {
                Some(Covered::Cells(range)) => range,
                Some(Covered::Oversized) => {
                    // Too wide to fold: against every built collider, or, within one group,
                    // against the other oversized ones (the rest check it themselves); each
                    // by its box first.
                    let aside = Aside {
                        collider,
                        bounds: placed.path_box(collider as usize),
                    };
                    if within {
                        for other in self
                            .oversized
                            .iter()
                            .filter(|other| other.collider > collider)
                        {
                            aside.push_if_touching(other.collider, found);
                        }
                    } else {
                        self.visit_members(|other| aside.push_if_touching(other, found));
                    }
                    continue;
                }
                None => continue,
            };
            if !within && self.covers_more_than_built(range) {
                // Each built collider once rather than every cell of the box, and those kept
                // aside by their boxes, below. (Within one group, the colliders kept aside pair
                // with the others from the others' side: the cells are read.)
                found.push_each_of_runs(collider, &self.built, Everyone::ButAside(&self.oversized));
            } else {
                self.for_each_first_shared(range, |entry| {
                    if !within || entry.collider > collider {
                        found.push_if_touching(collider, entry.collider);
                    }
                });
            }
            for aside in &self.oversized {
                aside.push_if_touching(collider, found);
            }
        }
    }
}

impl Join {
    /// Whether the queried colliders are the binned ones, and whether layers are checked per
    /// pair.
    #[inline]
    fn flags(self) -> (bool, bool) {
        match self {
            Self::Between { check_layers } => (false, check_layers),
            Self::Within { check_layers } => (true, check_layers),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::grid;
    use super::*;

    /// The vectorised cells agree with the saturating casts they replace, for centres inside,
    /// before, past and far past the grid, infinite and NaN; a collider wider than the growth
    /// gets no cell.
    #[test]
    fn centre_cells_are_the_clamped_cells_of_the_centres() {
        let mut grid = grid();
        grid.growth = 0.5;
        let Layout::Dense {
            origin,
            inverse_cell_size,
        } = grid.layout
        else {
            panic!("dense")
        };
        let coordinates = [
            -1e30,
            -3.0,
            -2.0,
            -0.5,
            0.0,
            0.25,
            1.0,
            4.999,
            5.0,
            9.99,
            10.0,
            11.5,
            12.0,
            1e30,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let mut centers = Vec::new();
        for &x in &coordinates {
            for &y in &coordinates {
                centers.push(Vec2::new(x, y));
            }
        }
        let radii: Vec<f32> = (0..centers.len())
            .map(|index| if index % 7 == 3 { 0.75 } else { 0.5 })
            .collect();
        let mut cells = vec![0; centers.len()];
        grid.centre_cells(&centers, &radii, origin, inverse_cell_size, &mut cells);
        for ((&center, &radius), &cell) in centers.iter().zip(&radii).zip(&cells) {
            let at = (center - origin) * inverse_cell_size;
            let column = (at.x as u32).min(grid.columns - 1);
            let row = (at.y as u32).min(grid.rows - 1);
            let expected = if radius > grid.growth {
                WIDER_THAN_GROWTH
            } else {
                row * grid.columns + column
            };
            assert_eq!(cell, expected, "centre {center}, radius {radius}");
        }
    }
}
