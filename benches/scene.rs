//! One frame of the collision pipeline in a bullet-hell scene: 1,000, 10,000 and 50,000 moving
//! bullets (circles of radius 4, wrapping in a 1920 × 1080 field, never tested against each
//! other) against 64 octagon enemies, on one thread and on all threads; the 50,000 again with
//! every bullet [`Swept`]; and again with one more enemy parked ten million pixels away (a far
//! outlier must not make the broad phase slower).
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
use serde::{Deserialize, Serialize};

const FIELD: Vec2 = Vec2::new(1920.0, 1080.0);
const WARM_UP_FRAMES: usize = 20;
const MEASURED_FRAMES: usize = 100;
/// The scenes measured: how many bullets, and how they differ from the plain rain.
const SCENES: [(usize, Variant); 5] = [
    (1_000, Variant::Plain),
    (10_000, Variant::Plain),
    (50_000, Variant::Plain),
    (50_000, Variant::Swept),
    (50_000, Variant::FarOutlier),
];

/// How a scene differs from the plain rain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Variant {
    Plain,
    /// Every bullet [`Swept`].
    Swept,
    /// One more enemy, at (1e7, 1e7).
    FarOutlier,
}

/// Where [`Variant::FarOutlier`] parks its extra enemy.
const FAR_AWAY: Vec2 = Vec2::splat(1e7);
/// Octagon enemies, the bullets' targets.
const ENEMIES: usize = 64;

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

fn move_bullets(mut bullets: Query<(&mut Transform, &Velocity, Option<&mut Swept>)>) {
    for (mut transform, velocity, swept) in &mut bullets {
        let ahead = transform.translation.truncate() + velocity.0;
        let moved = ahead.rem_euclid(FIELD);
        transform.translation = moved.extend(0.0);
        // Wrapping around the field is a jump, not a path across it.
        if moved != ahead
            && let Some(mut swept) = swept
        {
            swept.jump();
        }
    }
}

fn scene(bullets: usize, threads: usize, variant: Variant) -> App {
    let mut app = App::new();
    // Exactly `threads` compute threads: Bevy's default leaves a two-core machine only one.
    let mut task_pool_options = TaskPoolOptions::default();
    task_pool_options.compute.min_threads = threads;
    task_pool_options.compute.max_threads = threads;
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin { task_pool_options }),
        TransformPlugin,
        CollisionPlugin::new(Collisions).with_transform_propagation(false),
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
    for i in 0..ENEMIES {
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
    if variant == Variant::FarOutlier {
        world.spawn((
            PolygonCollider::regular(8, 24.0),
            CollisionLayers::new(ENEMY, PLAYER_BULLET),
            Transform::from_translation(FAR_AWAY.extend(0.0)),
        ));
    }
    for _ in 0..bullets {
        let position = Vec2::new(
            rng.random_range(0.0..FIELD.x),
            rng.random_range(0.0..FIELD.y),
        );
        let velocity = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU)) * 6.0;
        let mut bullet = world.spawn((
            CircleCollider::new(4.0),
            CollisionLayers::new(PLAYER_BULLET, ENEMY),
            Transform::from_translation(position.extend(0.0)),
            Velocity(velocity),
        ));
        if variant == Variant::Swept {
            bullet.insert(Swept::default());
        }
    }
    app
}

/// What one configuration measured, in milliseconds where it is a time.
#[derive(Serialize, Deserialize)]
struct Row {
    bullets: usize,
    variant: Variant,
    threads: usize,
    median_ms: f64,
    p90_ms: f64,
    /// The median frame divided by the collider count, in nanoseconds.
    ns_per_collider: f64,
    /// Mean contacts per frame.
    contacts: usize,
    /// Median time of each stage: prepare, broad phase, narrow phase, events.
    stages_ms: [f64; 4],
}

fn milliseconds(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}

/// Median and 90th percentile of the pipeline's time per frame, the mean contact count, and
/// the median of each stage.
fn measure((bullets, variant): (usize, Variant), threads: usize) -> Row {
    let mut app = scene(bullets, threads, variant);
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
    let frame = median(&mut times);
    Row {
        bullets,
        variant,
        threads,
        median_ms: milliseconds(frame),
        p90_ms: milliseconds(times[times.len() * 9 / 10]),
        ns_per_collider: frame.as_secs_f64() * 1e9 / (bullets + ENEMIES) as f64,
        contacts: contacts / MEASURED_FRAMES,
        stages_ms: stages.each_mut().map(|times| milliseconds(median(times))),
    }
}

/// Set in a child process: the compute threads to measure with.
const THREADS_VARIABLE: &str = "SCENE_BENCH_THREADS";

/// Bevy's task pools are process-wide and set once, so each thread count is measured in a
/// process of its own: this one re-runs itself with [`THREADS_VARIABLE`] set, and the child
/// hands back its rows as JSON.
fn main() {
    if let Some(threads) = std::env::var(THREADS_VARIABLE)
        .ok()
        .and_then(|threads| threads.parse().ok())
    {
        let rows: Vec<Row> = SCENES
            .iter()
            .map(|&scene| measure(scene, threads))
            .collect();
        println!("{}", serde_json::to_string(&rows).expect("rows serialise"));
        return;
    }
    let all_threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut rows = Vec::new();
    for threads in [1, all_threads] {
        let child = std::process::Command::new(std::env::current_exe().expect("own path"))
            .env(THREADS_VARIABLE, threads.to_string())
            .output()
            .expect("the bench can run itself");
        let measured: Vec<Row> = serde_json::from_slice(&child.stdout)
            .unwrap_or_else(|error| panic!("the {threads}-thread run failed: {error}"));
        rows.extend(measured);
    }
    print_table(&rows);
}

fn print_table(rows: &[Row]) {
    println!(
        "| bullets | scene | threads | median ms/frame | p90 ms/frame | ns per collider | contacts/frame \
         | prepare | broad | narrow | events |"
    );
    println!("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for row in rows {
        let [prepare, broad, narrow, events] = row.stages_ms;
        println!(
            "| {} | {} | {} | {:.3} | {:.3} | {:.1} | {} | {prepare:.3} | {broad:.3} \
             | {narrow:.3} | {events:.3} |",
            row.bullets,
            match row.variant {
                Variant::Plain => "rain",
                Variant::Swept => "rain, swept",
                Variant::FarOutlier => "rain, far outlier",
            },
            row.threads,
            row.median_ms,
            row.p90_ms,
            row.ns_per_collider,
            row.contacts,
        );
    }
    println!();
    println!("Stage columns: median ms of each stage of the pipeline.");
    let one_thread = |bullets: usize, variant: Variant| {
        rows.iter()
            .find(|row| row.bullets == bullets && row.variant == variant && row.threads == 1)
    };
    let plain_50k = one_thread(50_000, Variant::Plain);
    if let (Some(at_10k), Some(at_50k)) = (one_thread(10_000, Variant::Plain), plain_50k) {
        println!(
            "One thread: time per collider at 50,000 is {:.2}× that at 10,000.",
            at_50k.ns_per_collider / at_10k.ns_per_collider
        );
    }
    if let (Some(still), Some(swept)) = (plain_50k, one_thread(50_000, Variant::Swept)) {
        println!(
            "One thread: 50,000 swept bullets cost {:.2}× the same bullets unswept.",
            swept.median_ms / still.median_ms
        );
    }
    if let (Some(plain), Some(outlier)) = (plain_50k, one_thread(50_000, Variant::FarOutlier)) {
        println!(
            "One thread: one enemy parked far away makes the frame {:.2}× the plain rain's \
             (broad phase {:.2}×).",
            outlier.median_ms / plain.median_ms,
            outlier.stages_ms[1] / plain.stages_ms[1]
        );
    }
}
