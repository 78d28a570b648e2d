//! One frame of the collision pipeline in a bullet-hell scene: 1,000, 10,000 and 50,000 moving
//! bullets (circles of radius 4, wrapping in a 1920 × 1080 field, never tested against each
//! other) against 64 octagon enemies, on one thread and on all threads.
//!
//! The plugin runs in a schedule of its own so that exactly its four stages are timed; bullets
//! move and transforms propagate outside the timed part. Prints a Markdown table of medians.
//!
//! ```text
//! cargo bench --bench scene
//! ```

use std::time::{Duration, Instant};

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_collision_events::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const FIELD: Vec2 = Vec2::new(1920.0, 1080.0);
const WARM_UP_FRAMES: usize = 20;
const MEASURED_FRAMES: usize = 100;

const PLAYER_BULLET: LayerMask = LayerMask::layer(0);
const ENEMY: LayerMask = LayerMask::layer(1);

/// The schedule the plugin runs in here, so that it can be timed alone.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
struct Collisions;

#[derive(Component)]
struct Velocity(Vec2);

/// When each stage boundary was passed this frame: before prepare, then after each stage.
#[derive(Resource, Default)]
struct StageClock([Option<Instant>; 5]);

fn mark<const BOUNDARY: usize>(mut clock: ResMut<StageClock>) {
    clock.0[BOUNDARY] = Some(Instant::now());
}

fn move_bullets(mut bullets: Query<(&mut Transform, &Velocity)>) {
    for (mut transform, velocity) in &mut bullets {
        let moved = (transform.translation.truncate() + velocity.0).rem_euclid(FIELD);
        transform.translation = moved.extend(0.0);
    }
}

fn scene(bullets: usize, threads: usize) -> App {
    let mut app = App::new();
    // Exactly `threads` compute threads: Bevy's default leaves a two-core machine only one.
    let mut task_pool_options = TaskPoolOptions::default();
    task_pool_options.compute.min_threads = threads;
    task_pool_options.compute.max_threads = threads;
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin { task_pool_options }),
        TransformPlugin,
        CollisionPlugin::new(Collisions),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / 60.0,
    )))
    .init_resource::<StageClock>()
    .add_systems(Update, move_bullets)
    .add_systems(
        Collisions,
        (
            mark::<0>.before(CollisionSystems::Prepare),
            mark::<1>
                .after(CollisionSystems::Prepare)
                .before(CollisionSystems::BroadPhase),
            mark::<2>
                .after(CollisionSystems::BroadPhase)
                .before(CollisionSystems::NarrowPhase),
            mark::<3>
                .after(CollisionSystems::NarrowPhase)
                .before(CollisionSystems::Events),
            mark::<4>.after(CollisionSystems::Events),
        ),
    );
    let mut rng = StdRng::seed_from_u64(50_000);
    let world = app.world_mut();
    for i in 0..64 {
        let position = Vec2::new(
            (i % 16) as f32 * FIELD.x / 16.0 + 60.0,
            (i / 16) as f32 * 120.0 + 600.0,
        );
        world.spawn((
            PolygonCollider::regular(8, 24.0),
            CollisionLayers::new(ENEMY, PLAYER_BULLET),
            Transform::from_translation(position.extend(0.0)),
        ));
    }
    for _ in 0..bullets {
        let position = Vec2::new(
            rng.random_range(0.0..FIELD.x),
            rng.random_range(0.0..FIELD.y),
        );
        let velocity = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU)) * 6.0;
        world.spawn((
            CircleCollider::new(4.0),
            CollisionLayers::new(PLAYER_BULLET, ENEMY),
            Transform::from_translation(position.extend(0.0)),
            Velocity(velocity),
        ));
    }
    app
}

/// What one configuration measured.
struct Measured {
    median: Duration,
    p90: Duration,
    contacts: usize,
    /// Median time of each stage: prepare, broad phase, narrow phase, events.
    stages: [Duration; 4],
}

/// Median and 90th percentile of the pipeline's time per frame, the mean contact count, and
/// the median of each stage.
fn measure(bullets: usize, threads: usize) -> Measured {
    let mut app = scene(bullets, threads);
    let mut times = Vec::with_capacity(MEASURED_FRAMES);
    let mut stages: [Vec<Duration>; 4] = Default::default();
    let mut contacts = 0;
    for frame in 0..WARM_UP_FRAMES + MEASURED_FRAMES {
        app.update();
        let start = Instant::now();
        app.world_mut().run_schedule(Collisions);
        let elapsed = start.elapsed();
        if frame >= WARM_UP_FRAMES {
            times.push(elapsed);
            contacts += app.world().resource::<Contacts>().len();
            let marks = app.world().resource::<StageClock>().0;
            for (stage, times) in stages.iter_mut().enumerate() {
                if let (Some(from), Some(to)) = (marks[stage], marks[stage + 1]) {
                    times.push(to.duration_since(from));
                }
            }
        }
    }
    let median = |times: &mut Vec<Duration>| {
        times.sort();
        times.get(times.len() / 2).copied().unwrap_or_default()
    };
    times.sort();
    Measured {
        median: times[times.len() / 2],
        p90: times[times.len() * 9 / 10],
        contacts: contacts / MEASURED_FRAMES,
        stages: stages.each_mut().map(median),
    }
}

/// Set in a child process: the compute threads to measure with.
const THREADS_VARIABLE: &str = "SCENE_BENCH_THREADS";

/// Bevy's task pools are process-wide and set once, so each thread count is measured in a
/// process of its own: this one re-runs itself with [`THREADS_VARIABLE`] set.
fn main() {
    if let Some(threads) = std::env::var(THREADS_VARIABLE)
        .ok()
        .and_then(|threads| threads.parse().ok())
    {
        print_rows(threads);
        return;
    }
    let all_threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "| bullets | threads | median ms/frame | p90 ms/frame | ns per collider | contacts/frame \
         | prepare | broad | narrow | events |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut rows = Vec::new();
    for threads in [1, all_threads] {
        let child = std::process::Command::new(std::env::current_exe().expect("own path"))
            .env(THREADS_VARIABLE, threads.to_string())
            .output()
            .expect("the bench can run itself");
        let text = String::from_utf8_lossy(&child.stdout).into_owned();
        print!("{text}");
        rows.extend(text.lines().map(str::to_owned));
    }
    println!();
    println!("Stage columns: median ms of each stage of the pipeline.");
    // Columns: bullets, threads, median, p90, ns per collider.
    let ns_per_collider = |bullets: &str| {
        rows.iter().find_map(|row| {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            (cells.get(1) == Some(&bullets) && cells.get(2) == Some(&"1"))
                .then(|| cells.get(5)?.parse::<f64>().ok())
                .flatten()
        })
    };
    if let (Some(at_10k), Some(at_50k)) = (ns_per_collider("10000"), ns_per_collider("50000")) {
        println!(
            "One thread: time per collider at 50,000 is {:.2}× that at 10,000.",
            at_50k / at_10k
        );
    }
}

/// Measures every size with `threads` compute threads and prints one table row each.
fn print_rows(threads: usize) {
    let ms = |time: Duration| format!("{:.3}", time.as_secs_f64() * 1e3);
    for bullets in [1_000, 10_000, 50_000] {
        let measured = measure(bullets, threads);
        let ns = measured.median.as_secs_f64() * 1e9 / (bullets + 64) as f64;
        let [prepare, broad, narrow, events] = measured.stages.map(ms);
        println!(
            "| {bullets} | {threads} | {} | {} | {ns:.1} | {} | {prepare} | {broad} | {narrow} \
             | {events} |",
            ms(measured.median),
            ms(measured.p90),
            measured.contacts,
        );
    }
}
