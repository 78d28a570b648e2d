//! The reference, in `f64` and using none of the crate's code: the two shapes' overlap and
//! distance at any time, sampled densely over the motion.

use bevy::math::DVec2;

/// A shape as the reference sees it.
pub(crate) enum Reference {
    Circle {
        center: DVec2,
        radius: f64,
    },
    /// A segment or polygon: its corners (vertices, ends), its edges, and whether it is solid
    /// (a polygon of three or more vertices).
    Outline {
        corners: Vec<DVec2>,
        edges: Vec<(DVec2, DVec2)>,
        solid: bool,
    },
}

impl Reference {
    /// The distance from `point` to the outline, the shape moved by `shift`.
    pub(crate) fn outline_distance(&self, point: DVec2, shift: DVec2) -> f64 {
        match self {
            Reference::Circle { center, radius } => {
                ((point - shift).distance(*center) - radius).abs()
            }
            Reference::Outline { edges, .. } => edges
                .iter()
                .map(|(a, b)| distance_to_segment(point - shift, *a, *b))
                .fold(f64::INFINITY, f64::min),
        }
    }
}

/// Two shapes at one time.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Contact {
    /// Whether the closed shapes share a point.
    pub(crate) overlap: bool,
    /// How far the nearest feature pair is from touching: a vertex (segment end) from an edge
    /// of the other, a circle's centre from an edge or centre, less the radii. Apart, this is
    /// the shapes' distance. Overlapping, it is a lower bound on how far one must move to part
    /// them (the penetration depth): the shapes touch without overlapping only in such feature
    /// contacts, so reaching one takes a move of at least this.
    pub(crate) gap: f64,
}

/// The reference's view of the two shapes, `first` moved by `shift` relative to `second`.
pub(crate) fn contact(first: &Reference, second: &Reference, shift: DVec2) -> Contact {
    use Reference::{Circle, Outline};
    match (first, second) {
        (
            Circle {
                center: c1,
                radius: r1,
            },
            Circle {
                center: c2,
                radius: r2,
            },
        ) => {
            let distance = (*c1 + shift).distance(*c2);
            Contact {
                overlap: distance <= r1 + r2,
                gap: (distance - r1 - r2).abs(),
            }
        }
        (
            Circle { center, radius },
            Outline {
                corners,
                edges,
                solid,
            },
        ) => disc_outline(*center + shift, *radius, corners, edges, *solid),
        (
            Outline {
                corners,
                edges,
                solid,
            },
            Circle { center, radius },
        ) => disc_outline(*center - shift, *radius, corners, edges, *solid),
        (
            Outline {
                corners: corners1,
                edges: edges1,
                solid: solid1,
            },
            Outline {
                corners: corners2,
                edges: edges2,
                solid: solid2,
            },
        ) => {
            let mut gap = f64::INFINITY;
            let mut crossing = false;
            for &(a, b) in edges2 {
                for &corner in corners1 {
                    gap = gap.min(distance_to_segment(corner + shift, a, b));
                }
                for &(c, d) in edges1 {
                    crossing |= segments_cross(c + shift, d + shift, a, b);
                }
            }
            for &(c, d) in edges1 {
                for &corner in corners2 {
                    gap = gap.min(distance_to_segment(corner - shift, c, d));
                }
            }
            let inside = (*solid2 && inside_polygon(corners1[0] + shift, corners2))
                || (*solid1 && inside_polygon(corners2[0] - shift, corners1));
            Contact {
                overlap: gap == 0.0 || crossing || inside,
                gap,
            }
        }
    }
}

fn disc_outline(
    center: DVec2,
    radius: f64,
    corners: &[DVec2],
    edges: &[(DVec2, DVec2)],
    solid: bool,
) -> Contact {
    let mut nearest = f64::INFINITY;
    let mut gap = f64::INFINITY;
    for &(a, b) in edges {
        let distance = distance_to_segment(center, a, b);
        nearest = nearest.min(distance);
        gap = gap.min((distance - radius).abs());
    }
    Contact {
        overlap: nearest <= radius || (solid && inside_polygon(center, corners)),
        gap,
    }
}

pub(crate) fn distance_to_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    let length_squared = ab.length_squared();
    let t = if length_squared == 0.0 {
        0.0
    } else {
        ((p - a).dot(ab) / length_squared).clamp(0.0, 1.0)
    };
    p.distance(a + ab * t)
}

/// Whether two segments cross properly (each one's ends strictly on both sides of the other's
/// line); touching is left to the distances.
fn segments_cross(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let side = |p: DVec2, q: DVec2, x: DVec2| (q - p).perp_dot(x - p);
    let opposite = |s: f64, t: f64| (s < 0.0 && t > 0.0) || (s > 0.0 && t < 0.0);
    opposite(side(a, b, c), side(a, b, d)) && opposite(side(c, d, a), side(c, d, b))
}

/// Point in polygon by the crossing number: a ray towards `+x` crosses the outline an odd
/// number of times.
fn inside_polygon(p: DVec2, vertices: &[DVec2]) -> bool {
    let mut inside = false;
    for i in 0..vertices.len() {
        let (a, b) = (vertices[i], vertices[(i + 1) % vertices.len()]);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// Samples over the motion.
pub(crate) const STEPS: usize = 4096;

/// What the reference saw over the motion.
#[derive(Debug)]
pub(crate) struct Scan {
    /// The first sampled time at which the shapes overlap.
    pub(crate) first_overlap: Option<f64>,
    /// The last sampled time before that (the shapes apart there).
    last_apart: f64,
    /// The largest [`Contact::gap`] of the overlapping samples (a lower bound on the deepest
    /// penetration), up to the point where it passed the depth asked for.
    pub(crate) max_depth: f64,
    /// A lower bound on the shapes' distance over the whole motion, when no sample overlaps.
    pub(crate) min_distance: f64,
}

/// Samples the relative motion at `STEPS + 1` evenly spaced times.
///
/// Times where the shapes are provably apart are skipped: the gap changes by at most `speed`
/// per unit of time (every feature moves at most that fast), so from a sample with gap `g` the
/// shapes cannot meet within `g / speed`; half of that is skipped. That the shapes are apart
/// between two samples with gaps `g₀`, `g₁` a time `h` apart, and how close they come, is
/// bounded by the same rule: at least `(g₀ + g₁ − speed·h) / 2`. The scan stops once the depth
/// passes `enough`.
pub(crate) fn scan(first: &Reference, second: &Reference, relative: DVec2, enough: f64) -> Scan {
    let speed = relative.length();
    let mut result = Scan {
        first_overlap: None,
        last_apart: 0.0,
        max_depth: 0.0,
        min_distance: f64::INFINITY,
    };
    let mut previous: Option<(f64, Contact)> = None;
    let mut k = 0;
    loop {
        let t = k as f64 / STEPS as f64;
        let now = contact(first, second, relative * t);
        if now.overlap {
            result.first_overlap.get_or_insert(t);
            result.max_depth = result.max_depth.max(now.gap);
            result.min_distance = 0.0;
            if result.max_depth > enough {
                break;
            }
        } else {
            if result.first_overlap.is_none() {
                result.last_apart = t;
            }
            let bound = match previous {
                Some((t0, before)) if !before.overlap => {
                    0.5 * (before.gap + now.gap - speed * (t - t0))
                }
                Some(_) => 0.0,
                None => now.gap,
            };
            result.min_distance = result.min_distance.min(bound);
        }
        previous = Some((t, now));
        if k == STEPS || speed == 0.0 {
            break;
        }
        let skip = if now.overlap {
            1
        } else {
            ((0.5 * now.gap / speed * STEPS as f64).floor() as usize).max(1)
        };
        k = (k + skip).min(STEPS);
    }
    result
}

/// The first time the shapes touch, by bisection between the last apart sample and the first
/// overlapping one.
pub(crate) fn touch_time(
    first: &Reference,
    second: &Reference,
    relative: DVec2,
    scan: &Scan,
) -> Option<f64> {
    let (mut apart, mut touching) = (scan.last_apart, scan.first_overlap?);
    for _ in 0..60 {
        let middle = 0.5 * (apart + touching);
        if contact(first, second, relative * middle).overlap {
            touching = middle;
        } else {
            apart = middle;
        }
    }
    Some(touching)
}
