//! A uniform grid over some bodies (one group, or the sides a side meets), for finding the
//! bodies near a bounding circle.

use crate::geometry::BoundingBox;
use crate::pipeline::bodies::Bodies;
use bevy::math::DVec2;
use bevy::prelude::*;
use core::ops::Range;

/// What a grid query pairs up.
#[derive(Clone, Copy)]
pub(crate) enum Join {
    /// The queried bodies against other bodies binned in the grid. With `check_layers`, pairs
    /// whose layers do not interact are dropped.
    Between { check_layers: bool },
    /// The queried bodies against themselves (they are what is binned): each pair once. With
    /// `check_layers`, pairs whose layers do not interact are dropped.
    Within { check_layers: bool },
}

/// A uniform grid over some bodies, each binned into every cell its bounding box (grown, see
/// [`Grid::build`]) covers, stored compactly (cell `c`'s entries are
/// `entries[starts[c]..starts[c + 1]]`).
///
/// Two layouts, chosen per build:
/// - **Dense** (the usual one): the cells tile the bodies' bounding box, about a body wide, or
///   wider so that there are no more than a few cells per body, with an empty border.
/// - **Wrapped**, for a group spread far wider than its bodies could fill (one collider parked
///   far away, a few distant clusters): dense cells over such a box would be so wide that most
///   bodies shared one, and the tests grew with the square of the count. Instead the cells stay
///   about a body wide over the whole box, and the box's cells are folded onto a power-of-two
///   array, cell `(column, row)` stored at `(column mod columns, row mod rows)` like tiles. Bodies
///   far apart may share an array cell, and the exact circle check rejects them; a pair is
///   reported once, from the first *real* cell the two share (see [`Grid::query_run_wrapped`]).
///   A body spanning a whole period of the folding (more columns or rows than the array has)
///   cannot be folded: it is kept aside and checked against every queried body, by the box of
///   its path first (see [`Aside`]). One body far larger than the rest (a wall across the
///   world) lays the grid over its own box, so the grid folds and keeps it aside.
#[derive(Default)]
pub(crate) struct Grid {
    layout: Layout,
    /// The box the grid was laid over: every built body's bounding box lies in it.
    bounds: (Vec2, Vec2),
    columns: u32,
    rows: u32,
    starts: Vec<u32>,
    entries: Vec<Entry>,
    /// Per array cell, whether a queried centre there has any built body to meet: the cell
    /// holds entries (bodies kept aside are met in a pass of their own). One more, `false`, for
    /// the cells past the last (the sentinels, clamped onto it). What [`Grid::query_block`]
    /// lists its bodies by.
    listed: Vec<bool>,
    /// Each built body's cells, kept while counting so filling need not recompute them.
    ranges: Vec<CellRange>,
    /// Wrapped layout: the bodies kept aside, too wide to fold.
    oversized: Vec<Aside>,
    /// Wrapped layout: every built body, for a queried body too wide to fold.
    members: Vec<u32>,
    /// What a column or row number is masked with to find its array column or row: all ones
    /// in the dense layout, `columns − 1` and `rows − 1` wrapped.
    column_mask: u32,
    row_mask: u32,
    /// How much each built body's box was grown on every side (see [`Grid::build`]).
    growth: f32,
}

/// How a grid maps positions to cells.
#[derive(Clone, Copy)]
enum Layout {
    /// The cells tile the box from `origin`, `columns × rows` of them.
    Dense {
        origin: Vec2,
        inverse_cell_size: f32,
    },
    /// The box from `origin` holds `real_columns × real_rows` cells, folded onto the
    /// `columns × rows` array (powers of two). Computed in `f64`, so that cell numbers stay
    /// exact up to `2⁵³` cells across (beyond, they round, but monotonically: boxes that
    /// overlap still get overlapping cells).
    Wrapped {
        origin: DVec2,
        inverse_cell_size: f64,
        real_columns: f64,
        real_rows: f64,
    },
}

impl Default for Layout {
    fn default() -> Self {
        Self::Dense {
            origin: Vec2::ZERO,
            inverse_cell_size: 1.0,
        }
    }
}

/// A body kept aside, too wide to fold (see [`Grid`]), with a box around its whole path:
/// checked against every queried body, and the box, far tighter than the bounding circle for
/// a long wall across the world, spares the exact check of every body its circle covers.
#[derive(Clone, Copy)]
struct Aside {
    body: u32,
    bounds: BoundingBox,
}

impl Aside {
    /// Appends `[queried, self.body]` if the queried body's bounding circle reaches this
    /// body's box, and then as [`push_if_touching`] says.
    #[inline]
    fn push_if_touching(
        &self,
        bodies: &Bodies,
        queried: u32,
        check_layers: bool,
        pairs: &mut Vec<[u32; 2]>,
    ) {
        let index = queried as usize;
        if self
            .bounds
            .touches_circle(bodies.centers[index], bodies.radii[index])
        {
            push_if_touching(bodies, (queried, self.body), check_layers, pairs);
        }
    }
}

/// A binned body, with its first cell (for reporting a pair only once).
#[derive(Clone, Copy, Default)]
struct Entry {
    body: u32,
    first_column: u32,
    first_row: u32,
}

/// The cells a bounding box covers, inclusive. In the wrapped layout these are the low 32 bits
/// of the real cell numbers: differences between them, taken with wrapping arithmetic, are the
/// real differences whenever those are small, which is all a query needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct CellRange {
    first_column: u32,
    first_row: u32,
    last_column: u32,
    last_row: u32,
}

/// The most columns, and rows, of a dense grid: every column and row number is exact in
/// `f32` (see [`Grid::centre_cells`]).
const MAX_DENSE_CELLS_ACROSS: u32 = 1 << 24;

/// How many queried bodies [`Grid::query_block`] finds the cells of at a time.
const CELL_BLOCK: usize = 256;
const _: () = assert!(CELL_BLOCK.is_power_of_two(), "query_block masks with it");

/// Scratch space for [`Grid::query_runs_one_cell`]: the bodies gathered from short runs, and
/// [`Grid::query_block`]'s cells and list of occupied ones.
struct CellBlock {
    bodies: [u32; CELL_BLOCK],
    centers: [Vec2; CELL_BLOCK],
    radii: [f32; CELL_BLOCK],
    cells: [u32; CELL_BLOCK],
    occupied: [u32; CELL_BLOCK],
}

impl CellBlock {
    fn new() -> Self {
        Self {
            bodies: [0; CELL_BLOCK],
            centers: [Vec2::ZERO; CELL_BLOCK],
            radii: [0.0; CELL_BLOCK],
            cells: [0; CELL_BLOCK],
            occupied: [0; CELL_BLOCK],
        }
    }
}

/// The cell [`Grid::centre_cells`] gives a body wider than the growth: no cell (the grid has
/// fewer cells than this).
const WIDER_THAN_GROWTH: u32 = u32::MAX;

/// The cell [`Grid::folded_centre_cells`] gives a centre outside the grid's box: no cell.
const OUTSIDE_THE_GRID: u32 = u32::MAX - 1;

/// How much wider than a body a dense cell may grow, before the grid folds instead.
const MAX_CELL_GROWTH: f32 = 4.0;

impl CellRange {
    /// Every array cell of the range, row by row: in the dense layout the cells themselves
    /// (the masks are all ones), in the wrapped layout each real cell folded onto the array
    /// (the range spans less than a period, so no array cell comes twice).
    fn cells(self, grid: &Grid) -> impl Iterator<Item = usize> + use<> {
        let (columns, column_mask, row_mask) = (grid.columns, grid.column_mask, grid.row_mask);
        (0..=self.last_row.wrapping_sub(self.first_row)).flat_map(move |row_step| {
            let row = self.first_row.wrapping_add(row_step) & row_mask;
            (0..=self.last_column.wrapping_sub(self.first_column)).map(move |column_step| {
                let column = self.first_column.wrapping_add(column_step) & column_mask;
                (row * columns + column) as usize
            })
        })
    }
}

impl Grid {
    /// Bins the bodies of `runs`, each body's box grown by `growth` on every side (and padded,
    /// see [`Grid::cells_covered`]), with cells
    /// about twice `typical_radius` wide, and no more than a few per built body plus one per
    /// four of the `queried` bodies that will query it.
    ///
    /// Grown by the largest radius of the bodies to be queried (all but a few outliers), a
    /// grid answers a query with one cell: every built body that such a body can touch has its
    /// grown box over the queried centre, so it is in the centre's cell, once. The dense
    /// layout keeps an empty border of cells around the box, so that a centre outside it falls
    /// in an empty cell without a test. Spatial queries and pairs within one group use no
    /// growth.
    pub(crate) fn build(
        &mut self,
        bodies: &Bodies,
        runs: &[Range<u32>],
        typical_radius: f32,
        growth: f32,
        queried: usize,
    ) {
        let members = || runs.iter().flat_map(Clone::clone);
        let count = runs.iter().map(ExactSizeIterator::len).sum::<usize>();
        let (mut min, mut max) = (Vec2::INFINITY, Vec2::NEG_INFINITY);
        for body in members() {
            let (center, radius) = (bodies.centers[body as usize], bodies.radii[body as usize]);
            let (low, high) = (center - (radius + growth), center + (radius + growth));
            // A box that is not finite (which the exact check rejects) would make the whole
            // grid's box NaN, and every body share one cell: it goes in the first cell
            // instead (see `count_entries`), and the grid is laid over the others.
            if low.is_finite() && high.is_finite() {
                min = min.min(low);
                max = max.max(high);
            }
        }
        self.growth = growth;
        self.fit(min, max, (count, queried), typical_radius);
        self.bounds = (min, max);
        self.oversized.clear();
        self.members.clear();
        if matches!(self.layout, Layout::Wrapped { .. }) {
            self.members.extend(members());
        }
        self.count_entries(bodies, members());
        self.fill_entries(members());
        self.listed.clear();
        let holding = self.starts.windows(2).map(|cell| cell[0] != cell[1]);
        self.listed.extend(holding);
        self.listed.push(false);
    }

    /// Lays the grid over the box from `min` to `max`: cells about `2 × typical_radius` wide,
    /// but no more than a few cells per body. Dense when cells no more than
    /// [`MAX_CELL_GROWTH`] times that wide cover the box within that budget; wrapped otherwise.
    fn fit(&mut self, min: Vec2, max: Vec2, (count, queried): (usize, usize), typical_radius: f32) {
        let extent = (max - min).max(Vec2::splat(f32::MIN_POSITIVE));
        let max_cells = (4 * count + 64 + queried / 4) as f32;
        // No narrower than a 2⁵²th of the box (bodies that are mostly points): cell numbers
        // then stay exact in `f64`, far from where the casts saturate and every body would
        // share one cell.
        let narrowest = extent.max_element() / (1u64 << 52) as f32;
        let body_cell_size = (2.0 * typical_radius).max(narrowest).max(f32::MIN_POSITIVE);
        let area_cell_size = (extent.x * extent.y / max_cells).sqrt();
        let spread_wide = area_cell_size > MAX_CELL_GROWTH * body_cell_size;
        if !spread_wide {
            // Also when the box is not finite (no finite body: NaN compares false): every body
            // then goes in the first cell or none, where the exact check rejects it.
            let cell_size = body_cell_size.max(area_cell_size);
            let most = (max_cells as u32).min(MAX_DENSE_CELLS_ACROSS - 4);
            let inner_columns = ((extent.x / cell_size) as u32).clamp(1, most);
            let inner_rows = ((extent.y / cell_size) as u32).clamp(1, most);
            // Cells may come out a little wider than `cell_size` in one direction: use the
            // larger.
            let inverse_cell_size =
                (inner_columns as f32 / extent.x).min(inner_rows as f32 / extent.y);
            // And a border all round, two cells before the box and two after it, empty but
            // where rounding (of the origin, far from zero) puts a box's edge in it: so that a
            // centre outside the box lands, clipped, in a cell that is almost always empty.
            (self.columns, self.rows) = (inner_columns + 4, inner_rows + 4);
            (self.column_mask, self.row_mask) = (u32::MAX, u32::MAX);
            self.layout = Layout::Dense {
                origin: min - 2.0 / inverse_cell_size,
                inverse_cell_size,
            };
            return;
        }
        let inverse_cell_size = 1.0 / f64::from(body_cell_size);
        // In `f64` from the corners themselves (the `f32` extent may round down), with a cell
        // before the box and one after (and one more than the extent spans, so that the far
        // corner lies inside): a centre that rounding puts just outside still finds its cell.
        let real = (max.as_dvec2() - min.as_dvec2()) * inverse_cell_size;
        let (real_columns, real_rows) = (real.x.floor() + 3.0, real.y.floor() + 3.0);
        // A power-of-two array of about `max_cells`, square unless the box is too narrow one
        // way to need that many columns or rows.
        let budget = (max_cells as u32).next_power_of_two() / 2;
        let side = 1 << (budget.trailing_zeros() / 2);
        let fitting = |real: f64| (real as u32).max(1).next_power_of_two();
        (self.columns, self.rows) = if real_rows < f64::from(side) {
            let rows = fitting(real_rows);
            (budget / rows, rows)
        } else if real_columns < f64::from(side) {
            let columns = fitting(real_columns);
            (columns, budget / columns)
        } else {
            (side, budget / side)
        };
        (self.column_mask, self.row_mask) = (self.columns - 1, self.rows - 1);
        self.layout = Layout::Wrapped {
            origin: min.as_dvec2() - 1.0 / inverse_cell_size,
            inverse_cell_size,
            real_columns,
            real_rows,
        };
    }

    /// Counts each cell's entries into `starts[cell + 1]`, then sums them up so that
    /// `starts[cell]` is where the cell's entries begin; keeps each body's cells in `ranges`
    /// (and, wrapped, sets aside the bodies too wide to fold, with an empty range).
    fn count_entries(&mut self, bodies: &Bodies, members: impl Iterator<Item = u32>) {
        let cell_count = (self.columns * self.rows) as usize;
        self.starts.clear();
        self.starts.resize(cell_count + 1, 0);
        self.ranges.clear();
        for body in members {
            let (center, radius) = (bodies.centers[body as usize], bodies.radii[body as usize]);
            // A body the grid cannot place (not finite) goes in the first cell, where the
            // exact circle check rejects every pair with it.
            let range = match self.cells_covered(center, radius + self.growth) {
                Some(Covered::Cells(range)) => range,
                Some(Covered::Oversized) => {
                    let bounds = bodies.path_box(body as usize);
                    self.oversized.push(Aside { body, bounds });
                    self.ranges.push(CellRange::default());
                    continue;
                }
                None => CellRange::default(),
            };
            self.ranges.push(range);
            for cell in range.cells(self) {
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
        let mut oversized = self.oversized.iter().peekable();
        for (body, &range) in members.zip(&self.ranges) {
            if oversized.next_if(|aside| aside.body == body).is_some() {
                continue;
            }
            for cell in range.cells(self) {
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

    /// The cells the box `half_width` around `center` covers, clipped to the grid; `None` when
    /// it misses the grid or is not finite. In the dense layout the box is taken in the grid's
    /// own coordinates (from its origin, where a body's centre and a queried point round
    /// alike) and padded by a few units in their last place, so that rounding in its edges
    /// never loses a pair that the exact check keeps. (The folded layout works in `f64`.)
    #[inline]
    fn cells_covered(&self, center: Vec2, half_width: f32) -> Option<Covered> {
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
                // In `f64`, where the edges round no further, padded by the rounding of the
                // exact check (relative to the reach).
                let local = center.as_dvec2() - origin;
                let half_width = f64::from(half_width) * (1.0 + 4.0 * f64::from(f32::EPSILON));
                self.wrapped_range(
                    (local - half_width) * inverse_cell_size,
                    (local + half_width) * inverse_cell_size,
                )
            }
        }
    }

    /// [`cells_covered`](Self::cells_covered) in the dense layout.
    #[inline]
    fn dense_cells_covered(
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
    fn box_covered(&self, min: Vec2, max: Vec2) -> Option<Covered> {
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
                (min.as_dvec2() - origin) * inverse_cell_size,
                (max.as_dvec2() - origin) * inverse_cell_size,
            ),
        }
    }

    /// The folded layout's cells from `low` to `high`, in real cell numbers (fractional).
    #[inline]
    fn wrapped_range(&self, low: DVec2, high: DVec2) -> Option<Covered> {
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
    fn dense_box_covered(
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
    fn dense_local_box_covered(
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
    fn for_each_first_shared(&self, range: CellRange, mut visit: impl FnMut(&Entry)) {
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

    /// The box the grid was laid over (every built body's bounding box lies in it).
    pub(crate) fn bounds(&self) -> (Vec2, Vec2) {
        self.bounds
    }

    /// How wide a cell is.
    pub(crate) fn cell_size(&self) -> f32 {
        match self.layout {
            Layout::Dense {
                inverse_cell_size, ..
            } => 1.0 / inverse_cell_size,
            Layout::Wrapped {
                inverse_cell_size, ..
            } => (1.0 / inverse_cell_size) as f32,
        }
    }

    /// Calls `visit` for each built body whose bounding box may meet the box from `min` to
    /// `max` (its cells meet the box's cells), once each (see below for the folded layout):
    /// what a spatial query then tests exactly. Returns whether that was every built body (the
    /// box spans a whole period of the folding), so that a growing search can stop. A box
    /// that is not one (`min > max`, or NaN) meets nothing.
    pub(crate) fn visit_box(&self, min: Vec2, max: Vec2, mut visit: impl FnMut(u32)) -> bool {
        if !min.cmple(max).all() {
            return false;
        }
        let range = match self.box_covered(min, max) {
            Some(Covered::Cells(range)) => range,
            Some(Covered::Oversized) => {
                // As wide as a period of the folding: everyone.
                self.members.iter().copied().for_each(visit);
                return true;
            }
            None => return false,
        };
        // The rule of the pair queries, the box in the queried body's place. (In the folded
        // layout a body from a folded-over cell, far from the box, may come more than once: the
        // exact tests reject it.)
        self.for_each_first_shared(range, |entry| visit(entry.body));
        let query = BoundingBox { min, max };
        let near = self
            .oversized
            .iter()
            .filter(|aside| aside.bounds.overlaps(&query));
        near.for_each(|aside| visit(aside.body));
        false
    }

    /// Appends the pairs between the bodies of `runs` and the binned bodies, as `join` says,
    /// each once.
    #[inline(never)]
    pub(crate) fn query_runs(
        &self,
        bodies: &Bodies,
        runs: &[Range<u32>],
        join: Join,
        pairs: &mut Vec<[u32; 2]>,
    ) {
        match (self.layout, join) {
            (_, Join::Between { check_layers }) => {
                self.query_runs_one_cell(bodies, runs, check_layers, pairs);
                self.query_aside(bodies, runs, check_layers, pairs);
            }
            (
                Layout::Dense {
                    origin,
                    inverse_cell_size,
                },
                Join::Within { .. },
            ) => {
                for run in runs {
                    for body in run.clone() {
                        let (center, radius) =
                            (bodies.centers[body as usize], bodies.radii[body as usize]);
                        let dense = (origin, inverse_cell_size);
                        self.query_box_dense(bodies, (body, center, radius), dense, join, pairs);
                    }
                }
            }
            (Layout::Wrapped { .. }, Join::Within { .. }) => {
                for run in runs {
                    self.query_run_wrapped(bodies, run.clone(), join, pairs);
                }
            }
        }
    }

    /// Bodies of another side: the hot path. A block of bodies at a time, each block taken
    /// straight from a long run, or gathered from short ones (a side whose layer values
    /// alternate body by body has runs of one).
    fn query_runs_one_cell(
        &self,
        bodies: &Bodies,
        runs: &[Range<u32>],
        check_layers: bool,
        pairs: &mut Vec<[u32; 2]>,
    ) {
        let mut block = CellBlock::new();
        let CellBlock {
            bodies: listed,
            centers,
            radii,
            cells,
            occupied,
        } = &mut block;
        let mut gathered = 0;
        for run in runs {
            let (start, end) = (run.start as usize, run.end as usize);
            if run.len() < CELL_BLOCK {
                for body in run.clone() {
                    listed[gathered] = body;
                    centers[gathered] = bodies.centers[body as usize];
                    radii[gathered] = bodies.radii[body as usize];
                    gathered += 1;
                    if gathered == CELL_BLOCK {
                        let block = (|index: usize| listed[index], &centers[..], &radii[..]);
                        let found = (check_layers, &mut *pairs);
                        self.query_block(bodies, block, (cells, occupied), found);
                        gathered = 0;
                    }
                }
                continue;
            }
            for first in (start..end).step_by(CELL_BLOCK) {
                let rows = first..end.min(first + CELL_BLOCK);
                let run_block = (
                    |index: usize| (first + index) as u32,
                    &bodies.centers[rows.clone()],
                    &bodies.radii[rows],
                );
                let found = (check_layers, &mut *pairs);
                self.query_block(bodies, run_block, (cells, occupied), found);
            }
        }
        let rest = (
            |index: usize| listed[index],
            &centers[..gathered],
            &radii[..gathered],
        );
        self.query_block(bodies, rest, (cells, occupied), (check_layers, pairs));
    }

    /// Appends the pairs of a block of queried bodies (`body(i)` with `centers[i]` and
    /// `radii[i]`, up to [`CELL_BLOCK`] of them): first every centre's cell (a loop without
    /// branches, which the compiler vectorises), then the list of those whose cell holds
    /// entries, then their entries.
    #[inline]
    fn query_block(
        &self,
        bodies: &Bodies,
        (body, centers, radii): (impl Fn(usize) -> u32, &[Vec2], &[f32]),
        (cells, occupied): (&mut [u32; CELL_BLOCK], &mut [u32; CELL_BLOCK]),
        (check_layers, pairs): (bool, &mut Vec<[u32; 2]>),
    ) {
        let (starts, entries) = (self.starts.as_slice(), self.entries.as_slice());
        let Some(past_last_cell) = self.listed.len().checked_sub(1) else {
            return; // Not built: no cells.
        };
        let cells = &mut cells[..centers.len()];
        match self.layout {
            Layout::Dense {
                origin,
                inverse_cell_size,
            } => self.centre_cells(centers, radii, (origin, inverse_cell_size), cells),
            Layout::Wrapped {
                origin,
                inverse_cell_size,
                ..
            } => self.folded_centre_cells(centers, radii, (origin, inverse_cell_size), cells),
        }
        // The bodies whose cell holds entries, or that are wider than the growth, listed
        // without a branch: most cells are empty, and which are is hard to predict.
        let mut count = 0;
        for (index, &cell) in cells.iter().enumerate() {
            // The sentinels are past the last cell, where nothing is listed.
            let listed = self.listed[(cell as usize).min(past_last_cell)];
            let keep = listed | (cell == WIDER_THAN_GROWTH);
            // `count` is at most `index`, below `CELL_BLOCK` (a power of two): the mask
            // changes nothing, and spares a bounds check.
            occupied[count & (CELL_BLOCK - 1)] = index as u32;
            count += usize::from(keep);
        }
        for &index in &occupied[..count] {
            let (index, cell) = (index as usize, cells[index as usize]);
            let queried = body(index);
            if cell == WIDER_THAN_GROWTH {
                self.query_wider(
                    bodies,
                    (queried, centers[index], radii[index]),
                    check_layers,
                    pairs,
                );
                continue;
            }
            let cell = cell as usize;
            for entry in &entries[starts[cell] as usize..starts[cell + 1] as usize] {
                push_if_touching(bodies, (queried, entry.body), check_layers, pairs);
            }
        }
    }

    /// The pairs of the queried bodies of `runs` with the bodies kept aside, each by its box
    /// first: one tight pass over the queried bodies per body kept aside (most grids keep
    /// none), rather than a look from every queried body's cell. Bodies wider than the growth
    /// meet them in [`query_run_wrapped`](Self::query_run_wrapped) instead.
    fn query_aside(
        &self,
        bodies: &Bodies,
        runs: &[Range<u32>],
        check_layers: bool,
        pairs: &mut Vec<[u32; 2]>,
    ) {
        for aside in &self.oversized {
            for run in runs {
                let rows = run.start as usize..run.end as usize;
                let circles = bodies.centers[rows.clone()].iter().zip(&bodies.radii[rows]);
                for (body, (&center, &radius)) in run.clone().zip(circles) {
                    if radius <= self.growth && aside.bounds.touches_circle(center, radius) {
                        push_if_touching(bodies, (body, aside.body), check_layers, pairs);
                    }
                }
            }
        }
    }

    /// The pairs of a queried body wider than the growth, from the cells of its box.
    #[inline(never)]
    fn query_wider(
        &self,
        bodies: &Bodies,
        (body, center, radius): (u32, Vec2, f32),
        check_layers: bool,
        pairs: &mut Vec<[u32; 2]>,
    ) {
        let join = Join::Between { check_layers };
        match self.layout {
            Layout::Dense {
                origin,
                inverse_cell_size,
            } => {
                let dense = (origin, inverse_cell_size);
                self.query_box_dense(
                    bodies,
                    (body, center, radius - self.growth),
                    dense,
                    join,
                    pairs,
                );
            }
            Layout::Wrapped { .. } => self.query_run_wrapped(bodies, body..body + 1, join, pairs),
        }
    }

    /// Folded layout: the array cell of each centre's real cell, [`OUTSIDE_THE_GRID`] for a
    /// centre outside the grid's box (or NaN), which touches nothing built, or
    /// [`WIDER_THAN_GROWTH`] (see [`centre_cells`](Self::centre_cells)). In `f64`, as
    /// [`wrapped_range`](Self::wrapped_range) takes it, without a branch. Every built body in
    /// that array cell is there once (its range is shorter than a period), and those folded
    /// over from elsewhere fail the exact check.
    #[inline]
    fn folded_centre_cells(
        &self,
        centers: &[Vec2],
        radii: &[f32],
        (origin, inverse_cell_size): (DVec2, f64),
        cells: &mut [u32],
    ) {
        let Layout::Wrapped {
            real_columns,
            real_rows,
            ..
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

    /// Dense layout: the cell under each centre, or [`WIDER_THAN_GROWTH`] for a body wider than
    /// the growth (which reads the cells of its box instead). Clamped to the grid: a centre
    /// before it, or NaN, lands in the first column or row, one past it in the last: the
    /// border, empty but for rounding at the box's edge (and, in the first cell, any body the
    /// grid could not place); the exact check rejects what is there. (See `build`.)
    #[inline]
    fn centre_cells(
        &self,
        centers: &[Vec2],
        radii: &[f32],
        (origin, inverse_cell_size): (Vec2, f32),
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

    /// Appends the pairs of one queried body whose box, `half_width` around its centre, spans
    /// cells: each pair from the first cell the two boxes share, and within one group only
    /// with the bodies after it.
    #[inline(never)]
    fn query_box_dense(
        &self,
        bodies: &Bodies,
        (body, center, half_width): (u32, Vec2, f32),
        (origin, inverse_cell_size): (Vec2, f32),
        join: Join,
        pairs: &mut Vec<[u32; 2]>,
    ) {
        let (within, check_layers) = join.flags();
        let Some(range) = self.dense_cells_covered(origin, inverse_cell_size, center, half_width)
        else {
            return;
        };
        self.for_each_first_shared(range, |entry| {
            if !within || entry.body > body {
                push_if_touching(bodies, (body, entry.body), check_layers, pairs);
            }
        });
    }

    /// The pairs of the bodies `run` in the wrapped layout, for pairs within one group and
    /// for bodies wider than the growth (the others take [`query_block`](Self::query_block)).
    ///
    /// A queried body visits each real cell its box covers, in its folded array cell. An entry
    /// there may belong to another real cell folded onto the same one; the pair is reported
    /// only from the first real cell the two boxes share, found in each direction as the later
    /// of the two first cells: the visited cell must be the queried body's first, or the
    /// entry's (difference zero), and not before the entry's (difference not negative). For a
    /// pair that touches, with both ranges shorter than a period, an entry from a folded-over
    /// cell fails that test (its difference is off by a whole period); a pair that does not
    /// touch fails the exact check whatever the cells say. So each touching pair is reported
    /// exactly once.
    fn query_run_wrapped(
        &self,
        bodies: &Bodies,
        run: Range<u32>,
        join: Join,
        pairs: &mut Vec<[u32; 2]>,
    ) {
        let (within, check_layers) = join.flags();
        for body in run {
            let (center, radius) = (bodies.centers[body as usize], bodies.radii[body as usize]);
            // The box shrunk by the growth (a point, for a body no wider than it).
            let half_width = (radius - self.growth).max(0.0);
            let range = match self.cells_covered(center, half_width) {
                Some(Covered::Cells(range)) => range,
                Some(Covered::Oversized) => {
                    // Too wide to fold: against every built body, or, within one group,
                    // against the other oversized ones (the rest check it themselves); each
                    // by its box first.
                    let aside = Aside {
                        body,
                        bounds: bodies.path_box(body as usize),
                    };
                    if within {
                        for other in self.oversized.iter().filter(|other| other.body > body) {
                            aside.push_if_touching(bodies, other.body, check_layers, pairs);
                        }
                    } else {
                        for &other in &self.members {
                            aside.push_if_touching(bodies, other, check_layers, pairs);
                        }
                    }
                    continue;
                }
                None => continue,
            };
            self.for_each_first_shared(range, |entry| {
                if !within || entry.body > body {
                    push_if_touching(bodies, (body, entry.body), check_layers, pairs);
                }
            });
            for aside in &self.oversized {
                aside.push_if_touching(bodies, body, check_layers, pairs);
            }
        }
    }

    /// Whether the last build folded the grid, and how many bodies it kept aside.
    #[cfg(test)]
    pub(super) fn folded(&self) -> Option<usize> {
        matches!(self.layout, Layout::Wrapped { .. }).then_some(self.oversized.len())
    }

    /// The most entries any one cell holds.
    #[cfg(test)]
    pub(super) fn fullest_cell(&self) -> usize {
        self.starts
            .windows(2)
            .map(|pair| (pair[1] - pair[0]) as usize)
            .max()
            .unwrap_or(0)
    }
}

/// What a body's box covers in the grid.
enum Covered {
    Cells(CellRange),
    /// Wrapped layout: more columns or rows than the array has, too wide to fold.
    Oversized,
}

impl Join {
    /// Whether the queried bodies are the binned ones, and whether layers are checked per pair.
    #[inline]
    fn flags(self) -> (bool, bool) {
        match self {
            Self::Between { check_layers } => (false, check_layers),
            Self::Within { check_layers } => (true, check_layers),
        }
    }
}

/// Appends `[body, other]` if their layers interact (when checked) and their bounding circles
/// touch: the exact check, squared distance against squared reach.
#[inline]
fn push_if_touching(
    bodies: &Bodies,
    (body, other): (u32, u32),
    check_layers: bool,
    pairs: &mut Vec<[u32; 2]>,
) {
    let (first, second) = (body as usize, other as usize);
    if check_layers && !bodies.layers[first].interacts_with(&bodies.layers[second]) {
        return;
    }
    let reach = bodies.radii[first] + bodies.radii[second];
    if bodies.centers[first].distance_squared(bodies.centers[second]) <= reach * reach {
        pairs.push([body, other]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 10 × 5 grid of unit cells from the origin, in a border two cells wide: the cell
    /// `(2, 2)` starts at the origin.
    fn grid() -> Grid {
        let mut grid = Grid::default();
        grid.fit(Vec2::ZERO, Vec2::new(10.0, 5.0), (1000, 0), 0.5);
        grid
    }

    /// The vectorised cells agree with the saturating casts they replace, for centres inside,
    /// before, past and far past the grid, infinite and NaN; a body wider than the growth
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
        grid.centre_cells(&centers, &radii, (origin, inverse_cell_size), &mut cells);
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

    /// The cells a circle covers, expecting it to be placed in them.
    fn covered(grid: &Grid, center: Vec2, radius: f32) -> Option<CellRange> {
        match grid.cells_covered(center, radius) {
            Some(Covered::Cells(range)) => Some(range),
            Some(Covered::Oversized) => panic!("oversized"),
            None => None,
        }
    }

    #[test]
    fn cells_are_about_a_body_wide() {
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
        assert_eq!(range.cells(&grid).count(), 9);
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

    #[test]
    fn a_sparse_group_gets_no_more_than_a_few_cells_per_body() {
        for typical_radius in [1.0, 1e5] {
            let mut grid = Grid::default();
            grid.fit(Vec2::ZERO, Vec2::splat(1e6), (10, 0), typical_radius);
            // Not counting the border.
            assert!((grid.columns - 4) * (grid.rows - 4) <= 4 * 10 + 64);
        }
    }

    #[test]
    fn a_box_far_wider_than_its_bodies_folds_onto_body_wide_cells() {
        let mut grid = Grid::default();
        grid.fit(Vec2::ZERO, Vec2::splat(1e7), (1000, 0), 2.0);
        let Layout::Wrapped {
            inverse_cell_size,
            real_columns,
            ..
        } = grid.layout
        else {
            panic!("dense");
        };
        assert_eq!(inverse_cell_size, 0.25);
        // The extent's cells, one more for the far corner, and one either side.
        assert_eq!(real_columns, 2.5e6 + 3.0);
        assert!(grid.columns.is_power_of_two() && grid.rows.is_power_of_two());
        assert!(grid.columns * grid.rows <= 4 * 1000 + 64);
        // Two cells a period apart share an array cell; their real numbers differ.
        let period = grid.columns as f32 * 4.0;
        let (near, far) = (
            covered(&grid, Vec2::new(1.0, 1.0), 0.5).unwrap(),
            covered(&grid, Vec2::new(1.0 + period, 1.0), 0.5).unwrap(),
        );
        assert_eq!(
            near.cells(&grid).collect::<Vec<_>>(),
            far.cells(&grid).collect::<Vec<_>>()
        );
        assert_eq!(far.first_column - near.first_column, grid.columns);
        // A body spanning a whole period cannot be folded.
        assert!(matches!(
            grid.cells_covered(Vec2::splat(5e3), period),
            Some(Covered::Oversized)
        ));
    }

    #[test]
    fn a_narrow_box_folds_only_along_its_length() {
        let mut grid = Grid::default();
        grid.fit(Vec2::ZERO, Vec2::new(1e7, 8.0), (1000, 0), 2.0);
        assert!(matches!(grid.layout, Layout::Wrapped { .. }));
        // 8 units are two cells of 4, one more for the far edge and one either side: five
        // rows, rounded up to a power of two.
        assert_eq!(grid.rows, 8);
        assert_eq!(
            grid.columns * grid.rows,
            (4 * 1000 + 64_u32).next_power_of_two() / 2
        );
    }
}
