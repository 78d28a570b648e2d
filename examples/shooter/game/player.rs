//! The player's ship: where it starts, how the pilot (keyboard or autopilot) flies it, and its
//! weapons: bullets, homing missiles that find their target with `SpatialQuery::nearest`, and
//! the laser, a segment collider switched on and off with `ColliderDisabled`.

use std::f32::consts::{FRAC_PI_2, PI, TAU};

use bevy::prelude::*;
use bevy_collision_events::prelude::*;

use super::{
    Autopilot, ENEMY, GameState, HALF_FIELD, Intent, LASER_LENGTH, LASER_Z, Laser, Lifetime,
    Missile, PLAYER_BOUNDS, PLAYER_BULLET_Z, PLAYER_LAYERS, PLAYER_MOST_STEP, PLAYER_SHOT_LAYERS,
    PLAYER_SPEED, PLAYER_Z, Player, PlayerBullet, PlayerGuns, SHIP_OUTLINE, Velocity,
    collisions::ship_hit, gun_fires,
};

// The ship's start and its guns.
/// Where the ship starts each game.
pub const PLAYER_START: Vec3 = Vec3::new(0.0, -HALF_FIELD.y + 60.0, PLAYER_Z);
const PLAYER_FIRE_PERIOD: f32 = 0.08;
const PLAYER_BULLET_SPEED: f32 = 900.0;
const PLAYER_BULLET_RADIUS: f32 = 3.0;
/// Each volley: three bullets, turned this much (radians) from straight up.
const PLAYER_BULLET_SPREAD: [f32; 3] = [-0.08, 0.0, 0.08];
/// Homing missiles: two every period while firing, setting off to either side, turning
/// towards the nearest enemy within their range (found with `SpatialQuery::nearest`) at a
/// limited rate.
const MISSILE_PERIOD: f32 = 0.6;
/// How far from straight ahead (radians) the two missiles set off, one to each side.
const MISSILE_LAUNCH_ANGLE: f32 = 0.5;
const MISSILE_SPEED: f32 = 520.0;
const MISSILE_RADIUS: f32 = 4.0;
const MISSILE_RANGE: f32 = 700.0;
/// Radians per second.
const MISSILE_TURN_RATE: f32 = 4.0;
/// Seconds a missile flies before it burns out (one that found nothing could circle forever).
const MISSILE_LIFETIME: f32 = 2.5;

/// The ship, which observes its own hits, and its laser, switched off until it fires.
pub(super) fn spawn_player(mut commands: Commands) {
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
        SegmentCollider::new(Vec2::ZERO, Vec2::new(0.0, LASER_LENGTH)),
        PLAYER_SHOT_LAYERS,
        ColliderDisabled,
        Transform::default(),
        // Shown while it fires.
        Visibility::Hidden,
    ));
}

/// Reads what the player wants; with the autopilot flying, only R (restart) counts.
pub(super) fn read_keyboard(
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

/// The ship's velocity for a stick pushed `movement` (each part in `-1..=1`): a diagonal is no
/// faster than straight.
pub(super) fn velocity(movement: Vec2) -> Vec2 {
    movement.clamp_length_max(1.0) * PLAYER_SPEED
}

pub(super) fn move_player(
    time: Res<Time>,
    intent: Res<Intent>,
    mut player: Single<&mut Transform, With<Player>>,
) {
    let step = velocity(intent.movement) * time.delta_secs();
    let step = step.clamp_length_max(PLAYER_MOST_STEP);
    let moved = (player.translation.truncate() + step).clamp(-PLAYER_BOUNDS, PLAYER_BOUNDS);
    player.translation = moved.extend(player.translation.z);
}

pub(super) fn fire_bullets(
    mut commands: Commands,
    time: Res<Time>,
    intent: Res<Intent>,
    player: Single<(&Transform, &mut PlayerGuns)>,
) {
    let (transform, mut guns) = player.into_inner();
    let delta = time.delta_secs();
    if !gun_fires(&mut guns.bullets, delta, PLAYER_FIRE_PERIOD, intent.firing) {
        return;
    }
    let centre = transform.translation.truncate();
    for spread in PLAYER_BULLET_SPREAD {
        spawn_player_bullet(&mut commands, centre, spread);
    }
}

/// While firing, two homing missiles every [`MISSILE_PERIOD`], setting off to either side.
pub(super) fn fire_missiles(
    mut commands: Commands,
    time: Res<Time>,
    intent: Res<Intent>,
    player: Single<(&Transform, &mut PlayerGuns)>,
) {
    let (transform, mut guns) = player.into_inner();
    let delta = time.delta_secs();
    if !gun_fires(&mut guns.missiles, delta, MISSILE_PERIOD, intent.firing) {
        return;
    }
    for side in [-1.0, 1.0] {
        let heading = Dir2::from_xy(
            -side * MISSILE_LAUNCH_ANGLE.sin(),
            MISSILE_LAUNCH_ANGLE.cos(),
        )
        .expect("a unit heading");
        spawn_missile(&mut commands, transform.translation.truncate(), heading);
    }
}

/// A homing missile from `at`, heading `heading` (steered from the next frame on).
pub fn spawn_missile(commands: &mut Commands, at: Vec2, heading: Dir2) -> Entity {
    commands
        .spawn((
            PlayerBullet,
            Missile,
            Lifetime(MISSILE_LIFETIME),
            CircleCollider::new(MISSILE_RADIUS),
            Swept::default(),
            PLAYER_SHOT_LAYERS,
            Velocity(*heading * MISSILE_SPEED),
            Transform::from_translation(at.extend(PLAYER_BULLET_Z)),
        ))
        .id()
}

/// Each missile turns towards the nearest enemy within its range, as the spatial index saw
/// them at the end of the last frame, by at most its turn rate; it burns out at the end of
/// its lifetime.
pub(super) fn steer_missiles(
    time: Res<Time>,
    spatial: SpatialQuery,
    mut missiles: Query<(&Transform, &mut Velocity), With<Missile>>,
) {
    let enemies = SpatialQueryFilter::from_mask(ENEMY);
    let most = MISSILE_TURN_RATE * time.delta_secs();
    for (transform, mut velocity) in &mut missiles {
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

/// Places the laser at the ship's centre, where it moved this frame, and switches its
/// collider on while it fires.
pub(super) fn aim_laser(
    mut commands: Commands,
    intent: Res<Intent>,
    state: Res<GameState>,
    player: Single<&Transform, (With<Player>, Without<Laser>)>,
    laser: Single<(Entity, &mut Transform, Has<ColliderDisabled>), With<Laser>>,
) {
    let (entity, mut transform, off) = laser.into_inner();
    let on = intent.lasering && *state == GameState::Playing;
    transform.translation = player.translation.truncate().extend(LASER_Z);
    if on && off {
        commands.entity(entity).remove::<ColliderDisabled>();
    } else if !on && !off {
        commands.entity(entity).insert(ColliderDisabled);
    }
}
