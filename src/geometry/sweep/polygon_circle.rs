//! Polygon–circle: a solid polygon, convex or concave, moving against a circle at rest.

use super::guard::sweep_pair;
use super::segment_circle::{around_path, earliest_touch, extent, first_touch_edges};
use crate::geometry::edge_lines::near_edges;
use crate::geometry::polygon_circle::flagged_edges;
use crate::geometry::{Circle, Impact, MeasuredPolygon, Shape, edges};
use bevy::math::Vec2;

/// When and where the polygon `vertices`, moving by `motion`, first touches the circle `circle` at
/// rest; see the [module docs](super) for the conventions.
///
/// The circle first touches the polygon's outline (the circle cannot reach the inside without
/// crossing it): the centre, moving by `−motion`, against the capsule around each edge, the
/// earliest. A notch of a concave polygon is entered like any other part of the outline.
pub fn sweep_polygon_circle(vertices: &[Vec2], circle: Circle, motion: Vec2) -> Option<Impact> {
    sweep_pair(
        Shape::Polygon(vertices),
        Shape::Circle(circle),
        motion,
        || first_touch(vertices, circle, motion, None),
    )
}

/// The rays' answer, for valid shapes apart at the start. `measured`, if given, is the polygon
/// the pipeline placed with these very vertices: its edges' lines tell, four at a time, the
/// edges that come near the circle [around the path](around_path), which are the ones cast
/// against (every edge the cast meets is one, so the answer is the same).
pub(super) fn first_touch(
    vertices: &[Vec2],
    circle: Circle,
    motion: Vec2,
    measured: Option<MeasuredPolygon>,
) -> Option<Impact> {
    let lines = measured
        .filter(|measured| core::ptr::eq(measured.vertices, vertices))
        .and_then(|measured| {
            let lines = measured.lines.get(..vertices.len().div_ceil(4))?;
            Some((lines, measured.size))
        });
    match lines {
        // The lines' own margin covers the edges' coordinates, which `around_path` need not.
        Some((lines, size)) => {
            let near = near_edges(lines, around_path(circle, motion, 0.0), size);
            earliest_touch(flagged_edges(vertices, near), circle, motion)
        }
        None => first_touch_edges(
            edges(vertices),
            extent(vertices.iter().copied()),
            circle,
            motion,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::edge_lines::{push_edge_lines, runs_anticlockwise};
    use crate::geometry::{overlap, polygon_size};
    use core::f32::consts::TAU;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// The edges picked by the polygon's lines give the same answer as the edges picked one by
    /// one, bit for bit: regular polygons and stars (concave), of 3 to 64 corners, small and
    /// large, near the origin and far from it; circles of every size aimed at a point of an
    /// edge and stopping within a hair of it, or passing anywhere.
    #[test]
    fn the_edges_picked_by_the_lines_give_the_same_touch() {
        let mut rng = StdRng::seed_from_u64(21);
        let (mut met, mut missed, mut spared) = (0, 0, 0);
        for round in 0..40_000 {
            let star = rng.random_bool(0.5);
            let corners = rng.random_range(3..=32) * if star { 2 } else { 1 };
            let size = 10f32.powf(rng.random_range(-1.0..3.0));
            let turn = rng.random_range(0.0..TAU);
            let far = if rng.random_bool(0.5) { 10.0 } else { 1e5 };
            let center = Vec2::new(rng.random_range(-far..far), rng.random_range(-far..far));
            let vertices: Vec<Vec2> = (0..corners)
                .map(|i| {
                    let reach = if star && i % 2 == 1 { 0.4 } else { 1.0 };
                    let angle = turn + i as f32 * TAU / corners as f32;
                    center + Vec2::from_angle(angle) * reach * size
                })
                .collect();
            let mut lines = Vec::new();
            assert!(push_edge_lines(
                &vertices,
                runs_anticlockwise(&vertices),
                &mut lines
            ));
            let measured = MeasuredPolygon {
                vertices: &vertices,
                size: polygon_size(&vertices),
                lines: &lines,
            };
            let radius = size * 10f32.powf(rng.random_range(-3.0..1.0));
            let start = center
                + Vec2::from_angle(rng.random_range(0.0..TAU))
                    * (size + radius)
                    * rng.random_range(1.0..3.0);
            let motion = if round % 4 == 0 {
                // Anywhere, up to ten times the polygon's size.
                Vec2::from_angle(rng.random_range(0.0..TAU)) * size * rng.random_range(0.0..10.0)
            } else {
                // At a point of an edge, stopping about a radius short of it: a graze.
                let corner = rng.random_range(0..corners);
                let (a, b) = (vertices[corner], vertices[(corner + 1) % corners]);
                let target = a.lerp(b, rng.random_range(0.0..1.0));
                let towards = target - start;
                let jitter = if rng.random_bool(0.5) { 1e-6 } else { 1e-3 };
                let stop = towards.length() - radius + radius * rng.random_range(-jitter..jitter);
                towards.normalize_or_zero() * stop.max(0.0)
            };
            let circle = Circle::new(start, radius);
            if overlap(Shape::Polygon(&vertices), Shape::Circle(circle)) {
                continue;
            }
            // The polygon moves against the circle at rest: by the opposite of the circle's motion.
            let around = around_path(circle, -motion, 0.0);
            if (near_edges(&lines, around, measured.size).count_ones() as usize) < corners {
                spared += 1;
            }
            let by_lines = first_touch(&vertices, circle, -motion, Some(measured));
            let one_by_one = first_touch(&vertices, circle, -motion, None);
            assert_eq!(
                by_lines, one_by_one,
                "{circle:?} moving {motion} against {vertices:?}"
            );
            if one_by_one.is_some() {
                met += 1;
            } else {
                missed += 1;
            }
        }
        assert!(met > 10_000 && missed > 5_000, "{met} met, {missed} missed");
        // The lines spare most sweeps some edges.
        assert!(spared > 20_000, "{spared} spared an edge");
    }
}
