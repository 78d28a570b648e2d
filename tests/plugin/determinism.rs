//! The same scene gives the same messages in the same order: run twice, and with one and with
//! two task-pool threads (the parallel paths forced on by a low threshold), bodies and pair
//! filters included. The [`Contacts`] resource says what the messages say.

use crate::common::{app_with_threads, last_frame};
use bevy::prelude::*;
use bevy_collision_events::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

#[derive(Component)]
struct Velocity(Vec2);

/// A contact as comparable values: its pair, its bodies, the bits of its points, and its
/// containment.
type Recorded = (u64, u64, [u64; 2], Vec<[u32; 2]>, Containment);

/// Everything the plugin wrote over a run, frame by frame, as comparable values.
#[derive(Debug, PartialEq)]
struct Frame {
    contacts: Vec<Recorded>,
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

/// Which scene a run spawns.
#[derive(Clone, Copy, PartialEq)]
enum Scene {
    /// 600 colliders of every kind and several layer values, in random places.
    Mixed,
    /// The same, every second one swept.
    Swept,
    /// One large target under 2,000 bullets of one table falling through it: each piece of
    /// the split makes a list of contacts of its own bullets, and the lists do not overlap,
    /// so they are handed on as they are (seen by hand with a print in `Contacts::replace`:
    /// up to ten lists a frame on two threads; the test checks what they read as).
    Rain,
    /// Twenty bodies of three overlapping parts each, and bullets rising through them.
    Bodies,
    /// Three ships, and bullets each fired by one of them and opted in to a pair filter that
    /// turns away its pair with its own ship.
    Filtered,
}

impl Scene {
    fn name(self) -> &'static str {
        match self {
            Self::Mixed => "mixed",
            Self::Swept => "swept",
            Self::Rain => "rain",
            Self::Bodies => "bodies",
            Self::Filtered => "filtered",
        }
    }

    fn from_name(name: &str) -> Self {
        [
            Self::Mixed,
            Self::Swept,
            Self::Rain,
            Self::Bodies,
            Self::Filtered,
        ]
        .into_iter()
        .find(|scene| scene.name() == name)
        .expect("a scene's name")
    }
}

/// Spawns the scene: see [`spawn_mixed`] and [`spawn_rain`]. Returns the unplaceable
/// colliders.
fn spawn_scene(app: &mut App, seed: u64, scene: Scene) -> Vec<Entity> {
    match scene {
        Scene::Mixed => spawn_mixed(app, seed, false),
        Scene::Swept => spawn_mixed(app, seed, true),
        Scene::Rain => spawn_rain(app),
        Scene::Bodies => spawn_bodies(app, seed),
        Scene::Filtered => spawn_filtered(app, seed),
    }
}

/// The layer of the targets of [`Scene::Bodies`] and [`Scene::Filtered`].
const TARGET: LayerMask = LayerMask::layer(0);
/// The layer of their bullets, which meet the targets only.
const BULLET: LayerMask = LayerMask::layer(1);

/// Bullets rising from `y = -100` across `x` in `-520..500`, at random speeds, meeting only
/// the targets; every 7th keeps a [`CollidingEntities`]. `fired_by` makes the bullet `i` the
/// shot of `fired_by(i)`, opted in to the pair filter.
fn spawn_bullets(
    app: &mut App,
    seed: u64,
    count: usize,
    fired_by: Option<&dyn Fn(usize) -> Entity>,
) {
    let mut rng = StdRng::seed_from_u64(seed);
    for i in 0..count {
        let at = Vec3::new(rng.random_range(-520.0..500.0), -100.0, 0.0);
        let velocity = Vec2::new(0.0, rng.random_range(1.0..6.0));
        let radius = rng.random_range(1.0..6.0);
        let mut bullet = app.world_mut().spawn((
            CircleCollider::new(radius),
            CollisionLayers::new(BULLET, TARGET),
            Transform::from_translation(at),
            Velocity(velocity),
        ));
        if i % 7 == 0 {
            bullet.insert(CollidingEntities::default());
        }
        if let Some(fired_by) = fired_by {
            bullet.insert((crate::filters::FiredBy(fired_by(i)), FilterPairs));
        }
    }
}

/// Twenty bodies of three overlapping parts each, in a row, and 800 bullets rising through
/// them: see [`Scene::Bodies`].
fn spawn_bodies(app: &mut App, seed: u64) -> Vec<Entity> {
    for index in 0..20 {
        let at = Vec3::new(index as f32 * 50.0 - 500.0, 0.0, 0.0);
        let body = app
            .world_mut()
            .spawn((CollisionBody::default(), Transform::from_translation(at)))
            .id();
        for part in 0..3 {
            let offset = Vec3::new(0.0, part as f32 * 12.0 - 12.0, 0.0);
            app.world_mut().spawn((
                CircleCollider::new(10.0),
                CollisionLayers::new(TARGET, BULLET),
                Transform::from_translation(offset),
                ChildOf(body),
            ));
        }
    }
    spawn_bullets(app, seed, 800, None);
    Vec::new()
}

/// Three ships, and 1,500 bullets rising through them, each fired by one of them: see
/// [`Scene::Filtered`].
fn spawn_filtered(app: &mut App, seed: u64) -> Vec<Entity> {
    let ships: Vec<Entity> = [-100.0, 0.0, 100.0]
        .into_iter()
        .map(|x| {
            let ship = (
                PolygonCollider::regular(60.0, 6),
                CollisionLayers::new(TARGET, BULLET),
                Transform::from_xyz(x, 0.0, 0.0),
            );
            app.world_mut().spawn(ship).id()
        })
        .collect();
    spawn_bullets(app, seed, 1500, Some(&|i| ships[i % 3]));
    Vec::new()
}

/// One octagon that keeps a [`CollidingEntities`], then 2,000 small circles in rows above it,
/// falling, all of one table (as a bullet hell spawns them: a second table would interleave
/// its entities with the first's, and the lists would overlap); every 30th has a NaN
/// position.
fn spawn_rain(app: &mut App) -> Vec<Entity> {
    const TARGET: LayerMask = LayerMask::layer(0);
    const BULLET: LayerMask = LayerMask::layer(1);
    app.world_mut().spawn((
        Transform::default(),
        PolygonCollider::regular(120.0, 8),
        CollisionLayers::new(TARGET, BULLET),
        CollidingEntities::default(),
    ));
    let mut unplaceable = Vec::new();
    for i in 0..2000 {
        let (column, row) = ((i % 40) as f32, (i / 40) as f32);
        let mut translation = Vec3::new(-200.0 + 10.0 * column, 150.0 + 12.0 * row, 0.0);
        if i % 30 == 0 {
            translation.x = f32::NAN;
        }
        let entity = app.world_mut().spawn((
            Transform::from_translation(translation),
            CircleCollider::new(4.0),
            CollisionLayers::new(BULLET, TARGET),
            Velocity(Vec2::new(0.0, -17.0)),
        ));
        if i % 30 == 0 {
            unplaceable.push(entity.id());
        }
    }
    unplaceable
}

/// Spawns 600 colliders; every 30th (a circle) has a NaN position, so that the plugin skips
/// bodies in the middle of the ones it places in parallel, and every 7th keeps a
/// [`CollidingEntities`]. With `swept`, every second is [`Swept`] and moves ten times as fast
/// (so the skipped circles are among the swept ones too, in the same table as placed ones, a
/// table long enough to be cut into pieces).
/// Returns the unplaceable ones.
fn spawn_mixed(app: &mut App, seed: u64, swept: bool) -> Vec<Entity> {
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
                rng.random_range(4.0..16.0),
                rng.random_range(3..9),
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

fn run(threads: usize, scene: Scene) -> Vec<Frame> {
    let mut app = app_with_threads(Some(threads));
    if scene == Scene::Filtered {
        app = crate::filters::filtered(app);
    }
    app.insert_resource(CollisionSettings {
        parallel_threshold: 8,
        ..default()
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
    let unplaceable = spawn_scene(&mut app, 7, scene);
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
            if scene == Scene::Filtered {
                // No bullet meets the ship that fired it.
                let fired_by = |bullet| app.world().get::<crate::filters::FiredBy>(bullet);
                for contact in last_frame::<Contact>(&app) {
                    let own = |bullet, other| fired_by(bullet).is_some_and(|f| f.0 == other);
                    assert!(!own(contact.a, contact.b) && !own(contact.b, contact.a));
                }
            }
            let key = |a: Entity, b: Entity| (a.to_bits(), b.to_bits());
            // The resource holds what the messages say, however the threads made its lists.
            let contacts = app.world().resource::<Contacts>();
            let written = last_frame::<Contact>(&app);
            assert!(
                contacts.iter().eq(&written),
                "Contacts and the messages differ"
            );
            assert_eq!(contacts.iter().len(), written.len());
            // In `(a, b)` order, each pair once, `a < b`; the starts and ends likewise.
            assert!(written.iter().all(|c| c.a < c.b), "a pair out of order");
            let pairs = written.iter().map(|c| (c.a, c.b)).collect::<Vec<_>>();
            assert!(pairs.is_sorted_by(|p, q| p < q), "contacts out of order");
            let started = last_frame::<ContactStarted>(&app);
            let ended = last_frame::<ContactEnded>(&app);
            for events in [
                started
                    .iter()
                    .map(|e| (e.entity, e.other))
                    .collect::<Vec<_>>(),
                ended.iter().map(|e| (e.entity, e.other)).collect(),
            ] {
                assert!(events.iter().all(|(a, b)| a < b), "an event out of order");
                assert!(events.is_sorted_by(|p, q| p < q), "events out of order");
            }
            for contact in &written {
                assert_eq!(contacts.get(contact.b, contact.a), Some(contact));
                assert!(contacts.of(contact.b).any(|of| of == contact));
                assert!(contacts.touching(contact.a).any(|other| other == contact.b));
            }
            Frame {
                contacts: last_frame::<Contact>(&app)
                    .into_iter()
                    .map(|c| {
                        let points = c.points.iter().map(|p| [p.x.to_bits(), p.y.to_bits()]);
                        (
                            c.a.to_bits(),
                            c.b.to_bits(),
                            c.bodies.map(Entity::to_bits),
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
    if scene == Scene::Filtered {
        let asked = &app.world().resource::<crate::filters::Asked>().count;
        let asked = asked.load(std::sync::atomic::Ordering::Relaxed);
        assert!(asked > 1000, "the filter was asked {asked} times");
    }
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
/// Set in a child process: the name of the scene to run.
const SCENE_VARIABLE: &str = "COLLISION_EVENTS_DETERMINISM_SCENE";

/// Runs the scene in this process for [`run_in_child`]. Bevy's task pools are process-wide and
/// set once, so each thread count needs a process of its own.
#[test]
#[ignore = "the child process of the determinism tests, run by them with --ignored"]
fn determinism_child() {
    let threads = std::env::var(THREADS_VARIABLE).expect("run by run_in_child");
    let output = std::env::var(OUTPUT_VARIABLE).expect("run by run_in_child");
    let threads: usize = threads.parse().unwrap();
    let scene = std::env::var(SCENE_VARIABLE).map_or(Scene::Mixed, |name| Scene::from_name(&name));
    let frames = run(threads, scene);
    assert_eq!(
        bevy::tasks::ComputeTaskPool::get().thread_num(),
        threads,
        "the compute pool must have the threads asked for"
    );
    std::fs::write(output, format!("{frames:#?}")).unwrap();
}

/// Runs [`determinism_child`] in a new process of this test binary; returns what it recorded.
fn run_in_child(threads: usize, run_name: &str, scene: Scene) -> String {
    let output = std::env::temp_dir().join(format!(
        "collision-events-determinism-{}-{run_name}.txt",
        std::process::id()
    ));
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .env(SCENE_VARIABLE, scene.name())
        .args([
            "--exact",
            "determinism::determinism_child",
            "--ignored",
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

/// Whether this machine has cores for two compute threads at once. The plugin splits its
/// work across no more threads than there are cores: on one core, two threads run as one,
/// and comparing them would prove nothing. Says so where it cannot.
fn two_cores() -> bool {
    let cores = std::thread::available_parallelism().map_or(1, |cores| cores.get());
    if cores < 2 {
        eprintln!("skipped: comparing one thread with two needs two cores, and there is one");
    }
    cores >= 2
}

#[test]
fn same_scene_same_messages_whatever_the_thread_count() {
    if !two_cores() {
        return;
    }
    let single = run_in_child(1, "single", Scene::Mixed);
    assert!(single.len() > 100_000, "the scene recorded too little");
    assert_eq!(
        single,
        run_in_child(1, "single-again", Scene::Mixed),
        "two runs on one thread differ"
    );
    assert_eq!(
        single,
        run_in_child(2, "two", Scene::Mixed),
        "one thread and two threads differ"
    );
}

#[test]
fn same_swept_scene_same_messages_whatever_the_thread_count() {
    if !two_cores() {
        return;
    }
    let single = run_in_child(1, "swept-single", Scene::Swept);
    assert!(single.contains("Some("), "no impact recorded");
    assert_eq!(
        single,
        run_in_child(2, "swept-two", Scene::Swept),
        "one thread and two threads differ"
    );
}

/// Bodies' contacts, and what the bodies' observers hear, are the same on one thread and two.
#[test]
fn same_bodies_same_messages_whatever_the_thread_count() {
    if !two_cores() {
        return;
    }
    let single = run_in_child(1, "bodies-single", Scene::Bodies);
    assert_eq!(
        single,
        run_in_child(2, "bodies-two", Scene::Bodies),
        "one thread and two threads differ"
    );
}

/// A pair filter's contacts are the same on one thread and two: it is asked from each piece
/// of the split.
#[test]
fn same_filtered_scene_same_messages_whatever_the_thread_count() {
    if !two_cores() {
        return;
    }
    let single = run_in_child(1, "filtered-single", Scene::Filtered);
    assert_eq!(
        single,
        run_in_child(2, "filtered-two", Scene::Filtered),
        "one thread and two threads differ"
    );
}

/// Contacts made on two threads in lists that follow each other (see [`Scene::Rain`]) give
/// what one thread gives, in the messages and in [`Contacts`].
#[test]
fn same_rain_same_messages_whatever_the_thread_count() {
    if !two_cores() {
        return;
    }
    let single = run_in_child(1, "rain-single", Scene::Rain);
    assert_eq!(
        single,
        run_in_child(2, "rain-two", Scene::Rain),
        "one thread and two threads differ"
    );
}

#[test]
fn the_scenes_are_busy_enough_to_prove_something() {
    for scene in [Scene::Mixed, Scene::Rain, Scene::Bodies, Scene::Filtered] {
        let frames = run(1, scene);
        let total: usize = frames.iter().map(|f| f.contacts.len()).sum();
        let started: usize = frames.iter().map(|f| f.started.len()).sum();
        let ended: usize = frames.iter().map(|f| f.ended.len()).sum();
        assert!(
            total > 1000 && started > 50 && ended > 20,
            "{}: {total} contacts, {started} started, {ended} ended",
            scene.name()
        );
        let contacts = || frames.iter().flat_map(|frame| &frame.contacts);
        match scene {
            // The bullets meet the bodies' parts, whose contacts name the bodies.
            Scene::Bodies => assert!(
                contacts().all(|&(a, b, bodies, ..)| bodies != [a, b]),
                "a contact that is not a part's"
            ),
            // The bullets meet the ships, though never their own (see `run`).
            Scene::Filtered => assert!(total > 2000, "{total} contacts"),
            _ => {}
        }
    }
}
