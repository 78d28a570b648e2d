//! What the spatial queries answer: [`RayCastHit`], [`ShapeCastHit`], [`NearestCollider`].

use crate::geometry::RayExit;
use bevy::prelude::*;

/// Where a ray meets a collider: [`SpatialQuery::cast_ray`](crate::SpatialQuery::cast_ray)
/// and [`SpatialQuery::ray_hits`](crate::SpatialQuery::ray_hits). The fields are those of
/// [`geometry::RayIntersection`](crate::geometry::RayIntersection), with the entity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayCastHit {
    /// The collider hit.
    pub entity: Entity,
    /// Its body: the [`CollisionBody`](crate::CollisionBody) it is a part of, or the collider
    /// itself.
    pub body: Entity,
    /// How far along the ray it is first met; zero when the ray starts in it.
    pub distance: f32,
    /// Where.
    pub point: Vec2,
    /// The collider's outline normal there, facing the ray.
    pub normal: Vec2,
    /// Whether the ray starts in the collider.
    pub starts_inside: bool,
    /// Where the ray leaves a solid collider again (the end of its first stretch inside), if
    /// it does within the ray's length.
    pub exit: Option<RayExit>,
}

/// Where a moving circle first meets a collider: [`SpatialQuery::cast_circle`](crate::SpatialQuery::cast_circle).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCastHit {
    /// The collider met.
    pub entity: Entity,
    /// Its body: the [`CollisionBody`](crate::CollisionBody) it is a part of, or the collider
    /// itself.
    pub body: Entity,
    /// How far the circle's centre travels before it touches; zero when it already overlaps
    /// the collider where it starts.
    pub distance: f32,
    /// Where the two touch, the circle moved by `distance` (for a start overlapping, the
    /// collider's point nearest the circle's centre).
    pub point: Vec2,
    /// The collider's unit outline normal there, towards the circle (for a start overlapping,
    /// the opposite of the direction).
    pub normal: Vec2,
}

/// The collider nearest to a point: [`SpatialQuery::nearest`](crate::SpatialQuery::nearest).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NearestCollider {
    /// The collider.
    pub entity: Entity,
    /// Its body: the [`CollisionBody`](crate::CollisionBody) it is a part of, or the collider
    /// itself.
    pub body: Entity,
    /// How far it is: zero when the point lies in it.
    pub distance: f32,
    /// Its point nearest to the one asked about (that point itself when it lies in it).
    pub point: Vec2,
}
