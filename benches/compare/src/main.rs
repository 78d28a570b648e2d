//! The same scenes through `bevy_collision_events`, `avian2d` 0.7, `bevy_rapier2d` 0.36 and
//! Box2D 3.2 (through `boxdd` 0.6), timed side by side; prints a Markdown table.
//!
//! ```text
//! cargo run --release -p compare                                   # everything
//! cargo run --release -p compare -- --scene rain-10k --engine ours # a part
//! cargo run --release -p compare -- --queries                      # the query scene
//! ```
//!
//! Each scene also runs with `none`: the same bodies moved with no engine, whose frame is the
//! part every engine shares; the second table gives each engine's frame less that part, its
//! collision part.
//!
//! `--queries` runs the query scene instead ([`queries`]): rays and point queries through
//! each engine's spatial queries, timed, with their answers compared.
//!
//! Options, each repeatable: `--scene NAME` (`rain-1k`, `rain-10k`, `rain-50k`, `crossfire-10k`,
//! `mixed-5k`, `clump-10k`, `churn-10k`, `fast-5k`), `--engine NAME` (`ours`, `avian2d`,
//! `rapier2d`, `box2d`, `none`), `--threads N` (default: 1 and every thread the machine has).
//!
//! Box2D reports overlaps only between a sensor and a non-sensor, so it skips the scenes whose
//! bodies meet their own kind (`crossfire-10k`, `mixed-5k`): the table shows "—" there, with
//! the reason under it ([`Engine::cannot_run`]).
//!
//! `fast-5k` is 5,000 small bullets moving several times their size a frame through thin walls
//! and small targets, with each engine's own continuous collision detection on the bullets;
//! its contact starts are also checked against an exact count that no engine computes
//! ([`exact`]), and the table gives each engine's missed and extra hits.
//!
//! Every frame is one whole `app.update()` of an app with `MinimalPlugins`, `TransformPlugin`,
//! the engine, and the systems that move the scene, with a fixed time step. Each run (scene ×
//! engine × threads) happens in a child process of its own, because Bevy's task pools and
//! rayon's pool are set once per process.

mod engine;
mod exact;
mod measure;
mod queries;
mod scene;
mod shape;
mod started;
mod table;

use std::process::Command;

use engine::Engine;
use measure::{Measurement, measure};
use scene::Scene;

/// Set in a child process: the one run it makes, as `scene engine threads`.
const RUN_VARIABLE: &str = "COMPARE_RUN";

/// One run's settings and what it measured (`None` when the child process failed, or when the
/// engine cannot run the scene and it was skipped).
pub struct Run {
    /// The scene.
    pub scene: Scene,
    /// The engine.
    pub engine: Engine,
    /// Compute threads.
    pub threads: usize,
    /// The result.
    pub measurement: Option<Measurement>,
}

/// What the command line asked for.
struct Options {
    scenes: Vec<Scene>,
    engines: Vec<Engine>,
    threads: Vec<usize>,
}

impl Options {
    fn parse(mut arguments: impl Iterator<Item = String>) -> Result<Self, String> {
        let mut options = Self {
            scenes: Vec::new(),
            engines: Vec::new(),
            threads: Vec::new(),
        };
        while let Some(flag) = arguments.next() {
            let value = arguments
                .next()
                .ok_or_else(|| format!("{flag} needs a value"))?;
            match flag.as_str() {
                "--scene" => options
                    .scenes
                    .push(Scene::from_name(&value).ok_or(format!("no scene {value}"))?),
                "--engine" => options
                    .engines
                    .push(Engine::from_name(&value).ok_or(format!("no engine {value}"))?),
                "--threads" => options.threads.push(
                    value
                        .parse()
                        .ok()
                        .filter(|&threads| threads > 0)
                        .ok_or(format!("--threads takes a positive number, not {value}"))?,
                ),
                _ => return Err(format!("unknown option {flag}")),
            }
        }
        if options.scenes.is_empty() {
            options.scenes = Scene::ALL.to_vec();
        }
        if options.engines.is_empty() {
            options.engines = Engine::ALL.to_vec();
        }
        if options.threads.is_empty() {
            options.threads = vec![1];
            let all = std::thread::available_parallelism().map_or(1, |n| n.get());
            if all > 1 {
                options.threads.push(all);
            }
        }
        Ok(options)
    }
}

fn main() {
    if let Ok(run) = std::env::var(RUN_VARIABLE) {
        run_here(&run);
        return;
    }
    if std::env::args().any(|argument| argument == "--queries") {
        queries::run(&Engine::DETECTORS);
        return;
    }
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}\n(see the doc comment at the top of benches/compare/src/main.rs)");
            std::process::exit(2);
        }
    };
    let mut runs = Vec::new();
    for &scene in &options.scenes {
        for &threads in &options.threads {
            for &engine in &options.engines {
                eprint!(
                    "{} on {}, {threads} thread(s): ",
                    scene.name(),
                    engine.name()
                );
                if let Some(reason) = engine.cannot_run(scene) {
                    eprintln!("skipped: {reason}");
                    runs.push(Run {
                        scene,
                        engine,
                        threads,
                        measurement: None,
                    });
                    continue;
                }
                let measurement = run_in_child(scene, engine, threads);
                match &measurement {
                    Some(measured) => {
                        eprint!("median {:.3} ms", measured.median.as_secs_f64() * 1e3);
                        if let Some(cpu) = measured.cpu {
                            eprint!(" (CPU {:.3} ms)", cpu.as_secs_f64() * 1e3);
                        }
                        eprint!(", {} contact starts", measured.started.count);
                        match measured.hits {
                            Some(hits) => eprintln!(
                                "; of {} exact, {} missed, {} extra",
                                hits.exact, hits.missed, hits.extra
                            ),
                            None => eprintln!(),
                        }
                    }
                    None => eprintln!("failed"),
                }
                runs.push(Run {
                    scene,
                    engine,
                    threads,
                    measurement,
                });
            }
        }
    }
    table::print(&runs, &options.engines);
}

/// Runs one configuration in a fresh process of this binary and reads its result back.
fn run_in_child(scene: Scene, engine: Engine, threads: usize) -> Option<Measurement> {
    let output = Command::new(std::env::current_exe().ok()?)
        .env(
            RUN_VARIABLE,
            format!("{} {} {threads}", scene.name(), engine.name()),
        )
        // rapier (and parry under avian) split work with rayon's global pool; Box2D takes its
        // worker count from the compute pool that `measure` sizes from `threads`.
        .env("RAYON_NUM_THREADS", threads.to_string())
        .output()
        .ok()?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let measurement = stdout.lines().find_map(Measurement::parse);
    if measurement.is_none() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
        eprintln!("(child {}: {})", output.status, tail.join(" / "));
    }
    measurement
}

/// The child's side: measure the run named in [`RUN_VARIABLE`] and print its line.
fn run_here(run: &str) {
    let words: Vec<&str> = run.split(' ').collect();
    let (Some(scene), Some(engine), Some(threads)) = (
        words.first().and_then(|name| Scene::from_name(name)),
        words.get(1).and_then(|name| Engine::from_name(name)),
        words.get(2).and_then(|threads| threads.parse().ok()),
    ) else {
        eprintln!("{RUN_VARIABLE} must be `scene engine threads`, not {run:?}");
        std::process::exit(2);
    };
    println!("{}", measure(scene, engine, threads).to_line());
}
