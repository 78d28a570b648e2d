//! The three collider components, their constructors and validation, and [`ColliderError`].
//!
//! Each collider is defined in its entity's local space and placed in the world by its
//! [`GlobalTransform`]: translation, rotation about z, scale, and parent hierarchies all apply.
//! Only the transform's x and y axes are used (a collider lives in the XY plane). Scale acts on
//! every point of a segment or polygon, mirroring included. A circle stays a circle: its radius
//! is multiplied by the **most the transform stretches any direction** (the larger of the x
//! and y scales, or more under shear, as for the child of a non-uniformly scaled, rotated
//! parent), so it covers the ellipse the transform would make.
//!
//! # One collider an entity
//! An entity has one collider. One given two kinds keeps the first of polygon, segment and
//! circle, and the pipeline warns once, naming the entity. For a shape of several pieces, put
//! each on a child and make the parent a [`CollisionBody`](crate::CollisionBody).
//!
//! # Edits in place
//! The constructors validate their input. A collider changed in place without them (through
//! reflection: an inspector, a scene file) is validated again by the pipeline before it is
//! used: a valid edit takes effect at once (a polygon's bounds are recomputed), and an invalid
//! one is skipped with a warning naming the entity (many in one run share a line), until it
//! is valid again. A circle is
//! checked as it is placed: one whose disc in the world is in range is used as placed, even
//! where its own radius or offset, scaled down to it, is out of range.

use crate::geometry::{MIN_SIZE, in_range};
use bevy::prelude::*;
use thiserror::Error;

mod circle;
mod polygon;
mod segment;

pub use circle::CircleCollider;
pub use polygon::PolygonCollider;
pub use segment::SegmentCollider;

/// Why a collider could not be built from the values given (or, for one edited in place, why
/// the pipeline skips it).
#[derive(Clone, Copy, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum ColliderError {
    /// A radius out of range: a circle's negative, NaN, infinite or beyond
    /// [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE); a regular polygon's circumradius
    /// not above zero, or beyond `MAX_COORDINATE`.
    #[error(
        "the radius {0} is out of range: a circle's at least zero, a regular polygon's above \
         zero, both finite and at most MAX_COORDINATE (1e18)"
    )]
    InvalidRadius(f32),
    /// A point (an offset, a segment end, a polygon vertex) is NaN, infinite or beyond
    /// [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE).
    #[error("point {index} is not finite or beyond MAX_COORDINATE (1e18): {point}")]
    InvalidPoint {
        /// Which point: 0 for an offset, 0 or 1 for a segment's ends, the vertex index.
        index: usize,
        /// The point itself.
        point: Vec2,
    },
    /// A polygon has fewer than three distinct vertices (after dropping repeated neighbours
    /// and a repeated closing vertex).
    #[error("a polygon needs at least 3 distinct vertices, got {0}")]
    TooFewVertices(usize),
    /// A polygon has no area, or nearly none: its vertices lie on one line, or twice its area
    /// is at most a millionth of its bounding box's diagonal squared (a sliver, straight or
    /// bent, a two-millionth as thick as it is long), whichever vertex it starts from. (A
    /// sliver whose edges also cross may be refused as [`SelfIntersecting`](Self::SelfIntersecting)
    /// instead, depending on that vertex.)
    #[error("the polygon has no area, or nearly none: a sliver, straight or bent")]
    ZeroArea,
    /// A rectangle's side or a rhombus's diagonal is not above zero, or not finite.
    #[error(
        "the side or diagonal {0} is out of range: a rectangle's sides and a rhombus's \
         diagonals are finite and above zero"
    )]
    InvalidSide(f32),
    /// Two edges of a polygon cross or overlap, other than neighbours at their shared vertex:
    /// their indices, the lower first (edge `i` runs from vertex `i` to vertex `i + 1`).
    #[error("the polygon intersects itself: edges {0} and {1} meet")]
    SelfIntersecting(usize, usize),
    /// A shape's size (a circle's radius; the larger side of a segment's or a polygon's
    /// bounding box) is above zero but below [`MIN_SIZE`](crate::geometry::MIN_SIZE), smaller
    /// than the tests resolve.
    #[error("the shape's size {0} is below the smallest the tests resolve (MIN_SIZE, 1e-18)")]
    TooSmall(f32),
    /// A regular polygon of more sides than
    /// [`PolygonCollider::MAX_SIDES`](crate::PolygonCollider::MAX_SIDES).
    #[error("a regular polygon has at most MAX_SIDES (4096) sides, got {0}")]
    TooManySides(usize),
}

/// `size`, unless it is above zero and below [`MIN_SIZE`](crate::geometry::MIN_SIZE) (zero is a point, and exact).
fn check_size(size: f32) -> Result<(), ColliderError> {
    if size > 0.0 && size < MIN_SIZE {
        Err(ColliderError::TooSmall(size))
    } else {
        Ok(())
    }
}

/// `point`, if it is finite and within [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE).
fn check_point(index: usize, point: Vec2) -> Result<Vec2, ColliderError> {
    if in_range(point) {
        Ok(point)
    } else {
        Err(ColliderError::InvalidPoint { index, point })
    }
}
