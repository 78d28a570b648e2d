//! Hundreds of swept bullets round a few enemies, turned, stretched and mirrored: enough
//! bullets that the pipeline works out each enemy's edge lines and tells the bullets that pass
//! an enemy's corner apart by them. Every bullet's contact, and its impact, agrees with
//! an `f64` reference of its whole path.

use crate::common::app;
use bevy::math::DVec2;
use bevy::prelude::*;
use bevy_collision_events::prelude::*;
use rand::{RngExt, SeedableRng, rngs::StdRng};

/// The bullets' radius.
const RADIUS: f32 = 3.0;
/// Bullets round each enemy: more than the pipeline needs to work out edge lines.
const BULLETS_EACH: usize = 320;
/// How far from an enemy's centre a bullet starts, at most.
const START_WITHIN: f32 = 60.0;
/// How far a bullet moves in the frame it is swept, at most.
const LONGEST_MOVE: f32 = 40.0;
/// How near the reference's distance may come to the radius before the answer is not checked:
/// there, rounding decides.
const UNDECIDED: f64 = 1e-3;

/// The enemies: convex ones turned, stretched and mirrored (which turns the outline round),
/// and a concave star, each far from the others.
fn enemies() -> Vec<(PolygonCollider, Transform)> {
    let star: Vec<Vec2> = (0..10)
        .map(|i| {
            let reach = if i % 2 == 0 { 32.0 } else { 14.0 };
            Vec2::from_angle(i as f32 * std::f32::consts::TAU / 10.0) * reach
        })
        .collect();
    let triangle = vec![
        Vec2::new(-20.0, -15.0),
        Vec2::new(25.0, -10.0),
        Vec2::new(0.0, 30.0),
    ];
    let placed = |x: f32, turn: f32, scale: Vec2| {
        Transform::from_xyz(x, 0.0, 0.0)
            .with_rotation(Quat::from_rotation_z(turn))
            .with_scale(scale.extend(1.0))
    };
    vec![
        (
            PolygonCollider::regular(30.0, 8),
            placed(0.0, 0.3, Vec2::new(-1.0, 1.0)),
        ),
        (
            PolygonCollider::new(triangle),
            placed(400.0, 1.1, Vec2::new(1.3, -0.8)),
        ),
        (
            PolygonCollider::rectangle(50.0, 24.0),
            placed(800.0, 0.5, Vec2::ONE),
        ),
        (PolygonCollider::new(star), placed(1200.0, 0.2, Vec2::ONE)),
    ]
}

/// A polygon's vertices in the world, in `f64`.
fn world_vertices(polygon: &PolygonCollider, transform: &GlobalTransform) -> Vec<DVec2> {
    let affine = transform.affine();
    let (x_axis, y_axis) = (affine.matrix3.x_axis, affine.matrix3.y_axis);
    let translation = affine.translation;
    polygon
        .vertices()
        .iter()
        .map(|v| {
            let (vx, vy) = (f64::from(v.x), f64::from(v.y));
            DVec2::new(
                f64::from(x_axis.x) * vx + f64::from(y_axis.x) * vy + f64::from(translation.x),
                f64::from(x_axis.y) * vx + f64::from(y_axis.y) * vy + f64::from(translation.y),
            )
        })
        .collect()
}

/// The distance from `point` to the segment from `a` to `b`.
fn to_segment(point: DVec2, a: DVec2, b: DVec2) -> f64 {
    let along = b - a;
    let t = ((point - a).dot(along) / along.length_squared()).clamp(0.0, 1.0);
    point.distance(a + along * t)
}

/// Whether the segments `a`–`b` and `c`–`d` cross.
fn crossing(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let side = |p: DVec2, q: DVec2, r: DVec2| (q - p).perp_dot(r - p);
    side(a, b, c) * side(a, b, d) < 0.0 && side(c, d, a) * side(c, d, b) < 0.0
}

/// Whether `point` lies inside the polygon (crossings of a ray along +x).
fn inside(point: DVec2, polygon: &[DVec2]) -> bool {
    let mut inside = false;
    for (index, &a) in polygon.iter().enumerate() {
        let b = polygon[(index + 1) % polygon.len()];
        if (a.y > point.y) != (b.y > point.y)
            && point.x < a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x)
        {
            inside = !inside;
        }
    }
    inside
}

/// How near the path from `start` to `end` comes to the solid polygon: zero where it enters.
fn path_distance(start: DVec2, end: DVec2, polygon: &[DVec2]) -> f64 {
    if inside(start, polygon) || inside(end, polygon) {
        return 0.0;
    }
    let mut nearest = f64::INFINITY;
    for (index, &a) in polygon.iter().enumerate() {
        let b = polygon[(index + 1) % polygon.len()];
        if crossing(start, end, a, b) {
            return 0.0;
        }
        let ends = [
            to_segment(start, a, b),
            to_segment(end, a, b),
            to_segment(a, start, end),
            to_segment(b, start, end),
        ];
        nearest = ends.into_iter().fold(nearest, f64::min);
    }
    nearest
}

/// When along the path from `start` to `end` a disc of `radius` first touches the polygon
/// (a fraction of the path), for a path that enters well within the radius: dense steps, then
/// halving.
/// For a path from `start` to `end` beginning within `radius` of `polygon`: when it is first
/// clearly farther than that, and how near it comes to the polygon again from then on (in
/// 4,000 steps, each step's stretch measured whole); `None` where it never clearly parts.
fn after_parting(start: DVec2, end: DVec2, radius: f64, polygon: &[DVec2]) -> Option<(f64, f64)> {
    let at = |step: usize| start + (end - start) * (step as f64 / STEPS as f64);
    let parted = (1..=STEPS)
        .find(|&step| path_distance(at(step), at(step), polygon) > radius + UNDECIDED)?;
    let again = (parted..STEPS)
        .map(|step| path_distance(at(step), at(step + 1), polygon))
        .fold(f64::INFINITY, f64::min);
    Some((parted as f64 / STEPS as f64, again))
}

/// The steps of the references along a path.
const STEPS: usize = 4000;

/// When the path from `start` to `end` first comes within `radius` of `polygon`, from the
/// fraction `from` of the way on: stepped, then halved down.
fn first_touch(start: DVec2, end: DVec2, radius: f64, polygon: &[DVec2], from: f64) -> f64 {
    let at = |t: f64| start + (end - start) * t;
    let touches = |t: f64| path_distance(at(t), at(t), polygon) <= radius;
    let steps = STEPS;
    let first = (from * steps as f64) as usize + 1;
    let step = (first..=steps)
        .find(|&step| touches(step as f64 / steps as f64))
        .expect("the path enters");
    let (mut apart, mut touching) = ((step - 1) as f64 / steps as f64, step as f64 / steps as f64);
    for _ in 0..40 {
        let middle = (apart + touching) / 2.0;
        if touches(middle) {
            touching = middle;
        } else {
            apart = middle;
        }
    }
    touching
}

#[test]
fn a_crowd_of_swept_bullets_meets_turned_and_mirrored_enemies_as_their_paths_do() {
    let mut rng = StdRng::seed_from_u64(31);
    let mut app = app();
    let enemies: Vec<Entity> = enemies()
        .into_iter()
        .map(|enemy| app.world_mut().spawn(enemy).id())
        .collect();
    let mut bullets = Vec::new();
    for &enemy in &enemies {
        let center = app
            .world()
            .get::<Transform>(enemy)
            .unwrap()
            .translation
            .xy();
        for _ in 0..BULLETS_EACH {
            let start = center
                + Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU))
                    * rng.random_range(0.0..START_WITHIN);
            let end = start
                + Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU))
                    * rng.random_range(1.0..LONGEST_MOVE);
            let bullet = app
                .world_mut()
                .spawn((
                    CircleCollider::new(RADIUS),
                    Swept::default(),
                    Transform::from_translation(start.extend(0.0)),
                ))
                .id();
            bullets.push((bullet, enemy, start, end));
        }
    }
    // The first run places each bullet where it starts; the second sweeps it to its end.
    app.update();
    for &(bullet, _, _, end) in &bullets {
        app.world_mut()
            .get_mut::<Transform>(bullet)
            .unwrap()
            .translation = end.extend(0.0);
    }
    app.update();
    let polygons: Vec<Vec<DVec2>> = enemies
        .iter()
        .map(|&enemy| {
            let polygon = app.world().get::<PolygonCollider>(enemy).unwrap();
            world_vertices(polygon, app.world().get::<GlobalTransform>(enemy).unwrap())
        })
        .collect();
    let contacts = app.world().resource::<Contacts>();
    let radius = f64::from(RADIUS);
    let (mut met, mut missed, mut impacts) = (0, 0, 0);
    for &(bullet, enemy, start, end) in &bullets {
        let polygon = &polygons[enemies.iter().position(|&e| e == enemy).unwrap()];
        let (start, end) = (start.as_dvec2(), end.as_dvec2());
        let contact = contacts.get(bullet, enemy);
        let at_start = path_distance(start, start, polygon);
        let why = || format!("{start} to {end} ({at_start} at the start), {polygon:?}");
        // Overlapping at the start, the pair was a contact of the first run: it goes on while
        // they touch, or where they part and touch again on the way (the star's points), with
        // that touch as its impact. Apart at the start, the path decides. `impact_after`: from
        // when on the impact is looked for, where there is one.
        let (near, impact_after) = if at_start < radius - UNDECIDED {
            let near_end = path_distance(end, end, polygon);
            match after_parting(start, end, radius, polygon) {
                Some((parted, again)) if again < radius - UNDECIDED => (again, Some(parted)),
                Some((_, again)) => (near_end.min(again), None),
                None if near_end < radius - UNDECIDED => (near_end, None),
                None => continue,
            }
        } else if at_start > radius + UNDECIDED {
            (path_distance(start, end, polygon), Some(0.0))
        } else {
            continue;
        };
        if near < radius - UNDECIDED {
            met += 1;
            let contact = contact.unwrap_or_else(|| panic!("no contact: {}", why()));
            let Some(after) = impact_after else {
                assert_eq!(contact.impact, None, "overlapping at the start: {}", why());
                continue;
            };
            impacts += 1;
            let impact = contact
                .impact
                .unwrap_or_else(|| panic!("no impact: {}", why()));
            let time = first_touch(start, end, radius, polygon, after);
            assert!(
                (f64::from(impact.time) - time).abs() < 1e-3,
                "impact at {} against {time}: {}",
                impact.time,
                why()
            );
        } else if near > radius + UNDECIDED {
            missed += 1;
            assert!(contact.is_none(), "a contact: {}", why());
        }
    }
    assert!(
        met > 300 && missed > 300 && impacts > 100,
        "{met} met, {missed} missed, {impacts} impacts"
    );
}

/// A short edge between two nearly straight corners of a convex polygon: placed away from the
/// origin, rounding tilts it, and the world polygon is convex no more (a far corner lies beyond
/// the short edge's line). A small swept bullet that grazes that far corner, beyond the tilted
/// line at both ends of its path, is still met, with its impact.
#[test]
fn a_bullet_grazing_a_polygon_that_rounding_bent_is_met() {
    let dip = 33.0 / 32768.0 - 5e-8;
    let vertices = vec![
        Vec2::new(-50.0, 0.0),
        Vec2::new(0.0, -dip),
        Vec2::new(0.01, -(dip + 1e-7)),
        Vec2::new(50.0, 0.0),
        Vec2::new(50.0, 50.0),
        Vec2::new(-50.0, 50.0),
    ];
    let place = Vec2::splat(1000.0);
    let corner = place + vertices[0];
    let mut app = app();
    let wall = app
        .world_mut()
        .spawn((
            PolygonCollider::new(vertices),
            Transform::from_translation(place.extend(0.0)),
        ))
        .id();
    // Enough circles for the wall's edge lines, far off.
    for index in 0..300 {
        let at = Vec2::new(-5000.0 - 10.0 * index as f32, -5000.0);
        app.world_mut().spawn((
            CircleCollider::new(1.0),
            Transform::from_translation(at.extend(0.0)),
        ));
    }
    let bullet = app
        .world_mut()
        .spawn((
            CircleCollider::new(0.15),
            Swept::default(),
            Transform::from_translation((corner + Vec2::new(-0.2, 0.0)).extend(0.0)),
        ))
        .id();
    app.update();
    assert!(
        app.world()
            .resource::<Contacts>()
            .get(bullet, wall)
            .is_none()
    );
    // Past the corner: 0.141 from it at the nearest, within the bullet's radius.
    app.world_mut()
        .get_mut::<Transform>(bullet)
        .unwrap()
        .translation = (corner + Vec2::new(0.0, -0.2)).extend(0.0);
    app.update();
    let contact = app
        .world()
        .resource::<Contacts>()
        .get(bullet, wall)
        .cloned();
    let contact = contact.expect("the bullet grazed the corner");
    assert!(contact.impact.is_some(), "{contact:?}");
}
