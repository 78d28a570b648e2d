//! Polygon–circle: a solid polygon, convex or concave, against a solid circle.

use super::edge_lines::{self, EdgeLines};
use super::point::{crosses_ray, nearest_outline_point};
use super::segment_circle::push_crossings;
use super::{
    Circle, Containment, Intersection, Points, Segment, TOLERANCE, all_in_range,
    bounds::polygon_size, drop_near_duplicates, edges, next_vertex,
};
use bevy::math::Vec2;

/// Whether a solid polygon and a solid circle overlap: an edge comes within `r` of the centre, or
/// the centre lies inside the polygon (crossing number).
///
/// Together the two tests cover both containments: a polygon inside the circle has its edges
/// within `r`, a circle inside the polygon has its centre inside. No square root; for most
/// polygons every edge is classified at once, near the circle or clearly beyond it, and only
/// the near ones get the exact distance. A negative radius or non-finite input gives `false`.
#[inline]
pub fn overlap_polygon_circle(vertices: &[Vec2], circle: Circle) -> bool {
    if !(circle.is_valid() && all_in_range(vertices)) {
        return false;
    }
    let radius_squared = circle.radius * circle.radius;
    let within = |edge: Segment| edge.distance_squared_to(circle.center) <= radius_squared;
    if let Some((near, inside)) = near_edges(vertices, circle.center, radius_squared) {
        // As `intersect_polygon_circle` visits them: every edge classified at once, then the
        // exact distance to the near ones only.
        return flagged_edges(vertices, near).any(within) || inside;
    }
    let mut inside = false;
    for edge in edges(vertices) {
        inside ^= crosses_ray(circle.center, edge.a, edge.b);
        if !edge.clearly_beyond(circle.center, radius_squared) && within(edge) {
            return true;
        }
    }
    inside && vertices.len() >= 3
}

/// The points where a polygon's edges cross or touch a circumference, ordered along the
/// polygon's outline; or, when they do not meet, which shape holds the other.
///
/// A vertex lying on the circle is reported once. With no points, the polygon is inside the circle
/// ([`Containment::FirstInSecond`]) when its vertices are, and the circle inside the polygon
/// ([`Containment::SecondInFirst`]) when its centre is: in a concave polygon's pocket, not its
/// notch.
pub fn intersect_polygon_circle(vertices: &[Vec2], circle: Circle) -> Option<Intersection> {
    if !(circle.is_valid() && all_in_range(vertices)) {
        return None;
    }
    crossings(vertices, circle, || polygon_size(vertices), None)
}

/// A polygon whose vertices lie within range and whose [`polygon_size`] is known: one the
/// pipeline placed, checked and measured once a frame rather than once a pair.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MeasuredPolygon<'a> {
    /// Its vertices, in the world.
    pub vertices: &'a [Vec2],
    /// [`polygon_size`] of the vertices.
    pub size: f32,
    /// Its edges' lines ([`push_edge_lines`](super::push_edge_lines)), perhaps followed by
    /// others'; empty for a polygon without.
    pub lines: &'a [EdgeLines],
}

/// [`intersect_polygon_circle`] for a polygon already checked and measured, and a circle
/// already checked: both placed by the pipeline.
#[inline]
pub(crate) fn intersect_measured_polygon_circle(
    polygon: MeasuredPolygon,
    circle: Circle,
) -> Option<Intersection> {
    debug_assert!(all_in_range(polygon.vertices));
    debug_assert_eq!(polygon.size, polygon_size(polygon.vertices));
    debug_assert!(circle.is_valid());
    let lines = polygon.lines.get(..polygon.vertices.len().div_ceil(4));
    let lines = lines.map(|lines| (lines, polygon.size));
    crossings(polygon.vertices, circle, || polygon.size, lines)
}

/// [`intersect_polygon_circle`] past its checks of the input; `size` gives the polygon's
/// [`polygon_size`], asked only when an edge reaches the circle; `lines`, the polygon's edges'
/// lines with its size, which tell the edges near the circle at less cost.
#[inline]
fn crossings(
    vertices: &[Vec2],
    circle: Circle,
    size: impl Fn() -> f32,
    lines: Option<(&[EdgeLines], f32)>,
) -> Option<Intersection> {
    // With the overlap test's own predicates (so the two always agree): edges within `r` of
    // the centre give the crossings, the ray's parity says whether the centre is inside.
    let radius_squared = circle.radius * circle.radius;
    let mut tolerance = None;
    let mut points = Points::new();
    let mut touched = false;
    let within = |edge: &Segment| edge.distance_squared_to(circle.center) <= radius_squared;
    // An edge within reach: its crossings.
    let mut touch = |edge: Segment| {
        touched = true;
        let tolerance = match tolerance {
            Some(tolerance) => tolerance,
            None => *tolerance.insert(TOLERANCE * (size() + circle.radius)),
        };
        push_crossings(edge, circle, tolerance, &mut points);
    };
    // Whether the centre is inside, if known yet.
    let center_inside = match lines {
        // Most edges are clearly out of reach, and in most pairs every edge is (a bullet deep
        // inside, or a near miss): only the others, in order, get the exact distance.
        Some((lines, polygon_size)) => {
            let near = edge_lines::near_edges(lines, circle, polygon_size);
            // The lines flag every edge within reach (and a few more); the other ways visit the
            // edges not clearly beyond. Within reach, the two differ only where the squares
            // lose their precision: such an edge is left out, as the other ways leave it.
            flagged_edges(vertices, near)
                .filter(|edge| edge.reaches(circle.center, radius_squared))
                .for_each(touch);
            // Asked below only when no edge reached the circle.
            None
        }
        None => match near_edges(vertices, circle.center, radius_squared) {
            Some((near, center_inside)) => {
                flagged_edges(vertices, near).filter(within).for_each(touch);
                Some(center_inside)
            }
            None => {
                let mut center_inside = false;
                for edge in edges(vertices) {
                    center_inside ^= crosses_ray(circle.center, edge.a, edge.b);
                    // A cheaper test first.
                    if !edge.clearly_beyond(circle.center, radius_squared) && within(&edge) {
                        touch(edge);
                    }
                }
                Some(center_inside)
            }
        },
    };
    if let Some(tolerance) = tolerance {
        drop_near_duplicates(&mut points, tolerance);
    }
    if !points.is_empty() {
        return Some(Intersection::crossing(points));
    }
    if touched {
        // Edges reach into the disc without crossing its circumference: the whole outline is
        // inside it. (Failing that, rounding hid a touch: report the nearest outline point.)
        let inside = |&vertex: &Vec2| super::point_in_circle(vertex, circle);
        return Some(if vertices.iter().all(inside) {
            Intersection::contained(Containment::FirstInSecond)
        } else {
            Intersection::crossing(Points::from_slice(&[nearest_outline_point(
                vertices,
                circle.center,
            )]))
        });
    }
    let center_inside =
        center_inside.unwrap_or_else(|| super::point_in_polygon_unchecked(circle.center, vertices));
    (center_inside && vertices.len() >= 3)
        .then(|| Intersection::contained(Containment::SecondInFirst))
}

/// The most vertices [`near_edges`] takes: one bit per edge in a `u64`.
const MOST_FLAGGED: usize = 64;
const _: () = assert!(
    MOST_FLAGGED.is_multiple_of(8),
    "pack_flags reads eight at a time"
);

/// For a polygon of 3 to [`MOST_FLAGGED`] vertices, the edges that are not
/// [clearly beyond](Segment::clearly_beyond) the circle around `center` (bit `i` for the edge
/// from vertex `i`), and whether `center` is inside (crossing number); `None` for other
/// polygons. Each edge is classified without a branch, in a loop the compiler vectorises: it
/// visits the closing edge first, as the edge ending at vertex 0.
#[inline]
fn near_edges(vertices: &[Vec2], center: Vec2, radius_squared: f32) -> Option<(u64, bool)> {
    let count = vertices.len();
    if !(3..=MOST_FLAGGED).contains(&count) {
        return None;
    }
    // `ends_near[i]`: the edge ending at vertex `i`.
    let mut ends_near = [false; MOST_FLAGGED];
    let mut inside = false;
    let mut previous = vertices[count - 1];
    for (flag, &vertex) in ends_near.iter_mut().zip(vertices) {
        inside ^= crosses_ray(center, previous, vertex);
        *flag = !Segment::new(previous, vertex).clearly_beyond(center, radius_squared);
        previous = vertex;
    }
    let ends = pack_flags(&ends_near, count);
    // The edge from vertex `i` ends at vertex `i + 1`; the closing edge, from the last vertex,
    // at vertex 0.
    let from = (ends >> 1) | ((ends & 1) << (count - 1));
    Some((from, inside))
}

/// The first `count` of `flags` (those past it clear) as the low bits of a word (bit `i` for
/// `flags[i]`), eight at a time: eight flags read as the bytes of a word, each 0 or 1, are gathered
/// into its top byte by one product (byte `i` lands on bit `56 + i`, and no two of the product's
/// terms share a bit, so nothing carries).
#[inline]
fn pack_flags(flags: &[bool; MOST_FLAGGED], count: usize) -> u64 {
    const GATHER: u64 = 0x0102_0408_1020_4080;
    debug_assert!(
        flags[count..].iter().all(|&flag| !flag),
        "flags past count are clear"
    );
    let mut bits = 0;
    for (index, chunk) in flags.chunks_exact(8).take(count.div_ceil(8)).enumerate() {
        let bytes = u64::from_le_bytes(core::array::from_fn(|byte| u8::from(chunk[byte])));
        bits |= (bytes.wrapping_mul(GATHER) >> 56) << (8 * index);
    }
    // The rest of the last eight are past `count`, and clear.
    bits
}

/// The edges whose bits are set in `flags` (bit `i` for the edge from vertex `i`, as
/// [`near_edges`] gives them), in outline order.
#[inline]
pub(super) fn flagged_edges(
    vertices: &[Vec2],
    mut flags: u64,
) -> impl Iterator<Item = Segment> + '_ {
    core::iter::from_fn(move || {
        let index = (flags != 0).then(|| flags.trailing_zeros() as usize)?;
        flags &= flags - 1;
        Some(Segment::new(
            vertices[index],
            vertices[next_vertex(index, vertices.len())],
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::point_in_polygon;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// `near_edges` against the edges visited one by one, in [`edges`] order: the same edges
    /// flagged (bit `i` for the edge from vertex `i`), the same parity as the crossing number,
    /// over random polygons (concave and self-touching ones too) of every size it takes.
    #[test]
    fn near_edges_are_the_edges_not_clearly_beyond() {
        let mut rng = StdRng::seed_from_u64(7);
        for _ in 0..20_000 {
            let count = rng.random_range(3..=MOST_FLAGGED);
            let vertices: Vec<Vec2> = (0..count)
                .map(|_| Vec2::new(rng.random_range(-10.0..10.0), rng.random_range(-10.0..10.0)))
                .collect();
            let center = Vec2::new(rng.random_range(-12.0..12.0), rng.random_range(-12.0..12.0));
            let radius_squared = rng.random_range(0.0f32..4.0).powi(2);
            let expected = edges(&vertices)
                .enumerate()
                .filter(|(_, edge)| !edge.clearly_beyond(center, radius_squared))
                .fold(0u64, |bits, (index, _)| bits | 1 << index);
            assert_eq!(
                near_edges(&vertices, center, radius_squared),
                Some((expected, point_in_polygon(center, &vertices))),
                "{vertices:?} around {center}"
            );
        }
    }

    /// Packed eight at a time, the flags are the bits set one by one.
    #[test]
    fn flags_pack_into_their_bits() {
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..10_000 {
            let count = rng.random_range(3..=MOST_FLAGGED);
            let mut flags = [false; MOST_FLAGGED];
            for flag in &mut flags[..count] {
                *flag = rng.random_bool(0.5);
            }
            let expected = (0..count).fold(0u64, |bits, i| bits | u64::from(flags[i]) << i);
            assert_eq!(pack_flags(&flags, count), expected, "{count}: {flags:?}");
        }
        assert_eq!(pack_flags(&[true; MOST_FLAGGED], MOST_FLAGGED), u64::MAX);
    }

    /// With its edges' lines, a measured polygon meets a circle exactly where it does without:
    /// over random polygons, convex and not, near the origin and far from it, and discs near
    /// their outlines, inside and out, down to points a ten-millionth of their size away, each
    /// pair scaled by a power of two from 2⁻⁶⁰ to 2⁴⁰; and over points 1e-24 to 1e-21 off an
    /// edge, where squares underflow.
    #[test]
    fn edge_lines_change_no_answer() {
        use crate::geometry::{push_edge_lines, runs_anticlockwise};
        use core::f32::consts::TAU;
        let same_answer = |vertices: &[Vec2], circle: Circle| {
            let mut lines = Vec::new();
            let usable = all_in_range(vertices) && circle.is_valid();
            if !(usable && push_edge_lines(vertices, runs_anticlockwise(vertices), &mut lines)) {
                return None;
            }
            let measured = MeasuredPolygon {
                vertices,
                size: polygon_size(vertices),
                lines: &lines,
            };
            let expected = intersect_polygon_circle(vertices, circle);
            assert_eq!(
                intersect_measured_polygon_circle(measured, circle),
                expected,
                "{vertices:?}, {circle:?}"
            );
            Some(expected.is_some())
        };
        let mut rng = StdRng::seed_from_u64(23);
        let mut met = 0;
        for _ in 0..50_000 {
            let count = rng.random_range(3..=MOST_FLAGGED);
            let star = rng.random_bool(0.3);
            let size = 10f32.powf(rng.random_range(-1.0..3.0));
            let far = if rng.random_bool(0.5) { 10.0 } else { 1e5 };
            let center = Vec2::new(rng.random_range(-far..far), rng.random_range(-far..far));
            let corners: Vec<Vec2> = (0..count)
                .map(|i| {
                    let spoke = if star && i % 2 == 1 { 0.4 } else { 1.0 };
                    let angle = i as f32 * TAU / count as f32 + rng.random_range(0.0..0.1);
                    center + Vec2::from_angle(angle) * size * spoke
                })
                .collect();
            let corner = corners[rng.random_range(0..count)];
            let scale = 10f32.powf(rng.random_range(-7.0..0.5)) * size;
            let offset = Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
            let place = corner.lerp(center, rng.random_range(-0.2..1.0)) + offset * scale;
            let radius = if rng.random_bool(0.1) {
                0.0
            } else {
                scale * rng.random_range(0.0..2.0)
            };
            // Scaled by a power of two, which keeps every rounding, down to where squares
            // underflow and up to the range's end.
            let power = 2f32.powi(rng.random_range(-60..=40));
            let vertices: Vec<Vec2> = corners.iter().map(|&v| v * power).collect();
            let circle = Circle::new(place * power, radius * power);
            met += usize::from(same_answer(&vertices, circle) == Some(true));
        }
        assert!(met > 10_000, "{met} met");
        // Points a hair off an edge, where the squares underflow.
        let triangle = [
            Vec2::new(-50.0, 0.0),
            Vec2::new(50.0, 0.0),
            Vec2::new(0.0, 50.0),
        ];
        let tiny = [Vec2::ZERO, Vec2::new(1e-18, 0.0), Vec2::new(0.0, 1e-18)];
        for (vertices, point) in [
            (triangle, Vec2::new(0.0, 1e-23)),
            (triangle, Vec2::new(0.0, -1e-23)),
            (tiny, Vec2::new(5e-19, 2e-23)),
            (tiny, Vec2::new(5e-19, -2e-23)),
        ] {
            assert!(same_answer(&vertices, Circle::new(point, 0.0)).is_some());
        }
        for gap in [1e-24, 1e-23, 1e-22, 1e-21] {
            for (vertices, point) in [(triangle, Vec2::ZERO), (tiny, Vec2::new(5e-19, 0.0))] {
                for off in [gap, -gap] {
                    let point = point + Vec2::new(0.0, off);
                    assert!(same_answer(&vertices, Circle::new(point, 0.0)).is_some());
                }
            }
        }
    }

    #[test]
    fn polygons_it_does_not_take_are_visited_one_by_one() {
        let many: Vec<Vec2> = (0..=MOST_FLAGGED)
            .map(|i| Vec2::from_angle(i as f32 * 0.09) * 10.0)
            .collect();
        assert_eq!(near_edges(&many, Vec2::ZERO, 1.0), None);
        assert_eq!(near_edges(&many[..2], Vec2::ZERO, 1.0), None);
        // A bullet deep inside a polygon too large for the bits still gets its answer.
        assert_eq!(
            intersect_polygon_circle(&many, Circle::new(Vec2::ZERO, 1.0)),
            Some(Intersection::contained(Containment::SecondInFirst))
        );
    }
}
