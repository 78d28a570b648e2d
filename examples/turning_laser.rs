//! Turning sweeps: a boss's laser swinging through a field of bullets, clearing every one it
//! passes over, though it turns 25° a frame (at 60 frames a second).
//!
//! The laser is a `SegmentCollider` with `Swept`: the pipeline sweeps its whole turn between
//! two frames, not only where it ends up. At 25° a frame its tip jumps over 170 px between
//! poses; without `Swept` it would pass over most bullets without a contact. Each bullet it
//! meets is removed, by an observer on the laser. The field is laid out afresh every two
//! seconds.
//!
//! ```sh
//! cargo run --example turning_laser                 # a window
//! cargo run --example turning_laser -- --headless   # 60 frames, then what happened
//! ```

#[path = "support/mod.rs"]
mod support;

use bevy::prelude::*;
use bevy_collision_events::prelude::*;
use std::time::Duration;

const FRAMES: u32 = 60;
/// The laser's length, from the boss at the origin.
pub const LASER_LENGTH: f32 = 400.0;
/// How fast the laser turns, in radians a second: 25° a frame at 60 frames a second.
pub const LASER_TURN_SPEED: f32 = 25.0_f32.to_radians() * 60.0;
/// The most the laser turns in one frame. A sweep takes the shorter way round, so half a turn
/// or more between two runs (after a frame that took long) would be swept the wrong way: the
/// laser slows down instead.
pub const MAX_TURN_PER_FRAME: f32 = 90.0_f32.to_radians();
/// The bullet field: a square grid, this far apart...
pub const FIELD_SPACING: f32 = 40.0;
/// ...out to this far from the boss on either axis.
pub const FIELD_REACH: f32 = 480.0;
/// The bullets' radius.
pub const BULLET_RADIUS: f32 = 3.0;
/// The bullets' layer: they look for the laser only, not for each other.
const BULLETS: LayerMask = LayerMask::layer(0);
/// The laser's layer.
const LASERS: LayerMask = LayerMask::layer(1);
/// How often the field is laid out afresh, for the laser to clear again.
const REFILL_EVERY: Duration = Duration::from_secs(2);

/// A bullet of the field.
#[derive(Component)]
pub struct Bullet;

/// The laser.
#[derive(Component)]
pub struct Laser;

/// How many bullets the laser cleared.
#[derive(Resource, Default)]
pub struct Cleared(pub usize);

fn main() {
    let mode = support::mode(FRAMES);
    let mut app = support::app(&mode, "turning_laser: a swept laser clears a bullet field");
    example(&mut app);
    support::run(app, mode, |world| {
        let cleared = world.resource::<Cleared>().0;
        let left = world.query::<&Bullet>().iter(world).count();
        println!("the laser cleared {cleared} bullets; {left} are out of its reach");
    });
}

/// The example, on a window's app or a headless one.
pub fn example(app: &mut App) {
    app.add_plugins(CollisionPlugin::default())
        .init_resource::<Cleared>()
        .insert_resource(Refill(Timer::new(REFILL_EVERY, TimerMode::Repeating)))
        .add_systems(Startup, (spawn_laser, spawn_field))
        .add_systems(Update, (refill, turn_laser));
}

/// When the field is next laid out afresh.
#[derive(Resource)]
struct Refill(Timer);

fn spawn_laser(mut commands: Commands) {
    commands
        .spawn((
            Laser,
            SegmentCollider::new(Vec2::ZERO, Vec2::new(LASER_LENGTH, 0.0)),
            CollisionLayers::new(LASERS, BULLETS),
            Swept::default(),
            Transform::default(),
        ))
        .observe(
            |hit: On<ContactStarted>, mut commands: Commands, mut cleared: ResMut<Cleared>| {
                commands.entity(hit.other).try_despawn();
                cleared.0 += 1;
            },
        );
}

/// Every [`REFILL_EVERY`], the bullets left go and a new field is laid out.
fn refill(
    time: Res<Time>,
    mut timer: ResMut<Refill>,
    bullets: Query<Entity, With<Bullet>>,
    mut commands: Commands,
) {
    if timer.0.tick(time.delta()).just_finished() {
        for bullet in &bullets {
            commands.entity(bullet).despawn();
        }
        spawn_field(commands);
    }
}

/// A square grid of bullets round the boss.
fn spawn_field(mut commands: Commands) {
    let cells = (FIELD_REACH / FIELD_SPACING) as i32;
    for row in -cells..=cells {
        for column in -cells..=cells {
            let at = Vec2::new(column as f32, row as f32) * FIELD_SPACING;
            // Leave the boss room.
            if at.length() < FIELD_SPACING {
                continue;
            }
            commands.spawn((
                Bullet,
                CircleCollider::new(BULLET_RADIUS),
                CollisionLayers::new(BULLETS, LASERS),
                Transform::from_translation(at.extend(0.0)),
            ));
        }
    }
}

fn turn_laser(time: Res<Time>, mut laser: Single<&mut Transform, With<Laser>>) {
    laser.rotate_z((LASER_TURN_SPEED * time.delta_secs()).min(MAX_TURN_PER_FRAME));
}
