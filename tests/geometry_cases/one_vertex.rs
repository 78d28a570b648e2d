//! A one-vertex polygon: the polyline of one vertex, a point.

use bevy_collision_events::geometry::{Containment, Shape};

use crate::common::{assert_contained, assert_points, both_orders, circle, segment, v};

#[test]
fn a_one_vertex_polygon_is_a_point_in_every_pair() {
    let point = [v(3.0, 4.0)];
    let dot = Shape::Polygon(&point);
    // Inside a disc: contained; on its circumference: the point itself; beside it: apart.
    let inside = both_orders(dot, circle(0.0, 0.0, 6.0)).expect("inside the disc");
    assert_contained(&inside, Containment::FirstInSecond);
    assert_points(
        &both_orders(dot, circle(0.0, 0.0, 5.0)).unwrap(),
        &[v(3.0, 4.0)],
    );
    assert_eq!(both_orders(dot, circle(0.0, 0.0, 4.0)), None);
    // On a segment: that point.
    assert_points(
        &both_orders(dot, segment(0.0, 4.0, 6.0, 4.0)).unwrap(),
        &[v(3.0, 4.0)],
    );
    assert_eq!(both_orders(dot, segment(0.0, 5.0, 6.0, 5.0)), None);
    // Inside a square: contained; on its edge: the point.
    let square = [v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)];
    let contained = both_orders(dot, Shape::Polygon(&square)).expect("inside the square");
    assert_contained(&contained, Containment::FirstInSecond);
    let on_edge = [v(10.0, 4.0)];
    assert_points(
        &both_orders(Shape::Polygon(&on_edge), Shape::Polygon(&square)).unwrap(),
        &[v(10.0, 4.0)],
    );
    let outside = [v(11.0, 4.0)];
    assert_eq!(
        both_orders(Shape::Polygon(&outside), Shape::Polygon(&square)),
        None
    );
}
