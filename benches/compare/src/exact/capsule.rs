//! Whether a capsule meets a still disc, segment or polygon, in `f64`: the geometry of the
//! exact count.
//!
//! A capsule is every point within `radius` of the segment `a`–`b` (a moving disc's sweep:
//! `a` and `b` are its centre at the two ends of the move; `a == b` is a disc). Every shape is
//! closed, so shapes that only touch **meet** (a graze is a hit). Polygons are simple, with
//! their vertices in either order.

use bevy::math::DVec2;

/// Twice the signed area of the triangle `a`, `b`, `c`: positive when it turns
/// counter-clockwise, zero when the three are collinear.
fn orientation(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

/// The squared distance from `p` to the segment `a`–`b` (to `a` when the segment is a point).
pub fn point_segment_distance_squared(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    let length_squared = ab.length_squared();
    if length_squared == 0.0 {
        return p.distance_squared(a);
    }
    let t = ((p - a).dot(ab) / length_squared).clamp(0.0, 1.0);
    p.distance_squared(a + ab * t)
}

/// The squared distance between the segments `a`–`b` and `c`–`d`: zero when they cross or touch.
pub fn segment_segment_distance_squared(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> f64 {
    let (abc, abd) = (orientation(a, b, c), orientation(a, b, d));
    let (cda, cdb) = (orientation(c, d, a), orientation(c, d, b));
    // Strictly on both sides of each other: a proper crossing. Every other meeting (an end on
    // the other segment, collinear overlap) puts an end at distance zero, found below.
    if abc * abd < 0.0 && cda * cdb < 0.0 {
        return 0.0;
    }
    point_segment_distance_squared(a, c, d)
        .min(point_segment_distance_squared(b, c, d))
        .min(point_segment_distance_squared(c, a, b))
        .min(point_segment_distance_squared(d, a, b))
}

/// Whether `p` lies strictly inside the simple polygon (even–odd rule; points on the outline
/// may go either way, which is fine where the outline is also tested).
fn polygon_contains(polygon: &[DVec2], p: DVec2) -> bool {
    let mut inside = false;
    let mut previous = polygon[polygon.len() - 1];
    for &vertex in polygon {
        if (vertex.y > p.y) != (previous.y > p.y) {
            let x = vertex.x + (p.y - vertex.y) * (previous.x - vertex.x) / (previous.y - vertex.y);
            if p.x < x {
                inside = !inside;
            }
        }
        previous = vertex;
    }
    inside
}

/// Whether the capsule of `radius` around `a`–`b` meets the disc of `disc_radius` around
/// `centre`.
pub fn capsule_disc(a: DVec2, b: DVec2, radius: f64, centre: DVec2, disc_radius: f64) -> bool {
    let reach = radius + disc_radius;
    point_segment_distance_squared(centre, a, b) <= reach * reach
}

/// Whether the capsule of `radius` around `a`–`b` meets the segment `c`–`d`.
pub fn capsule_segment(a: DVec2, b: DVec2, radius: f64, c: DVec2, d: DVec2) -> bool {
    segment_segment_distance_squared(a, b, c, d) <= radius * radius
}

/// Whether the capsule of `radius` around `a`–`b` meets the solid polygon: its path starts
/// inside it, or comes within `radius` of its outline.
pub fn capsule_polygon(a: DVec2, b: DVec2, radius: f64, polygon: &[DVec2]) -> bool {
    if polygon.is_empty() {
        return false;
    }
    if polygon_contains(polygon, a) {
        return true;
    }
    let mut previous = polygon[polygon.len() - 1];
    polygon.iter().any(|&vertex| {
        let edge = (previous, vertex);
        previous = vertex;
        segment_segment_distance_squared(a, b, edge.0, edge.1) <= radius * radius
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    /// A capsule along the x axis from 0 to 10, radius 2, unless a case says otherwise.
    struct Case {
        name: &'static str,
        a: DVec2,
        b: DVec2,
        radius: f64,
        hit: bool,
    }

    fn along_x(name: &'static str, hit: bool) -> Case {
        Case {
            name,
            a: v(0.0, 0.0),
            b: v(10.0, 0.0),
            radius: 2.0,
            hit,
        }
    }

    #[test]
    fn capsule_against_a_segment() {
        let cases = [
            // A thin wall across the path, both ends of the move clear of it: tunnelling.
            (
                along_x("crossing, ends clear", true),
                v(5.0, -10.0),
                v(5.0, 10.0),
            ),
            (
                along_x("parallel, 3 apart", false),
                v(0.0, 3.0),
                v(10.0, 3.0),
            ),
            // Exactly `radius` away: closed shapes touch.
            (along_x("graze, side", true), v(5.0, 2.0), v(5.0, 10.0)),
            (
                along_x("just clear of the side", false),
                v(5.0, 2.001),
                v(5.0, 10.0),
            ),
            (along_x("graze, end cap", true), v(12.0, -5.0), v(12.0, 5.0)),
            (
                along_x("past the end cap", false),
                v(12.001, -5.0),
                v(12.001, 5.0),
            ),
            (
                along_x("collinear, overlapping", true),
                v(8.0, 0.0),
                v(20.0, 0.0),
            ),
            (
                along_x("collinear, beyond", false),
                v(12.5, 0.0),
                v(20.0, 0.0),
            ),
            (
                along_x("segment is a point, inside", true),
                v(3.0, 1.0),
                v(3.0, 1.0),
            ),
            (
                Case {
                    name: "capsule is a disc",
                    b: v(0.0, 0.0),
                    ..along_x("", true)
                },
                v(-1.0, 1.5),
                v(1.0, 1.5),
            ),
        ];
        for (case, c, d) in cases {
            assert_eq!(
                capsule_segment(case.a, case.b, case.radius, c, d),
                case.hit,
                "{}",
                case.name
            );
        }
    }

    #[test]
    fn capsule_against_a_disc() {
        let cases = [
            (along_x("through the middle", true), v(5.0, 0.0), 1.0),
            (along_x("centre beside the path", true), v(5.0, 4.0), 2.5),
            (along_x("miss beside the path", false), v(5.0, 5.0), 2.5),
            (along_x("graze, side", true), v(5.0, 5.0), 3.0),
            (along_x("graze, end cap", true), v(-5.0, 0.0), 3.0),
            (along_x("beyond the end cap", false), v(15.0, 0.0), 2.9),
            (along_x("diagonal past the end", false), v(13.0, 4.0), 2.9),
        ];
        for (case, centre, radius) in cases {
            assert_eq!(
                capsule_disc(case.a, case.b, case.radius, centre, radius),
                case.hit,
                "{}",
                case.name
            );
        }
    }

    #[test]
    fn capsule_against_a_polygon() {
        let square = |x: f64, y: f64, half: f64| {
            vec![
                v(x - half, y - half),
                v(x + half, y - half),
                v(x + half, y + half),
                v(x - half, y + half),
            ]
        };
        let cases = [
            (
                along_x("through it, ends clear", true),
                square(5.0, 0.0, 1.0),
            ),
            (
                along_x("the whole path inside", true),
                square(5.0, 0.0, 20.0),
            ),
            (along_x("ends inside", true), square(10.0, 0.0, 1.0)),
            (along_x("miss above", false), square(5.0, 4.0, 1.5)),
            // The square's lower edge at y = 2: touching along its length.
            (along_x("graze along an edge", true), square(5.0, 3.0, 1.0)),
            // A diamond whose lowest vertex is exactly 2 above the path.
            (
                along_x("graze, vertex", true),
                vec![v(5.0, 2.0), v(6.0, 3.0), v(5.0, 4.0), v(4.0, 3.0)],
            ),
            (
                along_x("just clear of a vertex", false),
                vec![v(5.0, 2.001), v(6.0, 3.001), v(5.0, 4.001), v(4.0, 3.001)],
            ),
            // Clockwise vertices: the same solid.
            (
                along_x("clockwise, through it", true),
                vec![v(4.0, -1.0), v(4.0, 1.0), v(6.0, 1.0), v(6.0, -1.0)],
            ),
            (
                along_x("a thin tilted sliver across the path", true),
                vec![v(4.0, -8.0), v(4.5, -8.0), v(6.5, 8.0), v(6.0, 8.0)],
            ),
        ];
        for (case, polygon) in cases {
            assert_eq!(
                capsule_polygon(case.a, case.b, case.radius, &polygon),
                case.hit,
                "{}",
                case.name
            );
        }
    }

    #[test]
    fn distances() {
        assert_eq!(
            point_segment_distance_squared(v(3.0, 4.0), v(0.0, 0.0), v(0.0, 0.0)),
            25.0
        );
        assert_eq!(
            segment_segment_distance_squared(v(0.0, 0.0), v(2.0, 2.0), v(0.0, 2.0), v(2.0, 0.0)),
            0.0
        );
        assert_eq!(
            segment_segment_distance_squared(v(0.0, 0.0), v(1.0, 0.0), v(4.0, 4.0), v(4.0, 8.0)),
            25.0
        );
    }
}
