//! The query scene: 1,000 rays and 1,000 point queries a frame against the 10,065 colliders of
//! `rain-10k` (standing still), through each engine's own spatial queries:
//! `bevy_collision_events`' `SpatialQuery`, avian2d's `SpatialQuery`, `bevy_rapier2d`'s query
//! pipeline (`ReadRapierContext`) and Box2D's world queries (for a point, the point as a query
//! shape, see [`box2d::PointQuery`]; for a ray, that at its origin, then a closest-hit ray cast,
//! which skips a shape it starts in), all with no layer filter, solid shapes.
//!
//! Each frame, in `Update`, a system asks the same seeded questions and times only its own
//! loop; the table gives the median over the timed frames. Each engine's structure is up to
//! date before the clock starts: the peers update theirs in their step, and ours is made ready
//! by the frame's first query (built, or kept from the last frame where nothing moved, as
//! here), which is made, and timed on its own, before the questions. The answers are compared
//! with ours:
//! a ray agrees when both miss, or when it names a body that ours meets first at the same
//! distance (within 1e-3 px; a ray starting inside two overlapping bodies meets both first, and
//! engines pick either), a point query when it names the same set of bodies.
//!
//! ```text
//! cargo run --release -p compare -- --queries
//! ```

use std::time::{Duration, Instant};

use avian2d::prelude as avian;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_collision_events::prelude as ours;
use bevy_rapier2d::prelude as rapier;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::engine::{Engine, box2d};
use crate::scene::{BodyId, FIELD, Scene, SceneKind};
use crate::started;

/// Rays and point queries asked each frame.
const QUESTIONS: usize = 1_000;
/// How far each ray reaches: a laser's length.
const RAY_LENGTH: f32 = 500.0;
/// Frames before the queries are timed: every engine has built its structures by then.
const WARM_UP_FRAMES: u32 = 5;
/// Frames whose query time is measured.
const TIMED_FRAMES: u32 = 21;
/// How far apart two distances to one body may be and still agree.
const SAME_DISTANCE: f32 = 1e-3;

/// The questions: rays as (origin, direction), and points.
#[derive(Resource, Clone)]
struct Questions {
    rays: Vec<(Vec2, Dir2)>,
    points: Vec<Vec2>,
}

impl Questions {
    fn seeded() -> Self {
        let mut rng = StdRng::seed_from_u64(0x9e77);
        let mut point = || {
            Vec2::new(
                rng.random_range(0.0..FIELD.x),
                rng.random_range(0.0..FIELD.y),
            )
        };
        let rays: Vec<Vec2> = (0..QUESTIONS).map(|_| point()).collect();
        let points = (0..QUESTIONS).map(|_| point()).collect();
        let mut rng = StdRng::seed_from_u64(0x9e78);
        let rays = rays
            .into_iter()
            .map(|origin| {
                let angle = rng.random_range(0.0..std::f32::consts::TAU);
                (
                    origin,
                    Dir2::new(Vec2::from_angle(angle)).expect("a unit vector"),
                )
            })
            .collect();
        Self { rays, points }
    }
}

/// What one engine answered, and how long each frame's questions took.
#[derive(Resource, Default, Clone)]
struct Answers {
    /// For each ray: the first body hit, and how far.
    rays: Vec<Option<(BodyId, f32)>>,
    /// Ours only, for each ray: every body met at the first hit's distance (a ray starting
    /// inside two overlapping bodies has two first hits, and engines pick either).
    tied: Vec<Vec<BodyId>>,
    /// For each point: the bodies holding it, sorted.
    points: Vec<Vec<BodyId>>,
    ray_times: Vec<Duration>,
    point_times: Vec<Duration>,
    /// Ours only: making the index ready, which the frame's first query does (the peers update
    /// theirs in their step), timed on its own before the questions.
    index_times: Vec<Duration>,
}

/// One engine's row of the table.
pub struct QueryRow {
    engine: Engine,
    rays_ms: f64,
    points_ms: f64,
    rays_agreeing: usize,
    points_agreeing: usize,
    ray_hits: usize,
    /// Ours only: the median time to build the index.
    index_ms: Option<f64>,
}

/// Runs the query scene on each engine (in this process: the queries run on the calling
/// thread, so the task pools do not matter) and prints the table.
pub fn run(engines: &[Engine]) {
    eprintln!("queries on ours");
    let ours = answer(Engine::Ours);
    let answers: Vec<(Engine, Answers)> = engines
        .iter()
        .map(|&engine| {
            if engine == Engine::Ours {
                return (engine, ours.clone());
            }
            eprintln!("queries on {}", engine.name());
            (engine, answer(engine))
        })
        .collect();
    let rows: Vec<QueryRow> = answers
        .iter()
        .map(|(engine, answers)| row(*engine, answers, &ours))
        .collect();
    print(&rows);
}

/// Builds the still scene on `engine`, asks the questions every frame, and returns the last
/// frame's answers with every timed frame's times.
fn answer(engine: Engine) -> Answers {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin, started::plugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_nanos(
            16_666_667,
        )))
        .insert_resource(Questions::seeded())
        .init_resource::<Answers>();
    engine.install(&mut app);
    Scene {
        kind: SceneKind::Rain,
        size: 10_000,
    }
    .spawn_still(&mut app, engine);
    match engine {
        Engine::Ours => app.add_systems(Update, ask_ours),
        Engine::Avian => app.add_systems(Update, ask_avian),
        Engine::Rapier => app.add_systems(Update, ask_rapier),
        Engine::Box2d => app.add_systems(Update, ask_box2d),
        // Nothing to ask.
        Engine::None => &mut app,
    };
    app.finish();
    app.cleanup();
    for frame in 0..WARM_UP_FRAMES + TIMED_FRAMES {
        if frame == WARM_UP_FRAMES {
            let mut answers = app.world_mut().resource_mut::<Answers>();
            answers.ray_times.clear();
            answers.point_times.clear();
            answers.index_times.clear();
        }
        app.update();
    }
    app.world().resource::<Answers>().clone()
}

/// Times `ask` over every question of a kind, and keeps its answers.
fn timed<Q: Copy, A>(questions: &[Q], mut ask: impl FnMut(Q) -> A) -> (Vec<A>, Duration) {
    let start = Instant::now();
    let answers: Vec<A> = questions.iter().map(|&question| ask(question)).collect();
    (answers, start.elapsed())
}

/// Keeps one frame's answers, entities turned into bodies, and its times.
fn record(
    answers: &mut Answers,
    ids: &Query<&BodyId>,
    (rays, ray_time): (Vec<Option<(Entity, f32)>>, Duration),
    (points, point_time): (Vec<Vec<Entity>>, Duration),
) {
    answers.ray_times.push(ray_time);
    answers.point_times.push(point_time);
    answers.rays = rays
        .into_iter()
        .map(|hit| hit.and_then(|(entity, distance)| Some((*ids.get(entity).ok()?, distance))))
        .collect();
    answers.points = points
        .into_iter()
        .map(|found| bodies_of(ids, found))
        .collect();
}

/// Sorted, the bodies of `entities`.
fn bodies_of(ids: &Query<&BodyId>, entities: impl IntoIterator<Item = Entity>) -> Vec<BodyId> {
    let mut bodies: Vec<BodyId> = entities
        .into_iter()
        .filter_map(|entity| ids.get(entity).ok().copied())
        .collect();
    bodies.sort_unstable();
    bodies
}

fn ask_ours(
    questions: Res<Questions>,
    mut answers: ResMut<Answers>,
    query: ours::SpatialQuery,
    ids: Query<&BodyId>,
) {
    let all = ours::SpatialQueryFilter::default();
    // The frame's first query makes the index ready: timed apart, as the peers update theirs
    // in their step, outside the questions' time.
    let start = Instant::now();
    query.point_intersections(Vec2::ZERO, &all);
    answers.index_times.push(start.elapsed());
    let rays = timed(&questions.rays, |(origin, direction)| {
        query
            .cast_ray(Ray2d::new(origin, direction), RAY_LENGTH, &all)
            .map(|hit| (hit.entity, hit.distance))
    });
    let points = timed(&questions.points, |point| {
        query.point_intersections(point, &all)
    });
    // Untimed: the ties.
    answers.tied = questions
        .rays
        .iter()
        .map(|&(origin, direction)| {
            let hits = query.ray_hits(Ray2d::new(origin, direction), RAY_LENGTH, &all);
            let first = hits.first().map_or(0.0, |hit| hit.distance);
            let tied = hits
                .iter()
                .take_while(|hit| hit.distance <= first + SAME_DISTANCE)
                .map(|hit| hit.entity);
            bodies_of(&ids, tied)
        })
        .collect();
    record(&mut answers, &ids, rays, points);
}

fn ask_avian(
    questions: Res<Questions>,
    mut answers: ResMut<Answers>,
    query: avian::SpatialQuery,
    ids: Query<&BodyId>,
) {
    let all = avian::SpatialQueryFilter::default();
    let rays = timed(&questions.rays, |(origin, direction)| {
        query
            .cast_ray(origin, direction, RAY_LENGTH, true, &all)
            .map(|hit| (hit.entity, hit.distance))
    });
    let points = timed(&questions.points, |point| {
        query.point_intersections(point, &all)
    });
    record(&mut answers, &ids, rays, points);
}

fn ask_rapier(
    questions: Res<Questions>,
    mut answers: ResMut<Answers>,
    context: rapier::ReadRapierContext,
    ids: Query<&BodyId>,
) {
    let Ok(context) = context.single() else {
        return;
    };
    let rays = timed(&questions.rays, |(origin, direction)| {
        context.cast_ray(
            origin,
            *direction,
            RAY_LENGTH,
            true,
            rapier::QueryFilter::default(),
        )
    });
    let points = timed(&questions.points, |point| {
        let mut found = Vec::new();
        context.intersect_point(point, rapier::QueryFilter::default(), |entity| {
            found.push(entity);
            true
        });
        found
    });
    record(&mut answers, &ids, rays, points);
}

fn ask_box2d(
    questions: Res<Questions>,
    mut answers: ResMut<Answers>,
    mut physics: NonSendMut<box2d::Physics>,
) {
    let (rays, ray_time) = timed(&questions.rays, |(origin, direction)| {
        physics.cast_ray(origin, direction, RAY_LENGTH)
    });
    let (points, point_time) = timed(&questions.points, |point| physics.shapes_at(point));
    answers.ray_times.push(ray_time);
    answers.point_times.push(point_time);
    // Untimed, as the other engines' entities are turned into bodies: Box2D's shapes.
    answers.rays = rays
        .into_iter()
        .map(|hit| hit.and_then(|(shape, distance)| Some((physics.body_of(shape)?, distance))))
        .collect();
    answers.points = points
        .into_iter()
        .map(|shapes| {
            let mut bodies: Vec<BodyId> = shapes
                .into_iter()
                .filter_map(|shape| physics.body_of(shape))
                .collect();
            bodies.sort_unstable();
            bodies
        })
        .collect();
}

fn median_ms(times: &[Duration]) -> f64 {
    let mut times = times.to_vec();
    times.sort();
    times
        .get(times.len() / 2)
        .map_or(f64::NAN, |time| time.as_secs_f64() * 1e3)
}

/// Whether their answer to ray `index` agrees with ours: both miss, or they name a body that
/// our ray meets first (one of the tied ones) at the same distance.
fn ray_agrees(theirs: Option<(BodyId, f32)>, index: usize, ours: &Answers) -> bool {
    match (theirs, ours.rays[index]) {
        (None, None) => true,
        (Some((body, distance)), Some((_, our_distance))) => {
            (distance - our_distance).abs() <= SAME_DISTANCE && ours.tied[index].contains(&body)
        }
        _ => false,
    }
}

fn row(engine: Engine, answers: &Answers, ours: &Answers) -> QueryRow {
    if std::env::var("COMPARE_LIST_DISAGREEMENTS").is_ok() {
        for (index, (theirs, mine)) in answers.rays.iter().zip(&ours.rays).enumerate() {
            if !ray_agrees(*theirs, index, ours) {
                let (origin, direction) = Questions::seeded().rays[index];
                eprintln!(
                    "{} ray {index} from {origin} along {direction:?}: {theirs:?}, ours {mine:?}",
                    engine.name()
                );
            }
        }
    }
    let rays_agreeing = (0..answers.rays.len())
        .filter(|&index| ray_agrees(answers.rays[index], index, ours))
        .count();
    let points_agreeing = answers
        .points
        .iter()
        .zip(&ours.points)
        .filter(|(theirs, ours)| theirs == ours)
        .count();
    QueryRow {
        engine,
        rays_ms: median_ms(&answers.ray_times),
        points_ms: median_ms(&answers.point_times),
        rays_agreeing,
        points_agreeing,
        ray_hits: answers.rays.iter().flatten().count(),
        index_ms: (!answers.index_times.is_empty()).then(|| median_ms(&answers.index_times)),
    }
}

fn print(rows: &[QueryRow]) {
    let ours_time =
        |pick: fn(&QueryRow) -> f64| rows.iter().find(|row| row.engine == Engine::Ours).map(pick);
    println!(
        "| engine | {QUESTIONS} rays ({RAY_LENGTH} px), ms | ours faster | {QUESTIONS} point queries, ms | ours faster | rays agreeing with ours | points agreeing with ours | rays that hit |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for row in rows {
        let faster = |ours: Option<f64>, theirs: f64| {
            ours.map_or("–".to_string(), |ours| format!("{:.1}×", theirs / ours))
        };
        println!(
            "| {} | {:.3} | {} | {:.3} | {} | {} / {QUESTIONS} | {} / {QUESTIONS} | {} |",
            row.engine.name(),
            row.rays_ms,
            faster(ours_time(|row| row.rays_ms), row.rays_ms),
            row.points_ms,
            faster(ours_time(|row| row.points_ms), row.points_ms),
            row.rays_agreeing,
            row.points_agreeing,
            row.ray_hits,
        );
    }
    if let Some(index_ms) = rows.iter().find_map(|row| row.index_ms) {
        println!();
        println!(
            "Ours makes its index ready on the frame's first query (built, or kept where no \
             collider moved), timed apart: {index_ms:.3} ms (the peers update theirs in their \
             step)."
        );
    }
}
