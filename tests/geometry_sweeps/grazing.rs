//! Named cases: grazing, starting in contact, moving away, standing still.

use bevy::math::Vec2;
use bevy_collision_events::geometry::Shape;

use crate::bullets::BULLET;
use crate::common::{CLOSE, assert_impact, both_orders, circle, segment, v};

#[test]
fn grazing_an_orb_hits_when_touching_exactly_and_misses_a_hair_away() {
    // The bullet's path passes 7 = 3 + 4 from the orb's centre: it touches at the closest
    // approach, halfway.
    let orb = circle(0.0, 0.0, 4.0);
    let motion = v(40.0, 0.0);
    let touching = both_orders(circle(-20.0, 7.0, BULLET), motion, orb, Vec2::ZERO);
    assert_impact(touching, 0.5, v(0.0, 4.0), v(0.0, 1.0));
    let apart = both_orders(circle(-20.0, 7.001, BULLET), motion, orb, Vec2::ZERO);
    assert_eq!(apart, None);
}

#[test]
fn grazing_a_wall_end_hits_when_touching_exactly_and_misses_a_hair_away() {
    // The wall ends at the origin; the bullet's path passes 3 above it.
    let wall = segment(0.0, -50.0, 0.0, 0.0);
    let motion = v(40.0, 0.0);
    let touching = both_orders(circle(-20.0, 3.0, BULLET), motion, wall, Vec2::ZERO);
    assert_impact(touching, 0.5, v(0.0, 0.0), v(0.0, 1.0));
    let apart = both_orders(circle(-20.0, 3.001, BULLET), motion, wall, Vec2::ZERO);
    assert_eq!(apart, None);
}

#[test]
fn grazing_a_box_top_hits_when_touching_exactly_and_misses_a_hair_away() {
    // Sliding along the top face y = 50, first touching its corner (−1, 50).
    let thin_box = [v(-1.0, -50.0), v(1.0, -50.0), v(1.0, 50.0), v(-1.0, 50.0)];
    let motion = v(40.0, 0.0);
    let polygon = Shape::Polygon(&thin_box);
    let touching = both_orders(circle(-20.0, 53.0, BULLET), motion, polygon, Vec2::ZERO);
    assert_impact(touching, 19.0 / 40.0, v(-1.0, 50.0), v(0.0, 1.0));
    let apart = both_orders(circle(-20.0, 53.001, BULLET), motion, polygon, Vec2::ZERO);
    assert_eq!(apart, None);
}

#[test]
fn grazing_segments_touch_end_to_end_and_miss_a_hair_away() {
    // A segment's end passes exactly over another's end.
    let rest = segment(0.0, -10.0, 0.0, 0.0);
    let motion = v(20.0, 0.0);
    let touching = both_orders(segment(-10.0, 0.0, -10.0, 5.0), motion, rest, Vec2::ZERO);
    let impact = touching.expect("ends meet");
    assert!((impact.time - 0.5).abs() <= CLOSE && impact.point.distance(Vec2::ZERO) <= CLOSE);
    let apart = both_orders(segment(-10.0, 0.001, -10.0, 5.0), motion, rest, Vec2::ZERO);
    assert_eq!(apart, None);
}

#[test]
fn touching_exactly_at_the_end_of_the_motion() {
    let wall = segment(0.0, -50.0, 0.0, 50.0);
    let impact = both_orders(circle(-13.0, 0.0, BULLET), v(10.0, 0.0), wall, Vec2::ZERO);
    assert_impact(impact, 1.0, v(0.0, 0.0), v(-1.0, 0.0));
}

#[test]
fn starting_in_contact_gives_none() {
    let wall = segment(0.0, -50.0, 0.0, 50.0);
    let motion = v(10.0, 0.0);
    // Overlapping, and touching exactly (closed sets: touching is overlapping).
    assert_eq!(
        both_orders(circle(1.0, 0.0, BULLET), motion, wall, Vec2::ZERO),
        None
    );
    assert_eq!(
        both_orders(circle(-3.0, 0.0, BULLET), motion, wall, Vec2::ZERO),
        None
    );
    // A circle inside a polygon, moving out.
    let square = [
        v(-10.0, -10.0),
        v(10.0, -10.0),
        v(10.0, 10.0),
        v(-10.0, 10.0),
    ];
    let polygon = Shape::Polygon(&square);
    assert_eq!(
        both_orders(circle(0.0, 0.0, 1.0), motion, polygon, Vec2::ZERO),
        None
    );
    // A segment across a polygon, and a polygon inside another.
    let across = segment(-20.0, 0.0, 20.0, 0.0);
    assert_eq!(both_orders(across, motion, polygon, Vec2::ZERO), None);
    let small = [v(-1.0, -1.0), v(1.0, -1.0), v(0.0, 1.0)];
    assert_eq!(
        both_orders(Shape::Polygon(&small), motion, polygon, Vec2::ZERO),
        None
    );
}

#[test]
fn moving_away_gives_none() {
    let wall = segment(0.0, -50.0, 0.0, 50.0);
    let away = v(-30.0, 5.0);
    assert_eq!(
        both_orders(circle(-5.0, 0.0, BULLET), away, wall, Vec2::ZERO),
        None
    );
    let orb = circle(0.0, 0.0, 4.0);
    assert_eq!(
        both_orders(circle(-8.0, 0.0, BULLET), away, orb, Vec2::ZERO),
        None
    );
    let square = [v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0), v(0.0, 10.0)];
    let shard = [v(-3.0, 4.0), v(-1.0, 5.0), v(-3.0, 6.0)];
    assert_eq!(
        both_orders(
            Shape::Polygon(&shard),
            away,
            Shape::Polygon(&square),
            Vec2::ZERO
        ),
        None
    );
}

#[test]
fn stopping_short_gives_none() {
    let wall = segment(0.0, -50.0, 0.0, 50.0);
    assert_eq!(
        both_orders(circle(-13.0, 0.0, BULLET), v(9.99, 0.0), wall, Vec2::ZERO),
        None
    );
}

#[test]
fn zero_motion_gives_none() {
    let wall = segment(0.0, -50.0, 0.0, 50.0);
    let bullet = circle(-5.0, 0.0, BULLET);
    assert_eq!(both_orders(bullet, Vec2::ZERO, wall, Vec2::ZERO), None);
    // Moving together is no motion relative to each other.
    let together = v(25.0, -4.0);
    assert_eq!(both_orders(bullet, together, wall, together), None);
}
