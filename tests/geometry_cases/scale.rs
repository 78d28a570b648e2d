//! The same shapes far from the origin, and scaled from `MIN_SIZE` to `MAX_COORDINATE`.

use bevy::math::Vec2;
use bevy_collision_events::geometry::{
    Circle, Containment, Intersection, MAX_COORDINATE, MIN_SIZE, Segment, Shape, intersect,
    overlap, sweep,
};

use crate::common::{both_orders, circle, segment, v};

// ---------------------------------------------------------------------------------------------
// Far from the origin: the same shapes, scaled up to the supported range

#[test]
fn far_away_a_segment_still_crosses_a_circle_where_it_should() {
    for scale in [1e6_f32, 5e9, 1e12, 1e15, 1e17] {
        // The circle (0, 0, r 5) and the segment from (−10, 3) to (10, 3): crossings at (±4, 3).
        let hit = both_orders(
            segment(-10.0 * scale, 3.0 * scale, 10.0 * scale, 3.0 * scale),
            circle(0.0, 0.0, 5.0 * scale),
        )
        .unwrap_or_else(|| panic!("at scale {scale}, no overlap"));
        assert_eq!(hit.points.len(), 2, "scale {scale}: {hit:?}");
        for (point, x) in hit.points.iter().zip([-4.0, 4.0]) {
            assert!(
                point.abs_diff_eq(Vec2::new(x, 3.0) * scale, 1e-4 * scale),
                "scale {scale}: {point}"
            );
        }
    }
}

#[test]
fn far_away_a_disc_across_a_square_edge_is_not_contained() {
    for scale in [1e6_f32, 5e9, 1e12, 1e15, 1e17] {
        // The square of half-size 10 and a disc of radius 4 centred 2 inside its right edge.
        let square: Vec<Vec2> = [(-10.0, -10.0), (10.0, -10.0), (10.0, 10.0), (-10.0, 10.0)]
            .iter()
            .map(|&(x, y)| Vec2::new(x, y) * scale)
            .collect();
        let hit = both_orders(
            Shape::Polygon(&square),
            circle(8.0 * scale, 0.0, 4.0 * scale),
        )
        .unwrap_or_else(|| panic!("at scale {scale}, no overlap"));
        assert_eq!(hit.containment, Containment::Neither, "scale {scale}");
        // The circle crosses x = 10 where y = ±√(16 − 4).
        let y = 12.0_f32.sqrt();
        assert_eq!(hit.points.len(), 2, "scale {scale}");
        for point in &hit.points {
            assert!(
                (point.x / scale - 10.0).abs() < 1e-4,
                "scale {scale}: {point}"
            );
            assert!(
                ((point.y / scale).abs() - y).abs() < 1e-4,
                "scale {scale}: {point}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// From MIN_SIZE to MAX_COORDINATE: the same answers at every scale

/// `shape` scaled by `factor`, its vertices (if a polygon) kept in `store`.
fn scaled<'a>(shape: Shape, factor: f32, store: &'a mut Vec<Vec2>) -> Shape<'a> {
    match shape {
        Shape::Circle(disc) => {
            Shape::Circle(Circle::new(disc.center * factor, disc.radius * factor))
        }
        Shape::Segment(segment) => {
            Shape::Segment(Segment::new(segment.a * factor, segment.b * factor))
        }
        Shape::Polygon(vertices) => {
            store.extend(vertices.iter().map(|&vertex| vertex * factor));
            Shape::Polygon(store)
        }
    }
}

#[test]
fn scaling_by_a_power_of_two_scales_every_answer_exactly() {
    // Shapes from 1 to 8 across, apart by at least 0.3: scaled so that the smallest size and
    // gap stay at or above MIN_SIZE, and the largest coordinate within MAX_COORDINATE.
    let triangle = [v(0.0, 0.0), v(3.0, 0.0), v(1.0, 2.0)];
    let right_triangle = [v(3.5, 0.0), v(6.0, 0.0), v(5.0, 2.0)];
    let crossing_triangle = [v(2.0, 0.5), v(6.0, 0.0), v(5.0, 2.0)];
    let u_shape = [
        v(0.0, 0.0),
        v(6.0, 0.0),
        v(6.0, 3.0),
        v(4.5, 3.0),
        v(4.5, 1.0),
        v(1.5, 1.0),
        v(1.5, 3.0),
        v(0.0, 3.0),
    ];
    // Two polygons sharing two edges, which join at a corner of 135° at (4, 0).
    let shared_corner = [
        v(0.0, 0.0),
        v(4.0, 0.0),
        v(6.0, 2.0),
        v(6.0, 5.0),
        v(0.0, 5.0),
    ];
    let below_shared_corner = [v(0.0, 0.0), v(4.0, 0.0), v(6.0, 2.0), v(8.0, -3.0)];
    let shapes = [
        circle(0.0, 0.0, 1.0),
        circle(2.5, 0.3, 1.0),
        circle(1.5, 0.3, 1.0),
        circle(3.0, 2.0, 0.0),
        segment(-1.0, 1.7, 3.0, 2.9),
        segment(-1.0, 0.7, 3.0, 1.9),
        Shape::Polygon(&triangle),
        Shape::Polygon(&right_triangle),
        Shape::Polygon(&crossing_triangle),
        Shape::Polygon(&u_shape),
        Shape::Polygon(&shared_corner),
        Shape::Polygon(&below_shared_corner),
    ];
    let motions = [v(4.0, 0.3), v(-3.0, 1.0), v(0.5, -2.0)];
    // Even powers, so that square roots scale exactly too.
    let smallest = -58; // 2⁻⁵⁸ × 0.3 ≈ 1.04e-18 ≥ MIN_SIZE
    let largest = 56; // 2⁵⁶ × 12 ≈ 8.6e17 ≤ MAX_COORDINATE (x up to 8, moved by 4)
    assert!(2f32.powi(smallest) * 0.3 >= MIN_SIZE);
    assert!(2f32.powi(largest) * 12.0 <= MAX_COORDINATE);
    for power in [smallest, -40, -20, 20, largest] {
        let factor = 2f32.powi(power);
        for first in shapes {
            for second in shapes {
                let (mut first_store, mut second_store) = (Vec::new(), Vec::new());
                let small_first = scaled(first, factor, &mut first_store);
                let small_second = scaled(second, factor, &mut second_store);
                let case = format!("2^{power}: {first:?} and {second:?}");
                assert_eq!(
                    overlap(first, second),
                    overlap(small_first, small_second),
                    "{case}"
                );
                let points = |hit: Option<Intersection>, factor: f32| {
                    hit.map(|hit| {
                        (
                            hit.points.iter().map(|&p| p * factor).collect::<Vec<_>>(),
                            hit.containment,
                        )
                    })
                };
                assert_eq!(
                    points(intersect(first, second), factor),
                    points(intersect(small_first, small_second), 1.0),
                    "{case}"
                );
                for motion in motions {
                    let impact = sweep(first, motion, second, Vec2::ZERO)
                        .map(|hit| (hit.time, hit.point * factor, hit.normal));
                    let scaled_impact =
                        sweep(small_first, motion * factor, small_second, Vec2::ZERO)
                            .map(|hit| (hit.time, hit.point, hit.normal));
                    assert_eq!(impact, scaled_impact, "{case}, moving {motion}");
                }
            }
        }
    }
}
