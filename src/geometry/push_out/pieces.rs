//! Convex pieces in `f64`: a polygon cut into triangles and the triangles joined again where
//! two make a convex piece (or kept whole when convex), a segment as a piece of two points,
//! and what the push-out search asks of them.

use crate::geometry::precise::{edges, nearest_on_segment};
use bevy::math::DVec2;
use bevy::platform::collections::HashMap;

/// A convex piece: a counter-clockwise polygon of three or more points, or a segment of two.
pub(super) type Piece = Vec<DVec2>;

/// `(b - a) × (c - a)`: positive when `a`, `b`, `c` turn left.
pub(super) fn turn(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

/// The convex pieces of a polygon's vertex loop (either winding): itself when convex, else
/// triangles cut off one ear at a time, then joined two by two across a shared edge wherever
/// the two make a convex piece (the search's cost grows with the pieces' count squared, and a
/// comb of teeth is a few rectangles, not twice as many triangles). Points where the outline
/// runs straight on are dropped.
pub(super) fn polygon_pieces(vertices: &[DVec2]) -> Vec<Piece> {
    let mut loop_: Vec<DVec2> = vertices.to_vec();
    let area: f64 = (0..loop_.len())
        .map(|i| loop_[i].perp_dot(loop_[(i + 1) % loop_.len()]))
        .sum();
    if area < 0.0 {
        loop_.reverse();
    }
    drop_straight_points(&mut loop_);
    if loop_.len() < 3 {
        return vec![loop_];
    }
    let n = loop_.len();
    let convex = (0..n).all(|i| turn(loop_[i], loop_[(i + 1) % n], loop_[(i + 2) % n]) > 0.0);
    if convex {
        return vec![loop_];
    }
    let mut triangles = Vec::with_capacity(n - 2);
    while loop_.len() > 3 {
        let n = loop_.len();
        let ear = (0..n).find(|&i| {
            let (a, b, c) = (loop_[(i + n - 1) % n], loop_[i], loop_[(i + 1) % n]);
            turn(a, b, c) > 0.0
                && loop_
                    .iter()
                    .all(|&p| p == a || p == b || p == c || !in_closed_triangle(p, a, b, c))
        });
        // A simple polygon always has an ear; rounding aside, cut the sharpest corner.
        let ear = ear.unwrap_or(0);
        triangles.push(vec![
            loop_[(ear + n - 1) % n],
            loop_[ear],
            loop_[(ear + 1) % n],
        ]);
        loop_.remove(ear);
        drop_straight_points(&mut loop_);
        if loop_.len() < 3 {
            return joined(triangles);
        }
    }
    triangles.push(loop_);
    joined(triangles)
}

/// `pieces` (counter-clockwise, convex, sharing whole edges), joined two by two across shared
/// edges wherever the two make a convex piece. Each piece in turn takes in its neighbours
/// across its edges, found by edge, as long as they keep it convex: about linear in the
/// pieces' count, where trying every pair again after each join grew with its cube.
fn joined(pieces: Vec<Piece>) -> Vec<Piece> {
    /// A point by its coordinates' bits: the pieces share exact copies of the polygon's points.
    type Point = [u64; 2];
    let point = |p: DVec2| [p.x.to_bits(), p.y.to_bits()];
    let mut pieces: Vec<Option<Piece>> = pieces.into_iter().map(Some).collect();
    // Which piece runs along each directed edge.
    let mut owner: HashMap<(Point, Point), usize> = HashMap::default();
    for (index, piece) in pieces.iter().enumerate() {
        for (a, b) in edges(piece.as_deref().unwrap_or_default()) {
            owner.insert((point(a), point(b)), index);
        }
    }
    for index in 0..pieces.len() {
        'grow: while let Some(piece) = pieces[index].clone() {
            for (a, b) in edges(&piece) {
                // The neighbour across this edge runs along it the other way.
                let Some(&other) = owner.get(&(point(b), point(a))) else {
                    continue;
                };
                let Some(neighbour) = pieces[other].as_deref().filter(|_| other != index) else {
                    continue;
                };
                let Some(merged) = join(&piece, neighbour) else {
                    continue;
                };
                for old in [Some(piece.clone()), pieces[other].take()]
                    .into_iter()
                    .flatten()
                {
                    for (p, q) in edges(&old) {
                        owner.remove(&(point(p), point(q)));
                    }
                }
                for (p, q) in edges(&merged) {
                    owner.insert((point(p), point(q)), index);
                }
                pieces[index] = Some(merged);
                continue 'grow;
            }
            break;
        }
    }
    pieces.into_iter().flatten().collect()
}

/// The two convex pieces as one, where they share an edge (run opposite ways) and the piece
/// they make is convex.
fn join(first: &[DVec2], second: &[DVec2]) -> Option<Piece> {
    let (n, m) = (first.len(), second.len());
    for i in 0..n {
        let (a, b) = (first[i], first[(i + 1) % n]);
        let Some(j) = (0..m).find(|&j| second[j] == b && second[(j + 1) % m] == a) else {
            continue;
        };
        // Round the first from `b` to `a`, then the second from after `a` to before `b`.
        let mut piece: Piece = (1..=n).map(|k| first[(i + k) % n]).collect();
        piece.extend((2..m).map(|k| second[(j + k) % m]));
        drop_straight_points(&mut piece);
        let len = piece.len();
        let convex = len >= 3
            && (0..len).all(|k| turn(piece[k], piece[(k + 1) % len], piece[(k + 2) % len]) > 0.0);
        return convex.then_some(piece);
    }
    None
}

/// Drops the points of a loop where it runs straight on (or doubles back on itself).
fn drop_straight_points(loop_: &mut Vec<DVec2>) {
    let mut i = 0;
    while loop_.len() >= 3 && i < loop_.len() {
        let n = loop_.len();
        let (a, b, c) = (loop_[(i + n - 1) % n], loop_[i], loop_[(i + 1) % n]);
        let scale = (b - a).length() * (c - b).length();
        if turn(a, b, c).abs() <= 1e-12 * scale {
            loop_.remove(i);
            i = i.saturating_sub(1);
        } else {
            i += 1;
        }
    }
}

/// Whether `p` lies in the closed counter-clockwise triangle `a`, `b`, `c`.
fn in_closed_triangle(p: DVec2, a: DVec2, b: DVec2, c: DVec2) -> bool {
    turn(a, b, p) >= 0.0 && turn(b, c, p) >= 0.0 && turn(c, a, p) >= 0.0
}

/// The convex hull of `points`, counter-clockwise, without points where it runs straight on
/// (Andrew's monotone chain). Fewer than three points when they all lie on one line.
pub(super) fn convex_hull(mut points: Vec<DVec2>) -> Vec<DVec2> {
    points.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let mut hull: Vec<DVec2> = Vec::with_capacity(points.len() + 1);
    for pass in [false, true] {
        let start = hull.len();
        let ordered: Box<dyn Iterator<Item = &DVec2>> = if pass {
            Box::new(points.iter().rev())
        } else {
            Box::new(points.iter())
        };
        for &p in ordered {
            while hull.len() >= start + 2
                && turn(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// The distance from `p` to a convex piece (zero inside a polygon piece).
pub(super) fn distance_to_piece(p: DVec2, piece: &[DVec2]) -> f64 {
    let n = piece.len();
    if n == 1 {
        return p.distance(piece[0]);
    }
    if n >= 3 && (0..n).all(|i| turn(piece[i], piece[(i + 1) % n], p) >= 0.0) {
        return 0.0;
    }
    edges(piece)
        .map(|(a, b)| p.distance(nearest_on_segment(p, a, b)))
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(piece: &[DVec2]) -> f64 {
        (0..piece.len())
            .map(|i| piece[i].perp_dot(piece[(i + 1) % piece.len()]))
            .sum::<f64>()
            / 2.0
    }

    #[test]
    fn a_concave_polygon_is_cut_into_convex_pieces_of_its_area() {
        // A comb and a star, clockwise and counter-clockwise, with a point on a straight run.
        let comb: Vec<DVec2> = [
            (0.0, 0.0),
            (5.0, 0.0),
            (10.0, 0.0),
            (10.0, 6.0),
            (8.0, 6.0),
            (8.0, 2.0),
            (6.0, 2.0),
            (6.0, 6.0),
            (4.0, 6.0),
            (4.0, 2.0),
            (2.0, 2.0),
            (2.0, 6.0),
            (0.0, 6.0),
        ]
        .map(|(x, y)| DVec2::new(x, y))
        .to_vec();
        let star: Vec<DVec2> = (0..10)
            .map(|i| {
                let reach = if i % 2 == 0 { 5.0 } else { 2.0 };
                DVec2::from_angle(-(i as f64) * std::f64::consts::TAU / 10.0) * reach
            })
            .collect();
        // The comb's pieces are its three teeth and the base below them at most twice over;
        // the star's, its five points and the pentagon between them at most twice over.
        for (polygon, most) in [(comb, 8), (star, 12)] {
            let pieces = polygon_pieces(&polygon);
            assert!(pieces.len() > 1 && pieces.len() <= most, "{}", pieces.len());
            let total: f64 = pieces.iter().map(|piece| area(piece)).sum();
            assert!((total - area(&polygon).abs()).abs() < 1e-9, "{total}");
            for piece in &pieces {
                let n = piece.len();
                let convex =
                    (0..n).all(|i| turn(piece[i], piece[(i + 1) % n], piece[(i + 2) % n]) > 0.0);
                assert!(convex, "{piece:?}");
            }
        }
        let square =
            [(0.0, 0.0), (0.0, 1.0), (1.0, 1.0), (1.0, 0.0)].map(|(x, y)| DVec2::new(x, y));
        assert_eq!(
            polygon_pieces(&square).len(),
            1,
            "a convex polygon is one piece"
        );
    }

    #[test]
    fn the_hull_holds_every_point() {
        let points: Vec<DVec2> = (0..40)
            .map(|i| DVec2::new((i as f64 * 1.7).sin() * 3.0, (i as f64 * 2.3).cos() * 2.0))
            .collect();
        let hull = convex_hull(points.clone());
        assert!(area(&hull) > 0.0);
        for p in points {
            assert!(distance_to_piece(p, &hull) < 1e-12);
        }
    }
}
