//! Polygon–polygon: a solid polygon, convex or concave, moving against another at rest.

use super::guard::sweep_pair;
use super::segment_segment::first_touch_outlines;
use crate::geometry::Shape;
use crate::geometry::{Impact, edges};
use bevy::math::Vec2;

/// When and where the polygon `first`, moving by `motion`, first touches the polygon `second` at
/// rest; see the [module docs](super) for the conventions.
///
/// Two disjoint polygons first meet where a vertex of one runs into an edge of the other, on
/// their outlines, whether convex or not: every vertex of `first` along `motion` against every
/// edge of `second`, every vertex of `second` along `−motion` against every edge of `first`,
/// the earliest. `O(n·m)` rays, fewer where edges lie outside the swept box.
pub fn sweep_polygon_polygon(first: &[Vec2], second: &[Vec2], motion: Vec2) -> Option<Impact> {
    sweep_pair(
        Shape::Polygon(first),
        Shape::Polygon(second),
        motion,
        || first_touch(first, second, motion),
    )
}

/// The rays' answer, for valid polygons apart at the start.
pub(super) fn first_touch(first: &[Vec2], second: &[Vec2], motion: Vec2) -> Option<Impact> {
    first_touch_outlines(first, edges(first), second, edges(second), motion)
}
