//! The shooter's rules: ships, bullets, a laser, waves, walls, scoring, and an autopilot.
//! Nothing here draws; `graphics.rs` adds the looks. The game reacts to collisions only
//! through `bevy_collision_events`' contacts.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::transform::TransformSystems;
use bevy_collision_events::prelude::*;

/// Half the playfield: x in ±640, y in ±360.
pub const HALF_FIELD: Vec2 = Vec2::new(640.0, 360.0);
/// How far the laser reaches from the ship's nose.
pub const LASER_RANGE: f32 = 760.0;

const PLAYER_SPEED: f32 = 420.0;
const PLAYER_BULLET_SPEED: f32 = 900.0;
const PLAYER_FIRE_PERIOD: f32 = 0.08;
const LASER_DAMAGE_PER_SECOND: f32 = 12.0;
const INVULNERABLE_SECONDS: f32 = 2.0;
const RESTART_SECONDS: f32 = 2.5;

// Who can touch whom: shots never meet shots, so thousands of bullets cost nothing between
// themselves.
const PLAYER: LayerMask = LayerMask::layer(0);
const PLAYER_SHOT: LayerMask = LayerMask::layer(1);
const ENEMY: LayerMask = LayerMask::layer(2);
const ENEMY_SHOT: LayerMask = LayerMask::layer(3);
const WALL: LayerMask = LayerMask::layer(4);

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
            .init_resource::<CollisionClock>()
            .add_message::<EnemyDestroyed>()
            .add_systems(Startup, (spawn_player, spawn_walls))
            .add_systems(
                Update,
                (
                    (read_keyboard, fly_autopilot),
                    (move_player, fire_bullets, aim_laser),
                    (spawn_waves, move_enemies, fire_enemy_bullets, move_bullets),
                    restart_after_game_over,
                )
                    .chain(),
            )
            .add_systems(
                PostUpdate,
                (
                    start_collision_clock
                        .after(TransformSystems::Propagate)
                        .before(CollisionSystems::Prepare),
                    (
                        stop_collision_clock,
                        resolve_hits,
                        stop_laser,
                        destroy_enemies,
                        record_stats,
                    )
                        .chain()
                        .after(CollisionSystems::Events),
                ),
            );
    }
}

/// The game with no window, flown by the autopilot from `first_wave`, one 1/60 s step per
/// `update()`.
pub fn headless_app(first_wave: u32) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        CollisionPlugin::default(),
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

/// The player's ship.
#[derive(Component)]
pub struct Player;

/// A bullet fired by the player.
#[derive(Component)]
pub struct PlayerBullet;

/// A bullet fired by an enemy.
#[derive(Component)]
pub struct EnemyBullet;

/// A wall or obstacle: absorbs shots from both sides.
#[derive(Component)]
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
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
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
            lives: 5,
            score: 0,
            wave: 0,
            next_wave_in: 0.5,
            invulnerable: 0.0,
            over_for: None,
            fire_cooldown: 0.0,
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
    /// Player bullets that hit an enemy.
    pub hits: u64,
    /// Enemies destroyed.
    pub kills: u64,
    /// Points scored over every game of the run.
    pub points: u64,
    /// Frames in which the laser was stopped short by something it hit.
    pub laser_stops: u64,
    /// Lives lost.
    pub lives_lost: u64,
    /// Milliseconds the collision pipeline took, per frame.
    pub collision_ms: Vec<f32>,
}

impl Stats {
    /// The median collision time per frame, in milliseconds.
    pub fn median_collision_ms(&self) -> f32 {
        let mut sorted = self.collision_ms.clone();
        sorted.sort_by(f32::total_cmp);
        sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
    }
}

/// When the collision pipeline started this frame.
#[derive(Resource, Default)]
struct CollisionClock(Option<Instant>);

// ---------------------------------------------------------------------------------------------
// Shapes: the colliders, which the graphics draw too

/// The ship: an arrowhead with a notch at the back (concave).
pub fn ship_outline() -> Vec<Vec2> {
    [(0.0, 24.0), (16.0, -16.0), (0.0, -6.0), (-16.0, -16.0)]
        .map(|(x, y)| Vec2::new(x, y))
        .to_vec()
}

/// A star of `points` spikes: concave.
pub fn star_outline(points: usize, outer: f32, inner: f32) -> Vec<Vec2> {
    (0..2 * points)
        .map(|i| {
            let radius = if i % 2 == 0 { outer } else { inner };
            let angle =
                std::f32::consts::FRAC_PI_2 + i as f32 * std::f32::consts::PI / points as f32;
            Vec2::from_angle(angle) * radius
        })
        .collect()
}

/// A crab: a body with two claws raised, concave.
pub fn crab_outline() -> Vec<Vec2> {
    [
        (-30.0, -8.0),
        (-22.0, 16.0),
        (-12.0, 2.0),
        (0.0, 10.0),
        (12.0, 2.0),
        (22.0, 16.0),
        (30.0, -8.0),
        (10.0, -4.0),
        (0.0, -16.0),
        (-10.0, -4.0),
    ]
    .map(|(x, y)| Vec2::new(x, y))
    .to_vec()
}

/// An L-shaped block: concave.
pub fn block_outline() -> Vec<Vec2> {
    [
        (-50.0, -20.0),
        (50.0, -20.0),
        (50.0, 0.0),
        (-30.0, 0.0),
        (-30.0, 30.0),
        (-50.0, 30.0),
    ]
    .map(|(x, y)| Vec2::new(x, y))
    .to_vec()
}

// ---------------------------------------------------------------------------------------------
// Spawning

fn spawn_player(mut commands: Commands) {
    commands.spawn((
        Player,
        PolygonCollider::new(ship_outline()),
        CollisionLayers::new(PLAYER, ENEMY | ENEMY_SHOT),
        Transform::from_xyz(0.0, -HALF_FIELD.y + 60.0, 1.0),
    ));
    commands.spawn((
        Laser::default(),
        SegmentCollider::new(Vec2::ZERO, Vec2::new(0.0, LASER_RANGE)),
        CollisionLayers::new(PLAYER_SHOT, ENEMY | WALL),
        ColliderDisabled,
        Transform::default(),
    ));
}

fn spawn_walls(mut commands: Commands) {
    let wall_layers = CollisionLayers::new(WALL, PLAYER_SHOT | ENEMY_SHOT);
    for side in [-1.0, 1.0] {
        commands.spawn((
            Wall,
            SegmentCollider::new(Vec2::new(-70.0, 20.0), Vec2::new(70.0, -20.0)),
            wall_layers,
            Transform::from_xyz(side * 450.0, -60.0, 0.5).with_scale(Vec3::new(side, 1.0, 1.0)),
        ));
        commands.spawn((
            Wall,
            PolygonCollider::new(block_outline()),
            wall_layers,
            Transform::from_xyz(side * 200.0, -90.0, 0.5).with_scale(Vec3::new(side, 1.0, 1.0)),
        ));
    }
}

fn spawn_enemy(commands: &mut Commands, kind: EnemyKind, home: Vec2, wave: u32, index: u32) {
    let layers = CollisionLayers::new(ENEMY, PLAYER_SHOT | PLAYER);
    let drift = Drift {
        home,
        phase: index as f32 * 0.9,
        sway: 40.0 + 10.0 * (index % 4) as f32,
        age: 0.0,
    };
    let gun = Gun {
        cooldown: 1.0 + 0.15 * index as f32,
        period: (2.2 / (1.0 + 0.25 * wave as f32)).max(0.45),
    };
    let start = Transform::from_translation((home + Vec2::new(0.0, 420.0)).extend(0.0));
    let toughness = 1.0 + 0.25 * wave as f32;
    match kind {
        EnemyKind::Star => commands.spawn((
            Enemy {
                health: 6.0 * toughness,
                value: 150,
                kind,
            },
            PolygonCollider::new(star_outline(5, 28.0, 12.0)),
            Spin(1.5 + 0.3 * (index % 3) as f32),
            start,
        )),
        EnemyKind::Orb => commands.spawn((
            Enemy {
                health: 4.0 * toughness,
                value: 100,
                kind,
            },
            CircleCollider::new(20.0),
            start,
        )),
        EnemyKind::Crab => commands.spawn((
            Enemy {
                health: 9.0 * toughness,
                value: 200,
                kind,
            },
            PolygonCollider::new(crab_outline()),
            start.with_scale(Vec3::splat(1.0 + 0.2 * (index % 3) as f32)),
        )),
    }
    .insert((layers, drift, gun));
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
    game.next_wave_in = 1.0;
    let count = (4 + 2 * game.wave).min(20);
    for index in 0..count {
        let columns = count.div_ceil(2);
        let (row, column) = (index / columns, index % columns);
        let x = (column as f32 + 0.5) / columns as f32 * 2.0 * (HALF_FIELD.x - 80.0)
            - (HALF_FIELD.x - 80.0);
        let home = Vec2::new(x, 230.0 - row as f32 * 90.0);
        let kind = match (index + game.wave) % 3 {
            0 => EnemyKind::Star,
            1 => EnemyKind::Orb,
            _ => EnemyKind::Crab,
        };
        spawn_enemy(&mut commands, kind, home, game.wave, index);
    }
}

// ---------------------------------------------------------------------------------------------
// Piloting

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

/// The |x| ranges under the blocks and walls (see [`spawn_walls`]).
const SHELTERED_COLUMNS: [(f32, f32); 2] = [(150.0, 250.0), (380.0, 520.0)];

/// Picks, among a few moves, the one that keeps the ship farthest from where enemy bullets
/// will be a moment from now, breaking ties towards the nearest enemy's column; fires bullets
/// all the time and the laser when an enemy is straight ahead.
fn fly_autopilot(
    autopilot: Res<Autopilot>,
    mut intent: ResMut<Intent>,
    player: Single<&Transform, With<Player>>,
    enemies: Query<&GlobalTransform, With<Enemy>>,
    bullets: Query<(&Transform, &Velocity), With<EnemyBullet>>,
) {
    const LOOK_AHEAD: f32 = 0.25;
    if !autopilot.0 {
        return;
    }
    let position = player.translation.truncate();
    let target = enemies
        .iter()
        .map(|enemy| enemy.translation().truncate())
        .min_by(|a, b| {
            (a.x - position.x)
                .abs()
                .total_cmp(&(b.x - position.x).abs())
        });
    let home_y = -HALF_FIELD.y + 70.0;
    let limit = HALF_FIELD - Vec2::new(20.0, 30.0);
    let threats: Vec<(Vec2, Vec2)> = bullets
        .iter()
        .map(|(transform, velocity)| (transform.translation.truncate(), velocity.0))
        .filter(|(threat, _)| threat.distance_squared(position) < 300.0 * 300.0)
        .collect();
    let cost = |movement: Vec2| {
        // Where ship and bullets will be at a few moments ahead; bullets within 50 px count,
        // the nearer the more.
        let mut danger = 0.0;
        for ahead in [0.08, 0.16, 0.3] {
            let future = (position + movement * PLAYER_SPEED * ahead).clamp(-limit, limit);
            for (threat, velocity) in &threats {
                let distance = (*threat + *velocity * ahead).distance(future);
                danger += (1.0 - distance / 50.0).max(0.0).powi(2);
            }
        }
        let future = (position + movement * PLAYER_SPEED * LOOK_AHEAD).clamp(-limit, limit);
        let chase = target.map_or(0.0, |target| (target.x - future.x).abs());
        // Blocks and walls would swallow the ship's shots: prefer open columns.
        let blocked = SHELTERED_COLUMNS
            .iter()
            .any(|(from, to)| (*from..=*to).contains(&future.x.abs()));
        100.0 * danger + 0.05 * chase + 0.02 * (future.y - home_y).abs() + 3.0 * f32::from(blocked)
    };
    let movement = [-1.0, -0.5, 0.0, 0.5, 1.0]
        .into_iter()
        .flat_map(|x| [-1.0, 0.0, 1.0].map(|y| Vec2::new(x, y)))
        .min_by(|a, b| cost(*a).total_cmp(&cost(*b)))
        .unwrap_or(Vec2::ZERO);
    *intent = Intent {
        movement,
        firing: true,
        lasering: target.is_some_and(|target| (target.x - position.x).abs() < 30.0),
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
    let limit = HALF_FIELD - Vec2::new(20.0, 30.0);
    let moved = (player.translation.truncate() + step).clamp(-limit, limit);
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
    let nose = player.translation.truncate() + Vec2::new(0.0, 26.0);
    for spread in [-0.08, 0.0, 0.08] {
        commands.spawn((
            PlayerBullet,
            CircleCollider::new(3.0),
            CollisionLayers::new(PLAYER_SHOT, ENEMY | WALL),
            Velocity(Vec2::from_angle(std::f32::consts::FRAC_PI_2 + spread) * PLAYER_BULLET_SPEED),
            Transform::from_translation(nose.extend(0.2)),
        ));
    }
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
    transform.translation = (player.translation.truncate() + Vec2::new(0.0, 24.0)).extend(0.3);
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
        let target = drift.home + Vec2::new(drift.sway * (0.8 * t).sin(), 12.0 * (1.6 * t).sin());
        // Fly in from above during the first second, then follow the pattern.
        let entering = (1.0 - drift.age).clamp(0.0, 1.0);
        let position = target + Vec2::new(0.0, 420.0 * entering * entering);
        transform.translation = position.extend(transform.translation.z);
        if let Some(spin) = spin {
            transform.rotate_z(spin.0 * dt);
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
    let wave = game.wave as f32;
    for (transform, enemy, mut gun, drift) in &mut guns {
        gun.cooldown -= time.delta_secs();
        if gun.cooldown > 0.0 || drift.age < 1.0 {
            continue;
        }
        gun.cooldown = gun.period;
        let origin = transform.translation.truncate();
        let aim = (target - origin).normalize_or(Vec2::NEG_Y);
        let speed = 130.0 + 10.0 * wave;
        let directions: Vec<Vec2> = match enemy.kind {
            // A ring that grows with the waves, turned by the star's own rotation.
            EnemyKind::Star => {
                let count = 12 + 6 * game.wave.min(12) as usize;
                let turn = transform.rotation.to_euler(EulerRot::ZYX).0;
                (0..count)
                    .map(|i| {
                        Vec2::from_angle(turn + i as f32 * std::f32::consts::TAU / count as f32)
                    })
                    .collect()
            }
            // An aimed burst.
            EnemyKind::Orb => (0..3 + game.wave.min(8) as usize)
                .map(|i| aim.rotate(Vec2::from_angle(0.06 * (i as f32 - 1.0))))
                .collect(),
            // A wide fan downwards.
            EnemyKind::Crab => {
                let count = 9 + 3 * game.wave.min(10) as usize;
                (0..count)
                    .map(|i| {
                        let angle = -std::f32::consts::FRAC_PI_2
                            + (i as f32 / (count - 1) as f32 - 0.5) * 2.2;
                        Vec2::from_angle(angle)
                    })
                    .collect()
            }
        };
        for direction in directions {
            commands.spawn((
                EnemyBullet,
                CircleCollider::new(4.0),
                CollisionLayers::new(ENEMY_SHOT, PLAYER | WALL),
                Velocity(direction * speed),
                Transform::from_translation((origin + direction * 20.0).extend(0.1)),
            ));
        }
    }
}

fn move_bullets(
    mut commands: Commands,
    time: Res<Time>,
    mut bullets: Query<(Entity, &mut Transform, &Velocity)>,
) {
    let dt = time.delta_secs();
    let limit = HALF_FIELD + Vec2::splat(40.0);
    for (entity, mut transform, velocity) in &mut bullets {
        transform.translation += (velocity.0 * dt).extend(0.0);
        let position = transform.translation.truncate();
        if position.x.abs() > limit.x || position.y.abs() > limit.y {
            commands.entity(entity).despawn();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Collisions: the game reads this frame's contacts right after the plugin wrote them

fn start_collision_clock(mut clock: ResMut<CollisionClock>) {
    clock.0 = Some(Instant::now());
}

fn stop_collision_clock(mut clock: ResMut<CollisionClock>, mut stats: ResMut<Stats>) {
    if let Some(started) = clock.0.take() {
        stats
            .collision_ms
            .push(started.elapsed().as_secs_f32() * 1000.0);
    }
}

/// Bullets hurt what they hit and vanish; walls absorb shots; the ship loses a life to
/// enemy bullets and rams.
#[expect(clippy::too_many_arguments, reason = "a system reading several roles")]
fn resolve_hits(
    mut commands: Commands,
    contacts: Res<Contacts>,
    mut game: ResMut<Game>,
    mut stats: ResMut<Stats>,
    mut enemies: Query<&mut Enemy>,
    player_bullets: Query<(), With<PlayerBullet>>,
    enemy_bullets: Query<(), With<EnemyBullet>>,
    player: Single<Entity, With<Player>>,
) {
    let player = *player;
    let mut spent = bevy::ecs::entity::EntityHashSet::default();
    let mut player_hit = false;
    for contact in contacts.iter() {
        for (shot, other) in [(contact.a, contact.b), (contact.b, contact.a)] {
            if player_bullets.contains(shot) && spent.insert(shot) {
                commands.entity(shot).despawn();
                if let Ok(mut enemy) = enemies.get_mut(other) {
                    enemy.health -= 1.0;
                    stats.hits += 1;
                }
            } else if enemy_bullets.contains(shot) && spent.insert(shot) {
                commands.entity(shot).despawn();
                player_hit |= other == player;
            } else if shot == player && enemies.contains(other) {
                player_hit = true;
            }
        }
    }
    if player_hit && game.invulnerable <= 0.0 && game.over_for.is_none() {
        game.lives = game.lives.saturating_sub(1);
        game.invulnerable = INVULNERABLE_SECONDS;
        stats.lives_lost += 1;
        if game.lives == 0 {
            game.over_for = Some(0.0);
            commands.entity(player).insert(ColliderDisabled);
        }
    }
}

/// The laser stops at the nearest point where it meets anything, and burns that target.
fn stop_laser(
    time: Res<Time>,
    contacts: Res<Contacts>,
    mut stats: ResMut<Stats>,
    laser: Single<(Entity, &GlobalTransform, &mut Laser)>,
    mut enemies: Query<&mut Enemy>,
) {
    let (entity, transform, mut laser) = laser.into_inner();
    laser.visible_length = LASER_RANGE;
    let origin = transform.translation().truncate();
    let nearest = contacts
        .of(entity)
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
    contacts: Res<Contacts>,
    colliders: Query<(), AnyCollider>,
) {
    stats.frames += 1;
    stats.contacts = contacts.len();
    stats.total_contacts += contacts.len() as u64;
    stats.colliders = colliders.iter().len();
    stats.peak_colliders = stats.peak_colliders.max(stats.colliders);
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
    game.invulnerable = (game.invulnerable - time.delta_secs()).max(0.0);
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
