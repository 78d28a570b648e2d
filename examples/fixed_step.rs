//! The fixed time step: a game that moves its colliders in `FixedUpdate` runs the pipeline in
//! `FixedPostUpdate`, so each step tests the colliders where that step left them.
//!
//! The fixed step here runs at 30 Hz while frames come at 60 (in a window, as fast as the
//! screen allows): some frames run no step, some one. A ball rolls through a row of pads a
//! step at a time, and round again, and a reader in `FixedUpdate` sees each `ContactStarted`
//! once.
//!
//! ```sh
//! cargo run --example fixed_step                 # a window
//! cargo run --example fixed_step -- --headless   # 240 frames, then what happened
//! ```

#[path = "support/mod.rs"]
mod support;

use bevy::prelude::*;
use bevy_collision_events::prelude::*;

const FRAMES: u32 = 240;
/// How many fixed steps run a second.
pub const STEPS_PER_SECOND: f64 = 30.0;
/// Where the ball starts, left of the pads: a pixel off the grid of its steps, so that no step
/// leaves it exactly touching a pad (where rounding would decide).
pub const BALL_START_X: f32 = -401.0;
/// The ball's radius.
pub const BALL_RADIUS: f32 = 12.0;
/// How fast the ball rolls, in pixels a second: 6 each fixed step.
pub const BALL_SPEED: f32 = 180.0;
/// The pads' radius.
pub const PAD_RADIUS: f32 = 16.0;
/// Where the pads lie, in a row across the ball's path.
pub const PAD_X: [f32; 6] = [-300.0, -180.0, -60.0, 60.0, 180.0, 300.0];
/// The right edge of the examples' window (960 px wide, centred on the origin).
const SCREEN_EDGE_X: f32 = 480.0;

/// The ball rolling through the pads.
#[derive(Component)]
pub struct Ball;

/// What the fixed steps saw.
#[derive(Resource, Default)]
pub struct Steps {
    /// How many fixed steps ran.
    pub run: usize,
    /// How many `ContactStarted` the reader in `FixedUpdate` saw.
    pub pads_touched: usize,
}

fn main() {
    let mode = support::mode(FRAMES);
    let mut app = support::app(&mode, "fixed step: collisions in FixedPostUpdate");
    example(&mut app);
    support::run(app, mode, |world| {
        let steps = world.resource::<Steps>();
        println!(
            "{} fixed steps in {FRAMES} frames; the ball touched {} pads",
            steps.run, steps.pads_touched
        );
    });
}

/// The example, on a window's app or a headless one.
pub fn example(app: &mut App) {
    app.add_plugins(CollisionPlugin::new(FixedPostUpdate))
        .insert_resource(Time::<Fixed>::from_hz(STEPS_PER_SECOND))
        .init_resource::<Steps>()
        .add_systems(Startup, spawn)
        .add_systems(FixedUpdate, (count_pads, roll).chain());
}

fn spawn(mut commands: Commands) {
    commands.spawn((
        Ball,
        CircleCollider::new(BALL_RADIUS),
        Transform::from_xyz(BALL_START_X, 0.0, 0.0),
    ));
    for x in PAD_X {
        commands.spawn((
            CircleCollider::new(PAD_RADIUS),
            Transform::from_xyz(x, 0.0, 0.0),
        ));
    }
}

/// In `FixedUpdate`, `Time` is the fixed clock: the same move each step. Once off the screen,
/// the ball comes round again from the left.
fn roll(time: Res<Time>, mut ball: Single<&mut Transform, With<Ball>>, mut steps: ResMut<Steps>) {
    let x = &mut ball.translation.x;
    *x += BALL_SPEED * time.delta_secs();
    if *x > SCREEN_EDGE_X + BALL_RADIUS {
        *x = -(SCREEN_EDGE_X + BALL_RADIUS);
    }
    steps.run += 1;
}

/// Read in `FixedUpdate`: the messages of the steps before this one, each once.
fn count_pads(mut started: MessageReader<ContactStarted>, mut steps: ResMut<Steps>) {
    for start in started.read() {
        steps.pads_touched += 1;
        info!(
            "step {}: {} touched {}",
            steps.run, start.entity, start.other
        );
    }
}
