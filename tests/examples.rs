//! Every focused example, its app built by its own `example` function and run headless (the
//! examples' `main` adds only the window or the printing), with what it shows checked against
//! a reference worked out here: an example that breaks fails.

// Each example brings its own copy of the examples' shared `support` module.
#![allow(
    clippy::duplicate_mod,
    reason = "each example is its own crate when run"
)]

/// Each example as a module of this test, its window and printing left unused.
macro_rules! example {
    ($name:ident, $path:literal) => {
        #[allow(
            dead_code,
            reason = "the example's window and printing are not run here"
        )]
        #[path = $path]
        mod $name;
    };
}

example!(body, "../examples/body.rs");
example!(debug_draw, "../examples/debug_draw.rs");
example!(filter, "../examples/filter.rs");
example!(fixed_step, "../examples/fixed_step.rs");
example!(laser, "../examples/laser.rs");
example!(layers, "../examples/layers.rs");
example!(mine, "../examples/mine.rs");
example!(push_out, "../examples/push_out.rs");
example!(queries, "../examples/queries.rs");
example!(swept, "../examples/swept.rs");
example!(turning_laser, "../examples/turning_laser.rs");

use bevy::prelude::*;
use bevy_collision_events::debug::CollisionGizmos;
use bevy_collision_events::prelude::*;
use std::time::Duration;

/// The example's app, headless, after `frames` frames.
fn run(example: fn(&mut App), frames: u32) -> App {
    let mut app = headless_app();
    example(&mut app);
    for _ in 0..frames {
        app.update();
    }
    app
}

/// The frames (counted from 0) on which an example fires a volley, once in `Startup` and then
/// on Bevy's `on_timer(every)`, in the examples' headless frames: as Bevy's repeating `Timer`
/// counts them, the first frame's time step zero (Bevy's clock starts at the first update),
/// each other's 1/60 s.
fn volleys(every: Duration, frames: u32) -> Vec<u32> {
    let step = |frame: u32| match frame {
        0 => Duration::ZERO,
        _ => Duration::from_secs_f64(1.0 / 60.0),
    };
    let mut timer = Timer::new(every, TimerMode::Repeating);
    (0..frames)
        .filter(|&frame| timer.tick(step(frame)).just_finished() || frame == 0)
        .collect()
}

/// The examples' own headless app.
fn headless_app() -> App {
    #[path = "../examples/support/mod.rs"]
    mod support;
    support::headless_app()
}

/// The README's quick start, as a reader copies it: `examples/quick_start.rs` word for word
/// (which `cargo test` builds), and, but for its window and its `main`, the crate docs' quick
/// start (a doc test, which runs it headless and checks that the bullet strikes the enemy).
#[test]
fn the_readme_quick_start_is_the_example_and_the_tested_one() {
    let readme = include_str!("../README.md");
    let section = &readme[readme.find("## Quick start").expect("a quick start")..];
    let code = section
        .split("```rust\n")
        .nth(1)
        .and_then(|rest| rest.split("```\n").next())
        .expect("a rust block");
    assert_eq!(code, include_str!("../examples/quick_start.rs"));
    let lib = include_str!("../src/lib.rs");
    let docs: String = lib[lib.find("//! # Quick start").unwrap()..]
        .lines()
        .take_while(|line| line.starts_with("//!"))
        .map(|line| {
            let line = &line["//!".len()..];
            line.strip_prefix(' ').unwrap_or(line)
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut items = 0;
    for item in code.split("\n\n") {
        // The crate docs leave out the window: `main` and the debug drawing's import.
        if item.starts_with("//!") || item.contains("fn main()") {
            continue;
        }
        let item: Vec<&str> = item
            .trim_end()
            .lines()
            .filter(|line| !line.contains("debug::CollisionDebugPlugin"))
            .collect();
        let item = item.join("\n");
        assert!(docs.contains(&item), "not in the crate docs:\n{item}");
        items += 1;
    }
    assert!(items >= 5, "{items} items compared");
}

/// The beam ends where it enters the first target: the circle's entry, worked out from its
/// centre, while the circle is across the beam; otherwise, while the chevron is across it, the
/// floor of the chevron's notch (its two edges meet at its centre, at 45°); otherwise, while
/// the box is across it, the box's near side; otherwise it reaches its whole range.
#[test]
fn laser_stops_where_it_enters_the_first_target() {
    use laser::{
        BOX_SIZE, CHEVRON_HALF_SIZE, EMITTER, Laser, RANGE, TARGET_RADIUS, TARGET_X, Target,
    };
    let mut app = run(laser::example, 0);
    let (mut across, mut clear, mut notch, mut boxed, mut open) = (0, 0, 0, 0, 0);
    for _ in 0..240 {
        app.update();
        let world = app.world_mut();
        let beam = world
            .query::<&Laser>()
            .single(world)
            .unwrap()
            .visible_length;
        let mut circles =
            world.query_filtered::<&GlobalTransform, (With<Target>, With<CircleCollider>)>();
        let center = circles.single(world).unwrap().translation().truncate();
        let height = center.y - EMITTER.y;
        if height.abs() < TARGET_RADIUS - 0.01 {
            let entry = center.x - (TARGET_RADIUS * TARGET_RADIUS - height * height).sqrt();
            assert!(
                (beam - (entry - EMITTER.x)).abs() < 1e-3,
                "{beam} vs {entry}"
            );
            across += 1;
        } else if height.abs() > TARGET_RADIUS + 0.01 {
            let mut polygons =
                world.query_filtered::<(&GlobalTransform, &PolygonCollider), With<Target>>();
            let mut at = |x: f32| {
                let mut centers = polygons
                    .iter(world)
                    .map(|(transform, _)| transform.translation().truncate());
                centers.find(|center| center.x == x).unwrap()
            };
            let (chevron, the_box) = (at(TARGET_X[1]), at(TARGET_X[2]));
            let height = chevron.y - EMITTER.y;
            let box_height = (the_box.y - EMITTER.y).abs();
            if height.abs() < CHEVRON_HALF_SIZE - 0.01 {
                let floor = chevron.x - height.abs();
                assert!(
                    (beam - (floor - EMITTER.x)).abs() < 1e-3,
                    "{beam} vs {floor}"
                );
                notch += 1;
            } else if height.abs() > CHEVRON_HALF_SIZE + 0.01 {
                if box_height < 0.5 * BOX_SIZE.y - 0.01 {
                    let near_side = the_box.x - 0.5 * BOX_SIZE.x;
                    assert!(
                        (beam - (near_side - EMITTER.x)).abs() < 1e-3,
                        "{beam} vs {near_side}"
                    );
                    boxed += 1;
                } else if box_height > 0.5 * BOX_SIZE.y + 0.01 {
                    assert_eq!(beam, RANGE);
                    open += 1;
                }
            }
            // The chevron's left side is its half size left of its centre.
            let left = TARGET_X[1] - CHEVRON_HALF_SIZE - EMITTER.x;
            assert!((left - 1e-3..=RANGE).contains(&beam), "{beam}");
            clear += 1;
        }
    }
    assert!(
        across > 20 && clear > 20 && notch > 20 && boxed > 5 && open > 5,
        "{across} frames across the circle, {clear} clear of it, {notch} in the notch, \
         {boxed} on the box, {open} clear of everything"
    );
}

/// The mine removes exactly the drones whose row passes within reach of it.
#[test]
fn mine_removes_what_touches_it() {
    use mine::{DRONE_RADIUS, DRONE_ROWS, Drone, MINE_RADIUS, Removed};
    let mut app = run(mine::example, 240);
    let reach = MINE_RADIUS + DRONE_RADIUS;
    let expected = DRONE_ROWS.iter().filter(|y| y.abs() <= reach).count();
    assert_eq!(expected, 3);
    assert_eq!(app.world().resource::<Removed>().0, expected);
    let world = app.world_mut();
    let mut drones = world.query_filtered::<&Transform, With<Drone>>();
    let left: Vec<f32> = drones.iter(world).map(|t| t.translation.y).collect();
    assert_eq!(left.len(), DRONE_ROWS.len() - expected);
    assert!(left.iter().all(|y| y.abs() > reach), "{left:?}");
}

/// Bullets overlap each other all the way, yet every contact is a bullet on an enemy (by the
/// layers each contact carries), and `by_layer` names the bullet first; each bullet that hits
/// is spent.
#[test]
fn layers_keep_bullets_from_bullets() {
    use layers::{BULLET, ENEMY, Hits};
    let mut app = run(layers::example, 0);
    let mut contacts = 0;
    for frame in 0..180 {
        app.update();
        if frame == 0 {
            let world = app.world_mut();
            let mut bullets = world.query::<(&CollisionLayers, &GlobalTransform)>();
            let centres: Vec<Vec2> = bullets
                .iter(world)
                .filter(|(layers, _)| layers.memberships == BULLET)
                .map(|(_, transform)| transform.translation().truncate())
                .collect();
            let overlapping = centres
                .iter()
                .enumerate()
                .any(|(i, a)| centres[i + 1..].iter().any(|b| a.distance(*b) < 10.0));
            assert!(overlapping, "the bullets overlap each other");
        }
        let messages = app.world().resource::<Messages<Contact>>();
        for contact in messages.iter_current_update_messages() {
            let memberships = contact.layers.map(|layers| layers.memberships);
            let expected = match memberships {
                [BULLET, ENEMY] => (contact.a, contact.b),
                [ENEMY, BULLET] => (contact.b, contact.a),
                other => panic!("a contact on layers {other:?}"),
            };
            assert_eq!(contact.by_layer(BULLET), Some(expected));
            contacts += 1;
        }
    }
    let world = app.world();
    let hits = &world.resource::<Hits>().0;
    assert_eq!(hits.len(), contacts, "one hit a contact");
    assert!(hits.len() > 20, "{} hits", hits.len());
    for &(bullet, _) in hits {
        assert!(world.get_entity(bullet).is_err(), "the bullet is spent");
    }
}

/// Every swept bullet hits the wall of zero width, at the wall, on its own row, facing it.
#[test]
fn swept_bullets_hit_the_thin_wall_where_it_is() {
    use swept::{BULLETS, FIRST_ROW_Y, Impacts, ROW_GAP, WALL_X};
    let app = run(swept::example, 60);
    let impacts = &app.world().resource::<Impacts>().0;
    assert_eq!(impacts.len(), BULLETS);
    let mut rows: Vec<f32> = impacts.iter().map(|(point, _)| point.y).collect();
    rows.sort_by(f32::total_cmp);
    for (index, (point, normal)) in impacts.iter().enumerate() {
        assert!((point.x - WALL_X).abs() < 1e-3, "{point}");
        assert!(normal.distance(Vec2::NEG_X) < 1e-5, "{normal}");
        let row = FIRST_ROW_Y + index as f32 * ROW_GAP;
        assert!((rows[index] - row).abs() < 1e-3, "{rows:?}");
    }
}

/// The turret's nearest target and ray hit, and what lies under the pointer, are those a
/// loop over the targets' circles gives.
#[test]
fn queries_find_the_nearest_the_ray_and_the_picked() {
    use queries::{Found, HEADLESS_POINTER, TARGET_RADIUS, Target};
    let mut app = run(queries::example, 0);
    let mut frames_picking = 0;
    for _ in 0..90 {
        app.update();
        let world = app.world_mut();
        let mut targets = world.query_filtered::<(Entity, &GlobalTransform), With<Target>>();
        let centres: Vec<(Entity, Vec2)> = targets
            .iter(world)
            .map(|(entity, transform)| (entity, transform.translation().truncate()))
            .collect();
        let (nearest, distance) = centres
            .iter()
            .map(|&(entity, centre)| (entity, centre.length() - TARGET_RADIUS))
            .min_by(|p, q| p.1.total_cmp(&q.1))
            .unwrap();
        let found = world.resource::<Found>();
        let (target, hit) = found.aim.expect("a target in range");
        assert_eq!((target, hit.entity), (nearest, nearest));
        assert!(
            (hit.distance - distance).abs() < 1e-3,
            "{} vs {distance}",
            hit.distance
        );
        let mut picked: Vec<Entity> = centres
            .iter()
            .filter(|(_, centre)| centre.distance(HEADLESS_POINTER) <= TARGET_RADIUS)
            .map(|&(entity, _)| entity)
            .collect();
        picked.sort();
        let mut found_picked = found.picked.clone();
        found_picked.sort();
        assert_eq!(found_picked, picked);
        frames_picking += usize::from(!picked.is_empty());
    }
    // The first target passes under the pointer for 11 of the frames.
    assert!(
        frames_picking >= 5,
        "{frames_picking} frames with a target picked"
    );
}

/// At 30 steps a second and 60 frames, half the frames run a step; the reader in
/// `FixedUpdate` counts each pad the ball reached by the step before the last, once.
#[test]
fn fixed_step_sees_each_start_once() {
    use fixed_step::{
        BALL_RADIUS, BALL_SPEED, BALL_START_X, PAD_RADIUS, PAD_X, STEPS_PER_SECOND, Steps,
    };
    let app = run(fixed_step::example, 240);
    let steps = app.world().resource::<Steps>();
    assert!((115..=121).contains(&steps.run), "{} steps", steps.run);
    // Read at step k: what steps 1..k-1 wrote.
    // The ball is a pixel clear of tangency at every step: rounding decides nothing.
    let step = BALL_SPEED / STEPS_PER_SECOND as f32;
    let ball_x = BALL_START_X + step * (steps.run - 1) as f32;
    let reached = PAD_X
        .iter()
        .filter(|&&x| x - (PAD_RADIUS + BALL_RADIUS) <= ball_x)
        .count();
    assert!(reached >= 3, "{reached}");
    assert_eq!(steps.pads_touched, reached);
}

/// At two fixed steps a frame, each pad's start comes at the step that brought the ball within
/// reach of it: the pipeline runs at every step, not once a frame.
#[test]
fn fixed_step_finds_each_touch_at_its_own_step() {
    use fixed_step::{BALL_RADIUS, BALL_SPEED, Ball, PAD_RADIUS, STEPS_PER_SECOND};
    /// How far past the reach of its pad the ball was at each start.
    #[derive(Resource, Default)]
    struct PastReach(Vec<f32>);
    let mut app = headless_app();
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
        Duration::from_secs_f64(2.0 / STEPS_PER_SECOND),
    ));
    fixed_step::example(&mut app);
    app.init_resource::<PastReach>().add_observer(
        |hit: On<ContactStarted>,
         balls: Query<&Transform, With<Ball>>,
         places: Query<&Transform>,
         mut past: ResMut<PastReach>| {
            if let (Ok(ball), Ok(pad)) = (balls.get(hit.entity), places.get(hit.other)) {
                let reach = pad.translation.x - (PAD_RADIUS + BALL_RADIUS);
                past.0.push(ball.translation.x - reach);
            }
        },
    );
    for _ in 0..80 {
        app.update();
    }
    let past = &app.world().resource::<PastReach>().0;
    assert!(past.len() >= 6, "{past:?}");
    let step = BALL_SPEED / STEPS_PER_SECOND as f32;
    assert!(
        past.iter().all(|&past| (0.0..step).contains(&past)),
        "{past:?}: each within one step of {step} px"
    );
}

/// Headless, the timer presses F2 then F1, and the example's own key system switches the
/// bounding circles on, then the drawing off, while the pipeline runs under the debug plugin.
/// (What the plugin draws is tested in its own unit tests.)
#[test]
fn debug_draw_switches_through_its_gizmo_group() {
    use debug_draw::PRESS_EVERY;
    let mut app = headless_app();
    debug_draw::headless_keys(&mut app);
    debug_draw::example(&mut app);
    app.finish();
    let switches = |app: &App| {
        let (config, settings) = app
            .world()
            .resource::<GizmoConfigStore>()
            .config::<CollisionGizmos>();
        (config.enabled, settings.bounding_circles)
    };
    for frame in 1..=2 * PRESS_EVERY {
        app.update();
        let expected = match frame {
            _ if frame < PRESS_EVERY => (true, false),
            _ if frame < 2 * PRESS_EVERY => (true, true),
            _ => (false, true),
        };
        assert_eq!(switches(&app), expected, "frame {frame}: F2, then F1");
    }
    assert!(app.world().resource::<Contacts>().len() >= 2);
}

/// No bullet ever stops in the ship that fired it, though each starts inside it; each stops in
/// the first other ship its straight path meets, as worked out here in f64 from the rings'
/// directions.
#[test]
fn filter_lets_bullets_through_their_own_ship() {
    use filter::{BULLET_RADIUS, Hits, RING_BULLETS, RING_EVERY, SHIP_RADIUS, SHIP_X, Ship};
    // Three rings, the last given 40 frames to reach the neighbours (150 px at 5 px a frame).
    let rings = 3;
    let frames = volleys(RING_EVERY, 1000)[rings - 1] + 40;
    assert_eq!(volleys(RING_EVERY, frames).len(), rings);
    let mut app = run(filter::example, frames);
    let reach = f64::from(SHIP_RADIUS + BULLET_RADIUS);
    let mut expected = Vec::new();
    for (from, &x) in SHIP_X.iter().enumerate() {
        for index in 0..RING_BULLETS {
            let angle = index as f64 * std::f64::consts::TAU / RING_BULLETS as f64;
            let (sin, cos) = angle.sin_cos();
            // The nearest other ship whose grown circle the ray from this centre meets.
            let hit = SHIP_X
                .iter()
                .enumerate()
                .filter(|&(to, _)| to != from)
                .filter_map(|(to, &other)| {
                    let along = f64::from(other - x) * cos;
                    let aside = f64::from(other - x) * sin;
                    (along > 0.0 && aside.abs() < reach).then_some((along, to))
                })
                .min_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((_, to)) = hit {
                expected.push((from, to));
            }
        }
    }
    assert!(!expected.is_empty());
    let world = app.world_mut();
    let mut ships = world.query_filtered::<(Entity, &Transform), With<Ship>>();
    let ship_at: Vec<(Entity, usize)> = ships
        .iter(world)
        .map(|(ship, transform)| {
            let x = transform.translation.x;
            (ship, SHIP_X.iter().position(|&at| at == x).unwrap())
        })
        .collect();
    let index = |ship: Entity| ship_at.iter().find(|(at, _)| *at == ship).unwrap().1;
    let mut seen: Vec<(usize, usize)> = world
        .resource::<Hits>()
        .0
        .iter()
        .map(|&(from, to)| (index(from), index(to)))
        .collect();
    let mut expected: Vec<(usize, usize)> = (0..rings).flat_map(|_| expected.clone()).collect();
    seen.sort_unstable();
    expected.sort_unstable();
    assert_eq!(seen, expected);
}

/// The boss's one observer sees every part's hits: each bullet stops at the first part its
/// column meets, as worked out here in f64, and no contact joins two parts of the boss.
#[test]
fn body_sees_each_hit_on_the_part_first_met() {
    use body::{
        ARMOUR_OFFSET, ARMOUR_SIZE, BOSS_AT, BULLET_RADIUS, BULLET_SPEED, Hits, ROW_EVERY, ROW_X,
        ROW_Y, WEAK_POINT_RADIUS,
    };
    let frames = 240;
    let mut app = run(body::example, 0);
    let mut contacts_between_parts = 0;
    for _ in 0..frames {
        app.update();
        let world = app.world_mut();
        let mut parts = world.query::<&body::Part>();
        let contacts = world.resource::<Messages<Contact>>();
        let mut reader = contacts.get_cursor();
        for contact in reader.read(contacts) {
            if parts.get(world, contact.a).is_ok() && parts.get(world, contact.b).is_ok() {
                contacts_between_parts += 1;
            }
        }
    }
    assert_eq!(contacts_between_parts, 0);
    // How far a bullet rises in a headless frame (1/60 s).
    let step = f64::from(BULLET_SPEED) / 60.0;
    // Where each column's bullet centre is when it first touches each part, in f64.
    let radius = f64::from(BULLET_RADIUS);
    let first_touch = |x: f64| -> Option<(f64, bool)> {
        let (core_x, core_y) = (f64::from(BOSS_AT.x), f64::from(BOSS_AT.y));
        let reach = f64::from(WEAK_POINT_RADIUS) + radius;
        let core = ((x - core_x).abs() < reach)
            .then(|| (core_y - (reach * reach - (x - core_x).powi(2)).sqrt(), true));
        let plates = [-1.0, 1.0].map(|side| {
            let centre_x = f64::from(BOSS_AT.x + side * ARMOUR_OFFSET.x);
            let bottom = f64::from(BOSS_AT.y + ARMOUR_OFFSET.y - ARMOUR_SIZE.y / 2.0);
            let aside = ((x - centre_x).abs() - f64::from(ARMOUR_SIZE.x) / 2.0).max(0.0);
            (aside < radius).then(|| (bottom - (radius * radius - aside * aside).sqrt(), false))
        });
        let mut touches: Vec<(f64, bool)> = plates.into_iter().flatten().chain(core).collect();
        touches.sort_by(|p, q| p.0.total_cmp(&q.0));
        if let [first, second, ..] = touches[..] {
            assert!(second.0 - first.0 > step, "column {x}: too close to call");
        }
        touches.first().copied()
    };
    let touches: Vec<(f64, bool)> = ROW_X
        .iter()
        .filter_map(|&x| first_touch(f64::from(x)))
        .collect();
    let weak_point = touches.iter().filter(|touch| touch.1).count();
    let armour = touches.len() - weak_point;
    // The rows whose every bullet has met the boss, rising from the frame after the one they
    // were fired in; the bullets of the others have met nothing yet.
    let frames_to = |y: f64| (y - f64::from(ROW_Y)) / step + 1.0;
    let highest = touches.iter().map(|touch| touch.0).fold(f64::MIN, f64::max);
    let lowest = touches.iter().map(|touch| touch.0).fold(f64::MAX, f64::min);
    let rows = volleys(ROW_EVERY, frames)
        .into_iter()
        .filter(|&fired| {
            let (met_all, met_none) = (
                f64::from(fired) + frames_to(highest) + 1.0 < f64::from(frames),
                f64::from(fired) + frames_to(lowest) - 1.0 > f64::from(frames),
            );
            assert!(
                met_all || met_none,
                "the row fired at frame {fired} is too close to call"
            );
            met_all
        })
        .count();
    assert!(weak_point > 0 && armour > 0 && rows >= 4);
    let hits = app.world().resource::<Hits>();
    assert_eq!(
        (hits.weak_point, hits.armour),
        (weak_point * rows, armour * rows)
    );
}

/// The player never ends a frame inside the wall, by the distance to the wall's edges worked
/// out here in f64; it slides along the wall's right-hand arm with its edge touching it, and
/// comes to rest in the inner corner, touching both arms.
#[test]
fn push_out_keeps_the_player_out_of_the_wall() {
    use push_out::{PLAYER_RADIUS, Player, Pushes, WALL};
    let mut app = run(push_out::example, 0);
    let wall: Vec<bevy::math::DVec2> = WALL.iter().map(|p| p.as_dvec2()).collect();
    let distance_to_wall = |p: bevy::math::DVec2| {
        (0..wall.len())
            .map(|i| {
                let (a, b) = (wall[i], wall[(i + 1) % wall.len()]);
                let s = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
                p.distance(a + (b - a) * s)
            })
            .fold(f64::INFINITY, f64::min)
    };
    let inside_wall = |p: bevy::math::DVec2| {
        let mut inside = false;
        for i in 0..wall.len() {
            let (a, b) = (wall[i], wall[(i + 1) % wall.len()]);
            if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
                inside = !inside;
            }
        }
        inside
    };
    let radius = f64::from(PLAYER_RADIUS);
    // The right-hand arm's inner face, and the ceiling's underside.
    let (face_x, ceiling_y) = (f64::from(WALL[1].x) - radius, f64::from(WALL[1].y) - radius);
    let mut sliding = 0;
    for frame in 0..240 {
        app.update();
        let world = app.world_mut();
        let mut player = world.query_filtered::<&Transform, With<Player>>();
        let at = player
            .single(world)
            .unwrap()
            .translation
            .truncate()
            .as_dvec2();
        assert!(!inside_wall(at), "frame {frame}: {at}");
        assert!(distance_to_wall(at) >= radius - 1e-3, "frame {frame}: {at}");
        if (at.x - face_x).abs() < 1e-3 && at.y < ceiling_y - 1.0 {
            sliding += 1;
        }
    }
    // The player reaches the arm after about a hundred frames, then slides up it.
    assert!(sliding > 40, "{sliding} frames sliding along the arm");
    let world = app.world_mut();
    let mut player = world.query_filtered::<&Transform, With<Player>>();
    let at = player
        .single(world)
        .unwrap()
        .translation
        .truncate()
        .as_dvec2();
    assert!(
        at.distance(bevy::math::DVec2::new(face_x, ceiling_y)) < 1e-3,
        "at rest in the corner: {at}"
    );
    assert!(app.world().resource::<Pushes>().0 > 100);
}

/// After a few turns the laser has cleared every bullet within its reach, counted here from the
/// grid, and none beyond: though it turns 25° a frame, it skips none.
#[test]
fn turning_laser_clears_every_bullet_it_passes_over() {
    use turning_laser::{BULLET_RADIUS, Bullet, Cleared, FIELD_REACH, FIELD_SPACING, LASER_LENGTH};
    let mut app = run(turning_laser::example, 60);
    let cells = (FIELD_REACH / FIELD_SPACING) as i32;
    let reach = f64::from(LASER_LENGTH + BULLET_RADIUS);
    let (mut within, mut beyond) = (0, 0);
    for row in -cells..=cells {
        for column in -cells..=cells {
            let distance = f64::from(FIELD_SPACING) * f64::from(row * row + column * column).sqrt();
            if distance < f64::from(FIELD_SPACING) {
                continue;
            }
            // No bullet lies within a pixel of the reach, either way.
            assert!((distance - reach).abs() > 1.0);
            if distance <= reach {
                within += 1;
            } else {
                beyond += 1;
            }
        }
    }
    let world = app.world_mut();
    let left = world.query::<&Bullet>().iter(world).count();
    assert_eq!(world.resource::<Cleared>().0, within);
    assert_eq!(left, beyond);
}

/// A frame that takes a fifth of a second (a hitch) would turn the laser 300°, which a sweep
/// takes the short way round, backwards: the example turns it at most a quarter turn a frame,
/// so that it clears the quarter it turned through, and nothing behind it.
#[test]
fn turning_laser_after_a_long_frame_clears_the_quarter_it_turned_through() {
    use bevy::time::TimeUpdateStrategy;
    use turning_laser::{
        BULLET_RADIUS, Cleared, FIELD_REACH, FIELD_SPACING, LASER_LENGTH, LASER_TURN_SPEED,
        MAX_TURN_PER_FRAME,
    };
    const HITCH: f32 = 0.2;
    const { assert!(LASER_TURN_SPEED * HITCH > core::f32::consts::PI) };
    assert_eq!(MAX_TURN_PER_FRAME, core::f32::consts::FRAC_PI_2);
    // The first frame, whose time step is zero, then the long one.
    let mut app = run(turning_laser::example, 1);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
        HITCH,
    )));
    app.update();
    // The bullets of the grid within reach from the laser's start (along +x) to a quarter
    // turn on (along +y), both included: it lay over the first at the start and over the
    // second at the end.
    let cells = (FIELD_REACH / FIELD_SPACING) as i32;
    let reach = f64::from(LASER_LENGTH + BULLET_RADIUS);
    let quarter = (0..=cells)
        .flat_map(|row| (0..=cells).map(move |column| (row, column)))
        .map(|(row, column)| {
            f64::from(FIELD_SPACING) * f64::from(row * row + column * column).sqrt()
        })
        .filter(|&distance| distance >= f64::from(FIELD_SPACING) && distance <= reach)
        .count();
    assert_eq!(app.world().resource::<Cleared>().0, quarter);
}
