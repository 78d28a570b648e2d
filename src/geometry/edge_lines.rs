//! The lines of a polygon's edges, four at a time: a disc's distance to each edge's line tells
//! at once which edges it may reach.

use super::{Circle, MAX_COORDINATE, MIN_SIZE};
use bevy::math::{BVec4A, Vec2, Vec4};

/// The most vertices a polygon's [`EdgeLines`] are made for: one bit per edge in a `u64`.
pub(crate) const MOST_LINED: usize = 64;

/// Four edges' lines, lane `i` for the `i`th: the edge's unit normal, pointing out of the
/// polygon (away from the side its inside lies on), and how far along it the line lies from
/// the origin. A point lies `normal · point − offset` beyond the line, out of the polygon
/// (a negative distance: on the inner side). A lane past the polygon's last edge has no normal
/// and an infinite offset: every point lies infinitely far from it, on its inner side.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeLines {
    /// The normals' `x`, lane by lane.
    normal_x: Vec4,
    /// The normals' `y`.
    normal_y: Vec4,
    /// How far along its normal each line lies from the origin.
    offset: Vec4,
}

/// Which way a simple polygon's outline runs round, and whether it is convex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Winding {
    /// Whether the outline runs anticlockwise (a positive area): its inside lies on the left of
    /// each edge.
    pub anticlockwise: bool,
    /// Whether every corner turns the way the outline runs (none by nothing): then the polygon
    /// lies on the inner side of each of its edges' lines, and a disc beyond one line by more
    /// than its radius is clear of it.
    pub convex: bool,
}

impl Winding {
    /// The winding of the simple polygon `vertices`: its area's sign, summed from its first
    /// vertex (so that far from the origin the sum keeps its precision), and each corner's
    /// turn. Fewer than three vertices have no area: neither anticlockwise nor convex.
    pub fn of(vertices: &[Vec2]) -> Self {
        let (Some(&first), Some(&last)) = (vertices.first(), vertices.last()) else {
            return Self {
                anticlockwise: false,
                convex: false,
            };
        };
        let mut area = 0.0;
        let (mut left, mut right) = (true, true);
        // The edge into each corner, then the edge out of it.
        let mut into = first - last;
        for (index, &from) in vertices.iter().enumerate() {
            let to = vertices.get(index + 1).copied().unwrap_or(first);
            let out = to - from;
            area += (from - first).perp_dot(to - first);
            let turn = into.perp_dot(out);
            left &= turn > 0.0;
            right &= turn < 0.0;
            into = out;
        }
        let anticlockwise = area > 0.0;
        Self {
            anticlockwise,
            convex: if anticlockwise {
                left
            } else {
                right && area < 0.0
            },
        }
    }

    /// The winding of the polygon mirrored (by a transform that turns its outline round the
    /// other way), when `mirrored`.
    pub fn mirrored_if(self, mirrored: bool) -> Self {
        Self {
            anticlockwise: self.anticlockwise != mirrored,
            ..self
        }
    }
}

/// Appends the lines of the edges of the simple polygon `vertices` (of 3 to [`MOST_LINED`]
/// vertices, convex or not), whose outline runs round as `winding` says, in groups of four; or
/// appends nothing and returns `false` for a polygon it does not take, or one with an edge so
/// short that its length's square underflows (whose normal would round far off).
pub(crate) fn push_edge_lines(
    vertices: &[Vec2],
    winding: Winding,
    lines: &mut Vec<EdgeLines>,
) -> bool {
    let count = vertices.len();
    if !(3..=MOST_LINED).contains(&count) {
        return false;
    }
    // The edge's direction turned a quarter clockwise for an outline that runs anticlockwise
    // (its inside on its left), the other way otherwise: the outward normal.
    let outward = Vec4::splat(if winding.anticlockwise { 1.0 } else { -1.0 });
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
        lines.push(EdgeLines {
            normal_x: Vec4::select(used, normal_x, Vec4::ZERO),
            normal_y: Vec4::select(used, normal_y, Vec4::ZERO),
            offset: Vec4::select(used, offset, Vec4::INFINITY),
        });
    }
    true
}

/// For each of `points`, the edges whose lines it lies beyond, out of the polygon, by more than
/// `reach` (bit `i` for the edge from vertex `i`), of a polygon whose edges' lines are `lines`
/// (as [`push_edge_lines`] made them). Four edges at a time, without a branch.
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
            let (x, y) = (Vec4::splat(point.x), Vec4::splat(point.y));
            let outward = lines.normal_x * x + lines.normal_y * y - lines.offset;
            *beyond |= u64::from(outward.cmpgt(reach).bitmask()) << (4 * group);
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
    let (x, y) = (Vec4::splat(circle.center.x), Vec4::splat(circle.center.y));
    let within = Vec4::splat(circle.radius + margin);
    let mut near = 0;
    for (group, lines) in lines.iter().enumerate() {
        let distance = (lines.normal_x * x + lines.normal_y * y - lines.offset).abs();
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
        push_edge_lines(vertices, Winding::of(vertices), lines)
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

    /// The lines point out of the polygon, in either winding: a point inside lies on the inner
    /// side of every edge's line of a convex polygon, and of the nearest edge's line of any. A
    /// polygon found convex has every vertex on the inner side of every line (within
    /// rounding); a star never is; a regular polygon near the origin always is.
    #[test]
    fn the_lines_point_out_and_tell_a_convex_polygon() {
        use crate::geometry::point_in_polygon;
        let mut rng = StdRng::seed_from_u64(19);
        let (mut convex, mut stars) = (0, 0);
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
            let winding = Winding::of(&vertices);
            if !push_edge_lines(&vertices, winding, &mut lines) {
                continue;
            }
            let size = polygon_size(&vertices);
            let outward = |point: Vec2| -> Vec<f32> {
                let mut all = Vec::new();
                for lines in &lines {
                    let distance =
                        lines.normal_x * point.x + lines.normal_y * point.y - lines.offset;
                    all.extend(distance.to_array());
                }
                all.truncate(vertices.len());
                all
            };
            // The nearest edge to a point just inside: its line has the point inside.
            let inside = vertices[0].lerp(vertices[1], 0.5).lerp(vertices[2], 1e-3);
            if point_in_polygon(inside, &vertices) {
                let nearest = edges(&vertices)
                    .map(|edge| edge.distance_squared_to(inside))
                    .enumerate()
                    .min_by(|one, other| one.1.total_cmp(&other.1))
                    .map(|(index, _)| index)
                    .unwrap();
                let rounding = 1e-5 * (size + inside.abs().max_element());
                assert!(outward(inside)[nearest] <= rounding, "{vertices:?}");
            }
            if round % 2 == 1 {
                assert!(winding.convex, "a regular polygon: {vertices:?}");
            }
            if winding.convex {
                convex += 1;
                for &vertex in &vertices {
                    let farthest = outward(vertex).into_iter().fold(f32::MIN, f32::max);
                    let rounding = 1e-5 * (size + vertex.abs().max_element());
                    assert!(farthest <= rounding, "{vertex} of {vertices:?}");
                }
            }
            // Stars have every other vertex pulled in: a corner turns the other way.
            if vertices.len() >= 6 && !winding.convex {
                stars += 1;
            }
        }
        assert!(
            convex > 8_000 && stars > 1_000,
            "{convex} convex, {stars} not"
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
