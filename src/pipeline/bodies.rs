//! [`Bodies`]: every collider placed in the world this frame, as flat arrays. The prepare
//! stage writes them; the broad and narrow phases read them.

use crate::geometry::{Disc, Segment, Shape};
use crate::layers::CollisionLayers;
use bevy::prelude::*;

/// A collider placed in the world this frame.
#[derive(Clone, Copy, Debug)]
pub(crate) enum WorldShape {
    Circle(Disc),
    Segment(Segment),
    /// `Bodies::vertices[start..start + len]`.
    Polygon {
        start: u32,
        len: u32,
    },
}

/// The colliders of this frame, as parallel arrays indexed by body: entity, layers, bounding
/// circle and world shape. Rebuilt every frame, reusing its allocations.
#[derive(Resource, Default)]
pub(crate) struct Bodies {
    pub entities: Vec<Entity>,
    pub layers: Vec<CollisionLayers>,
    /// Bounding circles' centres.
    pub centers: Vec<Vec2>,
    /// Bounding circles' radii.
    pub radii: Vec<f32>,
    pub shapes: Vec<WorldShape>,
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
        self.vertices.clear();
    }

    pub fn reserve(&mut self, additional: usize) {
        self.entities.reserve(additional);
        self.layers.reserve(additional);
        self.centers.reserve(additional);
        self.radii.reserve(additional);
        self.shapes.reserve(additional);
    }

    pub fn push(
        &mut self,
        entity: Entity,
        layers: Option<&CollisionLayers>,
        bounds: (Vec2, f32),
        shape: WorldShape,
    ) {
        self.entities.push(entity);
        self.layers.push(layers.copied().unwrap_or_default());
        self.centers.push(bounds.0);
        self.radii.push(bounds.1);
        self.shapes.push(shape);
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
        BodySlots {
            entities: &mut self.entities[start..],
            layers: &mut self.layers[start..],
            centers: &mut self.centers[start..],
            radii: &mut self.radii[start..],
            shapes: &mut self.shapes[start..],
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
                kept += 1;
            }
        }
        self.entities.truncate(kept);
        self.layers.truncate(kept);
        self.centers.truncate(kept);
        self.radii.truncate(kept);
        self.shapes.truncate(kept);
    }

    /// Body `index`'s world shape, for the geometry core.
    pub fn shape(&self, index: usize) -> Shape<'_> {
        match self.shapes[index] {
            WorldShape::Circle(circle) => Shape::Circle(circle),
            WorldShape::Segment(segment) => Shape::Segment(segment),
            WorldShape::Polygon { start, len } => {
                Shape::Polygon(&self.vertices[start as usize..(start + len) as usize])
            }
        }
    }
}

/// Consecutive bodies' entries in each of [`Bodies`]' arrays, to be written in place.
pub(crate) struct BodySlots<'a> {
    entities: &'a mut [Entity],
    layers: &'a mut [CollisionLayers],
    centers: &'a mut [Vec2],
    radii: &'a mut [f32],
    shapes: &'a mut [WorldShape],
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
        (
            Self {
                entities,
                layers,
                centers,
                radii,
                shapes,
            },
            Self {
                entities: entities_rest,
                layers: layers_rest,
                centers: centers_rest,
                radii: radii_rest,
                shapes: shapes_rest,
            },
        )
    }

    pub fn set(
        &mut self,
        index: usize,
        entity: Entity,
        layers: Option<&CollisionLayers>,
        circle: Disc,
    ) {
        self.entities[index] = entity;
        self.layers[index] = layers.copied().unwrap_or_default();
        self.centers[index] = circle.center;
        self.radii[index] = circle.radius;
        self.shapes[index] = WorldShape::Circle(circle);
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
        );
        let mut slots = bodies.grow(4);
        // Slots 0 and 2 are filled; 1 and 3 stay placeholders (as skipped circles would).
        slots.set(0, entity(2), None, disc(2.0));
        slots.set(2, entity(3), None, disc(3.0));
        bodies.drop_placeholders(1);
        assert_eq!(bodies.entities, [entity(1), entity(2), entity(3)]);
        assert_eq!(
            bodies.centers,
            [Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(3.0, 0.0)]
        );
        assert_eq!(bodies.radii.len(), 3);
        assert_eq!(bodies.layers.len(), 3);
        assert_eq!(bodies.shapes.len(), 3);
        assert!(matches!(bodies.shape(2), Shape::Circle(circle) if circle == disc(3.0)));
    }

    #[test]
    fn a_placeholder_is_on_no_layer() {
        let mut bodies = Bodies::default();
        bodies.grow(1);
        assert_eq!(bodies.entities[0], Entity::PLACEHOLDER);
        assert!(!bodies.layers[0].interacts_with(&CollisionLayers::ALL));
    }
}
