//! The shooter's rules: ships, bullets, a laser, waves, walls, scoring, and an autopilot.
//! Nothing here draws; `graphics.rs` adds the looks.
//!
//! The game learns about collisions only from `bevy_collision_events`:
//! - **observers** of [`ContactStarted`] on each enemy ([`enemy_hit`](collisions::enemy_hit)),
//!   on the ship ([`ship_hit`](collisions::ship_hit)) and on each wall ([`absorb_shot`]): bullets strike once and vanish;
//! - the ship's [`CollidingEntities`], for rams that last ([`ram_player`]);
//! - the [`Contacts`] resource: the laser's contacts ([`Contacts::of`]), for the nearest point
//!   of everything it touches this frame, where it stops ([`stop_laser`]); the ship's, to
//!   push it out of the walls; every contact, for the statistics;
//! - [`Swept`] on every bullet: a player bullet covers 15 px a frame, more than its own size,
//!   and would otherwise pass through the walls and small enemies between two frames;
//! - [`CollisionLayers`], so shots never meet shots, and [`ColliderDisabled`] for the laser when
//!   it is off and the ship after a game over;
//! - [`Contact::push_out`], which holds the ship out of the walls ([`push_ship_out_of_walls`]).

use std::f32::consts::{FRAC_PI_2, PI};
use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_collision_events::diagnostics::CollisionDiagnosticsPlugin;
use bevy_collision_events::prelude::*;

mod autopilot;
mod collisions;
mod enemies;
pub mod player;
mod stats;
mod storm;

use autopilot::fly_autopilot;
use collisions::{
    absorb_shot, destroy_enemies, push_ship_out_of_walls, ram_player, record_stats, stop_laser,
};
pub use enemies::spawn_enemy_bullet;
use enemies::{FIRST_WAVE_DELAY, fire_enemy_bullets, move_enemies, spawn_waves};

use player::{
    PLAYER_START, aim_laser, fire_bullets, fire_missiles, move_player, read_keyboard, spawn_player,
    steer_missiles,
};
pub use stats::{CROWD, Stats};
pub use storm::STORM_EVERY;
use storm::fire_storm;

// These constants are in `Transform` units, which the 2D camera shows 1:1 as pixels, and
// seconds.

/// Half the playfield: x in ±640, y in ±360.
pub const HALF_FIELD: Vec2 = Vec2::new(640.0, 360.0);
/// How far bullets fly past the edge of the field before they are removed.
const OFFSCREEN_MARGIN: f32 = 40.0;

// The player.
const LIVES: u32 = 5;
const PLAYER_SPEED: f32 = 420.0;
/// The most the ship moves in one frame (at [`PLAYER_SPEED`], a frame of a thirtieth of a
/// second). The walls push it back out by the least move: from more than half its height
/// into the thin wall segment, that move is out of the far side, so on a slow frame (or a
/// hitch) the ship slows down instead.
const PLAYER_MOST_STEP: f32 = 14.0;
/// How close the ship's centre comes to the edges of the field.
const PLAYER_BOUNDS: Vec2 = Vec2::new(HALF_FIELD.x - 20.0, HALF_FIELD.y - 30.0);
const INVULNERABLE_SECONDS: f32 = 2.0;
/// How long a game over lasts before the autopilot starts again.
pub const RESTART_SECONDS: f32 = 2.5;

// The player's weapons (the rest of them in `player.rs`). Every shot starts at the ship's
// centre, under the ship, which the walls' push-out keeps out of them: the ship can move into
// a wall in `Update`, before it is pushed out after the contacts, and a shot started at its
// nose would start beyond the wall and never meet it. A shot first moves in the frame after it
// is fired, when its path is swept (a collider's first run tests only where it is).
/// The ship's nose, from its centre: where its shots come out from under it.
const NOSE: Vec2 = Vec2::new(0.0, 24.0);
/// What a bullet takes from an enemy's health.
const BULLET_DAMAGE: f32 = 1.0;
const MISSILE_DAMAGE: f32 = 2.0;
/// How far the laser reaches from the ship's nose.
pub const LASER_RANGE: f32 = 760.0;
/// The laser's segment, from the ship's centre to the end of its range: the stretch up to
/// the nose lies under the ship (drawn over it), and the beam never starts inside a wall.
pub const LASER_LENGTH: f32 = NOSE.y + LASER_RANGE;
/// What the laser takes from the enemy it burns, per second.
const LASER_DAMAGE_PER_SECOND: f32 = 12.0;

// Walls: a slanted segment and an L-shaped block on each side.
/// How far off a wall the ship is left when pushed out of it: a hair, so that it rests clear of
/// the wall, not on it within rounding (where the next frame's contact could come and go).
const WALL_CLEARANCE: f32 = 0.01;
/// The wall segment's ends, from where it lies; the left one is the right one's mirror image.
pub const WALL_SEGMENT: (Vec2, Vec2) = (Vec2::new(-70.0, 20.0), Vec2::new(70.0, -20.0));
/// Where the right-hand wall segment lies.
pub const WALL_SEGMENT_AT: Vec2 = Vec2::new(450.0, -60.0);
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
const PLAYER_LAYERS: CollisionLayers =
    CollisionLayers::new(PLAYER, ENEMY.union(ENEMY_SHOT).union(WALL));
const PLAYER_SHOT_LAYERS: CollisionLayers = CollisionLayers::new(PLAYER_SHOT, ENEMY.union(WALL));
const ENEMY_LAYERS: CollisionLayers = CollisionLayers::new(ENEMY, PLAYER_SHOT.union(PLAYER));
const ENEMY_SHOT_LAYERS: CollisionLayers = CollisionLayers::new(ENEMY_SHOT, PLAYER.union(WALL));
const WALL_LAYERS: CollisionLayers =
    CollisionLayers::new(WALL, PLAYER_SHOT.union(ENEMY_SHOT).union(PLAYER));

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
        app.init_resource::<GameState>()
            .insert_resource(Autopilot(self.autopilot))
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
                    move_player.run_if(playing),
                    aim_laser,
                    spawn_waves.run_if(playing),
                    move_enemies,
                    steer_missiles,
                    move_bullets,
                    // After the bullets move: a shot makes its first move in the next frame,
                    // when it is swept.
                    fire_bullets.run_if(playing),
                    fire_missiles.run_if(playing),
                    fire_enemy_bullets.run_if(playing),
                    fire_storm.run_if(playing),
                    burn_out,
                    count_down_invulnerability,
                    restart_after_game_over.run_if(not(playing)),
                )
                    .chain()
                    .in_set(GameSystems),
            )
            // Bullets are resolved by the observers, as the pipeline's events are triggered;
            // what follows reads this frame's contacts right after the pipeline wrote them.
            .add_systems(
                PostUpdate,
                (
                    push_ship_out_of_walls,
                    ram_player,
                    stop_laser,
                    destroy_enemies,
                    record_stats,
                )
                    .chain()
                    .in_set(ReadContacts)
                    .after(CollisionSystems::WriteEvents),
            );
    }
}

/// The game's rules in `Update`: the graphics there run after them.
#[derive(SystemSet, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GameSystems;

/// The game's systems that read this frame's contacts, in `PostUpdate` after
/// [`CollisionSystems::WriteEvents`]: the graphics draw after them.
#[derive(SystemSet, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ReadContacts;

/// The game with no window, flown by the autopilot from `first_wave`, one 1/60 s step per
/// `update()`, keeping each frame's timings for a summary.
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
    )))
    .insert_resource(Stats::keeping_timings());
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
#[require(Role::Player, PlayerGuns)]
pub struct Player;

/// The ship's guns: the seconds until each fires again (see [`gun_fires`]).
#[derive(Component, Default)]
pub struct PlayerGuns {
    bullets: f32,
    missiles: f32,
}

/// A bullet fired by the player.
#[derive(Component)]
#[require(Bullet, Role::PlayerBullet)]
pub struct PlayerBullet;

/// A player's bullet that homes in on the nearest enemy, for its [`Lifetime`].
#[derive(Component)]
pub struct Missile;

/// How many seconds a shot that can fly for ever (a homing missile, a storm's ring) has left:
/// it burns out then ([`burn_out`]).
#[derive(Component)]
pub struct Lifetime(pub f32);

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

/// The player's laser: a segment from the ship's centre through its nose, drawn up to the
/// first thing it hits.
#[derive(Component, Default)]
pub struct Laser {
    /// How far the beam reaches this frame from the ship's centre: to the nearest contact
    /// point, or its whole [`LASER_LENGTH`].
    pub visible_length: f32,
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

/// Straight-line motion, in pixels per second.
#[derive(Component)]
pub struct Velocity(pub Vec2);

/// Whether a game is on, or over (until the pilot, or the autopilot after a pause, starts
/// another). The game's systems that only make sense in a game run only while [`playing`].
#[derive(Resource, Default, Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameState {
    /// The ship flies, fires and can be hit; the waves come.
    #[default]
    Playing,
    /// The ship is gone and switched off; the enemies fly on without firing.
    Over,
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
            first_wave: 1,
        }
    }
}

/// Whether the computer flies the ship.
#[derive(Resource)]
pub struct Autopilot(pub bool);

/// What the pilot (keyboard or autopilot) wants this frame.
#[derive(Resource, Default)]
pub(crate) struct Intent {
    /// Where to fly, each axis from −1 to 1.
    pub(crate) movement: Vec2,
    pub(crate) firing: bool,
    pub(crate) lasering: bool,
    pub(crate) restart: bool,
}

// ---------------------------------------------------------------------------------------------
// Spawning: each wall observes its own contacts (the ship too, in `player.rs`, and each enemy,
// in `enemies.rs`)

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

// ---------------------------------------------------------------------------------------------
// Bullets

/// Counts a gun's `cooldown` down by `delta` seconds, and says whether it fires: when `ready`
/// and the cooldown has run out, once every `period`. The time past the shot is carried to the
/// next one, so a gun fires as often at 30 frames a second as at 144 (at most once a frame);
/// a gun not ready waits at zero, to fire at once when it is.
fn gun_fires(cooldown: &mut f32, delta: f32, period: f32, ready: bool) -> bool {
    *cooldown -= delta;
    if !ready {
        *cooldown = cooldown.max(0.0);
        return false;
    }
    if *cooldown > 0.0 {
        return false;
    }
    *cooldown = cooldown.max(-period) + period;
    true
}

/// Shots whose [`Lifetime`] has run out burn out.
fn burn_out(mut commands: Commands, time: Res<Time>, mut shots: Query<(Entity, &mut Lifetime)>) {
    for (entity, mut lifetime) in &mut shots {
        lifetime.0 -= time.delta_secs();
        if lifetime.0 <= 0.0 {
            commands.entity(entity).despawn();
        }
    }
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
// Game flow

fn count_down_invulnerability(time: Res<Time>, mut game: ResMut<Game>) {
    game.invulnerable = (game.invulnerable - time.delta_secs()).max(0.0);
}

/// A run condition: a game is on.
pub fn playing(state: Res<GameState>) -> bool {
    *state == GameState::Playing
}

/// After a game over: R (or the autopilot, after a pause) starts another, with what is left of
/// the last one cleared, and the ship back at its start, switched on again.
#[expect(
    clippy::type_complexity,
    reason = "a query for everything a new game clears"
)]
#[expect(clippy::too_many_arguments, reason = "a new game resets all of these")]
fn restart_after_game_over(
    mut commands: Commands,
    time: Res<Time>,
    autopilot: Res<Autopilot>,
    intent: Res<Intent>,
    mut over_for: Local<f32>,
    mut state: ResMut<GameState>,
    mut game: ResMut<Game>,
    leftovers: Query<Entity, Or<(With<Enemy>, With<PlayerBullet>, With<EnemyBullet>)>>,
    player: Single<(Entity, &mut Transform, &mut PlayerGuns)>,
) {
    *over_for += time.delta_secs();
    if !(intent.restart || autopilot.0 && *over_for > RESTART_SECONDS) {
        return;
    }
    *over_for = 0.0;
    for entity in &leftovers {
        commands.entity(entity).despawn();
    }
    let (ship, mut transform, mut guns) = player.into_inner();
    transform.translation = PLAYER_START;
    *guns = PlayerGuns::default();
    commands.entity(ship).remove::<ColliderDisabled>();
    *game = Game::starting_at(game.first_wave);
    *state = GameState::Playing;
}
