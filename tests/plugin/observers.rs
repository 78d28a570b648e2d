//! Observers of `ContactStarted` and `ContactEnded`: on both entities, global or of an
//! entity of their own, disabled, added or despawning mid-run.

use crate::common::{app, overlapping_pair};
use bevy::prelude::*;
use bevy_collision_events::prelude::*;

#[derive(Resource, Default)]
struct Seen {
    started: Vec<(Entity, Entity, Entity)>,
    ended: Vec<(Entity, Entity, Entity)>,
}

#[test]
fn observers_fire_on_both_entities() {
    let mut app = app();
    app.init_resource::<Seen>();
    let (a, b) = overlapping_pair(&mut app);
    for entity in [a, b] {
        app.world_mut().entity_mut(entity).observe(
            move |hit: On<ContactStarted>, mut seen: ResMut<Seen>| {
                seen.started.push((entity, hit.entity, hit.other));
            },
        );
        app.world_mut().entity_mut(entity).observe(
            move |end: On<ContactEnded>, mut seen: ResMut<Seen>| {
                seen.ended.push((entity, end.entity, end.other));
            },
        );
    }
    app.update();
    let seen = app.world().resource::<Seen>();
    assert_eq!(seen.started.len(), 2);
    assert!(seen.started.contains(&(a, a, b)));
    assert!(seen.started.contains(&(b, b, a)));
    assert!(seen.ended.is_empty());

    app.world_mut()
        .entity_mut(b)
        .insert(Transform::from_xyz(50.0, 0.0, 0.0));
    app.update();
    let seen = app.world().resource::<Seen>();
    assert_eq!(seen.started.len(), 2, "no new start");
    assert_eq!(seen.ended.len(), 2);
    assert!(seen.ended.contains(&(a, a, b)));
    assert!(seen.ended.contains(&(b, b, a)));
}

#[test]
fn observer_on_the_survivor_fires_when_the_other_is_despawned() {
    let mut app = app();
    app.init_resource::<Seen>();
    let (a, b) = overlapping_pair(&mut app);
    app.world_mut()
        .entity_mut(a)
        .observe(move |end: On<ContactEnded>, mut seen: ResMut<Seen>| {
            seen.ended.push((a, end.entity, end.other));
        });
    app.update();
    app.world_mut().despawn(b);
    app.update();
    assert_eq!(app.world().resource::<Seen>().ended, vec![(a, a, b)]);
}

#[test]
fn a_global_observer_sees_every_entity_and_an_entity_observer_its_own() {
    #[derive(Resource, Default)]
    struct Counts {
        global_started: Vec<Entity>,
        global_ended: Vec<Entity>,
        own: usize,
    }
    let mut app = app();
    app.init_resource::<Counts>()
        .add_observer(|hit: On<ContactStarted>, mut counts: ResMut<Counts>| {
            counts.global_started.push(hit.entity);
        })
        .add_observer(|end: On<ContactEnded>, mut counts: ResMut<Counts>| {
            counts.global_ended.push(end.entity);
        });
    let (a, b) = overlapping_pair(&mut app);
    // A third, watched by an observer of its own, touching `b` only.
    let c = app
        .world_mut()
        .spawn((
            CircleCollider::new(2.0),
            Transform::from_xyz(12.0, 0.0, 0.0),
        ))
        .observe(|_: On<ContactStarted>, mut counts: ResMut<Counts>| counts.own += 1)
        .id();
    app.update();
    let mut started = app.world().resource::<Counts>().global_started.clone();
    started.sort();
    let mut expected = vec![a, b, b, c];
    expected.sort();
    assert_eq!(started, expected, "each side of each pair");
    assert_eq!(app.world().resource::<Counts>().own, 1, "c's own start");
    app.world_mut().entity_mut(c).despawn();
    app.update();
    assert_eq!(
        app.world().resource::<Counts>().global_ended,
        [b],
        "the survivor's end"
    );
}

/// Bevy runs an observer whose own entity carries `Disabled`: it hears every start and end,
/// as an observer of an entity does whose observer entity is disabled.
#[test]
fn an_observer_on_a_disabled_entity_still_hears_contacts() {
    use bevy::ecs::entity_disabling::Disabled;
    let mut app = app();
    app.init_resource::<Seen>();
    let (a, b) = overlapping_pair(&mut app);
    let global = Observer::new(|hit: On<ContactStarted>, mut seen: ResMut<Seen>| {
        seen.started.push((hit.entity, hit.entity, hit.other));
    });
    app.world_mut().spawn((global, Disabled));
    let own = Observer::new(move |end: On<ContactEnded>, mut seen: ResMut<Seen>| {
        seen.ended.push((a, end.entity, end.other));
    })
    .with_entity(a);
    app.world_mut().spawn((own, Disabled));
    app.update();
    let mut started = app.world().resource::<Seen>().started.clone();
    started.sort();
    let mut expected = vec![(a, a, b), (b, b, a)];
    expected.sort();
    assert_eq!(started, expected);
    app.world_mut()
        .entity_mut(b)
        .insert(Transform::from_xyz(50.0, 0.0, 0.0));
    app.update();
    assert_eq!(app.world().resource::<Seen>().ended, vec![(a, a, b)]);
}

#[test]
fn an_observer_that_despawns_the_other_spares_the_rest_of_the_run() {
    // The crate's "mine" example: an observer on the mine despawns what touched it. A global
    // observer inserts a component on each entity that starts a contact, which would panic on
    // a despawned one. Both spawn orders, since triggers come in entity order.
    #[derive(Component)]
    struct Touched;
    #[derive(Resource, Default)]
    struct Count {
        started: Vec<Entity>,
        ended: Vec<Entity>,
    }
    for mine_first in [true, false] {
        let mut app = app();
        app.init_resource::<Count>()
            .add_observer(
                |hit: On<ContactStarted>, mut commands: Commands, mut count: ResMut<Count>| {
                    count.started.push(hit.entity);
                    commands.entity(hit.entity).insert(Touched);
                },
            )
            .add_observer(|end: On<ContactEnded>, mut count: ResMut<Count>| {
                count.ended.push(end.entity);
            });
        let spawn_mine = |app: &mut App| {
            app.world_mut()
                .spawn((CircleCollider::new(10.0), Transform::default()))
                .observe(|hit: On<ContactStarted>, mut commands: Commands| {
                    commands.entity(hit.other).despawn();
                })
                .id()
        };
        let spawn_bullet = |app: &mut App| {
            app.world_mut()
                .spawn((CircleCollider::new(2.0), Transform::from_xyz(5.0, 0.0, 0.0)))
                .id()
        };
        let (mine, bullet) = if mine_first {
            let mine = spawn_mine(&mut app);
            (mine, spawn_bullet(&mut app))
        } else {
            let bullet = spawn_bullet(&mut app);
            (spawn_mine(&mut app), bullet)
        };
        app.update();
        app.update();
        assert!(app.world().get_entity(bullet).is_err(), "the mine took it");
        assert!(app.world().get::<Touched>(mine).is_some());
        let count = app.world().resource::<Count>();
        // The mine: one start, one end (the bullet is gone). The bullet: a start only when its
        // trigger came before the mine's observer despawned it, and no end (it no longer
        // exists; the `ContactEnded` message still comes, once for the pair).
        let mine_starts = count.started.iter().filter(|e| **e == mine).count();
        assert_eq!(mine_starts, 1, "mine first {mine_first}");
        assert_eq!(
            count.ended,
            [mine],
            "mine first {mine_first}: the survivor's end"
        );
        let bullet_starts = count.started.iter().filter(|e| **e == bullet).count();
        let bullet_triggered_first = bullet < mine;
        assert_eq!(
            bullet_starts,
            usize::from(bullet_triggered_first),
            "mine first {mine_first}"
        );
    }
}

/// An observer added by an earlier observer of the same run hears that run's later events, as
/// it would any triggered event: who listens is asked as each event's turn comes.
#[test]
fn an_observer_added_mid_run_hears_the_rest_of_the_run() {
    #[derive(Resource, Default)]
    struct Heard(Vec<Entity>);
    let mut app = app();
    app.init_resource::<Heard>();
    let pair = overlapping_pair(&mut app);
    let far = overlapping_pair(&mut app);
    for entity in [far.0, far.1] {
        app.world_mut()
            .entity_mut(entity)
            .get_mut::<Transform>()
            .unwrap()
            .translation
            .y = 100.0;
    }
    // Triggers come pair by pair, in pair order: the first pair's observer adds one to the
    // second pair's first entity.
    let key = |(a, b): (Entity, Entity)| (a.min(b), a.max(b));
    let (first, second) = if key(pair) < key(far) {
        (key(pair), key(far))
    } else {
        (key(far), key(pair))
    };
    let listener = second.0;
    app.world_mut().entity_mut(first.0).observe(
        move |_: On<ContactStarted>, mut commands: Commands| {
            commands.entity(listener).observe(
                |hit: On<ContactStarted>, mut heard: ResMut<Heard>| {
                    heard.0.push(hit.entity);
                },
            );
        },
    );
    app.update();
    assert_eq!(app.world().resource::<Heard>().0, [listener]);
}

/// Bevy runs an observer whose entity a game's own disabling component hides: it hears
/// contacts too, global or of an entity.
#[test]
fn an_observer_hidden_by_a_disabling_component_of_the_games_own_hears_contacts() {
    #[derive(Component)]
    struct Parked;
    #[derive(Resource, Default)]
    struct Heard {
        global: usize,
        own: usize,
    }
    let mut app = app();
    app.world_mut().register_disabling_component::<Parked>();
    app.init_resource::<Heard>();
    let (a, _) = overlapping_pair(&mut app);
    let global = Observer::new(|_: On<ContactStarted>, mut heard: ResMut<Heard>| {
        heard.global += 1;
    });
    app.world_mut().spawn((global, Parked));
    let own = Observer::new(|_: On<ContactEnded>, mut heard: ResMut<Heard>| heard.own += 1)
        .with_entity(a);
    app.world_mut().spawn((own, Parked));
    app.update();
    assert_eq!(app.world().resource::<Heard>().global, 2, "both sides");
    app.world_mut()
        .entity_mut(a)
        .get_mut::<Transform>()
        .unwrap()
        .translation
        .x = -50.0;
    app.update();
    assert_eq!(app.world().resource::<Heard>().own, 1, "a's end");
}

/// A part touching its body's own collider (the body asks for contacts between parts),
/// despawned by the body's observer before its own event's turn: the body hears no contact
/// with itself in its place.
#[test]
fn a_body_hears_no_contact_with_itself_for_a_despawned_part() {
    #[derive(Resource, Default)]
    struct Heard(Vec<(Entity, Entity)>);
    let mut app = app();
    app.init_resource::<Heard>();
    let world = app.world_mut();
    // Spawned first, the part comes after the body in entity order: the body's side first.
    let part = world
        .spawn((CircleCollider::new(5.0), Transform::from_xyz(6.0, 0.0, 0.0)))
        .id();
    let body = world
        .spawn((
            CollisionBody {
                contacts_between_parts: true,
            },
            CircleCollider::new(5.0),
            Transform::default(),
        ))
        .id();
    assert!(body < part, "the body's side is triggered first");
    world.entity_mut(part).insert(ChildOf(body));
    world.entity_mut(body).observe(
        move |hit: On<ContactStarted>, mut commands: Commands, mut heard: ResMut<Heard>| {
            heard.0.push((hit.entity, hit.other));
            commands.entity(part).try_despawn();
        },
    );
    app.update();
    assert_eq!(app.world().resource::<Heard>().0, [(body, part)]);
}
