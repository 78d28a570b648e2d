//! Points in shapes: in a disc, and in a polygon by its winding.

use bevy_collision_events::geometry::{Circle, point_in_circle, point_in_polygon};

use crate::common::{U_SHAPE, v};

#[test]
fn point_in_circle_is_closed() {
    let c = Circle::new(v(0.0, 0.0), 5.0);
    assert!(point_in_circle(v(3.0, 4.0), c));
    assert!(point_in_circle(v(0.0, 0.0), c));
    assert!(!point_in_circle(v(3.0, 4.1), c));
}

#[test]
fn point_in_polygon_concave_pocket_and_notch() {
    assert!(point_in_polygon(v(5.0, 20.0), &U_SHAPE));
    assert!(point_in_polygon(v(25.0, 20.0), &U_SHAPE));
    assert!(point_in_polygon(v(15.0, 5.0), &U_SHAPE));
    assert!(!point_in_polygon(v(15.0, 20.0), &U_SHAPE));
    assert!(!point_in_polygon(v(-1.0, 5.0), &U_SHAPE));
}

#[test]
fn point_in_polygon_ray_through_a_vertex_counts_once() {
    // The ray from (5, 10) towards +x runs along y = 10 through the notch's bottom corners
    // and the U's vertex (20, 10): the half-open rule keeps the count right.
    assert!(point_in_polygon(v(5.0, 10.0), &U_SHAPE));
    // A diamond whose right vertex sits on the ray.
    let diamond = [v(0.0, -5.0), v(5.0, 0.0), v(0.0, 5.0), v(-5.0, 0.0)];
    assert!(point_in_polygon(v(0.0, 0.0), &diamond));
    assert!(!point_in_polygon(v(-6.0, 0.0), &diamond));
}

#[test]
fn point_in_polygon_either_winding() {
    let mut clockwise = U_SHAPE;
    clockwise.reverse();
    assert!(point_in_polygon(v(5.0, 20.0), &clockwise));
    assert!(!point_in_polygon(v(15.0, 20.0), &clockwise));
}
