//! Walking a straight path (a ray, or the centre of a moving circle) through a grid in order
//! along it: what spatial queries along a path visit. A dense grid is walked slice by slice, a
//! folded one by the boxes of pieces of the path.

use super::{Grid, Layout};
use bevy::prelude::*;

/// A stretch of a straight path, with how far from it a collider may lie and still be visited:
/// what [`Grid::walk_cells`] walks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stretch {
    /// Where the path starts.
    pub(crate) origin: Vec2,
    /// The path's unit direction.
    pub(crate) direction: Vec2,
    /// Where the stretch starts, as a distance from `origin` along `direction`.
    pub(crate) start: f32,
    /// Where the stretch ends, likewise.
    pub(crate) end: f32,
    /// How far from the stretch a collider may lie and still be visited.
    pub(crate) reach: f32,
}

impl Stretch {
    /// The ray's path from its origin for `max_distance`, with no reach.
    pub(crate) fn of_ray(ray: Ray2d, max_distance: f32) -> Self {
        Self {
            origin: ray.origin,
            direction: *ray.direction,
            start: 0.0,
            end: max_distance,
            reach: 0.0,
        }
    }
}

/// How many cells long each piece of a path is, when walking it through a folded grid...
const CELLS_PER_PIECE: f32 = 4.0;
/// ...with at most this many pieces in all.
const MAX_PIECES: usize = 4096;

/// How many slots [`Grid::walk_cells`] keeps for the colliders it visited: a collider takes the
/// slot of its number modulo this.
const RECENT: usize = 64;

impl Grid {
    /// Walks the stretch through the grid, in order along it: before each step, `going(distance)`
    /// says whether to go on, given where the step starts; then `visit(collider)` for each collider
    /// the step finds within the stretch's reach. A collider may come more than once. A dense grid
    /// is walked slice by slice ([`Grid::walk_cells`]); a folded one by the boxes of pieces a few
    /// cells long, at most [`MAX_PIECES`] of them, and past them every collider once (see
    /// [`Grid::walk_pieces`]).
    pub(crate) fn walk(
        &self,
        stretch: Stretch,
        mut going: impl FnMut(f32) -> bool,
        mut visit: impl FnMut(u32),
    ) {
        // A collider binned by its centre is visited where its centre is within the reach,
        // and the rounding of its cell (see `loose`).
        let stretch = Stretch {
            reach: stretch.reach + self.loose_reach + self.centre_rounding,
            ..stretch
        };
        let Some((start, end)) = self.clip(stretch) else {
            return;
        };
        // Points of the path far from the origin are rounded by a few ulps of their
        // coordinates, and a box round them by a few of the reach: the path reaches that much
        // farther.
        let slack =
            4.0 * f32::EPSILON * (stretch.origin.abs().max_element() + end.abs() + stretch.reach);
        let stretch = Stretch {
            start,
            end,
            reach: stretch.reach + slack,
            ..stretch
        };
        if !self.walk_cells(stretch, &mut going, &mut visit) {
            self.walk_pieces(stretch, going, visit);
        }
    }

    /// The part `(start, end)` of the stretch that passes through the grid's box grown by the
    /// stretch's reach; `None` when it misses it (or is not one). The box is grown by a few ulps
    /// of the coordinates too: a circle's box edge is its centre less its radius, rounded, and
    /// may lie an ulp inside the circle, where an exact test still finds a path grazing it.
    pub(crate) fn clip(&self, stretch: Stretch) -> Option<(f32, f32)> {
        let Stretch {
            origin,
            direction,
            reach,
            ..
        } = stretch;
        if !(origin.is_finite() && stretch.end >= stretch.start) {
            return None;
        }
        let (min, max) = self.bounds();
        let coordinates = origin.abs().max_element() + min.abs().max(max.abs()).max_element();
        let reach = reach + 4.0 * f32::EPSILON * (coordinates + reach);
        let (min, max) = (min - reach, max + reach);
        let (mut start, mut end) = (stretch.start, stretch.end);
        for axis in 0..2 {
            let (from, along) = (origin[axis], direction[axis]);
            if along == 0.0 {
                if from < min[axis] || from > max[axis] {
                    return None;
                }
                continue;
            }
            let (near, far) = ((min[axis] - from) / along, (max[axis] - from) / along);
            start = start.max(near.min(far));
            end = end.min(near.max(far));
        }
        (start <= end).then_some((start, end))
    }

    /// [`Grid::walk`] in the folded layout: by the boxes of pieces of the stretch, each
    /// [`CELLS_PER_PIECE`] cells long, at most [`MAX_PIECES`] of them. A stretch longer than
    /// that (a long ray through a grid folded over a far outlier's box) has its rest visited
    /// as one, every built collider once, rather than by ever longer pieces, whose boxes would
    /// each cover much of the folding; and a piece whose box spans a whole period of the
    /// folding visits everyone, which ends the walk.
    fn walk_pieces(
        &self,
        stretch: Stretch,
        mut going: impl FnMut(f32) -> bool,
        mut visit: impl FnMut(u32),
    ) {
        let Stretch {
            origin,
            direction,
            start,
            end,
            reach,
        } = stretch;
        let piece_length = CELLS_PER_PIECE * self.cell_size();
        let needed = ((end - start) / piece_length).ceil().max(1.0);
        let (pieces, pieces_end) = if needed <= MAX_PIECES as f32 {
            (needed as usize, end)
        } else {
            (MAX_PIECES, start + piece_length * MAX_PIECES as f32)
        };
        let length = pieces_end - start;
        let at = |distance: f32| origin + direction * distance;
        for piece in 0..pieces {
            let from = start + length * (piece as f32 / pieces as f32);
            let to = if piece + 1 == pieces {
                pieces_end
            } else {
                start + length * ((piece + 1) as f32 / pieces as f32)
            };
            if !going(from) {
                return;
            }
            let (a, b) = (at(from), at(to));
            if self.visit_box_cells(a.min(b) - reach, a.max(b) + reach, &mut visit) {
                return;
            }
        }
        if pieces_end < end && going(pieces_end) {
            self.visit_members(visit);
        }
    }

    /// Calls `visit` for each built collider listed in a cell that comes within the stretch's
    /// reach, and returns `true`; in the folded layout it visits nothing and returns `false`
    /// (walk it by boxes there: [`Grid::walk_pieces`]). The reach is taken as it is: in a grid
    /// binned by centres, walk through [`Grid::walk`], which grows it.
    ///
    /// The cells go by slices across the path's main axis (columns when it runs more across
    /// than up). Before each slice, `going(distance)` is given the least distance along the
    /// path at which the stretch, grown by its reach, enters the slice; when it answers `false`
    /// the walk stops. So a collider whose bounding box the grown stretch first meets at a distance
    /// `d` comes before any slice that `going` is asked about with a distance past `d`. A collider
    /// is visited once, or now and then more (see [`RECENT`]).
    pub(crate) fn walk_cells(
        &self,
        stretch: Stretch,
        mut going: impl FnMut(f32) -> bool,
        mut visit: impl FnMut(u32),
    ) -> bool {
        let Layout::Dense {
            origin,
            inverse_cell_size,
        } = self.layout
        else {
            return false;
        };
        // In cells from the grid's origin, in `f64`: what this rounds is far below what the
        // colliders' cells were padded by (see `Grid::cells_covered`), or, binned by their
        // centres, what `walk` grew the reach by for the rounding of their cells.
        let inverse = f64::from(inverse_cell_size);
        let from = (stretch.origin.as_dvec2() - origin.as_dvec2()) * inverse;
        let along = stretch.direction.as_dvec2() * inverse;
        let grow = f64::from(stretch.reach) * inverse;
        let (start, end) = (f64::from(stretch.start), f64::from(stretch.end));
        let at = |distance: f64| from + along * distance;
        // The main axis and the other.
        let (main, across) = if along.x.abs() >= along.y.abs() {
            (0, 1)
        } else {
            (1, 0)
        };
        let counts = [self.columns, self.rows];
        let Some(slices) = cells_along(
            at(start)[main],
            at(end)[main],
            along[main],
            grow,
            counts[main],
        ) else {
            return true;
        };
        // The colliders visited lately, each in the slot its number picks: a collider spans a few
        // cells of the walk, and comes once unless another took its slot in between.
        let mut recent = [u32::MAX; RECENT];
        // A product for a quotient: what it rounds differently, in `f64`, is far below the
        // reach's slack in `f32`.
        let per_cell = 1.0 / along[main];
        // The stretch enters each slice by its near side when it runs up the main axis.
        let (enter_side, leave_side) = if per_cell > 0.0 {
            (-grow, 1.0 + grow)
        } else {
            (1.0 + grow, -grow)
        };
        for slice in slices {
            // Where the grown stretch is in the slice (past its start, short of its end).
            let slice_at = f64::from(slice) - from[main];
            let enter = ((slice_at + enter_side) * per_cell).max(start);
            let leave = ((slice_at + leave_side) * per_cell).min(end);
            if enter > leave {
                continue;
            }
            if !going(enter as f32) {
                return true;
            }
            let (a, b) = (at(enter)[across], at(leave)[across]);
            let Some(cells) = cells_along(a, b, b - a, grow, counts[across]) else {
                continue;
            };
            for cell in cells {
                let (column, row) = if main == 0 {
                    (slice, cell)
                } else {
                    (cell, slice)
                };
                let cell = (row * self.columns + column) as usize;
                let entries =
                    &self.entries[self.starts[cell] as usize..self.starts[cell + 1] as usize];
                for entry in entries {
                    let seen = &mut recent[entry.collider as usize % RECENT];
                    if *seen != entry.collider {
                        *seen = entry.collider;
                        visit(entry.collider);
                    }
                }
            }
        }
        true
    }
}

/// The cells along one axis that the stretch from coordinate `a` to `b` (in cells), grown by
/// `grow`, covers in a grid `count` cells across, in the order the path runs (`along`'s sign);
/// `None` when it covers none (or is not finite).
#[inline]
fn cells_along(
    a: f64,
    b: f64,
    along: f64,
    grow: f64,
    count: u32,
) -> Option<impl Iterator<Item = u32> + use<>> {
    let (low, high) = (a.min(b) - grow, a.max(b) + grow);
    // Written so that NaN fails and is rejected. Past these checks both are at least zero
    // where they are cast, so that the (saturating) casts round down.
    if !(high >= 0.0 && low < f64::from(count)) {
        return None;
    }
    let (first, last) = (low.max(0.0) as u32, (high as u32).min(count - 1));
    let forward = along >= 0.0;
    Some((0..=last - first).map(move |step| if forward { first + step } else { last - step }))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::layers::{CollisionLayers, LayerMask};
    use crate::pipeline::broad_phase::Binning;
    use crate::pipeline::broad_phase::tests::placed_from;
    use crate::pipeline::placed::PlacedColliders;
    use core::cell::Cell;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// `count` circles of radius 1 to `largest` scattered over `side` × `side`, in one grid.
    pub(in crate::pipeline::broad_phase::grid) fn scattered(
        count: usize,
        side: f32,
        largest: f32,
        seed: u64,
    ) -> (PlacedColliders, Grid) {
        let mut rng = StdRng::seed_from_u64(seed);
        let layers = CollisionLayers::new(LayerMask::ALL, LayerMask::ALL);
        let list: Vec<_> = (0..count)
            .map(|_| {
                let center = Vec2::new(rng.random_range(0.0..side), rng.random_range(0.0..side));
                (center, rng.random_range(1.0..largest), layers)
            })
            .collect();
        let placed = placed_from(&list);
        let mut grid = Grid::default();
        let everyone = 0..count as u32;
        grid.build(&placed, core::slice::from_ref(&everyone), 4.0, 0.0, 0);
        (placed, grid)
    }

    /// The least distance along the stretch at which a circle grown by the reach meets it
    /// (worked out in `f64`), if it does.
    pub(in crate::pipeline::broad_phase::grid) fn first_meeting(
        stretch: Stretch,
        center: Vec2,
        radius: f32,
    ) -> Option<f64> {
        let origin = stretch.origin.as_dvec2();
        let direction = stretch.direction.as_dvec2().normalize();
        let offset = center.as_dvec2() - origin;
        let reach = f64::from(radius) + f64::from(stretch.reach);
        let along = offset.dot(direction);
        let across = offset.perp_dot(direction);
        let half_chord = (reach * reach - across * across).sqrt();
        if half_chord.is_nan() {
            return None;
        }
        let (start, end) = (f64::from(stretch.start), f64::from(stretch.end));
        let (enter, leave) = (along - half_chord, along + half_chord);
        (enter <= end && leave >= start).then_some(enter.max(start))
    }

    /// Walks the stretch, and checks that every collider within its reach is visited, before any
    /// slice entered past where the stretch first meets it.
    fn check(placed: &PlacedColliders, grid: &Grid, stretch: Stretch) {
        let entered = Cell::new(f32::NEG_INFINITY);
        let mut first_visit: Vec<Option<f32>> = vec![None; placed.entities.len()];
        let walked = grid.walk_cells(
            stretch,
            |distance| {
                assert!(
                    distance >= entered.get(),
                    "{stretch:?}: slices out of order"
                );
                entered.set(distance);
                true
            },
            |collider| {
                first_visit[collider as usize].get_or_insert(entered.get());
            },
        );
        assert!(walked);
        for (collider, visit) in first_visit.iter().enumerate() {
            let (center, radius) = (placed.centers[collider], placed.radii[collider]);
            let Some(meeting) = first_meeting(stretch, center, radius) else {
                continue;
            };
            let Some(entered) = visit else {
                panic!("{stretch:?}: collider {collider} at {center} r {radius} was not visited");
            };
            assert!(
                f64::from(*entered) <= meeting + 1e-3,
                "{stretch:?}: collider {collider} visited in a slice entered at {entered}, \
                 met at {meeting}"
            );
        }
    }

    #[test]
    fn a_walk_visits_every_collider_within_reach_in_order_along_the_path() {
        for seed in 0..6 {
            let (placed, grid) = scattered(2000, 600.0, 12.0, seed);
            let mut rng = StdRng::seed_from_u64(100 + seed);
            for _ in 0..300 {
                let origin = Vec2::new(
                    rng.random_range(-100.0..700.0),
                    rng.random_range(-100.0..700.0),
                );
                // Now and then along an axis, or a diagonal, where cell edges line up.
                let direction = match rng.random_range(0..6) {
                    0 => Vec2::X * if rng.random() { 1.0 } else { -1.0 },
                    1 => Vec2::Y * if rng.random() { 1.0 } else { -1.0 },
                    2 => Vec2::new(1.0, -1.0).normalize(),
                    _ => Vec2::from_angle(rng.random_range(0.0..core::f32::consts::TAU)),
                };
                let start = rng.random_range(0.0..50.0);
                let stretch = Stretch {
                    origin,
                    direction,
                    start,
                    end: start + rng.random_range(0.0..900.0),
                    reach: if rng.random() {
                        0.0
                    } else {
                        rng.random_range(0.0..30.0)
                    },
                };
                check(&placed, &grid, stretch);
            }
        }
    }

    #[test]
    fn a_walk_stops_when_told() {
        let (_, grid) = scattered(500, 300.0, 6.0, 7);
        let stretch = Stretch {
            origin: Vec2::ZERO,
            direction: Vec2::new(3.0, 4.0) / 5.0,
            start: 0.0,
            end: 400.0,
            reach: 0.0,
        };
        let mut asked = Vec::new();
        grid.walk_cells(
            stretch,
            |distance| {
                asked.push(distance);
                distance < 100.0
            },
            |_| {},
        );
        let (last, before) = asked.split_last().unwrap();
        assert!(*last >= 100.0 && before.iter().all(|&distance| distance < 100.0));
    }

    /// A ray without end through a grid folded over a far collider's box (10,000 colliders
    /// in a square 1,000 wide, one 1e8 away) visits each collider a few times, not once for
    /// each piece of its path: the pieces stay a few cells long, and past the last of them
    /// every collider is visited once. (Pieces stretched to cover the path, 4,096 of them,
    /// each covered the whole folding, and the walk made 41 million visits.)
    #[test]
    fn a_long_walk_through_a_folded_grid_visits_each_collider_a_few_times() {
        let mut rng = StdRng::seed_from_u64(5);
        let layers = CollisionLayers::new(LayerMask::ALL, LayerMask::ALL);
        let mut list: Vec<_> = (0..10_000)
            .map(|_| {
                let center =
                    Vec2::new(rng.random_range(0.0..1000.0), rng.random_range(0.0..1000.0));
                (center, 10.0, layers)
            })
            .collect();
        list.push((Vec2::new(1e8, 0.0), 10.0, layers));
        let placed = placed_from(&list);
        let mut grid = Grid::default();
        let everyone = 0..list.len() as u32;
        grid.build(&placed, core::slice::from_ref(&everyone), 10.0, 0.0, 0);
        assert!(grid.folded().is_some());
        let stretch = Stretch {
            origin: Vec2::new(1000.0, 500.0),
            direction: Vec2::X,
            start: 0.0,
            end: f32::INFINITY,
            reach: 0.0,
        };
        let (mut visits, mut far_one) = (0, false);
        grid.walk(
            stretch,
            |_| true,
            |collider| {
                visits += 1;
                far_one |= collider == 10_000;
            },
        );
        assert!(far_one, "the far collider, on the path, is visited");
        assert!(visits <= 10 * list.len(), "{visits} visits");
    }

    /// A wide circle cast a short way from near the origin, through a folded grid of small
    /// discs, binned either way: the box of its path rounds by more than its coordinates (a few
    /// ulps of its reach), and a disc that just overlaps it is still visited.
    #[test]
    fn a_wide_reach_in_a_folded_grid_visits_what_it_just_overlaps() {
        for binning in [Binning::Boxes, Binning::Centres] {
            wide_reach_in_a_folded_grid(binning);
        }
    }

    fn wide_reach_in_a_folded_grid(binning: Binning) {
        let layers = CollisionLayers::new(LayerMask::ALL, LayerMask::ALL);
        let radius = f32::from_bits(0x3eff_fff0); // 0.5 − 2⁻²¹
        let mut list = vec![
            (Vec2::new(f32::from_bits(0xc1a3_fbe7), 0.0), radius, layers),
            (Vec2::new(f32::from_bits(0xc1cb_fbe4), 0.0), radius, layers),
        ];
        list.extend((0..61).map(|i| (Vec2::new(30.0 + 1.5 * i as f32, 0.0), radius, layers)));
        list.push((Vec2::new(1e5, 0.0), radius, layers));
        let placed = placed_from(&list);
        let mut grid = Grid::default();
        let everyone = 0..list.len() as u32;
        grid.build_for_queries(&placed, core::slice::from_ref(&everyone), radius, binning);
        assert!(grid.folded().is_some());
        // The discs are just no wider than half a cell: binned by their centres.
        assert_eq!(grid.loose_reach > 0.0, binning == Binning::Centres);
        let stretch = Stretch {
            origin: Vec2::new(0.002, 0.0),
            direction: Vec2::Y,
            start: 0.0,
            end: 0.0,
            reach: 20.0,
        };
        // The first disc overlaps the circle of the reach, in `f64`, by a hair.
        let gap = placed.centers[0]
            .as_dvec2()
            .distance(stretch.origin.as_dvec2());
        assert!(gap < f64::from(stretch.reach) + f64::from(radius));
        let mut visited = false;
        grid.walk(stretch, |_| true, |collider| visited |= collider == 0);
        assert!(visited, "{binning:?}: the disc it overlaps");
    }

    #[test]
    fn a_folded_grid_is_not_walked() {
        let (mut placed, _) = scattered(500, 300.0, 6.0, 8);
        placed.centers[0] = Vec2::splat(1e7);
        let mut grid = Grid::default();
        grid.build(&placed, core::slice::from_ref(&(0..500)), 4.0, 0.0, 0);
        assert!(grid.folded().is_some());
        let stretch = Stretch {
            origin: Vec2::ZERO,
            direction: Vec2::X,
            start: 0.0,
            end: 100.0,
            reach: 0.0,
        };
        assert!(!grid.walk_cells(stretch, |_| true, |_| {}));
    }
}
