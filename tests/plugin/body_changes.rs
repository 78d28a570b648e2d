//! Bodies whose hierarchy changes while their parts touch something: whatever moves or hides,
//! an entity that heard a contact start hears it end.

use crate::common::{app, bullet};
use bevy::ecs::entity_disabling::Disabled;
use bevy::prelude::*;
use bevy_collision_events::prelude::*;

/// The starts and ends an entity's observer heard at it (`hit.entity` the entity itself).
#[derive(Component, Default)]
struct Heard {
    started: Vec<Entity>,
    ended: Vec<Entity>,
}

fn hear_start(hit: On<ContactStarted>, mut heard: Query<&mut Heard>) {
    if let Ok(mut heard) = heard.get_mut(hit.entity) {
        heard.started.push(hit.other);
    }
}

fn hear_end(end: On<ContactEnded>, mut heard: Query<&mut Heard>) {
    if let Ok(mut heard) = heard.get_mut(end.entity) {
        heard.ended.push(end.other);
    }
}

fn heard(app: &App, entity: Entity) -> (Vec<Entity>, Vec<Entity>) {
    let heard = app.world().get::<Heard>(entity).expect("a listener");
    let sorted = |list: &[Entity]| {
        let mut list = list.to_vec();
        list.sort_unstable();
        list
    };
    (sorted(&heard.started), sorted(&heard.ended))
}

/// A ship whose shield breaks off at the first hit (its observer takes the shield off the
/// ship), hit by two bullets in one run: the ship hears both starts, the second triggered on
/// it directly since the shield no longer leads up to it, and both ends.
#[test]
fn a_part_broken_off_by_the_first_of_two_starts_still_starts_the_second_on_its_body() {
    let mut app = app();
    let world = app.world_mut();
    let ship = world
        .spawn((
            CollisionBody::default(),
            Transform::default(),
            Heard::default(),
        ))
        .observe(hear_start)
        .observe(hear_end)
        .observe(|hit: On<ContactStarted>, mut commands: Commands| {
            commands
                .entity(hit.original_event_target())
                .remove::<ChildOf>();
        })
        .id();
    let shield = world
        .spawn((
            CircleCollider::new(10.0),
            Transform::default(),
            ChildOf(ship),
        ))
        .id();
    let bullets = [
        bullet(&mut app, Vec2::new(11.0, 0.0)),
        bullet(&mut app, Vec2::new(-11.0, 0.0)),
    ];
    app.update();
    assert!(
        app.world().get::<ChildOf>(shield).is_none(),
        "the first hit broke the shield off"
    );
    for bullet in bullets {
        app.world_mut().entity_mut(bullet).despawn();
    }
    app.update();
    let mut both = bullets.to_vec();
    both.sort_unstable();
    assert_eq!(heard(&app, ship), (both.clone(), both));
}

/// A part two levels down (a hand on an arm on a body) hidden with Bevy's `Disabled` while a
/// bullet touches it: the arm, whose observer heard the start on its way up, hears the end.
#[test]
fn a_hidden_part_s_end_travels_up_to_who_heard_its_start() {
    let mut app = app();
    let world = app.world_mut();
    let body = world
        .spawn((CollisionBody::default(), Transform::default()))
        .id();
    let arm = world
        .spawn((Transform::default(), ChildOf(body), Heard::default()))
        .observe(hear_start)
        .observe(hear_end)
        .id();
    let hand = world
        .spawn((
            CircleCollider::new(10.0),
            Transform::default(),
            ChildOf(arm),
        ))
        .id();
    let bullet = bullet(&mut app, Vec2::new(11.0, 0.0));
    app.update();
    assert_eq!(heard(&app, arm), (vec![bullet], vec![]));
    app.world_mut().entity_mut(hand).insert(Disabled);
    app.update();
    assert_eq!(heard(&app, arm), (vec![bullet], vec![bullet]));
}
