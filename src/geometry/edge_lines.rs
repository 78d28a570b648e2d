//! The lines of a polygon's edges, four at a time: a disc's distance to each edge's line tells
//! at once which edges it may reach, and a point beyond one line by more than the polygon
//! reaches past it lies outside the polygon.

use super::{Circle, MAX_COORDINATE, MIN_SIZE};
use bevy::math::{BVec4A, Vec2, Vec4};

/// The most vertices a polygon's [`EdgeLines`] are made for: one bit per edge in a `u64`.
pub(crate) const MOST_LINED: usize = 64;

/// Four edges' lines, lane `i` for the `i`th: the edge's unit normal, pointing out of the
/// polygon (away from the side its inside lies on), how far along it the line lies from the
/// origin, and how far the polygon reaches past the line, out. A point lies
/// `normal · point − offset` beyond the line (a negative distance: on the inner side), and a
/// point beyond it by more than its overhang lies outside the polygon. An edge on the polygon's
/// convex hull (every edge of a convex polygon) has no overhang, to rounding; an edge of a
/// notch has the notch's depth. A lane past the polygon's last edge has no normal and an
/// infinite offset: every point lies infinitely far from it, on its inner side.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeLines {
    /// The normals' `x`, lane by lane.
    normal_x: Vec4,
    /// The normals' `y`.
    normal_y: Vec4,
    /// How far along its normal each line lies from the origin.
    offset: Vec4,
    /// How far the polygon's vertices reach past each line, out: the polygon lies within its
    /// vertices' hull, so no point of it reaches farther.
    overhang: Vec4,
}

/// Whether the outline of the simple polygon `vertices` runs anticlockwise (a positive area,
/// summed from its first vertex so that far from the origin the sum keeps its precision): its
/// inside lies on the left of each edge.
pub(crate) fn runs_anticlockwise(vertices: &[Vec2]) -> bool {
    let Some(&first) = vertices.first() else {
        return false;
    };
    let area: f32 = vertices
        .iter()
        .zip(vertices.iter().cycle().skip(1))
        .map(|(&from, &to)| (from - first).perp_dot(to - first))
        .sum();
    area > 0.0
}

/// Appends the lines of the edges of the simple polygon `vertices` (of 3 to [`MOST_LINED`]
/// vertices, convex or not), whose outline runs `anticlockwise` or not, in groups of four; or
/// appends nothing and returns `false` for a polygon it does not take, or one with an edge so
/// short that its length's square underflows (whose normal would round far off). A winding
/// given the wrong way round turns the normals in and makes the overhangs the polygon's
/// width: every answer stays true, and fewer points are found beyond a line.
pub(crate) fn push_edge_lines(
    vertices: &[Vec2],
    anticlockwise: bool,
    lines: &mut Vec<EdgeLines>,
) -> bool {
    let count = vertices.len();
    if !(3..=MOST_LINED).contains(&count) {
        return false;
    }
    // The edge's direction turned a quarter clockwise for an outline that runs anticlockwise
    // (its inside on its left), the other way otherwise: the outward normal.
    let outward = Vec4::splat(if anticlockwise { 1.0 } else { -1.0 });
    let start = lines.len();
    for first in (0..count).step_by(4) {
        // The ends of four edges, one to a lane, then their lines four at a time.
        let (mut from_x, mut from_y, mut to_x, mut to_y) = ([0.0; 4], [0.0; 4], [0.0; 4], [0.0; 4]);
        let lanes = (count - first).min(4);
        for lane in 0..lanes {
            let (from, to) = (first + lane, first + lane + 1);
            let (a, b) = (vertices[from], vertices[if to == count { 0 } else { to }]);
            (from_x[lane], from_y[lane], to_x[lane], to_y[lane]) = (a.x, a.y, b.x, b.y);
        }
        let (from_x, from_y) = (Vec4::from_array(from_x), Vec4::from_array(from_y));
        let (along_x, along_y) = (
            Vec4::from_array(to_x) - from_x,
            Vec4::from_array(to_y) - from_y,
        );
        let length_squared = along_x * along_x + along_y * along_y;
        let used = BVec4A::from_array(core::array::from_fn(|lane| lane < lanes));
        let usable = length_squared.cmpge(Vec4::splat(f32::MIN_POSITIVE))
            & length_squared.cmplt(Vec4::INFINITY);
        if !(usable | !used).all() {
            lines.truncate(start);
            return false;
        }
        let length = outward * length_squared.sqrt();
        let (normal_x, normal_y) = (along_y / length, -along_x / length);
        let offset = normal_x * from_x + normal_y * from_y;
        let mut group = EdgeLines {
            normal_x: Vec4::select(used, normal_x, Vec4::ZERO),
            normal_y: Vec4::select(used, normal_y, Vec4::ZERO),
            offset: Vec4::select(used, offset, Vec4::INFINITY),
            overhang: Vec4::ZERO,
        };
        // Measured as `beyond_lines` measures a point: no vertex lies past its overhang.
        let farthest = vertices
            .iter()
            .fold(Vec4::NEG_INFINITY, |farthest, &vertex| {
                farthest.max(group.past(vertex))
            });
        group.overhang = Vec4::select(used, farthest, Vec4::ZERO);
        lines.push(group);
    }
    true
}

impl EdgeLines {
    /// How far `point` lies beyond each line, out of the polygon.
    #[inline(always)]
    fn past(&self, point: Vec2) -> Vec4 {
        let (x, y) = (Vec4::splat(point.x), Vec4::splat(point.y));
        self.normal_x * x + self.normal_y * y - self.offset
    }
}

/// For each of `points`, the edges whose lines it lies beyond by more than their overhang and
/// `reach` (bit `i` for the edge from vertex `i`), of a polygon whose edges' lines are `lines`
/// (as [`push_edge_lines`] made them): a disc of radius up to `reach` there lies clear of the
/// polygon, once `reach` also covers the few units in the last place by which the distances
/// round. Four edges at a time, without a branch.
#[inline(always)]
pub(crate) fn beyond_lines<const N: usize>(
    lines: &[EdgeLines],
    points: [Vec2; N],
    reach: f32,
) -> [u64; N] {
    let reach = Vec4::splat(reach);
    let mut beyond = [0; N];
    for (group, lines) in lines.iter().enumerate() {
        for (beyond, point) in beyond.iter_mut().zip(points) {
            let clear = lines.past(point) - lines.overhang;
            *beyond |= u64::from(clear.cmpgt(reach).bitmask()) << (4 * group);
        }
    }
    beyond
}

/// The edges of a polygon, whose edges' lines are `lines` (as [`push_edge_lines`] made them)
/// and whose [`polygon_size`](super::polygon_size) is `size`, that the disc `circle` may reach
/// (bit `i` for the edge from vertex `i`).
///
/// An edge lies no nearer the centre than its line: it is flagged when its line lies within
/// the radius and a margin. The margin is ten parts in a million of the coordinates involved
/// (an edge within the radius lies within it of the centre, and no longer than twice the size,
/// and its line's distance rounds by far less), and at least [`MIN_SIZE`], below which the
/// exact distance's square underflows: every edge the exact test finds within the radius is
/// flagged. Four edges at a time, without a branch.
#[inline]
pub(crate) fn near_edges(lines: &[EdgeLines], circle: Circle, size: f32) -> u64 {
    debug_assert!(lines.len() <= MOST_LINED / 4);
    debug_assert!(size <= 2.0 * MAX_COORDINATE);
    let coordinates = circle.radius + circle.center.abs().max_element() + size;
    let margin = 1e-5 * coordinates + MIN_SIZE;
    let within = Vec4::splat(circle.radius + margin);
    let mut near = 0;
    for (group, lines) in lines.iter().enumerate() {
        let distance = lines.past(circle.center).abs();
        near |= u64::from(distance.cmple(within).bitmask()) << (4 * group);
    }
    near
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{edges, polygon_size};
    use core::f32::consts::TAU;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// [`push_edge_lines`] with the winding the vertices have.
    fn push_lines(vertices: &[Vec2], lines: &mut Vec<EdgeLines>) -> bool {
        push_edge_lines(vertices, runs_anticlockwise(vertices), lines)
    }

    /// A random polygon around a point anywhere in a wide range: convex (points on an ellipse
    /// at sorted angles, some a rounding apart) or a star, turned, in either order.
    fn polygon(rng: &mut StdRng) -> Vec<Vec2> {
        let count = rng.random_range(3..=MOST_LINED);
        let mut angles: Vec<f32> = (0..count).map(|_| rng.random_range(0.0..TAU)).collect();
        angles.sort_by(f32::total_cmp);
        let size = 10f32.powf(rng.random_range(-1.0..3.0));
        let stretch = rng.random_range(0.1..1.0);
        let star = rng.random_bool(0.3);
        let turn = Vec2::from_angle(rng.random_range(0.0..TAU));
        let far = if rng.random_bool(0.5) { 10.0 } else { 1e5 };
        let center = Vec2::new(rng.random_range(-far..far), rng.random_range(-far..far));
        let mut vertices: Vec<Vec2> = angles
            .iter()
            .enumerate()
            .map(|(index, &angle)| {
                let spoke = if star && index % 2 == 1 { 0.4 } else { 1.0 };
                let local = Vec2::new(angle.cos(), stretch * angle.sin()) * size * spoke;
                center + turn.rotate(local)
            })
            .collect();
        vertices.dedup();
        if rng.random_bool(0.5) {
            vertices.reverse();
        }
        vertices
    }

    /// A disc near the polygon's outline, inside or out, or a point.
    fn disc_near(rng: &mut StdRng, vertices: &[Vec2]) -> Circle {
        let corner = vertices[rng.random_range(0..vertices.len())];
        let next = vertices[rng.random_range(0..vertices.len())];
        let on_edge = corner.lerp(next, rng.random_range(0.0..1.0));
        let size = edges(vertices)
            .map(|edge| edge.a.distance(edge.b))
            .sum::<f32>();
        let offset = Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
        let scale = 10f32.powf(rng.random_range(-7.0..0.0)) * size;
        let radius = if rng.random_bool(0.2) {
            0.0
        } else {
            scale * rng.random_range(0.0..2.0)
        };
        Circle::new(on_edge + offset * scale, radius)
    }

    /// Every edge within the radius (by the exact test's own distance) is flagged, and no bit
    /// past the last edge: over random polygons, convex and not, near the origin and far from
    /// it, and discs near their outlines, down to points a ten-millionth of the polygon's size
    /// from an edge.
    #[test]
    fn every_edge_within_reach_is_flagged() {
        let mut rng = StdRng::seed_from_u64(17);
        let (mut lined, mut reaching, mut flagged) = (0, 0, 0);
        for _ in 0..50_000 {
            let vertices = polygon(&mut rng);
            let mut lines = Vec::new();
            if !push_lines(&vertices, &mut lines) {
                continue;
            }
            lined += 1;
            let disc = disc_near(&mut rng, &vertices);
            let near = near_edges(&lines, disc, polygon_size(&vertices));
            for (index, edge) in edges(&vertices).enumerate() {
                if edge.distance_squared_to(disc.center) <= disc.radius * disc.radius {
                    reaching += 1;
                    assert_ne!(
                        near & (1 << index),
                        0,
                        "edge {index} of {vertices:?}, {disc:?}"
                    );
                }
            }
            flagged += near.count_ones();
            let past_last = near.checked_shr(vertices.len() as u32).unwrap_or(0);
            assert_eq!(past_last, 0, "no bit past the last edge");
        }
        assert!(
            lined > 45_000 && reaching > 20_000,
            "{lined} lined, {reaching} reaching"
        );
        // Few more than reach: the flags spare most edges the exact test.
        assert!(
            flagged < 4 * reaching,
            "{flagged} flagged, {reaching} reaching"
        );
    }

    /// The lines point out of the polygon, in either winding: a point just inside lies on the
    /// inner side of the nearest edge's line. No vertex lies past a line's overhang; a convex
    /// polygon (a regular one near the origin) overhangs none of its lines, to rounding, and a
    /// star overhangs every line by a good part of its size.
    #[test]
    fn the_lines_point_out_and_no_vertex_lies_past_their_overhang() {
        use crate::geometry::point_in_polygon;
        let mut rng = StdRng::seed_from_u64(19);
        let (mut regular, mut stars) = (0, 0);
        for round in 0..20_000 {
            let vertices = if round % 2 == 0 {
                polygon(&mut rng)
            } else {
                // Regular, near the origin, in either winding.
                let corners = rng.random_range(3..=MOST_LINED);
                let turn = rng.random_range(0.0..TAU);
                let step = if rng.random_bool(0.5) { TAU } else { -TAU } / corners as f32;
                (0..corners)
                    .map(|i| Vec2::from_angle(turn + i as f32 * step) * 10.0)
                    .collect()
            };
            let mut lines = Vec::new();
            if !push_lines(&vertices, &mut lines) {
                continue;
            }
            let size = polygon_size(&vertices);
            let lanes = |of: &dyn Fn(&EdgeLines) -> Vec4| -> Vec<f32> {
                let mut all: Vec<f32> = lines
                    .iter()
                    .flat_map(|lines| of(lines).to_array())
                    .collect();
                all.truncate(vertices.len());
                all
            };
            let inside = vertices[0].lerp(vertices[1], 0.5).lerp(vertices[2], 1e-3);
            if point_in_polygon(inside, &vertices) {
                let nearest = edges(&vertices)
                    .map(|edge| edge.distance_squared_to(inside))
                    .enumerate()
                    .min_by(|one, other| one.1.total_cmp(&other.1))
                    .map(|(index, _)| index)
                    .unwrap();
                let rounding = 1e-5 * (size + inside.abs().max_element());
                assert!(lanes(&|lines| lines.past(inside))[nearest] <= rounding);
            }
            let overhangs = lanes(&|lines| lines.overhang);
            for &vertex in &vertices {
                let past = lanes(&|lines| lines.past(vertex));
                for (past, overhang) in past.iter().zip(&overhangs) {
                    assert!(past <= overhang, "{vertex} of {vertices:?}");
                }
            }
            let deepest = overhangs.iter().copied().fold(0.0, f32::max);
            if round % 2 == 1 {
                regular += 1;
                assert!(deepest <= 1e-5 * size, "a regular polygon: {vertices:?}");
            } else if vertices.len() >= 6 && deepest > 0.1 * size {
                // The stars: every other vertex pulled in to 0.4 of the way.
                stars += 1;
            }
        }
        assert!(
            regular > 9_000 && stars > 1_000,
            "{regular} regular, {stars} stars"
        );
    }

    /// Too few vertices or too many, or an edge too short, give no lines, and leave the lines
    /// of the polygons before as they were.
    #[test]
    fn polygons_it_does_not_take_get_no_lines() {
        let mut lines = Vec::new();
        assert!(!push_lines(&[Vec2::ZERO, Vec2::X], &mut lines));
        let many: Vec<Vec2> = (0..=MOST_LINED)
            .map(|i| Vec2::from_angle(i as f32 * TAU / 65.0) * 10.0)
            .collect();
        assert!(!push_lines(&many, &mut lines));
        // The sixth edge, in the second group of four, of no length: the first group goes too.
        let mut short = many[..8].to_vec();
        short[6] = short[5];
        assert!(push_lines(&many[..3], &mut lines));
        assert!(!push_lines(&short, &mut lines));
        assert_eq!(lines.len(), 1);
        // Edges whose length's square underflows.
        let tiny = [Vec2::ZERO, Vec2::new(1e-20, 0.0), Vec2::new(0.0, 1e-20)];
        assert!(!push_lines(&tiny, &mut lines));
        assert_eq!(lines.len(), 1);
        lines.clear();
        assert!(!push_lines(
            &[Vec2::ZERO, Vec2::X, Vec2::X, Vec2::Y],
            &mut lines
        ));
        assert!(lines.is_empty());
        assert!(push_lines(&many[..MOST_LINED], &mut lines));
        assert_eq!(lines.len(), MOST_LINED / 4);
    }
}
