//! Named cases: concave polygons, vertices and ends, points, and input out of range.

use bevy::math::Vec2;
use bevy_collision_events::geometry::Shape;

use crate::common::{CLOSE, assert_impact, both_orders, circle, segment, v};

/// A "U": a 20 × 10 block with a notch 8 wide cut from the top down to y = 3.
const U_SHAPE: [Vec2; 8] = [
    Vec2::new(-10.0, 0.0),
    Vec2::new(10.0, 0.0),
    Vec2::new(10.0, 10.0),
    Vec2::new(4.0, 10.0),
    Vec2::new(4.0, 3.0),
    Vec2::new(-4.0, 3.0),
    Vec2::new(-4.0, 10.0),
    Vec2::new(-10.0, 10.0),
];

#[test]
fn a_circle_enters_a_concave_notch_and_touches_its_floor() {
    // Falling from (0, 20) by 30: the hull's top (y = 10) would be touched at t = 9/30; the
    // notch's floor (y = 3) is, at t = 16/30.
    let notch = Shape::Polygon(&U_SHAPE);
    let impact = both_orders(circle(0.0, 20.0, 1.0), v(0.0, -30.0), notch, Vec2::ZERO);
    assert_impact(impact, 16.0 / 30.0, v(0.0, 3.0), v(0.0, 1.0));
}

#[test]
fn a_segment_enters_a_concave_notch_and_touches_its_floor() {
    let notch = Shape::Polygon(&U_SHAPE);
    // Upright: its lower end runs into the floor at t = 12/20.
    let upright = segment(1.0, 15.0, 1.0, 25.0);
    let impact = both_orders(upright, v(0.0, -20.0), notch, Vec2::ZERO);
    assert_impact(impact, 0.6, v(1.0, 3.0), v(0.0, 1.0));
    // Level, narrower than the notch: lands flat on the floor (either end is the point).
    let level = segment(-3.0, 15.0, 3.0, 15.0);
    let impact = both_orders(level, v(0.0, -20.0), notch, Vec2::ZERO).expect("lands");
    assert!((impact.time - 0.6).abs() <= CLOSE, "{impact:?}");
    assert!((impact.point.y - 3.0).abs() <= CLOSE && impact.point.x.abs() <= 3.0 + CLOSE);
    assert!(impact.normal.distance(v(0.0, 1.0)) <= CLOSE, "{impact:?}");
    // Level and wider than the notch: caught by the arms' tops at t = 5/20.
    let wide = segment(-6.0, 15.0, 6.0, 15.0);
    let impact = both_orders(wide, v(0.0, -20.0), notch, Vec2::ZERO).expect("caught");
    assert!((impact.time - 0.25).abs() <= CLOSE, "{impact:?}");
}

#[test]
fn a_segment_end_runs_into_a_polygon_edge() {
    let square = [v(-5.0, -5.0), v(5.0, -5.0), v(5.0, 5.0), v(-5.0, 5.0)];
    let impact = both_orders(
        segment(-20.0, 1.0, -12.0, 1.0),
        v(10.0, 0.0),
        Shape::Polygon(&square),
        Vec2::ZERO,
    );
    assert_impact(impact, 0.7, v(-5.0, 1.0), v(-1.0, 0.0));
}

#[test]
fn a_polygon_vertex_runs_into_a_segment() {
    // A diamond whose right vertex (−7, 1) runs into the wall x = 0.
    let diamond = [v(-10.0, -2.0), v(-7.0, 1.0), v(-10.0, 4.0), v(-13.0, 1.0)];
    let wall = segment(0.0, -5.0, 0.0, 5.0);
    let impact = both_orders(Shape::Polygon(&diamond), v(10.0, 0.0), wall, Vec2::ZERO);
    assert_impact(impact, 0.7, v(0.0, 1.0), v(-1.0, 0.0));
}

#[test]
fn a_polygon_vertex_runs_into_another_polygon_edge() {
    let diamond = [v(-10.0, -2.0), v(-7.0, 1.0), v(-10.0, 4.0), v(-13.0, 1.0)];
    let square = [v(0.0, -5.0), v(10.0, -5.0), v(10.0, 5.0), v(0.0, 5.0)];
    let impact = both_orders(
        Shape::Polygon(&diamond),
        v(10.0, 0.0),
        Shape::Polygon(&square),
        Vec2::ZERO,
    );
    assert_impact(impact, 0.7, v(0.0, 1.0), v(-1.0, 0.0));
    // Coming the other way, the square's corner (0, 5) runs into the diamond's lower-right edge.
    let impact = both_orders(
        Shape::Polygon(&square),
        v(-10.0, 0.0),
        Shape::Polygon(&[v(-3.0, 3.0), v(-1.0, 6.0), v(-5.0, 6.0)]),
        Vec2::ZERO,
    );
    // The edge from (−3, 3) to (−1, 6) crosses y = 5 at x = −5/3; its normal facing the
    // square (the first shape) is (3, −2)/√13.
    let normal = v(3.0, -2.0).normalize();
    assert_impact(impact, 1.0 / 6.0, v(-5.0 / 3.0, 5.0), normal);
}

#[test]
fn collinear_segments_meet_end_to_end_head_on() {
    let impact = both_orders(
        segment(-10.0, 0.0, -5.0, 0.0),
        v(10.0, 0.0),
        segment(0.0, 0.0, 5.0, 0.0),
        Vec2::ZERO,
    );
    assert_impact(impact, 0.5, v(0.0, 0.0), v(-1.0, 0.0));
    // Reversed ends, and both moving to meet halfway, where the first's end is at t = ½.
    let impact = both_orders(
        segment(-5.0, 0.0, -10.0, 0.0),
        v(5.0, 0.0),
        segment(5.0, 0.0, 0.0, 0.0),
        v(-5.0, 0.0),
    );
    assert_impact(impact, 0.5, v(-2.5, 0.0), v(-1.0, 0.0));
}

#[test]
fn points_as_zero_radius_circles_and_zero_length_segments() {
    // A point against a wall, and a point into a point.
    let wall = segment(0.0, -5.0, 0.0, 5.0);
    let impact = both_orders(circle(-4.0, 1.0, 0.0), v(8.0, 0.0), wall, Vec2::ZERO);
    assert_impact(impact, 0.5, v(0.0, 1.0), v(-1.0, 0.0));
    let impact = both_orders(
        segment(-4.0, 1.0, -4.0, 1.0),
        v(8.0, 0.0),
        circle(0.0, 1.0, 0.0),
        Vec2::ZERO,
    );
    assert_impact(impact, 0.5, v(0.0, 1.0), v(-1.0, 0.0));
}

#[test]
fn non_finite_or_out_of_range_input_gives_none() {
    let wall = segment(0.0, -5.0, 0.0, 5.0);
    let bullet = circle(-4.0, 1.0, 1.0);
    for motion in [v(f32::NAN, 0.0), v(f32::INFINITY, 0.0), v(0.0, 1e19)] {
        assert_eq!(both_orders(bullet, motion, wall, Vec2::ZERO), None);
    }
    assert_eq!(
        both_orders(circle(-4.0, 1.0, -1.0), v(8.0, 0.0), wall, Vec2::ZERO),
        None
    );
    assert_eq!(
        both_orders(
            bullet,
            v(8.0, 0.0),
            segment(0.0, f32::NAN, 0.0, 5.0),
            Vec2::ZERO
        ),
        None
    );
}
