//! Segment–segment cases.

use crate::common::{assert_points, both_orders, segment, v};

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
