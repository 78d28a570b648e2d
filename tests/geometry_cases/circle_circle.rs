//! Circle–circle cases.

use bevy_collision_events::geometry::Containment;

use crate::common::{CLOSE, assert_contained, assert_points, both_orders, circle, v};

#[test]
fn circle_circle_apart() {
    assert_eq!(
        both_orders(circle(0.0, 0.0, 1.0), circle(3.0, 0.0, 1.0)),
        None
    );
}

#[test]
fn circle_circle_crossing_gives_two_points_left_first() {
    // Radii 5 and 5, centres 6 apart: the chord is at x = 3, half-length 4.
    let hit = both_orders(circle(0.0, 0.0, 5.0), circle(6.0, 0.0, 5.0)).unwrap();
    assert_points(&hit, &[v(3.0, 4.0), v(3.0, -4.0)]);
}

#[test]
fn circle_circle_worked_example_hits() {
    // (20, 40, r 5) and (25, 30, r 8): distance √125 ≈ 11.18 ≤ 13.
    let a = circle(20.0, 40.0, 5.0);
    let b = circle(25.0, 30.0, 8.0);
    let hit = both_orders(a, b).unwrap();
    assert_eq!(hit.points.len(), 2);
    for p in &hit.points {
        assert!((p.distance(v(20.0, 40.0)) - 5.0).abs() < CLOSE);
        assert!((p.distance(v(25.0, 30.0)) - 8.0).abs() < CLOSE);
    }
}

#[test]
fn circle_circle_external_tangency_gives_one_point() {
    let hit = both_orders(circle(0.0, 0.0, 2.0), circle(5.0, 0.0, 3.0)).unwrap();
    assert_points(&hit, &[v(2.0, 0.0)]);
}

#[test]
fn circle_circle_external_tangency_other_size_order() {
    let hit = both_orders(circle(0.0, 0.0, 3.0), circle(5.0, 0.0, 2.0)).unwrap();
    assert_points(&hit, &[v(3.0, 0.0)]);
}

#[test]
fn circle_circle_near_tangency_gives_one_point_not_two() {
    // Overlapping by a hair (well inside the tolerance): one point, never two a hair apart.
    let hit = both_orders(circle(0.0, 0.0, 2.0), circle(4.999_99, 0.0, 3.0)).unwrap();
    assert_eq!(hit.points.len(), 1, "{hit:?}");
    assert!(hit.points[0].distance(v(2.0, 0.0)) < 1e-3);
}

#[test]
fn circle_circle_internal_tangency_larger_first() {
    // Touching inside at C1 + r1·n1 (n1 the unit vector from C1 to C2) when circle 1 is the
    // larger.
    let hit = both_orders(circle(0.0, 0.0, 5.0), circle(3.0, 0.0, 2.0)).unwrap();
    assert_points(&hit, &[v(5.0, 0.0)]);
}

#[test]
fn circle_circle_internal_tangency_smaller_first() {
    // Touching inside at C1 − r1·n1 when circle 1 is the smaller.
    let hit = both_orders(circle(3.0, 0.0, 2.0), circle(0.0, 0.0, 5.0)).unwrap();
    assert_points(&hit, &[v(5.0, 0.0)]);
}

#[test]
fn circle_circle_containment_smaller_first() {
    let hit = both_orders(circle(1.0, 0.0, 1.0), circle(0.0, 0.0, 5.0)).unwrap();
    assert_contained(&hit, Containment::FirstInSecond);
}

#[test]
fn circle_circle_containment_larger_first() {
    let hit = both_orders(circle(0.0, 0.0, 5.0), circle(1.0, 0.0, 1.0)).unwrap();
    assert_contained(&hit, Containment::SecondInFirst);
}

#[test]
fn circle_circle_concentric_different_radii() {
    let hit = both_orders(circle(7.0, 7.0, 5.0), circle(7.0, 7.0, 2.0)).unwrap();
    assert_contained(&hit, Containment::SecondInFirst);
}

#[test]
fn circle_circle_equal_circles_coincide() {
    let hit = both_orders(circle(7.0, -3.0, 5.0), circle(7.0, -3.0, 5.0)).unwrap();
    assert_contained(&hit, Containment::Coincident);
}

#[test]
fn circle_circle_zero_radius_on_circumference() {
    let hit = both_orders(circle(0.0, 0.0, 5.0), circle(3.0, 4.0, 0.0)).unwrap();
    assert_points(&hit, &[v(3.0, 4.0)]);
}

#[test]
fn circle_circle_zero_radius_inside() {
    let hit = both_orders(circle(0.0, 0.0, 5.0), circle(1.0, 1.0, 0.0)).unwrap();
    assert_contained(&hit, Containment::SecondInFirst);
}

#[test]
fn circle_circle_zero_radius_outside() {
    assert_eq!(
        both_orders(circle(0.0, 0.0, 5.0), circle(6.0, 0.0, 0.0)),
        None
    );
}

#[test]
fn circle_circle_two_equal_points() {
    let hit = both_orders(circle(2.0, 2.0, 0.0), circle(2.0, 2.0, 0.0)).unwrap();
    assert_contained(&hit, Containment::Coincident);
    assert_eq!(
        both_orders(circle(2.0, 2.0, 0.0), circle(2.0, 2.5, 0.0)),
        None
    );
}
