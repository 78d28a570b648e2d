//! The same scene gives the same messages in the same order: run twice, and with one and with
//! two task-pool threads (the parallel paths forced on by a low threshold).

use crate::common::{app_with_threads, last_frame};
use bevy::prelude::*;
use bevy_collision_events::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

#[derive(Component)]
struct Velocity(Vec2);

/// Everything the plugin wrote over a run, frame by frame, as comparable values.
#[derive(Debug, PartialEq)]
struct Frame {
    contacts: Vec<(u64, u64, Vec<[u32; 2]>, Containment)>,
    /// Each contact's impact, as the bits of its time, point and normal.
    impacts: Vec<Option<[u32; 5]>>,
    started: Vec<(u64, u64)>,
    ended: Vec<(u64, u64)>,
    /// The entity events, in the order the observers saw them: `true` for a start.
    triggered: Vec<(u64, u64, bool)>,
    /// Each watched entity's [`CollidingEntities`], sorted.
    colliding: Vec<(u64, Vec<u64>)>,
}

/// The entity events seen this frame.
#[derive(Resource, Default)]
struct Triggered(Vec<(u64, u64, bool)>);

/// Spawns 600 colliders; every 30th (a circle) has a NaN position, so that the plugin skips
/// bodies in the middle of the ones it places in parallel, and every 7th keeps a
/// [`CollidingEntities`]. With `swept`, every second is [`Swept`] and moves ten times as fast
/// (so the skipped circles are among the swept ones too, in the same table as placed ones, a
/// table long enough to be cut into pieces).
/// Returns the unplaceable ones.
fn spawn_scene(app: &mut App, seed: u64, swept: bool) -> Vec<Entity> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut unplaceable = Vec::new();
    let field = 400.0;
    for i in 0..600 {
        let position = Vec2::new(rng.random_range(0.0..field), rng.random_range(0.0..field));
        let mut velocity = Vec2::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0));
        let mut transform = Transform::from_translation(position.extend(0.0))
            .with_rotation(Quat::from_rotation_z(rng.random_range(0.0..6.0)));
        if i % 30 == 0 {
            transform.translation.x = f32::NAN;
        }
        let layers = CollisionLayers::new(LayerMask::layer(i % 3), LayerMask(0b101 << (i % 2)));
        let mut entity = app
            .world_mut()
            .spawn((transform, layers, Velocity(velocity)));
        match i % 3 {
            0 => entity.insert(CircleCollider::new(rng.random_range(1.0..12.0))),
            1 => entity.insert(SegmentCollider::new(
                Vec2::ZERO,
                Vec2::new(rng.random_range(5.0..40.0), 0.0),
            )),
            _ => entity.insert(PolygonCollider::regular(
                rng.random_range(3..9),
                rng.random_range(4.0..16.0),
            )),
        };
        if i % 7 == 0 {
            entity.insert(CollidingEntities::default());
        }
        if swept && i % 2 == 0 {
            velocity *= 10.0;
            entity.insert((Swept::default(), Velocity(velocity)));
        }
        if i % 30 == 0 {
            unplaceable.push(entity.id());
        }
    }
    unplaceable
}

fn movement(mut bodies: Query<(&mut Transform, &Velocity)>) {
    for (mut transform, velocity) in &mut bodies {
        transform.translation += velocity.0.extend(0.0);
        transform.rotate_z(0.01);
    }
}

fn run(threads: usize, swept: bool) -> Vec<Frame> {
    let mut app = app_with_threads(Some(threads));
    app.insert_resource(CollisionSettings {
        parallel_threshold: 8,
    })
    .init_resource::<Triggered>()
    .add_observer(|start: On<ContactStarted>, mut seen: ResMut<Triggered>| {
        seen.0
            .push((start.entity.to_bits(), start.other.to_bits(), true));
    })
    .add_observer(|end: On<ContactEnded>, mut seen: ResMut<Triggered>| {
        seen.0
            .push((end.entity.to_bits(), end.other.to_bits(), false));
    })
    .add_systems(Update, movement);
    let unplaceable = spawn_scene(&mut app, 7, swept);
    let frames: Vec<Frame> = (0..40)
        .map(|_| {
            app.world_mut().resource_mut::<Triggered>().0.clear();
            app.update();
            for contact in last_frame::<Contact>(&app) {
                assert!(
                    !unplaceable.contains(&contact.a) && !unplaceable.contains(&contact.b),
                    "a collider without a finite position touched something"
                );
                assert!(
                    app.world().get_entity(contact.a).is_ok()
                        && app.world().get_entity(contact.b).is_ok(),
                    "a contact names an entity that does not exist"
                );
            }
            let key = |a: Entity, b: Entity| (a.to_bits(), b.to_bits());
            Frame {
                contacts: last_frame::<Contact>(&app)
                    .into_iter()
                    .map(|c| {
                        let points = c.points.iter().map(|p| [p.x.to_bits(), p.y.to_bits()]);
                        (
                            c.a.to_bits(),
                            c.b.to_bits(),
                            points.collect(),
                            c.containment,
                        )
                    })
                    .collect(),
                impacts: last_frame::<Contact>(&app)
                    .into_iter()
                    .map(|c| {
                        c.impact.map(|i| {
                            [i.time, i.point.x, i.point.y, i.normal.x, i.normal.y].map(f32::to_bits)
                        })
                    })
                    .collect(),
                started: last_frame::<ContactStarted>(&app)
                    .into_iter()
                    .map(|e| key(e.entity, e.other))
                    .collect(),
                ended: last_frame::<ContactEnded>(&app)
                    .into_iter()
                    .map(|e| key(e.entity, e.other))
                    .collect(),
                triggered: app.world().resource::<Triggered>().0.clone(),
                colliding: colliding(app.world_mut()),
            }
        })
        .collect();
    assert!(
        frames.iter().any(|frame| !frame.triggered.is_empty())
            && frames
                .iter()
                .any(|frame| frame.colliding.iter().any(|(_, set)| !set.is_empty())),
        "the scene triggered no entity event or filled no CollidingEntities"
    );
    frames
}

/// Every [`CollidingEntities`], by entity, each set sorted.
fn colliding(world: &mut World) -> Vec<(u64, Vec<u64>)> {
    let mut sets: Vec<_> = world
        .query::<(Entity, &CollidingEntities)>()
        .iter(world)
        .map(|(entity, set)| {
            let mut others: Vec<u64> = set.iter().map(|other| other.to_bits()).collect();
            others.sort_unstable();
            (entity.to_bits(), others)
        })
        .collect();
    sets.sort_unstable();
    sets
}

/// Set in a child process: how many compute threads to run the scene with.
const THREADS_VARIABLE: &str = "COLLISION_EVENTS_DETERMINISM_THREADS";
/// Set in a child process: where to write what it recorded.
const OUTPUT_VARIABLE: &str = "COLLISION_EVENTS_DETERMINISM_OUTPUT";
/// Set in a child process: run the scene with swept colliders.
const SWEPT_VARIABLE: &str = "COLLISION_EVENTS_DETERMINISM_SWEPT";

/// Runs the scene in this process when asked to by [`run_in_child`] (and does nothing in a
/// normal test run). Bevy's task pools are process-wide and set once, so each thread count
/// needs a process of its own.
#[test]
fn determinism_child() {
    let (Ok(threads), Ok(output)) = (
        std::env::var(THREADS_VARIABLE),
        std::env::var(OUTPUT_VARIABLE),
    ) else {
        return;
    };
    let threads: usize = threads.parse().unwrap();
    let frames = run(threads, std::env::var_os(SWEPT_VARIABLE).is_some());
    assert_eq!(
        bevy::tasks::ComputeTaskPool::get().thread_num(),
        threads,
        "the compute pool must have the threads asked for"
    );
    std::fs::write(output, format!("{frames:#?}")).unwrap();
}

/// Runs [`determinism_child`] in a new process of this test binary; returns what it recorded.
fn run_in_child(threads: usize, run_name: &str, swept: bool) -> String {
    let output = std::env::temp_dir().join(format!(
        "collision-events-determinism-{}-{run_name}.txt",
        std::process::id()
    ));
    let mut command = std::process::Command::new(std::env::current_exe().unwrap());
    if swept {
        command.env(SWEPT_VARIABLE, "1");
    }
    let child = command
        .args([
            "--exact",
            "determinism::determinism_child",
            "--test-threads=1",
        ])
        .env(THREADS_VARIABLE, threads.to_string())
        .env(OUTPUT_VARIABLE, &output)
        .output()
        .unwrap();
    assert!(
        child.status.success(),
        "the child run with {threads} threads failed:\n{}\n{}",
        String::from_utf8_lossy(&child.stdout),
        String::from_utf8_lossy(&child.stderr)
    );
    let recorded = std::fs::read_to_string(&output).unwrap();
    let _ = std::fs::remove_file(&output);
    recorded
}

#[test]
fn same_scene_same_messages_whatever_the_thread_count() {
    let single = run_in_child(1, "single", false);
    assert!(single.len() > 100_000, "the scene recorded too little");
    assert_eq!(
        single,
        run_in_child(1, "single-again", false),
        "two runs on one thread differ"
    );
    assert_eq!(
        single,
        run_in_child(2, "two", false),
        "one thread and two threads differ"
    );
}

#[test]
fn same_swept_scene_same_messages_whatever_the_thread_count() {
    let single = run_in_child(1, "swept-single", true);
    assert!(single.contains("Some("), "no impact recorded");
    assert_eq!(
        single,
        run_in_child(2, "swept-two", true),
        "one thread and two threads differ"
    );
}

#[test]
fn the_scene_is_busy_enough_to_prove_something() {
    let frames = run(1, false);
    let total: usize = frames.iter().map(|f| f.contacts.len()).sum();
    let started: usize = frames.iter().map(|f| f.started.len()).sum();
    let ended: usize = frames.iter().map(|f| f.ended.len()).sum();
    assert!(
        total > 1000 && started > 50 && ended > 20,
        "{total} contacts, {started} started, {ended} ended"
    );
}
