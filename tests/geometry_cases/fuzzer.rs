//! Found by the fuzzer (`fuzz/`): each the smallest input it found for a kind of failure.

use bevy::math::Vec2;
use bevy_collision_events::geometry::{Circle, Containment, Segment, Shape, intersect, overlap};

use crate::common::{both_orders, v};

#[test]
fn a_bounding_circle_of_a_negative_or_nan_radius_is_a_point_not_a_panic() {
    for radius in [-1.0, f32::NAN] {
        let circle = Shape::Circle(Circle::new(Vec2::ZERO, radius)).bounding_circle();
        assert_eq!(circle.radius(), 0.0, "{radius}");
    }
}

#[test]
fn bounding_circles_of_huge_polygons_stay_finite() {
    use bevy_collision_events::geometry::bounding_circle_of_points;
    for size in [5e12, 1e13, 3.764_646e16, 1e18] {
        let triangle: Vec<Vec2> = (0..3)
            .map(|i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / 3.0) * size)
            .collect();
        let circle = bounding_circle_of_points(&triangle);
        assert!(
            circle.center.is_finite() && circle.radius().is_finite(),
            "{size}: {circle:?}"
        );
        for vertex in &triangle {
            assert!(
                vertex.distance(circle.center) <= circle.radius() * (1.0 + 1e-5),
                "{size}: {vertex} outside {circle:?}"
            );
        }
        assert!(circle.radius() <= size * (1.0 + 1e-4), "{size}: {circle:?}");
    }
}

#[test]
fn a_point_beside_a_polyline_overlaps_it_in_neither_order() {
    let polyline = [v(0.0, 0.0), v(33.0, 12.0)];
    let point = [v(1.1920929e-7, 1e-45)];
    assert!(!overlap(Shape::Polygon(&polyline), Shape::Polygon(&point)));
    assert!(!overlap(Shape::Polygon(&point), Shape::Polygon(&polyline)));
    // A point on a polyline's end, in both orders.
    let end = [v(33.0, 12.0)];
    assert!(overlap(Shape::Polygon(&end), Shape::Polygon(&polyline)));
    assert!(overlap(Shape::Polygon(&polyline), Shape::Polygon(&end)));
}

#[test]
fn a_huge_square_meets_itself_at_its_four_corners() {
    // Comparing squared distances with the squared tolerance overflowed from about 1.4e12.
    for size in [5.5e11, 1.1e12, 1e14, 1e17] {
        let square = [v(0.0, 0.0), v(size, 0.0), v(size, size), v(0.0, size)];
        let hit = intersect(Shape::Polygon(&square), Shape::Polygon(&square)).unwrap();
        assert_eq!(hit.points.len(), 4, "{size}: {hit:?}");
        for corner in square {
            let near = |point: &Vec2| point.distance(corner) <= 1e-5 * size;
            assert!(hit.points.iter().any(near), "{size}: {corner} in {hit:?}");
        }
    }
}

#[test]
fn points_within_the_tolerance_are_one_even_when_found_apart() {
    let tall = [
        v(-8.5, -1669472.0),
        v(0.0, -1669472.0),
        v(0.0, 0.0),
        v(-8.5, 0.0),
    ];
    let sliver = [v(-29.75, 0.0), v(-8.5, -1669472.0), v(0.0, -1122304.0)];
    let hit = both_orders(Shape::Polygon(&tall), Shape::Polygon(&sliver)).unwrap();
    // The pair's tolerance: 1e-5 × the sum of the half-diagonals of the two bounding boxes.
    let half_diagonal = |vertices: &[Vec2]| {
        let min = vertices.iter().fold(Vec2::INFINITY, |m, &p| m.min(p));
        let max = vertices.iter().fold(Vec2::NEG_INFINITY, |m, &p| m.max(p));
        0.5 * min.distance(max)
    };
    let tolerance = 1e-5 * (half_diagonal(&tall) + half_diagonal(&sliver));
    // The outlines meet at the shared corner (−8.5, −1669472), where the sliver's middle edge
    // ends on the tall one's right side (0, −1122304), and where its last edge leaves across
    // the left side (−8.5, −1122304 × 5 / 7).
    assert_eq!(hit.points.len(), 3, "{hit:?}");
    let crossings = [
        v(-8.5, -1669472.0),
        v(0.0, -1122304.0),
        v(-8.5, -1122304.0 * 5.0 / 7.0),
    ];
    for crossing in crossings {
        let near = |point: &Vec2| point.distance(crossing) <= tolerance;
        assert!(hit.points.iter().any(near), "{crossing} in {hit:?}");
    }
    for (i, p) in hit.points.iter().enumerate() {
        for q in &hit.points[i + 1..] {
            assert!(p.distance(*q) > tolerance, "{p} and {q}: {hit:?}");
        }
    }
}

#[test]
fn a_polyline_crossing_a_triangle_is_not_inside_it() {
    let polyline = [v(-0.75000006, 1e-5), v(3.4375, 0.0)];
    let triangle = [v(-0.75, 1e-5), v(0.0, 3.0398369e-5), v(13.75, 13.75)];
    let hit = both_orders(Shape::Polygon(&polyline), Shape::Polygon(&triangle)).unwrap();
    assert_eq!(hit.containment, Containment::Neither, "{hit:?}");
    assert!(!hit.points.is_empty());
}

#[test]
fn circle_circle_points_lie_on_both_circles_whichever_is_larger() {
    let large = Circle::new(v(27.749998, 6216.0), 6105.0);
    let small = Circle::new(v(27.75, 111.0), 10.370827);
    for (first, second) in [(large, small), (small, large)] {
        let hit = intersect(Shape::Circle(first), Shape::Circle(second)).unwrap();
        assert!(!hit.points.is_empty());
        for point in &hit.points {
            for circle in [large, small] {
                let off = (point.as_dvec2().distance(circle.center.as_dvec2())
                    - f64::from(circle.radius))
                .abs();
                assert!(off < 0.07, "{point} is {off} off {circle:?}");
            }
        }
    }
}

#[test]
fn a_near_parallel_crossing_stays_on_both_segments() {
    let first = Segment::new(v(-15.933594, 14.066406), v(-17.703125, 12.296875));
    let second = Segment::new(v(-17.703125, 12.296964), v(-16.25, 13.75));
    let hit = both_orders(Shape::Segment(first), Shape::Segment(second)).unwrap();
    let tolerance = 1e-5 * (first.a.distance(first.b) + second.a.distance(second.b)) / 2.0;
    let to_segment = |s: Segment, p: Vec2| {
        let (a, b, p) = (s.a.as_dvec2(), s.b.as_dvec2(), p.as_dvec2());
        let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
        p.distance(a + (b - a) * t)
    };
    for point in &hit.points {
        for segment in [first, second] {
            let off = to_segment(segment, *point);
            assert!(
                off <= 2.0 * f64::from(tolerance),
                "{point} is {off} off {segment:?}"
            );
        }
    }
}
