//! Layers: filtered pairs produce nothing; switched-off colliders end their contacts.

use crate::common::{app, contact_between, last_frame};
use bevy::prelude::*;
use bevy_collision_events::prelude::*;

const PLAYER_BULLET: LayerMask = LayerMask::layer(0);
const ENEMY: LayerMask = LayerMask::layer(1);
const WALL: LayerMask = LayerMask::layer(2);

fn bullet(x: f32) -> impl Bundle {
    (
        CircleCollider::new(4.0),
        CollisionLayers::new(PLAYER_BULLET, ENEMY | WALL),
        Transform::from_xyz(x, 0.0, 0.0),
    )
}

fn enemy(x: f32) -> impl Bundle {
    (
        CircleCollider::new(10.0),
        CollisionLayers::new(ENEMY, PLAYER_BULLET),
        Transform::from_xyz(x, 0.0, 0.0),
    )
}

#[test]
fn bullets_that_filter_each_other_out_never_touch() {
    let mut app = app();
    let first = app.world_mut().spawn(bullet(0.0)).id();
    let second = app.world_mut().spawn(bullet(1.0)).id();
    let enemy = app.world_mut().spawn(enemy(5.0)).id();
    app.update();
    assert_eq!(contact_between(&app, first, second), None);
    assert!(contact_between(&app, first, enemy).is_some());
    assert!(contact_between(&app, second, enemy).is_some());
    assert_eq!(last_frame::<Contact>(&app).len(), 2);
}

#[test]
fn both_sides_must_accept_each_other() {
    let mut app = app();
    // The wall accepts bullets, but this bullet does not accept walls.
    let picky = app
        .world_mut()
        .spawn((
            CircleCollider::new(4.0),
            CollisionLayers::new(PLAYER_BULLET, ENEMY),
            Transform::default(),
        ))
        .id();
    let wall = app
        .world_mut()
        .spawn((
            SegmentCollider::new(Vec2::new(0.0, -10.0), Vec2::new(0.0, 10.0)),
            CollisionLayers::new(WALL, LayerMask::ALL),
            Transform::default(),
        ))
        .id();
    app.update();
    assert_eq!(contact_between(&app, picky, wall), None);
    assert!(last_frame::<ContactStarted>(&app).is_empty());
}

#[test]
fn colliders_without_layers_touch_everything() {
    let mut app = app();
    let plain = app
        .world_mut()
        .spawn((CircleCollider::new(4.0), Transform::default()))
        .id();
    let layered = app.world_mut().spawn(bullet(2.0)).id();
    let nothing = app
        .world_mut()
        .spawn((
            CircleCollider::new(4.0),
            CollisionLayers::NONE,
            Transform::default(),
        ))
        .id();
    app.update();
    assert!(contact_between(&app, plain, layered).is_some());
    assert_eq!(contact_between(&app, plain, nothing), None);
    assert_eq!(contact_between(&app, layered, nothing), None);
}

#[test]
fn disabling_a_collider_ends_its_contacts_and_enabling_restarts_them() {
    let mut app = app();
    let a = app.world_mut().spawn(bullet(0.0)).id();
    let enemy = app.world_mut().spawn(enemy(0.0)).id();
    app.update();
    assert_eq!(last_frame::<ContactStarted>(&app).len(), 1);

    app.world_mut().entity_mut(enemy).insert(ColliderDisabled);
    app.update();
    assert_eq!(contact_between(&app, a, enemy), None);
    assert_eq!(
        last_frame::<ContactEnded>(&app),
        vec![ContactEnded {
            entity: a.min(enemy),
            other: a.max(enemy),
            body: a.min(enemy),
            other_body: a.max(enemy),
        }]
    );

    app.update();
    assert!(
        last_frame::<ContactEnded>(&app).is_empty(),
        "ended once only"
    );

    app.world_mut()
        .entity_mut(enemy)
        .remove::<ColliderDisabled>();
    app.update();
    assert_eq!(last_frame::<ContactStarted>(&app).len(), 1);
    assert!(contact_between(&app, a, enemy).is_some());
}

#[test]
fn changing_layers_so_they_no_longer_match_ends_the_contact() {
    let mut app = app();
    let a = app.world_mut().spawn(bullet(0.0)).id();
    let enemy = app.world_mut().spawn(enemy(0.0)).id();
    app.update();
    assert!(contact_between(&app, a, enemy).is_some());
    app.world_mut()
        .entity_mut(enemy)
        .insert(CollisionLayers::new(ENEMY, WALL));
    app.update();
    assert_eq!(contact_between(&app, a, enemy), None);
    assert_eq!(last_frame::<ContactEnded>(&app).len(), 1);
}
