//! The shapes the scenes are made of, described once for every engine, and the triangulation
//! that lets engines without concave polygons take the exact same solid region.

use bevy::math::Vec2;

/// A collider's outline in its entity's local space.
#[derive(Clone, Debug)]
pub enum Shape {
    /// A solid disc of this radius around the origin.
    Circle(f32),
    /// A segment between two points.
    Segment(Vec2, Vec2),
    /// A solid polygon, counter-clockwise, convex or concave, never self-intersecting.
    Polygon(Vec<Vec2>),
}

/// A regular polygon with `sides` vertices on a circle of `circumradius`, the first on +x.
pub fn regular_polygon(sides: usize, circumradius: f32) -> Vec<Vec2> {
    (0..sides)
        .map(|i| Vec2::from_angle(std::f32::consts::TAU * i as f32 / sides as f32) * circumradius)
        .collect()
}

/// A star with `points` tips at `outer` and notches at `inner` from the centre: concave.
pub fn star(points: usize, outer: f32, inner: f32) -> Vec<Vec2> {
    (0..2 * points)
        .map(|i| {
            let radius = if i % 2 == 0 { outer } else { inner };
            Vec2::from_angle(std::f32::consts::PI * i as f32 / points as f32) * radius
        })
        .collect()
}

/// An L of arm length `size` and thickness `size / 3`, centred near the origin: concave.
pub fn l_shape(size: f32) -> Vec<Vec2> {
    let t = size / 3.0;
    let corner = Vec2::splat(-size / 2.0);
    [
        Vec2::new(0.0, 0.0),
        Vec2::new(size, 0.0),
        Vec2::new(size, t),
        Vec2::new(t, t),
        Vec2::new(t, size),
        Vec2::new(0.0, size),
    ]
    .map(|point| point + corner)
    .to_vec()
}

/// Whether a counter-clockwise polygon is convex (no reflex vertex).
pub fn is_convex(polygon: &[Vec2]) -> bool {
    let n = polygon.len();
    (0..n).all(|i| {
        let (previous, vertex, next) = (polygon[(i + n - 1) % n], polygon[i], polygon[(i + 1) % n]);
        (vertex - previous).perp_dot(next - vertex) >= 0.0
    })
}

/// Splits a simple counter-clockwise polygon into triangles covering exactly its area, by ear
/// clipping: repeatedly cut off a convex vertex whose triangle holds no other vertex.
///
/// Quadratic in the vertex count, which is fine for the handful of vertices used here.
pub fn triangulate(polygon: &[Vec2]) -> Vec<[Vec2; 3]> {
    let mut remaining: Vec<Vec2> = polygon.to_vec();
    let mut triangles = Vec::with_capacity(polygon.len().saturating_sub(2));
    while remaining.len() > 3 {
        let n = remaining.len();
        let ear = (0..n).find(|&i| {
            let (a, b, c) = (
                remaining[(i + n - 1) % n],
                remaining[i],
                remaining[(i + 1) % n],
            );
            (b - a).perp_dot(c - b) > 0.0
                && remaining
                    .iter()
                    .filter(|&&p| p != a && p != b && p != c)
                    .all(|&p| !in_triangle(p, a, b, c))
        });
        let Some(i) = ear else {
            // Only reachable for a polygon that is not simple; the scenes never make one.
            break;
        };
        triangles.push([
            remaining[(i + n - 1) % n],
            remaining[i],
            remaining[(i + 1) % n],
        ]);
        remaining.remove(i);
    }
    if let [a, b, c] = remaining[..] {
        triangles.push([a, b, c]);
    }
    triangles
}

/// Splits a simple counter-clockwise polygon into convex pieces covering exactly its area: its
/// triangles (see [`triangulate`]), then any two pieces that share an edge joined wherever
/// together they are still convex, until no two can be (Hertel and Mehlhorn's method: at most
/// four times the fewest pieces possible). A star of five points gives five pieces, an L two.
pub fn convex_pieces(polygon: &[Vec2]) -> Vec<Vec<Vec2>> {
    let mut pieces: Vec<Vec<Vec2>> = triangulate(polygon)
        .into_iter()
        .map(|triangle| triangle.to_vec())
        .collect();
    'joining: loop {
        for first in 0..pieces.len() {
            for second in first + 1..pieces.len() {
                if let Some(joined) = join(&pieces[first], &pieces[second])
                    && is_convex(&joined)
                {
                    pieces[first] = joined;
                    pieces.swap_remove(second);
                    continue 'joining;
                }
            }
        }
        return pieces;
    }
}

/// Two counter-clockwise pieces that share an edge (`p → q` in `first`, `q → p` in `second`)
/// as one, without that edge: `first` from `q` round to `p`, then `second` from after `p` to
/// before `q`. `None` when they share no edge.
fn join(first: &[Vec2], second: &[Vec2]) -> Option<Vec<Vec2>> {
    let (n, m) = (first.len(), second.len());
    for i in 0..n {
        let (p, q) = (first[i], first[(i + 1) % n]);
        let Some(j) = (0..m).find(|&j| second[j] == q && second[(j + 1) % m] == p) else {
            continue;
        };
        let mut joined: Vec<Vec2> = (0..n).map(|k| first[(i + 1 + k) % n]).collect();
        joined.extend((0..m - 2).map(|k| second[(j + 2 + k) % m]));
        return Some(joined);
    }
    None
}

/// Whether `p` lies in the closed counter-clockwise triangle `abc`.
fn in_triangle(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool {
    (b - a).perp_dot(p - a) >= 0.0
        && (c - b).perp_dot(p - b) >= 0.0
        && (a - c).perp_dot(p - c) >= 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(polygon: &[Vec2]) -> f32 {
        let n = polygon.len();
        (0..n)
            .map(|i| polygon[i].perp_dot(polygon[(i + 1) % n]))
            .sum::<f32>()
            / 2.0
    }

    #[test]
    fn triangles_cover_the_polygon_exactly() {
        for polygon in [star(5, 30.0, 12.0), l_shape(30.0), regular_polygon(8, 24.0)] {
            let triangles = triangulate(&polygon);
            assert_eq!(triangles.len(), polygon.len() - 2);
            let covered: f32 = triangles.iter().map(|t| area(t)).sum();
            assert!((covered - area(&polygon)).abs() < 1e-3 * area(&polygon));
            assert!(triangles.iter().all(|t| area(t) > 0.0));
        }
    }

    #[test]
    fn convex_pieces_cover_the_polygon_exactly_in_fewer_pieces() {
        for (polygon, most) in [(star(5, 30.0, 12.0), 5), (l_shape(30.0), 2)] {
            let pieces = convex_pieces(&polygon);
            assert!(pieces.len() <= most, "{} pieces", pieces.len());
            assert!(pieces.iter().all(|piece| is_convex(piece)));
            let covered: f32 = pieces.iter().map(|piece| area(piece)).sum();
            assert!((covered - area(&polygon)).abs() < 1e-3 * area(&polygon));
            assert!(pieces.iter().all(|piece| area(piece) > 0.0));
        }
    }

    #[test]
    fn convexity() {
        assert!(is_convex(&regular_polygon(8, 24.0)));
        assert!(!is_convex(&star(5, 30.0, 12.0)));
        assert!(!is_convex(&l_shape(30.0)));
    }
}
