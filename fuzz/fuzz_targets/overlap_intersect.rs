//! `geometry::overlap` and `geometry::intersect` on every pair of shape kinds, in both orders,
//! on arbitrary floats (and the smaller entry points on the same shapes: bounding circles,
//! `polygon_size`, point-in-shape tests).
//!
//! Always (any input, NaN and infinities included):
//! - nothing panics (debug assertions are on in fuzz builds);
//! - `overlap(a, b) == intersect(a, b).is_some()`, and the same in the order `(b, a)`
//!   (except known finding 4 unless `FUZZ_STRICT=1`);
//! - non-finite input or a negative radius gives no overlap (module docs);
//! - `points` is empty exactly when `containment != Neither`; every point is finite;
//!   `containment` is mirrored in the other order.
//!
//! For a precise pair (every number finite and within `MAX_COORDINATE`, each shape's size 0 or
//! at least `1e-18`, polygons simple, checked in `f64`):
//! - every point lies on both outlines within `lib::point_tolerance` (see there for the factor);
//! - a shape said to be inside the other lies in it (its vertices, ends, or centre and extreme
//!   points inside in `f64`, or within the tolerance of the outline);
//! - no two points lie within the pair's tolerance of each other (0.9 of it; half unless
//!   `FUZZ_STRICT=1`, see known finding 6);
//! - with every number zero or at least `MIN_SIZE` in magnitude, the pair scaled by a power of
//!   two (exactly) gives the same overlap and containment and the points scaled by exactly that
//!   factor (module docs on `MIN_SIZE`).

#![no_main]

use arbitrary::Arbitrary;
use bevy::math::Vec2;
use bevy_collision_events::geometry::{
    Containment, TOLERANCE, bounding_circle_of_points, intersect, overlap,
    point_in_circle, point_in_polygon, polygon_size,
};
use bevy_collision_events_fuzz::{
    Builder, Nudge, Num, Owned, Placement, ShapeIn, bits,
    no_tiny_numbers, point_tolerance, power, strict, symmetry_known_broken,
    within_scale_checked_range,
};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    first: ShapeIn,
    second: ShapeIn,
    placement: Option<Placement>,
    nudge: Option<Nudge>,
    probe: (Num, Num),
    /// The power of two for the scale check.
    scale: i8,
}

fuzz_target!(|input: Input| {
    let mut builder = Builder::default();
    let mut first = builder.shape(&input.first);
    let mut second = builder.shape(&input.second);
    if let Some(placement) = input.placement {
        first.apply(&placement);
        second.apply(&placement);
    }
    if let Some(nudge) = input.nudge {
        second.nudge(nudge);
    }
    let probe = Vec2::new(input.probe.0.value(), input.probe.1.value());
    check_single(&first, probe);
    check_single(&second, probe);
    check_pair(&first, &second);
    check_scaled(&first, &second, power(input.scale));
});

/// Module docs (`MIN_SIZE`): shapes from `MIN_SIZE` to `MAX_COORDINATE` give the same answers at
/// every scale; scaling by a power of two changes them by exactly that factor. Checked for
/// precise pairs whose numbers are all zero or at least `MIN_SIZE` in magnitude, scaled exactly.
fn check_scaled(first: &Owned, second: &Owned, k: i32) {
    let resolved = |s: &Owned| {
        s.is_precise()
            && no_tiny_numbers(&s.numbers())
            && within_scale_checked_range(&s.numbers())
            && within_scale_checked_range(&[s.size() as f32])
    };
    if !(resolved(first) && resolved(second)) {
        return;
    }
    let (Some(first2), Some(second2)) = (first.scaled(k), second.scaled(k)) else {
        return;
    };
    if !(resolved(&first2) && resolved(&second2)) {
        return;
    }
    let factor = 2f32.powi(k);
    let context = || {
        format!(
            "first: {}\nsecond: {}\nscaled by 2^{k}: {} and {}",
            first.literal(),
            second.literal(),
            first2.literal(),
            second2.literal()
        )
    };
    let (a, b) = (first.shape(), second.shape());
    let (a2, b2) = (first2.shape(), second2.shape());
    let (hit, hit2) = (intersect(a, b), intersect(a2, b2));
    assert_eq!(overlap(a, b), overlap(a2, b2), "overlap changes with the scale\n{}\n{hit:?}\n{hit2:?}", context());
    match (&hit, &hit2) {
        (None, None) => {}
        (Some(x), Some(y)) => {
            let scaled: Vec<Vec2> = x.points.iter().map(|p| *p * factor).collect();
            let first_difference = scaled
                .iter()
                .zip(&y.points)
                .position(|(p, q)| p != q)
                .map(|i| format!("point {i}: {} (scaled) vs {}", bits(scaled[i]), bits(y.points[i])));
            assert!(
                x.containment == y.containment && scaled.as_slice() == y.points.as_slice(),
                "intersect changes with the scale: {} points vs {}, {first_difference:?}\n{}\n{x:?}\nscaled: {y:?}",
                x.points.len(),
                y.points.len(),
                context()
            );
        }
        _ => panic!("intersect changes with the scale\n{}\n{hit:?}\n{hit2:?}", context()),
    }
}

/// The entry points that take one shape: no panic, and what they promise.
fn check_single(shape: &Owned, probe: Vec2) {
    // Known finding 1: a bounding circle of a non-finite shape or of a negative radius panics
    // in debug builds (bevy's `debug_assert!(radius >= 0.)` in `BoundingCircle::new` sees a
    // negative or NaN radius).
    let negative_radius = matches!(shape, Owned::Circle(c) if c.radius < 0.0);
    let bounded = strict() || !(shape.has_non_finite() || negative_radius);
    if bounded {
        let _ = shape.shape().bounding_circle();
    }
    if let Owned::Polygon(v) = shape {
        let size = polygon_size(v);
        let _ = point_in_polygon(probe, v);
        if bounded {
            let circle = bounding_circle_of_points(v);
            if shape.in_resolved_range() && !v.is_empty() {
                assert!(size.is_finite() && size >= 0.0, "polygon_size {size} of {}", shape.literal());
                let (c, r) = (circle.center.as_dvec2(), f64::from(circle.radius()));
                assert!(c.is_finite() && r.is_finite(), "bounding circle {circle:?} of {}", shape.literal());
                // Documented: grown by a relative 1e-6 so every point is inside despite rounding.
                for p in v {
                    let d = p.as_dvec2().distance(c);
                    assert!(
                        d <= r + 1e-6 * (r + c.abs().max_element()),
                        "vertex {} lies {d} from the centre of {circle:?}, of {}",
                        bits(*p),
                        shape.literal()
                    );
                }
            }
        }
    }
    if let Owned::Circle(c) = shape {
        let _ = point_in_circle(probe, *c);
    }
}

fn check_pair(first: &Owned, second: &Owned) {
    let (a, b) = (first.shape(), second.shape());
    let context = || format!("first: {}\nsecond: {}", first.literal(), second.literal());
    let forward = intersect(a, b);
    let backward = intersect(b, a);
    let (overlap_ab, overlap_ba) = (overlap(a, b), overlap(b, a));

    assert_eq!(overlap_ab, forward.is_some(), "overlap(a, b) vs intersect(a, b)\n{}\n{forward:?}", context());
    assert_eq!(overlap_ba, backward.is_some(), "overlap(b, a) vs intersect(b, a)\n{}\n{backward:?}", context());
    if !(symmetry_known_broken(first) || symmetry_known_broken(second)) {
        assert_eq!(overlap_ab, overlap_ba, "overlap differs with the order\n{}", context());
    }

    let negative_radius = |s: &Owned| matches!(s, Owned::Circle(c) if c.radius < 0.0);
    if first.has_non_finite() || second.has_non_finite() || negative_radius(first) || negative_radius(second) {
        assert!(!overlap_ab, "non-finite input or negative radius overlaps\n{}", context());
    }

    let (Some(forward), Some(backward)) = (forward, backward) else {
        return;
    };
    for hit in [&forward, &backward] {
        assert_eq!(
            hit.points.is_empty(),
            hit.containment != Containment::Neither,
            "points empty exactly when containment is not Neither\n{}\n{hit:?}",
            context()
        );
        assert!(
            hit.points.iter().all(|p| p.is_finite()),
            "non-finite point\n{}\n{hit:?}",
            context()
        );
    }
    let same_kind = std::mem::discriminant(first) == std::mem::discriminant(second);
    if !same_kind {
        // Mixed kinds: one pair function, mirrored; exact.
        assert_eq!(forward.containment, backward.containment.mirrored(), "{}", context());
        assert_eq!(forward.points, backward.points, "{}", context());
    }

    if !(first.is_precise() && second.is_precise()) {
        return;
    }
    // Known finding 7: with a polyline (a polygon of fewer than 3 distinct vertices) the
    // containment can be wrong and differ with the order; unless strict, those pairs skip the
    // containment checks (the same class as known finding 4).
    let containment_checked = !(symmetry_known_broken(first) || symmetry_known_broken(second));
    if same_kind && containment_checked {
        assert_eq!(
            forward.containment,
            backward.containment.mirrored(),
            "containment not mirrored in the other order\n{}\n{forward:?}\n{backward:?}",
            context()
        );
    }
    let sizes = first.size() + second.size();
    let tolerance = point_tolerance(sizes, first.magnitude().max(second.magnitude()));
    let (outline1, outline2) = (first.outline(), second.outline());
    // Known finding 8: two circles of very unequal radii get crossing points off the smaller
    // circle by several tolerances (the chord's half-length seems to come from the larger
    // radius's square, which loses the small one to rounding). Unless strict, circle pairs
    // with radii more than 100 apart in ratio skip the point check.
    let unequal_circles = match (first, second) {
        (Owned::Circle(c), Owned::Circle(d)) => {
            let (small, large) = (c.radius.min(d.radius), c.radius.max(d.radius));
            f64::from(large) > 100.0 * f64::from(small)
        }
        _ => false,
    };
    for hit in [&forward, &backward] {
        if unequal_circles && !strict() {
            break;
        }
        for p in &hit.points {
            let dp = p.as_dvec2();
            let (d1, d2) = (outline1.distance(dp), outline2.distance(dp));
            assert!(
                d1 <= tolerance && d2 <= tolerance,
                "point {} lies {d1:e} from the first outline and {d2:e} from the second; allowed \
                 {tolerance:e} (the pair's tolerance TOLERANCE × size is {:e})\n{}\n{hit:?}",
                bits(*p),
                f64::from(TOLERANCE) * sizes,
                context()
            );
        }
        // No near-duplicates: documented as none within the tolerance; 0.9 of it here (the
        // crate computes the tolerance in f32, from the same sizes). Known finding 6: broken
        // often (points not neighbours in the list, and long thin shapes whose tolerance is
        // larger than the distance between crossings, even for neighbours); only asked with
        // FUZZ_STRICT=1.
        if !strict() {
            continue;
        }
        let merge = 0.9 * f64::from(TOLERANCE) * sizes;
        for (i, p) in hit.points.iter().enumerate() {
            for q in &hit.points[i + 1..] {
                let d = p.as_dvec2().distance(q.as_dvec2());
                assert!(
                    d > merge,
                    "near-duplicate points {} and {} ({d:e} apart; 0.9 of the tolerance is {merge:e})\n{}\n{hit:?}",
                    bits(*p),
                    bits(*q),
                    context()
                );
            }
        }
    }
    // Containment: the shape said to be inside lies in the other (each sample point inside it
    // in f64, or on its outline within the tolerance).
    for (hit, inner, outer, outer_outline, label) in [
        (&forward, first, second, &outline2, "forward"),
        (&backward, second, first, &outline1, "backward"),
    ] {
        let inside = match hit.containment {
            Containment::FirstInSecond => Some((inner, outer, outer_outline)),
            Containment::SecondInFirst => Some((outer, inner, if label == "forward" { &outline1 } else { &outline2 })),
            _ => None,
        };
        if let Some((contained, container, container_outline)) = inside.filter(|_| containment_checked) {
            for p in contained.samples() {
                assert!(
                    container.contains(p) || container_outline.distance(p) <= tolerance,
                    "{label}: said to be contained, but {p} lies outside, {:e} from the outline; \
                     allowed {tolerance:e}\n{}\n{hit:?}",
                    container_outline.distance(p),
                    context()
                );
            }
        }
    }
    // Two of a kind in the other order walk the other outline: near-parallel edges cross at
    // ill-conditioned places, so the two lists need not match point for point (and may differ
    // in count where everything lies within the tolerance); each point was checked against
    // both outlines above.
}
