//! The shooter example's game, played headless by its autopilot: bullets hit enemies, the
//! laser stops exactly on the outline of the first thing it meets, and the autopilot scores.

#[allow(
    dead_code,
    reason = "the example's graphics use parts this test does not"
)]
#[path = "../examples/shooter/game/mod.rs"]
mod game;

use bevy::prelude::*;
use bevy_collision_events::prelude::*;
use game::player::PLAYER_START;
use game::player::spawn_player_bullet;
use game::{
    CROWD, Enemy, EnemyBullet, EnemyKind, Game, GameState, LASER_LENGTH, Laser, Missile, Player,
    PlayerBullet, RESTART_SECONDS, STORM_EVERY, Stats, WALL_SEGMENT, WALL_SEGMENT_AT, Wall,
    spawn_enemy_bullet,
};

/// How far `point` is from the outline of `entity`'s collider, worked out here from the
/// collider and its `GlobalTransform`; `None` once the entity is gone (an enemy the laser
/// finished off this frame).
fn distance_to_outline(world: &World, entity: Entity, point: Vec2) -> Option<f32> {
    let transform = world.get::<GlobalTransform>(entity)?;
    let place = |p: Vec2| transform.transform_point(p.extend(0.0)).truncate();
    let to_segment = |a: Vec2, b: Vec2| {
        let ab = b - a;
        let t = ((point - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
        point.distance(a + ab * t)
    };
    Some(if let Some(circle) = world.get::<CircleCollider>(entity) {
        let scale = transform.compute_transform().scale.truncate().max_element();
        (point.distance(place(circle.offset())) - circle.radius() * scale).abs()
    } else if let Some(segment) = world.get::<SegmentCollider>(entity) {
        to_segment(place(segment.a()), place(segment.b()))
    } else {
        let polygon = world.get::<PolygonCollider>(entity)?;
        let vertices: Vec<Vec2> = polygon.vertices().iter().map(|v| place(*v)).collect();
        (0..vertices.len())
            .map(|i| to_segment(vertices[i], vertices[(i + 1) % vertices.len()]))
            .fold(f32::INFINITY, f32::min)
    })
}

#[test]
fn the_autopilot_plays_and_the_laser_stops_at_its_targets() {
    let mut app = game::headless_app(1);
    let mut checked_stops = 0;
    for _ in 0..1800 {
        app.update();
        let world = app.world_mut();
        let (laser_entity, laser_transform, laser) = world
            .query::<(Entity, &GlobalTransform, &Laser)>()
            .single(world)
            .map(|(e, t, l)| (e, *t, l.visible_length))
            .unwrap();
        if laser >= LASER_LENGTH {
            continue;
        }
        // The beam was cut short: its end lies on the outline of what it touches, and nothing
        // it touches is nearer.
        let origin = laser_transform.translation().truncate();
        let end = origin + Vec2::Y * laser;
        let contacts = world.resource::<Contacts>();
        let touched: Vec<(Entity, Vec<Vec2>)> = contacts
            .of(laser_entity)
            .map(|c| (c.other(laser_entity).unwrap(), c.points.to_vec()))
            .collect();
        assert!(!touched.is_empty(), "cut short by nothing");
        for (_, points) in &touched {
            for point in points {
                assert!(
                    point.distance(origin) >= laser - 1e-3,
                    "a nearer point {point}"
                );
            }
        }
        let distances: Vec<f32> = touched
            .iter()
            .filter_map(|(other, _)| distance_to_outline(world, *other, end))
            .collect();
        if distances.len() < touched.len() {
            continue; // Something it touched was destroyed this frame.
        }
        assert!(
            distances.iter().any(|d| *d < 0.05),
            "the beam ends at {end}, on no outline it touches"
        );
        checked_stops += 1;
    }
    let stats = app.world().resource::<Stats>();
    assert!(
        checked_stops > 20,
        "the laser hit something only {checked_stops} times"
    );
    assert!(
        stats.hits > 20,
        "bullets hit enemies only {} times",
        stats.hits
    );
    assert!(stats.kills > 3, "only {} kills", stats.kills);
    assert!(stats.points > 0, "the autopilot scored nothing");
    assert!(stats.peak_colliders > 100);
}

/// A homing missile fired to the left from the bottom left, away from the first wave, turns
/// round and hits an enemy: `SpatialQuery::nearest` steers it (straight on, it leaves the
/// field and meets nothing).
#[test]
fn a_missile_fired_away_from_the_enemies_turns_round_and_hits_one() {
    let mut app = game::headless_app(1);
    app.insert_resource(game::Autopilot(false));
    app.insert_resource(game::Intent::default());
    // The first wave in place: it comes at half a second, and flies in for a second.
    for _ in 0..120 {
        app.update();
    }
    let world = app.world_mut();
    let enemies: Vec<Vec2> = world
        .query_filtered::<&GlobalTransform, With<game::Enemy>>()
        .iter(world)
        .map(|transform| transform.translation().truncate())
        .collect();
    let start = Vec2::new(-500.0, -250.0);
    assert!(
        enemies.iter().all(|enemy| enemy.y > start.y + 300.0),
        "every enemy far above: {enemies:?}"
    );
    game::player::spawn_missile(&mut world.commands(), start, Dir2::NEG_X);
    world.flush();
    for _ in 0..90 {
        app.update();
    }
    assert_eq!(app.world().resource::<Stats>().missile_hits, 1);
}

#[test]
fn the_autopilot_aims_with_spatial_queries_and_scores_at_waves_one_and_six() {
    for wave in [1, 6] {
        let mut app = game::headless_app(wave);
        for _ in 0..400 {
            app.update();
        }
        let stats = app.world().resource::<Stats>();
        assert!(
            stats.points > 0,
            "wave {wave}: scored nothing in 400 frames"
        );
        assert!(stats.kills >= 3, "wave {wave}: only {} kills", stats.kills);
        assert!(
            stats.missile_hits > 3,
            "wave {wave}: the homing missiles hit {} times",
            stats.missile_hits
        );
    }
    // The first wave cleared, and the next begun, within 20 seconds.
    let mut app = game::headless_app(1);
    for _ in 0..1200 {
        app.update();
    }
    assert!(
        app.world().resource::<Game>().wave > 1,
        "wave 1 not cleared"
    );
}

/// An enemy shot takes the ship's last life: the game is over and the ship's collider off, so
/// a second shot passes through it and costs nothing, and an enemy finished off meanwhile
/// scores nothing; after the restart delay the autopilot starts a new game, with its lives
/// back and the ship's collider on again, and the next shot costs a life.
#[test]
fn a_game_over_switches_the_ship_off_and_the_restart_switches_it_back_on() {
    let mut app = game::headless_app(1);
    app.update();
    app.world_mut().resource_mut::<Game>().lives = 1;
    let shoot_the_ship = |app: &mut App| {
        let world = app.world_mut();
        let (ship, at) = world
            .query_filtered::<(Entity, &Transform), With<Player>>()
            .single(world)
            .map(|(ship, transform)| (ship, transform.translation.truncate()))
            .unwrap();
        spawn_enemy_bullet(&mut world.commands(), at, Vec2::ZERO, 4.0, ());
        world.flush();
        app.update();
        ship
    };
    let state = |app: &App| *app.world().resource::<GameState>();
    let ship = shoot_the_ship(&mut app);
    assert_eq!(app.world().resource::<Game>().lives, 0);
    assert_eq!(state(&app), GameState::Over, "the game is over");
    assert!(app.world().get::<ColliderDisabled>(ship).is_some());
    app.world_mut().resource_mut::<Game>().invulnerable = 0.0;
    shoot_the_ship(&mut app);
    assert_eq!(
        app.world().resource::<Stats>().lives_lost,
        1,
        "no life lost while over"
    );
    // The shot (not moving) lies on the ship, which met nothing: it is still there.
    let world = app.world_mut();
    let ship_at = world.get::<Transform>(ship).unwrap().translation.truncate();
    let mut shots = world.query_filtered::<&Transform, With<EnemyBullet>>();
    let on_ship = |shot: &Transform| shot.translation.truncate().distance(ship_at) < 1.0;
    assert!(shots.iter(world).any(on_ship), "the shot passed through");
    // An enemy finished off by a shot still flying after the game over.
    let score = app.world().resource::<Game>().score;
    let finished = Enemy {
        health: 0.0,
        value: 100,
        kind: EnemyKind::Orb,
    };
    app.world_mut().spawn((finished, Transform::default()));
    app.update();
    assert_eq!(
        app.world().resource::<Game>().score,
        score,
        "no score while over"
    );
    // Far from where it starts: the new game puts it back.
    app.world_mut()
        .get_mut::<Transform>(ship)
        .unwrap()
        .translation
        .x += 200.0;
    // The restart delay, at 60 frames a second, and a frame to spare.
    let frames = (RESTART_SECONDS * 60.0).ceil() as usize + 1;
    for _ in 0..frames {
        app.update();
        if state(&app) == GameState::Playing {
            break;
        }
    }
    assert_eq!(state(&app), GameState::Playing, "a new game");
    assert!(app.world().resource::<Game>().lives > 1);
    assert!(app.world().get::<ColliderDisabled>(ship).is_none());
    let at = app.world().get::<Transform>(ship).unwrap().translation;
    assert_eq!(at, PLAYER_START, "the ship back at the start");
    app.world_mut().resource_mut::<Game>().invulnerable = 0.0;
    shoot_the_ship(&mut app);
    assert_eq!(app.world().resource::<Stats>().lives_lost, 2);
}

/// The game's systems run in one order only: no two that conflict (one writes what the other
/// reads) are left unordered, so a headless run plays the same game every time, in every
/// process (the executor's order of unordered systems may differ from one process to the
/// next, though not between two apps in one process).
#[test]
fn the_game_systems_are_not_ambiguous() {
    use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings, ScheduleLabel};
    let mut app = game::headless_app(1);
    for label in [Update.intern(), PostUpdate.intern()] {
        app.edit_schedule(label, |schedule| {
            schedule.set_build_settings(ScheduleBuildSettings {
                ambiguity_detection: LogLevel::Error,
                ..default()
            });
        });
    }
    app.update();
}

/// The right-hand wall segment's ends, in world space (from (380, −40) to (520, −80)).
const WALL_ENDS: (Vec2, Vec2) = (
    Vec2::new(
        WALL_SEGMENT_AT.x + WALL_SEGMENT.0.x,
        WALL_SEGMENT_AT.y + WALL_SEGMENT.0.y,
    ),
    Vec2::new(
        WALL_SEGMENT_AT.x + WALL_SEGMENT.1.x,
        WALL_SEGMENT_AT.y + WALL_SEGMENT.1.y,
    ),
);

#[test]
fn every_shot_at_a_wall_is_absorbed_where_it_struck() {
    let mut app = game::headless_app(1);
    app.update();
    // 100 shots straight up under the wall, spread along it and over one frame's flight (a
    // player bullet covers 15 px a frame, five times its radius).
    let shots: Vec<Entity> = (0..100)
        .map(|i| {
            let x = WALL_ENDS.0.x + 2.0 + 136.0 * i as f32 / 100.0;
            let y = -300.0 - 15.0 * i as f32 / 100.0;
            let mut commands = app.world_mut().commands();
            spawn_player_bullet(&mut commands, Vec2::new(x, y), 0.0)
        })
        .collect();
    app.world_mut().flush();
    let wall = app
        .world_mut()
        .query_filtered::<Entity, (With<Wall>, With<SegmentCollider>)>()
        .iter(app.world())
        .find(|&wall| {
            let at = app
                .world()
                .get::<GlobalTransform>(wall)
                .unwrap()
                .translation();
            at.x > 0.0
        })
        .unwrap();
    let mut struck = 0;
    for _ in 0..40 {
        app.update();
        for contact in app.world().resource::<Contacts>().iter() {
            let Some(shot) = contact.other(wall).filter(|other| shots.contains(other)) else {
                continue;
            };
            let impact = contact.impact.expect("a shot meets the wall on its way");
            // The point lies on the wall's line, between its ends.
            let (a, b) = WALL_ENDS;
            let along = (impact.point - a).dot(b - a) / (b - a).length_squared();
            let off = (impact.point - a).perp_dot((b - a).normalize()).abs();
            assert!(
                (0.0..=1.0).contains(&along) && off < 0.01,
                "{shot} struck at {impact:?}"
            );
            struck += 1;
        }
        for &shot in &shots {
            if let Some(transform) = app.world().get::<Transform>(shot) {
                assert!(
                    transform.translation.y < -30.0,
                    "{shot} passed the wall to {}",
                    transform.translation
                );
            }
        }
    }
    assert_eq!(struck, 100, "every shot struck the wall once");
    assert!(
        shots
            .iter()
            .all(|&shot| app.world().get_entity(shot).is_err())
    );
}

/// Whether `point` lies inside the polygon of `entity` (its world vertices), by the even-odd
/// rule; `false` for an entity without one.
fn inside_polygon(world: &World, entity: Entity, point: Vec2) -> bool {
    let (Some(transform), Some(polygon)) = (
        world.get::<GlobalTransform>(entity),
        world.get::<PolygonCollider>(entity),
    ) else {
        return false;
    };
    let place = |p: Vec2| transform.transform_point(p.extend(0.0)).truncate();
    let vertices: Vec<Vec2> = polygon.vertices().iter().map(|v| place(*v)).collect();
    let mut inside = false;
    for i in 0..vertices.len() {
        let (a, b) = (vertices[i], vertices[(i + 1) % vertices.len()]);
        if (a.y > point.y) != (b.y > point.y)
            && point.x < a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x)
        {
            inside = !inside;
        }
    }
    inside
}

/// The storm wave puts over ten thousand bullets on screen, and none is ever left overlapping
/// a wall or inside a block at the end of a frame: each one that reaches a wall is absorbed in
/// the frame it strikes, which needs its contact reported in that frame. Many do strike.
#[test]
fn the_storm_fills_the_screen_and_every_bullet_that_reaches_a_wall_is_absorbed() {
    let mut app = game::headless_app(STORM_EVERY);
    app.update();
    let walls: Vec<Entity> = app
        .world_mut()
        .query_filtered::<Entity, With<Wall>>()
        .iter(app.world())
        .collect();
    assert_eq!(walls.len(), 4, "two segments and two blocks");
    let (mut checked, mut strikes) = (0, 0);
    for frame in 0..480 {
        app.update();
        let world = app.world_mut();
        let bullets: Vec<(Entity, Vec2, f32)> = world
            .query_filtered::<(Entity, &GlobalTransform, &CircleCollider), With<EnemyBullet>>()
            .iter(world)
            .map(|(entity, transform, circle)| {
                (entity, transform.translation().truncate(), circle.radius())
            })
            .collect();
        for &(_, center, radius) in &bullets {
            for &wall in &walls {
                let distance = distance_to_outline(world, wall, center).unwrap();
                assert!(
                    distance > radius - 1e-3 && !inside_polygon(world, wall, center),
                    "frame {frame}: a bullet at {center} is left on a wall"
                );
                checked += 1;
            }
        }
        let contacts = world.resource::<Contacts>();
        strikes += walls.iter().flat_map(|&wall| contacts.of(wall)).count();
    }
    let stats = app.world().resource::<Stats>();
    assert!(
        stats.peak_bullets >= CROWD,
        "only {} bullets on screen at once",
        stats.peak_bullets
    );
    assert!(strikes > 100, "only {strikes} strikes on the walls");
    assert!(checked > 1_000_000, "only {checked} bullet-wall checks");
}

/// The walls are solid to the ship: put into the right-hand block, it is pushed out of it in
/// the same frame, to where the two only touch.
#[test]
fn the_ship_is_pushed_out_of_a_block() {
    use bevy_collision_events::geometry::{Shape, push_out};
    let mut app = game::headless_app(1);
    app.insert_resource(game::Autopilot(false));
    app.update();
    let world = app.world_mut();
    let (block, block_at) = world
        .query_filtered::<(&PolygonCollider, &GlobalTransform), With<Wall>>()
        .iter(world)
        .find(|(_, transform)| transform.translation().x > 0.0)
        .map(|(collider, transform)| (collider.clone(), *transform))
        .expect("the right-hand block");
    let in_the_block = block_at.transform_point(Vec3::new(0.0, -10.0, 0.0));
    let (ship, mut transform) = world
        .query_filtered::<(Entity, &mut Transform), With<Player>>()
        .single_mut(world)
        .unwrap();
    transform.translation = in_the_block.with_z(transform.translation.z);
    app.update();
    let world = app.world();
    let at = world.get::<GlobalTransform>(ship).unwrap();
    let outline = world.get::<PolygonCollider>(ship).unwrap().vertices();
    let ship_now: Vec<Vec2> = outline
        .iter()
        .map(|v| at.transform_point(v.extend(0.0)).truncate())
        .collect();
    let block_now: Vec<Vec2> = block
        .vertices()
        .iter()
        .map(|v| block_at.transform_point(v.extend(0.0)).truncate())
        .collect();
    assert!(at.translation().distance(in_the_block) > 1.0, "pushed out");
    let depth = push_out(Shape::Polygon(&ship_now), Shape::Polygon(&block_now))
        .map_or(0.0, |out| out.depth);
    assert!(depth < 1e-3, "still {depth} deep in the block");
}

/// A game at `frame_rate` frames a second, flown by `intent` (no autopilot), with the ship put
/// below the middle of the right-hand wall segment, its nose 16 below it, after a first frame.
fn ship_under_the_wall(frame_rate: f64, intent: game::Intent) -> App {
    let mut app = game::headless_app(1);
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs_f64(1.0 / frame_rate),
    ));
    app.insert_resource(game::Autopilot(false));
    app.insert_resource(intent);
    app.update();
    let world = app.world_mut();
    let mut ship = world.query_filtered::<&mut Transform, With<Player>>();
    let below = WALL_SEGMENT_AT + Vec2::new(0.0, -40.0);
    ship.single_mut(world).unwrap().translation = below.extend(0.0);
    app
}

/// The right-hand wall segment's line at `x`: it slants down to the right.
fn wall_y(x: f32) -> f32 {
    let (left, right) = WALL_ENDS;
    left.y + (x - left.x) * (right.y - left.y) / (right.x - left.x)
}

/// Flown up into the slanted wall with the laser on, the ship is held below the wall, and the
/// beam, starting from the ship's centre, stops at the wall every frame: it never starts
/// beyond the wall's line, where it would reach what lies behind.
#[test]
fn the_laser_of_a_ship_pressed_against_a_wall_stops_at_the_wall() {
    let lasering = game::Intent {
        movement: Vec2::Y,
        lasering: true,
        ..default()
    };
    let mut app = ship_under_the_wall(60.0, lasering);
    for frame in 0..30 {
        app.update();
        let world = app.world_mut();
        let (laser, at) = world
            .query::<(&Laser, &GlobalTransform)>()
            .single(world)
            .unwrap();
        let (x, start) = (at.translation().x, at.translation().y);
        let end = start + laser.visible_length;
        // A hair of rounding: the ship is pushed out to touch the wall.
        assert!(
            start <= wall_y(x) + 1e-3,
            "frame {frame}: the beam starts at {start}, past the wall at {}",
            wall_y(x)
        );
        assert!(
            (end - wall_y(x)).abs() < 1e-2,
            "frame {frame}: the beam ends at {end}, not at the wall at {}",
            wall_y(x)
        );
    }
}

/// Flown up into the slanted wall while firing, at the example's frame rate and at a third of
/// it: the ship is pushed back out of the wall each frame after it has moved into it, and its
/// shots, fired meanwhile, must still meet the wall. No bullet's flight, from the ship that
/// fired it (where the ship was at the end of the frame before the bullet was first seen) to
/// where the bullet is, ever crosses the wall (the ship slides along the wall, and past its
/// end bullets fly on freely).
#[test]
fn the_shots_of_a_ship_pressed_against_a_wall_never_pass_it() {
    /// Whether the segments `a`–`b` and `c`–`d` cross.
    fn cross(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
        let side = |p: Vec2, q: Vec2, r: Vec2| (q - p).perp_dot(r - p);
        side(a, b, c) * side(a, b, d) < 0.0 && side(c, d, a) * side(c, d, b) < 0.0
    }
    for frame_rate in [60.0, 20.0] {
        let firing = game::Intent {
            movement: Vec2::Y,
            firing: true,
            ..default()
        };
        let mut app = ship_under_the_wall(frame_rate, firing);
        let (left, right) = WALL_ENDS;
        let mut fired_from = std::collections::HashMap::new();
        let ship_at = |world: &mut World| {
            let mut ship = world.query_filtered::<&GlobalTransform, With<Player>>();
            ship.single(world).unwrap().translation().truncate()
        };
        for frame in 0..60 {
            let ship = ship_at(app.world_mut());
            app.update();
            let world = app.world_mut();
            let mut bullets = world.query_filtered::<(Entity, &GlobalTransform), (
                With<PlayerBullet>,
                Without<Missile>,
            )>();
            for (bullet, at) in bullets.iter(world) {
                let at = at.translation().truncate();
                let from = *fired_from.entry(bullet).or_insert(ship);
                assert!(
                    !cross(from, at, left, right),
                    "{frame_rate} fps, frame {frame}: a bullet flew from {from} to {at}, \
                     through the wall"
                );
            }
        }
        assert!(fired_from.len() > 10, "{frame_rate} fps: the ship fired");
    }
}

/// Flown up into the thin wall segment at a slow frame rate (down to ten frames a second),
/// where a frame's move would take the ship more than half its height into the wall, the
/// ship stays below the wall: the walls push it out by the least move, which would then be
/// out of the far side, and the ship moves at most a thirtieth of a second's way a frame.
#[test]
fn a_ship_flown_into_the_thin_wall_at_a_slow_frame_rate_stays_below_it() {
    for frame_rate in [20.0, 10.0] {
        let flying_up = game::Intent {
            movement: Vec2::Y,
            ..default()
        };
        let mut app = ship_under_the_wall(frame_rate, flying_up);
        let (left, right) = WALL_ENDS;
        for frame in 0..40 {
            app.update();
            let world = app.world_mut();
            let mut ship = world.query_filtered::<&Transform, With<Player>>();
            let at = ship.single(world).unwrap().translation.truncate();
            assert!(
                !(left.x..=right.x).contains(&at.x) || at.y < wall_y(at.x),
                "{frame_rate} fps, frame {frame}: the ship is at {at}, beyond the wall"
            );
        }
    }
}
