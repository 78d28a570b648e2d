//! Polygon–circle cases.

use bevy_collision_events::geometry::{Containment, Shape};

use crate::common::{SQUARE, U_SHAPE, assert_contained, assert_points, both_orders, circle, v};

#[test]
fn polygon_circle_crossing_an_edge() {
    let hit = both_orders(Shape::Polygon(&SQUARE), circle(5.0, 0.0, 3.0)).unwrap();
    assert_points(&hit, &[v(2.0, 0.0), v(8.0, 0.0)]);
}

#[test]
fn polygon_circle_through_a_vertex_reports_it_once() {
    // Centred on a far point so the circle passes exactly through the corner (10, 10).
    let hit = both_orders(Shape::Polygon(&SQUARE), circle(13.0, 14.0, 5.0)).unwrap();
    assert_points(&hit, &[v(10.0, 10.0)]);
}

#[test]
fn polygon_circle_polygon_inside_circle() {
    let hit = both_orders(Shape::Polygon(&SQUARE), circle(5.0, 5.0, 20.0)).unwrap();
    assert_contained(&hit, Containment::FirstInSecond);
}

#[test]
fn polygon_circle_circle_inside_polygon() {
    let hit = both_orders(Shape::Polygon(&SQUARE), circle(5.0, 5.0, 2.0)).unwrap();
    assert_contained(&hit, Containment::SecondInFirst);
}

#[test]
fn polygon_circle_tangent_to_an_edge() {
    let hit = both_orders(Shape::Polygon(&SQUARE), circle(5.0, -3.0, 3.0)).unwrap();
    assert_points(&hit, &[v(5.0, 0.0)]);
}

#[test]
fn polygon_circle_near_a_corner_misses() {
    // Within the square's bounding circle, outside the square's corner region.
    assert_eq!(
        both_orders(Shape::Polygon(&SQUARE), circle(13.0, 13.0, 4.0)),
        None
    );
}

#[test]
fn polygon_circle_in_concave_pocket_is_inside() {
    let hit = both_orders(Shape::Polygon(&U_SHAPE), circle(5.0, 20.0, 3.0)).unwrap();
    assert_contained(&hit, Containment::SecondInFirst);
}

#[test]
fn polygon_circle_in_concave_notch_is_outside() {
    // In the notch: inside the U's bounding box and hull, but not the solid.
    assert_eq!(
        both_orders(Shape::Polygon(&U_SHAPE), circle(15.0, 20.0, 3.0)),
        None
    );
}

#[test]
fn polygon_circle_in_notch_touching_both_walls() {
    // Radius 5 in the 10-wide notch: tangent to both walls.
    let hit = both_orders(Shape::Polygon(&U_SHAPE), circle(15.0, 20.0, 5.0)).unwrap();
    assert_points(&hit, &[v(20.0, 20.0), v(10.0, 20.0)]);
}
