//! Segment–circle: a segment moving against a disc at rest (or, from the other side, a bullet
//! moving against a wall).

use super::guard::sweep_pair;
use crate::geometry::Shape;
use crate::geometry::ray::{RayHit, ray_capsule};
use crate::geometry::{Disc, Impact, Segment};
use bevy::math::Vec2;

/// When and where `segment`, moving by `motion`, first touches the disc `circle` at rest; see
/// the [module docs](super) for the conventions.
///
/// Seen from the segment, the circle's centre moves by `−motion`, and the two touch when the
/// centre comes within `r` of the segment: the centre's ray against the capsule around it. The
/// point is on the circle, along the normal.
pub fn sweep_segment_circle(segment: Segment, circle: Disc, motion: Vec2) -> Option<Impact> {
    sweep_pair(
        Shape::Segment(segment),
        Shape::Circle(circle),
        motion,
        || first_touch(segment, circle, motion),
    )
}

/// The rays' answer, for valid shapes apart at the start.
pub(super) fn first_touch(segment: Segment, circle: Disc, motion: Vec2) -> Option<Impact> {
    first_touch_edges(core::iter::once(segment), circle, motion)
}

/// The earliest touch of the edges (moving by `motion`) with the circle (at rest): the circle's
/// centre, moving by `−motion`, against the capsule of radius `r` around each edge. The
/// capsule's normal points from the edge to the centre, from the first shape to the second, so
/// it is negated; the point is the centre moved by `r` along that negated normal, towards the
/// edge (where the centre is at rest: the circle's frame).
pub(super) fn first_touch_edges(
    edges: impl Iterator<Item = Segment>,
    circle: Disc,
    motion: Vec2,
) -> Option<Impact> {
    let mut earliest: Option<RayHit> = None;
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
