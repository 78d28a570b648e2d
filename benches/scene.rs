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

fn move_bullets(mut bullets: Query<(&mut Transform, &Velocity)>) {
    for (mut transform, velocity) in &mut bullets {
        let moved = (transform.translation.truncate() + velocity.0).rem_euclid(FIELD);
        transform.translation = moved.extend(0.0);
    }
}

fn scene(bullets: usize, threads: usize) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin {
            task_pool_options: TaskPoolOptions::with_num_threads(threads),
        }),
        TransformPlugin,
        CollisionPlugin::new(Collisions),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / 60.0,
    )))
    .add_systems(Update, move_bullets);
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

/// Median and 90th percentile of the pipeline's time per frame, and the mean contact count.
fn measure(bullets: usize, threads: usize) -> (Duration, Duration, usize) {
    let mut app = scene(bullets, threads);
    let mut times = Vec::with_capacity(MEASURED_FRAMES);
    let mut contacts = 0;
    for frame in 0..WARM_UP_FRAMES + MEASURED_FRAMES {
        app.update();
        let start = Instant::now();
        app.world_mut().run_schedule(Collisions);
        let elapsed = start.elapsed();
        if frame >= WARM_UP_FRAMES {
            times.push(elapsed);
            contacts += app.world().resource::<Contacts>().len();
        }
    }
    times.sort();
    (
        times[times.len() / 2],
        times[times.len() * 9 / 10],
        contacts / MEASURED_FRAMES,
    )
}

fn main() {
    // `cargo bench` passes `--bench`; a name filter is not supported, so ignore arguments.
    let all_threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "| bullets | threads | median ms/frame | p90 ms/frame | ns per collider | contacts/frame |"
    );
    println!("|---:|---:|---:|---:|---:|---:|");
    let mut per_collider = Vec::new();
    for threads in [1, all_threads] {
        for bullets in [1_000, 10_000, 50_000] {
            let (median, p90, contacts) = measure(bullets, threads);
            let ns = median.as_secs_f64() * 1e9 / (bullets + 64) as f64;
            per_collider.push(((bullets, threads), ns));
            println!(
                "| {bullets} | {threads} | {:.3} | {:.3} | {ns:.1} | {contacts} |",
                median.as_secs_f64() * 1e3,
                p90.as_secs_f64() * 1e3,
            );
        }
    }
    let ns = |key| {
        per_collider
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, ns)| *ns)
    };
    if let (Some(at_10k), Some(at_50k)) = (ns((10_000, 1)), ns((50_000, 1))) {
        println!();
        println!(
            "One thread: time per collider at 50,000 is {:.2}× that at 10,000.",
            at_50k / at_10k
        );
    }
}
