//! [`CircleCollider`]: a solid circle.

use super::{ColliderError, check_point, check_size};
use crate::geometry::MAX_COORDINATE;
use bevy::math::primitives::Circle;
use bevy::prelude::*;

/// A solid circle of `radius` around the entity's origin (plus an optional local offset).
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_collision_events::prelude::*;
/// let bullet = (CircleCollider::new(4.0), Transform::from_xyz(10.0, 20.0, 0.0));
/// assert!(CircleCollider::try_new(-1.0).is_err());
/// ```
#[derive(Component, Clone, Debug, PartialEq, Reflect)]
#[reflect(Component, Clone, Debug, PartialEq)]
#[require(Transform)]
pub struct CircleCollider {
    radius: f32,
    offset: Vec2,
}

impl CircleCollider {
    /// A circle of `radius` centred on the entity.
    ///
    /// # Panics
    /// If `radius` is negative, not finite, beyond
    /// [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE), or above zero but below
    /// [`MIN_SIZE`](crate::geometry::MIN_SIZE); see [`try_new`](Self::try_new).
    #[track_caller]
    pub fn new(radius: f32) -> Self {
        match Self::try_new(radius) {
            Ok(collider) => collider,
            Err(error) => panic!("{error}"),
        }
    }

    /// A circle of `radius` centred on the entity.
    ///
    /// # Errors
    /// [`ColliderError::InvalidRadius`] if `radius` is negative, NaN, infinite or beyond
    /// [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE); [`ColliderError::TooSmall`] if it is above zero but below
    /// [`MIN_SIZE`](crate::geometry::MIN_SIZE). Zero is allowed: the circle is a point.
    pub fn try_new(radius: f32) -> Result<Self, ColliderError> {
        if !(0.0..=MAX_COORDINATE).contains(&radius) {
            return Err(ColliderError::InvalidRadius(radius));
        }
        check_size(radius)?;
        Ok(Self {
            radius,
            offset: Vec2::ZERO,
        })
    }

    /// The same circle, centred at `offset` in the entity's local space.
    ///
    /// # Panics
    /// If `offset` is not finite or reaches beyond
    /// [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE); see
    /// [`try_with_offset`](Self::try_with_offset).
    #[track_caller]
    pub fn with_offset(self, offset: Vec2) -> Self {
        match self.try_with_offset(offset) {
            Ok(collider) => collider,
            Err(error) => panic!("{error}"),
        }
    }

    /// The same circle, centred at `offset` in the entity's local space.
    ///
    /// # Errors
    /// [`ColliderError::InvalidPoint`] if `offset` is not finite or reaches beyond
    /// [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE).
    pub fn try_with_offset(self, offset: Vec2) -> Result<Self, ColliderError> {
        Ok(Self {
            offset: check_point(0, offset)?,
            ..self
        })
    }

    /// The radius, in local units.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The centre, in the entity's local space.
    pub fn offset(&self) -> Vec2 {
        self.offset
    }

    /// Whether the fields are what [`try_new`](Self::try_new) and
    /// [`try_with_offset`](Self::try_with_offset) accept (they may not be after an edit through
    /// reflection).
    pub(crate) fn validate(&self) -> Result<(), ColliderError> {
        if !(0.0..=MAX_COORDINATE).contains(&self.radius) {
            return Err(ColliderError::InvalidRadius(self.radius));
        }
        check_size(self.radius)?;
        check_point(0, self.offset).map(drop)
    }
}

impl TryFrom<Circle> for CircleCollider {
    type Error = ColliderError;

    fn try_from(circle: Circle) -> Result<Self, Self::Error> {
        Self::try_new(circle.radius)
    }
}

impl From<&CircleCollider> for Circle {
    /// The circle's shape, without its offset.
    fn from(collider: &CircleCollider) -> Self {
        Circle::new(collider.radius)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edited_circle_is_checked() {
        let mut circle = CircleCollider::new(2.0);
        assert_eq!(circle.validate(), Ok(()));
        circle.radius = f32::NAN;
        assert!(matches!(
            circle.validate(),
            Err(ColliderError::InvalidRadius(_))
        ));
    }
}
