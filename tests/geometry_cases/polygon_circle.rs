//! Polygon–circle cases.

use bevy::prelude::*;
use bevy_collision_events::PolygonCollider;
use bevy_collision_events::geometry::{Circle, Containment, Segment, Shape, polygon_size};

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

/// A ball resting on a corner of a large polygon whose edges there turn only a little from
/// the ball's tangent (the top of a planet, the peak of a terrain): each edge's line comes
/// within the tolerance of tangent with its foot off the edge. The outlines touch at the
/// corner, or cross a hair from it, and neither holds the other. The reference: the corner,
/// and every point reported within the tolerance (a 10⁵th of the pair's size) of both outlines,
/// measured in `f64`.
#[test]
fn polygon_circle_ball_on_a_nearly_flat_corner_touches_it() {
    let planet: Vec<Vec2> = PolygonCollider::regular(1000.0, 64).vertices().to_vec();
    let terrain = [
        v(0.0, 0.0),
        v(2000.0, -200.0),
        v(2000.0, -1000.0),
        v(-2000.0, -1000.0),
        v(-2000.0, -200.0),
    ];
    let small = [
        v(0.0, 0.0),
        v(100.0, -1.0),
        v(100.0, -10.0),
        v(-100.0, -10.0),
        v(-100.0, -1.0),
    ];
    let cases: [(&[Vec2], Vec2, f32); 5] = [
        (&planet, v(0.0, 1010.0), 10.0),
        (&planet, v(0.0, 1009.9999), 10.0),
        (&planet, v(0.0, 1002.0), 2.0),
        (&terrain, v(0.0, 1.0), 1.0),
        (&small, v(0.0, 10.0), 10.0),
    ];
    for (polygon, center, radius) in cases {
        let ball = Circle::new(center, radius);
        let hit = both_orders(Shape::Polygon(polygon), Shape::Circle(ball))
            .unwrap_or_else(|| panic!("{center} r {radius}: no contact"));
        assert_eq!(hit.containment, Containment::Neither, "{center}: {hit:?}");
        assert!(!hit.points.is_empty(), "{center}: {hit:?}");
        let size = polygon_size(polygon) + radius;
        let tolerance = 1e-5 * f64::from(size);
        let corner = polygon[0];
        for point in &hit.points {
            let off_circle =
                (point.as_dvec2().distance(center.as_dvec2()) - f64::from(radius)).abs();
            let off_corner = point.as_dvec2().distance(corner.as_dvec2());
            assert!(
                off_circle <= tolerance && off_corner <= 2.0 * tolerance.sqrt(),
                "{center} r {radius}: {point} is {off_circle} off the circle, {off_corner} from \
                 the corner"
            );
        }
    }
}

/// A disc touching a polygon only at a vertex, whose two edges fall away from it a little
/// below the disc's tangent there: one point, the vertex, whichever vertex the polygon starts
/// from, in either order; and one point, the end, for a segment along either edge. (Near
/// tangent, the quadratic's roots are rounded many tolerances along the edge.)
#[test]
fn polygon_circle_touching_only_at_a_vertex_reports_it_once() {
    let polygon = [
        v(10.0, -0.005),
        v(10.0, -10.0),
        v(-10.0, -10.0),
        v(-10.0, -0.005),
        v(0.0, 0.0),
    ];
    let disc = Circle::new(v(0.0, 200.0), 200.0);
    let tolerance = touches_once_from_every_vertex(polygon, disc, Vec2::ZERO);
    for far in [v(10.0, -0.005), v(-10.0, -0.005)] {
        let edge = Segment::new(Vec2::ZERO, far);
        let hit = both_orders(Shape::Segment(edge), Shape::Circle(disc)).unwrap();
        assert_eq!(hit.points.len(), 1, "{hit:?}");
        assert!(hit.points[0].distance(Vec2::ZERO) <= tolerance, "{hit:?}");
    }
}

/// A disc tangent to an edge half a unit from a nearly flat corner, the corner within the
/// tolerance of its outline: one point, where the edge touches it (in `f64`: (0.5, 0); the
/// corner, 6 × 10⁻⁴ outside the disc, is no second touch).
#[test]
fn polygon_circle_tangent_near_a_flat_corner_touches_once() {
    let polygon = [
        v(0.0, 0.0),
        v(-10.0, -0.005),
        v(-10.0, -10.0),
        v(10.0, -10.0),
        v(10.0, 0.0),
    ];
    touches_once_from_every_vertex(polygon, Circle::new(v(0.5, 200.0), 200.0), v(0.5, 0.0));
}

/// Checks that `disc` touches `polygon`, started from each of its vertices in turn, at one
/// point within the pair's tolerance of `touch`, in both orders; returns that tolerance.
fn touches_once_from_every_vertex<const N: usize>(
    polygon: [Vec2; N],
    disc: Circle,
    touch: Vec2,
) -> f32 {
    let tolerance = 1e-5 * (polygon_size(&polygon) + disc.radius);
    for turn in 0..N {
        let mut vertices = polygon;
        vertices.rotate_left(turn);
        let hit = both_orders(Shape::Polygon(&vertices), Shape::Circle(disc)).unwrap();
        assert_eq!(hit.containment, Containment::Neither, "{hit:?}");
        assert_eq!(hit.points.len(), 1, "turned {turn}: {hit:?}");
        assert!(hit.points[0].distance(touch) <= tolerance, "{hit:?}");
    }
    tolerance
}
