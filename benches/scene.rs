//! One frame of the collision pipeline in a bullet-hell scene: bullets (circles of radius 4,
//! moving 6 px a frame and wrapping in a 1920 × 1080 field, never tested against each other)
//! raining over 64 octagon enemies, from 1,000 to 1,000,000 bullets, on one thread, on two,
//! and with a compute pool of eight threads (a game's pool is sized to the machine, not to the
//! cores free); and at 50,000 bullets, the scenes that must not fall off a cliff: every bullet
//! [`Swept`]; one more enemy parked ten million pixels away; a wall two hundred million pixels
//! long across the field; more distinct layer values than
//! the broad phase compares group by group; layer values alternating bullet by bullet in one
//! archetype; half the bullets standing still; the bullets clumped over the enemies; and the
//! bullets spawned in rows, so that those meeting the enemies are neighbours in their table.
//! First, the floor: the same schedule with no collider at all, which is what Bevy's executor
//! costs to run the plugin's systems on this machine (most of the frame at 1,000 bullets).
//!
//! The plugin runs in a schedule of its own so that exactly its systems are timed; bullets
//! move and transforms propagate outside the timed part. The frame time comes from every other
//! frame, run without the systems that mark the boundaries between the plugin's systems (each
//! system the executor dispatches costs a few microseconds); the times of prepare, of the broad
//! and narrow phases (one system, each batch of pairs tested as found) and of events come from
//! the frames in between, run with them. Beside each frame's wall time, the CPU time the whole
//! process spent in it, all threads together (user and system): a thread that waits by
//! spinning shows there. Prints a Markdown table of medians.
//!
//! ```text
//! cargo bench --bench scene                    # the time table
//! cargo bench --bench scene -- --instructions  # instructions per collider, under callgrind
//! cargo bench --bench scene -- "50000 rain" clump  # only the scenes whose names hold these
//! cargo bench --bench scene -- "=50000 rain"       # only the scene of this name
//! ```
//!
//! `--instructions` runs each one-thread scene again under `valgrind --tool=callgrind`,
//! counting only the measured frames of the collision schedule, and prints the instructions
//! per collider per frame of each stage, the broad and narrow phases apart (from
//! `callgrind_annotate`'s inclusive counts): the same binary and input give the same counts,
//! whatever the machine's load.

use std::time::{Duration, Instant};

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_collision_events::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

const FIELD: Vec2 = Vec2::new(1920.0, 1080.0);
const WARM_UP_FRAMES: usize = 20;
const MEASURED_FRAMES: usize = 100;
/// Under callgrind, fewer frames: the counts repeat exactly, so a few say it all.
const COUNTED_FRAMES: usize = 10;
/// The scenes measured: how many bullets, and how they differ from the plain rain.
const SCENES: [(usize, Variant); 20] = [
    (0, Variant::Empty),
    (1_000, Variant::Plain),
    (10_000, Variant::Plain),
    (50_000, Variant::Plain),
    (50_000, Variant::Swept),
    (50_000, Variant::FarOutlier),
    (50_000, Variant::HugeWall),
    (50_000, Variant::Walls),
    (50_000, Variant::Recycled),
    (50_000, Variant::ManyLayers),
    (50_000, Variant::AlternatingLayers),
    (50_000, Variant::HalfStill),
    (50_000, Variant::Clump),
    (50_000, Variant::Rows),
    (50_000, Variant::FilterUnused),
    (50_000, Variant::FilterOnEnemies),
    (50_000, Variant::Bodies),
    (50_000, Variant::TurningLaser),
    (50_000, Variant::SteppingLaser),
    (1_000_000, Variant::Plain),
];

/// How a scene differs from the plain rain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Variant {
    Plain,
    /// No collider at all, enemies included: the plugin's systems find nothing to do.
    Empty,
    /// Every bullet [`Swept`].
    Swept,
    /// One more enemy, at (1e7, 1e7).
    FarOutlier,
    /// One more enemy: a wall two hundred million pixels long, across the middle of the field.
    HugeWall,
    /// [`WALLS`] walls the bullets fly over and the enemies meet: long, thin boxes on the
    /// bullets' side of the search, each far wider than a bullet.
    Walls,
    /// The bullets' entities recycled in a random order, as in a game that has run a while:
    /// their tables' order says nothing of their entities' order, so the contacts come out of
    /// order and are sorted.
    Recycled,
    /// Each bullet also on one of [`EXTRA_LAYERS`] more layers: more distinct layer values
    /// than the broad phase compares group by group.
    ManyLayers,
    /// Bullets on two layer values, alternating bullet by bullet in one archetype.
    AlternatingLayers,
    /// Every other bullet never moves.
    HalfStill,
    /// The bullets in a tenth of the field's area (with its proportions) over the enemies,
    /// wrapping around its edges.
    Clump,
    /// The bullets spawned row by row, top to bottom, and flying sideways: those that cross
    /// the enemies' rows are neighbours in their table, so that the contacts all come from a
    /// few stretches of it (a split of the work by table order gets them in a few pieces).
    Rows,
    /// A [`PairFilter`] installed, and no collider carrying [`FilterPairs`]: what the
    /// colliders that do not opt in pay.
    FilterUnused,
    /// The same filter asked about every pair: every enemy carries [`FilterPairs`]. It allows
    /// every pair (after looking each entity up), so the contacts are the plain rain's.
    FilterOnEnemies,
    /// The enemies are the parts of [`BODIES`] bodies (children of a [`CollisionBody`]); the
    /// bullets belong to none.
    Bodies,
    /// One more enemy: a laser [`LASER_LENGTH`] long at the middle of the field, turning
    /// [`LASER_TURN`] a frame, swept.
    TurningLaser,
    /// The same laser, not swept: it steps from pose to pose.
    SteppingLaser,
}

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Self::Plain => "rain",
            Self::Empty => "no colliders",
            Self::Swept => "rain, swept",
            Self::FarOutlier => "rain, far outlier",
            Self::HugeWall => "rain, huge wall",
            Self::Walls => "rain, walls",
            Self::Recycled => "rain, recycled entities",
            Self::ManyLayers => "rain, 30 layer values",
            Self::AlternatingLayers => "rain, alternating layers",
            Self::HalfStill => "rain, half still",
            Self::Clump => "clump",
            Self::Rows => "rain in rows",
            Self::FilterUnused => "rain, filter, none opted in",
            Self::FilterOnEnemies => "rain, filter, enemies opted in",
            Self::Bodies => "rain, enemies in 16 bodies",
            Self::TurningLaser => "rain, a turning laser, swept",
            Self::SteppingLaser => "rain, a turning laser, not swept",
        }
    }
}

/// The pair filter of [`Variant::FilterUnused`] and [`Variant::FilterOnEnemies`]: it turns
/// away the pairs of a [`Blocked`] collider, and none is.
#[derive(SystemParam)]
struct NotBlocked<'w, 's> {
    blocked: Query<'w, 's, (), With<Blocked>>,
}

/// Never given to a collider in the bench.
#[derive(Component)]
struct Blocked;

impl PairFilter for NotBlocked<'_, '_> {
    fn allows(&self, a: Entity, b: Entity) -> bool {
        !(self.blocked.contains(a) || self.blocked.contains(b))
    }
}

/// [`Variant::TurningLaser`]'s laser: its length, and its turn each frame (radians, 30°).
const LASER_LENGTH: f32 = 500.0;
const LASER_TURN: f32 = std::f32::consts::FRAC_PI_6;

/// The laser of [`Variant::TurningLaser`] and [`Variant::SteppingLaser`].
#[derive(Component)]
struct TurningLaser;

fn turn_laser(mut lasers: Query<&mut Transform, With<TurningLaser>>) {
    for mut transform in &mut lasers {
        transform.rotate_z(LASER_TURN);
    }
}

/// [`Variant::Bodies`]: how many bodies the enemies make, four parts each.
const BODIES: usize = 16;

/// Where [`Variant::FarOutlier`] parks its extra enemy.
const FAR_AWAY: Vec2 = Vec2::splat(1e7);
/// Half the length of [`Variant::HugeWall`]'s wall.
const HUGE_WALL_HALF_LENGTH: f32 = 1e8;
/// [`Variant::Walls`]: how many walls.
const WALLS: usize = 1_000;
/// [`Variant::Walls`]: each wall's length and thickness.
const WALL_SIZE: Vec2 = Vec2::new(400.0, 16.0);
/// Octagon enemies, the bullets' targets.
const ENEMIES: usize = 64;
/// [`Variant::ManyLayers`]: how many layers the bullets are spread over.
const EXTRA_LAYERS: u32 = 29;

const PLAYER_BULLET: LayerMask = LayerMask::layer(0);
const ENEMY: LayerMask = LayerMask::layer(1);
/// [`Variant::AlternatingLayers`]: every other bullet is also on this layer.
const TRACER: LayerMask = LayerMask::layer(2);
/// [`Variant::Walls`]' walls.
const WALL: LayerMask = LayerMask::layer(3);

/// The schedule the plugin runs in here, so that it can be timed alone.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
struct Collisions;

#[derive(Component)]
struct Velocity(Vec2);

/// When each boundary was passed this frame (before prepare, then after each of the plugin's
/// systems), in the frames that mark them.
#[derive(Resource, Default)]
struct StageClock {
    marks: [Option<Instant>; 4],
    /// Whether this frame marks the stage boundaries.
    marking: bool,
}

fn mark<const BOUNDARY: usize>(mut clock: ResMut<StageClock>) {
    clock.marks[BOUNDARY] = Some(Instant::now());
}

/// The marks' run condition: a frame without them dispatches none of their systems.
fn marking(clock: Res<StageClock>) -> bool {
    clock.marking
}

/// Where the bullets fly, wrapping around its edges: the field, or the clump's part of it.
#[derive(Resource)]
struct Arena(Rect);

fn move_bullets(
    arena: Res<Arena>,
    mut bullets: Query<(&mut Transform, &Velocity, Option<&mut Swept>)>,
) {
    let arena = arena.0;
    bullets
        .par_iter_mut()
        .for_each(|(mut transform, velocity, swept)| {
            let ahead = transform.translation.truncate() + velocity.0;
            let moved = (ahead - arena.min).rem_euclid(arena.size()) + arena.min;
            transform.translation = moved.extend(0.0);
            // Wrapping around the arena is a jump, not a path across it.
            if moved != ahead
                && let Some(mut swept) = swept
            {
                swept.jump();
            }
        });
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
    .add_systems(Update, (move_bullets, turn_laser))
    .add_systems(
        Collisions,
        (
            mark::<0>.before(CollisionSystems::Prepare),
            mark::<1>
                .after(CollisionSystems::Prepare)
                .before(CollisionSystems::FindContacts),
            mark::<2>
                .after(CollisionSystems::FindContacts)
                .before(CollisionSystems::WriteEvents),
            // Not waiting for the events' commands: the schedule applies them at its end.
            mark::<3>.after_ignore_deferred(CollisionSystems::WriteEvents),
        )
            .run_if(marking),
    );
    if matches!(variant, Variant::FilterUnused | Variant::FilterOnEnemies) {
        app.add_plugins(PairFilterPlugin::<NotBlocked>::default());
    }
    let mut rng = StdRng::seed_from_u64(50_000);
    let world = app.world_mut();
    let bullet_filters = match variant {
        Variant::ManyLayers => (0..EXTRA_LAYERS).fold(PLAYER_BULLET, |mask, extra| {
            mask | LayerMask::layer(3 + extra)
        }),
        Variant::AlternatingLayers => PLAYER_BULLET | TRACER,
        Variant::Walls => PLAYER_BULLET | WALL,
        _ => PLAYER_BULLET,
    };
    let enemy = |position: Vec2| {
        (
            PolygonCollider::regular(24.0, 8),
            CollisionLayers::new(ENEMY, bullet_filters),
            Transform::from_translation(position.extend(0.0)),
        )
    };
    let enemies = if variant == Variant::Empty {
        0
    } else {
        ENEMIES
    };
    let bodies: Vec<Entity> = if variant == Variant::Bodies {
        (0..BODIES)
            .map(|_| {
                world
                    .spawn((CollisionBody::default(), Transform::default()))
                    .id()
            })
            .collect()
    } else {
        Vec::new()
    };
    for i in 0..enemies {
        let position = Vec2::new(
            (i % 16) as f32 * FIELD.x / 16.0 + 60.0,
            (i / 16) as f32 * 120.0 + 600.0,
        );
        let mut enemy = world.spawn(enemy(position));
        if variant == Variant::FilterOnEnemies {
            enemy.insert(FilterPairs);
        }
        if variant == Variant::Bodies {
            // Placed by their own transforms: each body sits at the origin.
            enemy.insert(ChildOf(bodies[i % BODIES]));
        }
    }
    if variant == Variant::FarOutlier {
        world.spawn(enemy(FAR_AWAY));
    }
    if matches!(variant, Variant::TurningLaser | Variant::SteppingLaser) {
        let mut laser = world.spawn((
            TurningLaser,
            SegmentCollider::new(Vec2::ZERO, Vec2::new(LASER_LENGTH, 0.0)),
            CollisionLayers::new(ENEMY, bullet_filters),
            Transform::from_xyz(FIELD.x / 2.0, FIELD.y / 2.0, 0.0),
        ));
        if variant == Variant::TurningLaser {
            laser.insert(Swept::default());
        }
    }
    if variant == Variant::HugeWall {
        world.spawn((
            SegmentCollider::new(
                Vec2::new(-HUGE_WALL_HALF_LENGTH, 0.0),
                Vec2::new(HUGE_WALL_HALF_LENGTH, 0.0),
            ),
            CollisionLayers::new(ENEMY, bullet_filters),
            Transform::from_xyz(FIELD.x / 2.0, FIELD.y / 2.0, 0.0),
        ));
    }
    if variant == Variant::Walls {
        // A generator of their own: the bullets are the plain rain's.
        let mut rng = StdRng::seed_from_u64(WALLS as u64);
        let walls: Vec<_> = (0..WALLS)
            .map(|_| {
                let center = Vec2::new(
                    rng.random_range(0.0..FIELD.x),
                    rng.random_range(0.0..FIELD.y),
                );
                let angle = rng.random_range(0.0..std::f32::consts::PI);
                (
                    PolygonCollider::rectangle(WALL_SIZE.x, WALL_SIZE.y),
                    CollisionLayers::new(WALL, ENEMY),
                    Transform::from_translation(center.extend(0.0))
                        .with_rotation(Quat::from_rotation_z(angle)),
                )
            })
            .collect();
        world.spawn_batch(walls);
    }
    let area = match variant {
        // A tenth of the field's area, with its proportions, over the enemies.
        Variant::Clump => {
            Rect::from_center_size(Vec2::new(FIELD.x / 2.0, 700.0), FIELD / 10f32.sqrt())
        }
        _ => Rect::from_corners(Vec2::ZERO, FIELD),
    };
    world.insert_resource(Arena(area));
    let mut paths: Vec<(Vec2, Vec2)> = (0..bullets)
        .map(|_| {
            let position = Vec2::new(
                rng.random_range(area.min.x..area.max.x),
                rng.random_range(area.min.y..area.max.y),
            );
            let heading = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU));
            (position, heading)
        })
        .collect();
    if variant == Variant::Rows {
        // Top row first, each bullet flying left or right.
        paths.sort_by(|(one, _), (other, _)| other.y.total_cmp(&one.y));
        for (_, heading) in &mut paths {
            *heading = Vec2::new(heading.x.signum(), 0.0);
        }
    }
    let bullets: Vec<_> = paths
        .into_iter()
        .enumerate()
        .map(|(index, (position, heading))| {
            let speed = match variant {
                Variant::HalfStill if index % 2 == 1 => 0.0,
                _ => 6.0,
            };
            let memberships = match variant {
                Variant::ManyLayers => {
                    PLAYER_BULLET | LayerMask::layer(3 + index as u32 % EXTRA_LAYERS)
                }
                Variant::AlternatingLayers if index % 2 == 1 => PLAYER_BULLET | TRACER,
                _ => PLAYER_BULLET,
            };
            (
                CircleCollider::new(4.0),
                CollisionLayers::new(memberships, ENEMY),
                Transform::from_translation(position.extend(0.0)),
                Velocity(heading * speed),
            )
        })
        .collect();
    let spawned: Vec<Entity> = if variant == Variant::Recycled {
        // Entities spawned and despawned in a random order: the bullets take them back.
        let mut first: Vec<Entity> = (0..bullets.len())
            .map(|_| world.spawn_empty().id())
            .collect();
        first.shuffle(&mut rng);
        for entity in first {
            world.despawn(entity);
        }
        world.spawn_batch(bullets).collect()
    } else {
        world.spawn_batch(bullets).collect()
    };
    if variant == Variant::Swept {
        for bullet in spawned {
            world.entity_mut(bullet).insert(Swept::default());
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
    /// The median CPU time of the whole process per frame (`None` where it cannot be read).
    cpu_ms: Option<f64>,
    /// The median frame divided by the collider count, in nanoseconds (`None` for none).
    ns_per_collider: Option<f64>,
    /// Mean contacts per frame.
    contacts: usize,
    /// Median time of each system: prepare, broad and narrow phases (one system), events.
    stages_ms: [f64; 3],
}

fn milliseconds(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}

fn colliders(bullets: usize, variant: Variant) -> usize {
    match variant {
        Variant::Empty => 0,
        _ => {
            let extra = matches!(
                variant,
                Variant::FarOutlier
                    | Variant::HugeWall
                    | Variant::TurningLaser
                    | Variant::SteppingLaser
            );
            let walls = if variant == Variant::Walls { WALLS } else { 0 };
            bullets + ENEMIES + usize::from(extra) + walls
        }
    }
}

/// Median and 90th percentile of the pipeline's time per frame, the mean contact count, and
/// the median of each stage: the frames alternate, one without the stage marks (its time and
/// contacts are measured), one with them (its stages are).
fn measure((bullets, variant): (usize, Variant), threads: usize) -> Row {
    let mut app = scene(bullets, threads, variant);
    let mut times = Vec::with_capacity(MEASURED_FRAMES);
    let mut cpu_times = Vec::with_capacity(MEASURED_FRAMES);
    let mut stages: [Vec<Duration>; 3] = Default::default();
    let mut contacts = 0;
    for frame in 0..WARM_UP_FRAMES + 2 * MEASURED_FRAMES {
        let marking = frame % 2 == 1;
        app.world_mut().resource_mut::<StageClock>().marking = marking;
        app.update();
        let (start, cpu_start) = (Instant::now(), process_cpu_time());
        app.world_mut().run_schedule(Collisions);
        let elapsed = start.elapsed();
        let cpu = process_cpu_time()
            .zip(cpu_start)
            .map(|(end, start)| end - start);
        if frame < WARM_UP_FRAMES {
            continue;
        }
        if marking {
            let marks = app.world().resource::<StageClock>().marks;
            for (stage, times) in stages.iter_mut().enumerate() {
                if let (Some(from), Some(to)) = (marks[stage], marks[stage + 1]) {
                    times.push(to.duration_since(from));
                }
            }
        } else {
            times.push(elapsed);
            cpu_times.extend(cpu);
            contacts += app.world().resource::<Contacts>().len();
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
        cpu_ms: (!cpu_times.is_empty()).then(|| milliseconds(median(&mut cpu_times))),
        ns_per_collider: Some(colliders(bullets, variant))
            .filter(|&colliders| colliders > 0)
            .map(|colliders| frame.as_secs_f64() * 1e9 / colliders as f64),
        contacts: contacts / MEASURED_FRAMES,
        stages_ms: stages.each_mut().map(|times| milliseconds(median(times))),
    }
}

/// The CPU time this process has used so far, all its threads together, user and system.
#[cfg(unix)]
#[expect(
    unsafe_code,
    reason = "the process's CPU clock, read through libc: std has no safe way to read it"
)]
fn process_cpu_time() -> Option<Duration> {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `time` is a valid, writable `timespec` for the whole call, which only writes it.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut time) };
    (status == 0).then(|| Duration::new(time.tv_sec as u64, time.tv_nsec as u32))
}

/// Not read on this system.
#[cfg(not(unix))]
fn process_cpu_time() -> Option<Duration> {
    None
}

/// The compute pools measured: one thread, two, and eight (on a machine with fewer cores,
/// more threads than cores, as a game's pool sized to a larger machine would be).
const THREAD_COUNTS: [usize; 3] = [1, 2, 8];

/// Set in a child process: the compute threads to measure with.
const THREADS_VARIABLE: &str = "SCENE_BENCH_THREADS";
/// Set in a child process run under callgrind: the index in [`SCENES`] of the scene to count.
const COUNT_VARIABLE: &str = "SCENE_BENCH_COUNT";
/// The function whose instructions callgrind collects: the measured frames' collision
/// schedule, and nothing else.
const COUNTED_FUNCTION: &str = "scene::counted_frame";
/// The functions whose inclusive counts make up each stage's, as `callgrind_annotate` names
/// them: the stages' systems (find contacts has two: without a pair filter and with one), and
/// within find contacts (the broad phase's passes, each batch of pairs tested as found) the
/// passes and the tests they call.
const PREPARE: [&str; 1] = ["bevy_collision_events::pipeline::prepare::place_colliders"];
const BROAD_AND_NARROW: [&str; 2] = [
    "bevy_collision_events::pipeline::find_contacts::find_contacts",
    "bevy_collision_events::pipeline::find_contacts::find_filtered_contacts",
];
const BROAD_SEARCH: &str = "bevy_collision_events::pipeline::broad_phase::BroadPhase::passes";
const PAIR_TESTS: &str = "bevy_collision_events::pipeline::narrow_phase::batch::test_pairs";
const EVENTS: &str = "bevy_collision_events::pipeline::events::write_contact_events";

/// Bevy's task pools are process-wide and set once, so each thread count is measured in a
/// process of its own: this one re-runs itself with [`THREADS_VARIABLE`] set, and the child
/// hands back its rows as JSON.
fn main() {
    if let Some(scene) = std::env::var(COUNT_VARIABLE)
        .ok()
        .and_then(|scene| scene.parse::<usize>().ok())
    {
        run_counted(SCENES[scene]);
        return;
    }
    if let Some(threads) = std::env::var(THREADS_VARIABLE)
        .ok()
        .and_then(|threads| threads.parse().ok())
    {
        let rows: Vec<Row> = SCENES
            .iter()
            .filter(|&&scene| chosen(scene))
            .map(|&scene| measure(scene, threads))
            .collect();
        println!("{}", serde_json::to_string(&rows).expect("rows serialise"));
        return;
    }
    if std::env::args().any(|argument| argument == "--instructions") {
        print_instructions();
        return;
    }
    let mut rows = Vec::new();
    for threads in THREAD_COUNTS {
        let child = std::process::Command::new(std::env::current_exe().expect("own path"))
            .args(std::env::args().skip(1))
            .env(THREADS_VARIABLE, threads.to_string())
            .output()
            .expect("the bench can run itself");
        let measured: Vec<Row> = serde_json::from_slice(&child.stdout)
            .unwrap_or_else(|error| panic!("the {threads}-thread run failed: {error}"));
        rows.extend(measured);
    }
    print_table(&rows);
}

/// Whether the command line chose the scene: every scene, unless some arguments (those not
/// starting with `--`) are given, each a part of the names of the scenes to run, such as
/// `"50000 rain"` or `clump` (the name is the bullet count and the scene column), or, after
/// `=`, a whole name: `"=50000 rain"` is the plain rain alone.
fn chosen((bullets, variant): (usize, Variant)) -> bool {
    let name = format!("{bullets} {}", variant.name());
    let mut parts = std::env::args()
        .skip(1)
        .filter(|argument| !argument.starts_with("--"))
        .peekable();
    parts.peek().is_none()
        || parts.any(|part| match part.strip_prefix('=') {
            Some(exact) => name == exact,
            None => name.contains(&part),
        })
}

/// Runs one scene on one thread with callgrind collecting only [`counted_frame`].
fn run_counted((bullets, variant): (usize, Variant)) {
    let mut app = scene(bullets, 1, variant);
    // On this thread, where callgrind collects: the multi-threaded executor would run each
    // system on the task pool's thread.
    app.edit_schedule(Collisions, |schedule| {
        schedule.set_executor(SingleThreadedExecutor::new());
    });
    for _ in 0..WARM_UP_FRAMES {
        app.update();
        app.world_mut().run_schedule(Collisions);
    }
    for _ in 0..COUNTED_FRAMES {
        app.update();
        counted_frame(&mut app);
    }
}

/// One frame of the collision schedule: all that callgrind counts.
#[inline(never)]
fn counted_frame(app: &mut App) {
    app.world_mut().run_schedule(Collisions);
}

/// Runs each scene that fits (up to 50,000 bullets; valgrind is 50 times slower) under
/// callgrind and prints the instructions per collider per frame, in all and by stage.
fn print_instructions() {
    println!("| bullets | scene | instructions per collider | prepare | broad | narrow | events |");
    println!("|---:|---|---:|---:|---:|---:|---:|");
    for (index, &(bullets, variant)) in SCENES.iter().enumerate() {
        if bullets > 50_000 || variant == Variant::Empty || !chosen((bullets, variant)) {
            continue;
        }
        let out = std::env::temp_dir().join(format!("scene-callgrind-{index}.out"));
        let status = std::process::Command::new("valgrind")
            .args([
                "--tool=callgrind",
                &format!("--toggle-collect={COUNTED_FUNCTION}"),
                &format!("--callgrind-out-file={}", out.display()),
            ])
            .arg(std::env::current_exe().expect("own path"))
            .env(COUNT_VARIABLE, index.to_string())
            .stderr(std::process::Stdio::null())
            .status()
            .expect("valgrind runs (Debian package `valgrind`)");
        assert!(status.success(), "callgrind run of scene {index} failed");
        let annotated = std::process::Command::new("callgrind_annotate")
            .args(["--inclusive=yes", "--threshold=100"])
            .arg(&out)
            .output()
            .expect("callgrind_annotate runs");
        let text = String::from_utf8_lossy(&annotated.stdout);
        let inclusive = |functions: &[&str]| {
            functions
                .iter()
                .map(|function| inclusive_count(&text, function))
                .sum::<f64>()
        };
        let per_collider =
            |count: f64| count / (colliders(bullets, variant) * COUNTED_FRAMES) as f64;
        let total = per_collider(inclusive(&[COUNTED_FUNCTION]));
        // The broad phase's search, less the tests it hands its pairs to (on one thread, in
        // the same call).
        let search = inclusive(&[BROAD_SEARCH]);
        assert!(search > 0.0, "callgrind_annotate lists no {BROAD_SEARCH}");
        let broad = search - inclusive(&[PAIR_TESTS]);
        // The filtered system calls the plain one when nothing opts in: the outer one's count.
        let broad_and_narrow = BROAD_AND_NARROW
            .iter()
            .map(|function| inclusive_count(&text, function))
            .fold(0.0, f64::max);
        let narrow = broad_and_narrow - broad;
        let [prepare, broad, narrow, events] =
            [inclusive(&PREPARE), broad, narrow, inclusive(&[EVENTS])].map(per_collider);
        println!(
            "| {bullets} | {} | {total:.0} | {prepare:.0} | {broad:.0} | {narrow:.0} | {events:.0} |",
            variant.name(),
        );
        let _ = std::fs::remove_file(out);
    }
}

/// The inclusive instruction count `callgrind_annotate` gives `function` (lines such as
/// `1,234 (5.0%)  ???:path::to::function [binary]`), or zero when it lists no such line.
fn inclusive_count(annotated: &str, function: &str) -> f64 {
    annotated
        .lines()
        .find(|line| {
            line.split_once(':').is_some_and(|(_, name)| {
                name.strip_prefix(function)
                    .is_some_and(|after| after.is_empty() || after.starts_with(' '))
            })
        })
        .and_then(|line| line.split_whitespace().next())
        .and_then(|count| count.replace(',', "").parse().ok())
        .unwrap_or(0.0)
}

fn print_table(rows: &[Row]) {
    println!(
        "| bullets | scene | threads | median ms/frame | p90 ms/frame | CPU ms/frame | ns per collider \
         | contacts/frame | prepare | broad + narrow | events |"
    );
    println!("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for row in rows {
        let [prepare, pairs, events] = row.stages_ms;
        let per_collider = row
            .ns_per_collider
            .map_or_else(|| "–".to_owned(), |ns| format!("{ns:.1}"));
        let cpu = row
            .cpu_ms
            .map_or_else(|| "–".to_owned(), |ms| format!("{ms:.3}"));
        println!(
            "| {} | {} | {} | {:.3} | {:.3} | {cpu} | {per_collider} | {} | {prepare:.3} \
             | {pairs:.3} | {events:.3} |",
            row.bullets,
            row.variant.name(),
            row.threads,
            row.median_ms,
            row.p90_ms,
            row.contacts,
        );
    }
    println!();
    println!(
        "Stage columns: median ms of each of the plugin's systems (the broad and narrow phases \
         are one). CPU: the whole process, all threads, per frame."
    );
    let find = |bullets: usize, variant: Variant, threads: usize| {
        rows.iter()
            .find(|row| row.bullets == bullets && row.variant == variant && row.threads == threads)
    };
    let one_thread = |bullets, variant| find(bullets, variant, 1);
    let plain_50k = one_thread(50_000, Variant::Plain);
    let per_collider = |row: &Row| row.ns_per_collider.unwrap_or(f64::NAN);
    if let (Some(at_50k), Some(at_1m)) = (plain_50k, one_thread(1_000_000, Variant::Plain)) {
        println!(
            "One thread: time per collider at 1,000,000 is {:.2}× that at 50,000.",
            per_collider(at_1m) / per_collider(at_50k)
        );
    }
    for variant in [
        Variant::Swept,
        Variant::FarOutlier,
        Variant::Walls,
        Variant::Recycled,
        Variant::ManyLayers,
        Variant::AlternatingLayers,
        Variant::HalfStill,
        Variant::Clump,
        Variant::Rows,
        Variant::FilterUnused,
        Variant::FilterOnEnemies,
        Variant::Bodies,
        Variant::TurningLaser,
        Variant::SteppingLaser,
    ] {
        if let (Some(plain), Some(other)) = (plain_50k, one_thread(50_000, variant)) {
            println!(
                "One thread, 50,000: {} costs {:.2}× the plain rain (broad and narrow phases {:.2}×).",
                variant.name(),
                other.median_ms / plain.median_ms,
                other.stages_ms[1] / plain.stages_ms[1]
            );
        }
    }
    for (bullets, variant) in [1_000, 50_000, 1_000_000].map(|bullets| (bullets, Variant::Plain)) {
        let Some(one) = one_thread(bullets, variant) else {
            continue;
        };
        for threads in THREAD_COUNTS.into_iter().filter(|&threads| threads > 1) {
            let Some(more) = find(bullets, variant, threads) else {
                continue;
            };
            let cpu = match (more.cpu_ms, one.cpu_ms) {
                (Some(more), Some(one)) => format!(", with {:.2}× the CPU time", more / one),
                _ => String::new(),
            };
            println!(
                "{bullets} {}: {threads} threads are {:.2}× as fast as one{cpu}.",
                variant.name(),
                one.median_ms / more.median_ms
            );
        }
    }
}
