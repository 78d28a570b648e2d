//! [`Bodies`]: every collider placed in the world this frame, as flat arrays. The prepare
//! stage writes them; the broad and narrow phases read them.

use crate::geometry::{Disc, Segment, Shape};
use crate::layers::CollisionLayers;
use bevy::prelude::*;
use core::ops::Range;

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
///
/// The still circles (not swept: the bulk of a bullet hell) come first, written in place
/// ([`Bodies::still_slots`]): a still circle is its own bounding circle and has no motion, so
/// it has no entry in `shapes` and `motions`, and the arrays it has keep their length from
/// frame to frame, so that nothing is cleared, filled or reallocated for it. The other bodies
/// follow ([`Bodies::push`], [`Bodies::extend_circles`]). Read shapes and motions through
/// [`Bodies::shape`] and [`Bodies::motion`].
#[derive(Resource, Default)]
pub struct Bodies {
    pub entities: Vec<Entity>,
    pub layers: Vec<CollisionLayers>,
    /// Bounding circles' centres.
    pub centers: Vec<Vec2>,
    /// Bounding circles' radii.
    pub radii: Vec<f32>,
    /// How many still circles come first.
    still: usize,
    /// Where each body placed one by one is now: body `still + i` is `shapes[i]`.
    shapes: Vec<WorldShape>,
    /// How far each body placed one by one moved along its swept path, to where it is now;
    /// zero for a body that is not swept (or did not move). The bounding circle covers the
    /// whole path.
    motions: Vec<Vec2>,
    /// World vertices of every polygon, back to back.
    pub vertices: Vec<Vec2>,
}

impl Bodies {
    /// Starts this frame's bodies with room for `count` still circles, and returns their slots
    /// to be written in place. Slots left as they are keep last frame's bodies: fill every one,
    /// or mark it a placeholder and call [`Bodies::drop_placeholders`].
    pub fn still_slots(&mut self, count: usize) -> StillSlots<'_> {
        self.still = count;
        self.entities.resize(count, Entity::PLACEHOLDER);
        self.layers.resize(count, CollisionLayers::NONE);
        self.centers.resize(count, Vec2::ZERO);
        self.radii.resize(count, 0.0);
        self.shapes.clear();
        self.motions.clear();
        self.vertices.clear();
        StillSlots {
            entities: &mut self.entities,
            layers: &mut self.layers,
            centers: &mut self.centers,
            radii: &mut self.radii,
        }
    }

    /// Removes the still circles marked as placeholders (see [`StillSlots::skip`]), keeping
    /// the order. Before any body is pushed.
    pub fn drop_placeholders(&mut self) {
        debug_assert!(self.shapes.is_empty());
        let mut kept = 0;
        for index in 0..self.still {
            if self.entities[index] != Entity::PLACEHOLDER {
                self.entities[kept] = self.entities[index];
                self.layers[kept] = self.layers[index];
                self.centers[kept] = self.centers[index];
                self.radii[kept] = self.radii[index];
                kept += 1;
            }
        }
        self.still = kept;
        self.entities.truncate(kept);
        self.layers.truncate(kept);
        self.centers.truncate(kept);
        self.radii.truncate(kept);
    }

    pub fn reserve(&mut self, additional: usize) {
        self.entities.reserve(additional);
        self.layers.reserve(additional);
        self.centers.reserve(additional);
        self.radii.reserve(additional);
        self.shapes.reserve(additional);
        self.motions.reserve(additional);
    }

    /// Appends a body after the still circles.
    #[inline(always)]
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

    /// Appends circles after the still circles, as [`push`](Self::push) would one by one:
    /// entity `entities[i]`, on `layers[i]` (the default layers without them), is the disc at
    /// `centers[i]` of radius `radii[i]`, having moved `motions[i]`. One pass per array.
    pub fn extend_circles(
        &mut self,
        entities: &[Entity],
        layers: Option<&[CollisionLayers]>,
        (centers, radii): (&[Vec2], &[f32]),
        motions: &[Vec2],
    ) {
        let len = entities.len();
        debug_assert!(centers.len() == len && radii.len() == len && motions.len() == len);
        debug_assert!(layers.is_none_or(|layers| layers.len() == len));
        self.entities.extend_from_slice(entities);
        match layers {
            Some(layers) => self.layers.extend_from_slice(layers),
            None => self
                .layers
                .resize(self.layers.len() + len, CollisionLayers::default()),
        }
        let shapes = centers.iter().zip(radii);
        let shapes = shapes.map(|(&center, &radius)| WorldShape::Circle(Disc::new(center, radius)));
        self.shapes.extend(shapes);
        // Each bounding circle grown to cover its whole path, in place.
        let first = self.centers.len();
        self.centers.extend_from_slice(centers);
        self.radii.extend_from_slice(radii);
        let bounds = self.centers[first..]
            .iter_mut()
            .zip(&mut self.radii[first..]);
        for ((center, radius), &motion) in bounds.zip(motions) {
            (*center, *radius) = swept_bounds((*center, *radius), motion);
        }
        self.motions.extend_from_slice(motions);
    }

    /// How far body `index` moved along its swept path, to where it is now: zero unless swept.
    #[inline]
    pub fn motion(&self, index: usize) -> Vec2 {
        match index.checked_sub(self.still) {
            Some(placed) => self.motions[placed],
            None => Vec2::ZERO,
        }
    }

    /// Body `index`'s world shape where it is now, for the geometry core.
    #[inline(always)]
    pub fn shape(&self, index: usize) -> Shape<'_> {
        let Some(placed) = index.checked_sub(self.still) else {
            return Shape::Circle(Disc::new(self.centers[index], self.radii[index]));
        };
        match self.shapes[placed] {
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
        let back = -self.motion(index);
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

/// The still circles' entries in [`Bodies`]' arrays, to be written in place.
pub struct StillSlots<'a> {
    entities: &'a mut [Entity],
    layers: &'a mut [CollisionLayers],
    centers: &'a mut [Vec2],
    radii: &'a mut [f32],
}

impl StillSlots<'_> {
    pub fn len(&self) -> usize {
        self.entities.len()
    }

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
        discs: &[Disc],
    ) {
        self.write_entities(first, entities, layers);
        let (centers, radii) = self.bounds_mut(first..first + discs.len());
        // A disc is its own bounding circle, and all there is to know of it.
        for ((center, radius), disc) in centers.iter_mut().zip(radii).zip(discs) {
            (*center, *radius) = (disc.center, disc.radius);
        }
    }

    /// The bounding circles of `slots`, to write the discs of still circles in: a disc is its
    /// own bounding circle. Fill the slots' entities too ([`write_entities`]), or skip them.
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
    /// stayed, and dropped by [`Bodies::drop_placeholders`].
    pub fn skip(&mut self, index: usize) {
        self.entities[index] = Entity::PLACEHOLDER;
        self.layers[index] = CollisionLayers::NONE;
        self.centers[index] = Vec2::ZERO;
        self.radii[index] = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disc(x: f32) -> Disc {
        Disc::new(Vec2::new(x, 0.0), 1.0)
    }

    #[test]
    fn still_circles_come_first_and_placeholders_are_dropped_in_order() {
        let entity = |index: u32| Entity::from_raw_u32(index).unwrap();
        let mut bodies = Bodies::default();
        let slots = bodies.still_slots(4);
        let layers = [CollisionLayers::NONE, CollisionLayers::ALL];
        let (mut first, mut second) = slots.split_at(2);
        first.write(
            0,
            &[entity(1), entity(2)],
            Some(&layers),
            &[disc(1.0), disc(2.0)],
        );
        second.write(1, &[entity(4)], None, &[disc(4.0)]);
        // The third slot's circle was left out.
        second.skip(0);
        bodies.drop_placeholders();
        bodies.push(
            entity(9),
            None,
            (Vec2::ZERO, 1.0),
            WorldShape::Circle(disc(0.0)),
            Vec2::Y,
        );
        assert_eq!(bodies.entities, [1, 2, 4, 9].map(entity));
        assert_eq!(
            bodies.layers,
            [
                CollisionLayers::NONE,
                CollisionLayers::ALL,
                CollisionLayers::default(),
                CollisionLayers::default()
            ]
        );
        assert_eq!(
            bodies.centers[..3],
            [1.0, 2.0, 4.0].map(|x| Vec2::new(x, 0.0))
        );
        assert!(matches!(bodies.shape(2), Shape::Circle(circle) if circle == disc(4.0)));
        assert!(matches!(bodies.shape(3), Shape::Circle(circle) if circle == disc(0.0)));
        assert_eq!(bodies.motion(2), Vec2::ZERO);
        assert_eq!(bodies.motion(3), Vec2::Y);
        // A new frame keeps the arrays' room, not their bodies.
        let mut slots = bodies.still_slots(1);
        slots.write(0, &[entity(5)], None, &[disc(5.0)]);
        assert_eq!(bodies.entities, [entity(5)]);
        assert_eq!(bodies.shapes.len(), 0);
    }

    #[test]
    fn circles_extended_in_a_block_are_as_pushed_one_by_one() {
        let entities = [3, 1, 4].map(|index| Entity::from_raw_u32(index).unwrap());
        let centers = [
            Vec2::new(1.0, 2.0),
            Vec2::new(-5.0, 0.5),
            Vec2::new(1e6, -3.0),
        ];
        let radii = [4.0, 0.0, 2.5];
        let motions = [Vec2::ZERO, Vec2::new(6.0, -8.0), Vec2::new(-0.25, 1e3)];
        let layer_values = [
            CollisionLayers::NONE,
            CollisionLayers::ALL,
            CollisionLayers::NONE,
        ];
        for layers in [None, Some(&layer_values[..])] {
            let (mut block, mut one_by_one) = (Bodies::default(), Bodies::default());
            // A body before them: the block's arrays are appended to, not written from the start.
            let (first, first_bounds) = (Entity::from_raw_u32(9).unwrap(), (Vec2::ONE, 1.0));
            for bodies in [&mut block, &mut one_by_one] {
                let shape = WorldShape::Circle(Disc::new(Vec2::ONE, 1.0));
                bodies.push(first, None, first_bounds, shape, Vec2::X);
            }
            block.extend_circles(&entities, layers, (&centers, &radii), &motions);
            for i in 0..3 {
                let disc = Disc::new(centers[i], radii[i]);
                let bounds = (disc.center, disc.radius);
                let layers = layers.map(|layers| &layers[i]);
                let shape = WorldShape::Circle(disc);
                one_by_one.push(entities[i], layers, bounds, shape, motions[i]);
            }
            assert_eq!(block.entities, one_by_one.entities);
            assert_eq!(block.layers, one_by_one.layers);
            assert_eq!(block.centers, one_by_one.centers);
            assert_eq!(block.radii, one_by_one.radii);
            assert_eq!(block.motions, one_by_one.motions);
            for i in 0..4 {
                assert!(matches!(
                    (block.shape(i), one_by_one.shape(i)),
                    (Shape::Circle(a), Shape::Circle(b)) if a == b
                ));
            }
        }
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
