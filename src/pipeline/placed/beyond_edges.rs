//! A swept disc parted from a still convex polygon by the line of one of its edges: beyond the
//! same line at both ends of its path, it never touches the polygon; beyond a line at one end,
//! it does not touch it there. A disc that passes by a corner, inside the polygon's bounding
//! circle, is told this way four edges at a time, without the sweep.

use super::{NO_LINES, Path, PlacedColliders, WorldShape, past_rounding};
use crate::geometry::{Shape, beyond_lines};
use bevy::prelude::*;

/// Which edges' lines a swept disc lies beyond, out of a still convex polygon, by more than its
/// radius and what rounding could take back, at the two ends of its path (bit `i` for the edge
/// from vertex `i`). The polygon lies on the inner side of each line: a disc beyond one is
/// clear of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct BeyondEdges {
    /// At the start of the path (placed as [`PlacedColliders::start_shape`] places it).
    pub at_start: u64,
    /// At its end: moved from the start by its whole motion, as the sweep's last check moves
    /// it.
    pub at_end: u64,
}

impl BeyondEdges {
    /// Whether one line parts the whole path from the polygon: the disc lies beyond it at both
    /// ends, so at every point between.
    pub fn all_along(self) -> bool {
        self.at_start & self.at_end != 0
    }
}

impl PlacedColliders {
    /// Which edges' lines circle `disc` lies beyond at the ends of its path, when collider
    /// `still` is a convex polygon with edge lines that did not move or turn; `None` for any
    /// other pair.
    #[inline]
    pub(crate) fn beyond_edges(&self, still: usize, disc: usize) -> Option<BeyondEdges> {
        let slot = still.checked_sub(self.still)?;
        let Path {
            shape:
                WorldShape::Polygon {
                    len,
                    lines,
                    convex: true,
                    ..
                },
            motion: Vec2::ZERO,
        } = self.paths[slot]
        else {
            return None;
        };
        if lines == NO_LINES || self.turn(still).is_some() {
            return None;
        }
        let Shape::Circle(now) = self.shape(disc) else {
            return None;
        };
        let lines = &self.edge_lines[lines as usize..][..(len as usize).div_ceil(4)];
        let motion = self.motion(disc);
        // As `start_shape` places it, bit for bit, and as the sweep moves it to the end.
        let start = now.center + -motion;
        let end = start + motion;
        // The lines' rounding grows with the polygon's coordinates, the sweep's with the
        // path's too.
        let coordinates = self.centers[still].abs().max_element()
            + self.radii[still]
            + start.abs().max_element()
            + motion.abs().max_element();
        let reach = past_rounding(now.radius, coordinates);
        let [at_start, at_end] = beyond_lines(lines, [start, end], reach);
        Some(BeyondEdges { at_start, at_end })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::sweep::{SweepStart, sweep_from_start, touching_at_end};
    use crate::geometry::{Circle, Winding, intersect, overlap, polygon_size, push_edge_lines};
    use crate::pipeline::placed::conservative;
    use core::f32::consts::TAU;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// A still polygon with its edges' lines: a regular one of 3 to 12 corners, stretched,
    /// turned and in either winding, or, when `star`, a star (concave); of a size from a tenth
    /// to a thousand, near the origin or far from it.
    fn lined_polygon(rng: &mut StdRng, star: bool) -> PlacedColliders {
        let corners = rng.random_range(3..13);
        let size = 10f32.powf(rng.random_range(-1.0..3.0));
        let stretch = rng.random_range(0.2..1.0);
        let turn = Vec2::from_angle(rng.random_range(0.0..TAU));
        let far = if rng.random_bool(0.5) { 10.0 } else { 1e5 };
        let center = Vec2::new(rng.random_range(-far..far), rng.random_range(-far..far));
        let count = if star { 2 * corners } else { corners };
        let mut vertices: Vec<Vec2> = (0..count)
            .map(|i| {
                let spoke = if star && i % 2 == 1 { 0.4 } else { 1.0 };
                let angle = i as f32 * TAU / count as f32;
                let local = Vec2::new(angle.cos(), stretch * angle.sin()) * size * spoke;
                center + turn.rotate(local)
            })
            .collect();
        if rng.random_bool(0.5) {
            vertices.reverse();
        }
        let mut placed = PlacedColliders::default();
        let winding = Winding::of(&vertices);
        assert!(push_edge_lines(&vertices, winding, &mut placed.edge_lines));
        // A regular polygon is convex, unless rounding far from the origin bends a corner.
        assert!(!(star && winding.convex), "{vertices:?}");
        let shape = WorldShape::Polygon {
            start: 0,
            len: count as u32,
            inner_radius: 0.0,
            size: polygon_size(&vertices),
            lines: 0,
            convex: winding.convex,
        };
        placed.vertices = vertices;
        let bound = Circle::new(center, conservative(center, size));
        let entity = Entity::from_raw_u32(0).unwrap();
        placed.push(entity, None, bound, shape, Vec2::ZERO);
        placed
    }

    /// Whenever a swept disc is found beyond an edge's line of a still convex polygon, the
    /// exact tests agree: beyond one line at both ends, the sweep finds no touch and they are
    /// apart now; beyond a line at the start, they do not overlap there; at the end, they do
    /// not touch there. Discs from a thousandth of the polygon's size to a hundred times it,
    /// each end of the path about the disc's radius beyond the line of an edge, alongside it
    /// or past its corners, within a part in a thousand or a few parts in a million (inside
    /// the margin: never found beyond). A star, which is not convex, is never told; a regular
    /// polygon is, but for the few that rounding bends.
    #[test]
    fn a_disc_found_beyond_an_edge_meets_nothing_there_by_the_exact_tests() {
        let mut rng = StdRng::seed_from_u64(21);
        let (mut all_along, mut at_an_end, mut neither, mut untold) = (0, 0, 0, 0);
        for round in 0..100_000 {
            let star = round % 10 == 9;
            let mut placed = lined_polygon(&mut rng, star);
            let count = placed.vertices.len();
            let edge = rng.random_range(0..count);
            let (a, b) = (placed.vertices[edge], placed.vertices[(edge + 1) % count]);
            let along = b - a;
            // Out of the polygon: away from its centre, which lies inside.
            let mut out = along.perp().normalize();
            if out.dot(placed.centers[0] - a) > 0.0 {
                out = -out;
            }
            let radius = along.length() * 10f32.powf(rng.random_range(-3.0..2.0));
            let jitter = if rng.random_bool(0.75) { 1e-3 } else { 4e-6 };
            let place = |rng: &mut StdRng| {
                let away = radius * (1.0 + rng.random_range(-jitter..jitter));
                a + along * rng.random_range(-0.5..1.5) + out * away
            };
            let (start, end) = (place(&mut rng), place(&mut rng));
            let motion = end - start;
            let now = Circle::new(end, radius);
            let entity = Entity::from_raw_u32(1).unwrap();
            placed.push(entity, None, now, WorldShape::Circle(now), motion);
            let beyond = placed.beyond_edges(0, 1);
            assert_eq!(placed.beyond_edges(1, 0), None, "not a polygon");
            let Some(beyond) = beyond else {
                untold += 1;
                continue;
            };
            assert!(!star, "a star is not told");
            let mut scratch = Vec::new();
            let disc_start = placed.start_shape(1, &mut scratch);
            let polygon = placed.shape(0);
            if beyond.all_along() {
                all_along += 1;
                assert!(
                    matches!(
                        sweep_from_start(polygon, Vec2::ZERO, disc_start, motion),
                        SweepStart::Apart(None)
                    ),
                    "{disc_start:?} moving {motion} meets {polygon:?}"
                );
                assert!(intersect(polygon, placed.shape(1)).is_none());
            } else if beyond.at_start != 0 || beyond.at_end != 0 {
                at_an_end += 1;
            } else {
                neither += 1;
            }
            if beyond.at_start != 0 {
                assert!(!overlap(polygon, disc_start), "{disc_start:?}");
            }
            if beyond.at_end != 0 {
                let touch = touching_at_end(polygon, Vec2::ZERO, disc_start, motion);
                assert_eq!(touch, None, "{disc_start:?} moving {motion}");
            }
        }
        assert!(
            all_along > 5_000 && at_an_end > 5_000 && neither > 5_000,
            "all along {all_along}, at an end {at_an_end}, neither {neither}"
        );
        // The stars, and a few polygons bent by rounding.
        assert!(untold < 12_000, "{untold} not told");
    }

    /// A polygon that moved, or one without edge lines, is not told.
    #[test]
    fn only_a_still_lined_polygon_is_told() {
        let mut rng = StdRng::seed_from_u64(22);
        let far_disc = |placed: &mut PlacedColliders| {
            let now = Circle::new(Vec2::splat(1e4), 1.0);
            let entity = Entity::from_raw_u32(1).unwrap();
            placed.push(entity, None, now, WorldShape::Circle(now), Vec2::X);
        };
        let mut placed = lined_polygon(&mut rng, false);
        far_disc(&mut placed);
        let beyond = placed.beyond_edges(0, 1).expect("told");
        assert!(beyond.all_along(), "{beyond:?}");
        let reshaped = |placed: &PlacedColliders, motion: Vec2, lines: u32| {
            let mut other = PlacedColliders {
                vertices: placed.vertices.clone(),
                edge_lines: placed.edge_lines.clone(),
                ..PlacedColliders::default()
            };
            let WorldShape::Polygon {
                start,
                len,
                inner_radius,
                size,
                convex,
                ..
            } = placed.paths[0].shape
            else {
                panic!("a polygon");
            };
            let shape = WorldShape::Polygon {
                start,
                len,
                inner_radius,
                size,
                lines,
                convex,
            };
            let bound = Circle::new(placed.centers[0], placed.radii[0]);
            let entity = Entity::from_raw_u32(0).unwrap();
            other.push(entity, None, bound, shape, motion);
            far_disc(&mut other);
            other
        };
        assert_eq!(reshaped(&placed, Vec2::Y, 0).beyond_edges(0, 1), None);
        assert_eq!(
            reshaped(&placed, Vec2::ZERO, NO_LINES).beyond_edges(0, 1),
            None
        );
        assert!(
            reshaped(&placed, Vec2::ZERO, 0)
                .beyond_edges(0, 1)
                .is_some()
        );
    }
}
