//! Spatial queries at the edge of a grid: a path that grazes the outermost circle of a layer
//! group, by the geometry's own verdict, is found, though the circle's box edge (its centre
//! less its radius, rounded) may lie an ulp inside the circle.

use crate::common::app;
use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_collision_events::geometry::{Circle, Shape, overlap, ray_cast};
use bevy_collision_events::prelude::*;

/// The disc's centre and radius: its box starts at `2 − 1.3` rounded, 0.70000005, one ulp
/// right of 0.7, while `0.7 − 2` rounds to exactly −1.3, minus the radius.
const CENTER: Vec2 = Vec2::new(2.0, 0.0);
const RADIUS: f32 = 1.3;

/// The disc, alone in its grid, placed.
fn disc() -> (App, Entity) {
    let mut app = app();
    let disc = app
        .world_mut()
        .spawn((
            CircleCollider::new(RADIUS),
            Transform::from_translation(CENTER.extend(0.0)),
        ))
        .id();
    app.update();
    (app, disc)
}

/// A vertical ray at x = 0.7 grazes the disc, by `ray_cast`: `cast_ray` and `ray_hits` find it
/// at the same distance.
#[test]
fn a_ray_along_an_axis_grazing_the_outermost_disc_is_found() {
    let (mut app, disc) = disc();
    let ray = Ray2d::new(Vec2::new(0.7, -10.0), Dir2::Y);
    let shape = Shape::Circle(Circle::new(CENTER, RADIUS));
    let expected = ray_cast(ray, 100.0, shape).expect("the ray grazes the disc");
    let (first, all) = app
        .world_mut()
        .run_system_once(move |query: SpatialQuery| {
            let all = SpatialQueryFilter::default();
            let first = query.cast_ray(ray, 100.0, &all);
            (first, query.ray_hits(ray, 100.0, &all))
        })
        .unwrap();
    let first = first.expect("cast_ray finds the disc");
    assert_eq!((first.entity, first.distance), (disc, expected.distance));
    assert_eq!(all.len(), 1);
    assert_eq!((all[0].entity, all[0].distance), (disc, expected.distance));
}

/// A circle touching the disc, by `overlap`, cast along an axis: met at distance zero, as
/// `shape_intersections` finds it.
#[test]
fn a_circle_cast_from_touching_the_outermost_disc_meets_it_at_once() {
    let (mut app, disc) = disc();
    let circle = Circle::new(Vec2::new(0.5, 0.0), 0.2);
    // (0.5 − 2)² = 2.25 = (0.2 + 1.3)², rounded: touching.
    let target = Shape::Circle(Circle::new(CENTER, RADIUS));
    assert!(overlap(Shape::Circle(circle), target));
    let (touching, cast) = app
        .world_mut()
        .run_system_once(move |query: SpatialQuery| {
            let all = SpatialQueryFilter::default();
            (
                query.shape_intersections(Shape::Circle(circle), &all),
                query.cast_circle(circle.center, circle.radius, Dir2::Y, 10.0, &all),
            )
        })
        .unwrap();
    assert_eq!(touching, [disc]);
    let cast = cast.expect("cast_circle meets it");
    assert_eq!((cast.entity, cast.distance), (disc, 0.0));
}
