//! Named cases for every pair test: the textbook configurations (apart, touching outside and
//! inside, crossing, containment, coincident, degenerate), one test each, with worked numeric
//! examples. Each case goes through the dispatcher in both argument orders and
//! checks that the cheap overlap test agrees with the full intersection.

use bevy::math::Vec2;
use bevy_collision_events::geometry::{
    Circle, Containment, Intersection, MAX_COORDINATE, MIN_SIZE, Segment, Shape, intersect,
    overlap, point_in_circle, point_in_polygon, sweep,
};

/// How far a computed point may be from the expected one.
const CLOSE: f32 = 1e-4;

fn circle(x: f32, y: f32, radius: f32) -> Shape<'static> {
    Shape::Circle(Circle::new(Vec2::new(x, y), radius))
}

fn segment(ax: f32, ay: f32, bx: f32, by: f32) -> Shape<'static> {
    Shape::Segment(Segment::new(Vec2::new(ax, ay), Vec2::new(bx, by)))
}

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// Intersects in both orders, checks they agree with each other and with `overlap`, and returns
/// the answer for `(first, second)`.
fn both_orders(first: Shape, second: Shape) -> Option<Intersection> {
    let forward = intersect(first, second);
    let backward = intersect(second, first);
    assert_eq!(
        overlap(first, second),
        forward.is_some(),
        "overlap vs intersect"
    );
    assert_eq!(
        overlap(second, first),
        forward.is_some(),
        "overlap in the other order"
    );
    match (&forward, &backward) {
        (None, None) => {}
        (Some(f), Some(b)) => {
            assert_eq!(
                f.containment,
                b.containment.mirrored(),
                "mirrored containment"
            );
            assert_same_set(&f.points, &b.points);
        }
        _ => panic!("one order overlaps, the other does not: {forward:?} vs {backward:?}"),
    }
    forward
}

fn assert_same_set(a: &[Vec2], b: &[Vec2]) {
    assert_eq!(a.len(), b.len(), "point counts differ: {a:?} vs {b:?}");
    for p in a {
        assert!(
            b.iter().any(|q| p.distance(*q) <= CLOSE),
            "{p} missing from {b:?}"
        );
    }
}

fn assert_points(actual: &Intersection, expected: &[Vec2]) {
    assert_eq!(actual.containment, Containment::Neither, "{actual:?}");
    assert_eq!(
        actual.points.len(),
        expected.len(),
        "points {:?}, expected {expected:?}",
        actual.points
    );
    for (p, e) in actual.points.iter().zip(expected) {
        assert!(
            p.distance(*e) <= CLOSE,
            "point {p}, expected {e} (all: {actual:?})"
        );
    }
}

fn assert_contained(actual: &Intersection, containment: Containment) {
    assert!(actual.points.is_empty(), "{actual:?}");
    assert_eq!(actual.containment, containment);
}

// ---------------------------------------------------------------------------------------------
// Circle–circle

#[test]
fn circle_circle_apart() {
    assert_eq!(
        both_orders(circle(0.0, 0.0, 1.0), circle(3.0, 0.0, 1.0)),
        None
    );
}

#[test]
fn circle_circle_crossing_gives_two_points_left_first() {
    // Radii 5 and 5, centres 6 apart: the chord is at x = 3, half-length 4.
    let hit = both_orders(circle(0.0, 0.0, 5.0), circle(6.0, 0.0, 5.0)).unwrap();
    assert_points(&hit, &[v(3.0, 4.0), v(3.0, -4.0)]);
}

#[test]
fn circle_circle_worked_example_hits() {
    // (20, 40, r 5) and (25, 30, r 8): distance √125 ≈ 11.18 ≤ 13.
    let a = circle(20.0, 40.0, 5.0);
    let b = circle(25.0, 30.0, 8.0);
    let hit = both_orders(a, b).unwrap();
    assert_eq!(hit.points.len(), 2);
    for p in &hit.points {
        assert!((p.distance(v(20.0, 40.0)) - 5.0).abs() < CLOSE);
        assert!((p.distance(v(25.0, 30.0)) - 8.0).abs() < CLOSE);
    }
}

#[test]
fn circle_circle_external_tangency_gives_one_point() {
    let hit = both_orders(circle(0.0, 0.0, 2.0), circle(5.0, 0.0, 3.0)).unwrap();
    assert_points(&hit, &[v(2.0, 0.0)]);
}

#[test]
fn circle_circle_external_tangency_other_size_order() {
    let hit = both_orders(circle(0.0, 0.0, 3.0), circle(5.0, 0.0, 2.0)).unwrap();
    assert_points(&hit, &[v(3.0, 0.0)]);
}

#[test]
fn circle_circle_near_tangency_gives_one_point_not_two() {
    // Overlapping by a hair (well inside the tolerance): one point, never two a hair apart.
    let hit = both_orders(circle(0.0, 0.0, 2.0), circle(4.999_99, 0.0, 3.0)).unwrap();
    assert_eq!(hit.points.len(), 1, "{hit:?}");
    assert!(hit.points[0].distance(v(2.0, 0.0)) < 1e-3);
}

#[test]
fn circle_circle_internal_tangency_larger_first() {
    // Touching inside at C1 + r1·n1 (n1 the unit vector from C1 to C2) when circle 1 is the
    // larger.
    let hit = both_orders(circle(0.0, 0.0, 5.0), circle(3.0, 0.0, 2.0)).unwrap();
    assert_points(&hit, &[v(5.0, 0.0)]);
}

#[test]
fn circle_circle_internal_tangency_smaller_first() {
    // Touching inside at C1 − r1·n1 when circle 1 is the smaller.
    let hit = both_orders(circle(3.0, 0.0, 2.0), circle(0.0, 0.0, 5.0)).unwrap();
    assert_points(&hit, &[v(5.0, 0.0)]);
}

#[test]
fn circle_circle_containment_smaller_first() {
    let hit = both_orders(circle(1.0, 0.0, 1.0), circle(0.0, 0.0, 5.0)).unwrap();
    assert_contained(&hit, Containment::FirstInSecond);
}

#[test]
fn circle_circle_containment_larger_first() {
    let hit = both_orders(circle(0.0, 0.0, 5.0), circle(1.0, 0.0, 1.0)).unwrap();
    assert_contained(&hit, Containment::SecondInFirst);
}

#[test]
fn circle_circle_concentric_different_radii() {
    let hit = both_orders(circle(7.0, 7.0, 5.0), circle(7.0, 7.0, 2.0)).unwrap();
    assert_contained(&hit, Containment::SecondInFirst);
}

#[test]
fn circle_circle_equal_circles_coincide() {
    let hit = both_orders(circle(7.0, -3.0, 5.0), circle(7.0, -3.0, 5.0)).unwrap();
    assert_contained(&hit, Containment::Coincident);
}

#[test]
fn circle_circle_zero_radius_on_circumference() {
    let hit = both_orders(circle(0.0, 0.0, 5.0), circle(3.0, 4.0, 0.0)).unwrap();
    assert_points(&hit, &[v(3.0, 4.0)]);
}

#[test]
fn circle_circle_zero_radius_inside() {
    let hit = both_orders(circle(0.0, 0.0, 5.0), circle(1.0, 1.0, 0.0)).unwrap();
    assert_contained(&hit, Containment::SecondInFirst);
}

#[test]
fn circle_circle_zero_radius_outside() {
    assert_eq!(
        both_orders(circle(0.0, 0.0, 5.0), circle(6.0, 0.0, 0.0)),
        None
    );
}

#[test]
fn circle_circle_two_equal_points() {
    let hit = both_orders(circle(2.0, 2.0, 0.0), circle(2.0, 2.0, 0.0)).unwrap();
    assert_contained(&hit, Containment::Coincident);
    assert_eq!(
        both_orders(circle(2.0, 2.0, 0.0), circle(2.0, 2.5, 0.0)),
        None
    );
}

// ---------------------------------------------------------------------------------------------
// Segment–circle

#[test]
fn segment_circle_worked_examples() {
    // The circle (0, 0, r 10) hits (10, 0)–(0, 10): both ends lie on the circumference.
    let hit = both_orders(segment(10.0, 0.0, 0.0, 10.0), circle(0.0, 0.0, 10.0)).unwrap();
    assert_points(&hit, &[v(10.0, 0.0), v(0.0, 10.0)]);
    // ...and misses (15, 0)–(0, 15), whose line passes 15/√2 ≈ 10.6 from the centre.
    assert_eq!(
        both_orders(segment(15.0, 0.0, 0.0, 15.0), circle(0.0, 0.0, 10.0)),
        None
    );
}

#[test]
fn segment_circle_secant_entry_then_exit() {
    let hit = both_orders(segment(-10.0, 3.0, 10.0, 3.0), circle(0.0, 0.0, 5.0)).unwrap();
    assert_points(&hit, &[v(-4.0, 3.0), v(4.0, 3.0)]);
    let reversed = both_orders(segment(10.0, 3.0, -10.0, 3.0), circle(0.0, 0.0, 5.0)).unwrap();
    assert_points(&reversed, &[v(4.0, 3.0), v(-4.0, 3.0)]);
}

#[test]
fn segment_circle_one_end_inside_gives_one_point() {
    let hit = both_orders(segment(0.0, 0.0, 10.0, 0.0), circle(0.0, 0.0, 5.0)).unwrap();
    assert_points(&hit, &[v(5.0, 0.0)]);
}

#[test]
fn segment_circle_wholly_inside_the_disc() {
    // A hit though it never touches the circumference: the segment lies inside.
    let hit = both_orders(segment(-1.0, 0.0, 1.0, 1.0), circle(0.0, 0.0, 5.0)).unwrap();
    assert_contained(&hit, Containment::FirstInSecond);
}

#[test]
fn segment_circle_tangent_gives_one_point() {
    let hit = both_orders(segment(-10.0, 5.0, 10.0, 5.0), circle(0.0, 0.0, 5.0)).unwrap();
    assert_points(&hit, &[v(0.0, 5.0)]);
}

#[test]
fn segment_circle_behind_a_and_beyond_b() {
    // The nearest point is an end (the centre projects beyond the segment).
    assert_eq!(
        both_orders(segment(6.0, 0.0, 10.0, 0.0), circle(0.0, 0.0, 5.0)),
        None
    );
    assert_eq!(
        both_orders(segment(-10.0, 0.0, -6.0, 0.0), circle(0.0, 0.0, 5.0)),
        None
    );
    let touch = both_orders(segment(5.0, 0.0, 10.0, 0.0), circle(0.0, 0.0, 5.0)).unwrap();
    assert_points(&touch, &[v(5.0, 0.0)]);
}

#[test]
fn segment_circle_line_passes_near_but_segment_misses() {
    // The infinite line cuts the disc; the segment stops short.
    assert_eq!(
        both_orders(segment(6.0, 1.0, 20.0, 1.0), circle(0.0, 0.0, 5.0)),
        None
    );
}

#[test]
fn segment_circle_an_end_on_the_circle_near_tangent_is_not_containment() {
    // One end lies on the circumference, the line is nearly tangent there and the other end is
    // 4.85 outside: rounding hides the root, but the segment is not inside the disc.
    for (center, radius, a, b) in [
        (
            v(-312.15234, 174.81516),
            455.99152,
            v(134.73112, 84.13216),
            v(121.75192, 19.561787),
        ),
        (
            v(-0.3418166, 1.1197716),
            0.6295399,
            v(-0.1721984, 0.51351243),
            v(0.7108032, 0.7578316),
        ),
    ] {
        let shapes = (
            Shape::Segment(Segment::new(a, b)),
            Shape::Circle(Circle::new(center, radius)),
        );
        let hit = both_orders(shapes.0, shapes.1).expect("they touch");
        assert_eq!(hit.containment, Containment::Neither, "{hit:?}");
        for point in &hit.points {
            let off = (point.distance(center) - radius).abs();
            assert!(off <= 1e-4 * radius, "{point} is {off} off the circle");
        }
    }
}

#[test]
fn segment_circle_degenerate_segment_is_a_point() {
    // The projection onto the segment would divide by |B − A|² = 0 here; A = B is a point.
    let inside = both_orders(segment(1.0, 1.0, 1.0, 1.0), circle(0.0, 0.0, 5.0)).unwrap();
    assert_contained(&inside, Containment::FirstInSecond);
    let on = both_orders(segment(3.0, 4.0, 3.0, 4.0), circle(0.0, 0.0, 5.0)).unwrap();
    assert_points(&on, &[v(3.0, 4.0)]);
    assert_eq!(
        both_orders(segment(6.0, 0.0, 6.0, 0.0), circle(0.0, 0.0, 5.0)),
        None
    );
}

#[test]
fn segment_circle_zero_radius_on_the_segment() {
    let hit = both_orders(segment(0.0, 0.0, 10.0, 0.0), circle(4.0, 0.0, 0.0)).unwrap();
    assert_points(&hit, &[v(4.0, 0.0)]);
    assert_eq!(
        both_orders(segment(0.0, 0.0, 10.0, 0.0), circle(4.0, 0.5, 0.0)),
        None
    );
}

// ---------------------------------------------------------------------------------------------
// Segment–segment

#[test]
fn segment_segment_crossing() {
    let hit = both_orders(segment(0.0, 0.0, 4.0, 4.0), segment(0.0, 4.0, 4.0, 0.0)).unwrap();
    assert_points(&hit, &[v(2.0, 2.0)]);
}

#[test]
fn segment_segment_end_touching_the_other_t_junction() {
    let hit = both_orders(segment(0.0, 0.0, 4.0, 0.0), segment(2.0, 0.0, 2.0, 5.0)).unwrap();
    assert_points(&hit, &[v(2.0, 0.0)]);
}

#[test]
fn segment_segment_shared_end() {
    let hit = both_orders(segment(0.0, 0.0, 4.0, 0.0), segment(4.0, 0.0, 6.0, 3.0)).unwrap();
    assert_points(&hit, &[v(4.0, 0.0)]);
}

#[test]
fn segment_segment_parallel_apart() {
    assert_eq!(
        both_orders(segment(0.0, 0.0, 4.0, 0.0), segment(0.0, 1.0, 4.0, 1.0)),
        None
    );
}

#[test]
fn segment_segment_collinear_overlap_reports_the_shared_piece() {
    let hit = both_orders(segment(0.0, 0.0, 4.0, 0.0), segment(2.0, 0.0, 6.0, 0.0)).unwrap();
    assert_points(&hit, &[v(2.0, 0.0), v(4.0, 0.0)]);
    // Ordered along the first segment, whichever way the second one runs.
    let hit = both_orders(segment(4.0, 0.0, 0.0, 0.0), segment(6.0, 0.0, 2.0, 0.0)).unwrap();
    assert_points(&hit, &[v(4.0, 0.0), v(2.0, 0.0)]);
    let short_first =
        both_orders(segment(3.0, 0.0, 1.0, 0.0), segment(0.0, 0.0, 10.0, 0.0)).unwrap();
    assert_points(&short_first, &[v(3.0, 0.0), v(1.0, 0.0)]);
}

#[test]
fn segment_segment_collinear_touching_at_one_end() {
    let hit = both_orders(segment(0.0, 0.0, 4.0, 0.0), segment(4.0, 0.0, 8.0, 0.0)).unwrap();
    assert_points(&hit, &[v(4.0, 0.0)]);
}

#[test]
fn segment_segment_collinear_apart() {
    assert_eq!(
        both_orders(segment(0.0, 0.0, 4.0, 0.0), segment(5.0, 0.0, 8.0, 0.0)),
        None
    );
}

#[test]
fn segment_segment_identical() {
    let hit = both_orders(segment(1.0, 2.0, 5.0, 7.0), segment(1.0, 2.0, 5.0, 7.0)).unwrap();
    assert_points(&hit, &[v(1.0, 2.0), v(5.0, 7.0)]);
}

#[test]
fn segment_segment_degenerate_point_on_and_off() {
    let hit = both_orders(segment(2.0, 0.0, 2.0, 0.0), segment(0.0, 0.0, 4.0, 0.0)).unwrap();
    assert_points(&hit, &[v(2.0, 0.0)]);
    assert_eq!(
        both_orders(segment(2.0, 1.0, 2.0, 1.0), segment(0.0, 0.0, 4.0, 0.0)),
        None
    );
    let same = both_orders(segment(2.0, 1.0, 2.0, 1.0), segment(2.0, 1.0, 2.0, 1.0)).unwrap();
    assert_points(&same, &[v(2.0, 1.0)]);
}

// ---------------------------------------------------------------------------------------------
// Polygon–circle

/// A 10 × 10 square, counter-clockwise from the origin.
const SQUARE: [Vec2; 4] = [
    Vec2::new(0.0, 0.0),
    Vec2::new(10.0, 0.0),
    Vec2::new(10.0, 10.0),
    Vec2::new(0.0, 10.0),
];

/// A "U": a 30 × 30 block with a 10-wide notch cut from the top down to y = 10. The notch is
/// outside; the two arms and the base are the pockets of solid.
const U_SHAPE: [Vec2; 8] = [
    Vec2::new(0.0, 0.0),
    Vec2::new(30.0, 0.0),
    Vec2::new(30.0, 30.0),
    Vec2::new(20.0, 30.0),
    Vec2::new(20.0, 10.0),
    Vec2::new(10.0, 10.0),
    Vec2::new(10.0, 30.0),
    Vec2::new(0.0, 30.0),
];

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

// ---------------------------------------------------------------------------------------------
// Polygon–segment

#[test]
fn polygon_segment_laser_through() {
    let hit = both_orders(Shape::Polygon(&SQUARE), segment(-5.0, 5.0, 15.0, 5.0)).unwrap();
    // Along the polygon's outline: edge 1 (x = 10) before edge 3 (x = 0).
    assert_points(&hit, &[v(10.0, 5.0), v(0.0, 5.0)]);
}

#[test]
fn polygon_segment_inside() {
    let hit = both_orders(Shape::Polygon(&SQUARE), segment(2.0, 2.0, 8.0, 7.0)).unwrap();
    assert_contained(&hit, Containment::SecondInFirst);
}

#[test]
fn polygon_segment_along_an_edge_reports_shared_piece() {
    let hit = both_orders(Shape::Polygon(&SQUARE), segment(3.0, 0.0, 6.0, 0.0)).unwrap();
    assert_points(&hit, &[v(3.0, 0.0), v(6.0, 0.0)]);
    // Overhanging both ends of the edge: the shared piece is the whole edge.
    let overhang = both_orders(Shape::Polygon(&SQUARE), segment(-5.0, 0.0, 15.0, 0.0)).unwrap();
    assert_points(&overhang, &[v(0.0, 0.0), v(10.0, 0.0)]);
}

#[test]
fn polygon_segment_through_a_vertex_reports_it_once() {
    let hit = both_orders(Shape::Polygon(&SQUARE), segment(5.0, 15.0, 15.0, 5.0)).unwrap();
    assert_points(&hit, &[v(10.0, 10.0)]);
}

#[test]
fn polygon_segment_across_a_concave_notch() {
    let hit = both_orders(Shape::Polygon(&U_SHAPE), segment(-5.0, 20.0, 35.0, 20.0)).unwrap();
    // Edges in order: (30,0)-(30,30), (20,30)-(20,10), (10,10)-(10,30), (0,30)-(0,0).
    assert_points(
        &hit,
        &[v(30.0, 20.0), v(20.0, 20.0), v(10.0, 20.0), v(0.0, 20.0)],
    );
}

#[test]
fn polygon_segment_in_notch_misses() {
    assert_eq!(
        both_orders(Shape::Polygon(&U_SHAPE), segment(12.0, 15.0, 18.0, 25.0)),
        None
    );
}

// ---------------------------------------------------------------------------------------------
// Polygon–polygon

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
    assert_eq!(hit.points.len(), 8, "{hit:?}");
    // A small square in the notch touches nothing.
    let in_notch = square_at(12.0, 15.0, 5.0);
    assert_eq!(
        both_orders(Shape::Polygon(&U_SHAPE), Shape::Polygon(&in_notch)),
        None
    );
}

// ---------------------------------------------------------------------------------------------
// Points in shapes

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

// ---------------------------------------------------------------------------------------------
// Non-finite input: a defined answer (no overlap), never a panic

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
// A one-vertex polygon: the polyline of one vertex, a point

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

// ---------------------------------------------------------------------------------------------
// A straight vertex inside a shared piece: the piece still has two ends

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

// ---------------------------------------------------------------------------------------------
// Many crossings: every one, in order, once

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
    assert_eq!(hit.points.len(), 2 * teeth, "{hit:?}");
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
    // Shapes from 1 to 6 across, apart by at least 0.3: scaled so that the smallest size and
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
    ];
    let motions = [v(4.0, 0.3), v(-3.0, 1.0), v(0.5, -2.0)];
    // Even powers, so that square roots scale exactly too.
    let smallest = -58; // 2⁻⁵⁸ × 0.3 ≈ 1.04e-18 ≥ MIN_SIZE
    let largest = 56; // 2⁵⁶ × 10 ≈ 7.2e17 ≤ MAX_COORDINATE
    assert!(2f32.powi(smallest) * 0.3 >= MIN_SIZE);
    assert!(2f32.powi(largest) * 10.0 <= MAX_COORDINATE);
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

// ---------------------------------------------------------------------------------------------
// Found by the fuzzer (`fuzz/`): each the smallest input it found for a kind of failure

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
