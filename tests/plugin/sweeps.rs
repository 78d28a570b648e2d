//! Swept colliders: the path since the last run is tested, not only where a collider ends up.

use crate::common::{app, contact_between, last_frame};
use bevy::ecs::entity_disabling::Disabled;
use bevy::prelude::*;
use bevy_collision_events::prelude::*;

const BULLET_RADIUS: f32 = 3.0;
/// The wall: a zero-width vertical segment at x = 0, from y = −50 to 50.
const WALL_HALF_HEIGHT: f32 = 50.0;

#[derive(Component)]
struct Velocity(Vec2);

fn fly(mut bodies: Query<(&mut Transform, &Velocity)>) {
    for (mut transform, velocity) in &mut bodies {
        transform.translation += velocity.0.extend(0.0);
    }
}

fn spawn_wall(app: &mut App) -> Entity {
    app.world_mut()
        .spawn((
            SegmentCollider::new(
                Vec2::new(0.0, -WALL_HALF_HEIGHT),
                Vec2::new(0.0, WALL_HALF_HEIGHT),
            ),
            Transform::default(),
        ))
        .id()
}

/// A bullet that the first update's move brings to `at`, where the pipeline first places it.
fn spawn_bullet(app: &mut App, at: Vec2, velocity: Vec2, swept: bool) -> Entity {
    let mut bullet = app.world_mut().spawn((
        CircleCollider::new(BULLET_RADIUS),
        Transform::from_translation((at - velocity).extend(0.0)),
        Velocity(velocity),
    ));
    if swept {
        bullet.insert(Swept::default());
    }
    bullet.id()
}

/// Flies a bullet at `speed` px a frame from `offset` px left of the wall's reach towards it,
/// for as many frames as it takes to pass it; returns the bullet and the contacts between the
/// two, frame by frame (`None` where there was none).
fn fly_at_wall(speed: f32, offset: f32, swept: bool) -> (Entity, Vec<Option<Contact>>) {
    let mut app = app();
    app.add_systems(Update, fly);
    let wall = spawn_wall(&mut app);
    let start = Vec2::new(-BULLET_RADIUS - 1.0 - offset, 10.0);
    let bullet = spawn_bullet(&mut app, start, Vec2::new(speed, 0.0), swept);
    let frames = ((2.0 * BULLET_RADIUS + 2.0 + offset) / speed).ceil() as usize + 2;
    let contacts = (0..frames)
        .map(|_| {
            app.update();
            contact_between(&app, bullet, wall)
        })
        .collect();
    (bullet, contacts)
}

#[test]
fn a_swept_bullet_never_passes_through_a_zero_width_wall() {
    for speed in [4.0, 15.0, 60.0, 300.0] {
        for step in 0..100 {
            let offset = speed * step as f32 / 100.0;
            let (bullet, contacts) = fly_at_wall(speed, offset, true);
            let first = contacts
                .iter()
                .flatten()
                .next()
                .unwrap_or_else(|| panic!("at {speed} px a frame from {offset}, no contact"));
            let impact = first.impact.expect("the first contact has its impact");
            // The bullet's front touches the wall: the point is on the wall, at the bullet's
            // height, and the normal faces where it came from.
            assert!(impact.point.x.abs() < 1e-3, "point {}", impact.point);
            assert!(
                (impact.point.y - 10.0).abs() < 1e-3,
                "point {}",
                impact.point
            );
            // The front, 1 + offset from the wall where the first path starts, meets it that
            // far along the flight: in the path that covers it, at that fraction of the path.
            let reach = 1.0 + f64::from(offset);
            let path = (reach / f64::from(speed)).ceil().max(1.0);
            let time = reach / f64::from(speed) - (path - 1.0);
            assert!(
                (f64::from(impact.time) - time).abs() < 1e-4,
                "at {speed} px a frame from {offset}: time {} for {time}",
                impact.time
            );
            let normal = first.impact_normal(bullet).unwrap();
            assert!(normal.abs_diff_eq(Vec2::NEG_X, 1e-5), "normal {normal}");
        }
    }
}

#[test]
fn without_sweeping_a_fast_bullet_can_pass_through() {
    // The same flight, not swept: the wall is missed from some offsets (what sweeping fixes).
    let missed = (0..100)
        .filter(|step| {
            let offset = 15.0 * *step as f32 / 100.0;
            fly_at_wall(15.0, offset, false)
                .1
                .iter()
                .all(Option::is_none)
        })
        .count();
    assert!(missed > 10, "only {missed} of 100 missed");
}

#[test]
fn the_impact_normal_faces_the_bullet() {
    let (bullet, contacts) = fly_at_wall(60.0, 7.0, true);
    let contact = contacts.iter().flatten().next().unwrap().clone();
    // The bullet came from the left: the wall's normal on its side points left, to −x.
    assert!(
        contact
            .impact_normal(bullet)
            .unwrap()
            .abs_diff_eq(Vec2::NEG_X, 1e-5)
    );
    assert_eq!(
        contact.impact_normal(contact.other(bullet).unwrap()),
        Some(Vec2::X)
    );
}

/// In either order of the pair (the bullet spawned after the wall is `a`, before it `b`), the
/// impact's normal points from `b` towards `a`, and `impact_normal` turns it to face whichever
/// entity is asked for.
#[test]
fn the_impact_normal_points_from_b_to_a_in_either_order() {
    for bullet_first in [false, true] {
        let mut app = app();
        app.add_systems(Update, fly);
        let velocity = Vec2::new(60.0, 0.0);
        let start = Vec2::new(-BULLET_RADIUS - 8.0, 10.0);
        let (bullet, wall) = if bullet_first {
            let bullet = spawn_bullet(&mut app, start, velocity, true);
            (bullet, spawn_wall(&mut app))
        } else {
            let wall = spawn_wall(&mut app);
            (spawn_bullet(&mut app, start, velocity, true), wall)
        };
        app.update();
        app.update();
        let contact = contact_between(&app, bullet, wall).expect("the bullet hit the wall");
        assert_eq!(contact.b == bullet, bullet_first, "the order of the pair");
        let normal = contact.impact.expect("an impact").normal;
        // Out of the wall towards the bullet, −x, when the bullet is `a`; the other way round
        // when it is `b`.
        let towards_a = if bullet_first { Vec2::X } else { Vec2::NEG_X };
        assert!(
            normal.abs_diff_eq(towards_a, 1e-5),
            "{bullet_first}: {normal}"
        );
        let facing = contact.impact_normal(bullet).unwrap();
        assert!(
            facing.abs_diff_eq(Vec2::NEG_X, 1e-5),
            "{bullet_first}: {facing}"
        );
        assert!(
            contact
                .impact_normal(wall)
                .unwrap()
                .abs_diff_eq(Vec2::X, 1e-5)
        );
    }
}

#[test]
fn passing_through_starts_then_ends_the_next_frame() {
    let mut app = app();
    app.add_systems(Update, fly);
    let wall = spawn_wall(&mut app);
    // 100 px a frame from 50 px left: frame 1 places it, frame 2 jumps past the wall.
    let bullet = spawn_bullet(&mut app, Vec2::new(-50.0, 0.0), Vec2::new(100.0, 0.0), true);
    let key = (bullet.min(wall), bullet.max(wall));
    app.update();
    assert!(contact_between(&app, bullet, wall).is_none());
    app.update();
    let contact = contact_between(&app, bullet, wall).expect("met on the way");
    let impact = contact.impact.unwrap();
    // It moved from x = −50 to 50: its front (x + 3) reaches the wall after 47 of the 100 px.
    assert!((impact.time - 0.47).abs() < 1e-4, "time {}", impact.time);
    assert_eq!(contact.points.as_slice(), [impact.point]);
    assert_eq!(contact.containment, Containment::Neither);
    assert_eq!(
        last_frame::<ContactStarted>(&app),
        [ContactStarted {
            entity: key.0,
            other: key.1,
            body: key.0,
            other_body: key.1,
        }]
    );
    app.update();
    assert!(contact_between(&app, bullet, wall).is_none());
    assert_eq!(
        last_frame::<ContactEnded>(&app),
        [ContactEnded {
            entity: key.0,
            other: key.1,
            body: key.0,
            other_body: key.1,
        }]
    );
}

#[test]
fn an_impact_only_on_the_frame_the_pair_first_touches() {
    let mut app = app();
    app.add_systems(Update, fly);
    let orb = app
        .world_mut()
        .spawn((CircleCollider::new(20.0), Transform::default()))
        .id();
    let bullet = spawn_bullet(&mut app, Vec2::new(-40.0, 0.0), Vec2::new(15.0, 0.0), true);
    app.update(); // x = −40 (placed, no path yet)
    app.update(); // −25: apart
    assert!(contact_between(&app, bullet, orb).is_none());
    app.update(); // −10: wholly inside the orb, entered on the way
    let entered = contact_between(&app, bullet, orb).unwrap();
    let impact = entered.impact.expect("apart at the start of the path");
    assert!(impact.point.abs_diff_eq(Vec2::new(-20.0, 0.0), 1e-3));
    assert!((impact.time - 2.0 / 15.0).abs() < 1e-4);
    assert!(entered.is_inside(bullet), "the end pose: inside the orb");
    app.update(); // 5: still inside, no new impact
    assert_eq!(contact_between(&app, bullet, orb).unwrap().impact, None);
}

#[test]
fn a_jump_is_not_swept() {
    let mut app = app();
    let wall = spawn_wall(&mut app);
    let bullet = spawn_bullet(&mut app, Vec2::new(-30.0, 0.0), Vec2::ZERO, true);
    app.update();
    // Teleport across the wall, saying so.
    let mut entity = app.world_mut().entity_mut(bullet);
    entity.get_mut::<Transform>().unwrap().translation.x = 30.0;
    entity.get_mut::<Swept>().unwrap().jump();
    app.update();
    assert!(contact_between(&app, bullet, wall).is_none());
    assert!(last_frame::<ContactStarted>(&app).is_empty());
    // The same move, not said to be a jump, is a path through the wall.
    app.world_mut()
        .entity_mut(bullet)
        .get_mut::<Transform>()
        .unwrap()
        .translation
        .x = -30.0;
    app.update();
    assert!(contact_between(&app, bullet, wall).is_some());
}

#[test]
fn two_swept_bullets_whose_paths_cross_at_the_same_time_meet() {
    let mut app = app();
    app.add_systems(Update, fly);
    // Both cross the origin halfway through the second frame's move, and are apart at its end.
    let first = spawn_bullet(
        &mut app,
        Vec2::new(-100.0, 0.0),
        Vec2::new(200.0, 0.0),
        true,
    );
    let second = spawn_bullet(
        &mut app,
        Vec2::new(0.0, -100.0),
        Vec2::new(0.0, 200.0),
        true,
    );
    // A third crosses the origin a frame later: the paths cross, the bullets never meet.
    let late = spawn_bullet(
        &mut app,
        Vec2::new(-300.0, 0.0),
        Vec2::new(200.0, 0.0),
        true,
    );
    app.update();
    app.update();
    let contact = contact_between(&app, first, second).expect("they met mid-frame");
    let impact = contact.impact.unwrap();
    // 6 px apart (touching) when √2·|100 − 200t| = 6.
    let expected = 0.5 - 3.0 * 2.0_f32.sqrt() / 200.0;
    assert!(
        (impact.time - expected).abs() < 1e-4,
        "time {}",
        impact.time
    );
    // The point lies on both circles at that time: 3 px from each centre.
    let at = |start: Vec2, velocity: Vec2| start + velocity * impact.time;
    let first_center = at(Vec2::new(-100.0, 0.0), Vec2::new(200.0, 0.0));
    let second_center = at(Vec2::new(0.0, -100.0), Vec2::new(0.0, 200.0));
    assert!((impact.point.distance(first_center) - 3.0).abs() < 1e-3);
    assert!((impact.point.distance(second_center) - 3.0).abs() < 1e-3);
    assert!(contact_between(&app, first, late).is_none());
    assert!(contact_between(&app, second, late).is_none());
    app.update();
    assert!(contact_between(&app, first, late).is_none());
    assert!(contact_between(&app, second, late).is_none());
}

#[test]
fn a_wall_despawned_while_the_bullet_passes_is_never_met() {
    let mut app = app();
    app.add_systems(Update, fly);
    let wall = spawn_wall(&mut app);
    // A second wall, 20 px on, crossed in the same frame: met, so the path is swept.
    let further = app
        .world_mut()
        .spawn((
            SegmentCollider::new(
                Vec2::new(0.0, -WALL_HALF_HEIGHT),
                Vec2::new(0.0, WALL_HALF_HEIGHT),
            ),
            Transform::from_xyz(20.0, 0.0, 0.0),
        ))
        .id();
    let bullet = spawn_bullet(&mut app, Vec2::new(-50.0, 0.0), Vec2::new(100.0, 0.0), true);
    app.update();
    app.world_mut().entity_mut(wall).despawn();
    app.update();
    assert!(contact_between(&app, bullet, further).is_some());
    assert_eq!(
        last_frame::<Contact>(&app).len(),
        1,
        "only the wall still there"
    );
    assert_eq!(last_frame::<ContactStarted>(&app).len(), 1);
}

#[test]
fn a_swept_child_of_a_moving_parent_sweeps_its_world_path() {
    let mut app = app();
    app.add_systems(Update, fly);
    let wall = spawn_wall(&mut app);
    // The parent moves; the child, offset by 10 px, carries the collider.
    let mut child = Entity::PLACEHOLDER;
    app.world_mut()
        .spawn((
            Transform::from_xyz(-160.0, 0.0, 0.0),
            Velocity(Vec2::new(100.0, 0.0)),
        ))
        .with_children(|parent| {
            child = parent
                .spawn((
                    CircleCollider::new(BULLET_RADIUS),
                    Swept::default(),
                    Transform::from_xyz(10.0, 0.0, 0.0),
                ))
                .id();
        });
    app.update(); // the child's centre at −50
    app.update(); // at 50: through the wall
    let contact = contact_between(&app, child, wall).expect("the path crosses the wall");
    let impact = contact.impact.unwrap();
    assert!((impact.time - 0.47).abs() < 1e-4, "time {}", impact.time);
}

#[test]
fn a_move_beyond_the_range_is_taken_for_a_jump() {
    let mut app = app();
    let wall = spawn_wall(&mut app);
    let bullet = spawn_bullet(&mut app, Vec2::new(-30.0, 0.0), Vec2::ZERO, true);
    app.update();
    // Parked far beyond the supported range, then brought back across the wall, without a
    // `jump`: neither move is a path.
    let at = |app: &mut App, x: f32| {
        app.world_mut()
            .entity_mut(bullet)
            .get_mut::<Transform>()
            .unwrap()
            .translation
            .x = x;
        app.update();
    };
    at(&mut app, 1e30);
    let swept = app.world().get::<Swept>(bullet).unwrap();
    assert_eq!(swept.start(), None, "no path starts beyond the range");
    at(&mut app, 30.0);
    assert!(contact_between(&app, bullet, wall).is_none());
    assert!(last_frame::<ContactStarted>(&app).is_empty());
}

#[test]
fn a_bullet_despawned_after_its_hit_ends_its_contact() {
    let mut app = app();
    app.add_systems(Update, fly);
    let wall = spawn_wall(&mut app);
    let bullet = spawn_bullet(&mut app, Vec2::new(-50.0, 0.0), Vec2::new(100.0, 0.0), true);
    app.update();
    app.update();
    assert!(contact_between(&app, bullet, wall).is_some());
    app.world_mut().entity_mut(bullet).despawn();
    app.update();
    assert_eq!(last_frame::<ContactEnded>(&app).len(), 1);
}

#[test]
fn a_collider_switched_back_on_sweeps_only_its_last_move() {
    let mut app = app();
    app.add_systems(Update, fly);
    let wall = spawn_wall(&mut app);
    let bullet = spawn_bullet(&mut app, Vec2::new(-50.0, 0.0), Vec2::new(20.0, 0.0), true);
    app.update(); // −50
    app.world_mut().entity_mut(bullet).insert(ColliderDisabled);
    for _ in 0..4 {
        app.update(); // −30, −10, 10, 30: across the wall while switched off
    }
    app.world_mut()
        .entity_mut(bullet)
        .remove::<ColliderDisabled>();
    app.update(); // 50: its path is 30 → 50, clear of the wall
    assert!(contact_between(&app, bullet, wall).is_none());
    assert!(last_frame::<ContactStarted>(&app).is_empty());
}

/// A game's own disabling component, registered with Bevy.
#[derive(Component)]
struct Pooled;

/// A bullet disabled with Bevy's `Disabled` (taken back into a pool), or with a disabling
/// component of the game's own, then moved and enabled again (fired anew) starts with no path:
/// no system saw where it went, and the move across the wall is not swept. So does a bullet
/// riding on a ship (its child) that is disabled, moved and enabled: transform propagation left
/// the bullet where it was when the ship was disabled.
#[test]
fn a_bullet_enabled_again_starts_with_no_path() {
    for (on_a_ship, own) in [(false, false), (true, false), (false, true), (true, true)] {
        let mut app = app();
        app.world_mut().register_disabling_component::<Pooled>();
        let wall = spawn_wall(&mut app);
        let bullet = spawn_bullet(&mut app, Vec2::new(-50.0, 0.0), Vec2::ZERO, true);
        // What is disabled and moved, and to where: the bullet to x = 30, or its ship by 80.
        let (disabled, moved_to) = if on_a_ship {
            let ship = app.world_mut().spawn(Transform::default()).id();
            app.world_mut().entity_mut(bullet).insert(ChildOf(ship));
            (ship, Vec3::new(80.0, 0.0, 0.0))
        } else {
            (bullet, Vec3::new(30.0, 0.0, 0.0))
        };
        let case = format!("on a ship: {on_a_ship}, the game's own component: {own}");
        app.update(); // −50: where its next path starts
        let mut entity = app.world_mut().entity_mut(disabled);
        if own {
            entity.insert(Pooled);
        } else {
            entity.insert(Disabled);
        }
        app.update();
        app.update();
        app.world_mut()
            .get_mut::<Transform>(disabled)
            .expect("disabled, not despawned")
            .translation = moved_to;
        let mut entity = app.world_mut().entity_mut(disabled);
        if own {
            entity.remove::<Pooled>();
        } else {
            entity.remove::<Disabled>();
        }
        app.update(); // 30, its first run back: where it is, clear of the wall
        let at = app
            .world()
            .get::<GlobalTransform>(bullet)
            .unwrap()
            .translation();
        assert_eq!(at, Vec3::new(30.0, 0.0, 0.0), "{case}");
        assert!(contact_between(&app, bullet, wall).is_none(), "{case}");
        assert!(last_frame::<ContactStarted>(&app).is_empty(), "{case}");
    }
}

#[test]
fn a_swept_polygon_is_swept_too() {
    let mut app = app();
    app.add_systems(Update, fly);
    let wall = spawn_wall(&mut app);
    // Placed at x = −40 by the first update, at 40 by the second.
    let block = app
        .world_mut()
        .spawn((
            PolygonCollider::rectangle(4.0, 4.0),
            Transform::from_xyz(-120.0, 0.0, 0.0).with_rotation(Quat::from_rotation_z(0.3)),
            Velocity(Vec2::new(80.0, 0.0)),
            Swept::default(),
        ))
        .id();
    app.update(); // −40
    app.update(); // 40: passed through
    let contact = contact_between(&app, block, wall).expect("the block met the wall");
    let impact = contact.impact.unwrap();
    // The corner of the turned square farthest along x led: (2 cos θ + 2 sin θ, 2 sin θ −
    // 2 cos θ) from the centre, which met the wall when the centre was that far short of it.
    let (sin, cos) = 0.3_f64.sin_cos();
    let corner = (2.0 * cos + 2.0 * sin, 2.0 * sin - 2.0 * cos);
    let time = (40.0 - corner.0) / 80.0;
    assert!(impact.point.x.abs() < 1e-3, "{impact:?}");
    assert!(
        (f64::from(impact.point.y) - corner.1).abs() < 1e-3,
        "{impact:?}"
    );
    assert!((f64::from(impact.time) - time).abs() < 1e-4, "{impact:?}");
}

/// A swept bullet cloned onto another entity: the clone's first run tests only where it is,
/// not a path from where the original was (which would cross the wall between them).
#[test]
fn a_cloned_swept_bullet_sweeps_no_path_it_never_travelled() {
    let mut app = app();
    let wall = spawn_wall(&mut app);
    let bullet = spawn_bullet(&mut app, Vec2::new(-200.0, 0.0), Vec2::ZERO, true);
    app.update();
    assert!(
        app.world().get::<Swept>(bullet).unwrap().start().is_some(),
        "the original has a path start to copy"
    );
    let clone = app.world_mut().entity_mut(bullet).clone_and_spawn();
    assert_eq!(app.world().get::<Swept>(clone).unwrap().start(), None);
    app.world_mut()
        .entity_mut(clone)
        .insert(Transform::from_xyz(200.0, 10.0, 0.0));
    app.update();
    assert!(contact_between(&app, clone, wall).is_none());
    assert!(last_frame::<ContactStarted>(&app).is_empty());
    // A start copied in by hand is forgotten the same way.
    let copied = *app.world().get::<Swept>(bullet).unwrap();
    let other = spawn_bullet(&mut app, Vec2::new(200.0, -10.0), Vec2::ZERO, false);
    app.world_mut().entity_mut(other).insert(copied);
    assert_eq!(app.world().get::<Swept>(other).unwrap().start(), None);
    app.update();
    assert!(contact_between(&app, other, wall).is_none());
}

/// A still wall moves onto where a swept bullet's path starts, as the bullet moves on: they met
/// at the start of the path, a contact of this run with the points where the outlines crossed
/// there. A bullet leaving a wall it touched last run ends its contact instead.
#[test]
fn a_collider_moved_onto_the_start_of_a_path_is_met_there() {
    let mut app = app();
    let wall = SegmentCollider::new(
        Vec2::new(0.0, -WALL_HALF_HEIGHT),
        Vec2::new(0.0, WALL_HALF_HEIGHT),
    );
    let (wall, bullet) = move_onto_a_path_start(&mut app, wall, 20.0);
    let contact = contact_between(&app, bullet, wall).expect("met at the start of the path");
    assert_eq!(contact.impact, None, "touching from the start: no impact");
    // The bullet's disc at the origin crosses the wall at (0, ±3).
    crate::common::assert_same_points(
        &contact.points,
        &[
            Vec2::new(0.0, -BULLET_RADIUS),
            Vec2::new(0.0, BULLET_RADIUS),
        ],
    );
    assert_eq!(last_frame::<ContactStarted>(&app).len(), 1);
    // Next run the bullet is apart from the wall all along its path: the contact ends.
    app.update();
    assert!(contact_between(&app, bullet, wall).is_none());
    assert_eq!(last_frame::<ContactEnded>(&app).len(), 1);

    // Touching last run, then leaving: the start of the path is last run's contact, which
    // ends now.
    move_bullet(&mut app, bullet, 1.0);
    assert!(contact_between(&app, bullet, wall).is_some());
    assert_eq!(last_frame::<ContactStarted>(&app).len(), 1);
    move_bullet(&mut app, bullet, 30.0);
    assert!(contact_between(&app, bullet, wall).is_none());
    assert_eq!(last_frame::<ContactEnded>(&app).len(), 1);
}

/// The same with an enemy that holds the bullet whole: an octagon moved onto the start of a
/// swept bullet's path holds its disc there, a contact of this run with no points; a bullet
/// leaving an octagon it was inside last run ends its contact.
#[test]
fn a_polygon_moved_onto_the_start_of_a_path_holds_it_there() {
    const ENEMY_RADIUS: f32 = 24.0;
    let mut app = app();
    let enemy = PolygonCollider::regular(ENEMY_RADIUS, 8);
    let (enemy, bullet) = move_onto_a_path_start(&mut app, enemy, 60.0);
    let contact = contact_between(&app, bullet, enemy).expect("met at the start of the path");
    assert_eq!(contact.impact, None, "inside from the start: no impact");
    assert!(contact.points.is_empty(), "{:?}", contact.points);
    assert_ne!(contact.containment, Containment::Neither);
    assert_eq!(last_frame::<ContactStarted>(&app).len(), 1);
    app.update();
    assert!(contact_between(&app, bullet, enemy).is_none());
    assert_eq!(last_frame::<ContactEnded>(&app).len(), 1);

    // Inside last run, then out in one step: last run's contact ends, and no other starts.
    move_bullet(&mut app, bullet, 5.0);
    assert!(contact_between(&app, bullet, enemy).is_some());
    move_bullet(&mut app, bullet, 40.0);
    assert!(contact_between(&app, bullet, enemy).is_none());
    assert_eq!(last_frame::<ContactEnded>(&app).len(), 1);
    assert!(last_frame::<ContactStarted>(&app).is_empty());
}

/// Spawns `collider` far away and a swept bullet at the origin, and runs twice (the bullet's
/// path now starts there, and the two have not met); then moves the collider onto the origin
/// and the bullet to `(bullet_x, 0)`, and runs once. Returns the collider and the bullet.
fn move_onto_a_path_start(app: &mut App, collider: impl Bundle, bullet_x: f32) -> (Entity, Entity) {
    let collider = app
        .world_mut()
        .spawn((collider, Transform::from_xyz(1000.0, 0.0, 0.0)))
        .id();
    let bullet = spawn_bullet(app, Vec2::ZERO, Vec2::ZERO, true);
    app.update();
    app.update();
    assert!(contact_between(app, bullet, collider).is_none());
    app.world_mut()
        .entity_mut(collider)
        .insert(Transform::from_xyz(0.0, 0.0, 0.0));
    move_bullet(app, bullet, bullet_x);
    (collider, bullet)
}

/// Moves `bullet` to `(x, 0)` and runs once.
fn move_bullet(app: &mut App, bullet: Entity, x: f32) {
    app.world_mut()
        .entity_mut(bullet)
        .insert(Transform::from_xyz(x, 0.0, 0.0));
    app.update();
}

/// After `jump`, a segment's `Swept` is a fresh one: no start, and no turn left over.
#[test]
fn a_jumped_segment_is_a_fresh_swept() {
    let mut app = app();
    let laser = app
        .world_mut()
        .spawn((
            SegmentCollider::new(Vec2::ZERO, Vec2::X),
            Swept::default(),
            Transform::default(),
        ))
        .id();
    app.update();
    let mut swept = app.world_mut().get_mut::<Swept>(laser).unwrap();
    assert!(swept.start().is_some(), "the run recorded a start");
    swept.jump();
    assert_eq!(*swept, Swept::default());
}

/// A ship teleported across a wall with `Swept::jump_with_descendants` takes its swept gun with
/// it, not through the wall; with `jump` on the ship alone, the gun sweeps the path it was
/// carried along, as its docs say.
#[test]
fn jumping_a_ship_with_its_descendants_jumps_its_swept_gun() {
    for with_descendants in [true, false] {
        let mut app = app();
        let wall = spawn_wall(&mut app);
        let ship = app
            .world_mut()
            .spawn((Transform::from_xyz(-30.0, 0.0, 0.0), Swept::default()))
            .id();
        let gun = app
            .world_mut()
            .spawn((
                CircleCollider::new(BULLET_RADIUS),
                Swept::default(),
                Transform::default(),
                ChildOf(ship),
            ))
            .id();
        app.update();
        let mut commands = app.world_mut().commands();
        let mut entity = commands.entity(ship);
        entity.insert(Transform::from_xyz(30.0, 0.0, 0.0));
        if with_descendants {
            entity.queue(Swept::jump_with_descendants);
        } else {
            entity.entry::<Swept>().and_modify(|mut swept| swept.jump());
        }
        app.world_mut().flush();
        app.update();
        assert_eq!(
            contact_between(&app, gun, wall).is_some(),
            !with_descendants,
            "with descendants: {with_descendants}"
        );
    }
}

/// A swept bullet that crosses a wall and the enemy behind it in one run makes both contacts;
/// [`Contacts::first_hit`] names the wall, whichever of the two was spawned first (contacts and
/// their events come in entity order, not in the order they were met).
#[test]
fn the_first_hit_along_a_path_is_the_nearest() {
    for wall_first in [true, false] {
        let mut app = app();
        app.add_systems(Update, fly);
        let spawn_enemy = |app: &mut App| {
            let enemy = (
                CircleCollider::new(10.0),
                Transform::from_xyz(40.0, 0.0, 0.0),
            );
            app.world_mut().spawn(enemy).id()
        };
        let (wall, enemy) = if wall_first {
            let wall = spawn_wall(&mut app);
            (wall, spawn_enemy(&mut app))
        } else {
            let enemy = spawn_enemy(&mut app);
            (spawn_wall(&mut app), enemy)
        };
        // Placed at x = −60 by the first update, at 60 by the second: through both.
        let bullet = spawn_bullet(&mut app, Vec2::new(-60.0, 0.0), Vec2::new(120.0, 0.0), true);
        app.update();
        app.update();
        let contacts = app.world().resource::<Contacts>();
        assert!(contacts.contains(bullet, wall) && contacts.contains(bullet, enemy));
        let first = contacts.first_hit(bullet).expect("a first hit");
        assert_eq!(
            first.other(bullet),
            Some(wall),
            "wall spawned first: {wall_first}"
        );
        let enemy_first = contacts.first_hit(enemy).expect("the enemy's first hit");
        assert_eq!(enemy_first.other(enemy), Some(bullet));
    }
}
