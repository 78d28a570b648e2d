//! Many crossings: every one, in order, once.

use bevy::math::Vec2;
use bevy_collision_events::geometry::Shape;

use crate::common::{assert_point_set, assert_points, both_orders, segment, v};

/// A comb of `teeth` teeth one unit apart standing on a base from x = 0 to x = `teeth`, the
/// teeth from y = 1 to y = 10, counter-clockwise.
fn comb(teeth: usize) -> Vec<Vec2> {
    let width = teeth as f32;
    let mut vertices = vec![v(0.0, 0.0), v(width, 0.0), v(width, 1.0)];
    for tooth in (0..teeth).rev() {
        let (left, right) = (tooth as f32 + 0.25, tooth as f32 + 0.75);
        vertices.extend([v(right, 1.0), v(right, 10.0), v(left, 10.0), v(left, 1.0)]);
    }
    vertices.push(v(0.0, 1.0));
    vertices
}

#[test]
fn polygon_polygon_a_bar_across_a_comb_crosses_every_tooth_four_times() {
    let teeth = 500;
    let comb = comb(teeth);
    let bar = [
        v(-1.0, 5.0),
        v(teeth as f32 + 1.0, 5.0),
        v(teeth as f32 + 1.0, 6.0),
        v(-1.0, 6.0),
    ];
    let hit = both_orders(Shape::Polygon(&bar), Shape::Polygon(&comb)).unwrap();
    // Along the bar's bottom edge left to right, then its top edge right to left.
    let mut expected = Vec::new();
    for tooth in 0..teeth {
        let x = tooth as f32;
        expected.extend([v(x + 0.25, 5.0), v(x + 0.75, 5.0)]);
    }
    for tooth in (0..teeth).rev() {
        let x = tooth as f32;
        expected.extend([v(x + 0.75, 6.0), v(x + 0.25, 6.0)]);
    }
    assert_points(&hit, &expected);
}

#[test]
fn polygon_segment_a_laser_along_a_comb_crosses_every_tooth_twice() {
    let teeth = 500;
    let comb = comb(teeth);
    let laser = segment(-1.0, 5.0, teeth as f32 + 1.0, 5.0);
    let hit = both_orders(Shape::Polygon(&comb), laser).unwrap();
    // Each tooth's two sides, where the laser crosses them.
    let crossings: Vec<Vec2> = (0..teeth)
        .flat_map(|tooth| [v(tooth as f32 + 0.25, 5.0), v(tooth as f32 + 0.75, 5.0)])
        .collect();
    assert_point_set(&hit, &crossings);
}
