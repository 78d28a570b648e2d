//! Polygon–polygon cases.

use bevy::math::Vec2;
use bevy_collision_events::geometry::{Containment, Shape};

use crate::common::{
    SQUARE, U_SHAPE, assert_contained, assert_point_set, assert_points, both_orders, v,
};

fn square_at(x: f32, y: f32, side: f32) -> [Vec2; 4] {
    [
        v(x, y),
        v(x + side, y),
        v(x + side, y + side),
        v(x, y + side),
    ]
}

#[test]
fn polygon_polygon_overlapping_squares() {
    let other = square_at(5.0, 5.0, 10.0);
    let hit = both_orders(Shape::Polygon(&SQUARE), Shape::Polygon(&other)).unwrap();
    assert_points(&hit, &[v(10.0, 5.0), v(5.0, 10.0)]);
}

#[test]
fn polygon_polygon_apart() {
    let other = square_at(11.0, 0.0, 10.0);
    assert_eq!(
        both_orders(Shape::Polygon(&SQUARE), Shape::Polygon(&other)),
        None
    );
}

#[test]
fn polygon_polygon_inside_both_ways() {
    let small = square_at(2.0, 2.0, 3.0);
    let hit = both_orders(Shape::Polygon(&small), Shape::Polygon(&SQUARE)).unwrap();
    assert_contained(&hit, Containment::FirstInSecond);
    let hit = both_orders(Shape::Polygon(&SQUARE), Shape::Polygon(&small)).unwrap();
    assert_contained(&hit, Containment::SecondInFirst);
}

#[test]
fn polygon_polygon_collinear_edges_report_shared_pieces() {
    // Side by side, sharing part of the edge x = 10.
    let other = square_at(10.0, 4.0, 10.0);
    let hit = both_orders(Shape::Polygon(&SQUARE), Shape::Polygon(&other)).unwrap();
    assert_points(&hit, &[v(10.0, 4.0), v(10.0, 10.0)]);
}

#[test]
fn polygon_polygon_shared_vertex_reported_once() {
    let other = square_at(10.0, 10.0, 5.0);
    let hit = both_orders(Shape::Polygon(&SQUARE), Shape::Polygon(&other)).unwrap();
    assert_points(&hit, &[v(10.0, 10.0)]);
}

#[test]
fn polygon_polygon_identical() {
    let hit = both_orders(Shape::Polygon(&SQUARE), Shape::Polygon(&SQUARE)).unwrap();
    assert_points(&hit, &SQUARE);
}

#[test]
fn polygon_polygon_bar_across_concave_notch() {
    // A bar through both arms of the U, over the notch.
    let bar = [v(-5.0, 18.0), v(35.0, 18.0), v(35.0, 22.0), v(-5.0, 22.0)];
    let hit = both_orders(Shape::Polygon(&U_SHAPE), Shape::Polygon(&bar)).unwrap();
    // Where each of the arms' four sides crosses the bar's two long edges.
    let sides = [0.0, 10.0, 20.0, 30.0];
    let crossings: Vec<Vec2> = sides
        .iter()
        .flat_map(|&x| [v(x, 18.0), v(x, 22.0)])
        .collect();
    assert_point_set(&hit, &crossings);
    // A small square in the notch touches nothing.
    let in_notch = square_at(12.0, 15.0, 5.0);
    assert_eq!(
        both_orders(Shape::Polygon(&U_SHAPE), Shape::Polygon(&in_notch)),
        None
    );
}
