//! Soak: a churning bullet-hell scene run for tens of thousands of frames, checked every frame.
//!
//! Every frame bullets are spawned (half of them swept) and old ones despawned; an observer
//! despawns some bullets on their first hit, as a game would; enemies (concave stars) drift, one
//! is switched off and on, another changes layers; lasers sweep around; walls stand still.
//! After every frame:
//! - the pairs opened by `ContactStarted` messages and not yet closed by `ContactEnded` are
//!   exactly the pairs in `Contacts` (no start twice, no end without a start, none lost);
//! - every `Contact` point and impact is finite;
//! - nothing panicked.
//!
//! At the end, with every collider despawned, every pair has ended. Memory is measured with a
//! counting allocator: the bytes live in the last stretch of the run may not exceed those of an
//! early stretch (after warm-up) by more than a few percent, so no buffer of the plugin grows
//! without bound. This is an ordinary test: `cargo test` runs it, in about 15 seconds here.

use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_collision_events::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The system allocator, counting the bytes currently allocated.
struct Counting;

static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on unchanged to `System`, which upholds `GlobalAlloc`'s contract;
// the counter is only arithmetic beside it.
#[allow(
    unsafe_code,
    reason = "a counting allocator, to measure memory in this test only"
)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's `layout` is passed on as given.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `pointer` came from `System` with this `layout`, as the caller guarantees.
        unsafe { System.dealloc(pointer, layout) }
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE_BYTES.fetch_add(new_size, Ordering::Relaxed);
        LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: as for `dealloc`, and `new_size` is the caller's.
        unsafe { System.realloc(pointer, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Frames run in all.
const FRAMES: usize = 50_000;
/// Frames before memory is first measured: the population takes [`BULLET_LIFETIME`] frames to
/// settle, and every buffer some more to reach its working size.
const WARM_UP_FRAMES: usize = 2_000;
/// How many frames each measured stretch of memory spans.
const STRETCH: usize = 2_000;
/// How much more the last stretch may hold than the first, as a fraction.
const MEMORY_SLACK: f64 = 0.05;

const FIELD: Vec2 = Vec2::new(800.0, 600.0);
const BULLETS_PER_FRAME: usize = 12;
const BULLET_LIFETIME: u32 = 120;
const BULLET_RADIUS: f32 = 3.0;
const ENEMIES: usize = 8;
const LASERS: usize = 3;
const LASER_LENGTH: f32 = 300.0;

const BULLET: LayerMask = LayerMask::layer(0);
const ENEMY: LayerMask = LayerMask::layer(1);
const WALL: LayerMask = LayerMask::layer(2);
const LASER: LayerMask = LayerMask::layer(3);

#[derive(Component)]
struct Bullet {
    velocity: Vec2,
    age: u32,
    /// Whether the bullet dies on its first hit of an enemy.
    fragile: bool,
}

#[derive(Component)]
struct Enemy {
    home: Vec2,
    phase: f32,
}

#[derive(Component)]
struct Laser {
    turn_rate: f32,
}

/// The frame number, and the randomness of the scene.
#[derive(Resource)]
struct Scene {
    frame: usize,
    rng: StdRng,
    /// Whether bullets are still spawned.
    spawning: bool,
}

/// A five-pointed concave star.
fn star(outer: f32, inner: f32) -> PolygonCollider {
    PolygonCollider::new(
        (0..10)
            .map(|i| {
                let radius = if i % 2 == 0 { outer } else { inner };
                Vec2::from_angle(i as f32 * std::f32::consts::TAU / 10.0) * radius
            })
            .collect::<Vec<_>>(),
    )
}

fn set_up(mut commands: Commands) {
    for i in 0..ENEMIES {
        let home = Vec2::new(100.0 + 85.0 * i as f32, 200.0 + 40.0 * (i % 3) as f32);
        commands.spawn((
            star(30.0, 14.0),
            CollisionLayers::new(ENEMY, BULLET | LASER),
            Transform::from_translation(home.extend(0.0)),
            Enemy {
                home,
                phase: i as f32,
            },
        ));
    }
    let corners = [
        Vec2::ZERO,
        Vec2::new(FIELD.x, 0.0),
        FIELD,
        Vec2::new(0.0, FIELD.y),
    ];
    for (i, &corner) in corners.iter().enumerate() {
        commands.spawn((
            SegmentCollider::new(corner, corners[(i + 1) % 4]),
            CollisionLayers::new(WALL, BULLET),
        ));
    }
    for i in 0..LASERS {
        commands.spawn((
            SegmentCollider::new(Vec2::ZERO, Vec2::X * LASER_LENGTH),
            CollisionLayers::new(LASER, ENEMY),
            Transform::from_xyz(200.0 + 200.0 * i as f32, 450.0, 0.0),
            Laser {
                turn_rate: 0.01 + 0.015 * i as f32,
            },
        ));
    }
    commands.add_observer(despawn_fragile_bullets);
}

/// Spawns this frame's bullets and ages, moves and despawns the old ones.
fn churn(
    mut commands: Commands,
    mut scene: ResMut<Scene>,
    mut bullets: Query<(Entity, &mut Bullet, &mut Transform)>,
) {
    scene.frame += 1;
    for (entity, mut bullet, mut transform) in &mut bullets {
        bullet.age += 1;
        let position = transform.translation.truncate() + bullet.velocity;
        if bullet.age > BULLET_LIFETIME || !Rect::from_corners(Vec2::ZERO, FIELD).contains(position)
        {
            commands.entity(entity).despawn();
        } else {
            transform.translation = position.extend(0.0);
        }
    }
    let count = if scene.spawning { BULLETS_PER_FRAME } else { 0 };
    for i in 0..count {
        let start = Vec2::new(
            scene.rng.random_range(10.0..FIELD.x - 10.0),
            scene.rng.random_range(10.0..FIELD.y - 10.0),
        );
        let speed = scene.rng.random_range(2.0..40.0);
        let velocity = Vec2::from_angle(scene.rng.random_range(0.0..std::f32::consts::TAU)) * speed;
        let mut bullet = commands.spawn((
            CircleCollider::new(BULLET_RADIUS),
            CollisionLayers::new(BULLET, ENEMY | WALL),
            Transform::from_translation(start.extend(0.0)),
            Bullet {
                velocity,
                age: 0,
                fragile: i % 2 == 0,
            },
        ));
        if i % 4 < 2 {
            bullet.insert(Swept::default());
        }
    }
}

/// Enemies drift; one is switched off and on, another changes layers; lasers turn.
fn animate(
    mut commands: Commands,
    scene: Res<Scene>,
    mut enemies: Query<(Entity, &Enemy, &mut Transform, &mut CollisionLayers), Without<Laser>>,
    mut lasers: Query<(&Laser, &mut Transform), Without<Enemy>>,
) {
    let time = scene.frame as f32 / 60.0;
    for (index, (entity, enemy, mut transform, mut layers)) in enemies.iter_mut().enumerate() {
        let drift = Vec2::new((time + enemy.phase).sin(), (1.3 * time + enemy.phase).cos());
        transform.translation = (enemy.home + drift * 60.0).extend(0.0);
        transform.rotation = Quat::from_rotation_z(time * 0.5 + enemy.phase);
        if index == 0 && scene.frame.is_multiple_of(97) {
            if scene.frame.is_multiple_of(194) {
                commands.entity(entity).remove::<ColliderDisabled>();
            } else {
                commands.entity(entity).insert(ColliderDisabled);
            }
        }
        if index == 1 && scene.frame.is_multiple_of(53) {
            let targets = if scene.frame.is_multiple_of(106) {
                BULLET | LASER
            } else {
                LASER
            };
            *layers = CollisionLayers::new(ENEMY, targets);
        }
    }
    for (laser, mut transform) in &mut lasers {
        transform.rotation = Quat::from_rotation_z(time * 60.0 * laser.turn_rate);
    }
}

/// A fragile bullet dies on its first hit of an enemy, in the observer, as a game's would.
fn despawn_fragile_bullets(
    started: On<ContactStarted>,
    bullets: Query<&Bullet>,
    enemies: Query<(), With<Enemy>>,
    mut commands: Commands,
) {
    if let Ok(bullet) = bullets.get(started.entity)
        && bullet.fragile
        && enemies.contains(started.other)
    {
        commands.entity(started.entity).despawn();
    }
}

/// The pair as an order-free key.
fn key(a: Entity, b: Entity) -> (Entity, Entity) {
    (a.min(b), a.max(b))
}

/// What the checks found so far.
#[derive(Resource, Default)]
struct Ledger {
    /// Pairs started and not yet ended.
    open: HashSet<(Entity, Entity)>,
    starts: usize,
    ends: usize,
    contacts: usize,
    impacts: usize,
}

/// Keeps the ledger from this frame's messages and checks it against `Contacts`.
fn check(
    mut ledger: ResMut<Ledger>,
    mut started: MessageReader<ContactStarted>,
    mut ended: MessageReader<ContactEnded>,
    mut contacts: MessageReader<Contact>,
    now: Res<Contacts>,
    scene: Res<Scene>,
) {
    let frame = scene.frame;
    for contact in contacts.read() {
        ledger.contacts += 1;
        assert!(
            contact.points.iter().all(|point| point.is_finite()),
            "frame {frame}: {contact:?}"
        );
        if let Some(impact) = contact.impact {
            ledger.impacts += 1;
            assert!(
                impact.time.is_finite() && impact.point.is_finite() && impact.normal.is_finite(),
                "frame {frame}: {contact:?}"
            );
        }
    }
    for end in ended.read() {
        ledger.ends += 1;
        assert!(
            ledger.open.remove(&key(end.entity, end.other)),
            "frame {frame}: {end:?} without a start"
        );
    }
    for start in started.read() {
        ledger.starts += 1;
        assert!(
            ledger.open.insert(key(start.entity, start.other)),
            "frame {frame}: {start:?} twice"
        );
    }
    let touching: HashSet<_> = now
        .iter()
        .map(|contact| key(contact.a, contact.b))
        .collect();
    assert_eq!(touching, ledger.open, "frame {frame}");
}

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin, CollisionPlugin::default()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 60.0,
        )))
        .insert_resource(Scene {
            frame: 0,
            rng: StdRng::seed_from_u64(0x50a4),
            spawning: true,
        })
        .init_resource::<Ledger>()
        .add_systems(Startup, set_up)
        .add_systems(Update, (churn, animate))
        .add_systems(Last, check);
    app
}

#[test]
fn fifty_thousand_frames_of_churn_keep_every_pair_balanced_and_memory_flat() {
    let mut app = app();
    let mut live = Vec::with_capacity(FRAMES);
    for _ in 0..FRAMES {
        app.update();
        live.push(LIVE_BYTES.load(Ordering::Relaxed));
    }
    // Spawning stops, everything is despawned, and every pair ends.
    app.world_mut().resource_mut::<Scene>().spawning = false;
    let everyone: Vec<Entity> = app
        .world_mut()
        .query_filtered::<Entity, Or<(
            With<CircleCollider>,
            With<SegmentCollider>,
            With<PolygonCollider>,
        )>>()
        .iter(app.world())
        .collect();
    for entity in everyone {
        app.world_mut().despawn(entity);
    }
    app.update();
    let ledger = app.world().resource::<Ledger>();
    assert!(ledger.open.is_empty(), "still open: {:?}", ledger.open);
    assert_eq!(ledger.starts, ledger.ends);
    assert!(
        ledger.starts > 2 * FRAMES,
        "too quiet: {} starts",
        ledger.starts
    );
    assert!(
        ledger.impacts > FRAMES,
        "too few impacts: {}",
        ledger.impacts
    );
    let peak = |frames: &[usize]| frames.iter().copied().max().unwrap_or(0) as f64;
    let early = peak(&live[WARM_UP_FRAMES..WARM_UP_FRAMES + STRETCH]);
    let late = peak(&live[FRAMES - STRETCH..]);
    println!(
        "{} starts, {} contacts, {} impacts; live bytes: {early} early, {late} late",
        ledger.starts, ledger.contacts, ledger.impacts
    );
    assert!(
        late <= early * (1.0 + MEMORY_SLACK),
        "memory grew from {early} to {late} bytes"
    );
}
