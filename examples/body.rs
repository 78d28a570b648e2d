//! Multi-part bodies: a boss made of a weak point and two armour plates, one observer for all.
//!
//! The boss entity is a `CollisionBody`; its colliders are on its children. A part's
//! `ContactStarted` goes on from the part to the boss, so one observer on the boss sees every
//! hit, and `original_event_target` says which part was hit. The plates overlap the weak
//! point, yet two parts of one body make no contact (unless the body's
//! `contacts_between_parts` asks for them). Rows of bullets rise into the boss; each stops at
//! the part it touches.
//!
//! ```sh
//! cargo run --example body                 # a window
//! cargo run --example body -- --headless   # 240 frames, then what happened
//! ```

#[path = "support/mod.rs"]
mod support;

use bevy::prelude::*;
use bevy::time::common_conditions::on_timer;
use bevy_collision_events::prelude::*;
use std::time::Duration;

const FRAMES: u32 = 240;
/// Where the boss is.
pub const BOSS_AT: Vec2 = Vec2::new(0.0, 100.0);
/// The weak point: a circle at the boss's centre.
pub const WEAK_POINT_RADIUS: f32 = 20.0;
/// The armour: a plate either side, lower, overlapping the weak point.
pub const ARMOUR_SIZE: Vec2 = Vec2::new(40.0, 20.0);
/// The right plate's centre from the boss's (the left one's is its mirror image).
pub const ARMOUR_OFFSET: Vec2 = Vec2::new(28.0, -20.0);
/// A row of bullets: their x, rising from [`ROW_Y`].
pub const ROW_X: [f32; 13] = [
    -60.0, -50.0, -40.0, -30.0, -20.0, -10.0, 0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0,
];
/// Where the rows start.
pub const ROW_Y: f32 = -300.0;
/// Time between two rows; the first is fired at once.
pub const ROW_EVERY: Duration = Duration::from_millis(650);
/// The bullets' radius.
pub const BULLET_RADIUS: f32 = 3.0;
/// How fast a bullet rises, in pixels a second.
pub const BULLET_SPEED: f32 = 300.0;
/// The bullets' layer: they look for the boss only, not for each other.
const SHOT: LayerMask = LayerMask::layer(0);
/// The boss's parts' layer.
const BOSS: LayerMask = LayerMask::layer(1);
/// Bullets above this are past the top of the screen (300 px up), and gone.
const TOP: f32 = 400.0;

/// Which part of the boss is which.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The circle at the centre.
    WeakPoint,
    /// A plate either side.
    Armour,
}

/// What the boss's observer counted.
#[derive(Resource, Default)]
pub struct Hits {
    /// Bullets stopped by the weak point.
    pub weak_point: usize,
    /// Bullets stopped by a plate.
    pub armour: usize,
}

#[derive(Component)]
struct Bullet;

fn main() {
    let mode = support::mode(FRAMES);
    let mut app = support::app(&mode, "body: a boss of three parts");
    example(&mut app);
    support::run(app, mode, |world| {
        let hits = world.resource::<Hits>();
        println!(
            "the boss took {} hits on its weak point and {} on its armour",
            hits.weak_point, hits.armour
        );
    });
}

/// The example, on a window's app or a headless one.
pub fn example(app: &mut App) {
    app.add_plugins(CollisionPlugin::default())
        .init_resource::<Hits>()
        .add_systems(Startup, (spawn_boss, fire))
        .add_systems(Update, (fire.run_if(on_timer(ROW_EVERY)), rise));
}

fn spawn_boss(mut commands: Commands) {
    commands
        .spawn((
            CollisionBody::default(),
            Transform::from_translation(BOSS_AT.extend(0.0)),
        ))
        .with_children(|boss| {
            boss.spawn((
                Part::WeakPoint,
                CircleCollider::new(WEAK_POINT_RADIUS),
                CollisionLayers::new(BOSS, SHOT),
                Transform::default(),
            ));
            for side in [-1.0, 1.0] {
                let offset = ARMOUR_OFFSET * Vec2::new(side, 1.0);
                boss.spawn((
                    Part::Armour,
                    PolygonCollider::rectangle(ARMOUR_SIZE.x, ARMOUR_SIZE.y),
                    CollisionLayers::new(BOSS, SHOT),
                    Transform::from_translation(offset.extend(0.0)),
                ));
            }
        })
        // One observer for every part: the hit part is where the event started.
        .observe(
            |hit: On<ContactStarted>,
             parts: Query<&Part>,
             bullets: Query<(), With<Bullet>>,
             mut hits: ResMut<Hits>,
             mut commands: Commands| {
                // A bullet that meets two parts in one run stops at the one whose trigger
                // comes first (in entity order): its despawn is applied before the next
                // trigger. For the part met first along a fast bullet's path, make the
                // bullets `Swept` and ask `Contacts::first_hit`, as the shooter does.
                if !bullets.contains(hit.other) {
                    return;
                }
                match parts.get(hit.original_event_target()) {
                    Ok(Part::WeakPoint) => hits.weak_point += 1,
                    Ok(Part::Armour) => hits.armour += 1,
                    Err(_) => return,
                }
                commands.entity(hit.other).try_despawn();
            },
        );
}

/// A row of bullets at the bottom: at the start, then every [`ROW_EVERY`].
fn fire(mut commands: Commands) {
    for x in ROW_X {
        commands.spawn((
            Bullet,
            CircleCollider::new(BULLET_RADIUS),
            CollisionLayers::new(SHOT, BOSS),
            Transform::from_xyz(x, ROW_Y, 0.0),
        ));
    }
}

/// Each bullet rises; one that met nothing is gone once off the screen.
fn rise(
    mut commands: Commands,
    time: Res<Time>,
    mut bullets: Query<(Entity, &mut Transform), With<Bullet>>,
) {
    for (bullet, mut transform) in &mut bullets {
        transform.translation.y += BULLET_SPEED * time.delta_secs();
        if transform.translation.y > TOP {
            commands.entity(bullet).despawn();
        }
    }
}
