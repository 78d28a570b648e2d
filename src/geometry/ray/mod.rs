//! Rays against circles, segments and capsules: the primitives that sweeps are built from.
//!
//! A ray here is the closed segment of points `origin + t·direction` for `t ∈ [0, 1]`; each
//! function returns the **earliest** such `t` at which the point lies in the closed shape, with
//! the shape's unit outward normal there. An origin already in the shape hits at `t = 0`. A
//! zero direction hits nothing (it has no normal to give). Inputs are finite and in range (the
//! callers check); results are then finite.
//!
//! The normal always faces the ray, `normal · direction ≤ 0` (up to rounding), and is
//! perpendicular to the outline that is smooth at the hit: the segment's line, or the circle.
//! Where the ray runs along a segment's line it meets the nearest end head-on, and the normal
//! is the segment's direction out of that end (the limit of a capsule's end cap as its radius
//! shrinks to zero): `−direction`, normalised.

use super::{Circle, Segment};
use bevy::math::Vec2;
/// The ray against a segment.
mod segment;

pub(crate) use segment::ray_segment;

/// Where a ray first meets a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RayEntry {
    /// The ray parameter, in `[0, 1]`: the hit is at `origin + time·direction`.
    pub time: f32,
    /// The shape's unit outward normal at the hit, facing the ray.
    pub normal: Vec2,
}

/// The length of `vector` and its direction as a unit vector, or `None` for a zero or non-finite
/// vector. The vector is first divided by its largest component, so that neither a tiny vector's
/// squared length underflows nor a huge one's overflows: any non-zero finite vector has a
/// direction.
#[inline]
pub(crate) fn length_and_direction(vector: Vec2) -> Option<(f32, Vec2)> {
    let largest = vector.abs().max_element();
    if !(largest > 0.0 && vector.is_finite()) {
        return None;
    }
    let scaled = vector / largest;
    let scaled_length = scaled.length();
    Some((largest * scaled_length, scaled / scaled_length))
}

/// The unit vector along `vector`, or `fallback` when it has none (zero or non-finite).
#[inline]
pub(crate) fn unit_or(vector: Vec2, fallback: Vec2) -> Vec2 {
    length_and_direction(vector).map_or(fallback, |(_, unit)| unit)
}

/// `normal` turned, if need be, to face a ray along `direction`: `normal · direction ≤ 0`.
#[inline]
fn facing(normal: Vec2, direction: Vec2) -> Vec2 {
    if normal.dot(direction) > 0.0 {
        -normal
    } else {
        normal
    }
}

impl RayEntry {
    #[inline]
    fn new(time: f32, normal: Vec2) -> Self {
        Self {
            // `+ 0.0` makes a negative zero (a cross product of zero, negated) a zero: a
            // distance of `-0.0` sorts before `0.0` where distances are ordered bit by bit.
            time: time.clamp(0.0, 1.0) + 0.0,
            normal,
        }
    }
}

/// Below this fraction of the distance to the foot of the perpendicular, a circle's radius is
/// "tiny": the rounding of the entry point, a few ulps of that distance, is no longer small
/// against it.
const TINY_DISC: f32 = 1.0 / 256.0;

/// The normal at the entry into a circle whose radius is [tiny](TINY_DISC) against the distance
/// travelled: `(u⊥·m)·u⊥ − half_chord·u`, over the radius.
///
/// The entry point seen from the centre is `m + s·u`, with `s = along − half_chord` and
/// `m = −along·u + (u⊥·m)·u⊥`. Computed as that sum, its two terms of size `along` cancel, and
/// for a tiny circle what is left is rounding, which may even point along the ray. Cancelling
/// them exactly leaves the offset across the ray and the half chord back along it, both of the
/// circle's size. The part along the ray, `−half_chord`, is never positive, so the normal faces
/// the ray; where the ray passes through the centre of a circle of radius zero both vanish and
/// the normal is the head-on `−u`.
#[cold]
fn tiny_disc_normal(unit: Vec2, across: f32, half_chord: f32) -> Vec2 {
    unit_or(unit.perp() * across - unit * half_chord, -unit)
}

/// The earliest point of the ray in the solid circle.
///
/// With `m = origin − center`, `u` the unit direction and `L` the ray's length, the ray meets the
/// circle where `|m + s·u|² = r²`, `s = t·L`: a quadratic in `s`. It is solved in the stable form
/// (Ericson, *Real-Time Collision Detection*, §5.3.2; Haines et al., *Precision Improvements for
/// Ray/Sphere Intersection*): the discriminant is `r² − h²` with `h = |u × m|` the distance from
/// the centre to the ray's line, taken as `(r − h)(r + h)` (no difference of two large squares),
/// and the entry root as `(|m|² − r²) / (along + half_chord)`, where `along = −u·m` is the
/// distance to the foot of the perpendicular, rather than `along − half_chord` (which cancels
/// when the origin is near the circle).
///
/// The normal is the entry point seen from the centre, `m + s·u`, normalised: the point where
/// the ray is at the time given, so the two agree even where a graze makes that time uncertain.
/// For a [tiny](TINY_DISC) circle it is worked out without that sum: see [`tiny_disc_normal`].
pub(crate) fn ray_circle(origin: Vec2, direction: Vec2, disc: Circle) -> Option<RayEntry> {
    let (length, unit) = length_and_direction(direction)?;
    let offset = origin - disc.center;
    let radius = disc.radius;
    // `|m|² − r²`: its rounding error is a few ulps of `|m|²`, which is what factoring it as
    // `(|m| − r)(|m| + r)` would leave too (the square root rounds), so the cheap form is kept.
    let outside = offset.length_squared() - radius * radius;
    if outside <= 0.0 {
        // The origin is in the disc.
        return Some(RayEntry::new(0.0, unit_or(offset, -unit)));
    }
    let along = -unit.dot(offset);
    if along <= 0.0 {
        // Outside and not approaching: the ray only moves away from the centre.
        return None;
    }
    let across = unit.perp_dot(offset);
    let height = across.abs();
    if height > radius {
        return None;
    }
    let half_chord = ((radius - height) * (radius + height)).sqrt();
    let entry = outside / (along + half_chord);
    if entry > length {
        return None;
    }
    let normal = if radius >= TINY_DISC * along {
        unit_or(offset + unit * entry, -unit)
    } else {
        tiny_disc_normal(unit, across, half_chord)
    };
    Some(RayEntry::new(entry / length, normal))
}

/// The earliest point of the ray in the capsule: every point within `radius` of `segment`.
///
/// The capsule is a slab `|height| ≤ r` about the segment's line, capped by the circles around the
/// two ends. Outside the slab, the ray enters it at `t = (|h₀| − r) / |rate|` (`h₀` the origin's
/// signed height, `rate` the height's change along the ray); if the foot of that entry point
/// lies between the ends, that is the hit, on the flat side. Otherwise (and when the origin is
/// already in the slab but beyond an end) the ray can only enter through the circle of that end:
/// a straight line leaves the slab at most once, so it must cross the end's cap line, which
/// lies in that circle, before any other part. Heights are measured with the unit normal, as
/// distances, so `|h₀| − r` does not lose the small gap near a graze.
///
/// A radius of zero is the segment itself, tested as such. For a tiny radius the end circles can
/// be missed by rounding while the flat sides' feet fall a hair beyond the ends (a ray through
/// a polygon's vertex); the segment test, which cannot slip between two edges, is then asked.
pub(crate) fn ray_capsule(
    origin: Vec2,
    direction: Vec2,
    segment: Segment,
    radius: f32,
) -> Option<RayEntry> {
    if direction == Vec2::ZERO {
        return None;
    }
    if radius == 0.0 {
        return ray_segment(origin, direction, segment);
    }
    let Some((length, along_unit)) = length_and_direction(segment.b - segment.a) else {
        return ray_circle(origin, direction, Circle::new(segment.a, radius));
    };
    if segment.distance_squared_to(origin) <= radius * radius {
        // The origin is in the capsule.
        let normal = unit_or(
            origin - segment.closest_point(origin),
            -unit_or(direction, Vec2::Y),
        );
        return Some(RayEntry::new(0.0, normal));
    }
    let normal = along_unit.perp();
    let from_a = origin - segment.a;
    let height = normal.dot(from_a);
    let rate = normal.dot(direction);
    let foot = if height.abs() > radius {
        if height * rate >= 0.0 {
            // Outside the slab and not approaching it: the capsule lies within the slab.
            return None;
        }
        let time = (height.abs() - radius) / rate.abs();
        if time > 1.0 {
            return None;
        }
        let foot = along_unit.dot(from_a) + time * along_unit.dot(direction);
        if (0.0..=length).contains(&foot) {
            return Some(RayEntry::new(time, normal * height.signum()));
        }
        foot
    } else {
        let foot = along_unit.dot(from_a);
        if (0.0..=length).contains(&foot) && height * rate < 0.0 {
            // In the slab beside the segment, though the distance test said outside: on the
            // flat side within rounding (a huge radius), and moving further in. It touches at
            // once; the end discs, far off, would put the touch much later.
            return Some(RayEntry::new(0.0, normal * height.signum()));
        }
        foot
    };
    // An origin in the end's disc is in it only by rounding (the distance test above said
    // outside the capsule); if it moves out of the disc, away from the end, the distance to the
    // capsule, a convex set, only grows: that is no hit.
    let end = if foot < 0.0 { segment.a } else { segment.b };
    let band = Band {
        height,
        rate,
        foot: along_unit.dot(from_a),
        foot_rate: along_unit.dot(direction),
        length,
        radius,
    };
    ray_circle(origin, direction, Circle::new(end, radius))
        .filter(|hit| hit.time > 0.0 || hit.normal.dot(direction) <= 0.0)
        .or_else(|| band.entry(normal, direction))
        .or_else(|| ray_segment(origin, direction, segment))
}

/// The rectangle that a capsule holds between its end circles: every point within `radius`
/// of a segment's line whose foot lies between the ends, seen along a ray.
///
/// Where the ray reaches the flat sides' band just past an end (by the rounded foot) and the
/// end's circle is missed, it may still be in the capsule: on a shallow approach the foot's
/// error grows as the slope shrinks (the entry time's error times the speed along the
/// segment), so an entry just inside the end can be put just past it; and a ray that grazes
/// the end's circle, a chord too short for rounding, and runs on into the band beside the
/// segment is in the capsule for good. Either way it enters this rectangle, through a flat
/// side or through the line across the end (in the circle), soon after, where the capsule's
/// parts alone would miss it or meet the far end much later.
struct Band {
    /// The ray's origin's signed height above the segment's line.
    height: f32,
    /// The height's change over the ray.
    rate: f32,
    /// How far along the segment the origin's foot lies, from its start.
    foot: f32,
    /// The foot's change over the ray.
    foot_rate: f32,
    /// The segment's length.
    length: f32,
    /// The capsule's radius.
    radius: f32,
}

impl Band {
    /// Where the ray (of `direction`) enters the rectangle, if it does within the ray: at the
    /// latest of its entries into the band of heights and the range of feet, if before the
    /// earliest exit. The normal is the segment's `normal` on the side the ray is then; where
    /// the ray enters across the end moving away from the segment's line (the end's circle
    /// grazed), it is turned square to the ray, as the circle's would be. A ray in the
    /// rectangle at its origin is in it by rounding (the distance test said outside): no hit.
    fn entry(&self, normal: Vec2, direction: Vec2) -> Option<RayEntry> {
        let heights = Self::span(self.height, self.rate, -self.radius, self.radius)?;
        let feet = Self::span(self.foot, self.foot_rate, 0.0, self.length)?;
        let time = heights.0.max(feet.0);
        if !(time > 0.0 && time <= heights.1.min(feet.1).min(1.0)) {
            return None;
        }
        let side = normal * (self.height + time * self.rate).signum();
        let away = side.dot(direction);
        if away <= 0.0 {
            return Some(RayEntry::new(time, side));
        }
        let square = side - direction * (away / direction.length_squared());
        Some(RayEntry::new(time, unit_or(square, side)))
    }

    /// When a value starting at `start` and changing by `rate` over the ray lies in
    /// `[low, high]`: from, to (unbounded without a change), if ever.
    fn span(start: f32, rate: f32, low: f32, high: f32) -> Option<(f32, f32)> {
        if rate == 0.0 {
            return (low..=high)
                .contains(&start)
                .then_some((f32::NEG_INFINITY, f32::INFINITY));
        }
        let (at_low, at_high) = ((low - start) / rate, (high - start) / rate);
        Some((at_low.min(at_high), at_low.max(at_high)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLOSE: f32 = 1e-6;

    /// The point `(x, y)`, shorter to write.
    pub(super) fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    /// Asserts a hit at `time` with `normal`, each to within [`CLOSE`].
    pub(super) fn assert_hit(hit: Option<RayEntry>, time: f32, normal: Vec2) {
        let hit = hit.unwrap_or_else(|| panic!("expected a hit at {time}"));
        assert!(
            (hit.time - time).abs() <= CLOSE,
            "time {} expected {time}",
            hit.time
        );
        assert!(
            hit.normal.distance(normal) <= CLOSE,
            "normal {} expected {normal}",
            hit.normal
        );
    }

    // Circle.

    #[test]
    fn disc_head_on() {
        // From (−10, 0) by 20 along x into the unit disc: meets x = −1 at t = 9/20.
        let hit = ray_circle(v(-10.0, 0.0), v(20.0, 0.0), Circle::new(Vec2::ZERO, 1.0));
        assert_hit(hit, 0.45, v(-1.0, 0.0));
    }

    #[test]
    fn disc_off_centre_entry() {
        // Along y = 3 into a disc of radius 5: enters at x = −4.
        let hit = ray_circle(v(-10.0, 3.0), v(20.0, 0.0), Circle::new(Vec2::ZERO, 5.0));
        assert_hit(hit, 0.3, v(-0.8, 0.6));
    }

    #[test]
    fn disc_tangent_touches() {
        let hit = ray_circle(v(-10.0, 5.0), v(20.0, 0.0), Circle::new(Vec2::ZERO, 5.0));
        assert_hit(hit, 0.5, v(0.0, 1.0));
    }

    #[test]
    fn disc_missed_short_away_and_zero() {
        let disc = Circle::new(Vec2::ZERO, 1.0);
        // Passes above.
        assert_eq!(ray_circle(v(-10.0, 1.5), v(20.0, 0.0), disc), None);
        // Stops short.
        assert_eq!(ray_circle(v(-10.0, 0.0), v(8.0, 0.0), disc), None);
        // Points away.
        assert_eq!(ray_circle(v(-10.0, 0.0), v(-8.0, 0.0), disc), None);
        // Has no length.
        assert_eq!(ray_circle(v(-10.0, 0.0), Vec2::ZERO, disc), None);
    }

    #[test]
    fn disc_reached_exactly_at_the_end() {
        let hit = ray_circle(v(-10.0, 0.0), v(9.0, 0.0), Circle::new(Vec2::ZERO, 1.0));
        assert_hit(hit, 1.0, v(-1.0, 0.0));
    }

    #[test]
    fn disc_origin_inside_hits_at_once() {
        let hit = ray_circle(v(0.5, 0.0), v(3.0, 1.0), Circle::new(Vec2::ZERO, 1.0));
        assert_hit(hit, 0.0, v(1.0, 0.0));
    }

    #[test]
    fn disc_of_zero_radius_is_hit_only_through_its_point() {
        let point = Circle::new(v(5.0, 0.0), 0.0);
        assert_hit(
            ray_circle(Vec2::ZERO, v(10.0, 0.0), point),
            0.5,
            v(-1.0, 0.0),
        );
        assert_eq!(ray_circle(v(0.0, 0.1), v(10.0, 0.0), point), None);
    }

    #[test]
    fn disc_far_from_the_origin_keeps_a_small_gap() {
        // Near x = 1e6 an f32 is a multiple of 1/16: a point 1/8 outside a disc of radius 3
        // there, moving 1/4, meets it halfway. Only differences of nearby numbers enter the
        // quadratic, so nothing of the gap is lost to the coordinates' size.
        let center = v(1.0e6, 2.0e5);
        let disc = Circle::new(center, 3.0);
        let origin = center - v(3.125, 0.0);
        let hit = ray_circle(origin, v(0.25, 0.0), disc);
        assert_hit(hit, 0.5, v(-1.0, 0.0));
    }

    #[test]
    fn disc_graze_does_not_cancel() {
        // The origin a hair outside a large circle, moving inwards slowly: the naive root
        // `along − half_chord` would subtract two numbers near 1000.
        let disc = Circle::new(Vec2::ZERO, 1000.0);
        let origin = v(-1000.0 - 1e-3, 0.0);
        let hit = ray_circle(origin, v(2e-3, 0.0), disc).unwrap();
        assert!((hit.time - 0.5).abs() < 0.05, "{hit:?}");
    }

    #[test]
    fn disc_far_smaller_than_the_distance_travelled_keeps_a_facing_normal() {
        // A radius of 1.4e-10 a tenth away: the entry point's offset from the centre is far
        // below the rounding of the origin's; the normal is still the circle's, facing the ray.
        let disc = Circle::new(Vec2::ZERO, 1.4327146e-10);
        let hit = ray_circle(v(-0.1, 0.0), v(5.875, 1.9645086e-10), disc).unwrap();
        assert!(hit.normal.dot(v(1.0, 0.0)) < -0.999, "{hit:?}");
        assert!((hit.normal.length() - 1.0).abs() < 1e-6, "{hit:?}");
        // Through the centre of a point: head-on.
        let point = Circle::new(v(0.0, 0.74705505), 0.0);
        let hit = ray_circle(Vec2::ZERO, v(0.0, 24.094604), point).unwrap();
        assert_eq!(hit.normal, v(0.0, -1.0));
    }

    // Capsule.

    #[test]
    fn capsule_flat_side() {
        let core = Segment::new(v(-5.0, 0.0), v(5.0, 0.0));
        assert_hit(
            ray_capsule(v(1.0, 10.0), v(0.0, -10.0), core, 2.0),
            0.8,
            v(0.0, 1.0),
        );
        assert_hit(
            ray_capsule(v(1.0, -10.0), v(0.0, 10.0), core, 2.0),
            0.8,
            v(0.0, -1.0),
        );
    }

    #[test]
    fn capsule_end_cap() {
        let core = Segment::new(v(-5.0, 0.0), v(5.0, 0.0));
        // Head-on along the axis into the cap at x = 7.
        assert_hit(
            ray_capsule(v(17.0, 0.0), v(-20.0, 0.0), core, 2.0),
            0.5,
            v(1.0, 0.0),
        );
        // Straight down past the end: 3 from the end's centre, more than the radius.
        assert_eq!(ray_capsule(v(-8.0, 10.0), v(0.0, -20.0), core, 2.0), None);
        // Straight down 1 beyond the end: into the cap at height √3.
        let hit = ray_capsule(v(-6.0, 10.0), v(0.0, -20.0), core, 2.0);
        let y = 3.0f32.sqrt();
        assert_hit(hit, (10.0 - y) / 20.0, v(-0.5, y / 2.0));
    }

    #[test]
    fn capsule_origin_in_the_slab_beyond_an_end() {
        let core = Segment::new(v(-5.0, 0.0), v(5.0, 0.0));
        assert_hit(
            ray_capsule(v(10.0, 1.0), v(-10.0, 0.0), core, 2.0),
            (5.0 - 3.0f32.sqrt()) / 10.0,
            v(3.0f32.sqrt() / 2.0, 0.5),
        );
    }

    #[test]
    fn capsule_missed() {
        let core = Segment::new(v(-5.0, 0.0), v(5.0, 0.0));
        assert_eq!(ray_capsule(v(0.0, 10.0), v(0.0, 7.9), core, 2.0), None);
        assert_eq!(ray_capsule(v(0.0, 10.0), v(0.0, 5.0), core, 2.0), None);
        assert_eq!(ray_capsule(v(0.0, 10.0), v(10.0, 0.0), core, 2.0), None);
        assert_eq!(ray_capsule(v(8.0, 10.0), v(0.0, -20.0), core, 2.0), None);
    }

    #[test]
    fn capsule_origin_inside() {
        let core = Segment::new(v(-5.0, 0.0), v(5.0, 0.0));
        assert_hit(
            ray_capsule(v(0.0, 1.0), v(0.0, 5.0), core, 2.0),
            0.0,
            v(0.0, 1.0),
        );
    }

    #[test]
    fn capsule_of_zero_radius_or_length() {
        let core = Segment::new(v(-5.0, 0.0), v(5.0, 0.0));
        assert_hit(
            ray_capsule(v(0.0, 10.0), v(0.0, -20.0), core, 0.0),
            0.5,
            v(0.0, 1.0),
        );
        let point = Segment::new(v(5.0, 0.0), v(5.0, 0.0));
        assert_hit(
            ray_capsule(Vec2::ZERO, v(10.0, 0.0), point, 1.0),
            0.4,
            v(-1.0, 0.0),
        );
    }

    /// Two edges meeting at (1/3, 1/10), a point that f32 cannot hold exactly, going down at
    /// about −127° and −52°, and 200 rays aimed at it from above, heading between the two
    /// edges: `(edges, origin, direction, the ray's angle)`.
    pub(super) fn rays_through_a_shared_vertex()
    -> impl Iterator<Item = ([Segment; 2], Vec2, Vec2, f32)> {
        let vertex = v(1.0 / 3.0, 0.1);
        let first = Segment::new(v(-2.0, -3.0), vertex);
        let second = Segment::new(vertex, v(2.7, -2.9));
        (0..200).map(move |k| {
            let angle = 0.95 + 1.25 * k as f32 / 200.0;
            let origin = vertex + Vec2::from_angle(angle) * 7.3;
            let direction = (vertex - origin) * 1.7;
            ([first, second], origin, direction, angle)
        })
    }

    #[test]
    fn a_tiny_capsule_through_a_shared_vertex_is_not_slipped() {
        for ([first, second], origin, direction, angle) in rays_through_a_shared_vertex() {
            let hit = ray_capsule(origin, direction, first, 1e-30)
                .or(ray_capsule(origin, direction, second, 1e-30));
            assert!(hit.is_some(), "slipped through at angle {angle}");
        }
    }
}
