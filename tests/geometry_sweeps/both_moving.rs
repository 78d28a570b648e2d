//! Named cases: both shapes moving.

use crate::bullets::BULLET;
use crate::common::{assert_impact, both_orders, circle, segment, v};

#[test]
fn crossing_paths_meet() {
    // A from (−10, 0) along +x, B from (0, −10) along +y, both 20 per frame, radii 1: their
    // centres are √2·|10 − 20t| apart, 2 at t = (10 − √2) / 20.
    let a = circle(-10.0, 0.0, 1.0);
    let b = circle(0.0, -10.0, 1.0);
    let (a_motion, b_motion) = (v(20.0, 0.0), v(0.0, 20.0));
    let time = (10.0 - 2.0f32.sqrt()) / 20.0;
    let b_then = v(0.0, -10.0 + 20.0 * time);
    let normal = v(-1.0, 1.0).normalize();
    let impact = both_orders(a, a_motion, b, b_motion);
    // The point is where they touch then: on B moved by `time × b_motion`.
    assert_impact(impact, time, b_then + normal, normal);
}

#[test]
fn parallel_paths_never_meet() {
    let a = circle(-10.0, 0.0, 1.0);
    let b = circle(0.0, 5.0, 1.0);
    assert_eq!(both_orders(a, v(20.0, 0.0), b, v(20.0, 0.0)), None);
    assert_eq!(both_orders(a, v(20.0, 0.0), b, v(35.0, 0.0)), None);
    let rail = segment(0.0, 5.0, 10.0, 5.0);
    assert_eq!(
        both_orders(rail, v(0.0, 3.0), segment(0.0, 0.0, 10.0, 0.0), v(0.0, 3.0)),
        None
    );
}

#[test]
fn a_wall_moving_onto_a_bullet() {
    // Only the relative motion counts: the wall comes to the bullet. The point is on the wall
    // where it is then.
    let wall = segment(10.0, -50.0, 10.0, 50.0);
    let impact = both_orders(wall, v(-20.0, 0.0), circle(-3.0, 2.0, BULLET), v(0.0, 0.0));
    assert_impact(impact, 0.5, v(0.0, 2.0), v(1.0, 0.0));
}
