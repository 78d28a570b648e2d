//! Spatial queries: named cases (every query on random scenes against brute force has a file
//! of its own, `query_scenes.rs`).

use crate::common::app;
use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_collision_events::ColliderFilter;
use bevy_collision_events::geometry::{Circle, Shape};
use bevy_collision_events::prelude::*;

const WALL: LayerMask = LayerMask::layer(0);
const ENEMY: LayerMask = LayerMask::layer(1);
const BULLET: LayerMask = LayerMask::layer(2);

pub(crate) fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// Distances computed along a ray are exact to a few ulps.
fn assert_close(actual: f32, expected: f32) {
    assert!(
        (actual - expected).abs() <= 1e-4 * expected.abs().max(1.0),
        "{actual}, expected {expected}"
    );
}

fn ray(origin: Vec2, direction: Vec2) -> Ray2d {
    Ray2d::new(origin, Dir2::new(direction).expect("a direction"))
}

/// Runs `ask` with a `SpatialQuery` on the app's world, after one update.
pub(crate) fn ask<T: Send + 'static>(
    app: &mut App,
    ask: impl FnOnce(SpatialQuery) -> T + Send + 'static,
) -> T {
    // A system may run more than once; this one runs once, so the closure is taken out.
    let once = std::sync::Mutex::new(Some(ask));
    app.world_mut()
        .run_system_once(move |query: SpatialQuery| {
            let ask = once.lock().unwrap().take().expect("runs once");
            ask(query)
        })
        .expect("the query runs")
}

/// A wall at x = 100, an enemy square at x 200–220, a bullet at (300, 0), all on their layers.
fn lined_up(app: &mut App) -> [Entity; 3] {
    let world = app.world_mut();
    let wall = world
        .spawn((
            SegmentCollider::new(v(100.0, -50.0), v(100.0, 50.0)),
            CollisionLayers::new(WALL, LayerMask::ALL),
        ))
        .id();
    let enemy = world
        .spawn((
            PolygonCollider::rectangle(20.0, 20.0),
            CollisionLayers::new(ENEMY, LayerMask::ALL),
            Transform::from_xyz(210.0, 0.0, 0.0),
        ))
        .id();
    let bullet = world
        .spawn((
            CircleCollider::new(5.0),
            CollisionLayers::new(BULLET, LayerMask::ALL),
            Transform::from_xyz(300.0, 0.0, 0.0),
        ))
        .id();
    app.update();
    [wall, enemy, bullet]
}

#[test]
fn a_ray_meets_the_first_collider_its_filter_allows() {
    let mut app = app();
    let [wall, enemy, bullet] = lined_up(&mut app);
    let hits = ask(&mut app, move |query| {
        let along = ray(Vec2::ZERO, Vec2::X);
        let everything = SpatialQueryFilter::default();
        (
            query.cast_ray(along, f32::INFINITY, &everything),
            query.cast_ray(
                along,
                f32::INFINITY,
                &SpatialQueryFilter::from_mask(ENEMY | BULLET),
            ),
            query.cast_ray(
                along,
                f32::INFINITY,
                &everything.clone().with_excluded([wall, enemy]),
            ),
            query.cast_ray(along, 50.0, &everything),
            query.ray_hits(along, f32::INFINITY, &everything),
        )
    });
    let (first, past_the_wall, excluded, short, all) = hits;
    let first = first.unwrap();
    assert_eq!(first.entity, wall);
    assert_close(first.distance, 100.0);
    assert_eq!(first.normal, -Vec2::X);
    let enemy_hit = past_the_wall.unwrap();
    assert_eq!(enemy_hit.entity, enemy);
    assert_close(enemy_hit.distance, 200.0);
    assert_close(enemy_hit.exit.unwrap().distance, 220.0);
    assert_eq!(excluded.unwrap().entity, bullet);
    assert_eq!(short, None);
    let order: Vec<Entity> = all.iter().map(|hit| hit.entity).collect();
    assert_eq!(order, [wall, enemy, bullet]);
    assert_close(all[2].distance, 295.0);
    assert_close(all[2].exit.unwrap().distance, 305.0);
}

/// A predicate reading the game's own component through its query: the ray goes through the
/// shielded wall and enemy to the bullet, and the filter's layers and exclusions still hold
/// with a predicate.
#[test]
fn a_predicate_turns_away_what_the_game_says() {
    #[derive(Component)]
    struct Shielded;
    let mut app = app();
    let [wall, enemy, bullet] = lined_up(&mut app);
    app.world_mut().entity_mut(wall).insert(Shielded);
    app.world_mut().entity_mut(enemy).insert(Shielded);
    let answers = app
        .world_mut()
        .run_system_once(
            move |query: SpatialQuery, shielded: Query<(), With<Shielded>>| {
                let along = ray(Vec2::ZERO, Vec2::X);
                let unshielded = |entity| !shielded.contains(entity);
                let everything = SpatialQueryFilter::default();
                let walls = SpatialQueryFilter::from_mask(WALL | BULLET);
                let without_bullet = everything.clone().with_excluded([bullet]);
                // Kept: each call below adds its predicate to a reference to it.
                let everything = &everything;
                (
                    query.cast_ray(along, f32::INFINITY, &everything.with_predicate(unshielded)),
                    // The enemy is not turned away here: the mask leaves it out.
                    query.ray_hits(along, f32::INFINITY, &walls.with_predicate(|e| e != wall)),
                    query.cast_ray(
                        along,
                        f32::INFINITY,
                        &without_bullet.with_predicate(unshielded),
                    ),
                    query
                        .point_intersections(v(210.0, 0.0), &everything.with_predicate(unshielded)),
                    query.nearest(
                        v(150.0, 0.0),
                        1000.0,
                        &everything.with_predicate(unshielded),
                    ),
                )
            },
        )
        .unwrap();
    let (first, through_walls, nothing_left, picked, nearest) = answers;
    assert_eq!(first.map(|hit| hit.entity), Some(bullet));
    assert_close(first.unwrap().distance, 295.0);
    let entities: Vec<Entity> = through_walls.iter().map(|hit| hit.entity).collect();
    assert_eq!(entities, [bullet]);
    assert_eq!(nothing_left, None);
    assert!(picked.is_empty(), "the enemy is shielded");
    assert_eq!(nearest.map(|near| near.entity), Some(bullet));
}

#[test]
fn disabled_colliders_are_never_returned() {
    let mut app = app();
    let [wall, enemy, _] = lined_up(&mut app);
    app.world_mut().entity_mut(wall).insert(ColliderDisabled);
    app.update();
    let (first, at_wall, near) = ask(&mut app, |query| {
        let all = SpatialQueryFilter::default();
        (
            query.cast_ray(ray(Vec2::ZERO, Vec2::X), 1000.0, &all),
            query.point_intersections(v(100.0, 0.0), &all),
            query.nearest(v(100.0, 0.0), 1000.0, &all),
        )
    });
    assert_eq!(first.unwrap().entity, enemy);
    assert!(at_wall.is_empty());
    assert_eq!(near.unwrap().entity, enemy);
}

#[test]
fn a_ray_starting_inside_a_collider_says_so() {
    let mut app = app();
    let [_, enemy, _] = lined_up(&mut app);
    let hit = ask(&mut app, |query| {
        query.cast_ray(
            ray(v(205.0, 0.0), Vec2::X),
            100.0,
            &SpatialQueryFilter::from_mask(ENEMY),
        )
    })
    .unwrap();
    assert_eq!(hit.entity, enemy);
    assert!(hit.starts_inside);
    assert_eq!(hit.distance, 0.0);
    assert_close(hit.exit.unwrap().distance, 15.0);
}

#[test]
fn points_on_an_outline_count_and_nearest_stops_at_its_distance() {
    let mut app = app();
    let [wall, enemy, bullet] = lined_up(&mut app);
    let (on_edge, on_wall, near_bullet, too_far) = ask(&mut app, |query| {
        let all = SpatialQueryFilter::default();
        (
            query.point_intersections(v(200.0, 5.0), &all),
            query.point_intersections(v(100.0, 50.0), &all),
            query.nearest(v(300.0, 20.0), 100.0, &all),
            query.nearest(v(300.0, 200.0), 100.0, &all),
        )
    });
    assert_eq!(on_edge, [enemy]);
    assert_eq!(on_wall, [wall]);
    let near_bullet = near_bullet.unwrap();
    assert_eq!(near_bullet.entity, bullet);
    assert!((near_bullet.distance - 15.0).abs() < 1e-4);
    assert!(near_bullet.point.distance(v(300.0, 5.0)) < 1e-4);
    assert_eq!(too_far, None);
}

#[test]
fn a_circle_cast_stops_where_the_circle_first_touches() {
    let mut app = app();
    let [wall, enemy, _] = lined_up(&mut app);
    let (hit, past_wall, corner, overlapping) = ask(&mut app, |query| {
        let all = SpatialQueryFilter::default();
        let enemies = SpatialQueryFilter::from_mask(ENEMY);
        (
            query.cast_circle(Vec2::ZERO, 10.0, Dir2::X, 1000.0, &all),
            query.cast_circle(v(150.0, 0.0), 10.0, Dir2::X, 1000.0, &enemies),
            query.cast_circle(v(150.0, 18.0), 10.0, Dir2::X, 1000.0, &enemies),
            query.cast_circle(v(95.0, 0.0), 10.0, Dir2::X, 1000.0, &all),
        )
    });
    let hit = hit.unwrap();
    assert_eq!(hit.entity, wall);
    assert!((hit.distance - 90.0).abs() < 1e-3, "{hit:?}");
    assert!(hit.point.distance(v(100.0, 0.0)) < 1e-3, "{hit:?}");
    assert!(hit.normal.distance(v(-1.0, 0.0)) < 1e-5, "{hit:?}");
    let past_wall = past_wall.unwrap();
    assert_eq!(past_wall.entity, enemy);
    assert!((past_wall.distance - 40.0).abs() < 1e-3, "{past_wall:?}");
    assert!(
        past_wall.point.distance(v(200.0, 0.0)) < 1e-3,
        "{past_wall:?}"
    );
    assert!(
        past_wall.normal.distance(v(-1.0, 0.0)) < 1e-5,
        "{past_wall:?}"
    );
    // Eight above the corner (200, 10) the circle of radius 10 meets it six short of it,
    // its centre at (194, 18): the normal points from the corner to the centre.
    let corner = corner.unwrap();
    assert_eq!(corner.entity, enemy);
    assert!((corner.distance - 44.0).abs() < 1e-3, "{corner:?}");
    assert!(corner.point.distance(v(200.0, 10.0)) < 1e-3, "{corner:?}");
    assert!(corner.normal.distance(v(-0.6, 0.8)) < 1e-4, "{corner:?}");
    // Already overlapping: distance zero, the wall's point nearest the centre, and the
    // normal against the direction.
    let overlapping = overlapping.unwrap();
    assert_eq!((overlapping.entity, overlapping.distance), (wall, 0.0));
    assert!(overlapping.point.distance(v(100.0, 0.0)) < 1e-3);
    assert_eq!(overlapping.normal, v(-1.0, 0.0));
}

#[test]
fn queries_at_the_edge_far_away_or_unbounded_still_answer() {
    let mut app = app();
    let [wall, _, bullet] = lined_up(&mut app);
    let (on_edge, grazing, from_afar, unbounded_circle, negative) = ask(&mut app, |query| {
        let all = SpatialQueryFilter::default();
        (
            // The bullet's own grid ends at x = 305: its outline's far point is on the edge.
            query.point_intersections(v(305.0, 0.0), &SpatialQueryFilter::from_mask(BULLET)),
            query.cast_ray(
                ray(v(305.0, -50.0), Vec2::Y),
                100.0,
                &SpatialQueryFilter::from_mask(BULLET),
            ),
            // From a billion pixels away: the walk ends, and finds the wall.
            query.cast_ray(ray(v(-1e9, 0.0), Vec2::X), f32::INFINITY, &all),
            query.cast_circle(Vec2::ZERO, 10.0, Dir2::X, f32::MAX, &all),
            query.shape_intersections(Shape::Circle(Circle::new(v(300.0, 0.0), -5.0)), &all),
        )
    });
    assert_eq!(on_edge, [bullet]);
    let grazing = grazing.expect("grazes the bullet");
    assert_eq!(grazing.entity, bullet);
    assert_close(grazing.distance, 50.0);
    assert_eq!(from_afar.expect("reaches the wall").entity, wall);
    assert_eq!(unbounded_circle.expect("meets the wall").entity, wall);
    assert!(negative.is_empty(), "{negative:?}");
}

#[test]
fn an_explosion_finds_every_collider_its_disc_covers() {
    let mut app = app();
    let [wall, enemy, bullet] = lined_up(&mut app);
    let (blast, small) = ask(&mut app, |query| {
        let all = SpatialQueryFilter::default();
        (
            query.shape_intersections(Shape::Circle(Circle::new(v(200.0, 0.0), 100.0)), &all),
            query.shape_intersections(Shape::Circle(Circle::new(v(150.0, 0.0), 10.0)), &all),
        )
    });
    let mut expected = vec![wall, enemy, bullet];
    expected.sort();
    assert_eq!(blast, expected);
    assert!(small.is_empty());
}

/// `SpatialQuery::push_out` and `Contact::push_out` answer for the shapes where the pipeline
/// placed them (turned and scaled by their transforms, worked out here), and not for pairs
/// apart, switched off or gone.
#[test]
fn push_out_answers_for_the_placed_shapes() {
    use bevy_collision_events::geometry::push_out;
    let mut app = app();
    // A concave chevron, turned a quarter and doubled, and a circle in its notch.
    let local = vec![v(0.0, 10.0), v(10.0, -10.0), v(0.0, -2.0), v(-10.0, -10.0)];
    let placement = Transform::from_xyz(50.0, 20.0, 0.0)
        .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2))
        .with_scale(Vec3::splat(2.0));
    let world_vertices: Vec<Vec2> = local
        .iter()
        .map(|&p| placement.transform_point(p.extend(0.0)).truncate())
        .collect();
    let wall = app
        .world_mut()
        .spawn((PolygonCollider::new(local), placement))
        .id();
    // Off the chevron's axis: no tie between two ways out.
    let ball_at = v(44.0, 23.0);
    let ball = app
        .world_mut()
        .spawn((
            CircleCollider::new(5.0),
            Transform::from_translation(ball_at.extend(0.0)),
        ))
        .id();
    let far = app
        .world_mut()
        .spawn((
            CircleCollider::new(1.0),
            Transform::from_xyz(500.0, 0.0, 0.0),
        ))
        .id();
    app.update();
    let expected = push_out(
        Shape::Circle(Circle::new(ball_at, 5.0)),
        Shape::Polygon(&world_vertices),
    )
    .expect("the ball overlaps the chevron");
    assert!(expected.depth > 1.0, "{expected:?}");
    let contact = crate::common::contact_between(&app, ball, wall).expect("a contact");
    let (by_query, by_contact, reversed, apart) = ask(&mut app, move |query| {
        (
            query.push_out(ball, wall),
            contact.push_out(ball, &query),
            query.push_out(wall, ball),
            query.push_out(ball, far),
        )
    });
    // The placed vertices may round differently from those worked out here, by an ulp.
    for answer in [by_query, by_contact] {
        let answer = answer.expect("an answer");
        assert!(
            answer.translation().distance(expected.translation()) < 1e-4,
            "{answer:?}, expected {expected:?}"
        );
    }
    let reversed = reversed.expect("the other way round");
    assert!(reversed.translation().distance(-expected.translation()) < 1e-4);
    assert_eq!(apart, None);
    app.world_mut().entity_mut(wall).insert(ColliderDisabled);
    app.update();
    assert_eq!(ask(&mut app, move |query| query.push_out(ball, wall)), None);
    app.world_mut().despawn(ball);
    app.update();
    assert_eq!(ask(&mut app, move |query| query.push_out(ball, wall)), None);
}

/// A ray that starts on a segment and inside a circle meets both at distance zero (never a
/// negative zero): `ray_hits` orders them by entity, as `cast_ray` picks the first, whichever
/// was spawned first.
#[test]
fn hits_at_distance_zero_come_in_entity_order_in_both_queries() {
    for segment_first in [true, false] {
        let mut app = app();
        let circle = (CircleCollider::new(1.0), Transform::from_xyz(0.0, 0.5, 0.0));
        let segment = SegmentCollider::new(v(-5.0, 0.0), v(5.0, 0.0));
        let world = app.world_mut();
        let (circle, segment) = if segment_first {
            let segment = world.spawn(segment).id();
            (world.spawn(circle).id(), segment)
        } else {
            let circle = world.spawn(circle).id();
            (circle, world.spawn(segment).id())
        };
        app.update();
        let down = ray(Vec2::ZERO, Vec2::NEG_Y);
        let (first, all) = ask(&mut app, move |query| {
            let everything = SpatialQueryFilter::default();
            (
                query.cast_ray(down, 10.0, &everything),
                query.ray_hits(down, 10.0, &everything),
            )
        });
        assert_eq!(first.expect("both are met").entity, circle.min(segment));
        let order: Vec<Entity> = all.iter().map(|hit| hit.entity).collect();
        assert_eq!(order, [circle.min(segment), circle.max(segment)]);
        assert!(all.iter().all(|hit| hit.distance.to_bits() == 0), "{all:?}");
    }
}

/// A circle cast without a limit, in a world whose colliders reach the edge of the supported
/// range, still meets what lies just ahead of it.
#[test]
fn an_unlimited_circle_cast_meets_what_is_near_in_a_world_reaching_the_range() {
    let mut app = app();
    let world = app.world_mut();
    let near = world
        .spawn((
            CircleCollider::new(1.0),
            Transform::from_xyz(10.0, 0.0, 0.0),
        ))
        .id();
    world.spawn((
        CircleCollider::new(1e17),
        Transform::from_xyz(9e17, 0.0, 0.0),
    ));
    app.update();
    let hit = ask(&mut app, |query| {
        query.cast_circle(
            Vec2::ZERO,
            1.0,
            Dir2::X,
            f32::INFINITY,
            &SpatialQueryFilter::default(),
        )
    })
    .expect("the near circle is met");
    assert_eq!(hit.entity, near);
    assert_close(hit.distance, 8.0);
}
