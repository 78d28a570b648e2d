//! Shapes posed at one time of a turning sweep, in `f64`, the exact distance between two of
//! them, and how long they surely stay apart: what the conservative advancement of
//! [`turn`](super::turn) steps by.

use crate::geometry::precise::{contains, edges, nearest_on_segment, segment_crossing};
use bevy::math::DVec2;

/// A shape placed at one time.
#[derive(Clone, Copy)]
pub(super) enum Posed<'a> {
    Circle(DVec2, f64),
    Points(&'a [DVec2]),
}

/// How a posed shape moves at its time: the velocity of its pivot, where the pivot is, and
/// how fast it turns about it (radians per unit of time, counter-clockwise).
#[derive(Clone, Copy, Debug)]
pub(super) struct Motion {
    pub velocity: DVec2,
    pub pivot: DVec2,
    pub spin: f64,
}

/// How far apart two shapes are (zero when they overlap), and their nearest points.
pub(super) struct Gap {
    pub distance: f64,
    pub on_first: DVec2,
    pub on_second: DVec2,
}

/// The exact distance between two posed shapes, and their nearest points.
pub(super) fn distance(first: Posed, second: Posed) -> Gap {
    match (first, second) {
        (Posed::Circle(a, r), Posed::Circle(b, s)) => {
            let between = (b - a).normalize_or(DVec2::X);
            Gap {
                distance: (a.distance(b) - r - s).max(0.0),
                on_first: a + between * r,
                on_second: b - between * s,
            }
        }
        (Posed::Circle(center, radius), Posed::Points(points)) => {
            let gap = circle_to_points(center, radius, points);
            Gap {
                distance: gap.distance,
                on_first: gap.on_second,
                on_second: gap.on_first,
            }
        }
        (Posed::Points(points), Posed::Circle(center, radius)) => {
            circle_to_points(center, radius, points)
        }
        (Posed::Points(a), Posed::Points(b)) => points_to_points(a, b),
    }
}

/// How long from now, at least, `first` and `second`, which do not overlap, stay apart (zero
/// where they touch), found piece by piece. Each shape's outline lies in convex pieces: a
/// circle's disc, or the edges of its corners; two solid shapes apart first meet where their
/// outlines do. For two convex
/// pieces `gap` apart along the unit `normal` from the first's nearest point to the
/// second's, no point of the first lies beyond the line across `normal` through its nearest
/// point, and none of the second before the parallel line `gap` on, so the pieces are at least
/// as far apart as those lines. A point of a shape at `reach` from its pivot moves along
/// `normal` at most `normal · velocity` plus `|spin| · reach` a unit of time, and `reach` does
/// not change as it moves, so the lines close in no faster than `closing` below for the whole
/// motion. The bound is tighter than the fastest point's speed where the shapes slide along
/// each other: the sliding hardly moves them along `normal`.
pub(super) fn time_apart(
    first: Posed,
    first_motion: Motion,
    second: Posed,
    second_motion: Motion,
) -> f64 {
    let relative = first_motion.velocity - second_motion.velocity;
    let mut least = f64::INFINITY;
    for piece in first.pieces() {
        let turning = first_motion.spin.abs() * piece.reach(first_motion.pivot);
        for other in second.pieces() {
            let Some(separation) = piece.separation(other) else {
                return 0.0;
            };
            let closing = separation.normal.dot(relative)
                + turning
                + second_motion.spin.abs() * other.reach(second_motion.pivot);
            if closing > 0.0 {
                least = least.min(separation.gap / closing);
            }
        }
    }
    least
}

/// A convex piece of a shape's outline.
#[derive(Clone, Copy)]
enum Piece {
    Disc(DVec2, f64),
    Edge(DVec2, DVec2),
}

/// How far apart two pieces are, and the unit direction from the first's nearest point to
/// the second's.
struct Separation {
    gap: f64,
    normal: DVec2,
}

impl<'a> Posed<'a> {
    /// The convex pieces of its outline: a circle's disc, or each of its edges.
    fn pieces(self) -> impl Iterator<Item = Piece> + 'a {
        let (disc, points) = match self {
            Posed::Circle(center, radius) => (Some(Piece::Disc(center, radius)), &[][..]),
            Posed::Points(points) => (None, points),
        };
        disc.into_iter()
            .chain(edges(points).map(|(a, b)| Piece::Edge(a, b)))
    }
}

impl Piece {
    /// Its farthest point from `pivot`.
    fn reach(self, pivot: DVec2) -> f64 {
        match self {
            Piece::Disc(center, radius) => center.distance(pivot) + radius,
            Piece::Edge(a, b) => a.distance(pivot).max(b.distance(pivot)),
        }
    }

    /// How far it is from `other`; `None` where they touch.
    fn separation(self, other: Piece) -> Option<Separation> {
        // The nearest points of the outlines' middles (a disc's centre, or the edge), and the
        // radii to take off.
        let (from, to, radii) = match (self, other) {
            (Piece::Disc(a, r), Piece::Disc(b, s)) => (a, b, r + s),
            (Piece::Disc(center, radius), Piece::Edge(a, b)) => {
                (center, nearest_on_segment(center, a, b), radius)
            }
            (Piece::Edge(a, b), Piece::Disc(center, radius)) => {
                (nearest_on_segment(center, a, b), center, radius)
            }
            (Piece::Edge(a, b), Piece::Edge(c, d)) => {
                let (p, q) = nearest_between_segments(a, b, c, d);
                (p, q, 0.0)
            }
        };
        let between = to - from;
        let length = between.length();
        let gap = length - radii;
        (gap > 0.0).then(|| Separation {
            gap,
            normal: between / length,
        })
    }
}

/// From the corners' shape (first) to the circle (second).
fn circle_to_points(center: DVec2, radius: f64, points: &[DVec2]) -> Gap {
    // The first nearest point of the edges (as `min_by` would pick), in a plain loop: the
    // conservative advancement asks this at every step.
    let mut on_edges = edges(points).map(|(a, b)| nearest_on_segment(center, a, b));
    let nearest = on_edges.next().map_or(points[0], |first| {
        let (mut nearest, mut least) = (first, first.distance_squared(center));
        for point in on_edges {
            let distance = point.distance_squared(center);
            if distance.total_cmp(&least).is_lt() {
                (nearest, least) = (point, distance);
            }
        }
        nearest
    });
    if points.len() >= 3 && contains(points, center) {
        return Gap {
            distance: 0.0,
            on_first: center,
            on_second: center,
        };
    }
    let away = nearest.distance(center);
    Gap {
        distance: (away - radius).max(0.0),
        on_first: nearest,
        on_second: center + (nearest - center).normalize_or_zero() * radius,
    }
}

fn points_to_points(first: &[DVec2], second: &[DVec2]) -> Gap {
    let inside = |points: &[DVec2], others: &[DVec2]| {
        if points.len() < 3 {
            return None;
        }
        others.iter().find(|&&p| contains(points, p)).copied()
    };
    if let Some(p) = inside(second, first).or_else(|| inside(first, second)) {
        return Gap {
            distance: 0.0,
            on_first: p,
            on_second: p,
        };
    }
    let mut best = Gap {
        distance: f64::INFINITY,
        on_first: first[0],
        on_second: second[0],
    };
    for (a, b) in edges(first) {
        for (c, d) in edges(second) {
            let (p, q) = nearest_between_segments(a, b, c, d);
            let distance = p.distance(q);
            if distance < best.distance {
                best = Gap {
                    distance,
                    on_first: p,
                    on_second: q,
                };
            }
        }
    }
    best
}

/// The nearest points of segments `a`–`b` and `c`–`d`: where they cross, or the nearest of
/// each end to the other segment.
fn nearest_between_segments(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> (DVec2, DVec2) {
    if let Some(crossing) = segment_crossing(a, b, c, d) {
        return (crossing, crossing);
    }
    [
        (a, nearest_on_segment(a, c, d)),
        (b, nearest_on_segment(b, c, d)),
        (nearest_on_segment(c, a, b), c),
        (nearest_on_segment(d, a, b), d),
    ]
    .into_iter()
    .min_by(|(p, q), (r, s)| p.distance_squared(*q).total_cmp(&r.distance_squared(*s)))
    .expect("four candidates")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Circle, Segment, Shape, overlap};
    use bevy::math::Vec2;
    use core::f64::consts::{PI, TAU};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// A random shape near the origin: a circle, a segment, or a star (concave).
    fn shape(rng: &mut StdRng) -> (Option<(DVec2, f64)>, Vec<DVec2>) {
        let center = DVec2::new(rng.random_range(-50.0..50.0), rng.random_range(-50.0..50.0));
        match rng.random_range(0..3) {
            0 => (Some((center, rng.random_range(1.0..15.0))), Vec::new()),
            1 => {
                let half =
                    DVec2::from_angle(rng.random_range(0.0..TAU)) * rng.random_range(2.0..60.0);
                (None, vec![center - half, center + half])
            }
            _ => {
                let corners = 2 * rng.random_range(3..6);
                let size = rng.random_range(5.0..30.0);
                let points = (0..corners)
                    .map(|i| {
                        let reach = if i % 2 == 1 { 0.5 } else { 1.0 };
                        center + DVec2::from_angle(i as f64 * TAU / corners as f64) * size * reach
                    })
                    .collect();
                (None, points)
            }
        }
    }

    /// The shape moved on by `time` from where it is, in `f64`, cast to `f32`.
    fn moved(
        (circle, points): &(Option<(DVec2, f64)>, Vec<DVec2>),
        motion: Motion,
        time: f64,
    ) -> (Option<Circle>, Vec<Vec2>) {
        let rotation = DVec2::from_angle(motion.spin * time);
        let place = |p: DVec2| {
            (motion.pivot + motion.velocity * time + rotation.rotate(p - motion.pivot)).as_vec2()
        };
        (
            circle.map(|(center, radius)| Circle::new(place(center), radius as f32)),
            points.iter().map(|&p| place(p)).collect(),
        )
    }

    fn as_shape<'a>((circle, points): &'a (Option<Circle>, Vec<Vec2>)) -> Shape<'a> {
        match (circle, &points[..]) {
            (Some(circle), _) => Shape::Circle(*circle),
            (None, [a, b]) => Shape::Segment(Segment::new(*a, *b)),
            (None, points) => Shape::Polygon(points),
        }
    }

    fn posed((circle, points): &(Option<(DVec2, f64)>, Vec<DVec2>)) -> Posed<'_> {
        match circle {
            Some((center, radius)) => Posed::Circle(*center, *radius),
            None => Posed::Points(points),
        }
    }

    /// Pairs of shapes apart, moving and turning at random, some sliding along each other:
    /// at 400 times within the time found apart, the shapes moved there (in `f64`, tested by
    /// the exact `f32` overlap test) do not overlap.
    #[test]
    fn shapes_stay_apart_for_the_time_found() {
        let mut rng = StdRng::seed_from_u64(37);
        let mut bounded = 0;
        for case in 0..3000 {
            let (first, second) = (shape(&mut rng), shape(&mut rng));
            let motion = |rng: &mut StdRng| Motion {
                velocity: DVec2::from_angle(rng.random_range(0.0..TAU))
                    * rng.random_range(0.0..100.0),
                pivot: DVec2::new(rng.random_range(-60.0..60.0), rng.random_range(-60.0..60.0)),
                spin: if rng.random_bool(0.5) {
                    0.0
                } else {
                    rng.random_range(-PI..PI)
                },
            };
            let (first_motion, second_motion) = (motion(&mut rng), motion(&mut rng));
            let now = (
                moved(&first, first_motion, 0.0),
                moved(&second, second_motion, 0.0),
            );
            if overlap(as_shape(&now.0), as_shape(&now.1)) {
                continue;
            }
            let apart = time_apart(posed(&first), first_motion, posed(&second), second_motion);
            let end = apart.min(1.0) * 0.999;
            bounded += usize::from(apart < 1.0);
            for step in 0..=400 {
                let time = end * f64::from(step) / 400.0;
                let (a, b) = (
                    moved(&first, first_motion, time),
                    moved(&second, second_motion, time),
                );
                assert!(
                    !overlap(as_shape(&a), as_shape(&b)),
                    "case {case}: found apart for {apart}, yet they overlap at {time}"
                );
            }
        }
        assert!(bounded > 500, "{bounded} bounded");
    }
}
