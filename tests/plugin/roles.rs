//! Reading a contact by role: which side is the bullet, whichever entity came first.

use crate::common::{app, last_frame};
use bevy::prelude::*;
use bevy_collision_events::prelude::*;

const SHOT: LayerMask = LayerMask::layer(1);
const ENEMY: LayerMask = LayerMask::layer(2);

#[derive(Component)]
struct Bullet;

#[derive(Component)]
struct Enemy;

/// The bullet and the enemy it overlaps, spawned in the given order.
fn spawn(app: &mut App, bullet_first: bool) -> (Entity, Entity) {
    let spawn_bullet = |app: &mut App| {
        app.world_mut()
            .spawn((
                Bullet,
                CircleCollider::new(3.0),
                CollisionLayers::new(SHOT, ENEMY),
                Transform::from_xyz(10.0, 0.0, 0.0),
            ))
            .id()
    };
    let spawn_enemy = |app: &mut App| {
        app.world_mut()
            .spawn((
                Enemy,
                PolygonCollider::regular(12.0, 6),
                CollisionLayers::new(ENEMY, SHOT),
                Transform::default(),
            ))
            .id()
    };
    if bullet_first {
        let bullet = spawn_bullet(app);
        (bullet, spawn_enemy(app))
    } else {
        let enemy = spawn_enemy(app);
        (spawn_bullet(app), enemy)
    }
}

/// What a system sees through `Contact::pick`, `ContactStarted::pick` and
/// `ContactEnded::pick`.
#[derive(Resource, Default)]
struct Picked(Vec<(Entity, Entity)>);

fn pick_bullets(
    mut contacts: MessageReader<Contact>,
    mut started: MessageReader<ContactStarted>,
    mut ended: MessageReader<ContactEnded>,
    bullets: Query<(), With<Bullet>>,
    mut picked: ResMut<Picked>,
) {
    picked
        .0
        .extend(contacts.read().filter_map(|c| c.pick(&bullets)));
    picked
        .0
        .extend(started.read().filter_map(|s| s.pick(&bullets)));
    picked
        .0
        .extend(ended.read().filter_map(|e| e.pick(&bullets)));
}

#[test]
fn by_layer_and_pick_name_the_bullet_first_in_both_entity_orders() {
    for bullet_first in [true, false] {
        let mut app = app();
        app.init_resource::<Picked>().add_systems(
            PostUpdate,
            pick_bullets.after(CollisionSystems::WriteEvents),
        );
        let (bullet, enemy) = spawn(&mut app, bullet_first);
        app.update();
        let contacts = last_frame::<Contact>(&app);
        assert_eq!(contacts.len(), 1);
        assert_eq!(contacts[0].by_layer(SHOT), Some((bullet, enemy)));
        assert_eq!(contacts[0].by_layer(ENEMY), Some((enemy, bullet)));
        assert_eq!(contacts[0].by_layer(LayerMask::layer(9)), None);
        // Once from the `Contact`, once from the `ContactStarted`.
        assert_eq!(
            app.world().resource::<Picked>().0,
            [(bullet, enemy), (bullet, enemy)]
        );
        // And once from the `ContactEnded`, as the bullet flies off.
        app.world_mut()
            .entity_mut(bullet)
            .insert(Transform::from_xyz(500.0, 0.0, 0.0));
        app.world_mut().resource_mut::<Picked>().0.clear();
        app.update();
        assert_eq!(app.world().resource::<Picked>().0, [(bullet, enemy)]);
    }
}

#[test]
fn a_contact_carries_both_sides_layers() {
    let mut app = app();
    let (bullet, _) = spawn(&mut app, false);
    let plain = app
        .world_mut()
        .spawn((
            CircleCollider::new(3.0),
            Transform::from_xyz(12.0, 0.0, 0.0),
        ))
        .id();
    app.update();
    let contacts = last_frame::<Contact>(&app);
    let with_plain = contacts
        .iter()
        .find(|c| c.involves(plain) && c.involves(bullet))
        .expect("a collider without layers touches everything");
    let plain_side = usize::from(with_plain.b == plain);
    assert_eq!(with_plain.layers[plain_side], CollisionLayers::ALL);
    assert_eq!(
        with_plain.layers[1 - plain_side],
        CollisionLayers::new(SHOT, ENEMY)
    );
}

/// `Contact::new` makes the contact the pipeline makes, for a game's own tests: two unit discs
/// 1.2 apart cross at (0.6, ±0.8), worked out by hand; given in either order, the lower entity
/// is `a`, and every field but the points' order equals the pipeline's.
#[test]
fn a_contact_made_by_hand_is_the_one_the_pipeline_makes() {
    let mut app = app();
    let world = app.world_mut();
    let left = world
        .spawn((CircleCollider::new(1.0), Transform::default()))
        .id();
    let right = world
        .spawn((CircleCollider::new(1.0), Transform::from_xyz(1.2, 0.0, 0.0)))
        .id();
    app.update();
    let found = last_frame::<Contact>(&app);
    let [found] = &found[..] else {
        panic!("one contact: {found:?}");
    };
    let crossings = [Vec2::new(0.6, 0.8), Vec2::new(0.6, -0.8)];
    assert_eq!(found.points.len(), crossings.len());
    for (first, second) in [(left, right), (right, left)] {
        let mut made = Contact::new(first, second, crossings);
        assert_eq!((made.a, made.b), (found.a, found.b));
        for point in &found.points {
            assert!(
                made.points.iter().any(|p| p.distance(*point) < 1e-5),
                "{point}"
            );
        }
        made.points = found.points.clone();
        assert_eq!(&made, found);
    }
}
