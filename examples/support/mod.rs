//! What the focused examples share: a window where there is a display, or, with `--headless`
//! (or no display), a fixed number of frames run without one, for the example to print what
//! happened. Not an example itself.

#![allow(dead_code, reason = "each example uses the parts it needs")]

use bevy::ecs::system::ScheduleSystem;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_collision_events::debug::CollisionDebugPlugin;
use std::time::Duration;

/// How an example runs.
pub enum Mode {
    /// In a window, until it is closed.
    Window,
    /// Without a window, for this many frames.
    Headless { frames: u32 },
}

/// `--headless` (or no display) runs `frames` frames without a window; `--frames N` sets how
/// many.
pub fn mode(frames: u32) -> Mode {
    let arguments: Vec<String> = std::env::args().collect();
    let display =
        std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some();
    let frames = arguments
        .iter()
        .position(|argument| argument == "--frames")
        .and_then(|at| arguments.get(at + 1)?.parse().ok())
        .unwrap_or(frames);
    if arguments.iter().any(|argument| argument == "--headless") || !display {
        Mode::Headless { frames }
    } else {
        Mode::Window
    }
}

/// The app to run in `mode`: see [`window_app`] and [`headless_app`].
pub fn app(mode: &Mode, title: &str) -> App {
    match mode {
        Mode::Window => window_app(title),
        Mode::Headless { .. } => headless_app(),
    }
}

/// Adds `systems` that draw with gizmos to `Update`, in a window only.
pub fn draw<M>(app: &mut App, systems: impl IntoScheduleConfigs<ScheduleSystem, M>) {
    if app.is_plugin_added::<CollisionDebugPlugin>() {
        app.add_systems(Update, systems);
    }
}

/// An app with a window and a 2D camera, showing what the collision pipeline sees.
pub fn window_app(title: &str) -> App {
    let mut app = App::new();
    let window = Window {
        title: title.to_owned(),
        resolution: (960, 600).into(),
        ..default()
    };
    app.add_plugins((
        DefaultPlugins.set(WindowPlugin {
            primary_window: Some(window),
            ..default()
        }),
        CollisionDebugPlugin,
    ))
    .add_systems(Startup, |mut commands: Commands| {
        commands.spawn(Camera2d);
    });
    app
}

/// An app without a window, each frame 1/60 s of game time.
pub fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 60.0,
        )));
    app
}

/// Runs `app` as `mode` says: `report` prints what happened after a headless run.
pub fn run(mut app: App, mode: Mode, report: impl FnOnce(&mut World)) {
    match mode {
        Mode::Window => {
            app.run();
        }
        Mode::Headless { frames } => {
            for _ in 0..frames {
                app.update();
            }
            report(app.world_mut());
        }
    }
}
