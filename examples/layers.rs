//! Layers and roles: bullets never meet bullets, and `by_layer` says which side is the bullet.
//!
//! Each collider is on some layers (its memberships) and looks for others (its filters); a pair
//! is tested only when each one looks for the other. Bullets look for enemies only, so the
//! broad phase never even compares two bullets, however they overlap. A contact's
//! `by_layer(BULLET)` gives `(bullet, enemy)` in that order.
//!
//! ```sh
//! cargo run --example layers                 # a window
//! cargo run --example layers -- --headless   # 180 frames, then what happened
//! ```

#[path = "support/mod.rs"]
mod support;

use bevy::prelude::*;
use bevy_collision_events::prelude::*;

const FRAMES: u32 = 180;
/// The bullets' layer.
pub const BULLET: LayerMask = LayerMask::layer(0);
/// The enemies' layer.
pub const ENEMY: LayerMask = LayerMask::layer(1);
/// A fan of bullets from two guns, crossing each other on the way up.
const GUNS: [Vec2; 2] = [Vec2::new(-200.0, -250.0), Vec2::new(200.0, -250.0)];
const BULLETS_PER_GUN: usize = 40;
const BULLET_RADIUS: f32 = 5.0;
/// How far each gun aims across the field: sideways per unit up, towards the other side.
const GUN_LEAN: f32 = 0.6;
/// How far apart a gun's bullets start, one behind the other along their headings.
const BULLET_GAP: f32 = 6.0;
/// Pixels a second.
const BULLET_SPEED: f32 = 300.0;
/// Where the enemies stand, in a row above the guns.
const ENEMY_X: [f32; 3] = [-250.0, 0.0, 250.0];
const ENEMY_Y: f32 = 150.0;
/// The enemies are hexagons of this circumradius.
const ENEMY_RADIUS: f32 = 40.0;
/// Bullets this far from the middle on either axis are off the screen, and gone.
const OFF_SCREEN: f32 = 600.0;

#[derive(Component)]
struct Velocity(Vec2);

/// Every hit, as `by_layer(BULLET)` names it: `(bullet, enemy)`.
#[derive(Resource, Default)]
pub struct Hits(pub Vec<(Entity, Entity)>);

fn main() {
    let mode = support::mode(FRAMES);
    let mut app = support::app(&mode, "layers: bullets never meet bullets");
    example(&mut app);
    support::run(app, mode, |world| {
        let hits = world.resource::<Hits>().0.len();
        println!("{hits} bullets hit an enemy");
    });
}

/// The example, on a window's app or a headless one.
pub fn example(app: &mut App) {
    app.add_plugins(CollisionPlugin::default())
        .init_resource::<Hits>()
        .add_systems(Startup, spawn)
        .add_systems(Update, fly)
        .add_systems(PostUpdate, record_hits.after(CollisionSystems::WriteEvents));
}

fn spawn(mut commands: Commands) {
    for x in ENEMY_X {
        commands.spawn((
            PolygonCollider::regular(ENEMY_RADIUS, 6),
            CollisionLayers::new(ENEMY, BULLET),
            Transform::from_xyz(x, ENEMY_Y, 0.0),
        ));
    }
    for (gun_index, gun) in GUNS.into_iter().enumerate() {
        for index in 0..BULLETS_PER_GUN {
            // Aimed across the field, towards the other side.
            let spread = index as f32 / BULLETS_PER_GUN as f32 - 0.5;
            let lean = if gun_index == 0 { GUN_LEAN } else { -GUN_LEAN };
            let heading = Vec2::new(lean + spread, 1.0).normalize();
            commands.spawn((
                CircleCollider::new(BULLET_RADIUS),
                CollisionLayers::new(BULLET, ENEMY),
                Transform::from_translation(
                    (gun - heading * index as f32 * BULLET_GAP).extend(0.0),
                ),
                Velocity(heading * BULLET_SPEED),
            ));
        }
    }
}

/// Each bullet flies on; one that met nothing is gone once off the screen.
fn fly(
    mut commands: Commands,
    time: Res<Time>,
    mut movers: Query<(Entity, &mut Transform, &Velocity)>,
) {
    for (bullet, mut transform, velocity) in &mut movers {
        transform.translation += (velocity.0 * time.delta_secs()).extend(0.0);
        if transform.translation.abs().max_element() > OFF_SCREEN {
            commands.entity(bullet).despawn();
        }
    }
}

/// A bullet that hits an enemy is spent: `by_layer` says which of the pair it is.
fn record_hits(
    mut commands: Commands,
    mut contacts: MessageReader<Contact>,
    mut hits: ResMut<Hits>,
) {
    for contact in contacts.read() {
        if let Some((bullet, enemy)) = contact.by_layer(BULLET) {
            commands.entity(bullet).try_despawn();
            hits.0.push((bullet, enemy));
        }
    }
}
