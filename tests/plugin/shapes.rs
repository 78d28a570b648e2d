//! Every shape pair through the ECS, with the points checked in world space under
//! translation, rotation, scale and parent transforms. Expected points are worked out by hand.

use crate::common::{app, assert_same_points, contact_between};
use bevy::prelude::*;
use bevy_collision_events::prelude::*;
use std::f32::consts::FRAC_PI_2;

#[test]
fn circle_circle_under_translation_scale_and_offset() {
    let mut app = app();
    let a = app
        .world_mut()
        .spawn((
            CircleCollider::new(5.0),
            Transform::from_xyz(100.0, 50.0, 0.0),
        ))
        .id();
    // Radius 2.5 and offset (1, 0) under a parent scaled by 2 at (104, 50): radius 5 at (106, 50).
    let b = app
        .world_mut()
        .spawn(Transform::from_xyz(104.0, 50.0, 0.0).with_scale(Vec3::splat(2.0)))
        .with_child(CircleCollider::new(2.5).with_offset(Vec2::new(1.0, 0.0)))
        .id();
    app.update();
    let child = app.world().entity(b).get::<Children>().unwrap()[0];
    let contact = contact_between(&app, a, child).expect("the circles overlap");
    assert_same_points(
        &contact.points,
        &[Vec2::new(103.0, 54.0), Vec2::new(103.0, 46.0)],
    );
    assert_eq!(contact.containment, Containment::Neither);
}

#[test]
fn circle_under_non_uniform_scale_takes_the_larger_axis() {
    let mut app = app();
    let wide = app
        .world_mut()
        .spawn((
            CircleCollider::new(5.0),
            Transform::from_scale(Vec3::new(2.0, 1.0, 1.0)),
        ))
        .id();
    let dot = app
        .world_mut()
        .spawn((CircleCollider::new(0.0), Transform::from_xyz(0.0, 9.5, 0.0)))
        .id();
    app.update();
    let contact = contact_between(&app, wide, dot).expect("radius 10 reaches (0, 9.5)");
    assert!(contact.is_inside(dot));
}

#[test]
fn segment_circle_under_rotation() {
    let mut app = app();
    let circle = app
        .world_mut()
        .spawn((CircleCollider::new(5.0), Transform::default()))
        .id();
    // (-10, 0)–(10, 0) turned a quarter turn and moved to x = 3: (3, -10)–(3, 10).
    let laser = app
        .world_mut()
        .spawn((
            SegmentCollider::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0)),
            Transform::from_xyz(3.0, 0.0, 0.0).with_rotation(Quat::from_rotation_z(FRAC_PI_2)),
        ))
        .id();
    app.update();
    let contact = contact_between(&app, circle, laser).expect("the laser crosses the disc");
    // Ordered from the segment's start: entry, then exit.
    assert!(contact.points[0].distance(Vec2::new(3.0, -4.0)) < 1e-3);
    assert!(contact.points[1].distance(Vec2::new(3.0, 4.0)) < 1e-3);
    assert_eq!(
        contact.nearest_point(Vec2::new(3.0, 10.0)),
        Some(contact.points[1])
    );
}

#[test]
fn segment_segment_under_a_rotated_parent() {
    let mut app = app();
    let parent = app
        .world_mut()
        .spawn(
            Transform::from_xyz(50.0, 50.0, 0.0)
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)),
        )
        .with_child(SegmentCollider::new(
            Vec2::new(-10.0, 0.0),
            Vec2::new(10.0, 0.0),
        ))
        .id();
    let wall = app
        .world_mut()
        .spawn((
            SegmentCollider::new(Vec2::new(0.0, -10.0), Vec2::new(0.0, 10.0)),
            Transform::from_xyz(50.0, 52.0, 0.0),
        ))
        .id();
    app.update();
    let child = app.world().entity(parent).get::<Children>().unwrap()[0];
    let contact = contact_between(&app, child, wall).expect("the segments cross");
    assert_same_points(&contact.points, &[Vec2::new(50.0, 50.0)]);
}

#[test]
fn polygon_circle_under_rotation_and_scale() {
    let mut app = app();
    // 10 × 4 scaled by 2 (20 × 8), turned a quarter turn: 8 wide, 20 tall, around (200, 200).
    let bar = app
        .world_mut()
        .spawn((
            PolygonCollider::rectangle(10.0, 4.0),
            Transform::from_xyz(200.0, 200.0, 0.0)
                .with_rotation(Quat::from_rotation_z(FRAC_PI_2))
                .with_scale(Vec3::splat(2.0)),
        ))
        .id();
    let ball = app
        .world_mut()
        .spawn((
            CircleCollider::new(3.0),
            Transform::from_xyz(204.0, 200.0, 0.0),
        ))
        .id();
    app.update();
    let contact = contact_between(&app, bar, ball).expect("the ball sits on the bar's edge");
    assert_same_points(
        &contact.points,
        &[Vec2::new(204.0, 197.0), Vec2::new(204.0, 203.0)],
    );
}

#[test]
fn polygon_segment_under_a_parent_hierarchy() {
    let mut app = app();
    // Parent at (-100, 0) turned a quarter turn; child at local (10, 0): world (-100, 10).
    let parent = app
        .world_mut()
        .spawn(
            Transform::from_xyz(-100.0, 0.0, 0.0).with_rotation(Quat::from_rotation_z(FRAC_PI_2)),
        )
        .with_child((
            PolygonCollider::rectangle(4.0, 4.0),
            Transform::from_xyz(10.0, 0.0, 0.0),
        ))
        .id();
    let laser = app
        .world_mut()
        .spawn((
            SegmentCollider::new(Vec2::new(-110.0, 10.0), Vec2::new(-90.0, 10.0)),
            Transform::default(),
        ))
        .id();
    app.update();
    let child = app.world().entity(parent).get::<Children>().unwrap()[0];
    let contact = contact_between(&app, child, laser).expect("the laser crosses the box");
    assert_same_points(
        &contact.points,
        &[Vec2::new(-102.0, 10.0), Vec2::new(-98.0, 10.0)],
    );
    assert_eq!(
        contact.nearest_point(Vec2::new(-110.0, 10.0)),
        Some(Vec2::new(-102.0, 10.0))
    );
}

#[test]
fn polygon_polygon_concave_under_translation() {
    let mut app = app();
    let u_shape = PolygonCollider::new(vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(30.0, 0.0),
        Vec2::new(30.0, 30.0),
        Vec2::new(20.0, 30.0),
        Vec2::new(20.0, 10.0),
        Vec2::new(10.0, 10.0),
        Vec2::new(10.0, 30.0),
        Vec2::new(0.0, 30.0),
    ]);
    let u = app
        .world_mut()
        .spawn((u_shape, Transform::from_xyz(1000.0, 1000.0, 0.0)))
        .id();
    let bar = app
        .world_mut()
        .spawn((
            PolygonCollider::rectangle(40.0, 4.0),
            Transform::from_xyz(1015.0, 1020.0, 0.0),
        ))
        .id();
    // A block in the notch touches nothing.
    let in_notch = app
        .world_mut()
        .spawn((
            PolygonCollider::rectangle(5.0, 5.0),
            Transform::from_xyz(1015.0, 1015.0, 0.0),
        ))
        .id();
    app.update();
    let contact = contact_between(&app, u, bar).expect("the bar lies across both arms");
    let expected: Vec<Vec2> = [0.0, 10.0, 20.0, 30.0]
        .into_iter()
        .flat_map(|x| [Vec2::new(1000.0 + x, 1018.0), Vec2::new(1000.0 + x, 1022.0)])
        .collect();
    assert_same_points(&contact.points, &expected);
    assert_eq!(contact_between(&app, u, in_notch), None);
}

#[test]
fn contained_shapes_report_which_holds_which() {
    let mut app = app();
    let big = app
        .world_mut()
        .spawn((PolygonCollider::regular(50.0, 8), Transform::default()))
        .id();
    let small = app
        .world_mut()
        .spawn((
            CircleCollider::new(5.0),
            Transform::from_xyz(10.0, 0.0, 0.0),
        ))
        .id();
    app.update();
    let contact = contact_between(&app, big, small).expect("the disc is inside the octagon");
    assert!(contact.points.is_empty());
    assert!(contact.is_inside(small));
    assert!(!contact.is_inside(big));
}
