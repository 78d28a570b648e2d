//! The shooter's rules: ships, bullets, a laser, waves, walls, scoring, and an autopilot.
//! Nothing here draws; `graphics.rs` adds the looks.
//!
//! The game learns about collisions only from `bevy_collision_events`:
//! - **observers** of [`ContactStarted`] on each enemy ([`enemy_hit`]), on the ship
//!   ([`ship_hit`]) and on each wall ([`absorb_shot`]): bullets strike once and vanish;
//! - the ship's [`CollidingEntities`], for rams that last ([`ram_player`]);
//! - the [`Contact`] messages, for the laser, which stops at the nearest point of everything
//!   it touches this frame ([`stop_laser`]); the [`Contacts`] resource for the statistics;
//! - [`Swept`] on every bullet: a player bullet covers 15 px a frame, more than its own size,
//!   and would otherwise pass through the walls and small enemies between two frames;
//! - [`CollisionLayers`], so shots never meet shots, and [`ColliderDisabled`] for the laser when
//!   it is off and the ship after a game over.

use std::f32::consts::{FRAC_PI_2, PI, TAU};
use std::time::{Duration, Instant};

use bevy::diagnostic::DiagnosticsStore;
use bevy::ecs::query::QueryFilter;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_collision_events::diagnostics::CollisionDiagnosticsPlugin;
use bevy_collision_events::prelude::*;

// By path: `tests/shooter.rs` includes this file as a module of its own, and the storm with it.
#[path = "storm.rs"]
mod storm;

pub use storm::STORM_EVERY;
use storm::{burn_out_storm_bullets, fire_storm, is_storm, spawn_storm};

// These constants are in `Transform` units, which the 2D camera shows 1:1 as pixels, and
// seconds.

/// Half the playfield: x in ±640, y in ±360.
pub const HALF_FIELD: Vec2 = Vec2::new(640.0, 360.0);
/// How far bullets fly past the edge of the field before they are removed.
const OFFSCREEN_MARGIN: f32 = 40.0;

// The player.
const LIVES: u32 = 5;
const PLAYER_START: Vec3 = Vec3::new(0.0, -HALF_FIELD.y + 60.0, PLAYER_Z);
const PLAYER_SPEED: f32 = 420.0;
/// How close the ship's centre comes to the edges of the field.
const PLAYER_BOUNDS: Vec2 = Vec2::new(HALF_FIELD.x - 20.0, HALF_FIELD.y - 30.0);
const INVULNERABLE_SECONDS: f32 = 2.0;
/// How long a game over lasts before the autopilot starts again.
const RESTART_SECONDS: f32 = 2.5;

// The player's weapons.
const PLAYER_FIRE_PERIOD: f32 = 0.08;
const PLAYER_BULLET_SPEED: f32 = 900.0;
const PLAYER_BULLET_RADIUS: f32 = 3.0;
/// Each volley: three bullets, turned this much (radians) from straight up.
const PLAYER_BULLET_SPREAD: [f32; 3] = [-0.08, 0.0, 0.08];
/// Where bullets leave the ship, from its centre.
const PLAYER_GUN: Vec2 = Vec2::new(0.0, 26.0);
/// What a bullet takes from an enemy's health.
const BULLET_DAMAGE: f32 = 1.0;
/// Homing missiles: one from each wing every period while firing, turning towards the nearest
/// enemy within their range (found with `SpatialQuery::nearest`) at a limited rate.
const MISSILE_PERIOD: f32 = 0.6;
const MISSILE_WINGS: [Vec2; 2] = [Vec2::new(-18.0, 6.0), Vec2::new(18.0, 6.0)];
const MISSILE_SPEED: f32 = 520.0;
const MISSILE_RADIUS: f32 = 4.0;
const MISSILE_RANGE: f32 = 700.0;
/// Radians per second.
const MISSILE_TURN_RATE: f32 = 4.0;
const MISSILE_DAMAGE: f32 = 2.0;
/// Seconds a missile flies before it burns out (one that found nothing could circle forever).
const MISSILE_LIFETIME: f32 = 2.5;
/// How far the laser reaches from the ship's nose.
pub const LASER_RANGE: f32 = 760.0;
/// Where the laser starts, from the ship's centre: its nose.
const LASER_NOSE: Vec2 = Vec2::new(0.0, 24.0);
/// What the laser takes from the enemy it burns, per second.
const LASER_DAMAGE_PER_SECOND: f32 = 12.0;

// Waves.
const FIRST_WAVE_DELAY: f32 = 0.5;
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
const ENTRY_SECONDS: f32 = 1.0;
const DRIFT_PHASE_STEP: f32 = 0.9;
const SWAY_WIDTH: f32 = 40.0;
/// Sway widths vary by `SWAY_WIDTH_STEP` over `SWAY_VARIANTS` enemies in a row.
const SWAY_WIDTH_STEP: f32 = 10.0;
const SWAY_VARIANTS: u32 = 4;
const SWAY_RATE: f32 = 0.8;
const BOB_HEIGHT: f32 = 12.0;
const BOB_RATE: f32 = 1.6;

// How enemies fire.
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

// Walls: a slanted segment and an L-shaped block on each side.
const WALL_SEGMENT: (Vec2, Vec2) = (Vec2::new(-70.0, 20.0), Vec2::new(70.0, -20.0));
const WALL_SEGMENT_AT: Vec2 = Vec2::new(450.0, -60.0);
const BLOCK_AT: Vec2 = Vec2::new(200.0, -90.0);

// Drawing order (z), back to front.
const ENEMY_Z: f32 = 0.0;
const ENEMY_BULLET_Z: f32 = 0.1;
const PLAYER_BULLET_Z: f32 = 0.2;
const LASER_Z: f32 = 0.3;
const WALL_Z: f32 = 0.5;
const PLAYER_Z: f32 = 1.0;

// Who can touch whom: shots never meet shots, so thousands of bullets cost nothing between
// themselves (the broad phase never compares them).
const PLAYER: LayerMask = LayerMask::layer(0);
const PLAYER_SHOT: LayerMask = LayerMask::layer(1);
const ENEMY: LayerMask = LayerMask::layer(2);
const ENEMY_SHOT: LayerMask = LayerMask::layer(3);
const WALL: LayerMask = LayerMask::layer(4);
const PLAYER_LAYERS: CollisionLayers = CollisionLayers::new(PLAYER, ENEMY.union(ENEMY_SHOT));
const PLAYER_SHOT_LAYERS: CollisionLayers = CollisionLayers::new(PLAYER_SHOT, ENEMY.union(WALL));
const ENEMY_LAYERS: CollisionLayers = CollisionLayers::new(ENEMY, PLAYER_SHOT.union(PLAYER));
const ENEMY_SHOT_LAYERS: CollisionLayers = CollisionLayers::new(ENEMY_SHOT, PLAYER.union(WALL));
const WALL_LAYERS: CollisionLayers = CollisionLayers::new(WALL, PLAYER_SHOT.union(ENEMY_SHOT));

// The shapes: the colliders, which the graphics draw too.

/// The ship: an arrowhead with a notch at the back (concave).
const SHIP_OUTLINE: [Vec2; 4] = [
    Vec2::new(0.0, 24.0),
    Vec2::new(16.0, -16.0),
    Vec2::new(0.0, -6.0),
    Vec2::new(-16.0, -16.0),
];

/// A crab: a body with two claws raised (concave).
const CRAB_OUTLINE: [Vec2; 10] = [
    Vec2::new(-30.0, -8.0),
    Vec2::new(-22.0, 16.0),
    Vec2::new(-12.0, 2.0),
    Vec2::new(0.0, 10.0),
    Vec2::new(12.0, 2.0),
    Vec2::new(22.0, 16.0),
    Vec2::new(30.0, -8.0),
    Vec2::new(10.0, -4.0),
    Vec2::new(0.0, -16.0),
    Vec2::new(-10.0, -4.0),
];

/// An L-shaped block (concave).
const BLOCK_OUTLINE: [Vec2; 6] = [
    Vec2::new(-50.0, -20.0),
    Vec2::new(50.0, -20.0),
    Vec2::new(50.0, 0.0),
    Vec2::new(-30.0, 0.0),
    Vec2::new(-30.0, 30.0),
    Vec2::new(-50.0, 30.0),
];

/// A star of `spikes` spikes (concave).
fn star_outline(spikes: usize, outer: f32, inner: f32) -> Vec<Vec2> {
    (0..2 * spikes)
        .map(|i| {
            let radius = if i % 2 == 0 { outer } else { inner };
            Vec2::from_angle(FRAC_PI_2 + i as f32 * PI / spikes as f32) * radius
        })
        .collect()
}

/// The rules of the game. `autopilot` flies the ship.
pub struct GamePlugin {
    /// Let the computer play.
    pub autopilot: bool,
    /// The wave each game starts at (1 for the beginning).
    pub first_wave: u32,
}

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Autopilot(self.autopilot))
            .insert_resource(Game::starting_at(self.first_wave))
            .init_resource::<Intent>()
            .init_resource::<Stats>()
            .add_message::<EnemyDestroyed>()
            .add_systems(Startup, (spawn_player, spawn_walls))
            // One chain: systems that spawn, or that read what another one moves, run in a
            // fixed order, so a headless run plays the same game every time.
            .add_systems(
                Update,
                (
                    fly_autopilot,
                    read_keyboard,
                    move_player,
                    fire_bullets,
                    fire_missiles,
                    steer_missiles,
                    aim_laser,
                    spawn_waves,
                    move_enemies,
                    fire_enemy_bullets,
                    fire_storm,
                    move_bullets,
                    burn_out_storm_bullets,
                    count_down_invulnerability,
                    restart_after_game_over,
                )
                    .chain(),
            )
            // Bullets are resolved by the observers, as the pipeline's events are triggered;
            // what follows reads this frame's contacts right after the pipeline wrote them.
            .add_systems(
                PostUpdate,
                (ram_player, stop_laser, destroy_enemies, record_stats)
                    .chain()
                    .in_set(ReadContacts)
                    .after(CollisionSystems::WriteEvents),
            );
    }
}

/// The game's systems that read this frame's contacts, in `PostUpdate` after
/// [`CollisionSystems::WriteEvents`]: the graphics draw after them.
#[derive(SystemSet, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ReadContacts;

/// The game with no window, flown by the autopilot from `first_wave`, one 1/60 s step per
/// `update()`.
pub fn headless_app(first_wave: u32) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        CollisionPlugin::default(),
        CollisionDiagnosticsPlugin,
        GamePlugin {
            autopilot: true,
            first_wave,
        },
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / 60.0,
    )));
    app
}

// ---------------------------------------------------------------------------------------------
// Components and resources

/// Who an entity is, for the looks. Each marker requires its own; an enemy's is set with its
/// kind when it is spawned.
#[derive(Component, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Role {
    /// The player's ship.
    Player,
    /// A bullet fired by the player.
    PlayerBullet,
    /// An enemy of a kind.
    Enemy(EnemyKind),
    /// A bullet fired by an enemy.
    EnemyBullet,
    /// A wall or a block.
    Wall,
}

/// The player's ship.
#[derive(Component)]
#[require(Role::Player)]
pub struct Player;

/// A bullet fired by the player.
#[derive(Component)]
#[require(Bullet, Role::PlayerBullet)]
pub struct PlayerBullet;

/// A player's bullet that homes in on the nearest enemy, for its seconds left.
#[derive(Component)]
pub struct Missile(f32);

/// A bullet fired by an enemy.
#[derive(Component)]
#[require(Bullet, Role::EnemyBullet)]
pub struct EnemyBullet;

/// A bullet of either side: it strikes the first thing it touches and vanishes.
#[derive(Component, Default)]
pub struct Bullet;

/// A wall or obstacle: absorbs shots from both sides.
#[derive(Component)]
#[require(Role::Wall)]
pub struct Wall;

/// The player's laser: a segment from the ship's nose, drawn up to the first thing it hits.
#[derive(Component, Default)]
pub struct Laser {
    /// How far the beam reaches this frame: to the nearest contact point, or its full range.
    pub visible_length: f32,
    /// Whether it is firing.
    pub on: bool,
}

/// An enemy and what is left of it.
#[derive(Component)]
pub struct Enemy {
    /// Hit points left.
    pub health: f32,
    /// Points for destroying it.
    pub value: u32,
    /// What it looks like and how it fights.
    pub kind: EnemyKind,
}

/// An enemy was destroyed, here: the graphics make it explode.
#[derive(Message, Clone, Copy)]
pub struct EnemyDestroyed {
    /// Where it was.
    pub position: Vec2,
    /// What it was.
    pub kind: EnemyKind,
}

/// The three kinds of enemy.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EnemyKind {
    /// A spinning concave star that fires rings.
    Star,
    /// A circle that fires aimed bursts.
    Orb,
    /// A scaled concave crab that fires fans.
    Crab,
}

/// Moves an enemy around its home: a sideways sway and a bob, after flying in from above.
#[derive(Component)]
struct Drift {
    home: Vec2,
    phase: f32,
    sway: f32,
    age: f32,
}

impl Drift {
    /// The drift of the `index`-th enemy of a wave around `home`, swaying `sway` pixels either
    /// side, from the start of its entry.
    fn new(home: Vec2, index: u32, sway: f32) -> Self {
        Self {
            home,
            phase: index as f32 * DRIFT_PHASE_STEP,
            sway,
            age: 0.0,
        }
    }

    /// Where an enemy that will hover around `home` starts its entry, above the screen.
    fn entry_transform(home: Vec2) -> Transform {
        Transform::from_translation((home + Vec2::new(0.0, ENTRY_HEIGHT)).extend(ENEMY_Z))
    }
}

/// Turns an entity at a steady rate (radians per second).
#[derive(Component)]
struct Spin(f32);

/// Straight-line motion, in pixels per second.
#[derive(Component)]
pub struct Velocity(pub Vec2);

/// An enemy's gun: fires its pattern every `period` seconds.
#[derive(Component)]
struct Gun {
    cooldown: f32,
    period: f32,
}

/// Lives left and the like.
#[derive(Resource)]
pub struct Game {
    /// Lives left; the game is over at zero.
    pub lives: u32,
    /// Points scored.
    pub score: u32,
    /// The current wave, from 1.
    pub wave: u32,
    /// Seconds until the next wave once the current one is cleared.
    next_wave_in: f32,
    /// Seconds of invulnerability left after being hit.
    pub invulnerable: f32,
    /// Seconds since the game ended, while it is over.
    pub over_for: Option<f32>,
    fire_cooldown: f32,
    missile_cooldown: f32,
    /// The wave every new game starts at.
    first_wave: u32,
}

impl Game {
    /// A new game whose first wave is `first_wave`.
    fn starting_at(first_wave: u32) -> Self {
        let first_wave = first_wave.max(1);
        Self {
            wave: first_wave - 1,
            first_wave,
            ..default()
        }
    }
}

impl Default for Game {
    fn default() -> Self {
        Self {
            lives: LIVES,
            score: 0,
            wave: 0,
            next_wave_in: FIRST_WAVE_DELAY,
            invulnerable: 0.0,
            over_for: None,
            fire_cooldown: 0.0,
            missile_cooldown: 0.0,
            first_wave: 1,
        }
    }
}

/// Whether the computer flies the ship.
#[derive(Resource)]
pub struct Autopilot(pub bool);

/// What the pilot (keyboard or autopilot) wants this frame.
#[derive(Resource, Default)]
struct Intent {
    movement: Vec2,
    firing: bool,
    lasering: bool,
    restart: bool,
}

/// Running totals for the HUD and the headless summary.
#[derive(Resource, Default, Debug)]
pub struct Stats {
    /// Frames played.
    pub frames: u64,
    /// The most colliders alive at once.
    pub peak_colliders: usize,
    /// Colliders alive now.
    pub colliders: usize,
    /// Contacts this frame.
    pub contacts: usize,
    /// Contacts over the whole run.
    pub total_contacts: u64,
    /// Player bullets (missiles included) that hit an enemy.
    pub hits: u64,
    /// Homing missiles that hit an enemy.
    pub missile_hits: u64,
    /// Enemies destroyed.
    pub kills: u64,
    /// Points scored over every game of the run.
    pub points: u64,
    /// Frames in which the laser was stopped short by something it hit.
    pub laser_stops: u64,
    /// Lives lost.
    pub lives_lost: u64,
    /// Bullets on screen now, of both sides.
    pub bullets: usize,
    /// The most bullets on screen at once.
    pub peak_bullets: usize,
    /// Milliseconds the collision pipeline took, per frame.
    pub collision_ms: Vec<f32>,
    /// The same, in the frames with at least [`CROWD`] bullets on screen.
    pub crowded_collision_ms: Vec<f32>,
    /// Seconds each frame took, by the wall clock.
    pub frame_seconds: Vec<f32>,
    /// The same, in the frames with at least [`CROWD`] bullets on screen.
    pub crowded_frame_seconds: Vec<f32>,
}

/// Bullets on screen from which a frame counts as crowded, for [`Stats`].
pub const CROWD: usize = 10_000;

impl Stats {
    /// The median collision time per frame, in milliseconds.
    pub fn median_collision_ms(&self) -> f32 {
        median(&self.collision_ms)
    }

    /// The median collision time per frame with at least [`CROWD`] bullets on screen, in
    /// milliseconds.
    pub fn median_crowded_collision_ms(&self) -> f32 {
        median(&self.crowded_collision_ms)
    }

    /// The median frame rate, frames per second by the wall clock.
    pub fn median_frame_rate(&self) -> f32 {
        1.0 / median(&self.frame_seconds).max(f32::EPSILON)
    }

    /// The median frame rate with at least [`CROWD`] bullets on screen.
    pub fn median_crowded_frame_rate(&self) -> f32 {
        1.0 / median(&self.crowded_frame_seconds).max(f32::EPSILON)
    }
}

/// The middle value of `values`, or zero where there are none.
fn median(values: &[f32]) -> f32 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f32::total_cmp);
    sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
}

// ---------------------------------------------------------------------------------------------
// Spawning: each enemy, the ship and each wall observe their own contacts

fn spawn_player(mut commands: Commands) {
    commands
        .spawn((
            Player,
            PolygonCollider::new(SHIP_OUTLINE),
            PLAYER_LAYERS,
            // Kept up to date by the plugin: what overlaps the ship now, for rams.
            CollidingEntities::default(),
            Transform::from_translation(PLAYER_START),
        ))
        .observe(ship_hit);
    commands.spawn((
        Laser::default(),
        SegmentCollider::new(Vec2::ZERO, Vec2::new(0.0, LASER_RANGE)),
        PLAYER_SHOT_LAYERS,
        ColliderDisabled,
        Transform::default(),
    ));
}

fn spawn_walls(mut commands: Commands) {
    for side in [-1.0, 1.0] {
        let mirror = Vec3::new(side, 1.0, 1.0);
        commands
            .spawn((
                Wall,
                SegmentCollider::new(WALL_SEGMENT.0, WALL_SEGMENT.1),
                WALL_LAYERS,
                Transform::from_xyz(side * WALL_SEGMENT_AT.x, WALL_SEGMENT_AT.y, WALL_Z)
                    .with_scale(mirror),
            ))
            .observe(absorb_shot);
        commands
            .spawn((
                Wall,
                PolygonCollider::new(BLOCK_OUTLINE),
                WALL_LAYERS,
                Transform::from_xyz(side * BLOCK_AT.x, BLOCK_AT.y, WALL_Z).with_scale(mirror),
            ))
            .observe(absorb_shot);
    }
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
    let toughness = 1.0 + TOUGHNESS_PER_WAVE * wave as f32;
    let enemy = |health: f32, value| Enemy {
        health: health * toughness,
        value,
        kind,
    };
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
    entity
        .insert((Role::Enemy(kind), ENEMY_LAYERS, drift, gun))
        .observe(enemy_hit);
}

/// When a wave is cleared, the next one comes: more enemies, tougher, firing faster.
fn spawn_waves(
    mut commands: Commands,
    time: Res<Time>,
    mut game: ResMut<Game>,
    enemies: Query<(), With<Enemy>>,
) {
    if game.over_for.is_some() || !enemies.is_empty() {
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

// ---------------------------------------------------------------------------------------------
// Piloting

/// Reads what the player wants; with the autopilot flying, only R (restart) counts.
fn read_keyboard(
    autopilot: Res<Autopilot>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    mut intent: ResMut<Intent>,
) {
    let Some(keys) = keys else { return };
    if autopilot.0 {
        intent.restart = keys.just_pressed(KeyCode::KeyR);
        return;
    }
    let axis = |negative: [KeyCode; 2], positive: [KeyCode; 2]| {
        f32::from(keys.any_pressed(positive)) - f32::from(keys.any_pressed(negative))
    };
    *intent = Intent {
        movement: Vec2::new(
            axis(
                [KeyCode::ArrowLeft, KeyCode::KeyA],
                [KeyCode::ArrowRight, KeyCode::KeyD],
            ),
            axis(
                [KeyCode::ArrowDown, KeyCode::KeyS],
                [KeyCode::ArrowUp, KeyCode::KeyW],
            ),
        ),
        firing: keys.pressed(KeyCode::Space),
        lasering: keys.any_pressed([KeyCode::KeyX, KeyCode::ShiftLeft, KeyCode::ShiftRight]),
        restart: keys.just_pressed(KeyCode::KeyR),
    };
}

// The autopilot weighs a few moves by where the ship and the enemy bullets would be a moment
// later.
/// The moves it tries: x and y parts of the stick.
const AUTOPILOT_MOVES_X: [f32; 5] = [-1.0, -0.5, 0.0, 0.5, 1.0];
const AUTOPILOT_MOVES_Y: [f32; 3] = [-1.0, 0.0, 1.0];
/// Seconds ahead at which it checks for bullets.
const AUTOPILOT_DANGER_TIMES: [f32; 3] = [0.08, 0.16, 0.3];
/// Seconds ahead at which it checks its place.
const AUTOPILOT_LOOK_AHEAD: f32 = 0.25;
/// Bullets farther than this are ignored.
const AUTOPILOT_THREAT_RANGE: f32 = 300.0;
/// A bullet this close (or closer) counts as danger, the nearer the more.
const AUTOPILOT_DANGER_RADIUS: f32 = 50.0;
/// Where it likes to fly.
const AUTOPILOT_HOME_Y: f32 = -HALF_FIELD.y + 70.0;
/// The weights of danger, distance to the nearest enemy's column, distance to its home row,
/// and a line of fire that ends on an enemy (a reward) or on a wall (a cost).
const AUTOPILOT_DANGER_WEIGHT: f32 = 100.0;
const AUTOPILOT_CHASE_WEIGHT: f32 = 0.05;
const AUTOPILOT_HOME_WEIGHT: f32 = 0.02;
const AUTOPILOT_AIM_WEIGHT: f32 = 3.0;

/// What a shot fired straight up from `gun` would meet first, by a ray cast against enemies
/// and walls: `Some(true)` an enemy, `Some(false)` a wall, `None` nothing.
fn line_of_fire(
    spatial: &SpatialQuery,
    gun: Vec2,
    targets: &SpatialQueryFilter,
    enemies: &Query<(), With<Enemy>>,
) -> Option<bool> {
    spatial
        .cast_ray(Ray2d::new(gun, Dir2::Y), LASER_RANGE, targets)
        .map(|hit| enemies.contains(hit.entity))
}

/// Picks, among a few moves, the one that keeps the ship farthest from where enemy bullets
/// will be a moment from now, preferring a clear line of fire at an enemy and the nearest
/// enemy's column; fires all the time, and the laser when an enemy is first in its line.
fn fly_autopilot(
    autopilot: Res<Autopilot>,
    mut intent: ResMut<Intent>,
    spatial: SpatialQuery,
    player: Single<&Transform, With<Player>>,
    enemies: Query<(), With<Enemy>>,
    bullets: Query<(&Transform, &Velocity), With<EnemyBullet>>,
) {
    if !autopilot.0 {
        return;
    }
    let position = player.translation.truncate();
    let targets = SpatialQueryFilter::from_mask(ENEMY | WALL);
    let target = spatial
        .nearest(
            position,
            f32::INFINITY,
            &SpatialQueryFilter::from_mask(ENEMY),
        )
        .map(|nearest| nearest.point);
    let threats: Vec<(Vec2, Vec2)> = bullets
        .iter()
        .map(|(transform, velocity)| (transform.translation.truncate(), velocity.0))
        .filter(|(threat, _)| {
            threat.distance_squared(position) < AUTOPILOT_THREAT_RANGE * AUTOPILOT_THREAT_RANGE
        })
        .collect();
    let ahead = |movement: Vec2, seconds: f32| {
        (position + movement * PLAYER_SPEED * seconds).clamp(-PLAYER_BOUNDS, PLAYER_BOUNDS)
    };
    let cost = |movement: Vec2| {
        let mut danger = 0.0;
        for seconds in AUTOPILOT_DANGER_TIMES {
            let future = ahead(movement, seconds);
            for (threat, velocity) in &threats {
                let distance = (*threat + *velocity * seconds).distance(future);
                danger += (1.0 - distance / AUTOPILOT_DANGER_RADIUS).max(0.0).powi(2);
            }
        }
        let future = ahead(movement, AUTOPILOT_LOOK_AHEAD);
        let chase = target.map_or(0.0, |target| (target.x - future.x).abs());
        let aim = match line_of_fire(&spatial, future + PLAYER_GUN, &targets, &enemies) {
            Some(true) => -1.0,
            Some(false) => 1.0,
            None => 0.0,
        };
        AUTOPILOT_DANGER_WEIGHT * danger
            + AUTOPILOT_CHASE_WEIGHT * chase
            + AUTOPILOT_HOME_WEIGHT * (future.y - AUTOPILOT_HOME_Y).abs()
            + AUTOPILOT_AIM_WEIGHT * aim
    };
    let movement = AUTOPILOT_MOVES_X
        .into_iter()
        .flat_map(|x| AUTOPILOT_MOVES_Y.map(|y| Vec2::new(x, y)))
        .min_by(|a, b| cost(*a).total_cmp(&cost(*b)))
        .unwrap_or(Vec2::ZERO);
    *intent = Intent {
        movement,
        firing: true,
        lasering: line_of_fire(&spatial, position + LASER_NOSE, &targets, &enemies) == Some(true),
        restart: false,
    };
}

fn move_player(
    time: Res<Time>,
    intent: Res<Intent>,
    game: Res<Game>,
    mut player: Single<&mut Transform, With<Player>>,
) {
    if game.over_for.is_some() {
        return;
    }
    let step = intent.movement.clamp_length_max(1.0) * PLAYER_SPEED * time.delta_secs();
    let moved = (player.translation.truncate() + step).clamp(-PLAYER_BOUNDS, PLAYER_BOUNDS);
    player.translation = moved.extend(player.translation.z);
}

fn fire_bullets(
    mut commands: Commands,
    time: Res<Time>,
    intent: Res<Intent>,
    mut game: ResMut<Game>,
    player: Single<&Transform, With<Player>>,
) {
    game.fire_cooldown -= time.delta_secs();
    if !intent.firing || game.fire_cooldown > 0.0 || game.over_for.is_some() {
        return;
    }
    game.fire_cooldown = PLAYER_FIRE_PERIOD;
    let gun = player.translation.truncate() + PLAYER_GUN;
    for spread in PLAYER_BULLET_SPREAD {
        spawn_player_bullet(&mut commands, gun, spread);
    }
}

/// While firing, a homing missile from each wing every [`MISSILE_PERIOD`].
fn fire_missiles(
    mut commands: Commands,
    time: Res<Time>,
    intent: Res<Intent>,
    mut game: ResMut<Game>,
    player: Single<&Transform, With<Player>>,
) {
    game.missile_cooldown -= time.delta_secs();
    if !intent.firing || game.missile_cooldown > 0.0 || game.over_for.is_some() {
        return;
    }
    game.missile_cooldown = MISSILE_PERIOD;
    for wing in MISSILE_WINGS {
        let at = player.translation.truncate() + wing;
        commands.spawn((
            PlayerBullet,
            Missile(MISSILE_LIFETIME),
            CircleCollider::new(MISSILE_RADIUS),
            Swept::default(),
            PLAYER_SHOT_LAYERS,
            Velocity(Vec2::Y * MISSILE_SPEED),
            Transform::from_translation(at.extend(PLAYER_BULLET_Z)),
        ));
    }
}

/// Each missile turns towards the nearest enemy within its range, as the spatial index saw
/// them at the end of the last frame, by at most its turn rate; it burns out at the end of
/// its lifetime.
fn steer_missiles(
    mut commands: Commands,
    time: Res<Time>,
    spatial: SpatialQuery,
    mut missiles: Query<(Entity, &Transform, &mut Velocity, &mut Missile)>,
) {
    let enemies = SpatialQueryFilter::from_mask(ENEMY);
    let most = MISSILE_TURN_RATE * time.delta_secs();
    for (entity, transform, mut velocity, mut missile) in &mut missiles {
        missile.0 -= time.delta_secs();
        if missile.0 <= 0.0 {
            commands.entity(entity).despawn();
            continue;
        }
        let position = transform.translation.truncate();
        let Some(target) = spatial.nearest(position, MISSILE_RANGE, &enemies) else {
            continue;
        };
        let wanted = (target.point - position).to_angle();
        let heading = velocity.0.to_angle();
        let turn = (wanted - heading + PI).rem_euclid(TAU) - PI;
        velocity.0 = Vec2::from_angle(heading + turn.clamp(-most, most)) * MISSILE_SPEED;
    }
}

/// A player bullet from `at`, turned `spread` radians from straight up.
pub fn spawn_player_bullet(commands: &mut Commands, at: Vec2, spread: f32) -> Entity {
    commands
        .spawn((
            PlayerBullet,
            CircleCollider::new(PLAYER_BULLET_RADIUS),
            Swept::default(),
            PLAYER_SHOT_LAYERS,
            Velocity(Vec2::from_angle(FRAC_PI_2 + spread) * PLAYER_BULLET_SPEED),
            Transform::from_translation(at.extend(PLAYER_BULLET_Z)),
        ))
        .id()
}

/// Places the laser at the ship's nose and switches its collider on while it fires.
fn aim_laser(
    mut commands: Commands,
    intent: Res<Intent>,
    game: Res<Game>,
    player: Single<&Transform, (With<Player>, Without<Laser>)>,
    laser: Single<(Entity, &mut Transform, &mut Laser)>,
) {
    let (entity, mut transform, mut laser) = laser.into_inner();
    let on = intent.lasering && game.over_for.is_none();
    transform.translation = (player.translation.truncate() + LASER_NOSE).extend(LASER_Z);
    if on != laser.on {
        laser.on = on;
        if on {
            commands.entity(entity).remove::<ColliderDisabled>();
        } else {
            commands.entity(entity).insert(ColliderDisabled);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Enemies and bullets

fn move_enemies(time: Res<Time>, mut enemies: Query<(&mut Transform, &mut Drift, Option<&Spin>)>) {
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
        // An aimed burst.
        EnemyKind::Orb => (0..ORB_BURST_BULLETS + wave.min(ORB_BURST_WAVE_CAP) as usize)
            .map(|i| aim.rotate(Vec2::from_angle(ORB_BURST_STEP * (i as f32 - 1.0))))
            .collect(),
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

fn fire_enemy_bullets(
    mut commands: Commands,
    time: Res<Time>,
    game: Res<Game>,
    player: Single<&Transform, With<Player>>,
    mut guns: Query<(&Transform, &Enemy, &mut Gun, &Drift)>,
) {
    if game.over_for.is_some() {
        return;
    }
    let target = player.translation.truncate();
    let speed = ENEMY_BULLET_SPEED + ENEMY_BULLET_SPEED_PER_WAVE * game.wave as f32;
    for (transform, enemy, mut gun, drift) in &mut guns {
        gun.cooldown -= time.delta_secs();
        if gun.cooldown > 0.0 || drift.age < ENTRY_SECONDS {
            continue;
        }
        gun.cooldown = gun.period;
        let origin = transform.translation.truncate();
        let aim = (target - origin).normalize_or(Vec2::NEG_Y);
        let turn = transform.rotation.to_euler(EulerRot::ZYX).0;
        for direction in volley(enemy.kind, game.wave, turn, aim) {
            spawn_enemy_bullet(
                &mut commands,
                origin + direction * ENEMY_GUN_REACH,
                direction * speed,
                ENEMY_BULLET_RADIUS,
            );
        }
    }
}

/// An enemy bullet of `radius` at `at`, flying at `velocity`.
fn spawn_enemy_bullet(commands: &mut Commands, at: Vec2, velocity: Vec2, radius: f32) -> Entity {
    commands
        .spawn((
            EnemyBullet,
            CircleCollider::new(radius),
            Swept::default(),
            ENEMY_SHOT_LAYERS,
            Velocity(velocity),
            Transform::from_translation(at.extend(ENEMY_BULLET_Z)),
        ))
        .id()
}

fn move_bullets(
    mut commands: Commands,
    time: Res<Time>,
    mut bullets: Query<(Entity, &mut Transform, &Velocity)>,
) {
    let dt = time.delta_secs();
    let limit = HALF_FIELD + Vec2::splat(OFFSCREEN_MARGIN);
    for (entity, mut transform, velocity) in &mut bullets {
        transform.translation += (velocity.0 * dt).extend(0.0);
        let position = transform.translation.truncate();
        if position.x.abs() > limit.x || position.y.abs() > limit.y {
            commands.entity(entity).despawn();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Collisions. Observers run as the plugin triggers `ContactStarted`, once for each of the two
// entities, pair after pair; the systems after them read this frame's contacts.

/// Spends the bullet `entity`, if `bullets` has it: despawns it, and says it struck. A bullet
/// touching two things in one frame strikes once: the despawn is applied as soon as the first
/// observer returns, before the plugin's next trigger, so the second observer finds no bullet.
fn spend<F: QueryFilter>(commands: &mut Commands, bullets: &Query<(), F>, entity: Entity) -> bool {
    if !bullets.contains(entity) {
        return false;
    }
    commands.entity(entity).despawn();
    true
}

/// Observer on each enemy: a player bullet that reaches it does damage and vanishes. (The
/// laser burns in [`stop_laser`]; a ram costs the ship, in [`ram_player`].)
fn enemy_hit(
    hit: On<ContactStarted>,
    mut commands: Commands,
    mut enemies: Query<&mut Enemy>,
    bullets: Query<(), (With<Bullet>, With<PlayerBullet>)>,
    missiles: Query<(), With<Missile>>,
    mut stats: ResMut<Stats>,
) {
    let Ok(mut enemy) = enemies.get_mut(hit.entity) else {
        return;
    };
    let missile = missiles.contains(hit.other);
    if spend(&mut commands, &bullets, hit.other) {
        enemy.health -= if missile {
            MISSILE_DAMAGE
        } else {
            BULLET_DAMAGE
        };
        stats.hits += 1;
        stats.missile_hits += u64::from(missile);
    }
}

/// Observer on the ship: an enemy bullet that reaches it costs a life and vanishes.
fn ship_hit(
    hit: On<ContactStarted>,
    mut commands: Commands,
    bullets: Query<(), (With<Bullet>, With<EnemyBullet>)>,
    mut game: ResMut<Game>,
    mut stats: ResMut<Stats>,
) {
    if spend(&mut commands, &bullets, hit.other) {
        lose_life(&mut commands, hit.entity, &mut game, &mut stats);
    }
}

/// Observer on each wall and block: any shot that reaches it is absorbed.
fn absorb_shot(hit: On<ContactStarted>, mut commands: Commands, bullets: Query<(), With<Bullet>>) {
    spend(&mut commands, &bullets, hit.other);
}

/// The ship costs a life while an enemy overlaps it, each time it is not invulnerable: not
/// only when the ram starts, so its [`CollidingEntities`] are asked every frame.
fn ram_player(
    mut commands: Commands,
    player: Single<(Entity, &CollidingEntities), With<Player>>,
    enemies: Query<(), With<Enemy>>,
    mut game: ResMut<Game>,
    mut stats: ResMut<Stats>,
) {
    let (ship, touching) = *player;
    if touching.iter().any(|&other| enemies.contains(other)) {
        lose_life(&mut commands, ship, &mut game, &mut stats);
    }
}

/// The ship is hit: unless it is invulnerable, a life is lost, and the last one ends the game
/// (and switches the ship's collider off).
fn lose_life(commands: &mut Commands, ship: Entity, game: &mut Game, stats: &mut Stats) {
    if game.invulnerable > 0.0 || game.over_for.is_some() {
        return;
    }
    game.lives = game.lives.saturating_sub(1);
    game.invulnerable = INVULNERABLE_SECONDS;
    stats.lives_lost += 1;
    if game.lives == 0 {
        game.over_for = Some(0.0);
        commands.entity(ship).insert(ColliderDisabled);
    }
}

/// The laser stops at the nearest point where it meets anything, and burns that target. The
/// `Contact` messages of this frame say where it crosses each outline it touches.
fn stop_laser(
    time: Res<Time>,
    mut contacts: MessageReader<Contact>,
    mut stats: ResMut<Stats>,
    laser: Single<(Entity, &GlobalTransform, &mut Laser)>,
    mut enemies: Query<&mut Enemy>,
) {
    let (entity, transform, mut laser) = laser.into_inner();
    laser.visible_length = LASER_RANGE;
    let origin = transform.translation().truncate();
    let nearest = contacts
        .read()
        .filter_map(|contact| {
            let point = contact.nearest_point(origin)?;
            Some((point.distance(origin), contact.other(entity)?))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((distance, target)) = nearest {
        laser.visible_length = distance;
        stats.laser_stops += 1;
        if let Ok(mut enemy) = enemies.get_mut(target) {
            enemy.health -= LASER_DAMAGE_PER_SECOND * time.delta_secs();
        }
    }
}

/// Enemies out of health (from bullets or the laser) explode and score.
fn destroy_enemies(
    mut commands: Commands,
    mut game: ResMut<Game>,
    mut stats: ResMut<Stats>,
    enemies: Query<(Entity, &Enemy, &GlobalTransform)>,
    mut destroyed: MessageWriter<EnemyDestroyed>,
) {
    for (entity, enemy, transform) in &enemies {
        if enemy.health <= 0.0 {
            commands.entity(entity).despawn();
            game.score += enemy.value;
            stats.kills += 1;
            stats.points += u64::from(enemy.value);
            destroyed.write(EnemyDestroyed {
                position: transform.translation().truncate(),
                kind: enemy.kind,
            });
        }
    }
}

/// Any entity with a collider.
type AnyCollider = Or<(
    With<CircleCollider>,
    With<SegmentCollider>,
    With<PolygonCollider>,
)>;

fn record_stats(
    mut stats: ResMut<Stats>,
    mut last_frame: Local<Option<Instant>>,
    contacts: Res<Contacts>,
    colliders: Query<(), AnyCollider>,
    bullets: Query<&GlobalTransform, With<Bullet>>,
    diagnostics: Res<DiagnosticsStore>,
) {
    stats.bullets = bullets
        .iter()
        .filter(|transform| {
            let position = transform.translation().truncate();
            position.x.abs() <= HALF_FIELD.x && position.y.abs() <= HALF_FIELD.y
        })
        .count();
    stats.peak_bullets = stats.peak_bullets.max(stats.bullets);
    // The pipeline's time, as the crate publishes it (its observers' work included): this
    // frame's, or the last one's where the crate publishes it after this system.
    let collision = diagnostics.get(&CollisionDiagnosticsPlugin::TOTAL);
    if let Some(milliseconds) = collision.and_then(|diagnostic| diagnostic.value()) {
        stats.collision_ms.push(milliseconds as f32);
        if stats.bullets >= CROWD {
            stats.crowded_collision_ms.push(milliseconds as f32);
        }
    }
    // By the wall clock: `Time` steps a fixed amount per frame in a headless run or a
    // recording.
    let now = Instant::now();
    if let Some(last) = last_frame.replace(now) {
        let seconds = (now - last).as_secs_f32();
        stats.frame_seconds.push(seconds);
        if stats.bullets >= CROWD {
            stats.crowded_frame_seconds.push(seconds);
        }
    }
    stats.frames += 1;
    stats.contacts = contacts.len();
    stats.total_contacts += contacts.len() as u64;
    stats.colliders = colliders.iter().len();
    stats.peak_colliders = stats.peak_colliders.max(stats.colliders);
}

// ---------------------------------------------------------------------------------------------
// Game flow

fn count_down_invulnerability(time: Res<Time>, mut game: ResMut<Game>) {
    game.invulnerable = (game.invulnerable - time.delta_secs()).max(0.0);
}

/// After a game over: R (or the autopilot, after a pause) starts again.
#[expect(
    clippy::type_complexity,
    reason = "a query for everything a new game clears"
)]
fn restart_after_game_over(
    mut commands: Commands,
    time: Res<Time>,
    autopilot: Res<Autopilot>,
    intent: Res<Intent>,
    mut game: ResMut<Game>,
    leftovers: Query<Entity, Or<(With<Enemy>, With<PlayerBullet>, With<EnemyBullet>)>>,
    player: Single<Entity, With<Player>>,
) {
    let Some(over_for) = game.over_for.as_mut() else {
        return;
    };
    *over_for += time.delta_secs();
    if intent.restart || (autopilot.0 && *over_for > RESTART_SECONDS) {
        for entity in &leftovers {
            commands.entity(entity).despawn();
        }
        commands.entity(*player).remove::<ColliderDisabled>();
        *game = Game::starting_at(game.first_wave);
    }
}
