//! The checks that make a vertex loop a valid [`PolygonCollider`](super::PolygonCollider):
//! finite and in range, at least three distinct corners, some area, and no edge meeting
//! another but its neighbours.

use crate::collider::{ColliderError, check_point, check_size};
use crate::geometry::{self, overlap_segment_segment};
use bevy::prelude::*;

/// The vertices as a valid polygon (repeated neighbours and a repeated closing vertex
/// dropped), or why they are not one.
pub(super) fn checked(mut vertices: Vec<Vec2>) -> Result<Vec<Vec2>, ColliderError> {
    for (index, &point) in vertices.iter().enumerate() {
        check_point(index, point)?;
    }
    vertices.dedup();
    while vertices.len() > 1 && vertices.first() == vertices.last() {
        vertices.pop();
    }
    if vertices.len() < 3 {
        return Err(ColliderError::TooFewVertices(vertices.len()));
    }
    let (min, max) = vertices
        .iter()
        .fold((vertices[0], vertices[0]), |(min, max), &v| {
            (min.min(v), max.max(v))
        });
    check_size((max - min).max_element())?;
    // On one line, or nearly: refused before the edges are compared, which would find such a
    // loop folding back on itself.
    let area = FanArea::of(&vertices);
    let slack = 1e-6 * (max - min).as_dvec2().length_squared();
    if area.unsigned <= slack {
        return Err(ColliderError::ZeroArea);
    }
    check_simple(&vertices)?;
    // A simple polygon's own area, whichever vertex it starts from (the fan's unsigned sum
    // counts a concave polygon's pockets again where vertex 0 does not see every vertex).
    if area.signed.abs() <= slack {
        return Err(ColliderError::ZeroArea);
    }
    Ok(vertices)
}

/// Twice the areas of the fan of triangles from a polygon's vertex 0, in `f64` (rounded far
/// below the threshold they are held to).
struct FanArea {
    /// Their sum with signs: twice the polygon's area, for a simple polygon, whichever vertex
    /// is first.
    signed: f64,
    /// Their sum without: at least that, and zero only when every vertex lies on one line
    /// through vertex 0 (a bow tie's halves do not cancel).
    unsigned: f64,
}

impl FanArea {
    fn of(vertices: &[Vec2]) -> Self {
        let origin = vertices[0].as_dvec2();
        let crosses = vertices
            .windows(2)
            .map(|pair| (pair[0].as_dvec2() - origin).perp_dot(pair[1].as_dvec2() - origin));
        crosses.fold(
            Self {
                signed: 0.0,
                unsigned: 0.0,
            },
            |sum, cross| Self {
                signed: sum.signed + cross,
                unsigned: sum.unsigned + cross.abs(),
            },
        )
    }
}

/// Rejects polygons with two edges that meet other than neighbours at their shared vertex.
pub(super) fn check_simple(vertices: &[Vec2]) -> Result<(), ColliderError> {
    let n = vertices.len();
    let edge = |i: usize| geometry::Segment::new(vertices[i], vertices[(i + 1) % n]);
    // The next edge folds back over this one when they turn by half a turn.
    for i in 0..n {
        let (this, next) = (edge(i), edge((i + 1) % n));
        let (d1, d2) = (this.b - this.a, next.b - next.a);
        if d1.perp_dot(d2) == 0.0 && d1.dot(d2) < 0.0 {
            // The lower edge first, as for two edges that cross (the last edge folds onto the
            // first).
            let next = (i + 1) % n;
            return Err(ColliderError::SelfIntersecting(i.min(next), i.max(next)));
        }
    }
    let neighbours = |pair: &EdgePair| {
        (pair.first + 1) % n == pair.second || (pair.second + 1) % n == pair.first
    };
    match pairs_side_by_side(vertices).find(|pair| {
        !neighbours(pair) && overlap_segment_segment(edge(pair.first), edge(pair.second))
    }) {
        Some(pair) => Err(ColliderError::SelfIntersecting(pair.first, pair.second)),
        None => Ok(()),
    }
}

/// Two edges, by index, the first the lower.
#[derive(Clone, Copy, Debug)]
struct EdgePair {
    first: usize,
    second: usize,
}

/// The pairs of edges whose spans along x overlap, each once: the only ones that can meet.
/// The edges are sorted by their left end, and each is paired with those that start before
/// it ends (sweep and prune), which keeps a polygon of many short edges (a terrain outline, a
/// finely drawn curve) near `O(n log n)`.
fn pairs_side_by_side(vertices: &[Vec2]) -> impl Iterator<Item = EdgePair> {
    let n = vertices.len();
    let mut spans: Vec<EdgeSpan> = (0..n)
        .map(|i| {
            let (a, b) = (vertices[i].x, vertices[(i + 1) % n].x);
            EdgeSpan {
                edge: i,
                left: a.min(b),
                right: a.max(b),
            }
        })
        .collect();
    spans.sort_unstable_by(|a, b| a.left.total_cmp(&b.left).then(a.edge.cmp(&b.edge)));
    // The edge at `at` paired with the one at `next`, until `next` starts past its end.
    let (mut at, mut next) = (0, 1);
    core::iter::from_fn(move || {
        loop {
            let this = *spans.get(at)?;
            match spans.get(next) {
                Some(other) if other.left <= this.right => {
                    next += 1;
                    return Some(EdgePair {
                        first: this.edge.min(other.edge),
                        second: this.edge.max(other.edge),
                    });
                }
                _ => (at, next) = (at + 1, at + 2),
            }
        }
    })
}

/// Where an edge lies along x.
#[derive(Clone, Copy)]
struct EdgeSpan {
    edge: usize,
    left: f32,
    right: f32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// Whether any two edges that are not neighbours meet, each tested against every other.
    fn meets_itself(vertices: &[Vec2]) -> bool {
        let n = vertices.len();
        let edge = |i: usize| geometry::Segment::new(vertices[i], vertices[(i + 1) % n]);
        (0..n).any(|i| {
            (i + 2..n).any(|j| !(i == 0 && j == n - 1) && overlap_segment_segment(edge(i), edge(j)))
        })
    }

    /// Random loops of 4 to 40 corners on a small grid (so that edges often touch, cross,
    /// overlap and run upright), and stars that are simple: the sweep finds an edge meeting
    /// another wherever testing every pair does, and the pair it names does meet.
    #[test]
    fn the_sweep_finds_what_testing_every_pair_finds() {
        let mut rng = StdRng::seed_from_u64(41);
        let (mut simple, mut meeting) = (0, 0);
        for case in 0..20_000 {
            let corners = rng.random_range(4..40);
            let vertices: Vec<Vec2> = if case % 2 == 0 {
                (0..corners)
                    .map(|_| {
                        Vec2::new(rng.random_range(0..8) as f32, rng.random_range(0..8) as f32)
                    })
                    .collect()
            } else {
                (0..corners)
                    .map(|i| {
                        let angle = i as f32 * core::f32::consts::TAU / corners as f32;
                        Vec2::from_angle(angle) * rng.random_range(1.0..10.0)
                    })
                    .collect()
            };
            // Folds and repeats are the other checks' part.
            let folds = (0..corners).any(|i| {
                let (a, b, c) = (
                    vertices[i],
                    vertices[(i + 1) % corners],
                    vertices[(i + 2) % corners],
                );
                a == b || ((b - a).perp_dot(c - b) == 0.0 && (b - a).dot(c - b) < 0.0)
            });
            if folds {
                continue;
            }
            match check_simple(&vertices) {
                Ok(()) => {
                    simple += 1;
                    assert!(!meets_itself(&vertices), "case {case}: {vertices:?}");
                }
                Err(ColliderError::SelfIntersecting(i, j)) => {
                    meeting += 1;
                    assert!(meets_itself(&vertices), "case {case}: {vertices:?}");
                    let edge =
                        |i: usize| geometry::Segment::new(vertices[i], vertices[(i + 1) % corners]);
                    assert!(
                        i < j && overlap_segment_segment(edge(i), edge(j)),
                        "case {case}: {i}, {j}"
                    );
                }
                Err(error) => panic!("case {case}: {error}"),
            }
        }
        assert!(
            simple > 5_000 && meeting > 3_000,
            "{simple} simple, {meeting} meeting"
        );
    }

    /// A finely drawn circle of 100,000 corners pairs each edge with a few others, not with
    /// all: testing every pair would take minutes.
    #[test]
    fn a_long_outline_pairs_each_edge_with_a_few() {
        let corners = 100_000;
        let vertices: Vec<Vec2> = (0..corners)
            .map(|i| Vec2::from_angle(i as f32 * core::f32::consts::TAU / corners as f32) * 1000.0)
            .collect();
        let pairs = pairs_side_by_side(&vertices).count();
        assert!(pairs < 5 * corners, "{pairs} pairs");
        assert_eq!(check_simple(&vertices), Ok(()));
    }
}
