//! Polygon–circle: a solid polygon, convex or concave, moving against a circle at rest.

use super::guard::sweep_pair;
use super::segment_circle::{extent, first_touch_edges};
use crate::geometry::Shape;
use crate::geometry::{Circle, Impact, edges};
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
        || first_touch(vertices, circle, motion),
    )
}

/// The rays' answer, for valid shapes apart at the start.
pub(super) fn first_touch(vertices: &[Vec2], circle: Circle, motion: Vec2) -> Option<Impact> {
    first_touch_edges(
        edges(vertices),
        extent(vertices.iter().copied()),
        circle,
        motion,
    )
}
