//! The enemies: the waves they come in, how they fly in and drift, and how they fire.

use std::f32::consts::{FRAC_PI_2, TAU};

use bevy::prelude::*;
use bevy_collision_events::prelude::*;

use super::{
    CRAB_OUTLINE, ENEMY_BULLET_Z, ENEMY_LAYERS, ENEMY_SHOT_LAYERS, ENEMY_Z, Enemy, EnemyBullet,
    EnemyKind, Game, HALF_FIELD, Player, Role, Velocity,
    collisions::enemy_hit,
    gun_fires, star_outline,
    storm::{is_storm, spawn_storm},
};

// Waves.
pub(super) const FIRST_WAVE_DELAY: f32 = 0.5;
const NEXT_WAVE_DELAY: f32 = 1.0;
/// A wave has `ENEMIES_BASE + ENEMIES_PER_WAVE × wave` enemies, at most `MAX_ENEMIES`, in two
/// rows.
const ENEMIES_BASE: u32 = 4;
const ENEMIES_PER_WAVE: u32 = 2;
const MAX_ENEMIES: u32 = 20;
const ENEMY_ROWS: u32 = 2;
const ENEMY_TOP_ROW_Y: f32 = 230.0;
const ENEMY_ROW_GAP: f32 = 90.0;
/// Enemies' homes span x in ±`ENEMY_SPAN`.
const ENEMY_SPAN: f32 = HALF_FIELD.x - 80.0;
/// Each wave's enemies are this much tougher than the first's (in health, per wave).
const TOUGHNESS_PER_WAVE: f32 = 0.25;

// How enemies move: they fly in from above, then sway sideways and bob around their home.
const ENTRY_HEIGHT: f32 = 420.0;
pub(super) const ENTRY_SECONDS: f32 = 1.0;
const DRIFT_PHASE_STEP: f32 = 0.9;
const SWAY_WIDTH: f32 = 40.0;
/// Sway widths vary by `SWAY_WIDTH_STEP` over `SWAY_VARIANTS` enemies in a row.
const SWAY_WIDTH_STEP: f32 = 10.0;
const SWAY_VARIANTS: u32 = 4;
const SWAY_RATE: f32 = 0.8;
const BOB_HEIGHT: f32 = 12.0;
const BOB_RATE: f32 = 1.6;

// How enemies fire.
/// Seconds from an enemy's spawn to its first volley: it fires as it arrives, having flown in
/// for as long.
const GUN_FIRST_DELAY: f32 = 1.0;
/// Each enemy fires its first volley this much after the one before.
const GUN_STAGGER: f32 = 0.15;
/// Seconds between volleys at wave 0, shortened by `GUN_FASTER_PER_WAVE` per wave down to
/// `GUN_MIN_PERIOD`.
const GUN_PERIOD: f32 = 2.2;
const GUN_FASTER_PER_WAVE: f32 = 0.25;
const GUN_MIN_PERIOD: f32 = 0.45;
const ENEMY_BULLET_RADIUS: f32 = 4.0;
const ENEMY_BULLET_SPEED: f32 = 130.0;
const ENEMY_BULLET_SPEED_PER_WAVE: f32 = 10.0;
/// Enemy bullets start this far from the enemy's centre.
const ENEMY_GUN_REACH: f32 = 20.0;

/// The kinds of enemy, in the order a wave's enemies take them.
const ENEMY_KINDS: [EnemyKind; 3] = [EnemyKind::Star, EnemyKind::Orb, EnemyKind::Crab];

// The three kinds of enemy: health at wave 0, points, shape, and fire pattern (a pattern's
// bullet count grows with the wave, up to a cap).
const STAR_HEALTH: f32 = 6.0;
const STAR_VALUE: u32 = 150;
const STAR_SPIKES: usize = 5;
const STAR_OUTER_RADIUS: f32 = 28.0;
const STAR_INNER_RADIUS: f32 = 12.0;
/// Radians per second, plus `STAR_SPIN_STEP` over `STAR_SPIN_VARIANTS` stars.
const STAR_SPIN: f32 = 1.5;
const STAR_SPIN_STEP: f32 = 0.3;
const STAR_SPIN_VARIANTS: u32 = 3;
const STAR_RING_BULLETS: usize = 12;
const STAR_RING_BULLETS_PER_WAVE: usize = 6;
const STAR_RING_WAVE_CAP: u32 = 12;

const ORB_HEALTH: f32 = 4.0;
const ORB_VALUE: u32 = 100;
const ORB_RADIUS: f32 = 20.0;
const ORB_BURST_BULLETS: usize = 3;
const ORB_BURST_WAVE_CAP: u32 = 8;
/// Radians between two bullets of a burst.
const ORB_BURST_STEP: f32 = 0.06;

const CRAB_HEALTH: f32 = 9.0;
const CRAB_VALUE: u32 = 200;
/// Crabs grow by `CRAB_GROWTH` over `CRAB_SIZES` sizes.
const CRAB_GROWTH: f32 = 0.2;
const CRAB_SIZES: u32 = 3;
const CRAB_FAN_BULLETS: usize = 9;
const CRAB_FAN_BULLETS_PER_WAVE: usize = 3;
const CRAB_FAN_WAVE_CAP: u32 = 10;
/// Radians from the fan's first bullet to its last.
const CRAB_FAN_WIDTH: f32 = 2.2;

/// Moves an enemy around its home: a sideways sway and a bob, after flying in from above.
#[derive(Component)]
pub(super) struct Drift {
    home: Vec2,
    phase: f32,
    sway: f32,
    age: f32,
}

impl Drift {
    /// The drift of the `index`-th enemy of a wave around `home`, swaying `sway` pixels either
    /// side, from the start of its entry.
    pub(super) fn new(home: Vec2, index: u32, sway: f32) -> Self {
        Self {
            home,
            phase: index as f32 * DRIFT_PHASE_STEP,
            sway,
            age: 0.0,
        }
    }

    /// Where an enemy that will hover around `home` starts its entry, above the screen.
    pub(super) fn entry_transform(home: Vec2) -> Transform {
        Transform::from_translation((home + Vec2::new(0.0, ENTRY_HEIGHT)).extend(ENEMY_Z))
    }
}

/// Turns an entity at a steady rate (radians per second).
#[derive(Component)]
pub(super) struct Spin(pub(super) f32);

/// An enemy's gun: fires its pattern every `period` seconds.
#[derive(Component)]
pub(super) struct Gun {
    cooldown: f32,
    period: f32,
}

/// The `index`-th enemy of `wave`, of `kind`, above its `home`, flying in.
fn spawn_enemy(commands: &mut Commands, kind: EnemyKind, home: Vec2, wave: u32, index: u32) {
    let drift = Drift::new(
        home,
        index,
        SWAY_WIDTH + SWAY_WIDTH_STEP * (index % SWAY_VARIANTS) as f32,
    );
    let gun = Gun {
        cooldown: GUN_FIRST_DELAY + GUN_STAGGER * index as f32,
        period: (GUN_PERIOD / (1.0 + GUN_FASTER_PER_WAVE * wave as f32)).max(GUN_MIN_PERIOD),
    };
    let start = Drift::entry_transform(home);
    let enemy = |health, value| enemy_parts(kind, health, value, wave);
    let mut entity = match kind {
        EnemyKind::Star => commands.spawn((
            enemy(STAR_HEALTH, STAR_VALUE),
            PolygonCollider::new(star_outline(
                STAR_SPIKES,
                STAR_OUTER_RADIUS,
                STAR_INNER_RADIUS,
            )),
            Spin(STAR_SPIN + STAR_SPIN_STEP * (index % STAR_SPIN_VARIANTS) as f32),
            start,
        )),
        EnemyKind::Orb => commands.spawn((
            enemy(ORB_HEALTH, ORB_VALUE),
            CircleCollider::new(ORB_RADIUS),
            start,
        )),
        EnemyKind::Crab => commands.spawn((
            enemy(CRAB_HEALTH, CRAB_VALUE),
            PolygonCollider::new(CRAB_OUTLINE),
            start.with_scale(Vec3::splat(1.0 + CRAB_GROWTH * (index % CRAB_SIZES) as f32)),
        )),
    };
    entity.insert((drift, gun)).observe(enemy_hit);
}

/// What every enemy of `kind` at `wave` has: its health (`health` at wave 0, tougher each
/// wave), the points it is worth, its looks and its layers.
pub(super) fn enemy_parts(kind: EnemyKind, health: f32, value: u32, wave: u32) -> impl Bundle {
    let toughness = 1.0 + TOUGHNESS_PER_WAVE * wave as f32;
    (
        Enemy {
            health: health * toughness,
            value,
            kind,
        },
        Role::Enemy(kind),
        ENEMY_LAYERS,
    )
}

/// When a wave is cleared, the next one comes: more enemies, tougher, firing faster.
pub(super) fn spawn_waves(
    mut commands: Commands,
    time: Res<Time>,
    mut game: ResMut<Game>,
    enemies: Query<(), With<Enemy>>,
) {
    if !enemies.is_empty() {
        return;
    }
    game.next_wave_in -= time.delta_secs();
    if game.next_wave_in > 0.0 {
        return;
    }
    game.wave += 1;
    game.next_wave_in = NEXT_WAVE_DELAY;
    if is_storm(game.wave) {
        spawn_storm(&mut commands, game.wave);
        return;
    }
    let count = (ENEMIES_BASE + ENEMIES_PER_WAVE * game.wave).min(MAX_ENEMIES);
    let columns = count.div_ceil(ENEMY_ROWS);
    for index in 0..count {
        let (row, column) = (index / columns, index % columns);
        let x = (column as f32 + 0.5) / columns as f32 * 2.0 * ENEMY_SPAN - ENEMY_SPAN;
        let home = Vec2::new(x, ENEMY_TOP_ROW_Y - row as f32 * ENEMY_ROW_GAP);
        let kind = ENEMY_KINDS[(index + game.wave) as usize % ENEMY_KINDS.len()];
        spawn_enemy(&mut commands, kind, home, game.wave, index);
    }
}

pub(super) fn move_enemies(
    time: Res<Time>,
    mut enemies: Query<(&mut Transform, &mut Drift, Option<&Spin>)>,
) {
    let dt = time.delta_secs();
    for (mut transform, mut drift, spin) in &mut enemies {
        drift.age += dt;
        let t = drift.age + drift.phase;
        let around = Vec2::new(
            drift.sway * (SWAY_RATE * t).sin(),
            BOB_HEIGHT * (BOB_RATE * t).sin(),
        );
        // Fly in from above during the entry, then follow the pattern.
        let entering = (1.0 - drift.age / ENTRY_SECONDS).clamp(0.0, 1.0);
        let position = drift.home + around + Vec2::new(0.0, ENTRY_HEIGHT * entering * entering);
        transform.translation = position.extend(transform.translation.z);
        if let Some(spin) = spin {
            transform.rotate_z(spin.0 * dt);
        }
    }
}

/// The directions of one volley of an enemy of `kind` at `wave`, turned `turn` radians,
/// aimed (where the pattern aims) along `aim`.
fn volley(kind: EnemyKind, wave: u32, turn: f32, aim: Vec2) -> Vec<Vec2> {
    match kind {
        // A ring that grows with the waves, turned by the star's own rotation.
        EnemyKind::Star => {
            let count = STAR_RING_BULLETS
                + STAR_RING_BULLETS_PER_WAVE * wave.min(STAR_RING_WAVE_CAP) as usize;
            (0..count)
                .map(|i| Vec2::from_angle(turn + i as f32 * TAU / count as f32))
                .collect()
        }
        // An aimed burst, centred on the aim.
        EnemyKind::Orb => {
            let count = ORB_BURST_BULLETS + wave.min(ORB_BURST_WAVE_CAP) as usize;
            let middle = (count - 1) as f32 / 2.0;
            (0..count)
                .map(|i| aim.rotate(Vec2::from_angle(ORB_BURST_STEP * (i as f32 - middle))))
                .collect()
        }
        // A wide fan downwards.
        EnemyKind::Crab => {
            let count =
                CRAB_FAN_BULLETS + CRAB_FAN_BULLETS_PER_WAVE * wave.min(CRAB_FAN_WAVE_CAP) as usize;
            (0..count)
                .map(|i| {
                    let across = i as f32 / (count - 1) as f32 - 0.5;
                    Vec2::from_angle(-FRAC_PI_2 + across * CRAB_FAN_WIDTH)
                })
                .collect()
        }
    }
}

pub(super) fn fire_enemy_bullets(
    mut commands: Commands,
    time: Res<Time>,
    game: Res<Game>,
    player: Single<&Transform, With<Player>>,
    mut guns: Query<(&Transform, &Enemy, &mut Gun, &Drift)>,
) {
    let target = player.translation.truncate();
    let speed = ENEMY_BULLET_SPEED + ENEMY_BULLET_SPEED_PER_WAVE * game.wave as f32;
    for (transform, enemy, mut gun, drift) in &mut guns {
        let (period, ready) = (gun.period, drift.age >= ENTRY_SECONDS);
        if !gun_fires(&mut gun.cooldown, time.delta_secs(), period, ready) {
            continue;
        }
        let origin = transform.translation.truncate();
        let aim = (target - origin).normalize_or(Vec2::NEG_Y);
        let turn = transform.rotation.to_euler(EulerRot::ZYX).0;
        for direction in volley(enemy.kind, game.wave, turn, aim) {
            spawn_enemy_bullet(
                &mut commands,
                origin + direction * ENEMY_GUN_REACH,
                direction * speed,
                ENEMY_BULLET_RADIUS,
                (),
            );
        }
    }
}

/// An enemy bullet of `radius` at `at`, flying at `velocity`.
pub fn spawn_enemy_bullet(
    commands: &mut Commands,
    at: Vec2,
    velocity: Vec2,
    radius: f32,
    extra: impl Bundle,
) {
    commands.spawn((
        EnemyBullet,
        CircleCollider::new(radius),
        Swept::default(),
        ENEMY_SHOT_LAYERS,
        Velocity(velocity),
        Transform::from_translation(at.extend(ENEMY_BULLET_Z)),
        extra,
    ));
}
