//! Bodies whose hierarchy changes while their parts touch something: whatever moves or is
//! disabled, an entity that heard a contact start hears it end.

use crate::common::{app, bullet, contact_between};
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

/// A body at the origin whose observers note what it hears ([`heard`]).
fn listening_body(world: &mut World) -> EntityWorldMut<'_> {
    let mut body = world.spawn((
        CollisionBody::default(),
        Transform::default(),
        Heard::default(),
    ));
    body.observe(hear_start).observe(hear_end);
    body
}

/// A ship whose shield breaks off at the first hit (its observer takes the shield off the
/// ship), hit by two bullets in one run: the ship hears both starts (the second goes on to it
/// from the shield, no longer its part) and both ends.
#[test]
fn a_part_broken_off_by_the_first_of_two_starts_still_starts_the_second_on_its_body() {
    let mut app = app();
    let world = app.world_mut();
    let ship = listening_body(world)
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

/// What happens to a hand on an arm on a body while a bullet touches the hand.
#[derive(Clone, Copy, Debug)]
enum HandChange {
    Disabled,
    Despawned,
    ArmBrokenOff,
    ArmTakenByAnotherBody,
    ArmPutBetweenBodyAndHand,
}

/// A hand (a part) on an arm (a plain entity, observed) on a body, touched by a bullet, then
/// changed while it touches: disabled, despawned, its arm broken off or taken by another body,
/// or (the hand starting on the body itself) an arm put between them. The events go from the
/// hand straight to the body: the body hears the start and the end, the arm neither.
#[test]
fn a_part_s_events_skip_the_entities_between_it_and_its_body() {
    for change in [
        HandChange::Disabled,
        HandChange::Despawned,
        HandChange::ArmBrokenOff,
        HandChange::ArmTakenByAnotherBody,
        HandChange::ArmPutBetweenBodyAndHand,
    ] {
        let mut app = app();
        let world = app.world_mut();
        let body = listening_body(world).id();
        let other_body = world
            .spawn((
                CollisionBody::default(),
                Transform::from_xyz(500.0, 0.0, 0.0),
            ))
            .id();
        let arm = world
            .spawn((Transform::default(), ChildOf(body), Heard::default()))
            .observe(hear_start)
            .observe(hear_end)
            .id();
        let first_parent = match change {
            HandChange::ArmPutBetweenBodyAndHand => body,
            _ => arm,
        };
        let hand = world
            .spawn((
                CircleCollider::new(10.0),
                Transform::default(),
                ChildOf(first_parent),
            ))
            .id();
        let bullet = bullet(&mut app, Vec2::new(11.0, 0.0));
        app.update();
        let mut world = app.world_mut();
        match change {
            HandChange::Disabled => {
                world.entity_mut(hand).insert(Disabled);
            }
            HandChange::Despawned => {
                world.despawn(hand);
            }
            HandChange::ArmBrokenOff => {
                world.entity_mut(arm).remove::<ChildOf>();
            }
            HandChange::ArmTakenByAnotherBody => {
                world.entity_mut(arm).insert(ChildOf(other_body));
            }
            HandChange::ArmPutBetweenBodyAndHand => {
                world.entity_mut(hand).insert(ChildOf(arm));
            }
        }
        app.update();
        world = app.world_mut();
        world
            .entity_mut(bullet)
            .insert(Transform::from_xyz(-100.0, 0.0, 0.0));
        app.update();
        assert_eq!(
            heard(&app, body),
            (vec![bullet], vec![bullet]),
            "{change:?}"
        );
        assert_eq!(heard(&app, arm), (vec![], vec![]), "{change:?}");
    }
}

/// The colliders of the two tests below, in one frame of `app`.
struct CoreAndHand {
    body: Entity,
    core: Entity,
    middle: Entity,
    hand: Entity,
}

/// A body with a core (a disc of radius 10 at its centre), and below it `middle` holding a
/// hand (a disc of radius 10 a little to the right, overlapping the core).
fn core_and_hand(app: &mut App, middle: impl Bundle) -> CoreAndHand {
    let world = app.world_mut();
    let body = world
        .spawn((CollisionBody::default(), Transform::default()))
        .id();
    let core = (
        CircleCollider::new(10.0),
        Transform::default(),
        ChildOf(body),
    );
    let core = world.spawn(core).id();
    let middle = world
        .spawn((middle, Transform::default(), ChildOf(body)))
        .id();
    let hand = (
        CircleCollider::new(10.0),
        Transform::from_xyz(5.0, 0.0, 0.0),
        ChildOf(middle),
    );
    let hand = world.spawn(hand).id();
    CoreAndHand {
        body,
        core,
        middle,
        hand,
    }
}

/// An entity between a body and its parts disabled with Bevy's `Disabled` (which leaves its
/// children enabled): the part below it is still the body's, so it makes no contact with the
/// body's other parts, and its contacts name the body.
#[test]
fn a_disabled_entity_between_a_body_and_a_part_leaves_the_part_the_body_s() {
    let mut app = app();
    let CoreAndHand {
        body,
        core,
        middle: arm,
        hand,
    } = core_and_hand(&mut app, ());
    app.update();
    app.world_mut().entity_mut(arm).insert(Disabled);
    // Beyond the core's reach (10 + 2), within the hand's (5 + 10 + 2).
    let bullet = bullet(&mut app, Vec2::new(16.0, 0.0));
    app.update();
    assert!(
        contact_between(&app, hand, core).is_none(),
        "two parts of one body"
    );
    let contact = contact_between(&app, hand, bullet).expect("the bullet touches the hand");
    assert_eq!(contact.body_of(hand), Some(body));
}

/// A disabling component of the game's own (registered before the app runs, as Bevy asks).
#[derive(Component)]
struct Stowed;

/// An entity between a body and its parts disabled with a disabling component of the game's
/// own, which hides it from the walk down the hierarchy (as from Bevy's transform
/// propagation): the part below it is a body of its own, and meets the body's other parts.
#[test]
fn a_game_disabled_entity_between_a_body_and_a_part_cuts_the_part_off() {
    let mut app = app();
    app.world_mut().register_disabling_component::<Stowed>();
    let CoreAndHand {
        body,
        core,
        middle: arm,
        hand,
    } = core_and_hand(&mut app, ());
    app.update();
    assert!(contact_between(&app, hand, core).is_none(), "one body");
    app.world_mut().entity_mut(arm).insert(Stowed);
    app.update();
    let contact = contact_between(&app, hand, core).expect("the hand is a body of its own");
    assert_eq!(contact.body_of(hand), Some(hand));
    assert_eq!(contact.body_of(core), Some(body));
}

/// A body under another body, disabled with Bevy's `Disabled` (its part left enabled): no body
/// while disabled, and not the outer body's either, so its part is a body of its own, and meets
/// the outer body's parts.
#[test]
fn a_disabled_body_inside_another_leaves_its_parts_bodies_of_their_own() {
    let mut app = app();
    let CoreAndHand {
        body: outer,
        core,
        hand: part,
        ..
    } = core_and_hand(&mut app, (CollisionBody::default(), Disabled));
    app.update();
    let contact = contact_between(&app, part, core).expect("parts of two bodies");
    assert_eq!(contact.body_of(part), Some(part));
    assert_eq!(contact.body_of(core), Some(outer));
}

/// A part moved to another body while touching a bullet, in a run whose events stage is
/// skipped (a run condition on `WriteEvents`): the contact keeps the body it started with, so
/// the old body hears its end, and the new one hears nothing of it.
#[test]
fn a_part_moved_in_a_run_without_events_keeps_its_old_body_in_the_contact() {
    #[derive(Resource)]
    struct Writing(bool);
    let mut app = app();
    app.insert_resource(Writing(true)).configure_sets(
        PostUpdate,
        CollisionSystems::WriteEvents.run_if(|writing: Res<Writing>| writing.0),
    );
    let world = app.world_mut();
    let old_body = listening_body(world).id();
    let new_body = listening_body(world).id();
    let part = world
        .spawn((
            CircleCollider::new(5.0),
            Transform::default(),
            ChildOf(old_body),
        ))
        .id();
    let shot = world
        .spawn((CircleCollider::new(2.0), Transform::from_xyz(4.0, 0.0, 0.0)))
        .id();
    app.update();
    assert_eq!(heard(&app, old_body), (vec![shot], vec![]));
    // Moved to the other body in a run whose events are skipped.
    app.world_mut().entity_mut(part).insert(ChildOf(new_body));
    app.world_mut().resource_mut::<Writing>().0 = false;
    app.update();
    app.world_mut().resource_mut::<Writing>().0 = true;
    app.update();
    let contact = contact_between(&app, part, shot).expect("still touching");
    assert_eq!(contact.body_of(part), Some(old_body));
    // The shot moves off: the old body hears the end.
    app.world_mut()
        .entity_mut(shot)
        .insert(Transform::from_xyz(50.0, 0.0, 0.0));
    app.update();
    assert_eq!(heard(&app, old_body), (vec![shot], vec![shot]));
    assert_eq!(heard(&app, new_body), (vec![], vec![]));
}

/// A body with a collider of its own whose parts meet each other, a part touching the body's
/// collider: the body hears the contact once, on its own side (the part's side is not sent up
/// to it: it would name the body as the other collider), and, the part despawned mid-contact,
/// its end.
#[test]
fn a_part_touching_its_body_s_own_collider_and_despawned_ends_on_the_body_as_it_started() {
    let mut app = app();
    let world = app.world_mut();
    let body = listening_body(world)
        .insert((
            CollisionBody {
                contacts_between_parts: true,
            },
            CircleCollider::new(10.0),
        ))
        .id();
    let part = world
        .spawn((
            CircleCollider::new(5.0),
            Transform::from_xyz(12.0, 0.0, 0.0),
            ChildOf(body),
            Heard::default(),
        ))
        .observe(hear_start)
        .observe(hear_end)
        .id();
    app.update();
    assert!(contact_between(&app, body, part).is_some());
    assert_eq!(heard(&app, body), (vec![part], vec![]), "its own side only");
    assert_eq!(heard(&app, part), (vec![body], vec![]));
    app.world_mut().despawn(part);
    app.update();
    assert_eq!(heard(&app, body), (vec![part], vec![part]));
}

/// A contact found by a search whose run skipped the events stage, whose pair then became two
/// parts of one body before the events stage ran (the search paused meanwhile): it is no
/// contact, and ends on the body that heard it start.
#[test]
fn a_pair_made_one_body_before_its_events_are_written_ends() {
    #[derive(Resource)]
    struct Running {
        search: bool,
        events: bool,
    }
    let mut app = app();
    app.insert_resource(Running {
        search: true,
        events: true,
    })
    .configure_sets(
        PostUpdate,
        (
            CollisionSystems::FindContacts.run_if(|running: Res<Running>| running.search),
            CollisionSystems::WriteEvents.run_if(|running: Res<Running>| running.events),
        ),
    );
    let world = app.world_mut();
    let body = listening_body(world).id();
    let part = world
        .spawn((
            CircleCollider::new(5.0),
            Transform::default(),
            ChildOf(body),
        ))
        .id();
    let other = world
        .spawn((CircleCollider::new(5.0), Transform::from_xyz(6.0, 0.0, 0.0)))
        .id();
    app.update();
    assert_eq!(heard(&app, body), (vec![other], vec![]));
    // A search whose events are not written, then the other collider joins the body, and the
    // events are written with the search paused.
    app.world_mut().resource_mut::<Running>().events = false;
    app.update();
    app.world_mut().entity_mut(other).insert(ChildOf(body));
    *app.world_mut().resource_mut::<Running>() = Running {
        search: false,
        events: true,
    };
    app.update();
    assert!(contact_between(&app, part, other).is_none());
    assert!(!app.world().resource::<Contacts>().contains(part, other));
    assert_eq!(heard(&app, body), (vec![other], vec![other]));
}
