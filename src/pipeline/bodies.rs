//! [`Bodies`]: every collider placed in the world this frame, as flat arrays. The prepare
//! stage writes them; the broad and narrow phases read them.

use crate::geometry::{BoundingBox, Circle, Segment, Shape};
use crate::layers::CollisionLayers;
use bevy::prelude::*;
use core::ops::Range;

/// A collider placed in the world this frame.
#[derive(Clone, Copy, Debug)]
pub enum WorldShape {
    Circle(Circle),
    Segment(Segment),
    /// `Bodies::vertices[start..start + len]`. The polygon holds the circle of `inner_radius`
    /// around its bounding circle's centre, less a margin for rounding (see
    /// [`clear_radius`] and [`Bodies::deep_inside`]).
    Polygon {
        start: u32,
        len: u32,
        inner_radius: f32,
    },
}

/// The radius of the circle around a polygon's bounding centre `center` (of bounding radius
/// `outer_radius`) that the polygon surely holds in the world, where it holds the circle of
/// `inner_radius` exactly (the local one times the least the transform stretches any
/// direction: every point of an edge lies at least that far from the centre): less a margin
/// for the relative rounding of the radii and the local distances (well below a part in ten
/// thousand) and the absolute rounding of world coordinates as far out as the polygon's
/// vertices reach (the edges' own distances, a long edge's included). Worked out once a frame
/// for each polygon, not for each pair.
pub fn clear_radius(inner_radius: f32, center: Vec2, outer_radius: f32) -> f32 {
    let reach = center.abs().max_element() + outer_radius;
    let margin = 1e-4 * inner_radius + 64.0 * f32::EPSILON * reach;
    (inner_radius - margin).max(0.0)
}

/// The colliders of this frame, as parallel arrays indexed by body: entity, layers, bounding
/// circle, world shape and motion. Rebuilt every frame, reusing its allocations.
///
/// The circles come first, written in place ([`Bodies::circle_slots`]): the still ones (not
/// swept: the bulk of a bullet hell), then the swept ones. A still circle is its own bounding
/// circle and has no motion, so it has no entry in `shapes` and `motions`. In a frame with as
/// many circles as the last, nothing is filled or reallocated for them. The other bodies
/// follow ([`Bodies::push`]). Read shapes and motions through [`Bodies::shape`] and
/// [`Bodies::motion`].
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
    /// Where each body after the still circles (the swept circles, then the bodies pushed) is
    /// now: body `still + i` is `shapes[i]`.
    shapes: Vec<WorldShape>,
    /// How far each body after the still circles moved along its swept path, to where it is
    /// now; zero for a body that is not swept (or did not move). The bounding circle covers
    /// the whole path.
    motions: Vec<Vec2>,
    /// World vertices of every polygon, back to back.
    pub vertices: Vec<Vec2>,
}

impl Bodies {
    /// Starts this frame's bodies with room for `still` still circles, then `swept` swept
    /// ones, and returns their slots to be written in place. Slots left as they are keep last
    /// frame's bodies: fill every one, or mark it a placeholder and call
    /// [`Bodies::drop_placeholders`]. The arrays keep their length from a frame with as many
    /// circles: nothing is filled for them then.
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
        let nothing = WorldShape::Circle(Circle::new(Vec2::ZERO, 0.0));
        self.shapes.resize(swept, nothing);
        self.motions.resize(swept, Vec2::ZERO);
        self.vertices.clear();
        let circles = CircleSlots {
            entities: &mut self.entities,
            layers: &mut self.layers,
            centers: &mut self.centers,
            radii: &mut self.radii,
        };
        let (still_slots, swept_circles) = circles.split_at(still);
        let swept_slots = SweptSlots {
            circles: swept_circles,
            shapes: &mut self.shapes,
            motions: &mut self.motions,
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
                Some(placed) => {
                    self.shapes[kept - kept_still] = self.shapes[placed];
                    self.motions[kept - kept_still] = self.motions[placed];
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
        self.shapes.truncate(kept - kept_still);
        self.motions.truncate(kept - kept_still);
    }

    pub fn reserve(&mut self, additional: usize) {
        self.entities.reserve(additional);
        self.layers.reserve(additional);
        self.centers.reserve(additional);
        self.radii.reserve(additional);
        self.shapes.reserve(additional);
        self.motions.reserve(additional);
    }

    /// Appends a body after the circles (and after [`Bodies::drop_placeholders`], if called).
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
            return Shape::Circle(Circle::new(self.centers[index], self.radii[index]));
        };
        match self.shapes[placed] {
            WorldShape::Circle(circle) => Shape::Circle(circle),
            WorldShape::Segment(segment) => Shape::Segment(segment),
            WorldShape::Polygon { start, len, .. } => {
                Shape::Polygon(&self.vertices[start as usize..(start + len) as usize])
            }
        }
    }

    /// Whether body `disc` is a disc that lies deep inside body `polygon`, a polygon: within
    /// the circle around the polygon's bounding centre that the polygon holds (its
    /// `inner_radius`, less the margin for rounding that [`clear_radius`] took off once). No
    /// edge then comes within the disc's radius of its centre, and the centre is inside: the
    /// polygon holds the disc, as [`intersect`](crate::geometry::intersect) would find edge by
    /// edge.
    ///
    /// A polygon that moved this run is left to the edges: its bounding circle holds its whole
    /// path, so its centre is not where the polygon is now.
    #[inline]
    pub fn deep_inside(&self, polygon: usize, disc: usize) -> bool {
        let Some(placed) = polygon.checked_sub(self.still) else {
            return false;
        };
        let WorldShape::Polygon { inner_radius, .. } = self.shapes[placed] else {
            return false;
        };
        if self.motions[placed] != Vec2::ZERO {
            return false;
        }
        let Shape::Circle(disc) = self.shape(disc) else {
            return false;
        };
        let clearance = inner_radius - disc.radius;
        clearance > 0.0
            && self.centers[polygon].distance_squared(disc.center) < clearance * clearance
    }

    /// A box that holds body `index` along its whole path (where it is now and where its path
    /// started), padded for rounding as the bounding circles are: for a long, thin body (a
    /// wall across the world) a far tighter bound than its circle.
    pub(crate) fn path_box(&self, index: usize) -> BoundingBox {
        let now = match self.shape(index) {
            Shape::Circle(disc) => BoundingBox {
                min: disc.center - disc.radius,
                max: disc.center + disc.radius,
            },
            Shape::Segment(segment) => BoundingBox::of_segment(segment),
            Shape::Polygon(vertices) => BoundingBox::of(vertices),
        };
        let motion = self.motion(index);
        let (min, max) = (now.min.min(now.min - motion), now.max.max(now.max - motion));
        // Axis by axis: a wall along x far from the origin rounds in x, not in y.
        let reach = min.abs().max(max.abs()) + (max - min);
        let pad = 8.0 * f32::EPSILON * reach;
        BoundingBox {
            min: min - pad,
            max: max + pad,
        }
    }

    /// Body `index`'s world shape at the start of its swept path: where it is now, shifted
    /// back by its motion. A moved polygon's vertices are written to `scratch`.
    pub fn start_shape<'a>(&'a self, index: usize, scratch: &'a mut Vec<Vec2>) -> Shape<'a> {
        let back = -self.motion(index);
        match self.shape(index) {
            _ if back == Vec2::ZERO => self.shape(index),
            Shape::Circle(disc) => Shape::Circle(Circle::new(disc.center + back, disc.radius)),
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

#[cfg(test)]
impl Bodies {
    /// Asserts that these bodies are `other`'s: entities, layers, bounds, shapes and motions.
    pub(crate) fn assert_same_as(&self, other: &Bodies) {
        assert_eq!(self.entities, other.entities);
        assert_eq!(self.layers, other.layers);
        assert_eq!(self.centers, other.centers);
        assert_eq!(self.radii, other.radii);
        for i in 0..other.entities.len() {
            match (self.shape(i), other.shape(i)) {
                (Shape::Circle(a), Shape::Circle(b)) => assert_eq!(a, b),
                (Shape::Polygon(a), Shape::Polygon(b)) => assert_eq!(a, b),
                (Shape::Segment(a), Shape::Segment(b)) => assert_eq!(a, b),
                _ => panic!("body {i} differs in kind"),
            }
            assert_eq!(self.motion(i), other.motion(i));
        }
    }
}

/// Circles' entries in [`Bodies`]' arrays, to be written in place: the still circles' slots,
/// and the columns that the swept ones share with them (see [`SweptSlots`]).
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
    /// stayed, and dropped by [`Bodies::drop_placeholders`].
    pub fn skip(&mut self, index: usize) {
        self.entities[index] = Entity::PLACEHOLDER;
        self.layers[index] = CollisionLayers::NONE;
        self.centers[index] = Vec2::ZERO;
        self.radii[index] = 0.0;
    }
}

/// The swept circles' entries in [`Bodies`]' arrays, after the still circles', to be written
/// in place: the columns of every circle, and their shapes and motions.
pub struct SweptSlots<'a> {
    circles: CircleSlots<'a>,
    shapes: &'a mut [WorldShape],
    motions: &'a mut [Vec2],
}

impl SweptSlots<'_> {
    /// Splits off the first `at` slots.
    pub fn split_at(self, at: usize) -> (Self, Self) {
        let (circles, circles_rest) = self.circles.split_at(at);
        let (shapes, shapes_rest) = self.shapes.split_at_mut(at);
        let (motions, motions_rest) = self.motions.split_at_mut(at);
        (
            Self {
                circles,
                shapes,
                motions,
            },
            Self {
                circles: circles_rest,
                shapes: shapes_rest,
                motions: motions_rest,
            },
        )
    }

    /// Where to write the discs of `slots` where the circles are now, and how far each moved:
    /// then [`finish_block`](Self::finish_block).
    pub fn discs_and_motions_mut(
        &mut self,
        slots: Range<usize>,
    ) -> (&mut [Vec2], &mut [f32], &mut [Vec2]) {
        let (centers, radii) = self.circles.bounds_mut(slots.clone());
        (centers, radii, &mut self.motions[slots])
    }

    /// Finishes the slots from `first` on, whose discs and motions were written (see
    /// [`discs_and_motions_mut`](Self::discs_and_motions_mut)), as [`Bodies::push`] would
    /// place each: entity `entities[i]`, on `layers[i]` (the default layers without them), is
    /// its disc, and its bounding circle is grown to cover its whole path. One pass per array.
    pub fn finish_block(
        &mut self,
        first: usize,
        entities: &[Entity],
        layers: Option<&[CollisionLayers]>,
    ) {
        let slots = first..first + entities.len();
        let paths = self.shapes[slots.clone()]
            .iter_mut()
            .zip(&self.motions[slots.clone()]);
        let (centers, radii) = self.circles.bounds_mut(slots);
        for ((center, radius), (shape, &motion)) in centers.iter_mut().zip(radii).zip(paths) {
            *shape = WorldShape::Circle(Circle::new(*center, *radius));
            (*center, *radius) = swept_bounds((*center, *radius), motion);
        }
        self.circles.write_entities(first, entities, layers);
    }

    /// Writes one circle into slot `index`, as [`Bodies::push`] would place it.
    pub fn write(
        &mut self,
        index: usize,
        entity: Entity,
        layers: Option<&CollisionLayers>,
        disc: Circle,
        motion: Vec2,
    ) {
        let bounds = swept_bounds((disc.center, disc.radius), motion);
        self.circles
            .write_entities(index, &[entity], layers.map(core::slice::from_ref));
        let (center, radius) = self.circles.bounds_mut(index..index + 1);
        (center[0], radius[0]) = bounds;
        self.shapes[index] = WorldShape::Circle(disc);
        self.motions[index] = motion;
    }

    /// Marks slot `index` a placeholder, dropped by [`Bodies::drop_placeholders`]: on no layer
    /// and a point, not moving, so that it would meet nothing even if it stayed.
    pub fn skip(&mut self, index: usize) {
        self.circles.skip(index);
        self.shapes[index] = WorldShape::Circle(Circle::new(Vec2::ZERO, 0.0));
        self.motions[index] = Vec2::ZERO;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disc(x: f32) -> Circle {
        Circle::new(Vec2::new(x, 0.0), 1.0)
    }

    /// Whenever a disc is found deep inside a long, thin wall (turned, and placed far from the
    /// origin, where rounding is coarsest), the edges agree: the wall holds it. The discs
    /// graze the long edges, many to within a thousandth.
    #[test]
    fn a_disc_found_deep_inside_is_inside_by_the_edges_too() {
        use crate::geometry::{Containment, Intersection, intersect};
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(5);
        let mut found = 0;
        for round in 0..100_000 {
            // Every other round a wall up to 4,000 long by the origin, grazed to within two
            // ten-thousandths (where a margin grown with the inner radius alone let the quick
            // answer differ); the others, walls of every length near and far, grazed less.
            let (length, far, gap) = if round % 2 == 0 {
                (
                    rng.random_range(1000.0..4000.0),
                    1.0,
                    rng.random_range(0.0..2e-4),
                )
            } else {
                let far = if rng.random_bool(0.5) { 10.0 } else { 3e4 };
                (
                    rng.random_range(10.0..2000.0),
                    far,
                    rng.random_range(-1e-3..2e-2),
                )
            };
            let thickness = 1.0;
            let turn = Vec2::from_angle(rng.random_range(0.0..core::f32::consts::TAU));
            let center = Vec2::new(rng.random_range(-far..far), rng.random_range(-far..far));
            let local = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .map(|(x, y)| Vec2::new(x * length, y * thickness) / 2.0);
            let mut bodies = Bodies {
                vertices: local.iter().map(|&p| turn.rotate(p) + center).collect(),
                ..Bodies::default()
            };
            let outer = super::conservative(center, local[0].length());
            let shape = WorldShape::Polygon {
                start: 0,
                len: 4,
                inner_radius: clear_radius(thickness / 2.0, center, outer),
            };
            let entity = Entity::from_raw_u32(0).unwrap();
            bodies.push(entity, None, (center, outer), shape, Vec2::ZERO);
            // Across the wall from its centre, by up to its half thickness.
            let across = rng.random_range(-0.5..0.5) * thickness;
            let radius = thickness / 2.0 - across.abs() - gap;
            if radius <= 0.0 {
                continue;
            }
            let place = center + turn.rotate(Vec2::new(0.0, across));
            let disc = Circle::new(place, radius);
            bodies.push(
                entity,
                None,
                (place, radius),
                WorldShape::Circle(disc),
                Vec2::ZERO,
            );
            if bodies.deep_inside(0, 1) {
                found += 1;
                assert_eq!(
                    intersect(bodies.shape(0), bodies.shape(1)),
                    Some(Intersection::contained(Containment::SecondInFirst)),
                    "{disc:?} in {:?}",
                    bodies.vertices
                );
            }
        }
        assert!(found > 100, "{found} found deep inside");
    }

    #[test]
    fn still_circles_come_first_and_placeholders_are_dropped_in_order() {
        let entity = |index: u32| Entity::from_raw_u32(index).unwrap();
        let mut bodies = Bodies::default();
        let (slots, _) = bodies.circle_slots(4, 0);
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
        let (mut slots, _) = bodies.circle_slots(1, 0);
        slots.write(0, &[entity(5)], None, &[disc(5.0)]);
        assert_eq!(bodies.entities, [entity(5)]);
        assert_eq!(bodies.shapes.len(), 0);
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
        let push_triangle = |bodies: &mut Bodies| {
            let start = bodies.vertices.len() as u32;
            bodies.vertices.extend([Vec2::ZERO, Vec2::X, Vec2::Y]);
            let shape = WorldShape::Polygon {
                start,
                len: 3,
                inner_radius: 0.0,
            };
            bodies.push(entity(9), None, (Vec2::splat(0.5), 1.0), shape, Vec2::X);
        };
        // What writing the first `stills` still circles and then pushing the swept circles
        // `kept`, one by one, places.
        let pushed = |stills: usize, kept: &[usize], layers: Option<&[CollisionLayers]>| {
            let mut pushed = Bodies::default();
            let (mut slots, _) = pushed.circle_slots(stills, 0);
            slots.write(0, &still_entities[..stills], None, &still[..stills]);
            for &i in kept {
                let disc = Circle::new(centers[i], radii[i]);
                let layers = layers.map(|layers| &layers[i]);
                let shape = WorldShape::Circle(disc);
                pushed.push(
                    entities[i],
                    layers,
                    (disc.center, disc.radius),
                    shape,
                    motions[i],
                );
            }
            pushed
        };
        for layers in [None, Some(&layer_values[..])] {
            // Two still circles (the second left out) and four swept ones: the first two
            // written as a block, the third left out, the fourth one by one. Then a polygon
            // pushed after them.
            let mut slotted = Bodies::default();
            let (mut still_slots, swept_slots) = slotted.circle_slots(2, 4);
            still_slots.write(0, &still_entities[..1], None, &still[..1]);
            still_slots.skip(1);
            let (mut block, mut rest) = swept_slots.split_at(2);
            let (block_centers, block_radii, block_motions) = block.discs_and_motions_mut(0..2);
            block_centers.copy_from_slice(&centers[..2]);
            block_radii.copy_from_slice(&radii[..2]);
            block_motions.copy_from_slice(&motions[..2]);
            block.finish_block(0, &entities[..2], layers.map(|layers| &layers[..2]));
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
            let (block_centers, block_radii, block_motions) =
                swept_slots.discs_and_motions_mut(0..3);
            block_centers.copy_from_slice(&centers[2..]);
            block_radii.copy_from_slice(&radii[2..]);
            block_motions.copy_from_slice(&motions[2..]);
            swept_slots.finish_block(0, &entities[2..], layers.map(|layers| &layers[2..]));
            slotted.assert_same_as(&pushed(2, &[2, 3, 4], layers));
            assert!(slotted.vertices.is_empty());
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
        let polygon = WorldShape::Polygon {
            start: 0,
            len: 3,
            inner_radius: 0.0,
        };
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
