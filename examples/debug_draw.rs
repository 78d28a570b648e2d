//! Debug drawing: see what the collision pipeline sees.
//!
//! `CollisionDebugPlugin` (feature `debug-draw`) draws every collider's outline with Bevy's
//! gizmos, orange-red where it touches something, and marks contact points (and where a
//! `Swept` collider first touched: the `swept` example, in a window, shows those). What it
//! draws is `CollisionGizmos`, a gizmo config group: F1 switches the drawing on and off, F2 the
//! bounding circles. Headless, a timer presses the keys.
//!
//! ```sh
//! cargo run --example debug_draw                 # a window
//! cargo run --example debug_draw -- --headless   # 120 frames, then what happened
//! ```

#[path = "support/mod.rs"]
mod support;

use bevy::asset::AssetPlugin;
use bevy::gizmos::GizmoAsset;
use bevy::prelude::*;
use bevy_collision_events::debug::{CollisionDebugPlugin, CollisionGizmos};
use bevy_collision_events::prelude::*;

const FRAMES: u32 = 120;
/// Headless, a key is "pressed" every this many frames: F2, then F1.
pub const PRESS_EVERY: u32 = 50;
/// How fast the shapes turn, in radians a second.
const SPIN_PER_SECOND: f32 = 0.8;
/// The star's points, and how far its points and the notches between them reach.
const STAR_POINTS: usize = 5;
const STAR_OUTER: f32 = 90.0;
const STAR_INNER: f32 = 40.0;
/// A disc beside the star, which its points brush as it spins.
const DISC_AT: Vec2 = Vec2::new(100.0, 0.0);
const DISC_RADIUS: f32 = 30.0;
/// A segment across the scene, through the star.
const SEGMENT_ENDS: [Vec2; 2] = [Vec2::new(-200.0, -60.0), Vec2::new(200.0, 60.0)];
/// A box on its own, touching nothing.
const BOX_AT: Vec2 = Vec2::new(-220.0, 80.0);
const BOX_SIZE: Vec2 = Vec2::new(80.0, 40.0);

#[derive(Component)]
struct Spin;

fn main() {
    let mode = support::mode(FRAMES);
    let mut app =
        support::app_without_drawing(&mode, "debug drawing: F1 on/off, F2 bounding circles");
    if matches!(mode, support::Mode::Headless { .. }) {
        headless_keys(&mut app);
    }
    example(&mut app);
    support::run(app, mode, |world| {
        let (config, settings) = world
            .resource::<GizmoConfigStore>()
            .config::<CollisionGizmos>();
        println!(
            "drawing {}, bounding circles {}, {} contacts",
            config.enabled,
            settings.bounding_circles,
            world.resource::<Contacts>().len()
        );
    });
}

/// The example, on a window's app or a headless one (which [`headless_keys`] gave gizmos and
/// keys).
pub fn example(app: &mut App) {
    app.add_plugins((CollisionPlugin::default(), CollisionDebugPlugin))
        .add_systems(Startup, spawn)
        .add_systems(Update, (spin, keys));
}

fn spawn(mut commands: Commands) {
    let corners = 2 * STAR_POINTS;
    let star: Vec<Vec2> = (0..corners)
        .map(|k| {
            let reach = if k % 2 == 0 { STAR_OUTER } else { STAR_INNER };
            Vec2::from_angle(k as f32 * std::f32::consts::TAU / corners as f32) * reach
        })
        .collect();
    commands.spawn((Spin, PolygonCollider::new(star), Transform::default()));
    commands.spawn((
        CircleCollider::new(DISC_RADIUS),
        Transform::from_translation(DISC_AT.extend(0.0)),
    ));
    commands.spawn((
        SegmentCollider::new(SEGMENT_ENDS[0], SEGMENT_ENDS[1]),
        Transform::default(),
    ));
    commands.spawn((
        PolygonCollider::rectangle(BOX_SIZE.x, BOX_SIZE.y),
        Transform::from_translation(BOX_AT.extend(0.0)),
    ));
}

fn spin(mut spinning: Query<&mut Transform, With<Spin>>, time: Res<Time>) {
    for mut transform in &mut spinning {
        transform.rotate_z(SPIN_PER_SECOND * time.delta_secs());
    }
}

/// F1: the drawing on or off; F2: bounding circles. The store is changed only on a key press.
fn keys(keys: Res<ButtonInput<KeyCode>>, mut store: ResMut<GizmoConfigStore>) {
    if keys.just_pressed(KeyCode::F1) {
        let (config, _) = store.config_mut::<CollisionGizmos>();
        config.enabled = !config.enabled;
    }
    if keys.just_pressed(KeyCode::F2) {
        let (_, settings) = store.config_mut::<CollisionGizmos>();
        settings.bounding_circles = !settings.bounding_circles;
    }
}

/// Headless: what a window's app has and the example needs, Bevy's gizmo assets and the
/// keyboard's state, and a timer that presses F2, then F1, every [`PRESS_EVERY`] frames.
pub fn headless_keys(app: &mut App) {
    app.add_plugins(AssetPlugin::default())
        .init_asset::<GizmoAsset>()
        .init_resource::<ButtonInput<KeyCode>>()
        .add_systems(
            PreUpdate,
            |mut frame: Local<u32>, mut keyboard: ResMut<ButtonInput<KeyCode>>| {
                *frame += 1;
                keyboard.reset_all();
                if frame.is_multiple_of(PRESS_EVERY) {
                    let key = match *frame / PRESS_EVERY {
                        1 => KeyCode::F2,
                        _ => KeyCode::F1,
                    };
                    keyboard.press(key);
                }
            },
        );
}
