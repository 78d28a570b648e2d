//! The life of a contact: started once, `Contact` every frame, ended once, whatever ends it.

use crate::common::{app, contact_between, last_frame, overlapping_pair};
use bevy::prelude::*;
use bevy_collision_events::prelude::*;

#[test]
fn started_once_contact_every_frame_ended_once() {
    let mut app = app();
    let (a, b) = overlapping_pair(&mut app);
    app.update();
    assert_eq!(
        last_frame::<ContactStarted>(&app),
        vec![ContactStarted {
            entity: a.min(b),
            other: a.max(b),
            body: a.min(b),
            other_body: a.max(b),
        }]
    );
    assert!(contact_between(&app, a, b).is_some());
    for _ in 0..3 {
        app.update();
        assert!(last_frame::<ContactStarted>(&app).is_empty());
        assert!(contact_between(&app, a, b).is_some(), "Contact every frame");
        assert!(last_frame::<ContactEnded>(&app).is_empty());
    }
    app.world_mut()
        .entity_mut(b)
        .insert(Transform::from_xyz(50.0, 0.0, 0.0));
    app.update();
    assert_eq!(contact_between(&app, a, b), None);
    assert_eq!(
        last_frame::<ContactEnded>(&app),
        vec![ContactEnded {
            entity: a.min(b),
            other: a.max(b),
            body: a.min(b),
            other_body: a.max(b),
        }]
    );
    app.update();
    assert!(last_frame::<ContactEnded>(&app).is_empty());
}

#[test]
fn contact_points_follow_the_colliders_each_frame() {
    let mut app = app();
    let (a, b) = overlapping_pair(&mut app);
    app.update();
    let before = contact_between(&app, a, b).unwrap().points;
    app.world_mut()
        .entity_mut(b)
        .insert(Transform::from_xyz(8.0, 0.0, 0.0));
    app.update();
    let after = contact_between(&app, a, b).unwrap().points;
    // The chord moves from x = 3 to x = 4.
    assert_eq!((before.len(), after.len()), (2, 2), "two crossings");
    assert!(before.iter().all(|p| (p.x - 3.0).abs() < 1e-4));
    assert!(after.iter().all(|p| (p.x - 4.0).abs() < 1e-4));
}

#[test]
fn despawning_either_side_ends_the_contact() {
    for despawn_first in [true, false] {
        let mut app = app();
        let (a, b) = overlapping_pair(&mut app);
        app.update();
        let gone = if despawn_first { a } else { b };
        app.world_mut().despawn(gone);
        app.update();
        assert_eq!(
            last_frame::<ContactEnded>(&app),
            vec![ContactEnded {
                entity: a.min(b),
                other: a.max(b),
                body: a.min(b),
                other_body: a.max(b),
            }]
        );
        assert!(app.world().resource::<Contacts>().is_empty());
    }
}

#[test]
fn removing_the_collider_ends_the_contact() {
    let mut app = app();
    let (a, b) = overlapping_pair(&mut app);
    app.update();
    app.world_mut().entity_mut(a).remove::<CircleCollider>();
    app.update();
    assert_eq!(last_frame::<ContactEnded>(&app).len(), 1);
    app.update();
    assert!(last_frame::<ContactEnded>(&app).is_empty());
    assert_eq!(contact_between(&app, a, b), None);
}

/// What the observers saw, as `(observed entity, event entity, other)`.
#[test]
fn colliding_entities_and_contacts_say_who_touches_whom() {
    let mut app = app();
    let (a, b) = overlapping_pair(&mut app);
    let far = app
        .world_mut()
        .spawn((
            CircleCollider::new(1.0),
            CollidingEntities::default(),
            Transform::from_xyz(100.0, 0.0, 0.0),
        ))
        .id();
    app.world_mut()
        .entity_mut(a)
        .insert(CollidingEntities::default());
    app.update();
    let colliding = app.world().get::<CollidingEntities>(a).unwrap();
    assert!(colliding.contains(&b) && colliding.len() == 1);
    assert!(
        app.world()
            .get::<CollidingEntities>(far)
            .unwrap()
            .is_empty()
    );
    let contacts = app.world().resource::<Contacts>();
    assert_eq!(contacts.len(), 1);
    assert!(contacts.contains(b, a));
    assert_eq!(contacts.touching(a).collect::<Vec<_>>(), vec![b]);
    assert_eq!(contacts.touching(far).count(), 0);

    app.world_mut()
        .entity_mut(far)
        .insert(Transform::from_xyz(3.0, 0.0, 0.0));
    app.update();
    let colliding = app.world().get::<CollidingEntities>(a).unwrap();
    assert_eq!(colliding.len(), 2);
    let mut touching_far: Vec<Entity> = app.world().resource::<Contacts>().touching(far).collect();
    touching_far.sort();
    let mut expected = vec![a, b];
    expected.sort();
    assert_eq!(touching_far, expected);

    app.world_mut().despawn(b);
    app.update();
    let colliding = app.world().get::<CollidingEntities>(a).unwrap();
    assert!(!colliding.contains(&b) && colliding.contains(&far));
}

#[test]
fn colliding_entities_added_mid_contact_lists_what_already_touches() {
    let mut app = app();
    let (a, b) = overlapping_pair(&mut app);
    app.update();
    app.update();
    app.world_mut()
        .entity_mut(a)
        .insert(CollidingEntities::default());
    app.update();
    let colliding = app.world().get::<CollidingEntities>(a).unwrap();
    assert!(
        colliding.contains(&b) && colliding.len() == 1,
        "{colliding:?}"
    );
    // And it stays right: the contact ends, the set empties.
    app.world_mut()
        .entity_mut(b)
        .insert(Transform::from_xyz(50.0, 0.0, 0.0));
    app.update();
    assert!(app.world().get::<CollidingEntities>(a).unwrap().is_empty());
}

/// Two overlapping discs `(a, b)`, `a` with a `CollidingEntities`, after one run.
fn a_pair_that_a_watches() -> (App, Entity, Entity) {
    let mut app = app();
    let (a, b) = overlapping_pair(&mut app);
    app.world_mut()
        .entity_mut(a)
        .insert(CollidingEntities::default());
    app.update();
    (app, a, b)
}

/// `CollidingEntities` inserted again on an entity mid-contact (Bevy marks it changed, not
/// added) lists what the entity touches, as when it was first added.
#[test]
fn colliding_entities_inserted_again_mid_contact_lists_what_touches() {
    let (mut app, a, b) = a_pair_that_a_watches();
    assert_eq!(app.world().get::<CollidingEntities>(a).unwrap().len(), 1);
    app.world_mut()
        .entity_mut(a)
        .insert(CollidingEntities::default());
    for _ in 0..2 {
        let colliding = app.world().get::<CollidingEntities>(a).unwrap();
        assert!(
            colliding.contains(&b) && colliding.len() == 1,
            "{colliding:?}"
        );
        app.update();
    }
}

/// Disables `a` with the disabling component `disabling` while its contact with `b` ends (the one
/// `ContactEnded` of that run) and `b` moves away, then brings `a` back.
fn disable_while_the_other_leaves<C: Component>(app: &mut App, [a, b]: [Entity; 2], disabling: C) {
    app.world_mut().entity_mut(a).insert(disabling);
    app.update();
    assert_eq!(last_frame::<ContactEnded>(app).len(), 1);
    app.world_mut()
        .entity_mut(b)
        .insert(Transform::from_xyz(100.0, 0.0, 0.0));
    app.update();
    app.world_mut().entity_mut(a).remove::<C>();
}

/// An entity parked with Bevy's `Disabled` (as object pools do) while its contact ends: its
/// `CollidingEntities` no longer lists the other when it comes back.
#[test]
fn colliding_entities_stay_right_across_disabled() {
    use bevy::ecs::entity_disabling::Disabled;
    let (mut app, a, b) = a_pair_that_a_watches();
    assert!(
        app.world()
            .get::<CollidingEntities>(a)
            .unwrap()
            .contains(&b)
    );
    disable_while_the_other_leaves(&mut app, [a, b], Disabled);
    for _ in 0..2 {
        app.update();
        let colliding = app.world().get::<CollidingEntities>(a).unwrap();
        assert!(colliding.is_empty(), "{colliding:?}");
    }
    // And back in touch, it lists the other again.
    app.world_mut()
        .entity_mut(b)
        .insert(Transform::from_xyz(6.0, 0.0, 0.0));
    app.update();
    assert!(
        app.world()
            .get::<CollidingEntities>(a)
            .unwrap()
            .contains(&b)
    );
}

/// A disabling component of the game's own (registered before the app runs, as Bevy asks).
#[derive(Component)]
struct Parked;

/// An entity disabled by a disabling component of the game's own while its contact ends, and
/// the other moves away: its `CollidingEntities` no longer lists the other when it comes back.
/// (Hidden from every query that does not name the component, its set cannot be kept up to
/// date meanwhile; it is filled again as the component goes.)
#[test]
fn colliding_entities_are_right_after_a_disabling_component_of_the_games_own() {
    let mut app = app();
    app.world_mut().register_disabling_component::<Parked>();
    let (a, b) = overlapping_pair(&mut app);
    app.world_mut()
        .entity_mut(a)
        .insert(CollidingEntities::default());
    app.update();
    let listed = |app: &App| app.world().get::<CollidingEntities>(a).unwrap().clone();
    assert!(listed(&app).contains(&b));
    disable_while_the_other_leaves(&mut app, [a, b], Parked);
    assert!(
        listed(&app).is_empty(),
        "{:?} as it comes back",
        listed(&app)
    );
    for _ in 0..2 {
        app.update();
        assert!(listed(&app).is_empty(), "{:?}", listed(&app));
    }
    // Parked and back while still in touch: it lists the other all along.
    app.world_mut()
        .entity_mut(b)
        .insert(Transform::from_xyz(6.0, 0.0, 0.0));
    app.update();
    assert!(listed(&app).contains(&b));
    app.world_mut().entity_mut(a).insert(Parked);
    app.world_mut().entity_mut(a).remove::<Parked>();
    assert!(listed(&app).contains(&b));
    app.update();
    assert!(listed(&app).contains(&b));
}

/// How many `ContactStarted` and `ContactEnded` an entity's own observers heard.
#[derive(Resource, Default, Debug, PartialEq)]
struct Heard {
    started: usize,
    ended: usize,
}

/// An entity disabled while its contact ends, by Bevy's `Disabled` (as object pools park
/// theirs) or by a disabling component of the game's own, still exists, and its observers
/// hear the end of the contact whose start they heard.
#[test]
fn a_disabled_entity_hears_its_contact_end() {
    use bevy::ecs::entity_disabling::Disabled;
    fn heard_while_disabled<C: Component>(disabling: C, game_own: bool) -> Heard {
        let mut app = app();
        if game_own {
            app.world_mut().register_disabling_component::<C>();
        }
        app.init_resource::<Heard>();
        let (a, b) = overlapping_pair(&mut app);
        app.world_mut()
            .entity_mut(a)
            .observe(|_: On<ContactStarted>, mut heard: ResMut<Heard>| heard.started += 1)
            .observe(|_: On<ContactEnded>, mut heard: ResMut<Heard>| heard.ended += 1);
        app.update();
        disable_while_the_other_leaves(&mut app, [a, b], disabling);
        app.world_mut().remove_resource::<Heard>().unwrap()
    }
    let both = Heard {
        started: 1,
        ended: 1,
    };
    assert_eq!(heard_while_disabled(Disabled, false), both, "Disabled");
    assert_eq!(heard_while_disabled(Parked, true), both, "the game's own");
}

/// A run condition that skips the search (a pause) keeps the contacts as they were: no end,
/// no start and no message while it is skipped, and [`Contacts`] still holds the pairs, even
/// one moved apart meanwhile. The search back, that pair ends, and the one still overlapping
/// goes on, started only once.
#[test]
fn a_paused_search_keeps_the_contacts() {
    #[derive(Resource)]
    struct Searching(bool);
    let mut app = app();
    app.insert_resource(Searching(true)).configure_sets(
        PostUpdate,
        CollisionSystems::FindContacts.run_if(|searching: Res<Searching>| searching.0),
    );
    let (a, b) = overlapping_pair(&mut app);
    let staying = app
        .world_mut()
        .spawn((
            CircleCollider::new(5.0),
            Transform::from_xyz(-6.0, 0.0, 0.0),
        ))
        .id();
    app.update();
    assert_eq!(last_frame::<ContactStarted>(&app).len(), 2);
    app.world_mut().resource_mut::<Searching>().0 = false;
    for frame in 0..3 {
        if frame == 2 {
            let mut b = app.world_mut().entity_mut(b);
            b.get_mut::<Transform>().unwrap().translation.x = 50.0;
        }
        app.update();
        assert!(last_frame::<ContactStarted>(&app).is_empty(), "{frame}");
        assert!(last_frame::<ContactEnded>(&app).is_empty(), "{frame}");
        assert!(last_frame::<Contact>(&app).is_empty(), "{frame}");
        let contacts = app.world().resource::<Contacts>();
        assert!(
            contacts.contains(a, b) && contacts.contains(a, staying),
            "{frame}"
        );
    }
    app.world_mut().resource_mut::<Searching>().0 = true;
    app.update();
    let ended = last_frame::<ContactEnded>(&app);
    assert_eq!(ended.len(), 1);
    assert_eq!((ended[0].entity, ended[0].other), (a.min(b), a.max(b)));
    assert!(last_frame::<ContactStarted>(&app).is_empty());
    assert!(contact_between(&app, a, staying).is_some());
    assert_eq!(app.world().resource::<Contacts>().len(), 1);
}

/// Bevy's virtual time paused pauses the search, as a run condition would: while the clock
/// stands still no message is written (none piles up, as Bevy does not advance its message
/// buffers then), and the contacts stay as they were; the clock running again, a pair moved
/// apart meanwhile ends, once. With `pause_with_virtual_time` off, the search runs on.
#[test]
fn a_paused_virtual_clock_pauses_the_search() {
    for pause_with_virtual_time in [true, false] {
        let mut app = app();
        app.insert_resource(CollisionSettings {
            pause_with_virtual_time,
            ..default()
        });
        let (a, b) = overlapping_pair(&mut app);
        app.update();
        let count = |app: &App| {
            let world = app.world();
            (
                world.resource::<Messages<Contact>>().len(),
                world.resource::<Messages<ContactEnded>>().len(),
            )
        };
        let (contacts_before, _) = count(&app);
        app.world_mut().resource_mut::<Time<Virtual>>().pause();
        for _ in 0..3 {
            app.update();
        }
        app.world_mut()
            .entity_mut(b)
            .get_mut::<Transform>()
            .unwrap()
            .translation
            .x = 50.0;
        app.update();
        let (contacts, ended) = count(&app);
        let written = contacts - contacts_before;
        let contains = app.world().resource::<Contacts>().contains(a, b);
        let case = format!("pause_with_virtual_time {pause_with_virtual_time}");
        if pause_with_virtual_time {
            assert_eq!((written, ended, contains), (0, 0, true), "{case}");
        } else {
            assert_eq!((written, ended, contains), (3, 1, false), "{case}");
        }
        app.world_mut().resource_mut::<Time<Virtual>>().unpause();
        app.update();
        let ended: usize = count(&app).1;
        assert!(!app.world().resource::<Contacts>().contains(a, b), "{case}");
        if pause_with_virtual_time {
            assert_eq!(last_frame::<ContactEnded>(&app).len(), 1, "{case}");
        }
        assert_eq!(ended, 1, "{case}: one end in all");
    }
}

/// With `contact_messages` off, no `Contact` message is written, while `Contacts`, the sets
/// and the starts and ends come as before.
#[test]
fn contact_messages_off_leaves_the_rest() {
    let mut app = app();
    app.insert_resource(CollisionSettings {
        contact_messages: false,
        ..default()
    });
    let (a, b) = overlapping_pair(&mut app);
    app.world_mut()
        .entity_mut(a)
        .insert(CollidingEntities::default());
    app.update();
    assert!(last_frame::<Contact>(&app).is_empty());
    assert_eq!(last_frame::<ContactStarted>(&app).len(), 1);
    assert!(app.world().resource::<Contacts>().contains(a, b));
    let touching = app.world().get::<CollidingEntities>(a).expect("the set");
    assert!(touching.contains(&b));
    app.world_mut()
        .entity_mut(b)
        .insert(Transform::from_xyz(50.0, 0.0, 0.0));
    app.update();
    assert!(last_frame::<Contact>(&app).is_empty());
    assert_eq!(last_frame::<ContactEnded>(&app).len(), 1);
    assert!(app.world().resource::<Contacts>().is_empty());
}
