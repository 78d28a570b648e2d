//! A swept bullet flies into a concave enemy, which observes its own hits; where the bullet
//! first touched it, and where their outlines cross, are logged.

use bevy::prelude::*;
use bevy_collision_events::debug::CollisionDebugPlugin;
use bevy_collision_events::prelude::*;

const PLAYER_BULLET: LayerMask = LayerMask::layer(0);
const ENEMY: LayerMask = LayerMask::layer(1);
/// Pixels a second: 5 a frame at 60 frames a second. Being swept, it hits at any speed.
const BULLET_SPEED: f32 = 300.0;
const BULLET_RADIUS: f32 = 4.0;
/// Below the enemy, a little right of its centre line.
const BULLET_START: Vec3 = Vec3::new(8.0, -300.0, 0.0);
/// An arrowhead with a notch in its base: concave.
const ENEMY_OUTLINE: [Vec2; 4] = [
    Vec2::new(0.0, 30.0),
    Vec2::new(20.0, -20.0),
    Vec2::new(0.0, -5.0),
    Vec2::new(-20.0, -20.0),
];

#[derive(Component)]
struct Bullet;

fn main() {
    App::new()
        .add_plugins((
            DefaultPlugins,
            CollisionPlugin::default(),
            // Draws the colliders and the contact points (feature `debug-draw`).
            CollisionDebugPlugin,
        ))
        .add_systems(Startup, spawn)
        .add_systems(Update, fly)
        // After the events are written: this frame's contacts, not the last frame's.
        .add_systems(PostUpdate, on_hits.after(CollisionSystems::WriteEvents))
        .run();
}

fn spawn(mut commands: Commands) {
    commands.spawn(Camera2d);
    // On the bullets' layer, looking for enemies (the enemy is on its own, looking for
    // bullets): bullets are never even compared with each other. Swept: it cannot skip
    // past anything between two frames.
    commands.spawn((
        Bullet,
        CircleCollider::new(BULLET_RADIUS),
        CollisionLayers::new(PLAYER_BULLET, ENEMY),
        Swept::default(),
        Transform::from_translation(BULLET_START),
    ));
    // A concave enemy, with an observer of its own hits: the bullet that hits it is spent.
    commands
        .spawn((
            PolygonCollider::new(ENEMY_OUTLINE),
            CollisionLayers::new(ENEMY, PLAYER_BULLET),
            Transform::default(),
        ))
        .observe(|hit: On<ContactStarted>, mut commands: Commands| {
            info!("hit by {}", hit.other);
            commands.entity(hit.other).try_despawn();
        });
}

fn fly(time: Res<Time>, mut bullets: Query<&mut Transform, With<Bullet>>) {
    for mut transform in &mut bullets {
        transform.translation.y += BULLET_SPEED * time.delta_secs();
    }
}

fn on_hits(mut contacts: MessageReader<Contact>) {
    for contact in contacts.read() {
        // a, b: the entities; impact: where a swept pair first touched (in the run it hit);
        // points: where the outlines cross (none while one shape holds the other).
        let (a, b) = (contact.a, contact.b);
        if let Some(impact) = contact.impact {
            info!("{a} × {b} first touched at {}", impact.point);
        }
        for point in &contact.points {
            info!("{a} × {b} at {point}");
        }
    }
}
