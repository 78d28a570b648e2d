//! A uniform grid over some colliders (one group, or the sides a side meets), for finding the
//! colliders near a bounding circle.

mod cells;
mod found;
mod kept;
mod loose;
mod pairs;
mod walk;

pub(crate) use loose::Binning;
pub(crate) use pairs::Join;
pub(crate) use walk::Stretch;

use crate::geometry::BoundingBox;
use crate::pipeline::placed::PlacedColliders;
use bevy::math::DVec2;
use bevy::prelude::*;
use core::ops::Range;

/// A uniform grid over some colliders, each binned into every cell its bounding box (grown, see
/// [`Grid::build`]) covers, or, in a grid for spatial queries binned by centres, a small one as
/// the point of its centre (see [`Binning`]), stored compactly (cell `c`'s entries are
/// `entries[starts[c]..starts[c + 1]]`).
///
/// Two layouts, chosen per build:
/// - **Dense** (the usual one): the cells tile the colliders' bounding box, about a collider wide,
///   or wider so that there are no more than a few cells per collider, with an empty border.
/// - **Wrapped**, for a group spread far wider than its colliders could fill (one collider parked
///   far away, a few distant clusters): dense cells over such a box would be so wide that most
///   colliders shared one, and the tests grew with the square of the count. Instead the cells stay
///   about a collider wide over the whole box, and the box's cells are folded onto a power-of-two
///   array, cell `(column, row)` stored at `(column mod columns, row mod rows)` like tiles.
///   Colliders far apart may share an array cell, and the exact circle check rejects them; a pair
///   is reported once, from the first *real* cell the two share (see [`Grid::query_run_wrapped`]).
///   A collider spanning a whole period of the folding (more columns or rows than the array has)
///   cannot be folded: it is kept aside and checked against every queried collider, by the box of
///   its path first (see [`Aside`]). One collider far larger than the rest (a wall across the
///   world) lays the grid over its own box, so the grid folds and keeps it aside.
#[derive(Default)]
pub(crate) struct Grid {
    layout: Layout,
    /// The box the grid was laid over: every built collider's bounding box lies in it.
    bounds: (Vec2, Vec2),
    columns: u32,
    rows: u32,
    starts: Vec<u32>,
    entries: Vec<Entry>,
    /// Per array cell, whether a queried centre there has any built collider to meet: the cell
    /// holds entries (colliders kept aside are met in a pass of their own). One more, `true`, for
    /// the cells past the last: the sentinels, clamped onto it, are listed and then told apart.
    /// What [`Grid::query_block`] lists its colliders by.
    listed: Vec<bool>,
    /// Each built collider's cells, kept while counting so filling need not recompute them.
    ranges: Vec<CellRange>,
    /// Wrapped layout: the colliders kept aside, too wide to fold, in the order the runs list
    /// them.
    oversized: Vec<Aside>,
    /// Every built collider, as the runs it was built from: for a queried collider too wide to
    /// fold, or whose box covers more cells than there are built colliders, and for a spatial
    /// query whose box spans a whole period of the folding.
    built: Vec<Range<u32>>,
    /// How many colliders `built` holds.
    built_count: usize,
    /// What a column or row number is masked with to find its array column or row: all ones
    /// in the dense layout, `columns − 1` and `rows − 1` wrapped.
    column_mask: u32,
    row_mask: u32,
    /// How much each built collider's box was grown on every side (see [`Grid::build`]).
    growth: f32,
    /// Grids for spatial queries: the largest radius of the colliders binned by the cell of
    /// their centre alone (see [`Binning::Centres`]), what each query's box or path is grown by;
    /// zero where there are none.
    loose_reach: f32,
    /// Grids binned by centres: how much farther a walk reaches for the rounding of their cells
    /// (see [`Grid::rounding_of_centres`]); zero in other grids.
    centre_rounding: f32,
    /// The centres' coordinates, for the box most colliders lie in (see
    /// [`Grid::query_cell_floor`]).
    coordinates: Vec<f32>,
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

/// A collider kept aside, too wide to fold (see [`Grid`]), with a box around its whole path:
/// checked against every queried collider, and the box, far tighter than the bounding circle for
/// a long wall across the world, spares the exact check of every collider its circle covers.
#[derive(Clone, Copy)]
struct Aside {
    collider: u32,
    bounds: BoundingBox,
}

/// A binned collider, with its first cell (for reporting a pair only once).
#[derive(Clone, Copy, Default)]
struct Entry {
    collider: u32,
    first_column: u32,
    first_row: u32,
}

/// The cells a bounding box covers, inclusive. In the wrapped layout these are the low 32 bits
/// of the real cell numbers: differences between them, taken with wrapping arithmetic, are the
/// real differences whenever those are small, which is all a query needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct CellRange {
    pub(super) first_column: u32,
    pub(super) first_row: u32,
    pub(super) last_column: u32,
    pub(super) last_row: u32,
}

/// What a collider's box covers in the grid.
pub(super) enum Covered {
    Cells(CellRange),
    /// Wrapped layout: more columns or rows than the array has, too wide to fold.
    Oversized,
}

/// The most columns, and rows, of a dense grid: every column and row number is exact in
/// `f32` (see [`Grid::centre_cells`]).
const MAX_DENSE_CELLS_ACROSS: u32 = 1 << 24;

/// The cell [`Grid::centre_cells`] gives a collider wider than the growth: no cell.
const WIDER_THAN_GROWTH: u32 = u32::MAX;

/// The cell [`Grid::folded_centre_cells`] gives a centre outside the grid's box: no cell. The
/// two sentinels are the only cell numbers from it up (a grid has fewer cells than this).
const OUTSIDE_THE_GRID: u32 = u32::MAX - 1;
const _: () = assert!(OUTSIDE_THE_GRID < WIDER_THAN_GROWTH);

/// How much wider than a collider a dense cell may grow, before the grid folds instead.
const MAX_CELL_GROWTH: f32 = 4.0;

/// The most cells a grid of `count` colliders has, queried by `queried` more: a few a collider.
fn max_cells(count: usize, queried: usize) -> f32 {
    (4 * count + 64 + queried / 4) as f32
}

/// How many times over `f32` tells positions apart across a box: `2²⁴`, its significand's
/// reach. Colliders narrower than the box over this are points there.
const TELLS_APART: f32 = (1u32 << 24) as f32;

/// How much narrower than the cells that would lay the box's longer side once across the
/// array a grid built for spatial queries may fold its cells, where its colliders are too
/// small to size them (points: [`Grid::query_cell_floor`]): that side then folds onto the
/// array about ten times over, so a query meets every collider only where it is about a tenth
/// as wide as the box.
const QUERY_CELL_FRACTION: f32 = 1.0 / 8.0;

impl Grid {
    /// Bins the colliders of `runs`, each collider's box grown by `growth` on every side (and
    /// padded, see [`Grid::cells_covered`]), with cells about twice `typical_radius` wide, and no
    /// more than a few per built collider plus one per four of the `queried` colliders that will
    /// query it.
    ///
    /// Grown by the largest radius of the colliders to be queried (all but a few outliers), a grid
    /// answers a query with one cell: every built collider that such a collider can touch has its
    /// grown box over the queried centre, so it is in the centre's cell, once. The dense layout
    /// keeps an empty border of cells around the box, so that a centre outside it falls in an empty
    /// cell without a test. Spatial queries and pairs within one group use no growth.
    pub(crate) fn build(
        &mut self,
        placed: &PlacedColliders,
        runs: &[Range<u32>],
        typical_radius: f32,
        growth: f32,
        queried: usize,
    ) {
        self.build_either(placed, runs, typical_radius, growth, queried, None);
    }

    /// Bins the colliders of `runs` for spatial queries, of any size, as `binning` says (see
    /// [`Binning`]): as [`Grid::build`] does with no growth, but where the colliders are too
    /// small to size the cells (points), with cells no narrower than
    /// [`Grid::query_cell_floor`]. Points would otherwise fold the grid onto cells so small that
    /// a query wider than a few of them covers the whole fold, and meets every collider.
    pub(crate) fn build_for_queries(
        &mut self,
        placed: &PlacedColliders,
        runs: &[Range<u32>],
        typical_radius: f32,
        binning: Binning,
    ) {
        self.build_either(placed, runs, typical_radius, 0.0, 0, Some(binning));
    }

    /// [`Grid::build`], or [`Grid::build_for_queries`] with `binning`.
    fn build_either(
        &mut self,
        placed: &PlacedColliders,
        runs: &[Range<u32>],
        typical_radius: f32,
        growth: f32,
        queried: usize,
        binning: Option<Binning>,
    ) {
        let count = runs.iter().map(ExactSizeIterator::len).sum::<usize>();
        let (mut min, mut max) = (Vec2::INFINITY, Vec2::NEG_INFINITY);
        let circles = runs.iter().flat_map(|run| {
            let rows = run.start as usize..run.end as usize;
            placed.centers[rows.clone()].iter().zip(&placed.radii[rows])
        });
        for (&center, &radius) in circles {
            let (low, high) = (center - (radius + growth), center + (radius + growth));
            // A box that is not finite (which the exact check rejects) would make the whole
            // grid's box NaN, and every collider share one cell: it goes in the first cell
            // instead (see `count_entries`), and the grid is laid over the others.
            if low.is_finite() && high.is_finite() {
                min = min.min(low);
                max = max.max(high);
            }
        }
        self.growth = growth;
        let finest = if binning.is_some() {
            self.query_cell_floor(placed, runs, (min, max), count, typical_radius)
        } else {
            0.0
        };
        self.fit(min, max, (count, queried), typical_radius, finest);
        self.bounds = (min, max);
        self.oversized.clear();
        self.built.clear();
        self.built.extend(runs.iter().cloned());
        self.built_count = count;
        // No wider than half a cell: the cell of the centre alone (see `loose`); NaN, in other
        // grids, which no radius is at most.
        let loose_limit = if binning == Some(Binning::Centres) {
            0.5 * self.cell_size()
        } else {
            f32::NAN
        };
        self.loose_reach = 0.0;
        self.centre_rounding = if binning == Some(Binning::Centres) {
            self.rounding_of_centres()
        } else {
            0.0
        };
        self.count_entries(placed, runs, loose_limit);
        self.fill_entries(runs);
        self.listed.clear();
        let holding = self.starts.windows(2).map(|cell| cell[0] != cell[1]);
        self.listed.extend(holding);
        self.listed.push(true);
    }

    /// The narrowest cell of a grid for spatial queries over `count` colliders of `runs`, laid
    /// over the box from `min` to `max`: where the colliders are too small to size the cells
    /// (points, or smaller than `f32` tells apart across the box most of them lie in),
    /// [`QUERY_CELL_FRACTION`] of the cells that would lay that box's longer side once across
    /// an array of [`max_cells`] (as many as its square root); otherwise none (zero).
    ///
    /// The box most colliders lie in leaves out the farthest sixty-fourth of the centres on
    /// each side, each way: one collider parked far away must not make colliders of a usual
    /// size count as points, nor widen the cells of the points to the size of its own box.
    /// Where most lie on one spot, it is the whole box.
    fn query_cell_floor(
        &mut self,
        placed: &PlacedColliders,
        runs: &[Range<u32>],
        (min, max): (Vec2, Vec2),
        count: usize,
        typical_radius: f32,
    ) -> f32 {
        let too_small = |width: f32| 2.0 * typical_radius <= width / TELLS_APART;
        // Most groups end here: the whole box is at least as wide as the one most lie in.
        let whole = (max - min).max_element();
        if !too_small(whole) {
            return 0.0;
        }
        let centers = || {
            let rows = runs
                .iter()
                .flat_map(Clone::clone)
                .map(|index| index as usize);
            rows.map(|row| placed.centers[row])
                .filter(|center| center.is_finite())
        };
        let mut typical = [Vec2::ZERO; 2];
        for axis in 0..2 {
            self.coordinates.clear();
            self.coordinates
                .extend(centers().map(|center| center[axis]));
            let Some(last) = self.coordinates.len().checked_sub(1) else {
                return 0.0;
            };
            let cut = self.coordinates.len() / 64;
            for (end, index) in [(0, cut), (1, last - cut)] {
                let (_, &mut value, _) = self
                    .coordinates
                    .select_nth_unstable_by(index, f32::total_cmp);
                typical[end][axis] = value;
            }
        }
        let width = match (typical[1] - typical[0]).max_element() {
            width if width > 0.0 => width,
            _ => whole,
        };
        if !too_small(width) {
            return 0.0;
        }
        QUERY_CELL_FRACTION * width / max_cells(count, 0).sqrt()
    }

    /// Lays the grid over the box from `min` to `max`: cells about `2 × typical_radius` wide
    /// (and no narrower than `finest`), but no more than a few cells per collider. Dense when
    /// cells no more than [`MAX_CELL_GROWTH`] times that wide cover the box within that budget;
    /// wrapped otherwise.
    fn fit(
        &mut self,
        min: Vec2,
        max: Vec2,
        (count, queried): (usize, usize),
        typical_radius: f32,
        finest: f32,
    ) {
        let extent = (max - min).max(Vec2::splat(f32::MIN_POSITIVE));
        let max_cells = max_cells(count, queried);
        let area_cell_size = (extent.x * extent.y / max_cells).sqrt();
        // No narrower than a 2⁵²th of the box (colliders that are mostly points): cell numbers
        // then stay exact in `f64`, far from where the casts saturate and every collider would
        // share one cell.
        let narrowest = (extent.max_element() / (1u64 << 52) as f32).max(finest);
        let collider_cell_size = (2.0 * typical_radius).max(narrowest).max(f32::MIN_POSITIVE);
        let spread_wide = area_cell_size > MAX_CELL_GROWTH * collider_cell_size;
        if !spread_wide {
            // Also when the box is not finite (no finite collider: NaN compares false): every
            // collider then goes in the first cell or none, where the exact check rejects it.
            let cell_size = collider_cell_size.max(area_cell_size);
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
        let inverse_cell_size = 1.0 / f64::from(collider_cell_size);
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
    /// `starts[cell]` is where the cell's entries begin; keeps each collider's cells in `ranges`
    /// (and, wrapped, sets aside the colliders too wide to fold, with an empty range).
    fn count_entries(&mut self, placed: &PlacedColliders, runs: &[Range<u32>], loose_limit: f32) {
        let cell_count = (self.columns * self.rows) as usize;
        debug_assert!(
            cell_count < OUTSIDE_THE_GRID as usize,
            "cells below the sentinels"
        );
        self.starts.clear();
        self.starts.resize(cell_count + 1, 0);
        self.ranges.clear();
        let array = self.array();
        for run in runs {
            for collider in run.clone() {
                let (center, radius) = (
                    placed.centers[collider as usize],
                    placed.radii[collider as usize],
                );
                let range = if radius <= loose_limit {
                    self.loose_reach = self.loose_reach.max(radius);
                    self.centre_cell(center)
                } else {
                    // A collider the grid cannot place (not finite) goes in the first cell,
                    // where the exact circle check rejects every pair with it.
                    match self.cells_covered(center, radius + self.growth) {
                        Some(Covered::Cells(range)) => range,
                        Some(Covered::Oversized) => {
                            let bounds = placed.path_box(collider as usize);
                            self.oversized.push(Aside { collider, bounds });
                            self.ranges.push(CellRange::default());
                            continue;
                        }
                        None => CellRange::default(),
                    }
                };
                self.ranges.push(range);
                let starts = &mut self.starts;
                range.for_each_cell(array, |cell| starts[cell + 1] += 1);
            }
        }
        let mut total = 0;
        for start in &mut self.starts {
            total += *start;
            *start = total;
        }
    }

    /// Writes the entries, advancing each cell's cursor (`starts[cell]`), then shifts the
    /// starts back.
    fn fill_entries(&mut self, runs: &[Range<u32>]) {
        let cell_count = self.starts.len() - 1;
        self.entries.clear();
        self.entries
            .resize(self.starts[cell_count] as usize, Entry::default());
        let mut oversized = self.oversized.iter().peekable();
        let array = self.array();
        let mut ranges = self.ranges.iter();
        for run in runs {
            for (collider, &range) in run.clone().zip(ranges.by_ref()) {
                if oversized
                    .next_if(|aside| aside.collider == collider)
                    .is_some()
                {
                    continue;
                }
                let entry = Entry {
                    collider,
                    first_column: range.first_column,
                    first_row: range.first_row,
                };
                let (starts, entries) = (&mut self.starts, &mut self.entries);
                range.for_each_cell(array, |cell| {
                    let cursor = &mut starts[cell];
                    entries[*cursor as usize] = entry;
                    *cursor += 1;
                });
            }
        }
        self.starts.copy_within(0..cell_count, 1);
        self.starts[0] = 0;
    }

    /// The room of the grid's entries: what a build reuses.
    #[cfg(test)]
    pub(crate) fn room(&self) -> usize {
        self.entries.capacity()
    }

    /// The box the grid was laid over (every built collider's bounding box lies in it).
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

    /// Calls `visit` for each built collider listed in the cells of the box from `min` to `max`
    /// (a collider binned in several, from the first the two share), once each (see below for
    /// the folded layout), and each collider kept aside whose box meets it: what
    /// [`Grid::visit_box`] visits once it has grown the box to find the colliders binned by
    /// their centres. Returns whether that was every built collider (the box spans a whole
    /// period of the folding). A box that is not one (`min > max`, or NaN) meets nothing.
    pub(super) fn visit_box_cells(&self, min: Vec2, max: Vec2, mut visit: impl FnMut(u32)) -> bool {
        if !min.cmple(max).all() {
            return false;
        }
        let range = match self.box_covered(min, max) {
            Some(Covered::Cells(range)) => range,
            Some(Covered::Oversized) => {
                // As wide as a period of the folding: everyone.
                self.visit_members(visit);
                return true;
            }
            None => return false,
        };
        // The rule of the pair queries, the box in the queried collider's place. (In the folded
        // layout a collider from a folded-over cell, far from the box, may come more than once: the
        // exact tests reject it.)
        self.for_each_first_shared(range, |entry| visit(entry.collider));
        let query = BoundingBox { min, max };
        let near = self
            .oversized
            .iter()
            .filter(|aside| aside.bounds.overlaps(&query));
        near.for_each(|aside| visit(aside.collider));
        false
    }

    /// Calls `visit` for every built collider, once each.
    pub(crate) fn visit_members(&self, visit: impl FnMut(u32)) {
        self.built.iter().flat_map(Clone::clone).for_each(visit);
    }

    /// Whether `range` holds more cells than the grid has built colliders. A pair query over
    /// it then costs less testing the bounding circle of every built collider once than
    /// reading every cell: a wall whose box spans a hundred cells that a few dozen enemies
    /// occupy. (Spatial queries read the cells all the same: each collider they visit gets an
    /// exact test, which costs far more than a cell.)
    #[inline]
    pub(super) fn covers_more_than_built(&self, range: CellRange) -> bool {
        // Less than a period, or than the grid's side, each way: no overflow in `u64`.
        let width = u64::from(range.last_column.wrapping_sub(range.first_column)) + 1;
        let height = u64::from(range.last_row.wrapping_sub(range.first_row)) + 1;
        width * height > self.built_count as u64
    }

    /// Whether the last build folded the grid, and how many colliders it kept aside.
    #[cfg(test)]
    pub(super) fn folded(&self) -> Option<usize> {
        matches!(self.layout, Layout::Wrapped { .. }).then_some(self.oversized.len())
    }

    /// Whether a queried collider of this bounding circle, wider than the growth, looks at the
    /// built colliders one by one rather than at the cells of its box: its box covers more
    /// cells than there are built colliders, or (folded) spans a whole period. Within one
    /// group, it looks at those after it; folded and within one group, at the cells (see
    /// `query_run_wrapped`).
    #[cfg(test)]
    pub(super) fn looks_at_everyone(&self, center: Vec2, radius: f32) -> bool {
        let half_width = (radius - self.growth).max(0.0);
        match self.cells_covered(center, half_width) {
            Some(Covered::Cells(range)) => self.covers_more_than_built(range),
            Some(Covered::Oversized) => true,
            None => false,
        }
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

#[cfg(test)]
mod tests;
