//! The autopilot: it flies the ship, fires, and aims the laser, by spatial queries.

use bevy::prelude::*;
use bevy_collision_events::prelude::*;

use super::player::velocity;
use super::{
    Autopilot, ENEMY, Enemy, EnemyBullet, HALF_FIELD, Intent, LASER_RANGE, NOSE, PLAYER_BOUNDS,
    Player, Velocity, WALL,
};

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
/// It runs in `Update`, so its `SpatialQuery` answers from where the last frame's pipeline
/// placed the colliders: a frame behind, which a pilot's reaction time hides.
pub(super) fn fly_autopilot(
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
        (position + velocity(movement) * seconds).clamp(-PLAYER_BOUNDS, PLAYER_BOUNDS)
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
        let aim = match line_of_fire(&spatial, future + NOSE, &targets, &enemies) {
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
        .map(|movement| (cost(movement), movement))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map_or(Vec2::ZERO, |(_, movement)| movement);
    *intent = Intent {
        movement,
        firing: true,
        lasering: line_of_fire(&spatial, position + NOSE, &targets, &enemies) == Some(true),
        restart: false,
    };
}
