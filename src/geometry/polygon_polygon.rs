//! Polygon–polygon: two solid polygons, each convex or concave.

use super::bounds::BoundingBox;
use super::segment_segment::{push_crossings, segments_meet};
use super::{
    Containment, Intersection, Points, Segment, TOLERANCE, all_in_range, edges, point_in_polygon,
    push_unique,
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
    met || point_in_polygon(first[0], second) || point_in_polygon(second[0], first)
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
    let mut points = Points::new();
    let mut on_edge: SmallVec<[(f32, Vec2); 4]> = SmallVec::new();
    let mut current_edge = usize::MAX;
    let mut crossings = Points::new();
    for_each_meeting_pair(first, second, second_box, |index, edge, other| {
        first_meeting.get_or_insert((edge, other));
        if index != current_edge {
            flush_along_edge(&mut on_edge, &mut points, tolerance);
            current_edge = index;
        }
        let direction = edge.b - edge.a;
        if let Some(t) = proper_crossing(edge, other, tolerance) {
            // The common case, without the general machinery.
            on_edge.push((t * direction.length_squared(), edge.a + direction * t));
        } else {
            crossings.clear();
            push_crossings(edge, other, tolerance, &mut crossings);
            on_edge.extend(
                crossings
                    .iter()
                    .map(|&point| (direction.dot(point - edge.a), point)),
            );
        }
        ControlFlow::Continue(())
    });
    flush_along_edge(&mut on_edge, &mut points, tolerance);
    if !points.is_empty() {
        return Some(Intersection::crossing(points));
    }
    if let Some((edge, other)) = first_meeting {
        // The exact test saw a touch that rounding hid from the tolerant one.
        return Some(Intersection::crossing(Points::from_slice(&[
            edge.nearest_point_between(other)
        ])));
    }
    let (inner, outer, containment) = if point_in_polygon(first[0], second) {
        (first, second, Containment::FirstInSecond)
    } else if point_in_polygon(second[0], first) {
        (second, first, Containment::SecondInFirst)
    } else {
        return None;
    };
    // No edge met, so the inner polygon is wholly inside, and the outer one's first vertex
    // cannot be inside it; if it is, the outlines pass a hair apart at a vertex, where rounding
    // parted the two tests, and the tolerant test finds where.
    if !point_in_polygon(outer[0], inner) {
        return Some(Intersection::contained(containment));
    }
    for edge in edges(first) {
        for other in edges(second) {
            push_crossings(edge, other, tolerance, &mut points);
        }
    }
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
/// An edge of `second` whose ends lie strictly on one side of `edge`'s line cannot meet it;
/// the side values are computed exactly as [`segments_meet`] computes them, so skipping such
/// pairs never changes a verdict.
#[inline]
fn for_each_meeting_pair(
    first: &[Vec2],
    second: &[Vec2],
    second_box: BoundingBox,
    mut visit: impl FnMut(usize, Segment, Segment) -> ControlFlow<()>,
) {
    let count = second.len();
    // `second`'s vertices four at a time (x and y apart), so that the sides of all of them are
    // found with a few vector operations per edge of `first`.
    let mut lanes: SmallVec<[(Vec4, Vec4); 16]> = SmallVec::new();
    if count <= 64 {
        lanes.extend(second.chunks(4).map(|chunk| {
            let (mut x, mut y) = (Vec4::ZERO, Vec4::ZERO);
            for (lane, vertex) in chunk.iter().enumerate() {
                x[lane] = vertex.x;
                y[lane] = vertex.y;
            }
            (x, y)
        }));
    }
    for (index, edge) in edges(first).enumerate() {
        if !second_box.overlaps(&BoundingBox::of_segment(edge)) {
            continue;
        }
        let direction = edge.b - edge.a;
        let other = |k: usize| Segment::new(second[k], second[(k + 1) % count]);
        // `other` straddles `edge`'s line (the caller checked); if `edge` lies strictly on one
        // side of `other`'s line they cannot meet. Computed as `segments_meet` computes it, so
        // this only saves work.
        let mut test = |k: usize| {
            let other = other(k);
            let along_other = other.b - other.a;
            let (a_side, b_side) = (
                along_other.perp_dot(edge.a - other.a),
                along_other.perp_dot(edge.b - other.a),
            );
            let apart = (a_side > 0.0 && b_side > 0.0) || (a_side < 0.0 && b_side < 0.0);
            !apart && segments_meet(edge, other) && visit(index, edge, other).is_break()
        };
        if count <= 64 {
            // Each vertex's side of `edge`'s line as a bit, computed exactly as `cross` does;
            // edge `k` runs from vertex `k` to vertex `k + 1`, so rotating the masks by one
            // pairs its ends.
            let (mut above, mut below) = (0u64, 0u64);
            let (dx, dy) = (Vec4::splat(direction.x), Vec4::splat(direction.y));
            let (ax, ay) = (Vec4::splat(edge.a.x), Vec4::splat(edge.a.y));
            for (chunk, &(x, y)) in lanes.iter().enumerate() {
                let side = dx * (y - ay) - dy * (x - ax);
                above |= u64::from(side.cmpgt(Vec4::ZERO).bitmask()) << (4 * chunk);
                below |= u64::from(side.cmplt(Vec4::ZERO).bitmask()) << (4 * chunk);
            }
            let used = u64::MAX >> (64 - count);
            let (above, below) = (above & used, below & used);
            let next = |mask: u64| (mask >> 1) | ((mask & 1) << (count - 1));
            let apart = (above & next(above)) | (below & next(below));
            let mut candidates = !apart & used;
            while candidates != 0 {
                let k = candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                if test(k) {
                    return;
                }
            }
        } else {
            let side = |vertex: Vec2| direction.perp_dot(vertex - edge.a);
            let mut previous_side = side(second[0]);
            for k in 0..count {
                let next_side = side(second[(k + 1) % count]);
                let apart = (previous_side > 0.0 && next_side > 0.0)
                    || (previous_side < 0.0 && next_side < 0.0);
                if !apart && test(k) {
                    return;
                }
                previous_side = next_side;
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
    // A side value is a distance times the line's length: compare squares, no square root.
    let tolerance_squared = tolerance * tolerance;
    let off_line = |p: f32, q: f32, line: Vec2| {
        let farthest = p.abs().max(q.abs());
        farthest * farthest > tolerance_squared * line.length_squared()
    };
    (opposite(other_a_side, other_b_side)
        && opposite(edge_a_side, edge_b_side)
        && off_line(other_a_side, other_b_side, along_edge)
        && off_line(edge_a_side, edge_b_side, along_other))
    .then(|| edge_a_side / (edge_a_side - edge_b_side))
}

/// Appends the points found on one edge, sorted along it, without near-duplicates.
fn flush_along_edge(on_edge: &mut SmallVec<[(f32, Vec2); 4]>, points: &mut Points, tolerance: f32) {
    // Usually one or two points: an insertion sort.
    for i in 1..on_edge.len() {
        let mut j = i;
        while j > 0 && on_edge[j - 1].0 > on_edge[j].0 {
            on_edge.swap(j - 1, j);
            j -= 1;
        }
    }
    for (_, point) in on_edge.drain(..) {
        push_unique(points, point, tolerance);
    }
}
