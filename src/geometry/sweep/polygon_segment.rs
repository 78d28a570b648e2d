//! Polygon–segment: a solid polygon, convex or concave, moving against a segment at rest.

use super::guard::sweep_pair;
use super::segment_segment::first_touch_outlines;
use crate::geometry::Shape;
use crate::geometry::{Impact, Segment, edges};
use bevy::math::Vec2;

/// When and where the polygon `vertices`, moving by `motion`, first touches `segment` at rest;
/// see the [module docs](super) for the conventions.
///
/// A vertex runs into the segment, or an end of the segment into an edge (the segment cannot
/// reach the polygon's inside without crossing its outline): every vertex along `motion`
/// against the segment, both ends along `−motion` against every edge, the earliest.
pub fn sweep_polygon_segment(vertices: &[Vec2], segment: Segment, motion: Vec2) -> Option<Impact> {
    sweep_pair(
        Shape::Polygon(vertices),
        Shape::Segment(segment),
        motion,
        || first_touch(vertices, segment, motion),
    )
}

/// The rays' answer, for valid shapes apart at the start.
pub(super) fn first_touch(vertices: &[Vec2], segment: Segment, motion: Vec2) -> Option<Impact> {
    first_touch_outlines(
        vertices,
        edges(vertices),
        &[segment.a, segment.b],
        core::iter::once(segment),
        motion,
    )
}
