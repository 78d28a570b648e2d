//! Spatial queries and bodies: hits name the part and its body, and a body left out by a
//! filter takes all its parts with it.

use crate::common::app;
use crate::queries::ask;
use bevy::prelude::*;
use bevy_collision_events::prelude::*;

/// The turret's base, a disc at the origin, and its barrel, a box along +x from the base.
const BASE_RADIUS: f32 = 20.0;
const BARREL_END: f32 = 60.0;
/// The enemy's two parts, a disc and a box beside it, centred on the x axis at these x.
const ENEMY_DISC_X: f32 = 200.0;
const ENEMY_BOX_X: f32 = 230.0;
const ENEMY_SIZE: f32 = 10.0;

/// A body of two parts, at `parts[0]` and `parts[1]`.
struct Body {
    body: Entity,
    parts: [Entity; 2],
}

/// The turret and the enemy, each a body of two parts, placed.
fn scene(app: &mut App) -> (Body, Body) {
    let bodies = spawn_scene(app.world_mut());
    app.update();
    bodies
}

/// The turret and the enemy, each a body of two parts.
fn spawn_scene(world: &mut World) -> (Body, Body) {
    let mut body = |first: (Vec2, CircleCollider), second: (Vec2, PolygonCollider)| {
        let body = world
            .spawn((CollisionBody::default(), Transform::default()))
            .id();
        let at = |place: Vec2| Transform::from_translation(place.extend(0.0));
        let parts = [
            world.spawn((first.1, at(first.0), ChildOf(body))).id(),
            world.spawn((second.1, at(second.0), ChildOf(body))).id(),
        ];
        Body { body, parts }
    };
    let turret = body(
        (Vec2::ZERO, CircleCollider::new(BASE_RADIUS)),
        (
            Vec2::new(BARREL_END / 2.0, 0.0),
            PolygonCollider::rectangle(BARREL_END, 6.0),
        ),
    );
    let enemy = body(
        (
            Vec2::new(ENEMY_DISC_X, 0.0),
            CircleCollider::new(ENEMY_SIZE),
        ),
        (
            Vec2::new(ENEMY_BOX_X, 0.0),
            PolygonCollider::rectangle(2.0 * ENEMY_SIZE, 2.0 * ENEMY_SIZE),
        ),
    );
    (turret, enemy)
}

/// A turret that is a body casts from inside itself: with itself left out, it finds the
/// enemy's nearer part, and the hit names the enemy's body; without, it finds itself at
/// distance zero. The same for a circle cast and the nearest collider, and with a predicate.
#[test]
fn a_body_left_out_takes_its_parts_and_hits_name_their_body() {
    let mut app = app();
    let (turret, enemy) = scene(&mut app);
    let shot = Ray2d::new(Vec2::ZERO, Dir2::X);
    let (own, others, cast, nearest, predicate, one_part) = ask(&mut app, move |query| {
        let everything = SpatialQueryFilter::default();
        let others = everything.clone().with_excluded([turret.body]);
        let one_part = everything.clone().with_excluded([turret.parts[0]]);
        (
            query.cast_ray(shot, 1000.0, &everything),
            query.cast_ray(shot, 1000.0, &others),
            query.cast_circle(Vec2::ZERO, 2.0, Dir2::X, 1000.0, &others),
            query.nearest(Vec2::ZERO, 1000.0, &others),
            query.cast_ray(shot, 1000.0, &(&others).with_predicate(|_| true)),
            query.cast_ray(shot, 1000.0, &one_part),
        )
    });
    let own = own.expect("the turret itself");
    assert_eq!((own.distance, own.body), (0.0, turret.body));
    assert!(turret.parts.contains(&own.entity));
    let disc_edge = ENEMY_DISC_X - ENEMY_SIZE;
    // Where each found the enemy: its part, its body, and how far the hit's edge is.
    for (entity, body, distance) in [
        others.map(|hit| (hit.entity, hit.body, hit.distance)),
        cast.map(|hit| (hit.entity, hit.body, hit.distance + 2.0)),
        nearest.map(|hit| (hit.entity, hit.body, hit.distance)),
        predicate.map(|hit| (hit.entity, hit.body, hit.distance)),
    ]
    .map(|hit| hit.expect("the enemy"))
    {
        assert_eq!((entity, body), (enemy.parts[0], enemy.body));
        assert!(
            (distance - disc_edge).abs() < 1e-3,
            "{distance} vs {disc_edge}"
        );
    }
    // Leaving out one part leaves the other: the barrel, where the ray starts.
    let barrel = one_part.expect("the barrel");
    assert_eq!((barrel.entity, barrel.body), (turret.parts[1], turret.body));
}

/// A query run after the prepare stage and before the search, in the run a body is spawned,
/// and in a run while the search is paused: each sees the body's parts as the colliders are
/// placed, and leaves them out with the body.
#[test]
fn a_query_after_prepare_sees_the_parts_placed_with_the_colliders() {
    /// What the cast found each run: the part it hit and its body.
    #[derive(Resource, Default)]
    struct Found(Vec<Option<(Entity, Entity)>>);
    /// The body the cast leaves out.
    #[derive(Resource)]
    struct Excluded(Entity);
    #[derive(Resource)]
    struct Paused(bool);
    fn cast(query: SpatialQuery, excluded: Res<Excluded>, mut found: ResMut<Found>) {
        let others = SpatialQueryFilter::default().with_excluded([excluded.0]);
        let hit = query.cast_ray(Ray2d::new(Vec2::ZERO, Dir2::X), 1000.0, &others);
        found.0.push(hit.map(|hit| (hit.entity, hit.body)));
    }
    let mut app = app();
    app.init_resource::<Found>()
        .insert_resource(Paused(false))
        .configure_sets(
            PostUpdate,
            CollisionSystems::FindContacts.run_if(|paused: Res<Paused>| !paused.0),
        )
        .add_systems(
            PostUpdate,
            cast.after(CollisionSystems::Prepare)
                .before(CollisionSystems::FindContacts),
        );
    let mut expected = Vec::new();
    for paused in [false, true] {
        app.insert_resource(Paused(paused));
        // Spawned for this run, after the last one's turret and enemy are gone.
        let world = app.world_mut();
        let old: Vec<Entity> = world
            .query_filtered::<Entity, With<CollisionBody>>()
            .iter(world)
            .collect();
        for body in old {
            world.entity_mut(body).despawn();
        }
        let (turret, enemy) = spawn_scene(world);
        app.insert_resource(Excluded(turret.body));
        app.update();
        expected.push(Some((enemy.parts[0], enemy.body)));
    }
    assert_eq!(app.world().resource::<Found>().0, expected);
}
