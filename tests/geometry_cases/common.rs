//! Helpers for the named cases: shape constructors, the intersection in both argument orders with
//! its checks, and the square and the "U" that several pairs use.

use bevy::math::Vec2;
use bevy_collision_events::geometry::{
    Circle, Containment, Intersection, Segment, Shape, intersect, overlap,
};

/// How far a computed point may be from the expected one.
pub(crate) const CLOSE: f32 = 1e-4;

pub(crate) fn circle(x: f32, y: f32, radius: f32) -> Shape<'static> {
    Shape::Circle(Circle::new(Vec2::new(x, y), radius))
}

pub(crate) fn segment(ax: f32, ay: f32, bx: f32, by: f32) -> Shape<'static> {
    Shape::Segment(Segment::new(Vec2::new(ax, ay), Vec2::new(bx, by)))
}

pub(crate) fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// Intersects in both orders, checks they agree with each other and with `overlap`, and returns
/// the answer for `(first, second)`.
pub(crate) fn both_orders(first: Shape, second: Shape) -> Option<Intersection> {
    let forward = intersect(first, second);
    let backward = intersect(second, first);
    assert_eq!(
        overlap(first, second),
        forward.is_some(),
        "overlap vs intersect"
    );
    assert_eq!(
        overlap(second, first),
        forward.is_some(),
        "overlap in the other order"
    );
    match (&forward, &backward) {
        (None, None) => {}
        (Some(f), Some(b)) => {
            assert_eq!(
                f.containment,
                b.containment.mirrored(),
                "mirrored containment"
            );
            assert_same_set(&f.points, &b.points);
        }
        _ => panic!("one order overlaps, the other does not: {forward:?} vs {backward:?}"),
    }
    forward
}

/// Asserts that `actual` crosses at `expected`, in any order.
pub(crate) fn assert_point_set(actual: &Intersection, expected: &[Vec2]) {
    assert_eq!(actual.containment, Containment::Neither, "{actual:?}");
    assert_same_set(&actual.points, expected);
}

fn assert_same_set(a: &[Vec2], b: &[Vec2]) {
    assert_eq!(a.len(), b.len(), "point counts differ: {a:?} vs {b:?}");
    // Both ways: with equal counts, a point found twice could stand in for one missing.
    for (one, other) in [(a, b), (b, a)] {
        for p in one {
            assert!(
                other.iter().any(|q| p.distance(*q) <= CLOSE),
                "{p} missing from {other:?}"
            );
        }
    }
}

pub(crate) fn assert_points(actual: &Intersection, expected: &[Vec2]) {
    assert_eq!(actual.containment, Containment::Neither, "{actual:?}");
    assert_eq!(
        actual.points.len(),
        expected.len(),
        "points {:?}, expected {expected:?}",
        actual.points
    );
    for (p, e) in actual.points.iter().zip(expected) {
        assert!(
            p.distance(*e) <= CLOSE,
            "point {p}, expected {e} (all: {actual:?})"
        );
    }
}

pub(crate) fn assert_contained(actual: &Intersection, containment: Containment) {
    assert!(actual.points.is_empty(), "{actual:?}");
    assert_eq!(actual.containment, containment);
}

/// A 10 × 10 square, counter-clockwise from the origin.
pub(crate) const SQUARE: [Vec2; 4] = [
    Vec2::new(0.0, 0.0),
    Vec2::new(10.0, 0.0),
    Vec2::new(10.0, 10.0),
    Vec2::new(0.0, 10.0),
];

/// A "U": a 30 × 30 block with a 10-wide notch cut from the top down to y = 10. The notch is
/// outside; the two arms and the base are the pockets of solid.
pub(crate) const U_SHAPE: [Vec2; 8] = [
    Vec2::new(0.0, 0.0),
    Vec2::new(30.0, 0.0),
    Vec2::new(30.0, 30.0),
    Vec2::new(20.0, 30.0),
    Vec2::new(20.0, 10.0),
    Vec2::new(10.0, 10.0),
    Vec2::new(10.0, 30.0),
    Vec2::new(0.0, 30.0),
];
