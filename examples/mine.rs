//! Observers: a mine that removes whatever touches it.
//!
//! An observer on the mine entity runs for each `ContactStarted` triggered on it, with the
//! other entity of the pair: no system reads messages, and other entities' contacts never run
//! this code.
//! Drones cross the field in rows, and come round again from the left; those whose row passes
//! close enough are removed.
//!
//! ```sh
//! cargo run --example mine                 # a window
//! cargo run --example mine -- --headless   # 240 frames, then what happened
//! ```

#[path = "support/mod.rs"]
mod support;

use bevy::prelude::*;
use bevy_collision_events::prelude::*;

const FRAMES: u32 = 240;
/// The mine's radius.
pub const MINE_RADIUS: f32 = 40.0;
/// The drones' radius.
pub const DRONE_RADIUS: f32 = 10.0;
/// The drones' rows, from the bottom; each starts at the left edge.
pub const DRONE_ROWS: [f32; 7] = [-150.0, -80.0, -45.0, 0.0, 45.0, 80.0, 150.0];
const DRONE_START_X: f32 = -420.0;
/// Pixels a second.
const DRONE_SPEED: f32 = 240.0;
/// The right edge of the examples' window (960 px wide, centred on the origin).
const SCREEN_EDGE_X: f32 = 480.0;

/// A drone flying right.
#[derive(Component)]
pub struct Drone;

/// How many drones the mine removed.
#[derive(Resource, Default)]
pub struct Removed(pub usize);

fn main() {
    let mode = support::mode(FRAMES);
    let mut app = support::app(&mode, "mine: observers");
    example(&mut app);
    support::run(app, mode, |world| {
        let left = world.query::<&Drone>().iter(world).count();
        let removed = world.resource::<Removed>().0;
        println!("the mine removed {removed} drones; {left} fly on, out of its reach");
    });
}

/// The example, on a window's app or a headless one.
pub fn example(app: &mut App) {
    app.add_plugins(CollisionPlugin::default())
        .init_resource::<Removed>()
        .add_systems(Startup, spawn)
        .add_systems(Update, fly);
}

fn spawn(mut commands: Commands) {
    commands
        .spawn((CircleCollider::new(MINE_RADIUS), Transform::default()))
        .observe(
            |hit: On<ContactStarted>, mut commands: Commands, mut removed: ResMut<Removed>| {
                // `hit.entity` is the mine, `hit.other` what touched it.
                info!("the mine removed {}", hit.other);
                commands.entity(hit.other).try_despawn();
                removed.0 += 1;
            },
        );
    for y in DRONE_ROWS {
        commands.spawn((
            Drone,
            CircleCollider::new(DRONE_RADIUS),
            Transform::from_xyz(DRONE_START_X, y, 0.0),
        ));
    }
}

/// Each drone flies right; once off the screen, it comes round again from the left.
fn fly(time: Res<Time>, mut drones: Query<&mut Transform, With<Drone>>) {
    for mut transform in &mut drones {
        let x = &mut transform.translation.x;
        *x += DRONE_SPEED * time.delta_secs();
        if *x > SCREEN_EDGE_X + DRONE_RADIUS {
            *x = -(SCREEN_EDGE_X + DRONE_RADIUS);
        }
    }
}
