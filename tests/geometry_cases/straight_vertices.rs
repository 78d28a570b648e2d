//! A straight vertex inside a shared piece: the piece still has two ends.

use bevy::math::Vec2;
use bevy_collision_events::geometry::Shape;

use crate::common::{SQUARE, assert_points, both_orders, segment, v};

/// The square [`SQUARE`] with an extra vertex in the middle of its bottom edge: the same region.
const SQUARE_WITH_MID_VERTEX: [Vec2; 5] = [
    Vec2::new(0.0, 0.0),
    Vec2::new(5.0, 0.0),
    Vec2::new(10.0, 0.0),
    Vec2::new(10.0, 10.0),
    Vec2::new(0.0, 10.0),
];

#[test]
fn polygon_polygon_collinear_mid_edge_vertex_is_not_a_third_point() {
    // A slab below the square, its top edge along the square's bottom edge and beyond it.
    let slab = [v(-2.0, -4.0), v(12.0, -4.0), v(12.0, 0.0), v(-2.0, 0.0)];
    let hit = both_orders(
        Shape::Polygon(&SQUARE_WITH_MID_VERTEX),
        Shape::Polygon(&slab),
    )
    .unwrap();
    assert_points(&hit, &[v(0.0, 0.0), v(10.0, 0.0)]);
    // The straight vertex on the other polygon's side of the pair.
    let hit = both_orders(
        Shape::Polygon(&slab),
        Shape::Polygon(&SQUARE_WITH_MID_VERTEX),
    )
    .unwrap();
    assert_points(&hit, &[v(10.0, 0.0), v(0.0, 0.0)]);
}

#[test]
fn polygon_polygon_straight_vertices_on_both_sides_of_a_shared_piece() {
    // Both outlines have a straight vertex inside the piece they share, at different places.
    let slab = [
        v(-2.0, -4.0),
        v(12.0, -4.0),
        v(12.0, 0.0),
        v(7.0, 0.0),
        v(-2.0, 0.0),
    ];
    let hit = both_orders(
        Shape::Polygon(&SQUARE_WITH_MID_VERTEX),
        Shape::Polygon(&slab),
    )
    .unwrap();
    assert_points(&hit, &[v(0.0, 0.0), v(10.0, 0.0)]);
}

#[test]
fn polygon_segment_collinear_mid_edge_vertex_is_not_a_third_point() {
    let along = segment(-3.0, 0.0, 8.0, 0.0);
    let hit = both_orders(Shape::Polygon(&SQUARE_WITH_MID_VERTEX), along).unwrap();
    assert_points(&hit, &[v(0.0, 0.0), v(8.0, 0.0)]);
}

#[test]
fn polygon_polygon_corners_of_a_shared_outline_stay() {
    // The same square, with and without the straight vertex: the corners on the shared
    // outline are where it turns, the straight vertex is not.
    let hit = both_orders(
        Shape::Polygon(&SQUARE_WITH_MID_VERTEX),
        Shape::Polygon(&SQUARE),
    )
    .unwrap();
    assert_points(&hit, &SQUARE);
}
