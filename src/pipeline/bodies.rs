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
///
/// The bodies placed one by one ([`Bodies::push`]) come first; the still circles (not swept,
/// the bulk of a bullet hell) follow, appended a block at a time
/// ([`Bodies::extend_still_circles`]). A still circle is its own bounding circle and has no
/// motion, so `shapes` and `motions` stop where they begin: half the bytes written per bullet.
/// Read them through [`Bodies::shape`] and [`Bodies::motion`].
#[derive(Resource, Default)]
pub struct Bodies {
    pub entities: Vec<Entity>,
    pub layers: Vec<CollisionLayers>,
    /// Bounding circles' centres.
    pub centers: Vec<Vec2>,
    /// Bounding circles' radii.
    pub radii: Vec<f32>,
    /// Where each body placed one by one is now.
    shapes: Vec<WorldShape>,
    /// How far each body placed one by one moved along its swept path, to where it is now;
    /// zero for a body that is not swept (or did not move). The bounding circle covers the
    /// whole path.
    motions: Vec<Vec2>,
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

    #[inline(always)]
    pub fn push(
        &mut self,
        entity: Entity,
        layers: Option<&CollisionLayers>,
        bounds: (Vec2, f32),
        shape: WorldShape,
        motion: Vec2,
    ) {
        debug_assert_eq!(
            self.shapes.len(),
            self.entities.len(),
            "bodies placed one by one come before the still circles"
        );
        let (center, radius) = swept_bounds(bounds, motion);
        self.entities.push(entity);
        self.layers.push(layers.copied().unwrap_or_default());
        self.centers.push(center);
        self.radii.push(radius);
        self.shapes.push(shape);
        self.motions.push(motion);
    }

    /// Appends circles that have no swept motion, one pass per array: entity `entities[i]`,
    /// on `layers[i]` (the default layers without them), is the disc `discs[i]`.
    pub fn extend_still_circles(
        &mut self,
        entities: &[Entity],
        layers: Option<&[CollisionLayers]>,
        discs: &[Disc],
    ) {
        let end = self.entities.len() + discs.len();
        self.entities.extend_from_slice(entities);
        match layers {
            Some(layers) => self.layers.extend_from_slice(layers),
            None => self.layers.resize(end, CollisionLayers::default()),
        }
        // A disc is its own bounding circle, and all there is to know of it.
        self.centers.extend(discs.iter().map(|disc| disc.center));
        self.radii.extend(discs.iter().map(|disc| disc.radius));
    }

    /// Appends `other`'s bodies (circles: its polygons' vertices are not carried over). Bodies
    /// placed one by one in `other` must not follow still circles here.
    pub fn append(&mut self, other: &Self) {
        debug_assert!(other.vertices.is_empty());
        debug_assert!(other.shapes.is_empty() || self.shapes.len() == self.entities.len());
        self.entities.extend_from_slice(&other.entities);
        self.layers.extend_from_slice(&other.layers);
        self.centers.extend_from_slice(&other.centers);
        self.radii.extend_from_slice(&other.radii);
        self.shapes.extend_from_slice(&other.shapes);
        self.motions.extend_from_slice(&other.motions);
    }

    /// How far body `index` moved along its swept path, to where it is now: zero unless swept.
    #[inline]
    pub fn motion(&self, index: usize) -> Vec2 {
        self.motions.get(index).copied().unwrap_or(Vec2::ZERO)
    }

    /// Body `index`'s world shape where it is now, for the geometry core.
    pub fn shape(&self, index: usize) -> Shape<'_> {
        let Some(&shape) = self.shapes.get(index) else {
            return Shape::Circle(Disc::new(self.centers[index], self.radii[index]));
        };
        match shape {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn disc(x: f32) -> Disc {
        Disc::new(Vec2::new(x, 0.0), 1.0)
    }

    #[test]
    fn circles_are_appended_in_order() {
        let entity = |index: u32| Entity::from_raw_u32(index).unwrap();
        let mut first = Bodies::default();
        first.push(
            entity(1),
            None,
            (Vec2::ZERO, 1.0),
            WorldShape::Circle(disc(0.0)),
            Vec2::ZERO,
        );
        let mut second = Bodies::default();
        let layers = [CollisionLayers::NONE, CollisionLayers::ALL];
        second.extend_still_circles(
            &[entity(2), entity(3)],
            Some(&layers),
            &[disc(2.0), disc(3.0)],
        );
        second.extend_still_circles(&[entity(4)], None, &[disc(4.0)]);
        first.append(&second);
        assert_eq!(first.entities, [1, 2, 3, 4].map(entity));
        assert_eq!(
            first.centers,
            [0.0, 2.0, 3.0, 4.0].map(|x| Vec2::new(x, 0.0))
        );
        assert_eq!(first.radii, [1.0; 4]);
        assert_eq!(
            (0..4).map(|index| first.motion(index)).collect::<Vec<_>>(),
            [Vec2::ZERO; 4]
        );
        assert_eq!(
            first.shapes.len(),
            1,
            "still circles keep no shape of their own"
        );
        assert_eq!(
            first.layers,
            [
                CollisionLayers::default(),
                CollisionLayers::NONE,
                CollisionLayers::ALL,
                CollisionLayers::default()
            ]
        );
        assert!(matches!(first.shape(3), Shape::Circle(circle) if circle == disc(4.0)));
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
