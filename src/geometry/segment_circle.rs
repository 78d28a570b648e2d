//! Segment–circle: a segment against a solid circle. The overlap test measures the distance from
//! the centre to the segment's nearest point; the crossing points are the roots of
//! `|a + t·(b − a) − c|² = r²`, a quadratic in `t`.

use super::{Circle, Containment, Intersection, Points, Segment, TOLERANCE, push_unique};
use bevy::math::Vec2;

/// Whether a segment touches a solid circle: the squared distance from the centre to the
/// segment's nearest point is at most `r²` (the nearest point is `a`, `b`, or the foot of the
/// perpendicular; no square root).
///
/// A segment wholly inside the circle overlaps it. A zero-length segment is a point. A negative
/// radius or non-finite input gives `false`.
#[inline]
pub fn overlap_segment_circle(segment: Segment, circle: Circle) -> bool {
    circle.is_valid()
        && segment.is_valid()
        && segment.distance_squared_to(circle.center) <= circle.radius * circle.radius
}

/// The points where a segment crosses or touches a circumference, or
/// [`Containment::FirstInSecond`] when the segment lies inside the circle.
///
/// Points are ordered from `segment.a` to `segment.b`: for a bullet that moved from `a` to `b`
/// during a frame, the first point is where it entered the circle. A segment tangent to the circle
/// gives one point; an end lying on the circumference is a point. A zero-length segment is a
/// point: it is the crossing point when it lies on the circumference, contained otherwise.
pub fn intersect_segment_circle(segment: Segment, circle: Circle) -> Option<Intersection> {
    if !overlap_segment_circle(segment, circle) {
        return None;
    }
    let tolerance = TOLERANCE * (segment.half_length() + circle.radius);
    let mut points = Points::new();
    push_crossings(segment, circle, tolerance, &mut points);
    if !points.is_empty() {
        return Some(Intersection::crossing(points));
    }
    let inside = |point: Vec2| point.distance_squared(circle.center) <= circle.radius.powi(2);
    if inside(segment.a) && inside(segment.b) {
        return Some(Intersection::contained(Containment::FirstInSecond));
    }
    // An end outside, yet no crossing found: the segment touches the circle a hair from
    // tangent, where rounding hid the root. The touching point is whichever of the ends and the
    // foot of the perpendicular lies nearest the circumference.
    let off_circle = |point: Vec2| (point.distance(circle.center) - circle.radius).abs();
    let touch = [segment.a, segment.b, segment.closest_point(circle.center)]
        .into_iter()
        .min_by(|p, q| off_circle(*p).total_cmp(&off_circle(*q)))
        .unwrap_or(segment.a);
    Some(Intersection::crossing(Points::from_slice(&[touch])))
}

/// Appends, in order from `a` to `b` and without near-duplicates, the points where `segment`
/// meets the circumference of `circle`. Inputs are finite; the caller decides what overlap
/// means when nothing is appended.
pub(crate) fn push_crossings(
    segment: Segment,
    circle: Circle,
    tolerance: f32,
    points: &mut Points,
) {
    let direction = segment.b - segment.a;
    let length = direction.length();
    let radius = circle.radius;
    if length <= tolerance {
        // A point: it meets the circumference when it lies on it.
        let point = segment.a.midpoint(segment.b);
        if (point.distance(circle.center) - radius).abs() <= tolerance {
            push_unique(points, point, tolerance);
        }
        return;
    }
    let unit = direction / length;
    let to_center = circle.center - segment.a;
    // Where the centre projects onto the segment's line, and how far from that line it is.
    let foot = unit.dot(to_center);
    let height = unit.perp_dot(to_center).abs();
    let line = Line {
        start: segment.a,
        unit,
        length,
    };
    let near_tangent = (height - radius).abs() <= tolerance;
    // The end nearer the foot, where the foot is off the segment.
    let end = if foot < 0.0 { segment.a } else { segment.b };
    if near_tangent && (-tolerance..=length + tolerance).contains(&foot) {
        // Tangent to the line, at a point of the segment.
        line.push_at(foot, tolerance, points);
    } else if near_tangent && (end.distance(circle.center) - radius).abs() <= tolerance {
        // Tangent to the line off the segment, whose end lies on the circumference: it touches
        // there. (Near tangent, the roots' rounding is many tolerances along the line.)
        push_unique(points, end, tolerance);
    } else if height < radius {
        // Secant (or near tangent, the segment reaching the circle away from its ends): the
        // quadratic's two roots, entry then exit, measured from the foot of the perpendicular
        // by half the chord.
        let half_chord = ((radius - height) * (radius + height)).sqrt();
        line.push_at(foot - half_chord, tolerance, points);
        line.push_at(foot + half_chord, tolerance, points);
    }
}

/// A segment as a line from `start` along `unit`, `length` long.
#[derive(Clone, Copy)]
struct Line {
    start: Vec2,
    unit: Vec2,
    length: f32,
}

impl Line {
    /// Appends the point `along` the line from its start, if it lies on the segment (within
    /// `tolerance` of it, and then clamped onto it), unless it lies within `tolerance` of the
    /// last point appended.
    #[inline(always)]
    fn push_at(self, along: f32, tolerance: f32, points: &mut Points) {
        if (-tolerance..=self.length + tolerance).contains(&along) {
            let point = self.start + self.unit * along.clamp(0.0, self.length);
            push_unique(points, point, tolerance);
        }
    }
}
