//! One entry point for any two shapes: the pair functions, each written once, in either order.

use super::{
    Circle, Intersection, Segment, intersect_circle_circle, intersect_polygon_circle,
    intersect_polygon_polygon, intersect_polygon_segment, intersect_segment_circle,
    intersect_segment_segment, overlap_circle_circle, overlap_polygon_circle,
    overlap_polygon_polygon, overlap_polygon_segment, overlap_segment_circle,
    overlap_segment_segment,
};
use bevy::math::{Vec2, bounding::BoundingCircle};

/// Any of the three shapes, borrowed; polygons are vertex loops (see the
/// [module docs](super#the-shapes)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape<'a> {
    /// A circle: a solid circle.
    Circle(Circle),
    /// A segment.
    Segment(Segment),
    /// A solid polygon, convex or concave, given by its vertex loop.
    Polygon(&'a [Vec2]),
}

impl Shape<'_> {
    /// The shape's bounding circle (smallest enclosing for circles and segments; for polygons
    /// see [`bounding_circle_of_points`](super::bounding_circle_of_points)).
    pub fn bounding_circle(&self) -> BoundingCircle {
        match self {
            Shape::Circle(circle) => circle.bounding_circle(),
            Shape::Segment(segment) => segment.bounding_circle(),
            Shape::Polygon(vertices) => super::bounding_circle_of_points(vertices),
        }
    }
}

/// Whether two shapes overlap, in either order: dispatches to the `overlap_*` pair function.
#[inline]
pub fn overlap(first: Shape, second: Shape) -> bool {
    use Shape::{Circle as C, Polygon as P, Segment as S};
    match (first, second) {
        (C(a), C(b)) => overlap_circle_circle(a, b),
        (S(s), C(c)) | (C(c), S(s)) => overlap_segment_circle(s, c),
        (S(a), S(b)) => overlap_segment_segment(a, b),
        (P(p), C(c)) | (C(c), P(p)) => overlap_polygon_circle(p, c),
        (P(p), S(s)) | (S(s), P(p)) => overlap_polygon_segment(p, s),
        (P(a), P(b)) => overlap_polygon_polygon(a, b),
    }
}

/// Where two shapes' outlines meet, in either order: dispatches to the `intersect_*` pair
/// function, with the more complex shape first, and mirrors its
/// [`containment`](Intersection::containment) when the arguments came the other way round.
///
/// The points are the same in both orders: along the outline of the more complex shape
/// (polygon, then segment, then circle), or of `first` when both are of one kind.
#[inline]
pub fn intersect(first: Shape, second: Shape) -> Option<Intersection> {
    use Shape::{Circle as C, Polygon as P, Segment as S};
    match (first, second) {
        (C(a), C(b)) => intersect_circle_circle(a, b),
        (S(s), C(c)) => intersect_segment_circle(s, c),
        (C(c), S(s)) => intersect_segment_circle(s, c).map(Intersection::mirrored),
        (S(a), S(b)) => intersect_segment_segment(a, b),
        (P(p), C(c)) => intersect_polygon_circle(p, c),
        (C(c), P(p)) => intersect_polygon_circle(p, c).map(Intersection::mirrored),
        (P(p), S(s)) => intersect_polygon_segment(p, s),
        (S(s), P(p)) => intersect_polygon_segment(p, s).map(Intersection::mirrored),
        (P(a), P(b)) => intersect_polygon_polygon(a, b),
    }
}
