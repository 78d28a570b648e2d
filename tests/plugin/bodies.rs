//! Multi-part bodies: colliders on the children of a [`CollisionBody`] are its parts. Their
//! contacts name the body, their entity events reach the body's observers, and two parts of one
//! body do not meet unless the body asks.

use crate::common::{app, bullet, contact_between, last_frame};
use bevy::ecs::entity_disabling::Disabled;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_collision_events::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::time::Duration;

/// What an observer saw: `(event target, original target, other, body, other body, started)`.
#[derive(Resource, Default)]
struct Seen(Vec<(Entity, Entity, Entity, Entity, Entity, bool)>);

fn seen(app: &App) -> Vec<(Entity, Entity, Entity, Entity, Entity, bool)> {
    app.world().resource::<Seen>().0.clone()
}

fn record_started(hit: On<ContactStarted>, mut seen: ResMut<Seen>) {
    let original = hit.original_event_target();
    seen.0.push((
        hit.entity,
        original,
        hit.other,
        hit.body,
        hit.other_body,
        true,
    ));
}

fn record_ended(end: On<ContactEnded>, mut seen: ResMut<Seen>) {
    let original = end.original_event_target();
    seen.0.push((
        end.entity,
        original,
        end.other,
        end.body,
        end.other_body,
        false,
    ));
}

/// A boss at the origin: a core circle of radius 10 and, overlapping it, a plate below; the
/// boss's observer records what it sees.
struct Boss {
    body: Entity,
    core: Entity,
    plate: Entity,
}

fn spawn_boss(app: &mut App, settings: CollisionBody) -> Boss {
    app.init_resource::<Seen>();
    let world = app.world_mut();
    let body = world.spawn((settings, Transform::default())).id();
    let core = world
        .spawn((
            CircleCollider::new(10.0),
            Transform::default(),
            ChildOf(body),
        ))
        .id();
    let plate = world
        .spawn((
            PolygonCollider::rectangle(40.0, 8.0),
            Transform::from_xyz(0.0, -12.0, 0.0),
            ChildOf(body),
        ))
        .id();
    world
        .entity_mut(body)
        .observe(record_started)
        .observe(record_ended);
    Boss { body, core, plate }
}

#[test]
fn the_body_sees_its_parts_hits_and_contacts_name_the_body() {
    let mut app = app();
    let boss = spawn_boss(&mut app, CollisionBody::default());
    // On the plate's far end, clear of the core.
    let shot = bullet(&mut app, Vec2::new(18.0, -12.0));
    app.update();
    assert_eq!(
        seen(&app),
        [(boss.body, boss.plate, shot, boss.body, shot, true)]
    );
    let contact = contact_between(&app, boss.plate, shot).expect("the bullet hits the plate");
    assert_eq!(contact.body_of(boss.plate), Some(boss.body));
    assert_eq!(contact.body_of(shot), Some(shot));
    let started = last_frame::<ContactStarted>(&app);
    assert_eq!(started.len(), 1, "the core and the plate do not meet");
    let (plate_first, _) = (started[0].entity == boss.plate, ());
    let (body, other_body) = if plate_first {
        (boss.body, shot)
    } else {
        (shot, boss.body)
    };
    assert_eq!((started[0].body, started[0].other_body), (body, other_body));
    assert!(contact_between(&app, boss.core, boss.plate).is_none());
    // The bullet moves off: the body sees the end.
    app.world_mut()
        .entity_mut(shot)
        .insert(Transform::from_xyz(100.0, 0.0, 0.0));
    app.world_mut().resource_mut::<Seen>().0.clear();
    app.update();
    assert_eq!(
        seen(&app),
        [(boss.body, boss.plate, shot, boss.body, shot, false)]
    );
}

#[test]
fn the_parts_meet_when_the_body_asks() {
    let mut app = app();
    let boss = spawn_boss(
        &mut app,
        CollisionBody {
            contacts_between_parts: true,
        },
    );
    app.update();
    let contact = contact_between(&app, boss.core, boss.plate).expect("core and plate overlap");
    assert_eq!(contact.bodies, [boss.body, boss.body]);
}

#[test]
fn a_despawned_part_s_end_reaches_its_body_and_a_despawned_body_ends_its_contacts() {
    let mut app = app();
    let boss = spawn_boss(&mut app, CollisionBody::default());
    let shot = bullet(&mut app, Vec2::new(18.0, -12.0));
    app.update();
    app.world_mut().resource_mut::<Seen>().0.clear();
    app.world_mut().despawn(boss.plate);
    app.update();
    // Triggered on the body itself: the plate is gone.
    assert_eq!(
        seen(&app),
        [(boss.body, boss.body, shot, boss.body, shot, false)]
    );

    let mut app = crate::common::app();
    let boss = spawn_boss(&mut app, CollisionBody::default());
    // Over the core and the plate's top edge.
    let shot = bullet(&mut app, Vec2::new(0.0, -8.0));
    app.world_mut()
        .entity_mut(shot)
        .observe(record_started)
        .observe(record_ended);
    app.update();
    assert_eq!(
        last_frame::<ContactStarted>(&app).len(),
        2,
        "core and plate"
    );
    app.world_mut().resource_mut::<Seen>().0.clear();
    app.world_mut().despawn(boss.body);
    app.update();
    let ended = last_frame::<ContactEnded>(&app);
    assert_eq!(ended.len(), 2);
    let mut seen = seen(&app);
    seen.sort();
    let mut expected = vec![
        (shot, shot, boss.core, shot, boss.body, false),
        (shot, shot, boss.plate, shot, boss.body, false),
    ];
    expected.sort();
    assert_eq!(
        seen, expected,
        "the bullet hears both ends, naming the body"
    );
}

/// A mine that despawns what touches it, met by a boss's plate: the mine's start comes first
/// (the lower entity) and its observer despawns the plate. The body still hears the plate's
/// start, triggered on itself, and the end at the next run: both or neither, never an end
/// alone.
#[test]
fn a_part_despawned_by_an_earlier_observer_still_starts_on_its_body() {
    let mut app = app();
    let boss = spawn_boss(&mut app, CollisionBody::default());
    let mine = app
        .world_mut()
        .spawn((
            CircleCollider::new(2.0),
            Transform::from_xyz(18.0, -12.0, 0.0),
        ))
        .observe(|hit: On<ContactStarted>, mut commands: Commands| {
            commands.entity(hit.other).despawn();
        })
        .id();
    assert!(mine < boss.plate, "the mine's start comes first");
    app.update();
    assert!(
        app.world().get_entity(boss.plate).is_err(),
        "the mine took the plate"
    );
    app.update();
    assert_eq!(
        seen(&app),
        [
            (boss.body, boss.body, mine, boss.body, mine, true),
            (boss.body, boss.body, mine, boss.body, mine, false),
        ]
    );
}

/// How a part leaves its body while a bullet touches it.
#[derive(Clone, Copy, Debug)]
enum Leaving {
    /// It breaks off (no parent).
    BrokenOff,
    /// Another boss takes it.
    TakenByAnother,
    /// Its body stops being one (the boss's last `CollisionBody` goes).
    BodyUnmade,
    /// Its body is disabled with Bevy's `Disabled` (the part itself is not).
    BodyDisabled,
}

/// A part that leaves its body while a bullet touches it: the contact keeps the body it
/// started with, in its messages and its end, for as many frames as it lasts, and the end
/// reaches that body (which heard the start) and the part itself, not the body the part is
/// under now. A global observer that keeps the events at a body (`entity == body`) sees it
/// once.
#[test]
fn a_part_that_leaves_its_body_mid_contact_ends_on_the_body_that_heard_it_start() {
    /// What a global observer kept: the events at a body, `(entity, other, started)`.
    #[derive(Resource, Default)]
    struct AtBodies(Vec<(Entity, Entity, bool)>);
    for leaving in [
        Leaving::BrokenOff,
        Leaving::TakenByAnother,
        Leaving::BodyUnmade,
        Leaving::BodyDisabled,
    ] {
        let mut app = app();
        app.init_resource::<AtBodies>()
            .add_observer(|hit: On<ContactStarted>, mut kept: ResMut<AtBodies>| {
                if hit.entity == hit.body {
                    kept.0.push((hit.entity, hit.other, true));
                }
            })
            .add_observer(|end: On<ContactEnded>, mut kept: ResMut<AtBodies>| {
                if end.entity == end.body {
                    kept.0.push((end.entity, end.other, false));
                }
            });
        let boss = spawn_boss(&mut app, CollisionBody::default());
        let other_boss = app
            .world_mut()
            .spawn((CollisionBody::default(), Transform::default()))
            .observe(record_started)
            .observe(record_ended)
            .id();
        app.world_mut()
            .entity_mut(boss.plate)
            .observe(record_started)
            .observe(record_ended);
        // Below the plate's bottom edge, clear of the core.
        let shot = bullet(&mut app, Vec2::new(18.0, -17.0));
        app.update();
        let started = last_frame::<ContactStarted>(&app);
        assert_eq!(started.len(), 1);
        app.world_mut().resource_mut::<Seen>().0.clear();
        let mut plate = app.world_mut().entity_mut(boss.plate);
        match leaving {
            Leaving::BrokenOff => drop(plate.remove::<ChildOf>()),
            Leaving::TakenByAnother => drop(plate.insert(ChildOf(other_boss))),
            Leaving::BodyUnmade => {
                app.world_mut().despawn(other_boss);
                app.world_mut()
                    .entity_mut(boss.body)
                    .remove::<CollisionBody>();
            }
            Leaving::BodyDisabled => drop(app.world_mut().entity_mut(boss.body).insert(Disabled)),
        }
        for _ in 0..3 {
            app.update();
            let contact = contact_between(&app, boss.plate, shot).expect("still touching");
            assert_eq!(contact.body_of(boss.plate), Some(boss.body), "{leaving:?}");
        }
        // The bullet leaves.
        app.world_mut()
            .entity_mut(shot)
            .insert(Transform::from_xyz(100.0, 0.0, 0.0));
        app.update();
        let ended: Vec<_> = last_frame::<ContactEnded>(&app)
            .into_iter()
            .filter(|end| end.entity == shot || end.other == shot)
            .collect();
        assert_eq!(ended.len(), 1);
        let end = ended[0];
        let plate_body = if end.entity == boss.plate {
            end.body
        } else {
            end.other_body
        };
        assert_eq!(plate_body, boss.body, "{leaving:?}: the end names the body");
        // (Off its body, the plate may start touching the core, as parts of two bodies.)
        let mut seen: Vec<_> = seen(&app)
            .into_iter()
            .filter(|seen| seen.2 == shot)
            .collect();
        seen.sort();
        // The plate's own observer once; the boss's once, gone on to it from the plate
        // wherever the plate is now.
        let mut expected = vec![
            (boss.plate, boss.plate, shot, boss.body, shot, false),
            (boss.body, boss.plate, shot, boss.body, shot, false),
        ];
        expected.sort();
        assert_eq!(seen, expected, "{leaving:?}");
        let kept = &app.world().resource::<AtBodies>().0;
        let about_the_plate = kept
            .iter()
            .filter(|&&(entity, other, _)| entity == boss.body && other == shot)
            .map(|&(_, _, started)| started)
            .collect::<Vec<_>>();
        assert_eq!(about_the_plate, [true, false], "{leaving:?}: once each");
    }
}

/// With the pipeline at a fixed step, run once every four frames here, a part broken off its
/// body mid-contact keeps that body in the contact, whichever frame between two steps it
/// breaks off in (Bevy keeps a removal for two frames, which a step may not come within).
#[test]
fn at_a_fixed_step_a_part_broken_off_mid_contact_keeps_its_body() {
    const FRAMES_PER_STEP: u32 = 4;
    for offset in 0..FRAMES_PER_STEP {
        let mut app = App::new();
        app.add_plugins((
            MinimalPlugins,
            TransformPlugin,
            CollisionPlugin::new(FixedPostUpdate),
        ))
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / (60.0 * f64::from(FRAMES_PER_STEP)),
        )));
        let boss = spawn_boss(&mut app, CollisionBody::default());
        // Below the plate's bottom edge, clear of the core.
        let shot = bullet(&mut app, Vec2::new(18.0, -17.0));
        let body_of_plate = |app: &App| {
            let contact = app.world().resource::<Contacts>().get(boss.plate, shot);
            contact.and_then(|contact| contact.body_of(boss.plate))
        };
        for _ in 0..2 * FRAMES_PER_STEP + offset {
            app.update();
        }
        assert_eq!(body_of_plate(&app), Some(boss.body));
        app.world_mut().entity_mut(boss.plate).remove::<ChildOf>();
        for frame in 0..3 * FRAMES_PER_STEP {
            app.update();
            assert_eq!(
                body_of_plate(&app),
                Some(boss.body),
                "broken off {offset} frames after a step, {frame} frames on"
            );
        }
    }
}

#[test]
fn a_body_under_a_body_keeps_its_parts_and_a_plain_parent_hears_nothing() {
    let mut app = app();
    let boss = spawn_boss(&mut app, CollisionBody::default());
    let world = app.world_mut();
    // A turret of its own on the boss, far from the core and the plate.
    let turret = world
        .spawn((
            CollisionBody::default(),
            Transform::from_xyz(100.0, 0.0, 0.0),
            ChildOf(boss.body),
        ))
        .id();
    let barrel = world
        .spawn((
            CircleCollider::new(5.0),
            Transform::default(),
            ChildOf(turret),
        ))
        .id();
    // A bullet under a plain parent, with an observer, over the barrel.
    let folder = world
        .spawn(Transform::default())
        .observe(record_started)
        .id();
    let shot = world
        .spawn((
            CircleCollider::new(2.0),
            Transform::from_xyz(102.0, 0.0, 0.0),
            ChildOf(folder),
        ))
        .id();
    app.update();
    let contact = contact_between(&app, barrel, shot).expect("the bullet hits the barrel");
    assert_eq!(contact.body_of(barrel), Some(turret));
    assert_eq!(contact.body_of(shot), Some(shot));
    assert!(
        seen(&app).is_empty(),
        "neither the boss nor the folder sees it"
    );
}

/// A global observer sees a part's start on the part and again on its body, and keeps one by
/// its original target; a collider on the body entity itself is a part of it like the others.
#[test]
fn a_global_observer_sees_each_step_and_a_body_may_be_a_collider() {
    let mut app = app();
    app.init_resource::<Seen>().add_observer(record_started);
    let world = app.world_mut();
    let body = world
        .spawn((
            CollisionBody::default(),
            CircleCollider::new(5.0),
            Transform::default(),
        ))
        .id();
    let part = world
        .spawn((
            CircleCollider::new(3.0),
            Transform::from_xyz(20.0, 0.0, 0.0),
            ChildOf(body),
        ))
        .id();
    let shot = bullet(&mut app, Vec2::new(24.0, 0.0));
    app.update();
    assert!(
        contact_between(&app, body, part).is_none(),
        "two parts of one body"
    );
    let mut seen = seen(&app);
    seen.sort();
    let mut expected = vec![
        (part, part, shot, body, shot, true),
        (body, part, shot, body, shot, true),
        (shot, shot, part, shot, body, true),
    ];
    expected.sort();
    assert_eq!(seen, expected);
    let first_steps = seen
        .iter()
        .filter(|(target, original, ..)| target == original)
        .count();
    assert_eq!(first_steps, 2, "one for each collider of the pair");
    // The body's own collider hit: the event starts on the body, and goes no further.
    app.world_mut().resource_mut::<Seen>().0.clear();
    app.world_mut()
        .entity_mut(shot)
        .insert(Transform::from_xyz(6.0, 0.0, 0.0));
    app.update();
    let seen_now = crate::bodies::seen(&app);
    assert!(
        seen_now.contains(&(body, body, shot, body, shot, true)),
        "{seen_now:?}"
    );
}

/// Twenty bodies of three overlapping parts each and 800 bullets flying through them, the work
/// split finely: no contact joins two parts of one body, and the bodies' observers hear their
/// parts' contacts. (The same on one thread and two: see the determinism tests.)
#[test]
fn bodies_of_overlapping_parts_hear_their_parts_contacts_and_make_none_between_them() {
    let mut app = app();
    app.insert_resource(CollisionSettings {
        parallel_threshold: 8,
        ..default()
    })
    .init_resource::<Seen>();
    let mut rng = StdRng::seed_from_u64(9);
    for index in 0..20 {
        let at = Vec3::new(index as f32 * 50.0 - 500.0, 0.0, 0.0);
        let body = app
            .world_mut()
            .spawn((CollisionBody::default(), Transform::from_translation(at)))
            .observe(record_started)
            .observe(record_ended)
            .id();
        for part in 0..3 {
            let offset = Vec3::new(0.0, part as f32 * 12.0 - 12.0, 0.0);
            app.world_mut().spawn((
                CircleCollider::new(10.0),
                Transform::from_translation(offset),
                ChildOf(body),
            ));
        }
    }
    for _ in 0..800 {
        let at = Vec3::new(rng.random_range(-520.0..500.0), -100.0, 0.0);
        let speed = Vec3::new(0.0, rng.random_range(1.0..6.0), 0.0);
        let shot = (
            CircleCollider::new(2.0),
            Transform::from_translation(at),
            Speed(speed),
        );
        app.world_mut().spawn(shot);
    }
    app.add_systems(Update, fly);
    let mut seen_by_bodies = 0;
    for _ in 0..40 {
        app.world_mut().resource_mut::<Seen>().0.clear();
        app.update();
        for contact in last_frame::<Contact>(&app) {
            assert_ne!(
                contact.bodies[0], contact.bodies[1],
                "two parts of one body"
            );
        }
        seen_by_bodies += seen(&app).len();
    }
    assert!(
        seen_by_bodies > 500,
        "{seen_by_bodies} events seen by bodies"
    );
}

#[derive(Component)]
struct Speed(Vec3);

fn fly(mut bullets: Query<(&mut Transform, &Speed)>) {
    for (mut transform, speed) in &mut bullets {
        transform.translation += speed.0;
    }
}

/// `ColliderDisabled` on a body with a collider of its own switches off that collider only:
/// its parts still meet what touches them, and the contacts still name the body.
#[test]
fn switching_a_body_s_own_collider_off_leaves_its_parts_on() {
    let mut app = app();
    let body = app
        .world_mut()
        .spawn((
            CollisionBody::default(),
            CircleCollider::new(5.0),
            ColliderDisabled,
            Transform::default(),
        ))
        .id();
    let part = app
        .world_mut()
        .spawn((
            CircleCollider::new(5.0),
            Transform::from_xyz(100.0, 0.0, 0.0),
            ChildOf(body),
        ))
        .id();
    let at_the_body = bullet(&mut app, Vec2::new(6.0, 0.0));
    let at_the_part = bullet(&mut app, Vec2::new(106.0, 0.0));
    app.update();
    assert!(
        contact_between(&app, body, at_the_body).is_none(),
        "switched off"
    );
    let contact = contact_between(&app, part, at_the_part).expect("the part is on");
    assert_eq!(contact.body_of(part), Some(body));
}

/// `Contacts::of_body` gives every contact whose bodies name the body, in order, each once
/// (the one between its two parts too), against a scan of every contact; for a collider under
/// no body, its own contacts; for a part, none.
#[test]
fn a_body_s_contacts_are_its_parts_contacts_each_once() {
    let mut app = app();
    let boss = spawn_boss(
        &mut app,
        CollisionBody {
            contacts_between_parts: true,
        },
    );
    // On the plate's far end; on the core's top; over both; and one away from everything.
    let shots = [(18.0, -12.0), (0.0, 11.0), (0.0, -8.0), (300.0, 0.0)]
        .map(|(x, y)| bullet(&mut app, Vec2::new(x, y)));
    app.update();
    let contacts = app.world().resource::<Contacts>();
    let pairs = |contacts: Vec<&Contact>| -> Vec<(Entity, Entity)> {
        contacts
            .iter()
            .map(|contact| (contact.a, contact.b))
            .collect()
    };
    let scanned = pairs(
        contacts
            .iter()
            .filter(|contact| contact.bodies.contains(&boss.body))
            .collect(),
    );
    assert_eq!(pairs(contacts.of_body(boss.body).collect()), scanned);
    // The core and the plate, and the four bullet contacts of the first three shots.
    assert_eq!(scanned.len(), 5, "{scanned:?}");
    for shot in shots {
        assert_eq!(
            pairs(contacts.of_body(shot).collect()),
            pairs(contacts.of(shot).collect())
        );
    }
    assert_eq!(contacts.of_body(boss.plate).count(), 0);
}
