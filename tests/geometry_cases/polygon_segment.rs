//! Polygon–segment cases.

use bevy_collision_events::geometry::{Containment, Shape};

use crate::common::{SQUARE, U_SHAPE, assert_contained, assert_points, both_orders, segment, v};

#[test]
fn polygon_segment_laser_through() {
    let hit = both_orders(Shape::Polygon(&SQUARE), segment(-5.0, 5.0, 15.0, 5.0)).unwrap();
    // Along the polygon's outline: edge 1 (x = 10) before edge 3 (x = 0).
    assert_points(&hit, &[v(10.0, 5.0), v(0.0, 5.0)]);
}

#[test]
fn polygon_segment_inside() {
    let hit = both_orders(Shape::Polygon(&SQUARE), segment(2.0, 2.0, 8.0, 7.0)).unwrap();
    assert_contained(&hit, Containment::SecondInFirst);
}

#[test]
fn polygon_segment_along_an_edge_reports_shared_piece() {
    let hit = both_orders(Shape::Polygon(&SQUARE), segment(3.0, 0.0, 6.0, 0.0)).unwrap();
    assert_points(&hit, &[v(3.0, 0.0), v(6.0, 0.0)]);
    // Overhanging both ends of the edge: the shared piece is the whole edge.
    let overhang = both_orders(Shape::Polygon(&SQUARE), segment(-5.0, 0.0, 15.0, 0.0)).unwrap();
    assert_points(&overhang, &[v(0.0, 0.0), v(10.0, 0.0)]);
}

#[test]
fn polygon_segment_through_a_vertex_reports_it_once() {
    let hit = both_orders(Shape::Polygon(&SQUARE), segment(5.0, 15.0, 15.0, 5.0)).unwrap();
    assert_points(&hit, &[v(10.0, 10.0)]);
}

#[test]
fn polygon_segment_across_a_concave_notch() {
    let hit = both_orders(Shape::Polygon(&U_SHAPE), segment(-5.0, 20.0, 35.0, 20.0)).unwrap();
    // Edges in order: (30,0)-(30,30), (20,30)-(20,10), (10,10)-(10,30), (0,30)-(0,0).
    assert_points(
        &hit,
        &[v(30.0, 20.0), v(20.0, 20.0), v(10.0, 20.0), v(0.0, 20.0)],
    );
}

#[test]
fn polygon_segment_in_notch_misses() {
    assert_eq!(
        both_orders(Shape::Polygon(&U_SHAPE), segment(12.0, 15.0, 18.0, 25.0)),
        None
    );
}
