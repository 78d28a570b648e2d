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
/// outlines do.
///
/// Two convex pieces `gap` apart along the unit `normal` (from the first's nearest point to
/// the second's) lie on either side of two lines across `normal`, `gap` apart: no point of the
/// first lies beyond its nearest point along `normal`, none of the second before its own. The
/// pieces stay apart at least while they stay apart along that fixed `normal`. A point at `x`
/// from its pivot moves along `normal` at `normal · velocity + spin · normal · perp(x)` a unit
/// of time, and `|x|` does not change as it turns, so that speed is:
/// - at most `normal · velocity + |spin| · reach`, `reach` being the piece's farthest point
///   from its pivot: the whole piece carried at its fastest point's speed;
/// - at most its speed now plus `spin² · |x| · τ` a time `τ` from now: turning through
///   `spin · τ` moves `x` by at most `|spin · τ| · |x|`.
///
/// By the second, end by end: an edge's points lie between its two ends (a disc's, as its
/// centre's, its radius further), so the pieces stay apart along `normal` while each end of
/// the first stays behind each end of the second, and each pair of ends starts the `gap`
/// apart plus how far each end lies behind its piece's nearest point along `normal`. An end far
/// from the gap may move fast towards it (the far corner of a spinning saw's edge whose near
/// corner grazes a floor) and still take long to cross its own distance. Of the two bounds the
/// longer is taken. Both are tighter than the fastest point's speed where the shapes slide
/// along each other (sliding does not move them along `normal`), the second also where a shape
/// turns about a point beside the other (a laser tilting up from a floor it skims), or spins a
/// hair from it.
///
/// The time is to where the pieces are still `short` apart (so that the caller, stopping
/// within a tolerance of touching, stops before touching, where the nearest points give the
/// normal).
pub(super) fn time_apart(
    first: Posed,
    first_motion: Motion,
    second: Posed,
    second_motion: Motion,
    short: f64,
) -> f64 {
    let relative = first_motion.velocity - second_motion.velocity;
    let mut least = f64::INFINITY;
    for piece in first.pieces() {
        let reach = piece.reach(first_motion.pivot);
        for other in second.pieces() {
            let Some(Separation { gap, normal }) = piece.separation(other) else {
                return 0.0;
            };
            let other_reach = other.reach(second_motion.pivot);
            let sliding = normal.dot(relative);
            let fastest =
                sliding + first_motion.spin.abs() * reach + second_motion.spin.abs() * other_reach;
            let gap = (gap - short).max(0.0);
            let mut end_by_end = f64::INFINITY;
            for end in piece.ends(normal, first_motion) {
                for other_end in other.ends(-normal, second_motion) {
                    let time = time_to_close(
                        gap + end.behind + other_end.behind,
                        sliding + end.speed + other_end.speed,
                        end.quickening + other_end.quickening,
                    );
                    end_by_end = end_by_end.min(time);
                }
            }
            let time = time_to_close(gap, fastest, 0.0).max(end_by_end);
            least = least.min(time);
        }
    }
    least
}

/// An end of a piece as it moves along a direction (see [`time_apart`]).
#[derive(Clone, Copy)]
struct End {
    /// How far it lies behind its piece's farthest point along the direction.
    behind: f64,
    /// How fast it moves along the direction now, by the turn alone (a disc: its farthest
    /// point along the direction).
    speed: f64,
    /// A bound on how fast that speed can grow, a unit of time.
    quickening: f64,
}

/// The time to close `gap` at `speed` now, the speed growing by `quickening` each unit of
/// time: the root `τ` of `speed · τ + quickening · τ² / 2 = gap`; infinite where it never
/// closes.
fn time_to_close(gap: f64, speed: f64, quickening: f64) -> f64 {
    if gap <= 0.0 {
        return 0.0;
    }
    if quickening <= 0.0 {
        return if speed > 0.0 {
            gap / speed
        } else {
            f64::INFINITY
        };
    }
    let root = (speed * speed + 2.0 * quickening * gap).sqrt();
    // Each form where it does not subtract nearly equal numbers.
    if speed >= 0.0 {
        2.0 * gap / (speed + root)
    } else {
        (root - speed) / quickening
    }
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

    /// Its ends as it moves along `normal` by `motion`'s turn (see [`time_apart`]): a disc's
    /// centre, carrying its radius (a point of the disc at its centre's distance from the
    /// pivot plus its radius, turning at up to `|spin|` times its radius about the centre), or
    /// an edge's two ends.
    fn ends(self, normal: DVec2, motion: Motion) -> impl Iterator<Item = End> {
        let along = |point: DVec2| motion.spin * normal.dot((point - motion.pivot).perp());
        let spin_squared = motion.spin * motion.spin;
        let (ends, count) = match self {
            Piece::Disc(center, radius) => {
                let end = End {
                    behind: 0.0,
                    speed: along(center) + motion.spin.abs() * radius,
                    quickening: spin_squared * (center.distance(motion.pivot) + radius),
                };
                ([end, end], 1)
            }
            Piece::Edge(a, b) => {
                let farthest = normal.dot(a).max(normal.dot(b));
                let end = |point: DVec2| End {
                    behind: (farthest - normal.dot(point)).max(0.0),
                    speed: along(point),
                    quickening: spin_squared * point.distance(motion.pivot),
                };
                ([end(a), end(b)], 2)
            }
        };
        ends.into_iter().take(count)
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

    /// A shape in `f64`.
    enum Outline {
        Disc(DVec2, f64),
        Corners(Vec<DVec2>),
    }

    impl Outline {
        /// A random shape near the origin: a circle, a segment, or a star (concave).
        fn random(rng: &mut StdRng) -> Self {
            let center = DVec2::new(rng.random_range(-50.0..50.0), rng.random_range(-50.0..50.0));
            match rng.random_range(0..3) {
                0 => Outline::Disc(center, rng.random_range(1.0..15.0)),
                1 => {
                    let half =
                        DVec2::from_angle(rng.random_range(0.0..TAU)) * rng.random_range(2.0..60.0);
                    Outline::Corners(vec![center - half, center + half])
                }
                _ => {
                    let corners = 2 * rng.random_range(3..6);
                    let size = rng.random_range(5.0..30.0);
                    Outline::Corners(
                        (0..corners)
                            .map(|i| {
                                let reach = if i % 2 == 1 { 0.5 } else { 1.0 };
                                center
                                    + DVec2::from_angle(i as f64 * TAU / corners as f64)
                                        * size
                                        * reach
                            })
                            .collect(),
                    )
                }
            }
        }

        fn posed(&self) -> Posed<'_> {
            match self {
                Outline::Disc(center, radius) => Posed::Circle(*center, *radius),
                Outline::Corners(points) => Posed::Points(points),
            }
        }

        /// The shape moved on by `time` from where it is.
        fn moved(&self, motion: Motion, time: f64) -> Self {
            let rotation = DVec2::from_angle(motion.spin * time);
            let place = |p: DVec2| {
                motion.pivot + motion.velocity * time + rotation.rotate(p - motion.pivot)
            };
            match self {
                Outline::Disc(center, radius) => Outline::Disc(place(*center), *radius),
                Outline::Corners(points) => {
                    Outline::Corners(points.iter().map(|&p| place(p)).collect())
                }
            }
        }

        /// Whether it overlaps `other`, by the exact test on both cast to `f32`.
        fn overlaps(&self, other: &Self) -> bool {
            let corners = |outline: &Self| match outline {
                Outline::Disc(..) => Vec::new(),
                Outline::Corners(points) => points.iter().map(|p| p.as_vec2()).collect(),
            };
            fn shape<'a>(outline: &Outline, corners: &'a [Vec2]) -> Shape<'a> {
                match (outline, corners) {
                    (Outline::Disc(center, radius), _) => {
                        Shape::Circle(Circle::new(center.as_vec2(), *radius as f32))
                    }
                    (_, [a, b]) => Shape::Segment(Segment::new(*a, *b)),
                    (_, corners) => Shape::Polygon(corners),
                }
            }
            let (mine, theirs) = (corners(self), corners(other));
            overlap(shape(self, &mine), shape(other, &theirs))
        }
    }

    /// The time `first` and `second` are found apart, checked: at 400 times within 99% of it,
    /// the shapes moved there (in `f64`, tested by the exact `f32` overlap test) do not
    /// overlap. (Closer to the time found, the shapes may be closer than `f32` can tell.)
    fn checked_time_apart(
        case: usize,
        first: &Outline,
        first_motion: Motion,
        second: &Outline,
        second_motion: Motion,
    ) -> f64 {
        let apart = time_apart(
            first.posed(),
            first_motion,
            second.posed(),
            second_motion,
            0.0,
        );
        let end = apart.min(1.0) * 0.99;
        for step in 0..=400 {
            let time = end * f64::from(step) / 400.0;
            let (a, b) = (
                first.moved(first_motion, time),
                second.moved(second_motion, time),
            );
            assert!(
                !a.overlaps(&b),
                "case {case}: found apart for {apart}, yet they overlap at {time}"
            );
        }
        apart
    }

    /// Pairs of shapes apart, moving and turning at random, stay apart for the time found.
    #[test]
    fn shapes_stay_apart_for_the_time_found() {
        let mut rng = StdRng::seed_from_u64(37);
        let mut bounded = 0;
        for case in 0..3000 {
            let (first, second) = (Outline::random(&mut rng), Outline::random(&mut rng));
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
            if first.overlaps(&second) {
                continue;
            }
            let apart = checked_time_apart(case, &first, first_motion, &second, second_motion);
            bounded += usize::from(apart < 1.0);
        }
        assert!(bounded > 500, "{bounded} bounded");
    }

    /// A segment falling flat onto a floor stops `short` above it, at the time worked out by
    /// hand: the caller then stops a hair before touching, where the nearest points still give
    /// the floor's normal.
    #[test]
    fn the_time_apart_stops_short_of_touching() {
        let (height, speed, short) = (1.0, 2.0, 0.1);
        let plank = Outline::Corners(vec![DVec2::new(-10.0, height), DVec2::new(10.0, height)]);
        let floor = Outline::Corners(vec![DVec2::new(-50.0, 0.0), DVec2::new(50.0, 0.0)]);
        let falling = Motion {
            velocity: DVec2::new(0.0, -speed),
            pivot: DVec2::new(0.0, height),
            spin: 0.0,
        };
        let still = Motion {
            velocity: DVec2::ZERO,
            pivot: DVec2::ZERO,
            spin: 0.0,
        };
        let apart = time_apart(plank.posed(), falling, floor.posed(), still, short);
        assert!((apart - (height - short) / speed).abs() < 1e-12, "{apart}");
    }

    /// A segment sliding a hair away along a floor (a long segment) at up to 100 a unit of
    /// time: where it does not turn, they are found apart for all of the motion (the fastest
    /// point's speed would find them apart for a ten-thousandth of it); where it also turns
    /// about its near end, they stay apart for the time found.
    #[test]
    fn a_segment_sliding_along_another_is_found_apart() {
        let mut rng = StdRng::seed_from_u64(47);
        for case in 0..2000 {
            let along = DVec2::from_angle(rng.random_range(0.0..TAU));
            let start = DVec2::new(rng.random_range(-20.0..20.0), rng.random_range(-20.0..20.0));
            let gap = rng.random_range(0.01..0.05);
            let length = rng.random_range(5.0..50.0);
            let first = Outline::Corners(vec![start, start + along * length]);
            let floor_start = start - along * 120.0 + along.perp() * gap;
            let second = Outline::Corners(vec![floor_start, floor_start + along * 290.0]);
            let turns = case % 2 == 1;
            let first_motion = Motion {
                velocity: along
                    * rng.random_range(10.0..100.0)
                    * if case % 4 < 2 { 1.0 } else { -1.0 },
                pivot: start,
                spin: if turns {
                    rng.random_range(-0.5..0.5)
                } else {
                    0.0
                },
            };
            let still = Motion {
                velocity: DVec2::ZERO,
                pivot: DVec2::ZERO,
                spin: 0.0,
            };
            let apart = checked_time_apart(case, &first, first_motion, &second, still);
            assert!(turns || apart > 1.0, "case {case}: apart for {apart}");
        }
    }
}
