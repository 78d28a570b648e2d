//! A small shoot-'em-up that shows `bevy_collision_events` at work: every collider kind, the
//! events a game reacts to, and a spark at every point where two outlines cross.
//!
//! - Your ship (a concave polygon): arrows or WASD to move, Space to fire bullets (circles) and
//!   homing missiles, X or Shift to fire the laser (a segment) that stops at the first thing it
//!   hits.
//! - Waves of enemies (concave stars that spin, orbs, scaled crabs) fire rings, bursts and fans
//!   of bullets; walls and blocks absorb shots from both sides. R restarts after a game over.
//! - C shows the colliders as the collision pipeline sees them (the crate's debug drawing).
//!
//! What it shows of the crate (see `game/mod.rs`, and `player.rs`, `enemies.rs`,
//! `collisions.rs`, `autopilot.rs`, `storm.rs` and `stats.rs` beside it, and `graphics.rs`):
//! - **Observers** of [`ContactStarted`], one per entity that cares:
//!   `commands.spawn(..).observe(enemy_hit)` on each enemy (a player bullet does damage),
//!   `.observe(ship_hit)` on the ship (an enemy bullet costs a life), `.observe(absorb_shot)`
//!   on each wall. `hit.entity` is the observed entity and `hit.other` what touched it, so no
//!   code asks "which of the two is the bullet?".
//! - **Messages**: a [`MessageReader<Contact>`] puts a spark on every crossing point, each frame,
//!   or, for a bullet's hit, where it struck ([`Contact::impact`]).
//! - **Sweeps**: every bullet is [`Swept`], so none passes through a wall or a small enemy
//!   between two frames, however fast it flies.
//! - **Spatial queries** ([`SpatialQuery`]): each homing missile turns towards the nearest
//!   enemy (`nearest`); the autopilot checks each move's line of fire with a ray cast
//!   (`cast_ray`: does the first thing up there belong to an enemy or a wall?) and fires the
//!   laser when an enemy is first in line.
//! - **Contact state**: the ship's [`CollidingEntities`] tells when a ram still lasts;
//!   [`Contacts::of`] gives the laser everything it touches this frame (it stops at the nearest
//!   point) and the ship the walls it is in; [`Contacts`] counts the contacts for the HUD.
//! - **Layers**: [`CollisionLayers`] keep shots from ever meeting shots, so thousands of bullets
//!   cost nothing between themselves; [`ColliderDisabled`] switches the laser off, and the ship
//!   after a game over.
//!
//! ```text
//! cargo run --release --example shooter                     # play in a window
//! cargo run --release --example shooter -- --autopilot      # watch the computer play
//! cargo run --release --example shooter -- --headless --frames 3600
//! cargo run --release --example shooter -- --autopilot --wave 4 --screenshot shot.png --frames 300
//! ```
//!
//! `--wave N` starts every game at wave N (every fifth wave is a storm of over ten thousand
//! bullets); `--debug` starts with the debug drawing on; `--record DIR` saves every frame from
//! `--record-from N` on as a PNG in DIR, the game stepping 1/30 s per frame whatever the
//! machine's speed (`docs/record.sh` turns them into the README's animation); `--no-msaa`
//! draws without anti-aliasing, much faster in a software renderer such as Xvfb's.
//!
//! With no display (no `DISPLAY` or `WAYLAND_DISPLAY` on Linux) it plays headless with the
//! autopilot and prints a summary instead of opening a window.

mod game;
mod graphics;

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::window::WindowResolution;
use bevy_collision_events::diagnostics::CollisionDiagnosticsPlugin;
use bevy_collision_events::prelude::*;

use game::{GamePlugin, Stats};
use graphics::{GraphicsPlugin, Recording};

/// Command-line options.
#[derive(Debug, Default)]
struct Options {
    headless: bool,
    autopilot: bool,
    frames: Option<u32>,
    screenshot: Option<String>,
    debug: bool,
    wave: Option<u32>,
    record: Option<String>,
    record_from: u32,
    no_msaa: bool,
}

impl Options {
    fn parse() -> Result<Self, String> {
        let mut options = Options::default();
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--headless" => options.headless = true,
                "--autopilot" => options.autopilot = true,
                "--debug" => options.debug = true,
                "--no-msaa" => options.no_msaa = true,
                "--frames" => {
                    let value = args.next().ok_or("--frames needs a number")?;
                    let frames = value.parse().map_err(|_| format!("bad --frames {value}"))?;
                    options.frames = Some(frames);
                }
                "--wave" => {
                    let value = args.next().ok_or("--wave needs a number")?;
                    let wave = value.parse().map_err(|_| format!("bad --wave {value}"))?;
                    options.wave = Some(wave);
                }
                "--screenshot" => {
                    options.screenshot = Some(args.next().ok_or("--screenshot needs a path")?);
                }
                "--record" => {
                    options.record = Some(args.next().ok_or("--record needs a folder")?);
                }
                "--record-from" => {
                    let value = args.next().ok_or("--record-from needs a number")?;
                    let from = value
                        .parse()
                        .map_err(|_| format!("bad --record-from {value}"))?;
                    options.record_from = from;
                }
                "--help" | "-h" => {
                    return Err(format!(
                        "usage: shooter [--headless] [--autopilot] [--frames N] [--wave N] \
                         [--screenshot PATH] [--debug] [--record DIR] [--record-from N] \
                         [--no-msaa]\n(every {}th wave is a storm)",
                        game::STORM_EVERY
                    ));
                }
                other => return Err(format!("unknown option {other}")),
            }
        }
        if options.record.is_some() && options.frames.is_none() {
            return Err("--record needs --frames: the last frame to save".into());
        }
        Ok(options)
    }
}

/// Whether a window can be opened here.
fn has_display() -> bool {
    if cfg!(target_os = "linux") {
        std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some()
    } else {
        true
    }
}

fn main() -> AppExit {
    let options = match Options::parse() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return AppExit::error();
        }
    };
    if options.headless || !has_display() {
        if !options.headless {
            println!("No display found: playing headless with the autopilot.");
        }
        run_headless(
            options.frames.unwrap_or(HEADLESS_FRAMES),
            options.wave.unwrap_or(1),
        );
        AppExit::Success
    } else {
        run_windowed(options)
    }
}

/// The same game with no window: the autopilot plays a fixed number of 1/60 s frames, then
/// the run is summed up.
fn run_headless(frames: u32, first_wave: u32) {
    let mut app = game::headless_app(first_wave);
    for _ in 0..frames {
        app.update();
    }
    println!("shooter, headless with the autopilot");
    print_summary(app.world(), false);
}

/// What happened in the run, and how fast.
fn print_summary(world: &World, windowed: bool) {
    let stats = world.resource::<Stats>();
    let game = world.resource::<game::Game>();
    println!("  frames                    {}", stats.frames);
    println!("  colliders at peak         {}", stats.peak_colliders);
    println!("  bullets on screen at peak {}", stats.peak_bullets);
    println!("  contacts                  {}", stats.total_contacts);
    println!("  bullet hits               {}", stats.hits);
    println!("  laser stops               {}", stats.laser_stops);
    println!("  kills                     {}", stats.kills);
    println!("  points (all games)        {}", stats.points);
    println!("  score (this game)         {}", game.score);
    println!("  wave                      {}", game.wave);
    println!("  lives lost                {}", stats.lives_lost);
    // A median with its decimals, or "none" without a frame to take it from.
    let shown = |median: Option<f32>, decimals: usize| {
        median.map_or("none".to_string(), |median| format!("{median:.decimals$}"))
    };
    if windowed {
        println!(
            "  frames per second         {} (median)",
            shown(stats.median_frame_rate(), 1)
        );
        println!(
            "  the same, {} bullets up {} (median of {} frames)",
            game::CROWD,
            shown(stats.median_crowded_frame_rate(), 1),
            stats.crowded_frame_seconds.len()
        );
    }
    println!(
        "  collision ms/frame        {} (median)",
        shown(stats.median_collision_ms(), 3)
    );
    println!(
        "  the same, {} bullets up {} (median of {} frames)",
        game::CROWD,
        shown(stats.median_crowded_collision_ms(), 3),
        stats.crowded_collision_ms.len()
    );
}

fn run_windowed(options: Options) -> AppExit {
    // A screenshot is taken after `--frames`, or 600 without; a recording ends there.
    let last_frame = options.frames.or(options
        .screenshot
        .as_ref()
        .map(|_| DEFAULT_SCREENSHOT_FRAME));
    let recording = options.record.map(|folder| Recording {
        folder,
        frames: options.record_from..=last_frame.unwrap_or(u32::MAX),
    });
    let recording_frames = recording.is_some();
    let mut app = App::new();
    app.add_plugins((
        DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "bevy_collision_events: shooter".into(),
                resolution: WindowResolution::new(
                    (2.0 * game::HALF_FIELD.x) as u32,
                    (2.0 * game::HALF_FIELD.y) as u32,
                ),
                ..default()
            }),
            ..default()
        }),
        CollisionPlugin::default(),
        CollisionDiagnosticsPlugin,
        GamePlugin {
            autopilot: options.autopilot,
            first_wave: options.wave.unwrap_or(1),
        },
        GraphicsPlugin {
            screenshot: options
                .screenshot
                .map(|path| (path, last_frame.unwrap_or(DEFAULT_SCREENSHOT_FRAME))),
            recording,
            msaa: if options.no_msaa {
                Msaa::Off
            } else {
                Msaa::Sample4
            },
            debug_drawing: options.debug,
        },
    ));
    if recording_frames {
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / RECORDING_FRAME_RATE,
        )));
    }
    if let Some(frames) = last_frame {
        app.insert_resource(FrameLimit(frames + SAVING_FRAMES))
            .insert_resource(Stats::keeping_timings())
            .add_systems(Last, stop_after_frame_limit);
    }
    app.run()
}

/// Frames a headless run plays where `--frames` does not say: a minute of the game.
const HEADLESS_FRAMES: u32 = 3600;
/// The frame whose screenshot is saved where `--frames` does not say.
const DEFAULT_SCREENSHOT_FRAME: u32 = 600;
/// Frames a recording plays per second: the game steps 1/this seconds per frame.
const RECORDING_FRAME_RATE: f64 = 30.0;
/// Frames past the last one asked for, for its screenshot to reach the disk.
const SAVING_FRAMES: u32 = 60;

/// Quits after this many frames, and sums the run up.
#[derive(Resource)]
struct FrameLimit(u32);

fn stop_after_frame_limit(world: &mut World) {
    let frames = world.resource::<bevy::diagnostic::FrameCount>().0;
    if frames == world.resource::<FrameLimit>().0 {
        println!("shooter, in a window");
        print_summary(world, true);
        world.write_message(AppExit::Success);
    }
}
