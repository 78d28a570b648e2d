//! 10,000 random colliders of every kind and several layers: the plugin finds exactly the
//! pairs that a brute-force all-pairs check with the geometry core finds.

use crate::common::app;
use bevy::prelude::*;
use bevy_collision_events::geometry::{self, Circle, Segment, Shape};
use bevy_collision_events::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeSet;

/// A collider's world shape, computed here from its transform.
enum WorldShape {
    Circle(Circle),
    Segment(Segment),
    Polygon(Vec<Vec2>),
}

impl WorldShape {
    fn shape(&self) -> Shape<'_> {
        match self {
            WorldShape::Circle(c) => Shape::Circle(*c),
            WorldShape::Segment(s) => Shape::Segment(*s),
            WorldShape::Polygon(v) => Shape::Polygon(v),
        }
    }
}

/// Bullets and enemies that meet each other, a group that meets everything, and colliders on
/// every layer.
const FOUR_LAYER_CHOICES: [CollisionLayers; 4] = [
    CollisionLayers::new(LayerMask::layer(0), LayerMask::layer(1)),
    CollisionLayers::new(
        LayerMask::layer(1),
        LayerMask::layer(0).union(LayerMask::layer(2)),
    ),
    CollisionLayers::new(LayerMask::layer(2), LayerMask::ALL),
    CollisionLayers::ALL,
];

#[test]
fn ten_thousand_colliders_match_brute_force() {
    match_brute_force(&FOUR_LAYER_CHOICES, 10_000, false);
}

#[test]
fn many_distinct_layer_values_match_brute_force() {
    // More distinct values than the broad phase compares group by group.
    let mut rng = StdRng::seed_from_u64(40);
    let layer_choices: Vec<CollisionLayers> = (0..40)
        .map(|_| {
            CollisionLayers::new(
                LayerMask(rng.random_range(1..16)),
                LayerMask(rng.random_range(1..16)),
            )
        })
        .collect();
    match_brute_force(&layer_choices, 10_001, false);
}

/// Colliders far larger than the rest (a wall two hundred million pixels long, discs and an
/// octagon of radius 1e6 to 1e8, and a swept bullet moving a billion pixels in one frame)
/// share groups and sides with the 10,000: still exactly the brute-force pairs. (The grid's
/// cells are sized by the typical body, not by a mean these few would dominate.)
#[test]
fn huge_colliders_among_thousands_match_brute_force() {
    match_brute_force(&FOUR_LAYER_CHOICES, 10_002, true);
}

/// A huge collider of [`match_brute_force`]: its layers are the choices' (in turn), its shape
/// placed where given.
fn huge_colliders() -> Vec<(Transform, WorldShape, ColliderKind)> {
    let at = |x: f32, y: f32| Transform::from_xyz(x, y, 0.0);
    let octagon: Vec<Vec2> = (0..8)
        .map(|k| Vec2::from_angle(k as f32 * std::f32::consts::TAU / 8.0) * 1e7)
        .collect();
    let octagon_at = Vec2::new(1000.0, 1e7 + 1200.0);
    vec![
        (
            at(0.0, 0.0),
            WorldShape::Segment(Segment::new(
                Vec2::new(-1e8, 1000.0),
                Vec2::new(1e8, 1000.0),
            )),
            ColliderKind::Segment(Vec2::new(-1e8, 1000.0), Vec2::new(1e8, 1000.0)),
        ),
        (
            at(1000.0, -1e6 + 500.0),
            WorldShape::Circle(Circle::new(Vec2::new(1000.0, -1e6 + 500.0), 1e6)),
            ColliderKind::Circle(1e6),
        ),
        (
            at(-1e8 + 300.0, 700.0),
            WorldShape::Circle(Circle::new(Vec2::new(-1e8 + 300.0, 700.0), 1e8)),
            ColliderKind::Circle(1e8),
        ),
        (
            at(octagon_at.x, octagon_at.y),
            WorldShape::Polygon(octagon.iter().map(|&v| v + octagon_at).collect()),
            ColliderKind::Polygon(octagon),
        ),
    ]
}

/// Where the bullet swept a billion pixels in one frame flies: across the huge colliders,
/// clear of the field of small ones.
const BULLET_PATH_Y: f32 = 1e5;

/// How a huge collider of [`huge_colliders`] is made.
enum ColliderKind {
    Circle(f32),
    Segment(Vec2, Vec2),
    Polygon(Vec<Vec2>),
}

/// Spawns 10,000 random colliders with layers drawn from `layer_choices` (and, with `huge`, a
/// few huge ones and a bullet swept a billion pixels across the field), runs a frame (a second
/// one for the bullet's path), and compares the contacts with a brute-force all-pairs check.
fn match_brute_force(layer_choices: &[CollisionLayers], seed: u64, huge: bool) {
    let mut app = app();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut expected_shapes = Vec::new();
    for i in 0..10_000 {
        let position = Vec2::new(rng.random_range(0.0..2000.0), rng.random_range(0.0..2000.0));
        let angle = rng.random_range(0.0..std::f32::consts::TAU);
        let scale = rng.random_range(0.5..2.0);
        let transform = Transform::from_translation(position.extend(0.0))
            .with_rotation(Quat::from_rotation_z(angle))
            .with_scale(Vec3::splat(scale));
        let layers = layer_choices[rng.random_range(0..layer_choices.len())];
        let place = |p: Vec2| transform.transform_point(p.extend(0.0)).truncate();
        let mut entity = app.world_mut().spawn((transform, layers));
        let world = match i % 3 {
            0 => {
                let radius = rng.random_range(0.0..8.0);
                entity.insert(CircleCollider::new(radius));
                WorldShape::Circle(Circle::new(position, radius * scale))
            }
            1 => {
                let (a, b) = (
                    Vec2::new(rng.random_range(-10.0..10.0), rng.random_range(-10.0..10.0)),
                    Vec2::new(rng.random_range(-10.0..10.0), rng.random_range(-10.0..10.0)),
                );
                entity.insert(SegmentCollider::new(a, b));
                WorldShape::Segment(Segment::new(place(a), place(b)))
            }
            _ => {
                // A concave star.
                let spokes = rng.random_range(3..7) * 2;
                let radius = rng.random_range(3.0..10.0);
                let local: Vec<Vec2> = (0..spokes)
                    .map(|k| {
                        let spoke = if k % 2 == 0 { radius } else { 0.5 * radius };
                        let turn = k as f32 * std::f32::consts::TAU / spokes as f32;
                        Vec2::from_angle(turn) * spoke
                    })
                    .collect();
                entity.insert(PolygonCollider::new(local.clone()));
                WorldShape::Polygon(local.into_iter().map(place).collect())
            }
        };
        expected_shapes.push((entity.id(), layers, world));
    }
    let mut swept = None;
    if huge {
        for (index, (transform, world, kind)) in huge_colliders().into_iter().enumerate() {
            let layers = layer_choices[index % layer_choices.len()];
            let mut entity = app.world_mut().spawn((transform, layers));
            match kind {
                ColliderKind::Circle(radius) => entity.insert(CircleCollider::new(radius)),
                ColliderKind::Segment(a, b) => entity.insert(SegmentCollider::new(a, b)),
                ColliderKind::Polygon(vertices) => entity.insert(PolygonCollider::new(vertices)),
            };
            expected_shapes.push((entity.id(), layers, world));
        }
        let bullet = app
            .world_mut()
            .spawn((
                CircleCollider::new(3.0),
                Swept::default(),
                CollisionLayers::ALL,
                Transform::from_xyz(-5e8, BULLET_PATH_Y, 0.0),
            ))
            .id();
        app.update();
        app.world_mut()
            .entity_mut(bullet)
            .insert(Transform::from_xyz(5e8, BULLET_PATH_Y, 0.0));
        swept = Some(bullet);
    }
    app.update();

    let found: BTreeSet<(Entity, Entity)> = app
        .world()
        .resource::<Contacts>()
        .iter()
        .map(|contact| (contact.a, contact.b))
        .collect();
    let contacts = app.world().resource::<Contacts>().len();
    assert_eq!(contacts, found.len(), "a pair reported twice");

    // Brute force: every pair, bounding circles first so the test stays quick. (The crate's
    // bounding circles hold every point of their shapes: the geometry's own tests check it. A
    // box worked out here instead lets through pairs a few units apart at 1e8, which the
    // exact tests, evaluated in `f32`, may call touching: beyond what `f32` can tell there.)
    let bounds: Vec<_> = expected_shapes
        .iter()
        .map(|(_, _, world)| world.shape().bounding_circle())
        .collect();
    let mut expected = BTreeSet::new();
    for i in 0..expected_shapes.len() {
        for j in i + 1..expected_shapes.len() {
            let (ei, li, wi) = &expected_shapes[i];
            let (ej, lj, wj) = &expected_shapes[j];
            let reach = bounds[i].radius() + bounds[j].radius() + 1e-3;
            if bounds[i].center.distance_squared(bounds[j].center) > reach * reach
                || !li.interacts_with(lj)
            {
                continue;
            }
            if geometry::overlap(wi.shape(), wj.shape()) {
                expected.insert((*ei.min(ej), *ei.max(ej)));
            }
        }
    }
    if let Some(bullet) = swept {
        // Along its whole path, against every collider where it is now: the two huge ones
        // it crosses. (Clear of the field by far more than the tolerance of a sweep so long,
        // `TOLERANCE` times its length: the small ones are clearly missed.)
        let start = Circle::new(Vec2::new(-5e8, BULLET_PATH_Y), 3.0);
        let motion = Vec2::new(1e9, 0.0);
        for (entity, _, world) in &expected_shapes {
            let end = Circle::new(start.center + motion, 3.0);
            let met = geometry::overlap(Shape::Circle(start), world.shape())
                || geometry::sweep(Shape::Circle(start), motion, world.shape(), Vec2::ZERO)
                    .is_some()
                || geometry::overlap(Shape::Circle(end), world.shape());
            if met {
                expected.insert((bullet.min(*entity), bullet.max(*entity)));
            }
        }
        let bullet_pairs = expected
            .iter()
            .filter(|(a, b)| *a == bullet || *b == bullet);
        assert_eq!(
            bullet_pairs.count(),
            2,
            "the bullet crosses two huge colliders"
        );
        let huge_pairs = expected.iter().filter(|(a, b)| {
            [a, b]
                .iter()
                .any(|e| expected_shapes[10_000..].iter().any(|(h, ..)| h == *e))
        });
        assert!(huge_pairs.count() > 1000, "the huge colliders meet many");
    }
    assert!(
        expected.len() > 1000,
        "a scene with few contacts proves little"
    );
    let missing: Vec<_> = expected.difference(&found).collect();
    let extra: Vec<_> = found.difference(&expected).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{} pairs missing (first {:?}), {} extra (first {:?}) of {}",
        missing.len(),
        missing.first(),
        extra.len(),
        extra.first(),
        expected.len()
    );
}

#[test]
fn a_sheared_polygon_is_found_where_its_corner_reaches() {
    // A child turned by 45° inside a parent scaled (4, 1): the child's axes are sheared, and the
    // square's corner (1, −1) lands at (4√2, 0) ≈ (5.66, 0), farther than either axis length
    // (√8.5 ≈ 2.92) times the square's local bounding radius (√2) reaches.
    let mut app = app();
    let mut square = Entity::PLACEHOLDER;
    app.world_mut()
        .spawn(Transform::from_scale(Vec3::new(4.0, 1.0, 1.0)))
        .with_children(|parent| {
            square = parent
                .spawn((
                    PolygonCollider::rectangle(2.0, 2.0),
                    Transform::from_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)),
                ))
                .id();
        });
    let near_corner = app
        .world_mut()
        .spawn((CircleCollider::new(0.2), Transform::from_xyz(5.5, 0.0, 0.0)))
        .id();
    let beyond = app
        .world_mut()
        .spawn((CircleCollider::new(0.2), Transform::from_xyz(6.0, 0.0, 0.0)))
        .id();
    app.update();
    let contacts = app.world().resource::<Contacts>();
    assert!(
        contacts.contains(square, near_corner),
        "the corner reaches it"
    );
    assert!(!contacts.contains(square, beyond));
}

/// Discs in and around polygons (convex; concave with its centre inside; concave with its
/// bounding centre in a notch; long and thin; off its local origin; of 80 vertices), under
/// rotation, uneven scale, a shearing parent, a translation far from the origin, and a swept
/// polygon moving with its discs: each pair's contact (whether there is one, which holds
/// which, the points) is what the geometry core gives for the world shapes. Many discs lie
/// deep inside, where the plugin knows the answer without looking at the edges, and many near
/// the edges and the polygons' inner circles, where it must look. With a few hundred discs a
/// polygon and with a thousand (the plugin measures the polygons' edges ahead of the tests
/// only when many discs may use them).
#[test]
fn discs_in_and_around_polygons_get_what_the_geometry_gives() {
    discs_in_and_around_polygons(250);
}

/// [`discs_in_and_around_polygons_get_what_the_geometry_gives`] with many discs a polygon.
#[test]
fn many_discs_in_and_around_polygons_get_what_the_geometry_gives() {
    discs_in_and_around_polygons(1000);
}

/// Places `per_polygon` discs in and around each polygon, and checks each pair's contact.
fn discs_in_and_around_polygons(per_polygon: usize) {
    const POLYGON: LayerMask = LayerMask::layer(0);
    const DISC: LayerMask = LayerMask::layer(1);
    /// How far the swept polygon and its discs move in the frame checked.
    const MOVE: Vec3 = Vec3::new(40.0, 12.0, 0.0);
    let mut app = app();
    let mut rng = StdRng::seed_from_u64(41);
    let ring = |count: usize, radius: f32| -> Vec<Vec2> {
        (0..count)
            .map(|k| Vec2::from_angle(k as f32 * std::f32::consts::TAU / count as f32) * radius)
            .collect()
    };
    let points = |list: &[(f32, f32)]| list.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
    let shapes: Vec<Vec<Vec2>> = vec![
        ring(8, 10.0),
        // A plus sign: its centre deep inside.
        points(&[
            (-3.0, -10.0),
            (3.0, -10.0),
            (3.0, -3.0),
            (10.0, -3.0),
            (10.0, 3.0),
            (3.0, 3.0),
            (3.0, 10.0),
            (-3.0, 10.0),
            (-3.0, 3.0),
            (-10.0, 3.0),
            (-10.0, -3.0),
            (-3.0, -3.0),
        ]),
        // A C whose bounding centre lies in its notch.
        points(&[
            (-10.0, -10.0),
            (10.0, -10.0),
            (10.0, -6.0),
            (-6.0, -6.0),
            (-6.0, 6.0),
            (10.0, 6.0),
            (10.0, 10.0),
            (-10.0, 10.0),
        ]),
        // A wall a thousand times longer than it is thick.
        points(&[(-500.0, -0.5), (500.0, -0.5), (500.0, 0.5), (-500.0, 0.5)]),
        // A hexagon far from its local origin.
        ring(6, 8.0)
            .into_iter()
            .map(|p| p + Vec2::new(300.0, -200.0))
            .collect(),
        ring(80, 12.0),
    ];
    let placements = [
        Transform::from_xyz(300.0, 100.0, 0.0).with_rotation(Quat::from_rotation_z(0.7)),
        Transform::from_xyz(500.0, 100.0, 0.0).with_scale(Vec3::new(2.5, 0.6, 1.0)),
        Transform::from_xyz(12_345.0, -9_876.0, 0.0)
            .with_rotation(Quat::from_rotation_z(-1.1))
            .with_scale(Vec3::new(0.4, 1.7, 1.0)),
    ];
    // (polygon, local vertices, whether it moves with its discs)
    let mut polygons = Vec::new();
    for local in &shapes {
        let polygon = (
            PolygonCollider::new(local.clone()),
            CollisionLayers::new(POLYGON, DISC),
        );
        for placement in placements {
            let entity = app.world_mut().spawn((polygon.clone(), placement)).id();
            polygons.push((entity, local.clone(), false));
        }
        // Sheared: turned inside a parent scaled unevenly.
        let parent = app
            .world_mut()
            .spawn(Transform::from_xyz(100.0, 100.0, 0.0).with_scale(Vec3::new(3.0, 0.8, 1.0)))
            .id();
        let child = app
            .world_mut()
            .spawn((
                polygon.clone(),
                Transform::from_rotation(Quat::from_rotation_z(0.5)),
            ))
            .id();
        app.world_mut().entity_mut(parent).add_child(child);
        polygons.push((child, local.clone(), false));
        // Swept, and moved with its discs in the frame checked: no relative motion, so each
        // pair's contact is where the two are now.
        let swept = app
            .world_mut()
            .spawn((
                polygon,
                Swept::default(),
                Transform::from_xyz(-400.0, 50.0, 0.0),
            ))
            .id();
        polygons.push((swept, local.clone(), true));
    }
    // Place the discs once the polygons' world transforms are known.
    app.update();
    let mut discs = Vec::new();
    for &(polygon, ref local, moves) in &polygons {
        let transform = *app.world().get::<GlobalTransform>(polygon).unwrap();
        let place = |p: Vec2| transform.transform_point(p.extend(0.0)).truncate();
        let world: Vec<Vec2> = local.iter().map(|&p| place(p)).collect();
        let (low, high) = world.iter().fold((world[0], world[0]), |(low, high), &p| {
            (low.min(p), high.max(p))
        });
        let center = (low + high) / 2.0;
        let reach = world.iter().map(|p| p.distance(center)).fold(0.0, f32::max);
        let inner = world
            .iter()
            .map(|p| p.distance(center))
            .fold(f32::MAX, f32::min);
        for _ in 0..per_polygon {
            let offset = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU))
                * reach
                * rng.random_range(0.0..1.2);
            let radius = inner.min(reach * 0.3) * rng.random_range(0.005..1.0);
            let mut disc = app.world_mut().spawn((
                CircleCollider::new(radius),
                CollisionLayers::new(DISC, POLYGON),
                Transform::from_translation((center + offset).extend(0.0)),
            ));
            if moves {
                disc.insert(Swept::default());
            }
            discs.push((disc.id(), polygon, moves));
        }
    }
    // The swept ones' first run: where their paths start.
    app.update();
    for &(entity, _, moves) in &polygons {
        if moves {
            app.world_mut()
                .get_mut::<Transform>(entity)
                .unwrap()
                .translation += MOVE;
        }
    }
    for &(disc, _, moves) in &discs {
        if moves {
            app.world_mut()
                .get_mut::<Transform>(disc)
                .unwrap()
                .translation += MOVE;
        }
    }
    app.update();
    let world_polygon = |polygon: Entity| -> Vec<Vec2> {
        let transform = app.world().get::<GlobalTransform>(polygon).unwrap();
        let local = &polygons.iter().find(|p| p.0 == polygon).unwrap().1;
        local
            .iter()
            .map(|&p| transform.transform_point(p.extend(0.0)).truncate())
            .collect()
    };
    let contacts = app.world().resource::<Contacts>();
    let (mut inside, mut crossing) = (0, 0);
    for &(disc, polygon, _) in &discs {
        let world = world_polygon(polygon);
        let center = app
            .world()
            .get::<GlobalTransform>(disc)
            .unwrap()
            .translation();
        let radius = app.world().get::<CircleCollider>(disc).unwrap().radius();
        let world_disc = Circle::new(center.truncate(), radius);
        let expected = geometry::intersect(Shape::Polygon(&world), Shape::Circle(world_disc));
        let found = contacts.get(disc, polygon);
        assert_eq!(
            found.is_some(),
            expected.is_some(),
            "{world_disc:?} by {world:?}"
        );
        let (Some(found), Some(expected)) = (found, expected) else {
            continue;
        };
        // The contact's sides are in entity order: turn the expectation round if the disc is
        // `a`.
        let expected = if found.a == polygon {
            expected
        } else {
            expected.mirrored()
        };
        assert_eq!(
            found.containment, expected.containment,
            "{world_disc:?} by {world:?}"
        );
        assert_eq!(
            found.points.len(),
            expected.points.len(),
            "{world_disc:?} by {world:?}"
        );
        for (point, want) in found.points.iter().zip(&expected.points) {
            assert!(point.distance(*want) <= 1e-3 * (1.0 + want.abs().max_element()));
        }
        if found.points.is_empty() {
            inside += 1;
        } else {
            crossing += 1;
        }
    }
    assert!(
        inside > 1000 && crossing > 1000,
        "{inside} inside, {crossing} crossing"
    );
}
