//! [`PlacedColliders`]: every collider placed in the world this frame, as flat arrays. The prepare
//! stage writes them; the broad and narrow phases read them.

use crate::geometry::{BoundingBox, Circle, EdgeLines, Segment, Shape};
use crate::layers::CollisionLayers;
use bevy::prelude::*;
mod disc_path;
mod path_ends;
mod placed_shape;
mod shortcuts;
mod slots;
mod turning;

pub(crate) use disc_path::DiscPath;
pub(crate) use path_ends::PathEnds;
pub(crate) use placed_shape::{PlacedPolygon, PlacedShape};
pub use slots::{CircleSlots, SweptSlots};
pub(crate) use turning::Turning;

/// A collider placed in the world this frame.
#[derive(Clone, Copy, Debug)]
pub enum WorldShape {
    Circle(Circle),
    Segment(Segment),
    /// `PlacedColliders::vertices[start..start + len]`. The polygon holds the circle of
    /// `inner_radius` around its bounding circle's centre, less a margin for rounding (see
    /// [`clear_radius`] and [`PlacedPolygon::surely_holds`]).
    Polygon {
        start: u32,
        len: u32,
        inner_radius: f32,
        /// The vertices' [`polygon_size`](crate::geometry::polygon_size), which the exact
        /// tests' tolerance scales with: measured once a frame, not once a pair.
        size: f32,
        /// Where the polygon's edges' lines start in `PlacedColliders::edge_lines` (one entry
        /// per four edges); [`NO_LINES`] for a polygon without.
        lines: u32,
        /// Whether the polygon has a corner that turns the other way from the rest: shapes
        /// that overlap it may part and meet again under a straight motion.
        concave: bool,
    },
}

/// A collider after the still circles: where it is now, and how far it moved along its swept
/// path to there (zero for a collider that is not swept, or did not move). Both in one place:
/// the narrow phase reads them together, and one cache line holds them.
#[derive(Clone, Copy, Debug)]
#[repr(align(32))]
pub struct Path {
    /// Where the collider is now.
    pub shape: WorldShape,
    /// How far it moved along its swept path, to where it is now.
    pub motion: Vec2,
}

// The narrow phase reads a collider's shape and motion together: one aligned half of a cache
// line.
const _: () = assert!(size_of::<Path>() == 32);

/// [`WorldShape::Polygon::lines`] of a polygon without edge lines: past the end of any table.
pub const NO_LINES: u32 = u32::MAX;

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

/// The colliders of this frame, as parallel arrays indexed by collider: entity, layers, bounding
/// circle, world shape and motion. Rebuilt every frame, reusing its allocations.
///
/// The circles come first, written in place ([`PlacedColliders::circle_slots`]): the still ones
/// (not swept: the bulk of a bullet hell), then the swept ones. A still circle is its own bounding
/// circle and has no motion, so it has no entry in `paths`. In a frame with as many
/// circles as the last, nothing is filled or reallocated for them. The other colliders follow
/// ([`PlacedColliders::push`]). Read shapes and motions through [`PlacedColliders::shape`] and
/// [`PlacedColliders::motion`].
#[derive(Resource, Default)]
pub struct PlacedColliders {
    pub entities: Vec<Entity>,
    pub layers: Vec<CollisionLayers>,
    /// Bounding circles' centres.
    pub centers: Vec<Vec2>,
    /// Bounding circles' radii.
    pub radii: Vec<f32>,
    /// How many still circles come first.
    still: usize,
    /// Where each collider after the still circles (the swept circles, then the colliders pushed)
    /// is now, and its motion: collider `still + i` is `paths[i]`. The bounding circle covers
    /// the whole path.
    paths: Vec<Path>,
    /// The swept segments and polygons that turned this run, in collider order (see
    /// [`Turning`]). Empty in most runs.
    turning: Vec<Turning>,
    /// World vertices of every polygon, back to back.
    pub vertices: Vec<Vec2>,
    /// The lines of every polygon's edges, back to back (see
    /// [`push_edge_lines`](crate::geometry::push_edge_lines)).
    pub(crate) edge_lines: Vec<EdgeLines>,
}

impl PlacedColliders {
    pub fn reserve(&mut self, additional: usize) {
        self.entities.reserve(additional);
        self.layers.reserve(additional);
        self.centers.reserve(additional);
        self.radii.reserve(additional);
        self.paths.reserve(additional);
    }

    /// Appends a collider after the circles (and after [`PlacedColliders::drop_placeholders`], if
    /// called).
    #[inline(always)]
    pub fn push(
        &mut self,
        entity: Entity,
        layers: Option<&CollisionLayers>,
        bounds: Circle,
        shape: WorldShape,
        motion: Vec2,
    ) {
        let bounds = swept_bounds(bounds, motion);
        self.entities.push(entity);
        self.layers.push(layers.copied().unwrap_or_default());
        self.centers.push(bounds.center);
        self.radii.push(bounds.radius);
        self.paths.push(Path { shape, motion });
    }

    /// How far collider `index` moved along its swept path, to where it is now: zero unless swept.
    #[inline]
    pub fn motion(&self, index: usize) -> Vec2 {
        match index.checked_sub(self.still) {
            Some(slot) => self.paths[slot].motion,
            None => Vec2::ZERO,
        }
    }

    /// Colliders `pair`, the lower entity first.
    #[inline(always)]
    pub fn ordered(&self, [one, other]: [u32; 2]) -> [u32; 2] {
        if self.entities[one as usize] > self.entities[other as usize] {
            [other, one]
        } else {
            [one, other]
        }
    }

    /// Whether any collider moved along its swept path (or turned) this frame.
    pub fn any_moving(&self) -> bool {
        self.any_turning() || self.paths.iter().any(|path| path.motion != Vec2::ZERO)
    }

    /// Collider `index`'s world shape where it is now, for the geometry core.
    #[inline(always)]
    pub fn shape(&self, index: usize) -> Shape<'_> {
        let Some(slot) = index.checked_sub(self.still) else {
            return Shape::Circle(Circle::new(self.centers[index], self.radii[index]));
        };
        match self.paths[slot].shape {
            WorldShape::Circle(circle) => Shape::Circle(circle),
            WorldShape::Segment(segment) => Shape::Segment(segment),
            WorldShape::Polygon { start, len, .. } => {
                Shape::Polygon(&self.vertices[start as usize..(start + len) as usize])
            }
        }
    }

    /// Whether collider `index` is a concave polygon.
    pub fn is_concave(&self, index: usize) -> bool {
        let slot = index.checked_sub(self.still);
        slot.is_some_and(|slot| {
            matches!(
                self.paths[slot].shape,
                WorldShape::Polygon { concave: true, .. }
            )
        })
    }

    /// A box that holds collider `index` along its whole path (where it is now and where its path
    /// started), padded for rounding as the bounding circles are: for a long, thin collider (a
    /// wall across the world) a far tighter bound than its circle.
    pub(crate) fn path_box(&self, index: usize) -> BoundingBox {
        if self.turn(index).is_some() {
            // A turning collider: the box of its bounding circle, which holds the turn.
            let (center, radius) = (self.centers[index], self.radii[index]);
            return BoundingBox {
                min: center - radius,
                max: center + radius,
            };
        }
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

    /// Collider `index`'s world shape at the start of its swept path: where it is now, shifted
    /// back by its motion. A moved polygon's vertices are written to `scratch`.
    pub fn start_shape<'a>(&'a self, index: usize, scratch: &'a mut Vec<Vec2>) -> Shape<'a> {
        if let Some(turn) = self.turn(index) {
            let back = Vec2::from_angle(-turn.angle);
            let start =
                |point: Vec2| turn.pivot - turn.translation + back.rotate(point - turn.pivot);
            return match self.shape(index) {
                Shape::Circle(disc) => Shape::Circle(Circle::new(start(disc.center), disc.radius)),
                Shape::Segment(segment) => {
                    Shape::Segment(Segment::new(start(segment.a), start(segment.b)))
                }
                Shape::Polygon(vertices) => {
                    scratch.clear();
                    scratch.extend(vertices.iter().map(|&vertex| start(vertex)));
                    Shape::Polygon(scratch)
                }
            };
        }
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

/// The bounding circle of a collider's whole path: the circle `bounds` around where it is now,
/// grown to cover where it was `motion` ago too (the swept shape lies within the capsule
/// between the two circles, which this circle holds).
#[inline(always)]
fn swept_bounds(bounds: Circle, motion: Vec2) -> Circle {
    let half = 0.5 * motion;
    let middle = bounds.center - half;
    let grown = Circle::new(middle, conservative(middle, bounds.radius + half.length()));
    // Chosen without a branch, so that a loop over many vectorises.
    if motion == Vec2::ZERO { bounds } else { grown }
}

/// A bounding radius grown by a few units in the last place of the coordinates involved, so
/// that rounding in the world transform (or along a swept path) never leaves a point of the
/// shape outside its bounding circle. (A circle's bound is the circle itself and needs no
/// margin.)
#[inline]
pub(crate) fn conservative(center: Vec2, radius: f32) -> f32 {
    radius + 8.0 * f32::EPSILON * (radius + center.abs().max_element())
}

/// `reach` grown past what the exact tests' rounding could take back: a part in ten thousand of
/// itself, and a few units in the last place of the largest `coordinates` involved.
#[inline(always)]
fn past_rounding(reach: f32, coordinates: f32) -> f32 {
    reach + 1e-4 * reach + 64.0 * f32::EPSILON * (coordinates + reach)
}

#[cfg(test)]
impl PlacedColliders {
    /// Asserts that these colliders are `other`'s: entities, layers, bounds, shapes and motions.
    pub(crate) fn assert_same_as(&self, other: &PlacedColliders) {
        assert_eq!(self.entities, other.entities);
        assert_eq!(self.layers, other.layers);
        assert_eq!(self.centers, other.centers);
        assert_eq!(self.radii, other.radii);
        for i in 0..other.entities.len() {
            match (self.shape(i), other.shape(i)) {
                (Shape::Circle(a), Shape::Circle(b)) => assert_eq!(a, b),
                (Shape::Polygon(a), Shape::Polygon(b)) => assert_eq!(a, b),
                (Shape::Segment(a), Shape::Segment(b)) => assert_eq!(a, b),
                _ => panic!("collider {i} differs in kind"),
            }
            assert_eq!(self.motion(i), other.motion(i));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::polygon_size;
    use crate::geometry::sweep::Turn;

    /// Whether anything moved: a collider pushed with a motion, or one that turned in place;
    /// not still circles, placeholders, or colliders pushed without motion.
    #[test]
    fn any_moving_sees_every_motion_and_turn() {
        let entity = |index: u32| Entity::from_raw_u32(index).unwrap();
        let disc = Circle::new(Vec2::new(3.0, 4.0), 2.0);
        let segment = WorldShape::Segment(Segment::new(Vec2::ZERO, Vec2::X));
        let mut placed = PlacedColliders::default();
        let (mut still, mut swept) = placed.circle_slots(2, 2);
        still.write(0, &[entity(1), entity(2)], None, &[disc, disc]);
        swept.skip(0);
        swept.skip(1);
        assert!(!placed.any_moving(), "still circles and placeholders");
        placed.drop_placeholders();
        placed.push(entity(3), None, disc, segment, Vec2::ZERO);
        assert!(!placed.any_moving(), "pushed without motion");
        placed.push(
            entity(4),
            None,
            disc,
            WorldShape::Circle(disc),
            Vec2::new(0.0, -1e-30),
        );
        assert!(placed.any_moving(), "the least motion");
        placed.circle_slots(1, 0);
        assert!(!placed.any_moving(), "a new frame");
        let turn = Turn {
            translation: Vec2::ZERO,
            angle: 0.5,
            pivot: Vec2::ZERO,
        };
        placed.push_turning(entity(5), None, disc, segment, turn);
        assert!(placed.any_moving(), "turned in place");
    }

    /// A path (shape and motion) fills half a cache line, and never straddles two.
    #[test]
    fn a_path_is_half_a_cache_line() {
        assert_eq!(size_of::<Path>(), 32);
        assert_eq!(align_of::<Path>(), 32);
    }

    /// The bound chosen without a branch is, bit for bit, the one a branch on a zero motion
    /// gives, for the motions where the two could part: zeros of either sign, NaN, infinities,
    /// the largest floats.
    #[test]
    fn a_swept_bound_without_a_branch_is_the_one_with() {
        let with_branch = |bounds: Circle, motion: Vec2| {
            if motion == Vec2::ZERO {
                return bounds;
            }
            let half = 0.5 * motion;
            let middle = bounds.center - half;
            Circle::new(middle, conservative(middle, bounds.radius + half.length()))
        };
        let values = [
            0.0,
            -0.0,
            1.0,
            -3.5,
            1e38,
            -1e38,
            f32::NAN,
            f32::INFINITY,
            1e-45,
        ];
        let bounds = Circle::new(Vec2::new(7.0, -2.0), 3.0);
        for x in values {
            for y in values {
                let motion = Vec2::new(x, y);
                let (got, expected) = (swept_bounds(bounds, motion), with_branch(bounds, motion));
                let bits = |circle: Circle| {
                    [circle.center.x, circle.center.y, circle.radius].map(f32::to_bits)
                };
                assert_eq!(bits(got), bits(expected), "{motion}");
            }
        }
    }

    #[test]
    fn a_swept_bound_holds_both_ends_of_the_path() {
        let motion = Vec2::new(30.0, -40.0);
        let Circle { center, radius } =
            swept_bounds(Circle::new(Vec2::new(100.0, 100.0), 3.0), motion);
        for end in [Vec2::new(100.0, 100.0), Vec2::new(70.0, 140.0)] {
            assert!(center.distance(end) + 3.0 <= radius);
        }
        assert!(radius < 3.0 + 25.0 + 1e-3);
        let still = Circle::new(Vec2::ONE, 2.0);
        assert_eq!(swept_bounds(still, Vec2::ZERO), still);
    }

    #[test]
    fn the_start_shape_is_shifted_back_by_the_motion() {
        let mut placed = PlacedColliders::default();
        placed.vertices.extend([Vec2::ZERO, Vec2::X, Vec2::Y]);
        let polygon = WorldShape::Polygon {
            start: 0,
            len: 3,
            inner_radius: 0.0,
            size: polygon_size(&placed.vertices),
            lines: NO_LINES,
            concave: false,
        };
        let entity = Entity::from_raw_u32(1).unwrap();
        placed.push(
            entity,
            None,
            Circle::new(Vec2::ZERO, 1.0),
            polygon,
            Vec2::new(2.0, 0.0),
        );
        let mut scratch = Vec::new();
        let Shape::Polygon(start) = placed.start_shape(0, &mut scratch) else {
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
