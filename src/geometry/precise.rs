//! Points and segments in `f64`, for the searches that work in `f64` from the `f32` shapes:
//! the push-out and the turning sweeps.

use bevy::math::DVec2;

/// The edges of a loop of corners, as [`edges`](super::edges) gives them in `f32`: each edge of
/// a polygon once, a segment's one edge, a point's point twice.
pub(crate) fn edges(points: &[DVec2]) -> impl Iterator<Item = (DVec2, DVec2)> + '_ {
    let n = points.len();
    let count = match n {
        0 => 0,
        1 | 2 => 1,
        _ => n,
    };
    (0..count).map(move |i| (points[i], points[(i + 1) % n]))
}

/// The point of the closed segment `a`–`b` nearest to `p`.
pub(crate) fn nearest_on_segment(p: DVec2, a: DVec2, b: DVec2) -> DVec2 {
    let along = b - a;
    let length_squared = along.length_squared();
    if length_squared == 0.0 {
        return a;
    }
    a + along * ((p - a).dot(along) / length_squared).clamp(0.0, 1.0)
}

/// Where segments `a`–`b` and `c`–`d` cross, if they do (not when parallel).
pub(crate) fn segment_crossing(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> Option<DVec2> {
    let (along, other) = (b - a, d - c);
    let denominator = along.perp_dot(other);
    if denominator == 0.0 {
        return None;
    }
    let s = (c - a).perp_dot(other) / denominator;
    let u = (c - a).perp_dot(along) / denominator;
    ((0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&u)).then(|| a + along * s)
}

/// Whether `point` lies inside the loop of `points` (crossing number; on the outline either
/// way).
pub(crate) fn contains(points: &[DVec2], point: DVec2) -> bool {
    let mut inside = false;
    for (a, b) in edges(points) {
        if (a.y > point.y) != (b.y > point.y)
            && point.x < a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x)
        {
            inside = !inside;
        }
    }
    inside
}
