//! Segment–segment: two closed segments, crossing or running along each other.

use super::{Intersection, Points, Segment, TOLERANCE, push_unique, wider_axis};
use bevy::math::Vec2;
use smallvec::SmallVec;

/// Whether two closed segments share a point: each one's ends lie on opposite sides of (or on)
/// the other's line, or, when all four ends are collinear, their extents overlap.
///
/// Zero-length segments are points. Non-finite input gives `false`.
#[inline]
pub fn overlap_segment_segment(first: Segment, second: Segment) -> bool {
    first.is_valid() && second.is_valid() && segments_meet(first, second)
}

/// The points where two segments meet, ordered from `first.a` to `first.b`.
///
/// Crossing segments give one point; segments that run along each other (collinear within
/// tolerance) give the two ends of the shared piece, or one point when that piece is shorter
/// than the tolerance. A zero-length segment lying on the other is that one point.
/// [`Intersection::containment`] is always [`Neither`](super::Containment::Neither): a segment
/// has no inside.
pub fn intersect_segment_segment(first: Segment, second: Segment) -> Option<Intersection> {
    if !overlap_segment_segment(first, second) {
        return None;
    }
    let tolerance = TOLERANCE * (first.half_length() + second.half_length());
    let mut points = Points::new();
    push_crossings(first, second, tolerance, &mut points);
    if points.is_empty() {
        // The exact test found a shared point that rounding hid from the tolerant one.
        points.push(first.nearest_point_between(second));
    }
    Some(Intersection::crossing(points))
}

/// The exact closed-set test on finite input. The pair is put in a fixed order first, so that
/// rounding gives the same verdict whichever way round the arguments come.
#[inline]
pub(crate) fn segments_meet(first: Segment, second: Segment) -> bool {
    // Apart bounding boxes (exact comparisons) settle most pairs, and keep rounding in the
    // products below from joining segments that cannot meet.
    let (first_min, first_max) = (first.a.min(first.b), first.a.max(first.b));
    let (second_min, second_max) = (second.a.min(second.b), second.a.max(second.b));
    if first_max.cmplt(second_min).any() || second_max.cmplt(first_min).any() {
        return false;
    }
    let key = |s: Segment| [s.a.x, s.a.y, s.b.x, s.b.y];
    let (first, second) = if key(first) <= key(second) {
        (first, second)
    } else {
        (second, first)
    };
    let first_direction = first.b - first.a;
    let second_direction = second.b - second.a;
    let second_a_side = first_direction.perp_dot(second.a - first.a);
    let second_b_side = first_direction.perp_dot(second.b - first.a);
    let first_a_side = second_direction.perp_dot(first.a - second.a);
    let first_b_side = second_direction.perp_dot(first.b - second.a);
    if second_a_side == 0.0 && second_b_side == 0.0 && first_a_side == 0.0 && first_b_side == 0.0 {
        // All four ends on one line (or points): compare extents along it.
        let axis = if first_direction.length_squared() >= second_direction.length_squared() {
            first_direction
        } else {
            second_direction
        };
        if axis == Vec2::ZERO {
            return first.a == second.a;
        }
        let (first_min, first_max) = extent(first, axis);
        let (second_min, second_max) = extent(second, axis);
        return first_min <= second_max && second_min <= first_max;
    }
    straddles(second_a_side, second_b_side) && straddles(first_a_side, first_b_side)
}

/// Whether two signed sides are on opposite sides of a line, or on it.
#[inline]
fn straddles(side_a: f32, side_b: f32) -> bool {
    (side_a <= 0.0 && side_b >= 0.0) || (side_a >= 0.0 && side_b <= 0.0)
}

/// The segment's extent projected on `axis`, as `(min, max)`.
#[inline]
fn extent(segment: Segment, axis: Vec2) -> (f32, f32) {
    let a = segment.a.dot(axis);
    let b = segment.b.dot(axis);
    (a.min(b), a.max(b))
}

/// Appends the points where two finite segments meet, in order from `first.a` to `first.b`,
/// without near-duplicates. Appends nothing when they do not meet.
///
/// Returns the piece the two share, ordered along `first`, when they run along each other
/// for longer than the tolerance: its ends are among the points appended.
pub(crate) fn push_crossings(
    first: Segment,
    second: Segment,
    tolerance: f32,
    points: &mut Points,
) -> Option<Segment> {
    let first_direction = first.b - first.a;
    let second_direction = second.b - second.a;
    let first_length = first_direction.length();
    let second_length = second_direction.length();

    // A point against a segment (or a point).
    if first_length <= tolerance || second_length <= tolerance {
        let (point, other) = if first_length <= tolerance {
            (first.a.midpoint(first.b), second)
        } else {
            (second.a.midpoint(second.b), first)
        };
        if other.distance_squared_to(point) <= tolerance * tolerance {
            push_unique(points, point, tolerance);
        }
        return None;
    }

    // Collinear: both ends of the shorter within tolerance of the longer's line.
    let (long, long_length, short) = if first_length >= second_length {
        (first, first_length, second)
    } else {
        (second, second_length, first)
    };
    let long_unit = (long.b - long.a) / long_length;
    let short_a_height = long_unit.perp_dot(short.a - long.a);
    let short_b_height = long_unit.perp_dot(short.b - long.a);
    if short_a_height.abs() <= tolerance && short_b_height.abs() <= tolerance {
        return push_shared_piece(
            first,
            long,
            long_unit,
            long_length,
            short,
            tolerance,
            points,
        );
    }

    // Crossing: solve first.a + t·d₁ = second.a + u·d₂.
    let denominator = first_direction.perp_dot(second_direction);
    if denominator == 0.0 {
        return None; // Parallel and apart.
    }
    let offset = second.a - first.a;
    let t = offset.perp_dot(second_direction) / denominator;
    let u = offset.perp_dot(first_direction) / denominator;
    let first_slack = tolerance / first_length;
    let second_slack = tolerance / second_length;
    if (-first_slack..=1.0 + first_slack).contains(&t)
        && (-second_slack..=1.0 + second_slack).contains(&u)
    {
        let mut point = first.a + first_direction * t.clamp(0.0, 1.0);
        // Where the lines are nearly parallel, rounding moves the crossing far along them (the
        // two parameters are ratios of tiny cross products): kept on `second` as well, it is
        // `second`'s end, which then lies on `first` within the tolerance.
        let on_second = (point - second.a).dot(second_direction) / (second_length * second_length);
        if !(0.0..=1.0).contains(&on_second) {
            point = second.a + second_direction * on_second.clamp(0.0, 1.0);
        }
        push_unique(points, point, tolerance);
    }
    None
}

/// Appends the ends of the piece two collinear segments share, ordered along `first`, and
/// returns the piece when it is longer than the tolerance (shorter, it is one point).
fn push_shared_piece(
    first: Segment,
    long: Segment,
    long_unit: Vec2,
    long_length: f32,
    short: Segment,
    tolerance: f32,
    points: &mut Points,
) -> Option<Segment> {
    let short_a = long_unit.dot(short.a - long.a);
    let short_b = long_unit.dot(short.b - long.a);
    let start = short_a.min(short_b).max(0.0);
    let end = short_a.max(short_b).min(long_length);
    if end < start - tolerance {
        return None; // On one line but apart.
    }
    if end - start <= tolerance {
        let middle = 0.5 * (start + end).clamp(0.0, 2.0 * long_length);
        push_unique(points, long.a + long_unit * middle, tolerance);
        return None;
    }
    let (mut near, mut far) = (long.a + long_unit * start, long.a + long_unit * end);
    // `long_unit` runs along `first` unless `first` is the short one pointing the other way.
    if long_unit.dot(first.b - first.a) < 0.0 {
        std::mem::swap(&mut near, &mut far);
    }
    push_unique(points, near, tolerance);
    push_unique(points, far, tolerance);
    Some(Segment::new(near, far))
}

/// Removes the points at which two shared pieces join in a straight line: there both outlines
/// run straight on through the point (a vertex in the middle of a straight run of one outline,
/// or of both), so it lies inside the stretch the outlines share, not at an end of it.
///
/// `pieces` are the shared pieces [`push_crossings`] returned. Their ends are sorted along an
/// axis and matched within the tolerance, so the cost grows as `n log n` in the number of pieces;
/// with fewer than two pieces (almost always) there is nothing to do.
pub(crate) fn drop_straight_joins(points: &mut Points, pieces: &[Segment], tolerance: f32) {
    if pieces.len() < 2 {
        return;
    }
    let tolerance_squared = tolerance * tolerance;
    // Each piece's two ends, each with the piece's other end.
    let mut ends: SmallVec<[(Vec2, Vec2); 8]> = pieces
        .iter()
        .flat_map(|piece| [(piece.a, piece.b), (piece.b, piece.a)])
        .collect();
    let axis = wider_axis(ends.iter().map(|&(end, _)| end));
    ends.sort_unstable_by(|p, q| p.0[axis].total_cmp(&q.0[axis]));
    // Whether `far` lies on the line through `end` and `other_far`, within the tolerance.
    let on_line = |end: Vec2, other_far: Vec2, far: Vec2| {
        let direction = other_far - end;
        // Unsquared, so that neither side overflows or underflows at the ends of the range.
        let height = direction.perp_dot(far - end);
        height.abs() <= tolerance * direction.length()
    };
    let mut joins: SmallVec<[Vec2; 4]> = SmallVec::new();
    for (i, &(end, far)) in ends.iter().enumerate() {
        for &(other_end, other_far) in &ends[i + 1..] {
            if other_end[axis] - end[axis] > tolerance {
                break;
            }
            let opposite = (far - end).dot(other_far - other_end) < 0.0;
            if opposite
                && end.distance_squared(other_end) <= tolerance_squared
                && on_line(end, far, other_far)
                && on_line(other_end, other_far, far)
            {
                joins.push(end);
            }
        }
    }
    if joins.is_empty() {
        return;
    }
    joins.sort_unstable_by(|p, q| p[axis].total_cmp(&q[axis]));
    let is_join = |point: Vec2| {
        let first = joins.partition_point(|join| join[axis] < point[axis] - tolerance);
        joins[first..]
            .iter()
            .take_while(|join| join[axis] <= point[axis] + tolerance)
            .any(|join| join.distance_squared(point) <= tolerance_squared)
    };
    let kept: Points = points
        .iter()
        .copied()
        .filter(|&point| !is_join(point))
        .collect();
    // An outline's shared stretch turns somewhere (a polygon is not one straight line), so
    // something is always left; should rounding say otherwise, keep everything.
    if !kept.is_empty() {
        *points = kept;
    }
}
