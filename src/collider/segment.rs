//! [`SegmentCollider`]: a line segment.

use super::{ColliderError, check_point, check_size};
use bevy::math::primitives::Segment2d;
use bevy::prelude::*;

/// A line segment between two points of the entity's local space: a laser, a wall, a bullet's
/// path over a frame. It is its own outline; equal ends make it a point.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_collision_events::prelude::*;
/// let laser = SegmentCollider::new(Vec2::ZERO, Vec2::new(0.0, 800.0));
/// assert_eq!(laser.length(), 800.0);
/// ```
#[derive(Component, Clone, Debug, PartialEq, Reflect)]
#[reflect(Component, Clone, Debug, PartialEq)]
#[require(Transform)]
pub struct SegmentCollider {
    a: Vec2,
    b: Vec2,
}

impl SegmentCollider {
    /// The segment from `a` to `b`, in local space.
    ///
    /// # Panics
    /// When [`try_new`](Self::try_new) returns an error.
    #[track_caller]
    pub fn new(a: Vec2, b: Vec2) -> Self {
        match Self::try_new(a, b) {
            Ok(collider) => collider,
            Err(error) => panic!("{error}"),
        }
    }

    /// The segment from `a` to `b`, in local space.
    ///
    /// # Errors
    /// [`ColliderError::InvalidPoint`] (index 0 for `a`, 1 for `b`) if a point is NaN, infinite
    /// or beyond [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE); [`ColliderError::TooSmall`] if the segment is longer than
    /// zero but shorter than [`MIN_SIZE`](crate::geometry::MIN_SIZE) (along the axis it spans most). `a == b` is allowed:
    /// the segment is a point.
    pub fn try_new(a: Vec2, b: Vec2) -> Result<Self, ColliderError> {
        let segment = Self {
            a: check_point(0, a)?,
            b: check_point(1, b)?,
        };
        segment.check_size()?;
        Ok(segment)
    }

    /// The start, in local space.
    pub fn a(&self) -> Vec2 {
        self.a
    }

    /// The end, in local space.
    pub fn b(&self) -> Vec2 {
        self.b
    }

    /// The length, in local units.
    pub fn length(&self) -> f32 {
        self.a.distance(self.b)
    }

    /// Whether the ends are what [`try_new`](Self::try_new) accepts (they may not be after an
    /// edit through reflection).
    pub(crate) fn validate(&self) -> Result<(), ColliderError> {
        check_point(0, self.a)?;
        check_point(1, self.b)?;
        self.check_size()
    }

    /// Refuses a segment shorter than [`MIN_SIZE`](crate::geometry::MIN_SIZE) but not a point, its length measured along
    /// the axis it spans most (no square, which would underflow).
    fn check_size(&self) -> Result<(), ColliderError> {
        check_size((self.b - self.a).abs().max_element())
    }
}

impl TryFrom<Segment2d> for SegmentCollider {
    type Error = ColliderError;

    fn try_from(segment: Segment2d) -> Result<Self, Self::Error> {
        Self::try_new(segment.vertices[0], segment.vertices[1])
    }
}

impl From<&SegmentCollider> for Segment2d {
    /// The segment between the collider's two ends, in local space.
    fn from(collider: &SegmentCollider) -> Self {
        Segment2d::new(collider.a, collider.b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edited_segment_is_checked() {
        let mut segment = SegmentCollider::new(Vec2::ZERO, Vec2::ONE);
        assert_eq!(segment.validate(), Ok(()));
        segment.b.x = f32::INFINITY;
        assert!(matches!(
            segment.validate(),
            Err(ColliderError::InvalidPoint { index: 1, .. })
        ));
    }
}
