//! The bodies that turned this run: how each moved, and the sector of angles it swept, for a
//! quick answer to "can it meet this still circle at all".

use super::{Bodies, WorldShape, conservative};
use crate::geometry::Shape;
use crate::geometry::sweep::Turn;
use crate::layers::CollisionLayers;
use bevy::prelude::*;
use core::f32::consts::{PI, TAU};

/// A swept segment or polygon that turned this run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turning {
    /// Its place in [`Bodies`].
    body: u32,
    turn: Turn,
    /// The angles it swept about its pivot, when it only turned (no translation) and its
    /// corners lie within a quarter turn of each other as seen from the pivot.
    sector: Option<Sector>,
}

/// Angles about a pivot, measured from `reference` (a unit vector): from `low` to `high`
/// radians, counter-clockwise.
#[derive(Clone, Copy, Debug)]
struct Sector {
    reference: Vec2,
    low: f32,
    high: f32,
}

/// Angles closer than this (radians) count as touching: well above `f32` rounding of angles
/// of points a few ulps apart.
const ANGLE_MARGIN: f32 = 1e-4;

impl Bodies {
    /// Appends a body that turned as it moved (see [`Bodies::push`]): its bounding circle
    /// holds it all along its turn and path.
    pub(crate) fn push_turning(
        &mut self,
        entity: Entity,
        layers: Option<&CollisionLayers>,
        (center, radius): (Vec2, f32),
        shape: WorldShape,
        turn: Turn,
    ) {
        // Turning about the pivot, no point leaves the circle round the pivot through the
        // farthest point of the bounding circle.
        let reach = turn.pivot.distance(center) + radius;
        let bounds = (turn.pivot, conservative(turn.pivot, reach));
        let body = self.entities.len() as u32;
        self.push(entity, layers, bounds, shape, turn.translation);
        let sector = match self.shape(body as usize) {
            Shape::Segment(segment) => Sector::swept(&[segment.a, segment.b], turn, reach),
            Shape::Polygon(vertices) => Sector::swept(vertices, turn, reach),
            Shape::Circle(_) => None,
        };
        self.turning.push(Turning { body, turn, sector });
    }

    /// Whether any body turned this run.
    #[inline]
    pub(crate) fn any_turning(&self) -> bool {
        !self.turning.is_empty()
    }

    /// How body `index` turned as it moved, if it did.
    #[inline]
    pub(crate) fn turn(&self, index: usize) -> Option<Turn> {
        self.turning_entry(index).map(|turning| turning.turn)
    }

    #[inline]
    fn turning_entry(&self, index: usize) -> Option<&Turning> {
        if self.turning.is_empty() {
            return None;
        }
        let at = self
            .turning
            .binary_search_by_key(&(index as u32), |turning| turning.body)
            .ok()?;
        Some(&self.turning[at])
    }

    /// Whether the still circle `circle` lies outside the sector of angles that body
    /// `turning`, which only turned, swept about its pivot: then they never met, and do not
    /// overlap now. `false` where that does not apply or cannot tell. (A laser swinging among
    /// still bullets meets few of those in its bounding circle.)
    #[inline]
    pub(crate) fn outside_turn(&self, turning: usize, circle: usize) -> bool {
        let Some(Turning {
            turn,
            sector: Some(sector),
            ..
        }) = self.turning_entry(turning)
        else {
            return false;
        };
        if self.motion(circle) != Vec2::ZERO || self.turn(circle).is_some() {
            return false;
        }
        let Shape::Circle(disc) = self.shape(circle) else {
            return false;
        };
        let offset = disc.center - turn.pivot;
        let distance = offset.length();
        if distance
            <= disc.radius * (1.0 + ANGLE_MARGIN) + f32::EPSILON * turn.pivot.abs().max_element()
        {
            return false;
        }
        let angle = sector
            .reference
            .perp_dot(offset)
            .atan2(sector.reference.dot(offset));
        let spread = (disc.radius / distance).min(1.0).asin() + ANGLE_MARGIN;
        // The swept angles, widened by the circle's spread either side and wrapped round,
        // must miss the circle's own angle.
        let start = (sector.low - spread - angle).rem_euclid(TAU);
        let widened = sector.high - sector.low + 2.0 * spread;
        start > ANGLE_MARGIN && start + widened < TAU - ANGLE_MARGIN
    }
}

impl Sector {
    /// The angles a shape with these `corners` (at the end of its `turn`, which has no
    /// translation) swept about its pivot; `reach` is its farthest point from the pivot.
    fn swept(corners: &[Vec2], turn: Turn, reach: f32) -> Option<Self> {
        if turn.translation != Vec2::ZERO {
            return None;
        }
        // The pivot itself does not move: corners on it count for nothing.
        let far = |corner: &&Vec2| corner.distance(turn.pivot) > ANGLE_MARGIN * (1.0 + reach);
        let reference = (*corners.iter().find(far)? - turn.pivot).normalize_or_zero();
        if reference == Vec2::ZERO {
            return None;
        }
        let (mut low, mut high) = (0.0f32, 0.0f32);
        for corner in corners.iter().filter(far) {
            let offset = *corner - turn.pivot;
            let angle = reference.perp_dot(offset).atan2(reference.dot(offset));
            low = low.min(angle);
            high = high.max(angle);
        }
        // Within a quarter turn, every point of the shape (within the hull of its corners)
        // lies between its corners' angles.
        if high - low >= PI / 2.0 {
            return None;
        }
        let (low, high) = if turn.angle >= 0.0 {
            (low - turn.angle, high)
        } else {
            (low, high - turn.angle)
        };
        Some(Self {
            reference,
            low: low - ANGLE_MARGIN,
            high: high + ANGLE_MARGIN,
        })
    }
}
