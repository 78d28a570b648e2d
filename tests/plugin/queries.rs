//! Spatial queries: named cases, and every query on random scenes against a brute-force loop
//! over the geometry functions (every collider, every shape kind, layers, colliders switched
//! off, a far outlier, more layer values than the index groups).

use crate::common::app;
use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_collision_events::ColliderFilter;
use bevy_collision_events::geometry::{
    Circle, RayIntersection, Segment, Shape, closest_point, overlap, ray_cast, sweep,
};
use bevy_collision_events::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const WALL: LayerMask = LayerMask::layer(0);
const ENEMY: LayerMask = LayerMask::layer(1);
const BULLET: LayerMask = LayerMask::layer(2);

fn v(x: f32, y: f32) -> Vec2 {
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
fn ask<T: Send + 'static>(
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

// ---------------------------------------------------------------------------------------------
// Random scenes against brute force

/// A collider of the scene as the brute force sees it: its entity, world shape and layers.
struct Placed {
    entity: Entity,
    shape: Owned,
    layers: CollisionLayers,
    enabled: bool,
}

enum Owned {
    Circle(Circle),
    Segment(Segment),
    Polygon(Vec<Vec2>),
}

impl Owned {
    fn shape(&self) -> Shape<'_> {
        match self {
            Owned::Circle(disc) => Shape::Circle(*disc),
            Owned::Segment(segment) => Shape::Segment(*segment),
            Owned::Polygon(vertices) => Shape::Polygon(vertices),
        }
    }
}

/// A star of five points (concave) or a pentagon (convex), around the origin.
fn polygon(rng: &mut StdRng) -> Vec<Vec2> {
    let concave = rng.random_bool(0.5);
    let size = rng.random_range(5.0..25.0);
    (0..10)
        .filter(|i| concave || i % 2 == 0)
        .map(|i| {
            let radius = if i % 2 == 0 { size } else { size * 0.4 };
            Vec2::from_angle(i as f32 * std::f32::consts::TAU / 10.0) * radius
        })
        .collect()
}

/// Spawns `count` colliders in a 600 × 600 field on `layer_values` different layer values
/// (a tenth of them switched off), plus, if `outlier`, one far away; placed by translation only,
/// so their world shapes are their local shapes moved, exactly.
fn random_scene(
    app: &mut App,
    rng: &mut StdRng,
    count: usize,
    layer_values: u32,
    outlier: bool,
) -> Vec<Placed> {
    let mut placed = Vec::new();
    for index in 0..=count {
        let at = if outlier && index == count {
            v(3e6, -2e6)
        } else if index == count {
            break;
        } else {
            v(rng.random_range(0.0..600.0), rng.random_range(0.0..600.0))
        };
        let value = rng.random_range(0..layer_values);
        let layers = CollisionLayers::new(LayerMask(1 << (value % 30) | 1 << 31), LayerMask::ALL);
        let enabled = !rng.random_bool(0.1);
        let mut entity = app
            .world_mut()
            .spawn((layers, Transform::from_translation(at.extend(0.0))));
        let shape = match rng.random_range(0..3) {
            0 => {
                let radius = rng.random_range(1.0..20.0);
                entity.insert(CircleCollider::new(radius));
                Owned::Circle(Circle::new(at, radius))
            }
            1 => {
                let half =
                    Vec2::from_angle(rng.random_range(0.0..6.3)) * rng.random_range(2.0..60.0);
                entity.insert(SegmentCollider::new(-half, half));
                Owned::Segment(Segment::new(at - half, at + half))
            }
            _ => {
                let vertices = polygon(rng);
                entity.insert(PolygonCollider::new(vertices.clone()));
                Owned::Polygon(vertices.iter().map(|&vertex| vertex + at).collect())
            }
        };
        if !enabled {
            entity.insert(ColliderDisabled);
        }
        placed.push(Placed {
            entity: entity.id(),
            shape,
            layers,
            enabled,
        });
    }
    app.update();
    placed
}

/// The colliders a filter of `mask`, excluding `excluded` and, with a predicate, those it
/// turns away ([`turned_away`]), looks at.
fn candidates<'a>(
    placed: &'a [Placed],
    mask: LayerMask,
    excluded: &'a [Entity],
    predicate: Option<u64>,
) -> impl Iterator<Item = &'a Placed> {
    placed.iter().filter(move |collider| {
        collider.enabled
            && collider.layers.memberships.intersects(mask)
            && !excluded.contains(&collider.entity)
            && !predicate.is_some_and(|every| turned_away(collider.entity, every))
    })
}

/// What the questions' predicates turn away: every `every`th entity, by its bits.
fn turned_away(entity: Entity, every: u64) -> bool {
    entity.to_bits().is_multiple_of(every)
}

/// One question to the query, through `filter`.
fn answer(
    query: &SpatialQuery,
    kind: u8,
    [a, b]: [Vec2; 2],
    max_distance: f32,
    filter: &impl ColliderFilter,
) -> Answer {
    let direction = Dir2::new(b - a).unwrap_or(Dir2::X);
    match kind {
        0 => Answer::Ray(query.cast_ray(Ray2d::new(a, direction), max_distance, filter)),
        1 => Answer::Rays(query.ray_hits(Ray2d::new(a, direction), max_distance, filter)),
        2 => Answer::Circle(query.cast_circle(a, 8.0, direction, max_distance.min(400.0), filter)),
        3 => Answer::Entities(
            query.shape_intersections(Shape::Segment(Segment::new(a, a + (b - a) * 0.2)), filter),
        ),
        4 => Answer::Entities(query.point_intersections(a, filter)),
        5 => Answer::Nearest(query.nearest(a, max_distance, filter)),
        _ => Answer::Entities(
            query.shape_intersections(Shape::Polygon(&query_polygon(a, b)), filter),
        ),
    }
}

/// A random filter: one or two of the layer values, or all; sometimes excluding a collider.
fn random_filter(rng: &mut StdRng, placed: &[Placed]) -> (LayerMask, Vec<Entity>) {
    let mask = match rng.random_range(0..3) {
        0 => LayerMask::ALL,
        1 => LayerMask(1 << rng.random_range(0..30)),
        _ => LayerMask(1 << rng.random_range(0..30) | 1 << rng.random_range(0..30)),
    };
    let excluded = if rng.random_bool(0.3) {
        vec![placed[rng.random_range(0..placed.len())].entity]
    } else {
        Vec::new()
    };
    (mask, excluded)
}

fn random_point(rng: &mut StdRng) -> Vec2 {
    v(
        rng.random_range(-100.0..700.0),
        rng.random_range(-100.0..700.0),
    )
}

/// A ray's hit, all of it, distance and entity first (the order the queries sort by).
type WholeHit = (f32, Entity, Vec2, Vec2, bool, Option<RayExit>);

/// The brute force's hit of `placed`.
fn whole(hit: RayIntersection, placed: &Placed) -> WholeHit {
    let RayIntersection {
        distance,
        point,
        normal,
        starts_inside,
        exit,
    } = hit;
    (distance, placed.entity, point, normal, starts_inside, exit)
}

/// The query's hit.
fn whole_hit(hit: RayCastHit) -> WholeHit {
    let RayCastHit {
        entity,
        distance,
        point,
        normal,
        starts_inside,
        exit,
    } = hit;
    (distance, entity, point, normal, starts_inside, exit)
}

/// A query's concave dart from `a`, a fifth of the way to `b` and as wide.
fn query_polygon(a: Vec2, b: Vec2) -> Vec<Vec2> {
    let along = (b - a) * 0.2;
    let across = along.perp();
    vec![
        a,
        a + along,
        a + along + across,
        a + 0.6 * along + 0.3 * across,
    ]
}

/// Every query, `rounds` times, against brute force; a third of them with a predicate too.
fn check_scene(app: &mut App, placed: Vec<Placed>, rng: &mut StdRng, rounds: usize) {
    type Question = (u8, Vec2, Vec2, f32, LayerMask, Vec<Entity>, Option<u64>);
    let questions: Vec<Question> = (0..rounds)
        .map(|_| {
            let (mask, excluded) = random_filter(rng, &placed);
            let kind = rng.random_range(0..7);
            let max_distance = match rng.random_range(0..3) {
                0 => f32::INFINITY,
                _ => rng.random_range(0.0..500.0),
            };
            let predicate = rng.random_bool(1.0 / 3.0).then(|| rng.random_range(2..4));
            (
                kind,
                random_point(rng),
                random_point(rng),
                max_distance,
                mask,
                excluded,
                predicate,
            )
        })
        .collect();
    let answers = ask(app, move |query| {
        questions
            .into_iter()
            .map(|question| {
                let (kind, a, b, max_distance, mask, ref excluded, predicate) = question;
                let filter =
                    SpatialQueryFilter::from_mask(mask).with_excluded(excluded.iter().copied());
                let answer = match predicate {
                    Some(every) => {
                        let filter = filter.with_predicate(|entity| !turned_away(entity, every));
                        answer(&query, kind, [a, b], max_distance, &filter)
                    }
                    None => answer(&query, kind, [a, b], max_distance, &filter),
                };
                (question, answer)
            })
            .collect::<Vec<_>>()
    });
    for ((kind, a, b, max_distance, mask, excluded, predicate), answer) in answers {
        let direction = Dir2::new(b - a).unwrap_or(Dir2::X);
        let looked_at: Vec<&Placed> = candidates(&placed, mask, &excluded, predicate).collect();
        let case = format!(
            "kind {kind}, {a} → {b}, {max_distance}, {mask:?}, {excluded:?}, {predicate:?}"
        );
        match answer {
            Answer::Ray(found) => {
                let cast = Ray2d::new(a, direction);
                let expected = looked_at
                    .iter()
                    .filter_map(|p| {
                        ray_cast(cast, max_distance, p.shape.shape()).map(|hit| whole(hit, p))
                    })
                    .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
                assert_eq!(found.map(whole_hit), expected, "{case}");
            }
            Answer::Rays(found) => {
                let cast = Ray2d::new(a, direction);
                let mut expected: Vec<WholeHit> = looked_at
                    .iter()
                    .filter_map(|p| {
                        ray_cast(cast, max_distance, p.shape.shape()).map(|hit| whole(hit, p))
                    })
                    .collect();
                expected.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
                let found: Vec<WholeHit> = found.into_iter().map(whole_hit).collect();
                assert_eq!(found, expected, "{case}");
            }
            Answer::Circle(found) => {
                let circle = Circle::new(a, 8.0);
                let reach = max_distance.min(400.0);
                let expected = looked_at
                    .iter()
                    .filter_map(|p| {
                        if overlap(Shape::Circle(circle), p.shape.shape()) {
                            return Some((0.0, p.entity));
                        }
                        sweep(
                            Shape::Circle(circle),
                            *direction * reach,
                            p.shape.shape(),
                            Vec2::ZERO,
                        )
                        .map(|impact| (impact.time * reach, p.entity))
                    })
                    .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
                // The query sweeps as far as its grids reach, which may be short of the
                // brute force's 400, so its times may differ in the last bits: the same entity,
                // the distance within 1e-3.
                match (found, expected) {
                    (None, None) => {}
                    (Some(found), Some((distance, entity))) => {
                        assert!(
                            (found.distance - distance).abs() <= 1e-3 * (1.0 + distance),
                            "{case}: {found:?} vs {expected:?}"
                        );
                        if found.entity != entity {
                            // A tie within rounding: both must be that near.
                            let other = placed.iter().find(|p| p.entity == found.entity).unwrap();
                            let theirs = sweep(
                                Shape::Circle(circle),
                                *direction * reach,
                                other.shape.shape(),
                                Vec2::ZERO,
                            )
                            .map_or(0.0, |impact| impact.time * reach);
                            assert!(
                                (theirs - distance).abs() <= 1e-3 * (1.0 + distance),
                                "{case}: {found:?} vs {expected:?}"
                            );
                        }
                    }
                    _ => panic!("{case}: {found:?} vs {expected:?}"),
                }
            }
            Answer::Entities(found) => {
                let polygon = query_polygon(a, b);
                let shape = match kind {
                    3 => Shape::Segment(Segment::new(a, a + (b - a) * 0.2)),
                    4 => Shape::Circle(Circle::new(a, 0.0)),
                    _ => Shape::Polygon(&polygon),
                };
                let mut expected: Vec<Entity> = looked_at
                    .iter()
                    .filter(|p| overlap(shape, p.shape.shape()))
                    .map(|p| p.entity)
                    .collect();
                expected.sort();
                assert_eq!(found, expected, "{case}");
            }
            Answer::Nearest(found) => {
                let expected = looked_at
                    .iter()
                    .filter_map(|p| {
                        closest_point(p.shape.shape(), a)
                            .filter(|closest| closest.distance <= max_distance)
                            .map(|closest| (closest.distance, p.entity))
                    })
                    .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
                assert_eq!(
                    found.map(|near| (near.distance, near.entity)),
                    expected,
                    "{case}"
                );
            }
        }
    }
}

#[derive(Debug)]
enum Answer {
    Ray(Option<RayCastHit>),
    Rays(Vec<RayCastHit>),
    Circle(Option<ShapeCastHit>),
    Entities(Vec<Entity>),
    Nearest(Option<NearestCollider>),
}

#[test]
fn every_query_agrees_with_brute_force_on_random_scenes() {
    for (seed, layer_values, outlier) in
        [(1, 4, false), (2, 3, true), (3, 60, false), (4, 40, true)]
    {
        let mut app = app();
        let mut rng = StdRng::seed_from_u64(seed);
        let placed = random_scene(&mut app, &mut rng, 400, layer_values, outlier);
        check_scene(&mut app, placed, &mut rng, 1500);
    }
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
