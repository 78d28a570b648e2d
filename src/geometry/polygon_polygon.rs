//! Polygon–polygon: two solid polygons, each convex or concave.

use super::bounds::BoundingBox;
use super::segment_segment::{drop_straight_joins, push_crossings, segments_meet};
use super::{
    Containment, Intersection, Points, Segment, TOLERANCE, all_in_range, drop_near_duplicates,
    edges, next_vertex, point_in_polygon_unchecked, push_unique,
};
use bevy::math::{Vec2, Vec4};
use core::ops::ControlFlow;
use smallvec::SmallVec;

/// Whether two solid polygons share a point: an edge of one meets an edge of the other, or one
/// lies wholly inside the other (a vertex of it is inside the other).
///
/// Edge pairs are `O(n·m)`, but cheaply: for each edge of `first` (outside `second`'s bounding
/// box, none), the side of every vertex of `second` is found once, and only the edges of
/// `second` whose ends are not strictly on one side get the full test. Non-finite input gives
/// `false`.
pub fn overlap_polygon_polygon(first: &[Vec2], second: &[Vec2]) -> bool {
    let Some((_, second_box)) = boxes_if_near(first, second) else {
        return false;
    };
    let mut met = false;
    for_each_meeting_pair(first, second, second_box, |_, _, _| {
        met = true;
        ControlFlow::Break(())
    });
    met || point_in_polygon_unchecked(first[0], second)
        || point_in_polygon_unchecked(second[0], first)
}

/// The points where two polygons' outlines cross or touch, ordered along the first polygon's
/// outline; or, when they do not meet, which one holds the other.
///
/// Collinear edges give the two ends of the piece they share; a shared vertex is reported once.
pub fn intersect_polygon_polygon(first: &[Vec2], second: &[Vec2]) -> Option<Intersection> {
    let (first_box, second_box) = boxes_if_near(first, second)?;
    // The same edge pairs as the overlap test (so the two always agree); crossings are computed
    // only for pairs that meet, and sorted along each edge of `first`.
    let tolerance = TOLERANCE * (first_box.half_diagonal() + second_box.half_diagonal());
    let mut first_meeting = None;
    let mut along = AlongEdges::default();
    for_each_meeting_pair(first, second, second_box, |index, edge, other| {
        first_meeting.get_or_insert((edge, other));
        if let Some(t) = proper_crossing(edge, other, tolerance) {
            // The common case, without the general machinery.
            along.push_at(index, edge, t, tolerance);
        } else {
            along.push_crossings(index, edge, other, tolerance);
        }
        ControlFlow::Continue(())
    });
    let points = along.finish(tolerance);
    if !points.is_empty() {
        return Some(Intersection::crossing(points));
    }
    if let Some((edge, other)) = first_meeting {
        // The exact test saw a touch that rounding hid from the tolerant one.
        return Some(Intersection::crossing(Points::from_slice(&[
            edge.nearest_point_between(other)
        ])));
    }
    let (inner, outer, containment) = if point_in_polygon_unchecked(first[0], second) {
        (first, second, Containment::FirstInSecond)
    } else if point_in_polygon_unchecked(second[0], first) {
        (second, first, Containment::SecondInFirst)
    } else {
        return None;
    };
    // No edge met, so the inner polygon is wholly inside, and the outer one's first vertex
    // cannot be inside it, nor another vertex of the inner one outside; if so, the outlines
    // pass a hair apart at a vertex, where rounding parted the two tests, and the tolerant test
    // finds where. (A polyline's every vertex is checked; a polygon's middle one.)
    let others_inside = if inner.len() < 3 {
        inner
            .iter()
            .all(|&vertex| point_in_polygon_unchecked(vertex, outer))
    } else {
        point_in_polygon_unchecked(inner[inner.len() / 2], outer)
    };
    if !point_in_polygon_unchecked(outer[0], inner) && others_inside {
        return Some(Intersection::contained(containment));
    }
    let mut along = AlongEdges::default();
    for (index, edge) in edges(first).enumerate() {
        for other in edges(second) {
            along.push_crossings(index, edge, other, tolerance);
        }
    }
    let mut points = along.finish(tolerance);
    if points.is_empty() {
        points.push(inner[0]);
    }
    Some(Intersection::crossing(points))
}

/// Both polygons' bounding boxes, or `None` when the input is empty, out of range, or the
/// boxes are apart.
#[inline]
fn boxes_if_near(first: &[Vec2], second: &[Vec2]) -> Option<(BoundingBox, BoundingBox)> {
    if first.is_empty() || second.is_empty() || !all_in_range(first) || !all_in_range(second) {
        return None;
    }
    let (first_box, second_box) = (BoundingBox::of(first), BoundingBox::of(second));
    first_box
        .overlaps(&second_box)
        .then_some((first_box, second_box))
}

/// Calls `visit(index, edge, other)` for every edge `edge` (number `index`) of `first` and
/// edge `other` of `second` that meet by the exact test, in order of `first`'s edges, until it
/// breaks.
///
/// Only the edges of `second` that straddle `edge`'s line are tested, and of those only the
/// ones whose line `edge` straddles in turn: the side values are computed exactly as
/// [`segments_meet`] computes them, so skipping the others never changes a verdict.
#[inline]
fn for_each_meeting_pair(
    first: &[Vec2],
    second: &[Vec2],
    second_box: BoundingBox,
    mut visit: impl FnMut(usize, Segment, Segment) -> ControlFlow<()>,
) {
    let lanes = VertexLanes::of(second);
    let count = second.len();
    for (index, edge) in edges(first).enumerate() {
        if !second_box.overlaps(&BoundingBox::of_segment(edge)) {
            continue;
        }
        // Every `k` is below `count`, so `take_while` never stops the walk; but saying so lets
        // the compiler build a faster loop: a bar across a 4,000-vertex comb took 198 µs
        // with it, 244 without.
        for k in Straddling::new(second, lanes.as_ref(), edge).take_while(|&k| k < count) {
            let other = Segment::new(second[k], second[next_vertex(k, count)]);
            if straddles_line_of(edge, other)
                && segments_meet(edge, other)
                && visit(index, edge, other).is_break()
            {
                return;
            }
        }
    }
}

/// Whether `edge`'s ends are not strictly on one side of `other`'s line (as [`segments_meet`]
/// computes the sides): a cheap first half of its test.
#[inline]
fn straddles_line_of(edge: Segment, other: Segment) -> bool {
    let along_other = other.b - other.a;
    let a_side = along_other.perp_dot(edge.a - other.a);
    let b_side = along_other.perp_dot(edge.b - other.a);
    !((a_side > 0.0 && b_side > 0.0) || (a_side < 0.0 && b_side < 0.0))
}

/// A polygon's vertices four at a time (x and y apart), so that the sides of all of them
/// relative to a line are found with a few vector operations: for polygons of at most
/// [`VertexLanes::MAX_VERTICES`] vertices, one bit each.
struct VertexLanes(SmallVec<[(Vec4, Vec4); 16]>);

impl VertexLanes {
    const MAX_VERTICES: usize = 64;

    #[inline]
    fn of(vertices: &[Vec2]) -> Option<Self> {
        (vertices.len() <= Self::MAX_VERTICES).then(|| {
            Self(
                vertices
                    .chunks(4)
                    .map(|chunk| {
                        let (mut x, mut y) = (Vec4::ZERO, Vec4::ZERO);
                        for (lane, vertex) in chunk.iter().enumerate() {
                            x[lane] = vertex.x;
                            y[lane] = vertex.y;
                        }
                        (x, y)
                    })
                    .collect(),
            )
        })
    }

    /// Bit `k` set for each edge `k` (vertex `k` to `k + 1`) of the `count` vertices whose ends
    /// are not strictly on one side of `line`'s line.
    #[inline]
    fn straddling(&self, count: usize, line: Segment) -> u64 {
        // Each vertex's side as a bit, computed exactly as `perp_dot` does.
        let direction = line.b - line.a;
        let (mut above, mut below) = (0u64, 0u64);
        let (dx, dy) = (Vec4::splat(direction.x), Vec4::splat(direction.y));
        let (ax, ay) = (Vec4::splat(line.a.x), Vec4::splat(line.a.y));
        for (chunk, &(x, y)) in self.0.iter().enumerate() {
            let side = dx * (y - ay) - dy * (x - ax);
            above |= u64::from(side.cmpgt(Vec4::ZERO).bitmask()) << (4 * chunk);
            below |= u64::from(side.cmplt(Vec4::ZERO).bitmask()) << (4 * chunk);
        }
        let used = u64::MAX >> (64 - count);
        let (above, below) = (above & used, below & used);
        // Rotating a mask by one pairs each edge's two ends.
        let next = |mask: u64| (mask >> 1) | ((mask & 1) << (count - 1));
        let apart = (above & next(above)) | (below & next(below));
        !apart & used
    }
}

/// The edges of a polygon that straddle a line, in order: from the bit mask of
/// [`VertexLanes::straddling`], or for larger polygons by walking the vertices.
enum Straddling<'a> {
    Mask(u64),
    Walk {
        vertices: &'a [Vec2],
        line: Segment,
        next: usize,
        previous_side: f32,
    },
}

impl<'a> Straddling<'a> {
    #[inline]
    fn new(vertices: &'a [Vec2], lanes: Option<&VertexLanes>, line: Segment) -> Self {
        match lanes {
            Some(lanes) => {
                let mask = lanes.straddling(vertices.len(), line);
                // The edges as `edges` gives them: a two-vertex polyline has one edge, not that
                // edge and its reverse (which rounding could see differently). (Only polygons
                // of more than 64 vertices walk.)
                Self::Mask(if vertices.len() == 2 { mask & 1 } else { mask })
            }
            None => Self::Walk {
                vertices,
                line,
                next: 0,
                previous_side: side_of(line, vertices[0]),
            },
        }
    }
}

/// Which side of `line`'s line `point` lies on (its sign), as [`segments_meet`] computes it.
#[inline]
fn side_of(line: Segment, point: Vec2) -> f32 {
    (line.b - line.a).perp_dot(point - line.a)
}

impl Iterator for Straddling<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        match self {
            Self::Mask(mask) => (*mask != 0).then(|| {
                let k = mask.trailing_zeros() as usize;
                *mask &= *mask - 1;
                k
            }),
            Self::Walk {
                vertices,
                line,
                next,
                previous_side,
            } => {
                let count = vertices.len();
                while *next < count {
                    let k = *next;
                    *next += 1;
                    let next_side = side_of(*line, vertices[next_vertex(k, count)]);
                    let apart = (*previous_side > 0.0 && next_side > 0.0)
                        || (*previous_side < 0.0 && next_side < 0.0);
                    *previous_side = next_side;
                    if !apart {
                        return Some(k);
                    }
                }
                None
            }
        }
    }
}

/// Where `edge` crosses `other`, as a parameter along `edge`, when they cross properly: each
/// one's ends strictly on opposite sides of the other's line, and neither lying along the other
/// within `tolerance` (which [`push_crossings`] would report as a shared piece). `None` sends
/// every other case to [`push_crossings`].
#[inline]
fn proper_crossing(edge: Segment, other: Segment, tolerance: f32) -> Option<f32> {
    let (along_edge, along_other) = (edge.b - edge.a, other.b - other.a);
    let other_a_side = along_edge.perp_dot(other.a - edge.a);
    let other_b_side = along_edge.perp_dot(other.b - edge.a);
    let edge_a_side = along_other.perp_dot(edge.a - other.a);
    let edge_b_side = along_other.perp_dot(edge.b - other.a);
    let opposite = |p: f32, q: f32| (p < 0.0 && q > 0.0) || (p > 0.0 && q < 0.0);
    // A side value is a distance times the line's length. Compared with the tolerance times
    // the length, not squared: squares of huge or tiny shapes leave `f32`'s range.
    let off_line = |p: f32, q: f32, line: Vec2| p.abs().max(q.abs()) > tolerance * line.length();
    (opposite(other_a_side, other_b_side)
        && opposite(edge_a_side, edge_b_side)
        && off_line(other_a_side, other_b_side, along_edge)
        && off_line(edge_a_side, edge_b_side, along_other))
    .then(|| edge_a_side / (edge_a_side - edge_b_side))
}

/// The points found so far, gathered edge by edge of the first polygon: those of the current
/// edge wait in `on_edge` (with their distance along it, times its length) to be sorted along
/// it, as the second polygon's edges come in their own order.
#[derive(Default)]
struct AlongEdges {
    points: Points,
    on_edge: SmallVec<[(f32, Vec2); 4]>,
    current_edge: Option<usize>,
    /// Scratch for one edge pair's points.
    crossings: Points,
    /// The pieces along which the outlines run together.
    pieces: SmallVec<[Segment; 2]>,
}

impl AlongEdges {
    /// Starts edge `index` if it is not the current one.
    #[inline]
    fn enter(&mut self, index: usize, tolerance: f32) {
        if self.current_edge != Some(index) {
            self.flush(tolerance);
            self.current_edge = Some(index);
        }
    }

    /// The point at parameter `t` along `edge` (number `index`).
    #[inline]
    fn push_at(&mut self, index: usize, edge: Segment, t: f32, tolerance: f32) {
        self.enter(index, tolerance);
        let direction = edge.b - edge.a;
        self.on_edge
            .push((t * direction.length_squared(), edge.a + direction * t));
    }

    /// Where `edge` (number `index`) and `other` meet, by the general test.
    fn push_crossings(&mut self, index: usize, edge: Segment, other: Segment, tolerance: f32) {
        self.enter(index, tolerance);
        self.crossings.clear();
        self.pieces
            .extend(push_crossings(edge, other, tolerance, &mut self.crossings));
        let direction = edge.b - edge.a;
        self.on_edge.extend(
            self.crossings
                .iter()
                .map(|&point| (direction.dot(point - edge.a), point)),
        );
    }

    /// Appends the current edge's points, sorted along it, without near-duplicates.
    fn flush(&mut self, tolerance: f32) {
        self.on_edge
            .sort_unstable_by(|(p, _), (q, _)| p.total_cmp(q));
        for (_, point) in self.on_edge.drain(..) {
            push_unique(&mut self.points, point, tolerance);
        }
    }

    /// Every point, in order along the first polygon's outline, once.
    fn finish(mut self, tolerance: f32) -> Points {
        self.flush(tolerance);
        drop_near_duplicates(&mut self.points, tolerance);
        drop_straight_joins(&mut self.points, &self.pieces, tolerance);
        self.points
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A star of `points` spikes: many edges on both sides of most lines.
    fn star(points: usize) -> Vec<Vec2> {
        (0..2 * points)
            .map(|i| {
                let radius = if i % 2 == 0 { 10.0 } else { 4.0 };
                Vec2::from_angle(i as f32 * core::f32::consts::PI / points as f32) * radius
            })
            .collect()
    }

    #[test]
    fn the_bit_mask_and_the_walk_pick_the_same_edges() {
        for points in [2, 5, 16, 32] {
            let vertices = star(points);
            let lanes = VertexLanes::of(&vertices).expect("at most 64 vertices");
            for line in [
                Segment::new(Vec2::new(-20.0, 1.0), Vec2::new(20.0, 2.0)),
                Segment::new(Vec2::new(3.0, -20.0), Vec2::new(3.0, 20.0)),
                // Through vertices: sides of exactly zero count as straddling.
                Segment::new(Vec2::ZERO, vertices[0]),
                Segment::new(Vec2::new(30.0, 30.0), Vec2::new(31.0, 30.0)),
            ] {
                let masked: Vec<usize> = Straddling::new(&vertices, Some(&lanes), line).collect();
                let walked: Vec<usize> = Straddling::new(&vertices, None, line).collect();
                assert_eq!(masked, walked, "{points} spikes, {line:?}");
            }
        }
    }

    #[test]
    fn only_large_polygons_walk() {
        assert!(VertexLanes::of(&star(32)).is_some());
        assert!(VertexLanes::of(&star(33)).is_none());
    }
}
