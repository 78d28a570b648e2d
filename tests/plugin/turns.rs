//! Swept colliders that turn: a segment or polygon that turns between two runs sweeps the
//! whole turn, so a laser swinging across the screen meets what lies between its two poses.

use crate::common::{app, contact_between, last_frame};
use bevy::prelude::*;
use bevy_collision_events::prelude::*;
use std::f32::consts::{FRAC_PI_6, PI};

const LASER_LENGTH: f32 = 500.0;
const BULLET_RADIUS: f32 = 2.0;
const LASER: LayerMask = LayerMask::layer(0);
const BULLET: LayerMask = LayerMask::layer(1);

/// A swept laser from the origin along its x axis, at `angle`.
fn spawn_laser(app: &mut App, angle: f32) -> Entity {
    app.world_mut()
        .spawn((
            SegmentCollider::new(Vec2::ZERO, Vec2::new(LASER_LENGTH, 0.0)),
            CollisionLayers::new(LASER, BULLET),
            Transform::from_rotation(Quat::from_rotation_z(angle)),
            Swept::default(),
        ))
        .id()
}

fn spawn_bullet(app: &mut App, at: Vec2) -> Entity {
    app.world_mut()
        .spawn((
            CircleCollider::new(BULLET_RADIUS),
            CollisionLayers::new(BULLET, LASER),
            Transform::from_translation(at.extend(0.0)),
        ))
        .id()
}

/// Turns `entity` to `angle` and moves it by `translation`, then runs the pipeline once.
fn turn_to(app: &mut App, entity: Entity, angle: f32, translation: Vec2) {
    let mut transform = app.world_mut().get_mut::<Transform>(entity).unwrap();
    transform.rotation = Quat::from_rotation_z(angle);
    transform.translation += translation.extend(0.0);
    app.update();
}

/// A 500 px laser turning 30° in one frame meets each of 100 still bullets between its two
/// poses, half at its middle and half near its tip: at the time its edge reaches the bullet's
/// rim (worked out here), there, facing the laser.
#[test]
fn a_laser_turning_thirty_degrees_meets_every_bullet_it_passes() {
    let mut app = app();
    let laser = spawn_laser(&mut app, 0.0);
    let bullets: Vec<(Entity, f32, f32)> = (0..100)
        .map(|k| {
            let angle = FRAC_PI_6 * (k as f32 + 0.5) / 100.0;
            let distance = if k % 2 == 0 { 250.0 } else { 495.0 };
            let at = Vec2::from_angle(angle) * distance;
            (spawn_bullet(&mut app, at), angle, distance)
        })
        .collect();
    app.update();
    turn_to(&mut app, laser, FRAC_PI_6, Vec2::ZERO);
    for &(bullet, angle, distance) in &bullets {
        // The first angle at which the laser's line is a bullet radius from the centre.
        let reached = angle - (BULLET_RADIUS / distance).asin();
        let expected_time = (reached / FRAC_PI_6).max(0.0);
        if expected_time == 0.0 {
            continue; // Touching the first pose already: met at the start.
        }
        let contact = contact_between(&app, laser, bullet)
            .unwrap_or_else(|| panic!("the bullet at {angle} rad, {distance} px is missed"));
        let impact = contact.impact.expect("an impact");
        assert!(
            (impact.time - expected_time).abs() < 1e-3,
            "at {angle} rad, {distance} px: time {}, expected {expected_time}",
            impact.time
        );
        let centre = Vec2::from_angle(angle) * distance;
        assert!(
            (impact.point.distance(centre) - BULLET_RADIUS).abs() < 0.05,
            "the point {} is on the bullet's rim",
            impact.point
        );
        assert!((impact.normal.length() - 1.0).abs() < 1e-4);
    }
}

/// Without `Swept`, the same turn meets none of the bullets between the poses.
#[test]
fn a_laser_that_is_not_swept_jumps_over_what_lies_between() {
    let mut app = app();
    let laser = app
        .world_mut()
        .spawn((
            SegmentCollider::new(Vec2::ZERO, Vec2::new(LASER_LENGTH, 0.0)),
            CollisionLayers::new(LASER, BULLET),
            Transform::default(),
        ))
        .id();
    let bullet = spawn_bullet(&mut app, Vec2::from_angle(0.25) * 250.0);
    app.update();
    turn_to(&mut app, laser, FRAC_PI_6, Vec2::ZERO);
    assert!(contact_between(&app, laser, bullet).is_none());
}

/// A laser skipped for a run because its transform gave it no x axis (scaled to zero on it, or
/// a rotation of NaN), then usable again where it was, made no turn: it sweeps none, and the
/// bullet that lies between its pose and the angle of no axis (`atan2(0, 0)`, zero) is not met.
#[test]
fn a_laser_skipped_for_its_axis_sweeps_no_turn_it_did_not_make() {
    const POSE: f32 = 1.2;
    let unusable = [
        Transform::from_rotation(Quat::from_rotation_z(POSE)).with_scale(Vec3::new(0.0, 1.0, 1.0)),
        Transform::from_rotation(Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)),
    ];
    for unusable in unusable {
        let mut app = app();
        let laser = spawn_laser(&mut app, POSE);
        let between = spawn_bullet(&mut app, Vec2::from_angle(0.3) * 250.0);
        app.update();
        *app.world_mut().get_mut::<Transform>(laser).unwrap() = unusable;
        app.update();
        *app.world_mut().get_mut::<Transform>(laser).unwrap() =
            Transform::from_rotation(Quat::from_rotation_z(POSE));
        app.update();
        assert!(
            contact_between(&app, laser, between).is_none(),
            "after {unusable:?}, the laser swept a turn it never made"
        );
    }
}

/// A laser switched off while it turns past a bullet, then switched back on, sweeps only its
/// last turn: the bullet it passed while off is not met, and the one its last turn passes is.
#[test]
fn a_laser_switched_back_on_sweeps_only_its_last_turn() {
    let mut app = app();
    let laser = spawn_laser(&mut app, 0.0);
    let passed_while_off = spawn_bullet(&mut app, Vec2::from_angle(0.3) * 250.0);
    let passed_after = spawn_bullet(&mut app, Vec2::from_angle(0.9) * 250.0);
    app.update();
    app.world_mut().entity_mut(laser).insert(ColliderDisabled);
    turn_to(&mut app, laser, 0.5, Vec2::ZERO);
    turn_to(&mut app, laser, 0.7, Vec2::ZERO);
    app.world_mut()
        .entity_mut(laser)
        .remove::<ColliderDisabled>();
    turn_to(&mut app, laser, 1.1, Vec2::ZERO);
    assert!(contact_between(&app, laser, passed_while_off).is_none());
    let contact = contact_between(&app, laser, passed_after).expect("met on its last turn");
    let impact = contact.impact.expect("an impact");
    // Its last turn is 0.7 -> 1.1 rad: the bullet at 0.9 rad is reached about halfway.
    let reached = 0.9 - (BULLET_RADIUS / 250.0).asin();
    let expected_time = (reached - 0.7) / 0.4;
    assert!(
        (impact.time - expected_time).abs() < 1e-3,
        "time {}, expected {expected_time}",
        impact.time
    );
}

/// A laser turning into a wall meets it when its line reaches the wall's end: the wall, a
/// segment from 100 to 400 px along 20°, is met at two thirds of a 30° turn.
#[test]
fn a_laser_turning_into_a_wall_meets_it_on_the_way() {
    let mut app = app();
    let laser = spawn_laser(&mut app, 0.0);
    let wall_angle = 20f32.to_radians();
    let wall = app
        .world_mut()
        .spawn((
            SegmentCollider::new(
                Vec2::from_angle(wall_angle) * 100.0,
                Vec2::from_angle(wall_angle) * 400.0,
            ),
            CollisionLayers::new(BULLET, LASER),
            Transform::default(),
        ))
        .id();
    app.update();
    turn_to(&mut app, laser, FRAC_PI_6, Vec2::ZERO);
    let impact = contact_between(&app, laser, wall)
        .and_then(|contact| contact.impact)
        .expect("the laser meets the wall");
    assert!((impact.time - 2.0 / 3.0).abs() < 1e-3, "{impact:?}");
    assert!(impact.point.length() > 99.0 && impact.point.length() < 401.0);
}

/// A square spinning an eighth of a turn about its centre sweeps its corners past a circle
/// that neither pose touches; a circle farther than its corners reach is not met.
#[test]
fn a_spinning_square_meets_a_circle_its_corners_pass() {
    let mut app = app();
    let square = app
        .world_mut()
        .spawn((
            PolygonCollider::rectangle(20.0, 20.0),
            CollisionLayers::new(LASER, BULLET),
            Transform::default(),
            Swept::default(),
        ))
        .id();
    // The corners reach 10√2 ≈ 14.14 from the centre, the sides 10. Along 67.5°, halfway
    // between where a corner starts (45°) and ends (90°), a circle of radius 2 whose centre is
    // 14 away is clear of both poses (its nearest side is 14·cos 22.5° − 2 ≈ 10.9 away) but
    // not of the corner's sweep; one 16.5 away is beyond the corners' reach.
    let along = Vec2::from_angle(3.0 * PI / 8.0);
    let near = spawn_bullet(&mut app, along * 14.0);
    let far = spawn_bullet(&mut app, along * 16.5);
    app.update();
    assert!(
        contact_between(&app, square, near).is_none(),
        "clear of the first pose"
    );
    turn_to(&mut app, square, PI / 4.0, Vec2::ZERO);
    let contact = contact_between(&app, square, near).expect("a corner sweeps the circle");
    assert!(contact.impact.is_some());
    assert!(contact_between(&app, square, far).is_none());
}

/// Turning and moving at once: a laser swinging 30° while sliding 200 px up meets a bullet
/// that neither the turn alone nor the slide alone would reach, as dense sub-stepping of the
/// same motion finds it.
#[test]
fn a_turn_together_with_a_translation() {
    let (angle, slide) = (FRAC_PI_6, Vec2::new(0.0, 200.0));
    // Where the laser's line is at the middle of the motion, at 300 px from its pivot.
    let halfway = Vec2::from_angle(angle / 2.0) * 300.0 + slide / 2.0;
    let mut app = app();
    let laser = spawn_laser(&mut app, 0.0);
    let bullet = spawn_bullet(&mut app, halfway);
    app.update();
    turn_to(&mut app, laser, angle, slide);
    let impact = contact_between(&app, laser, bullet)
        .and_then(|contact| contact.impact)
        .expect("met mid-motion");
    // The reference: the first of 100,000 sub-steps at which the laser's segment comes within
    // the bullet's radius.
    let first = (0..=100_000)
        .map(|step| step as f64 / 100_000.0)
        .find(|&s| {
            let pivot = slide.as_dvec2() * (s - 1.0) + slide.as_dvec2();
            let along = bevy::math::DVec2::from_angle(f64::from(angle) * s);
            let (a, b) = (pivot, pivot + along * f64::from(LASER_LENGTH));
            let p = halfway.as_dvec2();
            let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
            p.distance(a + (b - a) * t) <= f64::from(BULLET_RADIUS)
        })
        .expect("the reference meets it");
    assert!(
        (f64::from(impact.time) - first).abs() < 1e-3,
        "{impact:?}, reference {first}"
    );
}

/// A turn of more than half a turn in one run is swept the shorter way round: 200° one way is
/// 160° the other. A bullet on the longer way is not met; one on the shorter way is.
#[test]
fn a_turn_past_half_a_turn_is_swept_the_shorter_way() {
    let mut app = app();
    let laser = spawn_laser(&mut app, 0.0);
    let on_the_long_way = spawn_bullet(&mut app, Vec2::from_angle(100f32.to_radians()) * 250.0);
    let on_the_short_way = spawn_bullet(&mut app, Vec2::from_angle(-80f32.to_radians()) * 250.0);
    app.update();
    turn_to(&mut app, laser, 200f32.to_radians(), Vec2::ZERO);
    assert!(contact_between(&app, laser, on_the_long_way).is_none());
    assert!(contact_between(&app, laser, on_the_short_way).is_some());
}

/// A laser turning among thousands of bullets spread over a field, like a bullet hell's: every
/// pair is written once, and the contacts are those that dense sub-stepping of the turn finds
/// (each bullet whose centre comes within its radius of the laser's segment at some step), up
/// to a hair either way.
#[test]
fn a_turning_laser_among_thousands_of_bullets_meets_each_once() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(8);
    let mut app = app();
    let pivot = Vec2::new(960.0, 540.0);
    let laser = app
        .world_mut()
        .spawn((
            SegmentCollider::new(Vec2::ZERO, Vec2::new(LASER_LENGTH, 0.0)),
            CollisionLayers::new(LASER, BULLET),
            Transform::from_translation(pivot.extend(0.0)),
            Swept::default(),
        ))
        .id();
    let bullets: Vec<(Entity, Vec2)> = (0..20_000)
        .map(|_| {
            let at = Vec2::new(rng.random_range(0.0..1920.0), rng.random_range(0.0..1080.0));
            (spawn_bullet(&mut app, at), at)
        })
        .collect();
    app.update();
    turn_to(&mut app, laser, FRAC_PI_6, Vec2::ZERO);
    let contacts = last_frame::<Contact>(&app);
    let mut pairs: Vec<(Entity, Entity)> = contacts.iter().map(|c| (c.a, c.b)).collect();
    let count = pairs.len();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), count, "a pair written twice");
    let met: std::collections::HashSet<Entity> = contacts
        .iter()
        .filter_map(|contact| contact.other(laser))
        .collect();
    for &(bullet, at) in &bullets {
        let offset = (at - pivot).as_dvec2();
        let gap_at = |step: i32| {
            let along =
                bevy::math::DVec2::from_angle(f64::from(FRAC_PI_6) * f64::from(step) / 2000.0);
            let t = offset.dot(along).clamp(0.0, f64::from(LASER_LENGTH));
            offset.distance(along * t) - f64::from(BULLET_RADIUS)
        };
        // Those touching the first pose were contacts of the last run, which the turn ends.
        let expected = gap_at(0) > 1e-3 && (1..=2000).any(|step| gap_at(step) <= -1e-3);
        if expected {
            assert!(met.contains(&bullet), "the bullet at {at} is missed");
        }
        // And no bullet that the turn never comes near is met: between two steps, the laser
        // comes no nearer than the steps say by more than a step's arc at its far end.
        let step_arc = f64::from(LASER_LENGTH) * f64::from(FRAC_PI_6) / 2000.0;
        let nearest = (0..=2000).map(gap_at).fold(f64::INFINITY, f64::min);
        if met.contains(&bullet) {
            assert!(
                nearest <= step_arc,
                "the bullet at {at}, {nearest} away, is met"
            );
        }
    }
    assert!(met.len() > 100, "{} met", met.len());
}

/// A character's hitbox mirrored to face the other way (a negative x scale) is flipped, not
/// turned: a wall its half-turn would sweep, and neither pose touches, is not met.
#[test]
fn a_mirrored_collider_is_not_swept_as_a_half_turn() {
    let mut app = app();
    let hitbox = app
        .world_mut()
        .spawn((
            PolygonCollider::new(vec![
                Vec2::new(0.0, -5.0),
                Vec2::new(40.0, -5.0),
                Vec2::new(40.0, 5.0),
                Vec2::new(0.0, 5.0),
            ]),
            CollisionLayers::new(LASER, BULLET),
            Transform::default(),
            Swept::default(),
        ))
        .id();
    // Straight above the pivot, within the hitbox's reach: a half-turn would sweep it.
    let above = spawn_bullet(&mut app, Vec2::new(0.0, 20.0));
    app.update();
    app.world_mut()
        .get_mut::<Transform>(hitbox)
        .unwrap()
        .scale
        .x = -1.0;
    app.update();
    assert!(contact_between(&app, hitbox, above).is_none());
}

/// A laser turning about one end meets a small square right by its pivot, which the
/// advancement reaches only in many small steps.
#[test]
fn a_laser_meets_a_small_square_by_its_pivot() {
    let mut app = app();
    let laser = spawn_laser(&mut app, 0.0);
    let square = app
        .world_mut()
        .spawn((
            PolygonCollider::rectangle(1.0, 1.0),
            CollisionLayers::new(BULLET, LASER),
            Transform::from_translation((Vec2::from_angle(0.25) * 3.0).extend(0.0)),
        ))
        .id();
    app.update();
    turn_to(&mut app, laser, FRAC_PI_6, Vec2::ZERO);
    let contact = contact_between(&app, laser, square).expect("the laser sweeps the square");
    assert!(contact.impact.is_some());
}

/// A still bullet 250 from the origin at half a radian: between angle 0 and a quarter turn,
/// where a laser from the origin, pointing straight up, never reaches.
fn bullet_off_the_laser(app: &mut App) -> Entity {
    app.world_mut()
        .spawn((
            CircleCollider::new(BULLET_RADIUS),
            Transform::from_translation((Vec2::from_angle(0.5) * 250.0).extend(0.0)),
        ))
        .id()
}

/// A swept entity turned a quarter becomes a laser a run later: its circle swapped for a
/// segment, or a segment given to it as its first collider (an asset loaded, a bundle
/// completed). No run kept an angle for it to turn from: its first run as a laser sweeps no
/// turn, and meets no bullet off its line. From then on it turns as any laser.
#[test]
fn a_segment_new_to_a_turned_swept_entity_sweeps_no_turn_at_first() {
    for had_a_circle in [true, false] {
        let mut app = app();
        let quarter = Transform::from_rotation(Quat::from_rotation_z(PI / 2.0));
        let entity = app.world_mut().spawn((Swept::default(), quarter)).id();
        if had_a_circle {
            app.world_mut()
                .entity_mut(entity)
                .insert(CircleCollider::new(5.0));
        }
        let bullet = bullet_off_the_laser(&mut app);
        app.update();
        assert!(contact_between(&app, entity, bullet).is_none());
        app.world_mut()
            .entity_mut(entity)
            .remove::<CircleCollider>()
            .insert(SegmentCollider::new(
                Vec2::ZERO,
                Vec2::new(LASER_LENGTH, 0.0),
            ));
        app.update();
        assert_eq!(
            contact_between(&app, entity, bullet),
            None,
            "{had_a_circle}"
        );
        assert!(last_frame::<ContactStarted>(&app).is_empty());
        // It turns from there on: down to a fifth of a radian, across the bullet.
        app.world_mut()
            .entity_mut(entity)
            .insert(Transform::from_rotation(Quat::from_rotation_z(0.2)));
        app.update();
        assert!(contact_between(&app, entity, bullet).is_some());
    }
}
