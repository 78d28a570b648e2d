//! [`Bodies`]: every collider placed in the world this frame, as flat arrays. The prepare
//! stage writes them; the broad and narrow phases read them.

use crate::geometry::{Disc, Segment, Shape};
use crate::layers::CollisionLayers;
use bevy::prelude::*;

/// A collider placed in the world this frame.
#[derive(Clone, Copy, Debug)]
pub enum WorldShape {
    Circle(Disc),
    Segment(Segment),
    /// `Bodies::vertices[start..start + len]`.
    Polygon {
        start: u32,
        len: u32,
    },
}

/// The colliders of this frame, as parallel arrays indexed by body: entity, layers, bounding
/// circle, world shape and motion. Rebuilt every frame, reusing its allocations.
#[derive(Resource, Default)]
pub struct Bodies {
    pub entities: Vec<Entity>,
    pub layers: Vec<CollisionLayers>,
    /// Bounding circles' centres.
    pub centers: Vec<Vec2>,
    /// Bounding circles' radii.
    pub radii: Vec<f32>,
    /// Where each body is now.
    pub shapes: Vec<WorldShape>,
    /// How far each body moved along its swept path, to where it is now; zero for a body that
    /// is not swept (or did not move). The bounding circle covers the whole path.
    pub motions: Vec<Vec2>,
    /// World vertices of every polygon, back to back.
    pub vertices: Vec<Vec2>,
}

impl Bodies {
    pub fn clear(&mut self) {
        self.entities.clear();
        self.layers.clear();
        self.centers.clear();
        self.radii.clear();
        self.shapes.clear();
        self.motions.clear();
        self.vertices.clear();
    }

    pub fn reserve(&mut self, additional: usize) {
        self.entities.reserve(additional);
        self.layers.reserve(additional);
        self.centers.reserve(additional);
        self.radii.reserve(additional);
        self.shapes.reserve(additional);
        self.motions.reserve(additional);
    }

    pub fn push(
        &mut self,
        entity: Entity,
        layers: Option<&CollisionLayers>,
        bounds: (Vec2, f32),
        shape: WorldShape,
        motion: Vec2,
    ) {
        let (center, radius) = swept_bounds(bounds, motion);
        self.entities.push(entity);
        self.layers.push(layers.copied().unwrap_or_default());
        self.centers.push(center);
        self.radii.push(radius);
        self.shapes.push(shape);
        self.motions.push(motion);
    }

    /// Appends `additional` placeholder bodies and returns their slots, to be filled in place
    /// (in parallel, piece by piece). A placeholder is on no layer, so even one left in place
    /// would meet nothing; [`Bodies::drop_placeholders`] removes those left unfilled.
    pub fn grow(&mut self, additional: usize) -> BodySlots<'_> {
        let start = self.entities.len();
        let end = start + additional;
        self.entities.resize(end, Entity::PLACEHOLDER);
        self.layers.resize(end, CollisionLayers::NONE);
        self.centers.resize(end, Vec2::ZERO);
        self.radii.resize(end, 0.0);
        self.shapes
            .resize(end, WorldShape::Circle(Disc::new(Vec2::ZERO, 0.0)));
        self.motions.resize(end, Vec2::ZERO);
        BodySlots {
            entities: &mut self.entities[start..],
            layers: &mut self.layers[start..],
            centers: &mut self.centers[start..],
            radii: &mut self.radii[start..],
            shapes: &mut self.shapes[start..],
            motions: &mut self.motions[start..],
        }
    }

    /// Removes the bodies from `start` on that are still placeholders, keeping the order.
    pub fn drop_placeholders(&mut self, start: usize) {
        let mut kept = start;
        for index in start..self.entities.len() {
            if self.entities[index] != Entity::PLACEHOLDER {
                self.entities[kept] = self.entities[index];
                self.layers[kept] = self.layers[index];
                self.centers[kept] = self.centers[index];
                self.radii[kept] = self.radii[index];
                self.shapes[kept] = self.shapes[index];
                self.motions[kept] = self.motions[index];
                kept += 1;
            }
        }
        self.entities.truncate(kept);
        self.layers.truncate(kept);
        self.centers.truncate(kept);
        self.radii.truncate(kept);
        self.shapes.truncate(kept);
        self.motions.truncate(kept);
    }

    /// Body `index`'s world shape where it is now, for the geometry core.
    pub fn shape(&self, index: usize) -> Shape<'_> {
        match self.shapes[index] {
            WorldShape::Circle(circle) => Shape::Circle(circle),
            WorldShape::Segment(segment) => Shape::Segment(segment),
            WorldShape::Polygon { start, len } => {
                Shape::Polygon(&self.vertices[start as usize..(start + len) as usize])
            }
        }
    }

    /// Body `index`'s world shape at the start of its swept path: where it is now, shifted
    /// back by its motion. A moved polygon's vertices are written to `scratch`.
    pub fn start_shape<'a>(&'a self, index: usize, scratch: &'a mut Vec<Vec2>) -> Shape<'a> {
        let back = -self.motions[index];
        match self.shape(index) {
            _ if back == Vec2::ZERO => self.shape(index),
            Shape::Circle(disc) => Shape::Circle(Disc::new(disc.center + back, disc.radius)),
            Shape::Segment(segment) => {
                Shape::Segment(Segment::new(segment.a + back, segment.b + back))
            }
            Shape::Polygon(vertices) => {
                scratch.clear();
                scratch.extend(vertices.iter().map(|&vertex| vertex + back));
                Shape::Polygon(scratch)
            }
        }
    }
}

/// The bounding circle of a body's whole path: the circle `bounds` around where it is now,
/// grown to cover where it was `motion` ago too (the swept shape lies within the capsule
/// between the two circles, which this circle holds).
fn swept_bounds((center, radius): (Vec2, f32), motion: Vec2) -> (Vec2, f32) {
    if motion == Vec2::ZERO {
        return (center, radius);
    }
    let half = 0.5 * motion;
    let middle = center - half;
    (middle, conservative(middle, radius + half.length()))
}

/// A bounding radius grown by a few units in the last place of the coordinates involved, so
/// that rounding in the world transform (or along a swept path) never leaves a point of the
/// shape outside its bounding circle. (A circle's bound is the circle itself and needs no
/// margin.)
#[inline]
pub(crate) fn conservative(center: Vec2, radius: f32) -> f32 {
    radius + 8.0 * f32::EPSILON * (radius + center.abs().max_element())
}

/// Consecutive bodies' entries in each of [`Bodies`]' arrays, to be written in place.
pub struct BodySlots<'a> {
    entities: &'a mut [Entity],
    layers: &'a mut [CollisionLayers],
    centers: &'a mut [Vec2],
    radii: &'a mut [f32],
    shapes: &'a mut [WorldShape],
    motions: &'a mut [Vec2],
}

impl<'a> BodySlots<'a> {
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Splits off the first `at` slots.
    pub fn split_at(self, at: usize) -> (Self, Self) {
        let (entities, entities_rest) = self.entities.split_at_mut(at);
        let (layers, layers_rest) = self.layers.split_at_mut(at);
        let (centers, centers_rest) = self.centers.split_at_mut(at);
        let (radii, radii_rest) = self.radii.split_at_mut(at);
        let (shapes, shapes_rest) = self.shapes.split_at_mut(at);
        let (motions, motions_rest) = self.motions.split_at_mut(at);
        (
            Self {
                entities,
                layers,
                centers,
                radii,
                shapes,
                motions,
            },
            Self {
                entities: entities_rest,
                layers: layers_rest,
                centers: centers_rest,
                radii: radii_rest,
                shapes: shapes_rest,
                motions: motions_rest,
            },
        )
    }

    pub fn set(
        &mut self,
        index: usize,
        entity: Entity,
        layers: Option<&CollisionLayers>,
        circle: Disc,
        motion: Vec2,
    ) {
        let (center, radius) = swept_bounds((circle.center, circle.radius), motion);
        self.entities[index] = entity;
        self.layers[index] = layers.copied().unwrap_or_default();
        self.centers[index] = center;
        self.radii[index] = radius;
        self.shapes[index] = WorldShape::Circle(circle);
        self.motions[index] = motion;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disc(x: f32) -> Disc {
        Disc::new(Vec2::new(x, 0.0), 1.0)
    }

    #[test]
    fn unfilled_slots_are_dropped_and_the_order_kept() {
        let mut bodies = Bodies::default();
        let entity = |index: u32| Entity::from_raw_u32(index).unwrap();
        bodies.push(
            entity(1),
            None,
            (Vec2::ZERO, 1.0),
            WorldShape::Circle(disc(0.0)),
            Vec2::ZERO,
        );
        let mut slots = bodies.grow(4);
        // Slots 0 and 2 are filled; 1 and 3 stay placeholders (as skipped circles would).
        slots.set(0, entity(2), None, disc(2.0), Vec2::ZERO);
        slots.set(2, entity(3), None, disc(3.0), Vec2::Y);
        bodies.drop_placeholders(1);
        assert_eq!(bodies.entities, [entity(1), entity(2), entity(3)]);
        // The third moved by one unit up: its bound is centred halfway along its path.
        assert_eq!(
            bodies.centers,
            [Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(3.0, -0.5)]
        );
        assert_eq!(bodies.radii.len(), 3);
        assert_eq!(bodies.layers.len(), 3);
        assert_eq!(bodies.shapes.len(), 3);
        assert_eq!(bodies.motions, [Vec2::ZERO, Vec2::ZERO, Vec2::Y]);
        assert!(matches!(bodies.shape(2), Shape::Circle(circle) if circle == disc(3.0)));
    }

    #[test]
    fn a_placeholder_is_on_no_layer() {
        let mut bodies = Bodies::default();
        bodies.grow(1);
        assert_eq!(bodies.entities[0], Entity::PLACEHOLDER);
        assert!(!bodies.layers[0].interacts_with(&CollisionLayers::ALL));
    }

    #[test]
    fn a_swept_bound_holds_both_ends_of_the_path() {
        let motion = Vec2::new(30.0, -40.0);
        let (center, radius) = swept_bounds((Vec2::new(100.0, 100.0), 3.0), motion);
        for end in [Vec2::new(100.0, 100.0), Vec2::new(70.0, 140.0)] {
            assert!(center.distance(end) + 3.0 <= radius);
        }
        assert!(radius < 3.0 + 25.0 + 1e-3);
        assert_eq!(swept_bounds((Vec2::ONE, 2.0), Vec2::ZERO), (Vec2::ONE, 2.0));
    }

    #[test]
    fn the_start_shape_is_shifted_back_by_the_motion() {
        let mut bodies = Bodies::default();
        bodies.vertices.extend([Vec2::ZERO, Vec2::X, Vec2::Y]);
        let polygon = WorldShape::Polygon { start: 0, len: 3 };
        let entity = Entity::from_raw_u32(1).unwrap();
        bodies.push(
            entity,
            None,
            (Vec2::ZERO, 1.0),
            polygon,
            Vec2::new(2.0, 0.0),
        );
        let mut scratch = Vec::new();
        let Shape::Polygon(start) = bodies.start_shape(0, &mut scratch) else {
            panic!("a polygon");
        };
        assert_eq!(
            start,
            [
                Vec2::new(-2.0, 0.0),
                Vec2::new(-1.0, 0.0),
                Vec2::new(-2.0, 1.0)
            ]
        );
    }

    #[test]
    fn a_conservative_radius_is_never_smaller() {
        for (center, radius) in [(Vec2::ZERO, 0.0), (Vec2::splat(1e6), 3.0), (Vec2::ONE, 1e9)] {
            assert!(conservative(center, radius) >= radius);
        }
        assert!(conservative(Vec2::splat(1e6), 3.0) > 3.0);
    }
}
