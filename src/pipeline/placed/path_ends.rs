//! What the two ends of a swept disc's path say against a still collider, before a sweep: clear
//! of its bounding circle at an end, the disc does not touch it there; beyond the line of one
//! of a polygon's edges (by more than the polygon overhangs it), likewise, and beyond the same
//! line at both ends, it never touches the polygon at all. A disc that passes by a corner,
//! inside the polygon's bounding circle, is told this way four edges at a time, without the
//! sweep.

use super::shortcuts::clear_of_bound;
use super::{DiscPath, past_rounding};
use crate::geometry::sweep::KnownApart;
use crate::geometry::{Circle, beyond_lines};

/// Which edges' lines a swept disc lies beyond, out of a still polygon, by more than the
/// polygon overhangs them, its radius and what rounding could take back, at the two ends of its
/// path (bit `i` for the edge from vertex `i`; see [`beyond_lines`]). A disc beyond one is clear
/// of the polygon.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct BeyondEdges {
    /// At the start of the path (placed as
    /// [`start_shape`](super::PlacedColliders::start_shape) places it).
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

/// What the two ends of a swept disc's path say against a still collider, before a sweep (see
/// [`DiscPath::ends`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PathEnds {
    /// Whether the disc is surely apart from the collider at the start of its path, and at its
    /// end: the sweep need not test them there.
    pub known: KnownApart,
    /// Whether one of a polygon's edge lines parts the whole path from it: the sweep would find
    /// no touch.
    pub apart_all_along: bool,
}

impl DiscPath<'_> {
    /// What the ends of the disc's path say against the still collider: whether the disc lies
    /// clear of the collider's bounding circle, by more than rounding could take back, at the
    /// start of its path (placed as [`start_shape`](super::PlacedColliders::start_shape) places it)
    /// and at its end (moved from there by its whole motion, as the sweep's last check moves
    /// it); and, for a polygon with edge lines, which of them the disc lies beyond there
    /// ([`BeyondEdges`]). A bullet coming at an enemy starts outside it, most often: the sweep
    /// need not test whether they overlap there.
    #[inline]
    pub(crate) fn ends(&self) -> PathEnds {
        let start = self.start();
        let end = start + self.motion;
        let radius = self.now.radius;
        let beyond = self.beyond_edges().unwrap_or_default();
        PathEnds {
            known: KnownApart {
                at_start: clear_of_bound(Circle::new(start, radius), self.bound)
                    || beyond.at_start != 0,
                at_end: clear_of_bound(Circle::new(end, radius), self.bound) || beyond.at_end != 0,
            },
            apart_all_along: beyond.all_along(),
        }
    }

    /// Which edges' lines the disc lies beyond at the ends of its path, when the still collider
    /// is a polygon with edge lines; `None` for any other collider.
    #[inline]
    pub(crate) fn beyond_edges(&self) -> Option<BeyondEdges> {
        let lines = self.polygon?.edge_lines()?;
        let (start, motion) = (self.start(), self.motion);
        // The lines' rounding (and their overhangs') grows with the polygon's coordinates, the
        // sweep's with the path's too.
        let coordinates = self.bound.center.abs().max_element()
            + self.bound.radius
            + start.abs().max_element()
            + motion.abs().max_element();
        let reach = past_rounding(self.now.radius, coordinates);
        let [at_start, at_end] = beyond_lines(lines, [start, start + motion], reach);
        Some(BeyondEdges { at_start, at_end })
    }
}

#[cfg(test)]
impl super::PlacedColliders {
    /// Which edges' lines circle `disc` lies beyond at the ends of its path, against collider
    /// `still` (see [`DiscPath::beyond_edges`]).
    fn beyond_edges(&self, still: usize, disc: usize) -> Option<BeyondEdges> {
        self.disc_path(disc, still)?.beyond_edges()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::sweep::{SweepStart, sweep_from_start, touching_at_end};
    use crate::geometry::{
        Circle, intersect, overlap, polygon_size, push_edge_lines, runs_anticlockwise,
    };
    use crate::pipeline::placed::shortcuts::tests::{
        Collider, disc_at_reach, on_its_bounding_circle,
    };
    use crate::pipeline::placed::{NO_LINES, PlacedColliders, WorldShape, conservative};
    use bevy::prelude::*;
    use core::f32::consts::TAU;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// A polygon's world vertices, by `kind`: a regular one of 3 to 12 corners, stretched and
    /// turned; a star (concave); or a convex one with a short edge between two nearly straight
    /// corners, which rounding far from the origin bends. Of a size from a tenth to a thousand,
    /// near the origin or far from it, in either winding.
    fn vertices(rng: &mut StdRng, kind: usize) -> Vec<Vec2> {
        let size = 10f32.powf(rng.random_range(-1.0..3.0));
        let far = if rng.random_bool(0.5) { 10.0 } else { 1e5 };
        let center = Vec2::new(rng.random_range(-far..far), rng.random_range(-far..far));
        let mut vertices: Vec<Vec2> = if kind == 2 {
            let dip = size * rng.random_range(1e-6..1e-4);
            let short = size * rng.random_range(1e-5..1e-3);
            [
                (-1.0, 0.0),
                (0.0, -dip / size),
                (short / size, -(dip / size) * 1.01),
                (1.0, 0.0),
                (1.0, 1.0),
                (-1.0, 1.0),
            ]
            .map(|(x, y)| center + Vec2::new(x, y) * size)
            .to_vec()
        } else {
            let star = kind == 1;
            let corners = rng.random_range(3..13);
            let stretch = rng.random_range(0.2..1.0);
            let turn = Vec2::from_angle(rng.random_range(0.0..TAU));
            let count = if star { 2 * corners } else { corners };
            (0..count)
                .map(|i| {
                    let spoke = if star && i % 2 == 1 { 0.4 } else { 1.0 };
                    let angle = i as f32 * TAU / count as f32;
                    let local = Vec2::new(angle.cos(), stretch * angle.sin()) * size * spoke;
                    center + turn.rotate(local)
                })
                .collect()
        };
        if rng.random_bool(0.5) {
            vertices.reverse();
        }
        vertices
    }

    /// The polygon `vertices`, still, with its edges' lines (made for the winding given); `None`
    /// where an edge rounded to nothing, which has no line.
    fn placed(vertices: Vec<Vec2>, anticlockwise: bool) -> Option<PlacedColliders> {
        let mut placed = PlacedColliders::default();
        if !push_edge_lines(&vertices, anticlockwise, &mut placed.edge_lines) {
            return None;
        }
        let shape = WorldShape::Polygon {
            start: 0,
            len: vertices.len() as u32,
            inner_radius: 0.0,
            size: polygon_size(&vertices),
            lines: 0,
            concave: crate::geometry::is_concave(&vertices),
        };
        let center = vertices.iter().sum::<Vec2>() / vertices.len() as f32;
        let reach = vertices
            .iter()
            .map(|v| v.distance(center))
            .fold(0.0, f32::max);
        placed.vertices = vertices;
        let bound = Circle::new(center, conservative(center, reach));
        let entity = Entity::from_raw_u32(0).unwrap();
        placed.push(entity, None, bound, shape, Vec2::ZERO);
        Some(placed)
    }

    /// Whenever a swept disc is found beyond an edge's line, the exact tests agree: beyond one
    /// line at both ends, the sweep finds no touch and they are apart now; beyond a line at the
    /// start, they do not overlap there; at the end, they do not touch there. Regular polygons,
    /// stars, and convex polygons bent by rounding; in one round in ten, lines made for the
    /// wrong winding. Discs from a thousandth of the edge's length to a hundred times it, each
    /// end of the path about the disc's radius beyond the polygon's farthest reach past the
    /// edge's line, alongside it or past its corners, within a part in a thousand, three in ten
    /// thousand (just past the margin) or a few parts in a million (inside it: never found
    /// beyond).
    #[test]
    fn a_disc_found_beyond_an_edge_meets_nothing_there_by_the_exact_tests() {
        let mut rng = StdRng::seed_from_u64(21);
        let (mut all_along, mut at_an_end, mut neither) = (0, 0, 0);
        for round in 0..100_000 {
            let vertices = vertices(&mut rng, round % 3);
            let anticlockwise = runs_anticlockwise(&vertices);
            let given = if round % 10 == 9 {
                !anticlockwise
            } else {
                anticlockwise
            };
            let count = vertices.len();
            let edge = rng.random_range(0..count);
            let (a, b) = (vertices[edge], vertices[(edge + 1) % count]);
            let along = b - a;
            let out = if anticlockwise {
                Vec2::new(along.y, -along.x)
            } else {
                Vec2::new(-along.y, along.x)
            }
            .normalize();
            let overhang = vertices
                .iter()
                .map(|&v| (v - a).dot(out))
                .fold(0.0, f32::max);
            let radius = along.length() * 10f32.powf(rng.random_range(-3.0..2.0));
            // Some rounds just past the margin (a part in ten thousand of the reach, and the
            // coordinates' rounding), where a margin too small would show.
            let jitter = [1e-3, 1e-3, 3e-4, 4e-6][rng.random_range(0..4)];
            let place = |rng: &mut StdRng| {
                let away = (overhang + radius) * (1.0 + rng.random_range(-jitter..jitter));
                a + along * rng.random_range(-0.5..1.5) + out * away
            };
            let (start, end) = (place(&mut rng), place(&mut rng));
            let motion = end - start;
            let Some(mut placed) = placed(vertices, given) else {
                continue;
            };
            let now = Circle::new(end, radius);
            let entity = Entity::from_raw_u32(1).unwrap();
            placed.push(entity, None, now, WorldShape::Circle(now), motion);
            assert_eq!(placed.beyond_edges(1, 0), None, "not a polygon");
            let beyond = placed
                .beyond_edges(0, 1)
                .expect("a still polygon with lines");
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
    }

    /// A polygon that moved, or one without edge lines, is not told; nor is a disc the wrong
    /// way round.
    #[test]
    fn only_a_still_lined_polygon_is_told() {
        let square = vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y];
        let with_far_disc = |motion: Vec2, lines: u32| {
            let mut placed = placed(square.clone(), true).unwrap();
            if motion != Vec2::ZERO || lines == NO_LINES {
                let shape = WorldShape::Polygon {
                    start: 0,
                    len: 4,
                    inner_radius: 0.0,
                    size: 1.0,
                    lines,
                    concave: false,
                };
                let bound = Circle::new(placed.centers[0], placed.radii[0]);
                let entity = Entity::from_raw_u32(0).unwrap();
                let vertices = core::mem::take(&mut placed.vertices);
                let edge_lines = core::mem::take(&mut placed.edge_lines);
                placed = PlacedColliders {
                    vertices,
                    edge_lines,
                    ..PlacedColliders::default()
                };
                placed.push(entity, None, bound, shape, motion);
            }
            let now = Circle::new(Vec2::splat(1e4), 1.0);
            let entity = Entity::from_raw_u32(1).unwrap();
            placed.push(entity, None, now, WorldShape::Circle(now), Vec2::X);
            placed
        };
        let beyond = with_far_disc(Vec2::ZERO, 0).beyond_edges(0, 1);
        assert!(beyond.is_some_and(BeyondEdges::all_along), "{beyond:?}");
        assert_eq!(with_far_disc(Vec2::Y, 0).beyond_edges(0, 1), None);
        assert_eq!(with_far_disc(Vec2::ZERO, NO_LINES).beyond_edges(0, 1), None);
        assert_eq!(with_far_disc(Vec2::ZERO, 0).beyond_edges(1, 0), None);
    }

    /// Whenever a swept disc is found clear of a still collider's bounding circle at an end of
    /// its path by the quick look, the exact tests agree: clear at the start, they do not
    /// overlap there; clear at the end, they do not touch there; and the sweep told so answers
    /// as the sweep not told, bit for bit. Polygons with a corner on their bounding circle,
    /// segments with an end on it and circles, near the origin and far from it; discs from a
    /// thousandth of the collider's size to ten thousand times it, one end of the path within
    /// a part in a thousand of the reach, or a few parts in a million (inside the margin: never
    /// found clear). A collider that moved is never found clear, nor a pair the wrong way round.
    #[test]
    fn a_disc_found_clear_at_an_end_of_its_path_is_swept_the_same() {
        use crate::geometry::overlap;
        use crate::geometry::sweep::{sweep_from_start, sweep_from_start_with, touching_at_end};
        use core::f32::consts::TAU;
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(14);
        let (mut at_start, mut at_end, mut neither) = (0, 0, 0);
        for round in 0..60_000 {
            let collider = on_its_bounding_circle(&mut rng, round % 3);
            let near = disc_at_reach(&mut rng, &collider);
            let Collider {
                mut placed,
                shape,
                center,
                size,
                radius,
                ..
            } = collider;
            let entity = Entity::from_raw_u32(0).unwrap();
            let collider_moved = round % 10 == 9;
            let collider_motion = if collider_moved { Vec2::X } else { Vec2::ZERO };
            let bound = Circle::new(center, radius);
            placed.push(entity, None, bound, shape, collider_motion);
            let motion = Vec2::from_angle(rng.random_range(0.0..TAU))
                * size
                * 10f32.powf(rng.random_range(-2.0..1.0));
            // The start near the reach in half the rounds, the end in the others.
            let now = if round / 3 % 2 == 0 {
                Circle::new(near.center + motion, near.radius)
            } else {
                near
            };
            placed.push(entity, None, now, WorldShape::Circle(now), motion);
            assert!(placed.disc_path(0, 1).is_none(), "collider 1 moved");
            let Some(path) = placed.disc_path(1, 0) else {
                assert!(collider_moved, "a swept disc and a still collider");
                continue;
            };
            assert!(!collider_moved, "a collider that moved");
            let known = path.ends().known;
            let mut scratch = Vec::new();
            let disc_start = placed.start_shape(1, &mut scratch);
            let collider = placed.shape(0);
            if known.at_start {
                at_start += 1;
                assert!(
                    !overlap(collider, disc_start),
                    "{disc_start:?} overlaps {collider:?}"
                );
            }
            if known.at_end {
                at_end += 1;
                let touch = touching_at_end(collider, Vec2::ZERO, disc_start, motion);
                assert_eq!(touch, None, "{disc_start:?} moving {motion}");
            }
            if !known.at_start && !known.at_end {
                neither += 1;
            }
            assert_eq!(
                sweep_from_start_with(collider, Vec2::ZERO, disc_start, motion, known, None),
                sweep_from_start(collider, Vec2::ZERO, disc_start, motion),
                "{disc_start:?} moving {motion} against {collider:?}"
            );
        }
        assert!(
            at_start > 5_000 && at_end > 5_000 && neither > 5_000,
            "clear at the start {at_start}, at the end {at_end}, neither {neither}"
        );
    }
}
