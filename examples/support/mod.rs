//! What the focused examples share: a window where there is a display, or, with `--headless`
//! (or no display), a fixed number of frames run without one, for the example to print what
//! happened. In a window, `--screenshot PATH` saves a picture after `--frames N` frames and
//! quits. Not an example itself.

#![allow(dead_code, reason = "each example uses the parts it needs")]

use bevy::diagnostic::FrameCount;
use bevy::ecs::system::ScheduleSystem;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::time::TimeUpdateStrategy;
use bevy_collision_events::debug::CollisionDebugPlugin;
use std::time::Duration;

/// Frames given a screenshot to reach the disk before the app quits.
const SCREENSHOT_FRAMES: u32 = 10;

/// How an example runs.
pub enum Mode {
    /// In a window, until it is closed, or until a screenshot is saved.
    Window { screenshot: Option<(String, u32)> },
    /// Without a window, for this many frames.
    Headless { frames: u32 },
}

/// `--headless` (or no display) runs `frames` frames without a window; `--frames N` sets how
/// many.
pub fn mode(frames: u32) -> Mode {
    let arguments: Vec<String> = std::env::args().collect();
    // Only Linux says so in its environment; elsewhere there is always a display.
    let display = !cfg!(target_os = "linux")
        || std::env::var_os("DISPLAY").is_some()
        || std::env::var_os("WAYLAND_DISPLAY").is_some();
    let frames = arguments
        .iter()
        .position(|argument| argument == "--frames")
        .and_then(|at| arguments.get(at + 1)?.parse().ok())
        .unwrap_or(frames);
    let screenshot = arguments
        .iter()
        .position(|argument| argument == "--screenshot")
        .and_then(|at| Some((arguments.get(at + 1)?.clone(), frames)));
    if arguments.iter().any(|argument| argument == "--headless") || !display {
        Mode::Headless { frames }
    } else {
        Mode::Window { screenshot }
    }
}

/// The app to run in `mode`: see [`window_app`] and [`headless_app`]; in a window, with
/// `CollisionDebugPlugin` drawing the colliders.
pub fn app(mode: &Mode, title: &str) -> App {
    let mut app = app_without_drawing(mode, title);
    if matches!(mode, Mode::Window { .. }) {
        app.add_plugins(CollisionDebugPlugin);
    }
    app
}

/// [`app`] without the debug drawing, for the example that shows it.
pub fn app_without_drawing(mode: &Mode, title: &str) -> App {
    match mode {
        Mode::Window { screenshot } => {
            let mut app = window_app(title);
            if let Some((path, frame)) = screenshot.clone() {
                app.add_systems(
                    Update,
                    move |mut commands: Commands,
                          frames: Res<FrameCount>,
                          mut exit: MessageWriter<AppExit>| {
                        if frames.0 == frame {
                            commands
                                .spawn(Screenshot::primary_window())
                                .observe(save_to_disk(path.clone()));
                        } else if frames.0 == frame + SCREENSHOT_FRAMES {
                            exit.write(AppExit::Success);
                        }
                    },
                );
            }
            app
        }
        Mode::Headless { .. } => headless_app(),
    }
}

/// Adds `systems` that draw with gizmos to `PostUpdate`, in a window only: order each after
/// the system whose results it draws, so that it draws this frame's.
pub fn draw<M>(app: &mut App, systems: impl IntoScheduleConfigs<ScheduleSystem, M>) {
    if app.is_plugin_added::<CollisionDebugPlugin>() {
        app.add_systems(PostUpdate, systems);
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
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(window),
        ..default()
    }))
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
        Mode::Window { .. } => {
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
