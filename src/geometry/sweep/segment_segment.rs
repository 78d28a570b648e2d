//! Segment–segment: a segment moving against a segment at rest. Also the vertex-against-edge
//! search that polygons share.

use super::guard::{sweep_pair, swept_box};
use crate::geometry::Shape;
use crate::geometry::bounds::BoundingBox;
use crate::geometry::ray::ray_segment;
use crate::geometry::{Impact, Segment};
use bevy::math::Vec2;

/// When and where `first`, moving by `motion`, first touches `second` at rest; see the
/// [module docs](super) for the conventions.
///
/// Two disjoint segments first meet where an end of one runs into the other: each end of
/// `first` along `motion` against `second`, each end of `second` along `−motion` against
/// `first`, the earliest. Segments on one line meet end to end, head-on. A zero-length segment
/// is a point.
pub fn sweep_segment_segment(first: Segment, second: Segment, motion: Vec2) -> Option<Impact> {
    sweep_pair(
        Shape::Segment(first),
        Shape::Segment(second),
        motion,
        || first_touch(first, second, motion),
    )
}

/// The rays' answer, for valid segments apart at the start.
pub(super) fn first_touch(first: Segment, second: Segment, motion: Vec2) -> Option<Impact> {
    first_touch_outlines(
        &[first.a, first.b],
        core::iter::once(first),
        &[second.a, second.b],
        core::iter::once(second),
        motion,
    )
}

/// The earliest vertex-against-edge touch of two outlines given by their corners (vertices,
/// segment ends) and edges: the first's moving by `motion`, the second's at rest.
///
/// A corner of the first meeting an edge of the second gives that edge's normal (facing the
/// corner: from the second towards the first) at the corner's position then. A corner of the
/// second meeting an edge of the first (seen from the first, the corner moves by `−motion`)
/// gives the edge's normal negated, at the corner itself, which is at rest. Edges outside the
/// box that the other outline's corners sweep are skipped.
pub(super) fn first_touch_outlines(
    first_corners: &[Vec2],
    first_edges: impl Iterator<Item = Segment>,
    second_corners: &[Vec2],
    second_edges: impl Iterator<Item = Segment>,
    motion: Vec2,
) -> Option<Impact> {
    let mut earliest: Option<Impact> = None;
    let mut keep = |candidate: Impact| {
        if earliest.is_none_or(|best| candidate.time < best.time) {
            earliest = Some(candidate);
        }
    };
    if let Some(swept) = swept_box(first_corners, motion) {
        for edge in second_edges.filter(|edge| swept.overlaps(&BoundingBox::of_segment(*edge))) {
            for &corner in first_corners {
                if let Some(hit) = ray_segment(corner, motion, edge) {
                    keep(Impact {
                        time: hit.time,
                        point: corner + motion * hit.time,
                        normal: hit.normal,
                    });
                }
            }
        }
    }
    if let Some(swept) = swept_box(second_corners, -motion) {
        for edge in first_edges.filter(|edge| swept.overlaps(&BoundingBox::of_segment(*edge))) {
            for &corner in second_corners {
                if let Some(hit) = ray_segment(corner, -motion, edge) {
                    keep(Impact {
                        time: hit.time,
                        point: corner,
                        normal: -hit.normal,
                    });
                }
            }
        }
    }
    earliest
}
