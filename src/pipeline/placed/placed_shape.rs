//! Colliders where they are now, as the narrow phase tests them: [`PlacedShape`], with a
//! polygon's measures and the circle it surely holds ([`PlacedPolygon`]).

use super::{PlacedColliders, WorldShape};
use crate::geometry::{Circle, EdgeLines, MeasuredPolygon, Shape};
use bevy::prelude::*;

/// A polygon placed this frame, as the narrow phase tests it against a disc: the circle it
/// surely holds, and then, for the exact test, its vertices with their size and edges' lines.
#[derive(Clone, Copy)]
pub(crate) struct PlacedPolygon<'a> {
    /// The colliders it is one of.
    placed: &'a PlacedColliders,
    /// Where its vertices start in `placed.vertices`.
    start: u32,
    /// How many vertices it has.
    len: u32,
    /// Its vertices' [`polygon_size`](crate::geometry::polygon_size).
    size: f32,
    /// Where its edges' lines start in `placed.edge_lines`.
    lines: u32,
    /// The circle around the polygon's bounding centre that the polygon surely holds where it
    /// is now (its `inner_radius`, less the margin for rounding that
    /// [`clear_radius`](super::clear_radius) took off once); `None` for a polygon that moved this
    /// run, whose bounding circle holds its whole path, so that its centre is not where the
    /// polygon is now.
    pub holds: Option<Circle>,
    /// Whether it is concave (see [`WorldShape::Polygon`]).
    pub concave: bool,
}

/// A collider where it is now, as the narrow phase tests it (see
/// [`PlacedColliders::placed_shape`]).
#[derive(Clone, Copy)]
pub(crate) enum PlacedShape<'a> {
    /// A polygon, with what its tests against a disc need.
    Polygon(PlacedPolygon<'a>),
    /// A circle or a segment.
    Other(Shape<'a>),
}

impl<'a> PlacedShape<'a> {
    /// The shape, for the geometry core.
    #[inline(always)]
    pub fn shape(self) -> Shape<'a> {
        match self {
            Self::Polygon(polygon) => Shape::Polygon(polygon.measured().vertices),
            Self::Other(shape) => shape,
        }
    }
}

impl<'a> PlacedPolygon<'a> {
    /// Its vertices with their size and edges' lines, for the exact test: looked up only when
    /// the circle it holds does not answer.
    #[inline(always)]
    pub fn measured(&self) -> MeasuredPolygon<'a> {
        let (start, end) = (self.start as usize, (self.start + self.len) as usize);
        MeasuredPolygon {
            vertices: &self.placed.vertices[start..end],
            size: self.size,
            lines: self.edge_lines().unwrap_or_default(),
        }
    }

    /// The lines of its edges, four edges to an entry (see
    /// [`push_edge_lines`](crate::geometry::push_edge_lines)); `None` for a polygon without.
    #[inline(always)]
    pub fn edge_lines(&self) -> Option<&'a [EdgeLines]> {
        // `NO_LINES` lies past the end of any table. (Where `usize` has 32 bits, the end of
        // its range overflows: no lines either.)
        let lines = self.lines as usize;
        let end = lines.checked_add((self.len as usize).div_ceil(4))?;
        self.placed.edge_lines.get(lines..end)
    }

    /// Whether `disc` lies deep inside the polygon: within the circle the polygon surely holds.
    /// No edge then comes within the disc's radius of its centre, and the centre is inside:
    /// the polygon holds the disc, as [`intersect`](crate::geometry::intersect) would find
    /// edge by edge.
    #[inline(always)]
    pub fn surely_holds(&self, disc: Circle) -> bool {
        self.holds.is_some_and(|held| {
            let clearance = held.radius - disc.radius;
            clearance > 0.0 && held.center.distance_squared(disc.center) < clearance * clearance
        })
    }
}

impl PlacedColliders {
    /// When one of colliders `first` and `second` is a still circle and the other a polygon
    /// (the bulk of a bullet hell's pairs): the polygon, the disc, and whether the disc is
    /// `first`. The disc is told by its index alone.
    #[inline(always)]
    pub(crate) fn still_disc_and_polygon(
        &self,
        first: usize,
        second: usize,
    ) -> Option<(PlacedPolygon<'_>, Circle, bool)> {
        let disc_first = first < self.still;
        let (disc, other) = if disc_first {
            (first, second)
        } else {
            (second, first)
        };
        if disc >= self.still {
            return None;
        }
        let PlacedShape::Polygon(polygon) = self.placed_shape(other) else {
            return None;
        };
        let disc = Circle::new(self.centers[disc], self.radii[disc]);
        Some((polygon, disc, disc_first))
    }

    /// Collider `index` where it is now, as the narrow phase tests it: a polygon with its size
    /// and the circle it surely holds, any other as its [`Shape`].
    #[inline(always)]
    pub(crate) fn placed_shape(&self, index: usize) -> PlacedShape<'_> {
        let Some(slot) = index.checked_sub(self.still) else {
            let disc = Circle::new(self.centers[index], self.radii[index]);
            return PlacedShape::Other(Shape::Circle(disc));
        };
        let path = self.paths[slot];
        match path.shape {
            WorldShape::Circle(circle) => PlacedShape::Other(Shape::Circle(circle)),
            WorldShape::Segment(segment) => PlacedShape::Other(Shape::Segment(segment)),
            WorldShape::Polygon {
                start,
                len,
                inner_radius,
                size,
                lines,
                concave,
            } => {
                let still = path.motion == Vec2::ZERO && self.turn(index).is_none();
                PlacedShape::Polygon(PlacedPolygon {
                    placed: self,
                    start,
                    len,
                    size,
                    lines,
                    holds: still.then(|| Circle::new(self.centers[index], inner_radius)),
                    concave,
                })
            }
        }
    }
}
