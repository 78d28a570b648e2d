//! What the game makes of its contacts: observers of `ContactStarted` on each enemy, the ship
//! and each wall, run as the plugin triggers `ContactStarted` (once for each of the two
//! entities, pair after pair), and the systems that read this frame's contacts after the
//! pipeline.

use std::time::Instant;

use bevy::diagnostic::DiagnosticsStore;
use bevy::ecs::query::QueryFilter;
use bevy::prelude::*;
use bevy_collision_events::diagnostics::CollisionDiagnosticsPlugin;
use bevy_collision_events::prelude::*;

use super::{
    BULLET_DAMAGE, Bullet, CROWD, Enemy, EnemyBullet, EnemyDestroyed, Game, GameState, HALF_FIELD,
    INVULNERABLE_SECONDS, LASER_DAMAGE_PER_SECOND, LASER_LENGTH, Laser, MISSILE_DAMAGE, Missile,
    Player, PlayerBullet, Stats, WALL_CLEARANCE, Wall,
};

/// Spends the bullet of `hit`, if `bullets` has it and `hit`'s collider is what it met first
/// this frame: despawns it, and says it struck. A bullet that crossed a wall and an enemy in
/// one frame strikes the one it met first along its path ([`Contacts::first_hit`]), not the
/// one whose event comes first; the despawn is applied as soon as that observer returns, so no
/// later observer finds the bullet. Each shot's layers meet only what spends it (walls, and
/// enemies or the ship), and enemies are despawned after the contacts, not in an observer: so
/// its first hit always has an observer that spends it.
fn spend<F: QueryFilter>(
    commands: &mut Commands,
    bullets: &Query<(), F>,
    contacts: &Contacts,
    hit: &ContactStarted,
) -> bool {
    let bullet = hit.other;
    // The body of what the bullet met first: the struck collider itself, unless a part.
    let first = contacts.first_hit(bullet);
    let struck = first.and_then(|contact| contact.body_of(contact.other(bullet)?));
    if !bullets.contains(bullet) || struck != Some(hit.entity) {
        return false;
    }
    commands.entity(bullet).despawn();
    true
}

/// Observer on each enemy: a player bullet that reaches it does damage and vanishes. (The
/// laser burns in [`stop_laser`]; a ram costs the ship, in [`ram_player`].)
pub(super) fn enemy_hit(
    hit: On<ContactStarted>,
    mut commands: Commands,
    mut enemies: Query<&mut Enemy>,
    bullets: Query<(), With<PlayerBullet>>,
    missiles: Query<(), With<Missile>>,
    contacts: Res<Contacts>,
    mut stats: ResMut<Stats>,
) {
    let Ok(mut enemy) = enemies.get_mut(hit.entity) else {
        return;
    };
    let missile = missiles.contains(hit.other);
    if spend(&mut commands, &bullets, &contacts, &hit) {
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
pub(super) fn ship_hit(
    hit: On<ContactStarted>,
    mut commands: Commands,
    bullets: Query<(), With<EnemyBullet>>,
    contacts: Res<Contacts>,
    mut game: ResMut<Game>,
    mut state: ResMut<GameState>,
    mut stats: ResMut<Stats>,
) {
    if spend(&mut commands, &bullets, &contacts, &hit) {
        lose_life(&mut commands, hit.entity, &mut game, &mut state, &mut stats);
    }
}

/// Observer on each wall and block: any bullet that reaches it, the player's or an enemy's, is
/// absorbed (the laser is cut short there instead: see `stop_laser`).
pub(super) fn absorb_shot(
    hit: On<ContactStarted>,
    mut commands: Commands,
    bullets: Query<(), With<Bullet>>,
    contacts: Res<Contacts>,
) {
    spend(&mut commands, &bullets, &contacts, &hit);
}

/// The ship costs a life while an enemy overlaps it, each time it is not invulnerable: not
/// only when the ram starts, so its [`CollidingEntities`] are asked every frame.
pub(super) fn ram_player(
    mut commands: Commands,
    player: Single<(Entity, &CollidingEntities), With<Player>>,
    enemies: Query<(), With<Enemy>>,
    mut game: ResMut<Game>,
    mut state: ResMut<GameState>,
    mut stats: ResMut<Stats>,
) {
    let (ship, touching) = *player;
    if touching.iter().any(|&other| enemies.contains(other)) {
        lose_life(&mut commands, ship, &mut game, &mut state, &mut stats);
    }
}

/// The ship is hit: unless it is invulnerable, a life is lost, and the last one ends the game
/// and switches the ship's collider off at once (no life is lost while it is off).
fn lose_life(
    commands: &mut Commands,
    ship: Entity,
    game: &mut Game,
    state: &mut GameState,
    stats: &mut Stats,
) {
    if game.invulnerable > 0.0 || *state == GameState::Over {
        return;
    }
    game.lives = game.lives.saturating_sub(1);
    game.invulnerable = INVULNERABLE_SECONDS;
    stats.lives_lost += 1;
    if game.lives == 0 {
        *state = GameState::Over;
        commands.entity(ship).insert(ColliderDisabled);
    }
}

/// The walls are solid to the ship: each contact of the ship's with a wall says how to get out
/// of it ([`Contact::push_out`]), and the ship moves by that, sliding along the wall. Every
/// answer is for where the ship was before any of them: a second wall's push counts only what
/// the first did not already cover along its direction.
pub(super) fn push_ship_out_of_walls(
    contacts: Res<Contacts>,
    query: SpatialQuery,
    walls: Query<(), With<Wall>>,
    ship: Single<(Entity, &mut Transform, &mut GlobalTransform), With<Player>>,
) {
    let (ship, mut transform, mut global) = ship.into_inner();
    let mut moved = Vec2::ZERO;
    for contact in contacts.of(ship) {
        let Some(wall) = contact.other(ship) else {
            continue;
        };
        if walls.contains(wall)
            && let Some(out) = contact.push_out(ship, &query)
        {
            let depth = out.depth + WALL_CLEARANCE;
            moved += out.direction * (depth - moved.dot(out.direction)).max(0.0);
        }
    }
    if moved != Vec2::ZERO {
        transform.translation += moved.extend(0.0);
        // Transforms were propagated before the contacts were found, and the frame is drawn
        // from `GlobalTransform`: the ship (which has no parent) is drawn out of the wall now.
        *global = GlobalTransform::from(*transform);
    }
}

/// The laser stops at the nearest point where it meets anything, and burns that target. Its
/// contacts of the pipeline's last run say where it crosses each outline it touches.
pub(super) fn stop_laser(
    time: Res<Time>,
    contacts: Res<Contacts>,
    mut stats: ResMut<Stats>,
    laser: Single<(Entity, &GlobalTransform, &mut Laser)>,
    mut enemies: Query<&mut Enemy>,
) {
    let (entity, transform, mut laser) = laser.into_inner();
    laser.visible_length = LASER_LENGTH;
    let origin = transform.translation().truncate();
    let nearest = contacts
        .of(entity)
        .filter_map(|contact| {
            let target = contact.other(entity)?;
            let point = contact.nearest_point(origin)?;
            Some((point.distance(origin), target))
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

/// Enemies out of health (from bullets or the laser) explode, and score while a game is on
/// (not to shots still flying after a game over).
pub(super) fn destroy_enemies(
    mut commands: Commands,
    state: Res<GameState>,
    mut game: ResMut<Game>,
    mut stats: ResMut<Stats>,
    enemies: Query<(Entity, &Enemy, &GlobalTransform)>,
    mut destroyed: MessageWriter<EnemyDestroyed>,
) {
    for (entity, enemy, transform) in &enemies {
        if enemy.health <= 0.0 {
            commands.entity(entity).despawn();
            stats.kills += 1;
            if *state == GameState::Playing {
                game.score += enemy.value;
                stats.points += u64::from(enemy.value);
            }
            destroyed.write(EnemyDestroyed {
                position: transform.translation().truncate(),
                kind: enemy.kind,
            });
        }
    }
}

/// Counts this frame's colliders, bullets on screen and contacts, and keeps the crate's time
/// and the frame's, for the HUD and the summary.
pub(super) fn record_stats(
    mut stats: ResMut<Stats>,
    mut last_frame: Local<Option<Instant>>,
    contacts: Res<Contacts>,
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
    if stats.keep_timings {
        // This run's pipeline time, as the crate publishes it (its observers' work included).
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
    }
    stats.frames += 1;
    stats.contacts = contacts.len();
    stats.total_contacts += contacts.len() as u64;
    // The colliders the pipeline placed (those switched off left out), as it publishes them.
    let colliders = diagnostics.get(&CollisionDiagnosticsPlugin::COLLIDERS);
    stats.colliders = colliders
        .and_then(|diagnostic| diagnostic.value())
        .map_or(0, |count| count as usize);
    stats.peak_colliders = stats.peak_colliders.max(stats.colliders);
}
