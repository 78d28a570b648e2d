//! Stage 2, broad phase: the pairs of bodies whose bounding circles overlap and whose layers
//! match.
//!
//! # How
//! 1. **Groups by layers.** Bodies with the same [`CollisionLayers`] form a group. Only groups
//!    whose layers interact are compared, so in a bullet hell the thousands of bullets of one
//!    side, which cannot hit each other, are never compared with each other at all.
//! 2. **A uniform grid per group pair.** For two different groups, the smaller one is binned
//!    into a grid laid over its own bounding box (each body in every cell its bounding box
//!    covers), and each body of the larger group looks only at the cells it covers: `O(n)` in
//!    the larger group, with no sort. A group that can touch itself is binned and queried
//!    against itself. A pair sharing several cells is reported only from the first cell the
//!    two have in common, so never twice.
//!    With more than a couple of dozen distinct layer values, comparing group by group would
//!    cost more than it saves: then one grid holds every body and each candidate's layers are
//!    checked instead.
//! 3. **The exact circle check** (seed 003: squared distance against squared reach, no square
//!    root) decides each candidate.
//!
//! The larger group's queries are split across Bevy's `ComputeTaskPool` when there are enough
//! of them; the chunks are concatenated in order, so the result does not depend on the thread
//! count.

use crate::layers::CollisionLayers;
use crate::plugin::CollisionSettings;
use crate::prepare::Bodies;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;
use core::ops::Range;

/// The candidate pairs of this frame, as body indices, plus reusable scratch space.
#[derive(Resource, Default)]
pub(crate) struct BroadPhase {
    /// Pairs of body indices whose bounding circles overlap and whose layers match.
    pub pairs: Vec<[u32; 2]>,
    groups: Vec<Group>,
    active_groups: usize,
    group_of_layers: HashMap<CollisionLayers, usize>,
    grid: Grid,
    /// Scratch: the pieces a large query is split into for the task pool.
    pieces: Vec<Range<u32>>,
}

/// Beyond this many distinct `CollisionLayers` values, comparing group by group (quadratic in
/// the number of groups) stops paying: one grid holds everyone and layers are checked per pair.
const MAX_GROUPS: usize = 24;

/// What a grid query pairs up.
#[derive(Clone, Copy)]
enum Join {
    /// The queried bodies against a different group binned in the grid.
    Between,
    /// The queried bodies against themselves (they are what is binned): each pair once. With
    /// `check_layers`, pairs whose layers do not interact are dropped.
    Within { check_layers: bool },
}

/// Bodies sharing one `CollisionLayers` value, as runs of consecutive body indices (bodies
/// arrive archetype by archetype, so a group is usually one or a few runs).
#[derive(Default)]
struct Group {
    layers: CollisionLayers,
    runs: Vec<Range<u32>>,
    /// How many bodies the runs hold.
    len: usize,
    /// Mean bounding radius of the members.
    mean_radius: f32,
}

/// Finds this frame's candidate pairs.
pub(crate) fn find_candidate_pairs(
    bodies: Res<Bodies>,
    settings: Res<CollisionSettings>,
    mut broad_phase: ResMut<BroadPhase>,
) {
    broad_phase.run(&bodies, settings.parallel_threshold);
}

impl BroadPhase {
    fn run(&mut self, bodies: &Bodies, parallel_threshold: usize) {
        self.pairs.clear();
        self.group_bodies(bodies);
        let Self {
            pairs,
            groups,
            active_groups,
            grid,
            pieces,
            ..
        } = self;
        let groups = &groups[..*active_groups];
        let mut query = |grid: &Grid, runs: &[Range<u32>], len: usize, join: Join| {
            grid.query_into(bodies, runs, len, join, parallel_threshold, pieces, pairs);
        };
        if groups.len() > MAX_GROUPS {
            // Too many distinct layer values to compare group by group: one grid over every
            // body, with the layers checked on each candidate instead.
            let all_bodies = 0..bodies.entities.len() as u32;
            let everyone = core::slice::from_ref(&all_bodies);
            let mean_radius = bodies.radii.iter().sum::<f32>() / bodies.radii.len() as f32;
            grid.build(bodies, everyone, mean_radius);
            query(
                grid,
                everyone,
                bodies.entities.len(),
                Join::Within { check_layers: true },
            );
            return;
        }
        for (i, first) in groups.iter().enumerate() {
            for second in &groups[i..] {
                if !first.layers.interacts_with(&second.layers) {
                    continue;
                }
                if core::ptr::eq(first, second) {
                    grid.build(bodies, &first.runs, first.mean_radius);
                    let join = Join::Within {
                        check_layers: false,
                    };
                    query(grid, &first.runs, first.len, join);
                } else {
                    let (built, queried) = if first.len <= second.len {
                        (first, second)
                    } else {
                        (second, first)
                    };
                    grid.build(
                        bodies,
                        &built.runs,
                        built.mean_radius.max(queried.mean_radius),
                    );
                    query(grid, &queried.runs, queried.len, Join::Between);
                }
            }
        }
    }

    /// Sorts bodies into groups by layers, as runs, reusing last frame's allocations.
    fn group_bodies(&mut self, bodies: &Bodies) {
        for group in &mut self.groups[..self.active_groups] {
            group.runs.clear();
            group.len = 0;
            group.mean_radius = 0.0;
        }
        self.active_groups = 0;
        self.group_of_layers.clear();
        let layers = &bodies.layers;
        let mut run_start = 0;
        for end in 1..=layers.len() {
            if end < layers.len() && layers[end] == layers[run_start] {
                continue;
            }
            let run_layers = layers[run_start];
            let group = *self.group_of_layers.entry(run_layers).or_insert_with(|| {
                let group = self.active_groups;
                self.active_groups += 1;
                if group == self.groups.len() {
                    self.groups.push(Group::default());
                }
                self.groups[group].layers = run_layers;
                group
            });
            let group = &mut self.groups[group];
            group.runs.push(run_start as u32..end as u32);
            group.len += end - run_start;
            group.mean_radius += bodies.radii[run_start..end].iter().sum::<f32>();
            run_start = end;
        }
        for group in &mut self.groups[..self.active_groups] {
            group.mean_radius /= group.len as f32;
        }
        // Keep no more than twice the groups in use, so old layer values do not pile up.
        self.groups.truncate(2 * self.active_groups.max(8));
    }
}

/// A uniform grid over one group's bounding box, each body binned into every cell its
/// bounding box covers, stored compactly (cell `c`'s entries are
/// `entries[starts[c]..starts[c + 1]]`).
#[derive(Default)]
struct Grid {
    origin: Vec2,
    inverse_cell_size: f32,
    columns: u32,
    rows: u32,
    starts: Vec<u32>,
    entries: Vec<Entry>,
    /// Each built body's first cell, kept while counting so filling need not recompute it.
    ranges: Vec<CellRange>,
}

/// A binned body, with its first cell (for reporting a pair only once).
#[derive(Clone, Copy)]
struct Entry {
    body: u32,
    first_column: u32,
    first_row: u32,
}

/// The cells a bounding box covers, inclusive.
#[derive(Clone, Copy)]
struct CellRange {
    first_column: u32,
    first_row: u32,
    last_column: u32,
    last_row: u32,
}

impl Grid {
    /// Bins the bodies of `runs`, with cells about twice `typical_radius` wide.
    fn build(&mut self, bodies: &Bodies, runs: &[Range<u32>], typical_radius: f32) {
        let members = || runs.iter().flat_map(Clone::clone);
        let count = runs.iter().map(ExactSizeIterator::len).sum::<usize>();
        let (mut min, mut max) = (Vec2::INFINITY, Vec2::NEG_INFINITY);
        for body in members() {
            let (center, radius) = (bodies.centers[body as usize], bodies.radii[body as usize]);
            min = min.min(center - radius);
            max = max.max(center + radius);
        }
        let extent = (max - min).max(Vec2::splat(f32::MIN_POSITIVE));
        // Cells about a body wide, but no more cells than a few per body.
        let max_cells = (4 * count + 64) as f32;
        let mut cell_size = (2.0 * typical_radius).max(f32::MIN_POSITIVE);
        let area_cell_size = (extent.x * extent.y / max_cells).sqrt();
        cell_size = cell_size.max(area_cell_size);
        let columns = ((extent.x / cell_size) as u32).clamp(1, max_cells as u32);
        let rows = ((extent.y / cell_size) as u32).clamp(1, max_cells as u32);
        self.origin = min;
        self.columns = columns;
        self.rows = rows;
        // Cells may come out a little wider than `cell_size` in one direction: use the larger.
        self.inverse_cell_size = (columns as f32 / extent.x).min(rows as f32 / extent.y);

        let cell_count = (columns * rows) as usize;
        self.starts.clear();
        self.starts.resize(cell_count + 1, 0);
        self.ranges.clear();
        for body in members() {
            let range = self
                .cells_covered(bodies.centers[body as usize], bodies.radii[body as usize])
                .unwrap_or(CellRange {
                    first_column: 0,
                    first_row: 0,
                    last_column: 0,
                    last_row: 0,
                });
            self.ranges.push(range);
            for row in range.first_row..=range.last_row {
                for column in range.first_column..=range.last_column {
                    self.starts[(row * columns + column) as usize + 1] += 1;
                }
            }
        }
        for cell in 0..cell_count {
            self.starts[cell + 1] += self.starts[cell];
        }
        self.entries.clear();
        self.entries.resize(
            self.starts[cell_count] as usize,
            Entry {
                body: 0,
                first_column: 0,
                first_row: 0,
            },
        );
        // Fill, advancing each cell's cursor (`starts[c]`), then shift the starts back.
        for (body, range) in members().zip(&self.ranges) {
            for row in range.first_row..=range.last_row {
                for column in range.first_column..=range.last_column {
                    let cursor = &mut self.starts[(row * columns + column) as usize];
                    self.entries[*cursor as usize] = Entry {
                        body,
                        first_column: range.first_column,
                        first_row: range.first_row,
                    };
                    *cursor += 1;
                }
            }
        }
        for cell in (1..=cell_count).rev() {
            self.starts[cell] = self.starts[cell - 1];
        }
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
    /// as `join` says.
    #[expect(
        clippy::too_many_arguments,
        reason = "the query, and scratch space for its split"
    )]
    fn query_into(
        &self,
        bodies: &Bodies,
        runs: &[Range<u32>],
        len: usize,
        join: Join,
        parallel_threshold: usize,
        pieces: &mut Vec<Range<u32>>,
        pairs: &mut Vec<[u32; 2]>,
    ) {
        let pool = ComputeTaskPool::try_get().filter(|pool| pool.thread_num() > 1);
        match pool {
            Some(pool) if len >= parallel_threshold => {
                // Cut the runs into pieces of about equal size, a few per thread.
                let piece_size = len.div_ceil(pool.thread_num() * 4).max(64) as u32;
                pieces.clear();
                for run in runs {
                    let mut start = run.start;
                    while start < run.end {
                        let end = run.end.min(start + piece_size);
                        pieces.push(start..end);
                        start = end;
                    }
                }
                let found = pool.scope(|scope| {
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
            _ => {
                for run in runs {
                    self.query_run(bodies, run.clone(), join, pairs);
                }
            }
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
