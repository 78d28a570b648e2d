//! Every spatial query on random scenes against a brute-force loop over the geometry functions
//! (every collider, every shape kind, layers, colliders switched off, a far outlier, more layer
//! values than the index groups, and predicates).

use crate::common::app;
use crate::queries::{ask, v};
use bevy::prelude::*;
use bevy_collision_events::geometry::{
    Circle, RayIntersection, Segment, Shape, closest_point, overlap, ray_cast, sweep,
};
use bevy_collision_events::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

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
        body,
        distance,
        point,
        normal,
        starts_inside,
        exit,
    } = hit;
    assert_eq!(body, entity, "no collider here is a part of a body");
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
