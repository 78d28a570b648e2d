//! Circle–circle: a circle moving against a circle at rest.

use super::guard::sweep_pair;
use crate::geometry::Shape;
use crate::geometry::ray::ray_circle;
use crate::geometry::{Circle, Impact};
use bevy::math::Vec2;

/// When and where the circle `first`, moving by `motion`, first touches the circle `second` at
/// rest; see the [module docs](super) for the conventions.
///
/// The circles touch when their centres are `r₁ + r₂` apart: the first centre's ray against the
/// circle of that radius around the second centre. The point is on the second circle, along the
/// normal (which joins the centres at that time).
pub fn sweep_circle_circle(first: Circle, second: Circle, motion: Vec2) -> Option<Impact> {
    sweep_pair(Shape::Circle(first), Shape::Circle(second), motion, || {
        first_touch(first, second, motion)
    })
}

/// The rays' answer, for valid circles apart at the start.
pub(super) fn first_touch(first: Circle, second: Circle, motion: Vec2) -> Option<Impact> {
    let reach = Circle::new(second.center, first.radius + second.radius);
    let hit = ray_circle(first.center, motion, reach)?;
    Some(Impact {
        time: hit.time,
        point: second.center + hit.normal * second.radius,
        normal: hit.normal,
    })
}
