//! The colliders that turned this run: how each moved, and the wedge of directions it swept, for
//! a quick answer to "can it meet this still circle at all".

use super::{PlacedColliders, WorldShape, conservative};
use crate::geometry::sweep::Turn;
use crate::geometry::{Circle, Shape};
use crate::layers::CollisionLayers;
use bevy::prelude::*;
use core::f32::consts::PI;

/// A swept segment or polygon that turned this run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turning {
    /// Its place in [`PlacedColliders`].
    collider: u32,
    turn: Turn,
    /// The wedge it swept about its pivot, when it only turned (no translation) and its
    /// corners lie within a quarter turn of each other as seen from the pivot.
    sector: Option<Sector>,
}

/// The wedge of directions a turning collider swept about its pivot, narrower than half a turn:
/// from `low` counter-clockwise to `high`, both unit vectors.
#[derive(Clone, Copy, Debug)]
struct Sector {
    low: Vec2,
    high: Vec2,
}

/// Angles closer than this (radians) count as touching: well above `f32` rounding of angles
/// of points a few ulps apart.
const ANGLE_MARGIN: f32 = 1e-4;

impl PlacedColliders {
    /// Appends a collider that turned as it moved (see [`PlacedColliders::push`]): its bounding
    /// circle holds it all along its turn and path.
    pub(crate) fn push_turning(
        &mut self,
        entity: Entity,
        layers: Option<&CollisionLayers>,
        bounds: Circle,
        shape: WorldShape,
        turn: Turn,
    ) {
        // Turning about the pivot, no point leaves the circle round the pivot through the
        // farthest point of the bounding circle.
        let reach = turn.pivot.distance(bounds.center) + bounds.radius;
        let bounds = Circle::new(turn.pivot, conservative(turn.pivot, reach));
        let collider = self.entities.len() as u32;
        self.push(entity, layers, bounds, shape, turn.translation);
        let sector = match self.shape(collider as usize) {
            Shape::Segment(segment) => Sector::swept(&[segment.a, segment.b], turn, reach),
            Shape::Polygon(vertices) => Sector::swept(vertices, turn, reach),
            Shape::Circle(_) => None,
        };
        self.turning.push(Turning {
            collider,
            turn,
            sector,
        });
    }

    /// Whether any collider turned this run.
    #[inline]
    pub(crate) fn any_turning(&self) -> bool {
        !self.turning.is_empty()
    }

    /// How collider `index` turned as it moved, if it did.
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
            .binary_search_by_key(&(index as u32), |turning| turning.collider)
            .ok()?;
        Some(&self.turning[at])
    }

    /// Whether the still circle `circle` lies clear of the wedge that collider `turning`, which
    /// only turned, swept about its pivot: then they never met, and do not
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
        // The circle misses the wedge (taken as two rays from the pivot and what lies between)
        // when its centre lies outside it and farther than its radius from both rays, by a
        // margin for rounding.
        let offset = disc.center - turn.pivot;
        let margin = ANGLE_MARGIN * (disc.radius + offset.abs().max_element());
        let clear_of = |ray: Vec2| {
            let across = if ray.dot(offset) > 0.0 {
                ray.perp_dot(offset).abs()
            } else {
                offset.length()
            };
            across > disc.radius + margin
        };
        let inside = sector.low.perp_dot(offset) >= 0.0 && offset.perp_dot(sector.high) >= 0.0;
        !inside && clear_of(sector.low) && clear_of(sector.high)
    }
}

impl Sector {
    /// The wedge a shape with these `corners` (at the end of its `turn`, which has no
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
        let (low, high) = (low - ANGLE_MARGIN, high + ANGLE_MARGIN);
        // The wedge test holds for wedges narrower than half a turn.
        if high - low >= PI {
            return None;
        }
        Some(Self {
            low: reference.rotate(Vec2::from_angle(low)),
            high: reference.rotate(Vec2::from_angle(high)),
        })
    }
}
