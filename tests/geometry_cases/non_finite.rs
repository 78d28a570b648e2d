//! Non-finite input: a defined answer (no overlap), never a panic; and a negative radius, and
//! polygons of more than 64 vertices.

use bevy::math::Vec2;
use bevy_collision_events::geometry::{Shape, intersect, overlap, point_in_polygon};

use crate::common::{SQUARE, U_SHAPE, both_orders, circle, segment, v};

#[test]
fn non_finite_input_never_overlaps() {
    let bad_values = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
    for bad in bad_values {
        let bad_circles = [
            circle(bad, 0.0, 1.0),
            circle(0.0, bad, 1.0),
            circle(0.0, 0.0, bad),
        ];
        let bad_segments = [segment(bad, 0.0, 1.0, 1.0), segment(0.0, 0.0, 1.0, bad)];
        let bad_polygon = [v(0.0, 0.0), v(bad, 0.0), v(10.0, 10.0)];
        let mut bad_shapes: Vec<Shape> = bad_circles.into_iter().chain(bad_segments).collect();
        bad_shapes.push(Shape::Polygon(&bad_polygon));
        let good_shapes = [
            circle(0.0, 0.0, 100.0),
            segment(-100.0, 0.0, 100.0, 0.0),
            Shape::Polygon(&SQUARE),
            Shape::Polygon(&U_SHAPE),
        ];
        for bad_shape in &bad_shapes {
            for good in good_shapes.iter().chain(&bad_shapes) {
                assert!(!overlap(*bad_shape, *good), "{bad_shape:?} vs {good:?}");
                assert!(!overlap(*good, *bad_shape), "{good:?} vs {bad_shape:?}");
                assert_eq!(intersect(*bad_shape, *good), None);
                assert_eq!(intersect(*good, *bad_shape), None);
            }
        }
    }
}

#[test]
fn negative_radius_never_overlaps() {
    let negative = circle(0.0, 0.0, -1.0);
    for other in [
        circle(0.0, 0.0, 5.0),
        segment(-1.0, 0.0, 1.0, 0.0),
        Shape::Polygon(&SQUARE),
    ] {
        assert!(!overlap(negative, other));
        assert_eq!(intersect(other, negative), None);
    }
}

#[test]
fn polygon_polygon_with_more_than_64_vertices() {
    // Two 100-gons (nearly circles of radius 10), centres 10 apart: two crossings, like the
    // circles they approximate, whichever one has the many vertices first.
    let ring = |x: f32, count: usize| -> Vec<Vec2> {
        (0..count)
            .map(|i| {
                v(x, 0.0) + Vec2::from_angle(i as f32 * std::f32::consts::TAU / count as f32) * 10.0
            })
            .collect()
    };
    let hit = both_orders(
        Shape::Polygon(&ring(0.0, 100)),
        Shape::Polygon(&ring(10.0, 100)),
    );
    let hit = hit.unwrap();
    assert_eq!(hit.points.len(), 2, "{hit:?}");
    assert!(hit.points.iter().all(|p| (p.x - 5.0).abs() < 0.05));
    // Many vertices against few.
    let hit = both_orders(
        Shape::Polygon(&ring(0.0, 100)),
        Shape::Polygon(&ring(10.0, 7)),
    );
    assert_eq!(hit.unwrap().points.len(), 2);
    let far = ring(25.0, 100);
    assert_eq!(
        both_orders(Shape::Polygon(&ring(0.0, 100)), Shape::Polygon(&far)),
        None
    );
}

/// A point is in no polygon with a non-finite vertex, nor is a non-finite point in any: an
/// edge with a NaN end is crossed by no ray, which would flip the count of the others.
#[test]
fn non_finite_input_is_in_no_polygon() {
    let square_then_nan = [
        v(0.0, 0.0),
        v(1.0, 0.0),
        v(1.0, 1.0),
        v(0.0, 1.0),
        v(f32::NAN, f32::NAN),
    ];
    assert!(!point_in_polygon(v(-5.0, 0.5), &square_then_nan));
    assert!(!point_in_polygon(v(0.5, 0.5), &square_then_nan));
    for bad in [f32::NAN, f32::INFINITY] {
        assert!(!point_in_polygon(v(bad, 0.5), &SQUARE));
    }
    assert!(point_in_polygon(
        v(0.5, 0.5),
        &[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)]
    ));
}
