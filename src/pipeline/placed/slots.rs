//! The circles' slots in [`PlacedColliders`]: the prepare stage writes the circles in place, a
//! block at a time, each piece of a split into slots of its own.

use super::{Path, PlacedColliders, WorldShape, swept_bounds};
use crate::geometry::Circle;
use crate::layers::CollisionLayers;
use bevy::prelude::*;
use core::ops::Range;

impl PlacedColliders {
    /// Starts this frame's colliders with room for `still` still circles, then `swept` swept ones,
    /// and returns their slots to be written in place. Slots left as they are keep last frame's
    /// colliders: fill every one, or mark it a placeholder and call
    /// [`PlacedColliders::drop_placeholders`]. The arrays keep their length from a frame with as
    /// many circles: nothing is filled for them then.
    pub fn circle_slots(
        &mut self,
        still: usize,
        swept: usize,
    ) -> (CircleSlots<'_>, SweptSlots<'_>) {
        let count = still + swept;
        self.still = still;
        self.entities.resize(count, Entity::PLACEHOLDER);
        self.layers.resize(count, CollisionLayers::NONE);
        self.centers.resize(count, Vec2::ZERO);
        self.radii.resize(count, 0.0);
        self.paths.resize(swept, NOTHING);
        self.turning.clear();
        self.vertices.clear();
        self.edge_lines.clear();
        let circles = CircleSlots {
            entities: &mut self.entities,
            layers: &mut self.layers,
            centers: &mut self.centers,
            radii: &mut self.radii,
        };
        let (still_slots, swept_circles) = circles.split_at(still);
        let swept_slots = SweptSlots {
            circles: swept_circles,
            paths: &mut self.paths,
        };
        (still_slots, swept_slots)
    }

    /// Removes the circles marked as placeholders (see [`CircleSlots::skip`] and
    /// [`SweptSlots::skip`]), keeping the order.
    pub fn drop_placeholders(&mut self) {
        let (mut kept, mut kept_still) = (0, 0);
        for index in 0..self.entities.len() {
            if self.entities[index] == Entity::PLACEHOLDER {
                continue;
            }
            self.entities[kept] = self.entities[index];
            self.layers[kept] = self.layers[index];
            self.centers[kept] = self.centers[index];
            self.radii[kept] = self.radii[index];
            match index.checked_sub(self.still) {
                // Every still circle is behind: the kept ones are all counted.
                Some(slot) => {
                    self.paths[kept - kept_still] = self.paths[slot];
                }
                None => kept_still += 1,
            }
            kept += 1;
        }
        self.still = kept_still;
        self.entities.truncate(kept);
        self.layers.truncate(kept);
        self.centers.truncate(kept);
        self.radii.truncate(kept);
        self.paths.truncate(kept - kept_still);
    }
}

/// The path of a slot not yet written, or of a placeholder: a point at the origin, not moving.
const NOTHING: Path = Path {
    shape: WorldShape::Circle(Circle {
        center: Vec2::ZERO,
        radius: 0.0,
    }),
    motion: Vec2::ZERO,
};

/// Circles' entries in [`PlacedColliders`]' arrays, to be written in place: the still circles'
/// slots, and the columns that the swept ones share with them (see [`SweptSlots`]).
pub struct CircleSlots<'a> {
    entities: &'a mut [Entity],
    layers: &'a mut [CollisionLayers],
    centers: &'a mut [Vec2],
    radii: &'a mut [f32],
}

impl CircleSlots<'_> {
    /// Splits off the first `at` slots.
    pub fn split_at(self, at: usize) -> (Self, Self) {
        let (entities, entities_rest) = self.entities.split_at_mut(at);
        let (layers, layers_rest) = self.layers.split_at_mut(at);
        let (centers, centers_rest) = self.centers.split_at_mut(at);
        let (radii, radii_rest) = self.radii.split_at_mut(at);
        (
            Self {
                entities,
                layers,
                centers,
                radii,
            },
            Self {
                entities: entities_rest,
                layers: layers_rest,
                centers: centers_rest,
                radii: radii_rest,
            },
        )
    }

    /// Writes circles into the slots from `first` on: entity `entities[i]`, on `layers[i]` (the
    /// default layers without them), is the disc `discs[i]`. One pass per array.
    pub fn write(
        &mut self,
        first: usize,
        entities: &[Entity],
        layers: Option<&[CollisionLayers]>,
        discs: &[Circle],
    ) {
        self.write_entities(first, entities, layers);
        let (centers, radii) = self.bounds_mut(first..first + discs.len());
        // A disc is its own bounding circle, and all there is to know of it.
        for ((center, radius), disc) in centers.iter_mut().zip(radii).zip(discs) {
            (*center, *radius) = (disc.center, disc.radius);
        }
    }

    /// The bounding circles of `slots`: a still circle's disc is its own bounding circle, and a
    /// swept circle's disc is written here before its bound is grown over its path. Fill the
    /// slots' entities too ([`write_entities`]), or skip them.
    ///
    /// [`write_entities`]: Self::write_entities
    pub fn bounds_mut(&mut self, slots: Range<usize>) -> (&mut [Vec2], &mut [f32]) {
        (&mut self.centers[slots.clone()], &mut self.radii[slots])
    }

    /// Writes the entities of circles into the slots from `first` on: entity `entities[i]`, on
    /// `layers[i]` (the default layers without them). One pass per array.
    pub fn write_entities(
        &mut self,
        first: usize,
        entities: &[Entity],
        layers: Option<&[CollisionLayers]>,
    ) {
        let slots = first..first + entities.len();
        self.entities[slots.clone()].copy_from_slice(entities);
        match layers {
            Some(layers) => self.layers[slots].copy_from_slice(layers),
            None => self.layers[slots].fill(CollisionLayers::default()),
        }
    }

    /// Marks slot `index` a placeholder: on no layer, so that it would meet nothing even if it
    /// stayed, and dropped by [`PlacedColliders::drop_placeholders`].
    pub fn skip(&mut self, index: usize) {
        self.entities[index] = Entity::PLACEHOLDER;
        self.layers[index] = CollisionLayers::NONE;
        self.centers[index] = Vec2::ZERO;
        self.radii[index] = 0.0;
    }
}

/// The swept circles' entries in [`PlacedColliders`]' arrays, after the still circles', to be
/// written in place: the columns of every circle, and their paths.
pub struct SweptSlots<'a> {
    circles: CircleSlots<'a>,
    paths: &'a mut [Path],
}

impl SweptSlots<'_> {
    /// The most slots that [`finish_block`](Self::finish_block) finishes at once.
    pub const MAX_BLOCK: usize = 256;

    /// Splits off the first `at` slots.
    pub fn split_at(self, at: usize) -> (Self, Self) {
        let (circles, circles_rest) = self.circles.split_at(at);
        let (paths, paths_rest) = self.paths.split_at_mut(at);
        (
            Self { circles, paths },
            Self {
                circles: circles_rest,
                paths: paths_rest,
            },
        )
    }

    /// Where to write the discs of `slots` where the circles are now: then
    /// [`finish_block`](Self::finish_block).
    pub fn discs_mut(&mut self, slots: Range<usize>) -> (&mut [Vec2], &mut [f32]) {
        self.circles.bounds_mut(slots)
    }

    /// Finishes the slots from `first` on, whose discs were written (see
    /// [`discs_mut`](Self::discs_mut)), as [`PlacedColliders::push`] would place each: entity
    /// `entities[i]`, on `layers[i]` (the default layers without them), is its disc, moved by
    /// the `i`th of `motions`, and its bounding circle is grown to cover its whole path. The
    /// motions are taken as the paths are written, in one pass; then the bounds are grown in
    /// a loop that the compiler vectorises, and the entities and layers copied. At most
    /// [`MAX_BLOCK`](Self::MAX_BLOCK) slots.
    pub fn finish_block(
        &mut self,
        first: usize,
        entities: &[Entity],
        layers: Option<&[CollisionLayers]>,
        motions: impl IntoIterator<Item = Vec2>,
    ) {
        assert!(
            entities.len() <= Self::MAX_BLOCK,
            "at most MAX_BLOCK slots at once"
        );
        let slots = first..first + entities.len();
        let mut moved = [Vec2::ZERO; Self::MAX_BLOCK];
        let moved = &mut moved[..entities.len()];
        let paths = self.paths[slots.clone()].iter_mut().zip(moved.iter_mut());
        let (centers, radii) = self.circles.bounds_mut(slots);
        let discs = centers.iter().zip(radii.iter());
        let mut written = 0;
        for (((path, moved), motion), (&center, &radius)) in paths.zip(motions).zip(discs) {
            *moved = motion;
            *path = Path {
                shape: WorldShape::Circle(Circle::new(center, radius)),
                motion,
            };
            written += 1;
        }
        // A slot left without its motion would keep last frame's bound: a wrong answer, not a
        // panic, so this is checked in release builds too (once a block).
        assert_eq!(written, entities.len(), "a motion for every slot");
        let bounds = centers.iter_mut().zip(radii.iter_mut());
        for ((center, radius), &motion) in bounds.zip(moved.iter()) {
            let bounds = swept_bounds(Circle::new(*center, *radius), motion);
            (*center, *radius) = (bounds.center, bounds.radius);
        }
        self.circles.write_entities(first, entities, layers);
    }

    /// Writes one circle into slot `index`, as [`PlacedColliders::push`] would place it.
    pub fn write(
        &mut self,
        index: usize,
        entity: Entity,
        layers: Option<&CollisionLayers>,
        disc: Circle,
        motion: Vec2,
    ) {
        let bounds = swept_bounds(disc, motion);
        self.circles
            .write_entities(index, &[entity], layers.map(core::slice::from_ref));
        let (center, radius) = self.circles.bounds_mut(index..index + 1);
        (center[0], radius[0]) = (bounds.center, bounds.radius);
        self.paths[index] = Path {
            shape: WorldShape::Circle(disc),
            motion,
        };
    }

    /// Marks slot `index` a placeholder, dropped by [`PlacedColliders::drop_placeholders`]: on no
    /// layer and a point, not moving, so that it would meet nothing even if it stayed.
    pub fn skip(&mut self, index: usize) {
        self.circles.skip(index);
        self.paths[index] = NOTHING;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Shape, polygon_size};
    use crate::pipeline::placed::NO_LINES;

    /// A circle of radius 1 on the x axis, at `x`.
    fn circle_at(x: f32) -> Circle {
        Circle::new(Vec2::new(x, 0.0), 1.0)
    }

    #[test]
    fn still_circles_come_first_and_placeholders_are_dropped_in_order() {
        let entity = |index: u32| Entity::from_raw_u32(index).unwrap();
        let mut placed = PlacedColliders::default();
        let (slots, _) = placed.circle_slots(4, 0);
        let layers = [CollisionLayers::NONE, CollisionLayers::ALL];
        let (mut first, mut second) = slots.split_at(2);
        first.write(
            0,
            &[entity(1), entity(2)],
            Some(&layers),
            &[circle_at(1.0), circle_at(2.0)],
        );
        second.write(1, &[entity(4)], None, &[circle_at(4.0)]);
        // The third slot's circle was left out.
        second.skip(0);
        placed.drop_placeholders();
        placed.push(
            entity(9),
            None,
            Circle::new(Vec2::ZERO, 1.0),
            WorldShape::Circle(circle_at(0.0)),
            Vec2::Y,
        );
        assert_eq!(placed.entities, [1, 2, 4, 9].map(entity));
        assert_eq!(
            placed.layers,
            [
                CollisionLayers::NONE,
                CollisionLayers::ALL,
                CollisionLayers::default(),
                CollisionLayers::default()
            ]
        );
        assert_eq!(
            placed.centers[..3],
            [1.0, 2.0, 4.0].map(|x| Vec2::new(x, 0.0))
        );
        assert!(matches!(placed.shape(2), Shape::Circle(circle) if circle == circle_at(4.0)));
        assert!(matches!(placed.shape(3), Shape::Circle(circle) if circle == circle_at(0.0)));
        assert_eq!(placed.motion(2), Vec2::ZERO);
        assert_eq!(placed.motion(3), Vec2::Y);
        // A new frame keeps the arrays' room, not their colliders.
        let (mut slots, _) = placed.circle_slots(1, 0);
        slots.write(0, &[entity(5)], None, &[circle_at(5.0)]);
        assert_eq!(placed.entities, [entity(5)]);
        assert_eq!(placed.paths.len(), 0);
    }

    #[test]
    fn swept_slots_hold_what_push_places() {
        let entity = |index: u32| Entity::from_raw_u32(index).unwrap();
        let entities = [3, 1, 4, 7, 6].map(entity);
        let centers = [
            Vec2::new(1.0, 2.0),
            Vec2::new(-5.0, 0.5),
            Vec2::new(1e6, -3.0),
            Vec2::new(0.0, 9.0),
            Vec2::new(-7.0, -7.0),
        ];
        let radii = [4.0, 0.0, 2.5, 1.0, 3.0];
        let motions = [
            Vec2::ZERO,
            Vec2::new(6.0, -8.0),
            Vec2::new(-0.25, 1e3),
            Vec2::new(3.0, 0.0),
            Vec2::new(0.0, -2.0),
        ];
        let layer_values = [
            CollisionLayers::NONE,
            CollisionLayers::ALL,
            CollisionLayers::NONE,
            CollisionLayers::ALL,
            CollisionLayers::NONE,
        ];
        let still = [Circle::new(Vec2::NEG_ONE, 2.0), Circle::new(Vec2::ONE, 0.5)];
        let still_entities = [entity(8), entity(10)];
        let push_triangle = |placed: &mut PlacedColliders| {
            let start = placed.vertices.len() as u32;
            placed.vertices.extend([Vec2::ZERO, Vec2::X, Vec2::Y]);
            let shape = WorldShape::Polygon {
                start,
                len: 3,
                inner_radius: 0.0,
                size: polygon_size(&[Vec2::ZERO, Vec2::X, Vec2::Y]),
                lines: NO_LINES,
                concave: false,
            };
            placed.push(
                entity(9),
                None,
                Circle::new(Vec2::splat(0.5), 1.0),
                shape,
                Vec2::X,
            );
        };
        // What writing the first `stills` still circles and then pushing the swept circles
        // `kept`, one by one, places.
        let pushed = |stills: usize, kept: &[usize], layers: Option<&[CollisionLayers]>| {
            let mut pushed = PlacedColliders::default();
            let (mut slots, _) = pushed.circle_slots(stills, 0);
            slots.write(0, &still_entities[..stills], None, &still[..stills]);
            for &i in kept {
                let disc = Circle::new(centers[i], radii[i]);
                let layers = layers.map(|layers| &layers[i]);
                let shape = WorldShape::Circle(disc);
                pushed.push(entities[i], layers, disc, shape, motions[i]);
            }
            pushed
        };
        for layers in [None, Some(&layer_values[..])] {
            // Two still circles (the second left out) and four swept ones: the first two
            // written as a block, the third left out, the fourth one by one. Then a polygon
            // pushed after them.
            let mut slotted = PlacedColliders::default();
            let (mut still_slots, swept_slots) = slotted.circle_slots(2, 4);
            still_slots.write(0, &still_entities[..1], None, &still[..1]);
            still_slots.skip(1);
            let (mut block, mut rest) = swept_slots.split_at(2);
            let (block_centers, block_radii) = block.discs_mut(0..2);
            block_centers.copy_from_slice(&centers[..2]);
            block_radii.copy_from_slice(&radii[..2]);
            let block_layers = layers.map(|layers| &layers[..2]);
            block.finish_block(
                0,
                &entities[..2],
                block_layers,
                motions[..2].iter().copied(),
            );
            rest.skip(0);
            let fourth = Circle::new(centers[3], radii[3]);
            rest.write(
                1,
                entities[3],
                layers.map(|layers| &layers[3]),
                fourth,
                motions[3],
            );
            slotted.drop_placeholders();
            push_triangle(&mut slotted);
            let mut expected = pushed(1, &[0, 1, 3], layers);
            push_triangle(&mut expected);
            assert_eq!(slotted.entities.len(), 5);
            slotted.assert_same_as(&expected);
            // The next frame, in the same arrays: more still circles, where last frame's swept
            // ones were, and three swept ones in one block, where last frame's polygon was.
            let (mut still_slots, mut swept_slots) = slotted.circle_slots(2, 3);
            still_slots.write(0, &still_entities, None, &still);
            let (block_centers, block_radii) = swept_slots.discs_mut(0..3);
            block_centers.copy_from_slice(&centers[2..]);
            block_radii.copy_from_slice(&radii[2..]);
            let block_layers = layers.map(|layers| &layers[2..]);
            let block_motions = motions[2..].iter().copied();
            swept_slots.finish_block(0, &entities[2..], block_layers, block_motions);
            slotted.assert_same_as(&pushed(2, &[2, 3, 4], layers));
            assert!(slotted.vertices.is_empty());
        }
    }
}
