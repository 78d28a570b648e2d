//! Circle–circle: two solid circles. The overlap test compares squared lengths; the crossing
//! points come from the law of cosines on the triangle of the two centres and a crossing point.

use super::{Circle, Containment, Intersection, MAX_COORDINATE, Points, TOLERANCE, push_unique};

/// Whether two circles overlap: `|c₁ − c₂|² ≤ (r₁ + r₂)²`, no square root.
///
/// (The broad phase makes the same comparison on bounding circles, inline, on values that the
/// prepare stage has already checked.) A negative radius or non-finite input gives `false` (a NaN or infinite centre makes the squared distance fail the
/// comparison; the radii are checked, so the right side stays finite).
#[inline]
pub fn overlap_circle_circle(first: Circle, second: Circle) -> bool {
    let reach = first.radius + second.radius;
    first.radius >= 0.0
        && second.radius >= 0.0
        && reach <= 2.0 * MAX_COORDINATE
        && first.center.distance_squared(second.center) <= reach * reach
}

/// The points where two circumferences cross or touch, or which circle holds the other.
///
/// With `d` the distance between centres:
/// - `d > r₁ + r₂`: apart, `None`;
/// - `d` within tolerance of `r₁ + r₂`: touching outside, one point between the centres;
/// - `d` within tolerance of `|r₁ − r₂|`: touching inside, one point on the larger circle;
/// - `d < |r₁ − r₂|`: the smaller circle inside the larger, no points;
/// - both `d` and `|r₁ − r₂|` within tolerance of zero: the same circle,
///   [`Containment::Coincident`];
/// - otherwise two points, the one left of the line from the first centre to the second first.
pub fn intersect_circle_circle(first: Circle, second: Circle) -> Option<Intersection> {
    if !overlap_circle_circle(first, second) {
        return None;
    }
    let tolerance = TOLERANCE * (first.radius + second.radius);
    let offset = second.center - first.center;
    let distance = offset.length();
    let radius_gap = (first.radius - second.radius).abs();

    if distance <= tolerance && radius_gap <= tolerance {
        return Some(Intersection::contained(Containment::Coincident));
    }
    // Negative when one disc lies inside the other.
    let inner_gap = distance - radius_gap;
    if inner_gap < -tolerance {
        return Some(Intersection::contained(if first.radius < second.radius {
            Containment::FirstInSecond
        } else {
            Containment::SecondInFirst
        }));
    }
    // Here `distance > 0`: `distance == 0` was either coincident or contained above.
    let toward_second = offset / distance;
    let mut points = Points::new();
    if inner_gap <= tolerance {
        // Touching inside: the point on the larger circle facing the smaller one.
        let (larger, smaller) = if first.radius >= second.radius {
            (first, second)
        } else {
            (second, first)
        };
        let toward_smaller = (smaller.center - larger.center) / distance;
        points.push(larger.center + toward_smaller * larger.radius);
    } else if first.radius + second.radius - distance <= tolerance {
        // Touching outside: halfway between the two circles' nearest points.
        let along = 0.5 * (first.radius + distance - second.radius);
        points.push(first.center + toward_second * along);
    } else {
        // Law of cosines, from the smaller circle's centre (from the larger one, `r² − along²`
        // would lose the chord to cancellation when the radii differ a lot): `along` is the
        // distance from that centre to the chord's foot, `half_chord` half the chord's length.
        let (near, far, toward_far) = if second.radius < first.radius {
            (second, first, -toward_second)
        } else {
            (first, second, toward_second)
        };
        let along = (distance * distance + (near.radius - far.radius) * (near.radius + far.radius))
            / (2.0 * distance);
        let half_chord_squared = (near.radius - along) * (near.radius + along);
        let half_chord = half_chord_squared.max(0.0).sqrt();
        let foot = near.center + toward_far * along;
        let left = toward_second.perp();
        points.push(foot + left * half_chord);
        push_unique(&mut points, foot - left * half_chord, tolerance);
    }
    Some(Intersection::crossing(points))
}
