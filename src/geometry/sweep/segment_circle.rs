//! Segment–circle: a segment moving against a circle at rest (or, from the other side, a bullet
//! moving against a wall).

use super::guard::sweep_pair;
use crate::geometry::Shape;
use crate::geometry::ray::{RayEntry, ray_capsule};
use crate::geometry::{Circle, Impact, MIN_SIZE, Segment};
use bevy::math::Vec2;

/// When and where `segment`, moving by `motion`, first touches the circle `circle` at rest; see
/// the [module docs](super) for the conventions.
///
/// Seen from the segment, the circle's centre moves by `−motion`, and the two touch when the
/// centre comes within `r` of the segment: the centre's ray against the capsule around it. The
/// point is on the circle, along the normal.
pub fn sweep_segment_circle(segment: Segment, circle: Circle, motion: Vec2) -> Option<Impact> {
    sweep_pair(
        Shape::Segment(segment),
        Shape::Circle(circle),
        motion,
        || first_touch(segment, circle, motion),
    )
}

/// The rays' answer, for valid shapes apart at the start.
pub(super) fn first_touch(segment: Segment, circle: Circle, motion: Vec2) -> Option<Impact> {
    let extent = extent([segment.a, segment.b]);
    first_touch_edges(core::iter::once(segment), extent, circle, motion)
}

/// The largest absolute coordinate of `points`: how far from the origin edges through them
/// reach, for [`first_touch_edges`].
pub(super) fn extent(points: impl IntoIterator<Item = Vec2>) -> f32 {
    points
        .into_iter()
        .map(|point| point.abs().max_element())
        .fold(0.0, f32::max)
}

/// The earliest touch of the edges (moving by `motion`) with the circle (at rest), as
/// [`earliest_touch`] finds it, casting only against the edges that may reach the circle.
///
/// Most edges are far from the centre's path: an edge whose line is
/// [clearly beyond](Segment::clearly_beyond) the circle [around the path](around_path) is not
/// cast against. `extent` is the largest absolute coordinate of any edge's end, or more, taken
/// once for all the edges: the test rounds the edges' distance from the middle in proportion
/// to it.
pub(super) fn first_touch_edges(
    edges: impl Iterator<Item = Segment>,
    extent: f32,
    circle: Circle,
    motion: Vec2,
) -> Option<Impact> {
    let around = around_path(circle, motion, extent);
    let reach_squared = around.radius * around.radius;
    let reaches = |edge: &Segment| !edge.clearly_beyond(around.center, reach_squared);
    earliest_touch(edges.filter(reaches), circle, motion)
}

/// The circle holding the whole swept circle: around the path's middle, of radius `r` plus half
/// the path. Every edge the cast meets comes within it. It is grown by a few units in the last
/// place of the coordinates involved (the middle's, and `extent`, those of the edges tested
/// against it), so that rounding never leaves out an edge the cast would meet.
pub(super) fn around_path(circle: Circle, motion: Vec2, extent: f32) -> Circle {
    let half_path = -0.5 * motion;
    let middle = circle.center + half_path;
    let reach = (circle.radius + half_path.length()).max(MIN_SIZE);
    let coordinates = reach + middle.abs().max_element();
    Circle::new(middle, reach + 8.0 * f32::EPSILON * (coordinates + extent))
}

/// The earliest touch of the edges (moving by `motion`) with the circle (at rest): the circle's
/// centre, moving by `−motion`, against the capsule of radius `r` around each edge. The
/// capsule's normal points from the edge to the centre, from the first shape to the second, so
/// it is negated; the point is the centre moved by `r` along that negated normal, towards the
/// edge (where the centre is at rest: the circle's frame). Of edges met at the same time, the
/// first.
pub(super) fn earliest_touch(
    edges: impl Iterator<Item = Segment>,
    circle: Circle,
    motion: Vec2,
) -> Option<Impact> {
    let mut earliest: Option<RayEntry> = None;
    for edge in edges {
        if let Some(hit) = ray_capsule(circle.center, -motion, edge, circle.radius)
            && earliest.is_none_or(|best| hit.time < best.time)
        {
            earliest = Some(hit);
        }
    }
    let hit = earliest?;
    let normal = -hit.normal;
    Some(Impact {
        time: hit.time,
        point: circle.center + normal * circle.radius,
        normal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// The edges cast against, without the filter: every one.
    fn every_edge(edges: &[Segment], circle: Circle, motion: Vec2) -> Option<RayEntry> {
        edges
            .iter()
            .filter_map(|&edge| ray_capsule(circle.center, -motion, edge, circle.radius))
            .reduce(|best, hit| if hit.time < best.time { hit } else { best })
    }

    /// Skipping the edges clearly beyond the swept circle changes no answer: long walls grazed
    /// along their length; random edges and moving circles, many grazing an edge, near the
    /// origin and far from it (where the path's middle rounds by more than the filter's own
    /// margin).
    #[test]
    fn the_edges_left_out_are_never_met() {
        let mut rng = StdRng::seed_from_u64(11);
        // Long walls through the origin, grazed across their length (where the distance to
        // their line rounds in proportion to the wall, not to the circle).
        for _ in 0..20_000 {
            let along = Vec2::from_angle(rng.random_range(0.0..core::f32::consts::TAU));
            let half_length = rng.random_range(1e3..2e4);
            let wall = Segment::new(-along * half_length, along * half_length);
            let radius = rng.random_range(0.0..5.0);
            let foot = along * rng.random_range(-half_length..half_length);
            let side = along.perp() * rng.random_range(radius + 1.0..radius + 50.0);
            let center = foot + side;
            // Straight at the wall, stopping within a hair of a touch.
            let gap = side.length() - radius;
            let stop = gap * (1.0 + rng.random_range(-1e-6..1e-6));
            let motion = side.normalize() * stop;
            let circle = Circle::new(center, radius);
            assert_eq!(
                first_touch(wall, circle, motion).map(|impact| impact.time),
                every_edge(&[wall], circle, motion).map(|hit| hit.time),
                "{wall:?}, {circle:?} moving {motion}"
            );
        }
        for offset in [0.0, 1e3, 1e5, 3e6] {
            let offset = Vec2::new(offset, -offset);
            for _ in 0..20_000 {
                let mut point = || {
                    offset + Vec2::new(rng.random_range(-20.0..20.0), rng.random_range(-20.0..20.0))
                };
                let edges = [
                    Segment::new(point(), point()),
                    Segment::new(point(), point()),
                ];
                let center = point();
                let radius = rng.random_range(0.0..3.0);
                // Towards a point on an edge, stopping about a radius short of it (a graze).
                let edge = edges[0];
                let target = edge.a.lerp(edge.b, rng.random_range(0.0..1.0));
                let towards = target - center;
                let stop = towards.length() - radius + rng.random_range(-0.01..0.01);
                let motion = -towards.normalize_or_zero() * stop.max(0.0);
                let circle = Circle::new(center, radius);
                let expected = every_edge(&edges, circle, motion);
                let ends = edges.iter().flat_map(|edge| [edge.a, edge.b]);
                let found = first_touch_edges(edges.into_iter(), extent(ends), circle, motion);
                assert_eq!(
                    found.map(|impact| impact.time),
                    expected.map(|hit| hit.time),
                    "{edges:?}, {circle:?} moving {motion}"
                );
            }
        }
    }
}
