//! The storm: every [`STORM_EVERY`]th wave, a few emitters hover at the top of the screen and
//! fill it with twisting rings of bullets, over ten thousand at once. Each one is an enemy
//! bullet like any other: a swept circle that the ship and the walls meet through the same
//! contacts. Storm bullets burn out after [`STORM_BULLET_SECONDS`], so the rings fill the top
//! of the screen and leave the ship room to fly below them. This is the wave that shows the
//! scale the crate is built for.

use std::f32::consts::{PI, TAU};

use bevy::prelude::*;
use bevy_collision_events::prelude::*;

use super::{
    EnemyKind, Lifetime,
    collisions::enemy_hit,
    enemies::{Drift, ENTRY_SECONDS, Spin, enemy_parts},
    spawn_enemy_bullet, star_outline,
};

/// Every this many waves is a storm: waves 5, 10, 15 and so on.
pub const STORM_EVERY: u32 = 5;

/// Where the emitters hover.
const EMITTER_HOMES: [Vec2; 4] = [
    Vec2::new(-450.0, 180.0),
    Vec2::new(-150.0, 150.0),
    Vec2::new(150.0, 150.0),
    Vec2::new(450.0, 180.0),
];
/// An emitter's hit points at wave 0; tougher each wave, as every enemy.
const EMITTER_HEALTH: f32 = 180.0;
const EMITTER_VALUE: u32 = 1000;
const EMITTER_SPIKES: usize = 8;
const EMITTER_OUTER_RADIUS: f32 = 34.0;
const EMITTER_INNER_RADIUS: f32 = 18.0;
/// How fast an emitter turns, radians per second.
const EMITTER_SPIN: f32 = 0.8;
/// How far the emitters sway and bob, compared with other enemies.
const EMITTER_SWAY: f32 = 30.0;

/// Bullets per ring, evenly spread around the emitter.
const RING_BULLETS: usize = 110;
/// Seconds between two rings of one emitter.
const RING_PERIOD: f32 = 0.1;
/// Seconds from an emitter's arrival to its first ring; neighbours start a little apart.
const FIRST_RING_DELAY: f32 = 0.3;
const RING_STAGGER: f32 = 0.04;
/// How far each ring is turned from the last, radians: the rings twist into spirals,
/// neighbouring emitters' the opposite way.
const RING_TWIST: f32 = 0.021;
const STORM_BULLET_SPEED: f32 = 90.0;
const STORM_BULLET_RADIUS: f32 = 3.0;
/// Seconds a storm bullet flies before it burns out: how far the rings reach.
const STORM_BULLET_SECONDS: f32 = 3.4;
/// How far from an emitter's centre its bullets appear.
const STORM_GUN_REACH: f32 = 30.0;

/// An emitter's gun: a ring of bullets every [`RING_PERIOD`], each turned a little further.
#[derive(Component)]
pub struct StormGun {
    /// Seconds until the next ring.
    cooldown: f32,
    /// The turn of the next ring, radians.
    turn: f32,
    /// The direction the rings twist: 1 or -1.
    twist: f32,
}

/// Whether `wave` is a storm.
pub fn is_storm(wave: u32) -> bool {
    wave.is_multiple_of(STORM_EVERY)
}

/// The emitters of the storm at `wave`, flying in from above.
pub fn spawn_storm(commands: &mut Commands, wave: u32) {
    for (index, home) in EMITTER_HOMES.into_iter().enumerate() {
        let twist = if index % 2 == 0 { 1.0 } else { -1.0 };
        commands
            .spawn((
                enemy_parts(EnemyKind::Star, EMITTER_HEALTH, EMITTER_VALUE, wave),
                PolygonCollider::new(star_outline(
                    EMITTER_SPIKES,
                    EMITTER_OUTER_RADIUS,
                    EMITTER_INNER_RADIUS,
                )),
                Drift::new(home, index as u32, EMITTER_SWAY),
                Drift::entry_transform(home),
                Spin(EMITTER_SPIN * twist),
                StormGun {
                    cooldown: ENTRY_SECONDS + FIRST_RING_DELAY + RING_STAGGER * index as f32,
                    turn: index as f32 * PI / RING_BULLETS as f32,
                    twist,
                },
            ))
            .observe(enemy_hit);
    }
}

/// Each emitter fires its rings on time whatever the frame rate: a ring due part-way through
/// the last frame starts as far out as it would have flown since.
pub fn fire_storm(
    mut commands: Commands,
    time: Res<Time>,
    mut guns: Query<(&Transform, &mut StormGun)>,
) {
    for (transform, mut gun) in &mut guns {
        gun.cooldown -= time.delta_secs();
        let origin = transform.translation.truncate();
        while gun.cooldown <= 0.0 {
            let late = -gun.cooldown;
            for i in 0..RING_BULLETS {
                let direction = Vec2::from_angle(gun.turn + i as f32 * TAU / RING_BULLETS as f32);
                let at = origin + direction * (STORM_GUN_REACH + late * STORM_BULLET_SPEED);
                let velocity = direction * STORM_BULLET_SPEED;
                let burns_for = Lifetime(STORM_BULLET_SECONDS - late);
                spawn_enemy_bullet(&mut commands, at, velocity, STORM_BULLET_RADIUS, burns_for);
            }
            gun.turn += RING_TWIST * gun.twist;
            gun.cooldown += RING_PERIOD;
        }
    }
}
