//! Circle–circle: a disc moving against a disc at rest.

use super::guard::sweep_pair;
use crate::geometry::Shape;
use crate::geometry::ray::ray_disc;
use crate::geometry::{Disc, Impact};
use bevy::math::Vec2;

/// When and where the disc `first`, moving by `motion`, first touches the disc `second` at
/// rest; see the [module docs](super) for the conventions.
///
/// The discs touch when their centres are `r₁ + r₂` apart: the first centre's ray against the
/// disc of that radius around the second centre. The point is on the second circle, along the
/// normal (which joins the centres at that time).
pub fn sweep_circle_circle(first: Disc, second: Disc, motion: Vec2) -> Option<Impact> {
    sweep_pair(Shape::Circle(first), Shape::Circle(second), motion, || {
        first_touch(first, second, motion)
    })
}

/// The rays' answer, for valid discs apart at the start.
pub(super) fn first_touch(first: Disc, second: Disc, motion: Vec2) -> Option<Impact> {
    let reach = Disc::new(second.center, first.radius + second.radius);
    let hit = ray_disc(first.center, motion, reach)?;
    Some(Impact {
        time: hit.time,
        point: second.center + hit.normal * second.radius,
        normal: hit.normal,
    })
}
