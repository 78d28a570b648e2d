//! Shapes posed at one time of a turning sweep, in `f64`, and the exact distance between two
//! of them: what the conservative advancement of [`turn`](super::turn) steps by.

use crate::geometry::precise::{contains, edges, nearest_on_segment, segment_crossing};
use bevy::math::DVec2;

/// A shape placed at one time.
#[derive(Clone, Copy)]
pub(super) enum Posed<'a> {
    Circle(DVec2, f64),
    Points(&'a [DVec2]),
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
