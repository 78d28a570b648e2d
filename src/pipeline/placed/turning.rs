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
/// from `low` counter-clockwise to `high`, both unit vectors. The collider's corners within
/// a hair of the pivot are left out of it (their direction says little), so the collider
/// reaches up to `near` beyond the wedge: that hair where it has such corners, zero where
/// it has none.
#[derive(Clone, Copy, Debug)]
struct Sector {
    low: Vec2,
    high: Vec2,
    near: f32,
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
        // grown by `near` when its centre lies outside the wedge and farther than its radius
        // and `near` from both rays, by a margin for rounding. (A point of the collider lies
        // between a point of the wedge and a corner within `near` of the pivot, so within
        // `near` of the wedge, all along the turn.)
        let offset = disc.center - turn.pivot;
        let margin = sector.near + ANGLE_MARGIN * (disc.radius + offset.abs().max_element());
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
        // Corners on the pivot, or a hair from it, have no direction to speak of: left out of
        // the wedge, and the wedge grown by as much.
        let hair = ANGLE_MARGIN * (1.0 + reach);
        let far = |corner: &&Vec2| corner.distance(turn.pivot) > hair;
        let reference = (*corners.iter().find(far)? - turn.pivot).normalize_or_zero();
        if reference == Vec2::ZERO {
            return None;
        }
        let (mut low, mut high) = (0.0f32, 0.0f32);
        let mut near = 0.0;
        for corner in corners {
            if !far(&corner) {
                near = hair;
                continue;
            }
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
            near,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Segment;
    use bevy::math::DVec2;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// The distance from `point` to the segment from `a` to `b` (apart), in `f64`.
    fn distance_to_segment(point: DVec2, a: DVec2, b: DVec2) -> f64 {
        let along = b - a;
        let t = ((point - a).dot(along) / along.length_squared()).clamp(0.0, 1.0);
        point.distance(a + along * t)
    }

    /// A segment that turned in place, one end within a hair of its pivot (where its angle
    /// says little) and the other far out, and a still circle, most often near the pivot.
    /// Whenever the circle is found outside the turn, the segment at each of 4,000 steps of its
    /// turn, worked out in `f64`, lies farther from the circle's centre than its radius.
    #[test]
    fn a_circle_found_outside_the_turn_is_never_met_by_it() {
        let entity = |index: u32| Entity::from_raw_u32(index).unwrap();
        let mut rng = StdRng::seed_from_u64(28);
        let mut found_outside = 0;
        for case in 0..20_000 {
            let pivot = Vec2::new(
                rng.random_range(-500.0..500.0),
                rng.random_range(-500.0..500.0),
            );
            let direction = |rng: &mut StdRng| Vec2::from_angle(rng.random_range(-PI..PI));
            let near = pivot + direction(&mut rng) * rng.random_range(0.0..0.2);
            let far = pivot + direction(&mut rng) * rng.random_range(10.0..1000.0);
            let angle = rng.random_range(-0.5..0.5);
            let radius = rng.random_range(0.1..3.0);
            let reach = if case % 2 == 0 { radius + 0.5 } else { 1000.0 };
            let center = pivot + direction(&mut rng) * rng.random_range(0.0..reach);
            let mut placed = PlacedColliders::default();
            let (mut still, _) = placed.circle_slots(1, 0);
            still.write(0, &[entity(1)], None, &[Circle::new(center, radius)]);
            let segment = Segment::new(near, far);
            let bounds = Circle::new((near + far) / 2.0, near.distance(far) / 2.0);
            let turn = Turn {
                translation: Vec2::ZERO,
                angle,
                pivot,
            };
            placed.push_turning(entity(2), None, bounds, WorldShape::Segment(segment), turn);
            if !placed.outside_turn(1, 0) {
                continue;
            }
            found_outside += 1;
            let (pivot, center) = (pivot.as_dvec2(), center.as_dvec2());
            for step in 0..=4000 {
                // At the end of the turn the segment is where it was placed.
                let back = DVec2::from_angle(-f64::from(angle) * (1.0 - f64::from(step) / 4000.0));
                let [a, b] = [near, far].map(|end| pivot + back.rotate(end.as_dvec2() - pivot));
                let distance = distance_to_segment(center, a, b);
                assert!(
                    distance > f64::from(radius),
                    "case {case}: found outside, but at step {step} the segment is {distance} \
                     from the centre of a circle of radius {radius} (pivot {pivot}, ends \
                     {near} and {far}, turn {angle})"
                );
            }
        }
        assert!(found_outside > 5_000, "{found_outside} found outside");
    }
}
