//! Contact points: a laser that stops where it enters what it hits.
//!
//! The beam is a `SegmentCollider` as long as its range. Each frame its contacts
//! (`Contacts::of`) say where its outline crosses the targets' outlines; the nearest crossing to
//! the emitter is where the beam is cut. The targets drift up and down across it.
//!
//! ```sh
//! cargo run --example laser                 # a window
//! cargo run --example laser -- --headless   # 120 frames, then what happened
//! ```

#[path = "support/mod.rs"]
mod support;

use bevy::prelude::*;
use bevy_collision_events::prelude::*;

const FRAMES: u32 = 120;
/// Where the beam starts.
pub const EMITTER: Vec2 = Vec2::new(-400.0, 0.0);
/// How far the beam reaches when nothing is in its way.
pub const RANGE: f32 = 800.0;
/// The targets: a circle, a concave polygon and a box, spread along the beam.
pub const TARGET_X: [f32; 3] = [-150.0, 50.0, 250.0];
/// The circle target's radius.
pub const TARGET_RADIUS: f32 = 30.0;
/// Half the chevron's width and height; the tip of its notch is its centre.
pub const CHEVRON_HALF_SIZE: f32 = 40.0;
/// The targets' fastest drift (as they cross the beam), in pixels a second.
const DRIFT_SPEED: f32 = 120.0;
/// Where each target starts in its drift (radians of the cycle), so that they drift apart.
const DRIFT_PHASES: [f32; 3] = [0.0, 2.0, 4.0];
/// The third target, a box.
pub const BOX_SIZE: Vec2 = Vec2::new(60.0, 90.0);
/// How long the targets take to drift up, down and back, in seconds.
const DRIFT_PERIOD_SECONDS: f32 = 4.0;
/// The spark drawn where the beam ends.
const SPARK_RADIUS: f32 = 6.0;

/// The laser, and how far its beam reaches this frame.
#[derive(Component)]
pub struct Laser {
    /// From the emitter to where the beam is cut, or its range.
    pub visible_length: f32,
}

/// A target drifting up and down through the beam.
#[derive(Component)]
pub struct Target {
    phase: f32,
}

fn main() {
    let mode = support::mode(FRAMES);
    let mut app = support::app(&mode, "laser: contact points");
    example(&mut app);
    support::draw(&mut app, draw_beam.after(cut_the_beam));
    support::run(app, mode, |world| {
        let laser = world.query::<&Laser>().single(world).unwrap();
        println!("the beam reaches {:.1} px of {RANGE}", laser.visible_length);
    });
}

/// The example, on a window's app or a headless one.
pub fn example(app: &mut App) {
    app.add_plugins(CollisionPlugin::default())
        .add_systems(Startup, spawn)
        .add_systems(Update, drift)
        .add_systems(
            PostUpdate,
            cut_the_beam.after(CollisionSystems::WriteEvents),
        );
}

fn spawn(mut commands: Commands) {
    commands.spawn((
        Laser {
            visible_length: RANGE,
        },
        SegmentCollider::new(Vec2::ZERO, Vec2::new(RANGE, 0.0)),
        Transform::from_translation(EMITTER.extend(0.0)),
    ));
    commands.spawn((
        Target {
            phase: DRIFT_PHASES[0],
        },
        CircleCollider::new(TARGET_RADIUS),
        Transform::from_xyz(TARGET_X[0], drift_height(DRIFT_PHASES[0], 0.0), 0.0),
    ));
    // Concave: its notch faces the emitter, and the beam runs into it.
    let chevron = vec![
        Vec2::new(-CHEVRON_HALF_SIZE, -CHEVRON_HALF_SIZE),
        Vec2::new(CHEVRON_HALF_SIZE, -CHEVRON_HALF_SIZE),
        Vec2::new(CHEVRON_HALF_SIZE, CHEVRON_HALF_SIZE),
        Vec2::new(-CHEVRON_HALF_SIZE, CHEVRON_HALF_SIZE),
        Vec2::ZERO,
    ];
    commands.spawn((
        Target {
            phase: DRIFT_PHASES[1],
        },
        PolygonCollider::new(chevron),
        Transform::from_xyz(TARGET_X[1], drift_height(DRIFT_PHASES[1], 0.0), 0.0),
    ));
    commands.spawn((
        Target {
            phase: DRIFT_PHASES[2],
        },
        PolygonCollider::rectangle(BOX_SIZE.x, BOX_SIZE.y),
        Transform::from_xyz(TARGET_X[2], drift_height(DRIFT_PHASES[2], 0.0), 0.0),
    ));
}

fn drift(mut targets: Query<(&mut Transform, &Target)>, time: Res<Time>) {
    for (mut transform, target) in &mut targets {
        transform.translation.y = drift_height(target.phase, time.elapsed_secs());
    }
}

/// How high a target of drift phase `phase` is `seconds` after the start: swinging either
/// side of the beam, at [`DRIFT_SPEED`] as it crosses it.
fn drift_height(phase: f32, seconds: f32) -> f32 {
    let turn = std::f32::consts::TAU / DRIFT_PERIOD_SECONDS;
    DRIFT_SPEED / turn * (seconds * turn + phase).sin()
}

/// The beam ends at the crossing nearest the emitter, among the laser's contacts this frame.
fn cut_the_beam(contacts: Res<Contacts>, mut lasers: Query<(Entity, &mut Laser)>) {
    let Ok((laser, mut beam)) = lasers.single_mut() else {
        return;
    };
    beam.visible_length = contacts
        .of(laser)
        .filter_map(|contact| contact.nearest_point(EMITTER))
        .map(|point| point.distance(EMITTER))
        .fold(RANGE, f32::min);
}

fn draw_beam(lasers: Query<&Laser>, mut gizmos: Gizmos) {
    for laser in &lasers {
        let end = EMITTER + Vec2::X * laser.visible_length;
        gizmos.line_2d(EMITTER, end, Color::srgb(1.0, 0.2, 0.2));
        gizmos.circle_2d(end, SPARK_RADIUS, Color::srgb(1.0, 0.9, 0.2));
    }
}
