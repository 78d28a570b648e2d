//! Segment–circle cases.

use bevy_collision_events::geometry::{Circle, Containment, Segment, Shape};

use crate::common::{assert_contained, assert_points, both_orders, circle, segment, v};

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
