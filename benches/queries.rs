//! Spatial queries: the cost of one query against 10,000 and 100,000 colliders, and of a
//! frame's first query, which builds the index where colliders moved and keeps it where none
//! did.
//!
//! The colliders are discs of radius 4 (nine in ten) and octagons of radius 20, at the same
//! density in both scenes (the field grows with the count), on two layers. Each query kind runs
//! in batches of 1,000 seeded queries; the table gives the median of 15 batches per query, and
//! the ratio between the two sizes: a query that scanned every collider would cost ten times
//! more at 100,000, an indexed one about the same (a ray across the whole field grows with the
//! field's side, about three times).
//!
//! ```text
//! cargo bench --bench queries
//! ```

use std::time::{Duration, Instant};

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_collision_events::geometry::{Circle, Shape};
use bevy_collision_events::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const SIZES: [usize; 2] = [10_000, 100_000];
/// Colliders per square pixel: 10,000 in a 1920 × 1080 field.
const DENSITY: f32 = 10_000.0 / (1920.0 * 1080.0);
const QUERIES_PER_BATCH: usize = 1_000;
const BATCHES: usize = 15;
/// Frames whose index build is timed (the median is reported).
const BUILD_FRAMES: usize = 7;
/// A laser's length, for the bounded rays.
const LASER: f32 = 500.0;

const BULLET: LayerMask = LayerMask::layer(0);
const ENEMY: LayerMask = LayerMask::layer(1);

/// The query kinds measured, with their names in the table.
const KINDS: [&str; 7] = [
    "cast_ray, 500 px",
    "cast_ray, across the field",
    "ray_hits, 500 px",
    "cast_circle r 8, 500 px",
    "shape_intersections, disc r 50",
    "point_intersections",
    "nearest enemy, unbounded",
];

fn scene(count: usize) -> (App, f32) {
    let side = (count as f32 / DENSITY).sqrt();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin, CollisionPlugin::default()));
    let mut rng = StdRng::seed_from_u64(count as u64);
    for index in 0..count {
        let at = Vec3::new(
            rng.random_range(0.0..side),
            rng.random_range(0.0..side),
            0.0,
        );
        if index % 10 == 0 {
            app.world_mut().spawn((
                PolygonCollider::regular(20.0, 8),
                CollisionLayers::new(ENEMY, BULLET),
                Transform::from_translation(at),
            ));
        } else {
            app.world_mut().spawn((
                CircleCollider::new(4.0),
                CollisionLayers::new(BULLET, ENEMY),
                Transform::from_translation(at),
            ));
        }
    }
    app.update();
    (app, side)
}

/// One batch of `kind`, timed.
fn batch(query: &SpatialQuery, kind: usize, side: f32, rng: &mut StdRng) -> (Duration, usize) {
    let all = SpatialQueryFilter::default();
    let enemies = SpatialQueryFilter::from_mask(ENEMY);
    let questions: Vec<(Vec2, Dir2)> = (0..QUERIES_PER_BATCH)
        .map(|_| {
            let at = Vec2::new(rng.random_range(0.0..side), rng.random_range(0.0..side));
            (
                at,
                Dir2::new(Vec2::from_angle(rng.random_range(0.0..6.3))).unwrap(),
            )
        })
        .collect();
    let start = Instant::now();
    let mut found = 0;
    for (at, direction) in questions {
        found += match kind {
            0 => usize::from(
                query
                    .cast_ray(Ray2d::new(at, direction), LASER, &all)
                    .is_some(),
            ),
            1 => usize::from(
                query
                    .cast_ray(Ray2d::new(at, direction), f32::INFINITY, &enemies)
                    .is_some(),
            ),
            2 => query.ray_hits(Ray2d::new(at, direction), LASER, &all).len(),
            3 => usize::from(query.cast_circle(at, 8.0, direction, LASER, &all).is_some()),
            4 => query
                .shape_intersections(Shape::Circle(Circle::new(at, 50.0)), &all)
                .len(),
            5 => query.point_intersections(at, &all).len(),
            _ => usize::from(query.nearest(at, f32::INFINITY, &enemies).is_some()),
        };
    }
    (start.elapsed(), found)
}

/// What [`measure`] finds for one size.
struct Measured {
    /// Median ns per query of each kind.
    queries: [f64; KINDS.len()],
    /// The index build of a frame's first query, every collider moved since the last, ms.
    build: f64,
    /// A frame's first query where no collider moved (the index kept), ms.
    kept: f64,
    /// A frame's first `push_out`, which finds its colliders by entity, ms.
    first_push_out: f64,
}

/// The median of `times`, in ms.
fn median_ms(mut times: Vec<Duration>) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1e3
}

/// Median ns per query of each kind, and the first query's and first push-out's times.
fn measure(count: usize) -> Measured {
    let (mut app, side) = scene(count);
    let pair: Vec<Entity> = app
        .world_mut()
        .query_filtered::<Entity, With<CircleCollider>>()
        .iter(app.world())
        .take(2)
        .collect();
    let push_outs: Vec<Duration> = (0..BUILD_FRAMES)
        .map(|_| {
            app.update();
            let (moved, from) = (pair[0], pair[1]);
            app.world_mut()
                .run_system_once(move |query: SpatialQuery| {
                    let start = Instant::now();
                    let _ = query.push_out(moved, from);
                    start.elapsed()
                })
                .expect("runs")
        })
        .collect();
    // The queries, against the grids of colliders that stood still since they were built
    // (binned by their boxes).
    let medians = app
        .world_mut()
        .run_system_once(move |query: SpatialQuery| {
            let mut rng = StdRng::seed_from_u64(7);
            std::array::from_fn(|kind| {
                let mut times: Vec<Duration> = (0..BATCHES)
                    .map(|_| batch(&query, kind, side, &mut rng).0)
                    .collect();
                times.sort();
                times[BATCHES / 2].as_secs_f64() * 1e9 / QUERIES_PER_BATCH as f64
            })
        })
        .expect("runs");
    // The first query of a frame builds the grids it needs: timed alone, over a few frames
    // with every collider moved (by a quarter pixel, there and back: built again, binned by
    // their centres) and over a few with none (kept).
    let mut first_queries = |moving: bool| {
        let times = (0..BUILD_FRAMES).map(|frame| {
            if moving {
                let step = if frame % 2 == 0 { 0.25 } else { -0.25 };
                let mut transforms = app.world_mut().query::<&mut Transform>();
                for mut transform in transforms.iter_mut(app.world_mut()) {
                    transform.translation.x += step;
                }
            }
            app.update();
            app.world_mut()
                .run_system_once(|query: SpatialQuery| {
                    let start = Instant::now();
                    let _ = query.point_intersections(Vec2::ZERO, &SpatialQueryFilter::default());
                    start.elapsed()
                })
                .expect("runs")
        });
        median_ms(times.collect())
    };
    let build = first_queries(true);
    let kept = first_queries(false);
    Measured {
        queries: medians,
        build,
        kept,
        first_push_out: median_ms(push_outs),
    }
}

fn main() {
    let results: Vec<Measured> = SIZES.iter().map(|&n| measure(n)).collect();
    println!("| query | ns at 10,000 colliders | ns at 100,000 | 100,000 / 10,000 |");
    println!("|---|---:|---:|---:|");
    for (kind, name) in KINDS.iter().enumerate() {
        let (small, large) = (results[0].queries[kind], results[1].queries[kind]);
        println!(
            "| {name} | {small:.0} | {large:.0} | {:.2}× |",
            large / small
        );
    }
    let firsts = [
        (
            "building the index for every layer, every collider moved (first query of a frame), ms",
            [results[0].build, results[1].build],
        ),
        (
            "the index kept, no collider moved (first query of a frame), ms",
            [results[0].kept, results[1].kept],
        ),
        (
            "push_out, the first of a frame (finds colliders by entity), ms",
            [results[0].first_push_out, results[1].first_push_out],
        ),
    ];
    for (name, [small, large]) in firsts {
        println!(
            "| {name} | {small:.3} | {large:.3} | {:.2}× |",
            large / small
        );
    }
}
