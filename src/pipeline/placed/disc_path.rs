//! [`DiscPath`]: a swept disc and a collider that did not move, read once for the narrow
//! phase's quick looks. In a bullet hell with swept bullets, nearly every pair is such a disc
//! and an enemy; the quick looks (in `shortcuts` and `path_ends`) answer most of them from
//! these few numbers, without a sweep.

use super::{Path, PlacedColliders, PlacedPolygon, PlacedShape, WorldShape};
use crate::geometry::Circle;
use bevy::prelude::*;

/// A swept disc and a collider that neither moved nor turned this run (the *still* one).
#[derive(Clone, Copy)]
pub(crate) struct DiscPath<'a> {
    /// The disc, where it is now.
    pub now: Circle,
    /// How far the disc moved along its path, to where it is now.
    pub motion: Vec2,
    /// The still collider's bounding circle.
    pub bound: Circle,
    /// The still collider, when it is a polygon: with the circle it surely holds.
    pub polygon: Option<PlacedPolygon<'a>>,
}

impl DiscPath<'_> {
    /// Where the disc's path starts: where it is now, moved back by its motion, as
    /// [`PlacedColliders::start_shape`] places it, bit for bit.
    #[inline(always)]
    pub fn start(&self) -> Vec2 {
        self.now.center + -self.motion
    }
}

impl PlacedColliders {
    /// Circle `disc` after the still circles (a swept one, or one pushed with its motion) and
    /// collider `still`, when `still` neither moved nor turned this run; `None` for any other
    /// pair.
    #[inline(always)]
    pub(crate) fn disc_path(&self, disc: usize, still: usize) -> Option<DiscPath<'_>> {
        let slot = disc.checked_sub(self.still)?;
        let Path {
            shape: WorldShape::Circle(now),
            motion,
        } = self.paths[slot]
        else {
            return None;
        };
        let polygon = match self.placed_shape(still) {
            PlacedShape::Polygon(polygon) if polygon.holds.is_some() => Some(polygon),
            // A polygon that moved or turned: it holds no circle known where it is now.
            PlacedShape::Polygon(_) => return None,
            PlacedShape::Other(_) if self.motion(still) != Vec2::ZERO => return None,
            PlacedShape::Other(_) if self.turn(still).is_some() => return None,
            PlacedShape::Other(_) => None,
        };
        Some(DiscPath {
            now,
            motion,
            bound: self.bound(still),
            polygon,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::sweep::Turn;
    use crate::geometry::{Segment, Shape, polygon_size};
    use crate::pipeline::placed::NO_LINES;

    /// A swept disc and a still polygon make a path whose polygon's measured vertices are the
    /// very slice its sweep starts from, so that its edges' lines are used there (none here:
    /// nothing is beyond them). A polygon or segment that moved makes none, nor one that turned
    /// in place, nor a disc that is a still circle, nor a polygon as the disc; a still segment
    /// makes one without a polygon.
    #[test]
    fn a_path_is_made_of_a_swept_disc_and_a_still_collider() {
        let square = [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y];
        let mut placed = PlacedColliders::default();
        let (mut still, _) = placed.circle_slots(1, 0);
        let entity = |index: u32| Entity::from_raw_u32(index + 1).unwrap();
        still.write(0, &[entity(0)], None, &[Circle::new(Vec2::splat(9.0), 1.0)]);
        placed.vertices.extend(square);
        placed.vertices.extend(square);
        let bound = Circle::new(Vec2::splat(0.5), 1.0);
        // The square's vertices from `start` on.
        let square_from = |start: u32| WorldShape::Polygon {
            start,
            len: 4,
            inner_radius: 0.5,
            size: polygon_size(&square),
            lines: NO_LINES,
            concave: false,
        };
        for (start, motion) in [(0, Vec2::ZERO), (4, Vec2::X)] {
            placed.push(entity(1 + start), None, bound, square_from(start), motion);
        }
        let wall = Segment::new(Vec2::ZERO, Vec2::X);
        for motion in [Vec2::ZERO, Vec2::Y] {
            placed.push(entity(9), None, bound, WorldShape::Segment(wall), motion);
        }
        let disc = Circle::new(Vec2::splat(3.0), 0.5);
        placed.push(entity(10), None, disc, WorldShape::Circle(disc), Vec2::X);
        let in_place = Turn {
            translation: Vec2::ZERO,
            angle: 0.3,
            pivot: Vec2::ZERO,
        };
        placed.push_turning(entity(11), None, bound, square_from(0), in_place);
        let shape = WorldShape::Segment(wall);
        placed.push_turning(entity(12), None, bound, shape, in_place);
        let [
            still_disc,
            still_polygon,
            moved_polygon,
            still_wall,
            moved_wall,
            swept_disc,
            turned_polygon,
            turned_wall,
        ] = [0, 1, 2, 3, 4, 5, 6, 7];

        let path = placed.disc_path(swept_disc, still_polygon).expect("a path");
        assert_eq!((path.now, path.motion), (disc, Vec2::X));
        assert_eq!(path.start(), disc.center - Vec2::X);
        assert_eq!(path.bound, bound);
        let mut scratch = Vec::new();
        let Shape::Polygon(start) = placed.start_shape(still_polygon, &mut scratch) else {
            panic!("a polygon");
        };
        let measured = path.polygon.expect("a polygon").measured();
        assert!(core::ptr::eq(measured.vertices, start));
        assert_eq!(path.beyond_edges(), None, "no edge lines");

        let path = placed.disc_path(swept_disc, still_wall).expect("a path");
        assert!(path.polygon.is_none());
        assert!(placed.disc_path(swept_disc, still_disc).is_some());
        for (disc, still, why) in [
            (swept_disc, moved_polygon, "moved"),
            (swept_disc, moved_wall, "moved"),
            (swept_disc, turned_polygon, "turned"),
            (swept_disc, turned_wall, "turned"),
            (still_disc, still_polygon, "a still disc"),
            (still_polygon, still_wall, "not a disc"),
        ] {
            assert!(placed.disc_path(disc, still).is_none(), "{why}");
        }
    }
}
