//! Spatial queries: a turret aims at the nearest target and fires a ray at it, and the mouse
//! picks what lies under it.
//!
//! `SpatialQuery` is a system param. It answers from the colliders as the pipeline last placed
//! them, so a system that wants this frame's positions runs after `CollisionSystems::Prepare`.
//! Headless, the "mouse" rests at a fixed point.
//!
//! ```sh
//! cargo run --example queries                 # a window
//! cargo run --example queries -- --headless   # 90 frames, then what happened
//! ```

#[path = "support/mod.rs"]
mod support;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_collision_events::prelude::*;

const FRAMES: u32 = 90;
/// The targets' radius.
pub const TARGET_RADIUS: f32 = 18.0;
/// The orbits' radii, one target on each.
const ORBIT_RADII: [f32; 4] = [120.0, 190.0, 250.0, 320.0];
/// How fast each orbit turns, in radians a second (counter-clockwise when positive).
const ORBIT_SPEEDS: [f32; 4] = [0.9, -0.6, 0.4, -0.3];
/// Where each orbit's target starts, in radians: a radian apart, so they do not line up.
const ORBIT_START_APART: f32 = 1.0;
/// Where the "mouse" rests without a window.
pub const HEADLESS_POINTER: Vec2 = Vec2::new(120.0, 0.0);
/// How far the turret looks for a target, and how far its ray reaches.
const RANGE: f32 = 1000.0;
/// The ring drawn round a picked target.
const PICKED_RING_RADIUS: f32 = TARGET_RADIUS + 6.0;
/// The spark drawn where the turret's ray meets its target.
const SPARK_RADIUS: f32 = 5.0;

/// A target circling the turret (at the origin).
#[derive(Component)]
pub struct Target {
    orbit: usize,
}

/// What the turret and the pointer found this frame.
#[derive(Resource, Default)]
pub struct Found {
    /// The nearest target, and where the turret's ray meets it.
    pub aim: Option<(Entity, RayCastHit)>,
    /// The colliders under the pointer.
    pub picked: Vec<Entity>,
}

fn main() {
    let mode = support::mode(FRAMES);
    let mut app = support::app(&mode, "queries: nearest, ray, pick");
    example(&mut app);
    support::draw(&mut app, draw_aim.after(aim_and_pick));
    support::run(app, mode, |world| {
        let found = world.resource::<Found>();
        if let Some((target, hit)) = found.aim {
            println!(
                "aiming at {target}, hit at {} ({:.1} px)",
                hit.point, hit.distance
            );
        }
        println!("under the pointer: {:?}", found.picked);
    });
}

/// The example, on a window's app or a headless one.
pub fn example(app: &mut App) {
    app.add_plugins(CollisionPlugin::default())
        .init_resource::<Found>()
        .add_systems(Startup, spawn)
        .add_systems(Update, orbit)
        .add_systems(PostUpdate, aim_and_pick.after(CollisionSystems::Prepare));
}

fn spawn(mut commands: Commands) {
    for orbit in 0..ORBIT_RADII.len() {
        commands.spawn((
            Target { orbit },
            CircleCollider::new(TARGET_RADIUS),
            Transform::from_translation(orbit_place(orbit, 0.0).extend(0.0)),
        ));
    }
}

fn orbit(mut targets: Query<(&mut Transform, &Target)>, time: Res<Time>) {
    for (mut transform, target) in &mut targets {
        transform.translation = orbit_place(target.orbit, time.elapsed_secs()).extend(0.0);
    }
}

/// Where the target of orbit `orbit` is `seconds` after the start.
fn orbit_place(orbit: usize, seconds: f32) -> Vec2 {
    let angle = seconds * ORBIT_SPEEDS[orbit] + ORBIT_START_APART * orbit as f32;
    Vec2::from_angle(angle) * ORBIT_RADII[orbit]
}

fn aim_and_pick(
    spatial: SpatialQuery,
    window: Query<&Window, With<PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform)>,
    mut found: ResMut<Found>,
) {
    let everything = SpatialQueryFilter::default();
    found.aim = spatial
        .nearest(Vec2::ZERO, RANGE, &everything)
        .and_then(|nearest| {
            let direction = Dir2::new(nearest.point).ok()?;
            let hit = spatial.cast_ray(Ray2d::new(Vec2::ZERO, direction), RANGE, &everything)?;
            Some((nearest.entity, hit))
        });
    // The pointer in the world, through the camera; headless, a fixed point.
    let pointer = match (window.single(), camera.single()) {
        (Ok(window), Ok((camera, transform))) => window
            .cursor_position()
            .and_then(|cursor| camera.viewport_to_world_2d(transform, cursor).ok()),
        _ => Some(HEADLESS_POINTER),
    };
    found.picked = pointer
        .map(|point| spatial.point_intersections(point, &everything))
        .unwrap_or_default();
}

/// The turret's ray to where it meets its target, and a ring round each collider under the
/// pointer.
fn draw_aim(found: Res<Found>, transforms: Query<&GlobalTransform>, mut gizmos: Gizmos) {
    if let Some((_, hit)) = found.aim {
        gizmos.line_2d(Vec2::ZERO, hit.point, Color::srgb(1.0, 0.2, 0.2));
        gizmos.circle_2d(hit.point, SPARK_RADIUS, Color::srgb(1.0, 0.9, 0.2));
    }
    for transform in transforms.iter_many(&found.picked) {
        let center = transform.translation().truncate();
        gizmos.circle_2d(center, PICKED_RING_RADIUS, Color::srgb(0.3, 1.0, 0.4));
    }
}
