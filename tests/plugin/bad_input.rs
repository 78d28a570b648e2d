//! Bad input: clear errors from `try_` constructors, and at run time a skipped entity (with a
//! warning), never a panic, never NaN, and other entities unaffected.

use crate::common::{app, contact_between, good_pair, last_frame};
use bevy::ecs::schedule::ScheduleLabel;
use bevy::math::primitives::{
    Circle, ConvexPolygon, Polygon, Rectangle, RegularPolygon, Rhombus, Segment2d, Triangle2d,
};
use bevy::prelude::*;
use bevy_collision_events::geometry::MAX_COORDINATE;
use bevy_collision_events::prelude::*;

#[test]
fn circle_radius_errors() {
    for bad in [-1.0, f32::NAN, f32::INFINITY, 1e30] {
        assert!(matches!(
            CircleCollider::try_new(bad),
            Err(ColliderError::InvalidRadius(_))
        ));
    }
    assert!(CircleCollider::try_new(0.0).is_ok());
    assert!(matches!(
        CircleCollider::new(1.0).try_with_offset(Vec2::new(f32::NAN, 0.0)),
        Err(ColliderError::InvalidPoint { index: 0, .. })
    ));
}

#[test]
#[should_panic(expected = "radius")]
fn circle_new_panics_on_a_negative_radius() {
    let _ = CircleCollider::new(-2.0);
}

#[test]
fn segment_point_errors() {
    assert!(matches!(
        SegmentCollider::try_new(Vec2::ZERO, Vec2::new(1.0, f32::INFINITY)),
        Err(ColliderError::InvalidPoint { index: 1, .. })
    ));
    assert!(matches!(
        SegmentCollider::try_new(Vec2::NAN, Vec2::ZERO),
        Err(ColliderError::InvalidPoint { index: 0, .. })
    ));
    // A zero-length segment is a point: allowed.
    assert!(SegmentCollider::try_new(Vec2::ONE, Vec2::ONE).is_ok());
}

#[test]
fn polygon_errors() {
    let v = Vec2::new;
    assert_eq!(
        PolygonCollider::try_new(vec![v(0.0, 0.0), v(1.0, 0.0)]),
        Err(ColliderError::TooFewVertices(2))
    );
    assert_eq!(
        PolygonCollider::try_new(Vec::<Vec2>::new()),
        Err(ColliderError::TooFewVertices(0))
    );
    // Repeated vertices do not count twice.
    assert_eq!(
        PolygonCollider::try_new(vec![v(0.0, 0.0), v(1.0, 0.0), v(1.0, 0.0), v(0.0, 0.0)]),
        Err(ColliderError::TooFewVertices(2))
    );
    assert_eq!(
        PolygonCollider::try_new(vec![v(0.0, 0.0), v(1.0, 1.0), v(2.0, 2.0), v(3.0, 3.0)]),
        Err(ColliderError::ZeroArea)
    );
    assert!(matches!(
        PolygonCollider::try_new(vec![v(0.0, 0.0), v(1.0, f32::NAN), v(2.0, 0.0)]),
        Err(ColliderError::InvalidPoint { index: 1, .. })
    ));
    // A bow tie, and a loop whose last edge crosses its first.
    assert_eq!(
        PolygonCollider::try_new(vec![v(0.0, 0.0), v(1.0, 1.0), v(1.0, 0.0), v(0.0, 1.0)]),
        Err(ColliderError::SelfIntersecting(0, 2))
    );
    assert!(matches!(
        PolygonCollider::try_new(vec![
            v(0.0, 0.0),
            v(4.0, 0.0),
            v(4.0, 4.0),
            v(2.0, -1.0),
            v(0.0, 4.0)
        ]),
        Err(ColliderError::SelfIntersecting(..))
    ));
    // An edge folding back over its neighbour.
    assert!(matches!(
        PolygonCollider::try_new(vec![v(0.0, 0.0), v(4.0, 0.0), v(2.0, 0.0), v(2.0, 3.0)]),
        Err(ColliderError::SelfIntersecting(..))
    ));
    // A closing vertex repeating the first is dropped; a concave polygon is fine.
    let arrow = PolygonCollider::try_new(vec![
        v(0.0, 2.0),
        v(1.0, -1.0),
        v(0.0, 0.0),
        v(-1.0, -1.0),
        v(0.0, 2.0),
    ])
    .unwrap();
    assert_eq!(arrow.vertices().len(), 4);
}

#[test]
fn conversions_from_bevy_math_primitives() {
    let circle = CircleCollider::try_from(Circle::new(3.0)).unwrap();
    assert_eq!(circle.radius(), 3.0);
    assert!(CircleCollider::try_from(Circle::new(-3.0)).is_err());
    assert_eq!(Circle::from(&circle), Circle::new(3.0));

    let segment =
        SegmentCollider::try_from(Segment2d::new(Vec2::ZERO, Vec2::new(3.0, 4.0))).unwrap();
    assert_eq!(segment.length(), 5.0);
    assert_eq!(
        Segment2d::from(&segment),
        Segment2d::new(Vec2::ZERO, Vec2::new(3.0, 4.0))
    );

    let square = [
        Vec2::ZERO,
        Vec2::new(1.0, 0.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(0.0, 1.0),
    ];
    let polygon = PolygonCollider::try_from(Polygon::new(square)).unwrap();
    assert_eq!(polygon.vertices(), square);
    assert_eq!(Polygon::from(&polygon).vertices, square.to_vec());
    let convex = PolygonCollider::try_from(ConvexPolygon::new(square).unwrap()).unwrap();
    assert_eq!(convex.vertices(), square);
    let bow_tie = Polygon::new([
        Vec2::ZERO,
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(0.0, 1.0),
    ]);
    assert!(PolygonCollider::try_from(bow_tie).is_err());
}

/// Whether the polygon's vertices are `expected` as a set (in any order, within 1e-5).
fn has_vertices(polygon: &PolygonCollider, expected: &[Vec2]) -> bool {
    polygon.vertices().len() == expected.len()
        && expected
            .iter()
            .all(|e| polygon.vertices().iter().any(|v| v.abs_diff_eq(*e, 1e-5)))
}

#[test]
fn conversions_from_bevy_math_shapes_with_corners() {
    let rectangle = PolygonCollider::try_from(Rectangle::new(4.0, 2.0)).unwrap();
    let corners = [(-2.0, -1.0), (2.0, -1.0), (2.0, 1.0), (-2.0, 1.0)].map(Vec2::from);
    assert!(has_vertices(&rectangle, &corners));
    assert!(PolygonCollider::try_from(Rectangle::new(0.0, 2.0)).is_err());
    // As `try_rectangle` and `try_regular`: no negative sizes, no count beyond `MAX_SIDES`
    // (which would have been allocated before any check).
    assert_eq!(
        PolygonCollider::try_from(Rectangle::new(-4.0, 2.0)),
        Err(ColliderError::InvalidSide(-4.0))
    );
    assert_eq!(
        PolygonCollider::try_from(Rhombus::new(-4.0, 2.0)),
        Err(ColliderError::InvalidSide(-4.0))
    );
    assert_eq!(
        PolygonCollider::try_rectangle(2.0, -4.0),
        Err(ColliderError::InvalidSide(-4.0))
    );
    assert_eq!(
        PolygonCollider::try_rectangle(f32::INFINITY, 1.0),
        Err(ColliderError::InvalidSide(f32::INFINITY))
    );
    assert!(matches!(
        PolygonCollider::try_rectangle(f32::NAN, 1.0),
        Err(ColliderError::InvalidSide(side)) if side.is_nan()
    ));
    let mut inside_out = RegularPolygon::new(2.0, 6);
    inside_out.circumcircle.radius = -2.0;
    assert_eq!(
        PolygonCollider::try_from(inside_out),
        Err(ColliderError::InvalidRadius(-2.0))
    );
    assert_eq!(
        PolygonCollider::try_from(RegularPolygon::new(2.0, u32::MAX)),
        Err(ColliderError::TooManySides(u32::MAX as usize))
    );
    assert_eq!(
        PolygonCollider::try_regular(1.0, usize::MAX),
        Err(ColliderError::TooManySides(usize::MAX))
    );
    assert!(PolygonCollider::try_regular(1.0, PolygonCollider::MAX_SIDES).is_ok());

    let hexagon = PolygonCollider::try_from(RegularPolygon::new(2.0, 6)).unwrap();
    assert_eq!(hexagon.vertices().len(), 6);
    assert!(
        hexagon.vertices()[0].abs_diff_eq(Vec2::new(0.0, 2.0), 1e-5),
        "top first"
    );
    assert!(
        hexagon
            .vertices()
            .iter()
            .all(|v| (v.length() - 2.0).abs() < 1e-5)
    );

    let triangle = Triangle2d::new(Vec2::ZERO, Vec2::new(3.0, 0.0), Vec2::new(0.0, 3.0));
    let collider = PolygonCollider::try_from(triangle).unwrap();
    assert_eq!(collider.vertices(), triangle.vertices);
    let flat = Triangle2d::new(Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0));
    assert_eq!(
        PolygonCollider::try_from(flat),
        Err(ColliderError::ZeroArea)
    );

    let rhombus = PolygonCollider::try_from(Rhombus::new(4.0, 2.0)).unwrap();
    let tips = [(2.0, 0.0), (0.0, 1.0), (-2.0, 0.0), (0.0, -1.0)].map(Vec2::from);
    assert!(has_vertices(&rhombus, &tips));
}

#[test]
fn non_finite_transforms_are_skipped_without_panic() {
    let mut app = app();
    let (a, b) = good_pair(&mut app);
    let bad_transforms = [
        Transform::from_xyz(f32::NAN, 0.0, 0.0),
        Transform::from_xyz(f32::INFINITY, 0.0, 0.0),
        Transform::from_rotation(Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)),
        Transform::from_scale(Vec3::new(f32::NAN, 1.0, 1.0)),
    ];
    let mut bad = Vec::new();
    for transform in bad_transforms {
        bad.push(
            app.world_mut()
                .spawn((CircleCollider::new(5.0), transform))
                .id(),
        );
        bad.push(
            app.world_mut()
                .spawn((SegmentCollider::new(Vec2::ZERO, Vec2::X), transform))
                .id(),
        );
        bad.push(
            app.world_mut()
                .spawn((PolygonCollider::regular(3.0, 5), transform))
                .id(),
        );
    }
    for _ in 0..3 {
        app.update();
        assert!(
            contact_between(&app, a, b).is_some(),
            "good pair unaffected"
        );
        for contact in last_frame::<Contact>(&app) {
            assert!(!bad.contains(&contact.a) && !bad.contains(&contact.b));
            assert!(contact.points.iter().all(|p| p.is_finite()));
        }
    }
    // Once fixed, a skipped collider takes part again.
    app.world_mut()
        .entity_mut(bad[0])
        .insert(Transform::default());
    app.update();
    assert!(contact_between(&app, a, bad[0]).is_some());
}

#[test]
fn zero_scale_colliders_are_skipped() {
    let mut app = app();
    let (a, b) = good_pair(&mut app);
    let flat = app
        .world_mut()
        .spawn((
            PolygonCollider::regular(3.0, 5),
            Transform::from_scale(Vec3::new(1.0, 0.0, 1.0)),
        ))
        .id();
    let vanished = app
        .world_mut()
        .spawn((CircleCollider::new(5.0), Transform::from_scale(Vec3::ZERO)))
        .id();
    // Parents flattened onto a line, and children turned under them: their axes lie along one
    // line (exactly, under a parent flattened onto the x axis; a hair apart after rounding,
    // under one turned as well), and they are flattened as surely (a circle would otherwise
    // keep its radius).
    let turned = Transform::from_rotation(Quat::from_rotation_z(0.8));
    let flattened = Vec3::new(1.0, 0.0, 1.0);
    let flat_parents = [
        Transform::from_scale(flattened),
        Transform::from_rotation(Quat::from_rotation_z(0.5)).with_scale(flattened),
    ]
    .map(|parent| app.world_mut().spawn(parent).id());
    let mut children = Vec::new();
    for flat_parent in flat_parents {
        let world = app.world_mut();
        let circle = (CircleCollider::new(3.0), turned, ChildOf(flat_parent));
        children.push(world.spawn(circle).id());
        let polygon = (
            PolygonCollider::regular(3.0, 5),
            turned,
            ChildOf(flat_parent),
        );
        children.push(world.spawn(polygon).id());
    }
    app.update();
    assert!(contact_between(&app, a, b).is_some());
    assert_eq!(contact_between(&app, a, flat), None);
    assert_eq!(contact_between(&app, a, vanished), None);
    for &child in &children {
        assert_eq!(contact_between(&app, a, child), None);
    }
    // Unflattened, they are placed.
    for flat_parent in flat_parents {
        app.world_mut()
            .entity_mut(flat_parent)
            .insert(Transform::default());
    }
    app.update();
    for child in children {
        assert!(contact_between(&app, a, child).is_some());
    }
}

#[test]
fn colliders_scaled_out_of_range_are_skipped_and_hide_nothing() {
    // Bullets on the same layers as the huge ones, so that they share a broad-phase group: a
    // group's grid with an infinite or NaN body in it would lose every pair.
    let mut app = app();
    let pair = |app: &mut App, x: f32| {
        let spawn = |app: &mut App, at: f32| {
            app.world_mut()
                .spawn((CircleCollider::new(2.0), Transform::from_xyz(at, 0.0, 0.0)))
                .id()
        };
        (spawn(app, x), spawn(app, x + 3.0))
    };
    let pairs: Vec<(Entity, Entity)> = (0..20).map(|i| pair(&mut app, 100.0 * i as f32)).collect();
    let huge = [
        // A world radius of 1e30, beyond the range the geometry is meant for.
        Transform::from_scale(Vec3::splat(1e29)),
        // A world radius that overflows to infinity.
        Transform::from_scale(Vec3::splat(1e38)),
        // Far away, beyond the range.
        Transform::from_xyz(1e30, 0.0, 0.0),
    ];
    let mut skipped = Vec::new();
    for transform in huge {
        skipped.push(
            app.world_mut()
                .spawn((CircleCollider::new(10.0), transform))
                .id(),
        );
        skipped.push(
            app.world_mut()
                .spawn((PolygonCollider::regular(10.0, 5), transform))
                .id(),
        );
        skipped.push(
            app.world_mut()
                .spawn((SegmentCollider::new(Vec2::ZERO, Vec2::X * 10.0), transform))
                .id(),
        );
    }
    app.update();
    for (a, b) in pairs {
        assert!(
            contact_between(&app, a, b).is_some(),
            "a pair of the group lost"
        );
    }
    for contact in last_frame::<Contact>(&app) {
        assert!(!skipped.contains(&contact.a) && !skipped.contains(&contact.b));
    }
}

#[test]
fn a_polygon_reaching_past_the_range_is_skipped() {
    // Its centre and bounding radius are within the range, its vertices are not: it is
    // skipped, and meets nothing, like the disc deep inside it would have said otherwise.
    let mut app = app();
    let centre = 0.9 * MAX_COORDINATE;
    let polygon = app
        .world_mut()
        .spawn((
            PolygonCollider::regular(0.5 * MAX_COORDINATE, 8),
            Transform::from_xyz(centre, 0.0, 0.0),
        ))
        .id();
    let inside = app
        .world_mut()
        .spawn((
            CircleCollider::new(1.0),
            Transform::from_xyz(centre, 0.0, 0.0),
        ))
        .id();
    let (a, b) = (
        app.world_mut()
            .spawn((CircleCollider::new(2.0), Transform::default()))
            .id(),
        app.world_mut()
            .spawn((CircleCollider::new(2.0), Transform::from_xyz(3.0, 0.0, 0.0)))
            .id(),
    );
    app.update();
    assert_eq!(contact_between(&app, polygon, inside), None);
    assert!(contact_between(&app, a, b).is_some());
}

#[test]
fn huge_regular_polygons_have_finite_bounds() {
    // Their bounding circles once overflowed from about 4.5e12 (and panicked in debug builds).
    for circumradius in [5e12, 1e13, 3.764_646e16, 1e18] {
        let polygon = PolygonCollider::try_regular(circumradius, 3).expect("in range");
        let bounds = polygon.local_bounding_circle().expect("valid");
        assert!(
            bounds.center.is_finite() && bounds.radius().is_finite(),
            "{circumradius}: {bounds:?}"
        );
        let primitive = RegularPolygon::new(circumradius, 3);
        assert!(
            PolygonCollider::try_from(primitive).is_ok(),
            "{circumradius}"
        );
    }
}

/// An entity with two collider kinds uses one, the polygon before the segment before the
/// circle: a probe that only that one reaches touches the entity, once, and one that only the
/// other reaches does not.
#[test]
fn an_entity_with_two_collider_kinds_uses_one() {
    let mut app = app();
    let probe = |app: &mut App, x: f32| {
        let probe = (CircleCollider::new(1.0), Transform::from_xyz(x, 0.0, 0.0));
        app.world_mut().spawn(probe).id()
    };
    // A diamond reaching 10 to the right, beside a circle of radius 1.
    let polygon_and_circle = app
        .world_mut()
        .spawn((
            CircleCollider::new(1.0),
            PolygonCollider::regular(10.0, 4),
            Transform::from_xyz(100.0, 0.0, 0.0),
        ))
        .id();
    let beyond_the_circle = probe(&mut app, 108.0);
    // A segment 10 long to the right, beside a circle of radius 1.
    let segment_and_circle = app
        .world_mut()
        .spawn((
            CircleCollider::new(1.0),
            SegmentCollider::new(Vec2::ZERO, Vec2::new(10.0, 0.0)),
            Transform::from_xyz(200.0, 0.0, 0.0),
        ))
        .id();
    let along_the_segment = probe(&mut app, 208.0);
    // A diamond reaching 10 up and down, and a segment 20 long to the right.
    let polygon_and_segment = app
        .world_mut()
        .spawn((
            PolygonCollider::regular(10.0, 4),
            SegmentCollider::new(Vec2::ZERO, Vec2::new(20.0, 0.0)),
            Transform::from_xyz(300.0, 0.0, 0.0),
        ))
        .id();
    let above_the_segment = app
        .world_mut()
        .spawn((
            CircleCollider::new(1.0),
            Transform::from_xyz(300.0, 8.0, 0.0),
        ))
        .id();
    let beyond_the_diamond = probe(&mut app, 318.0);
    app.update();
    let touches = |both, probe| {
        last_frame::<Contact>(&app)
            .into_iter()
            .filter(|c| c.involves(both) && c.involves(probe))
            .count()
    };
    for (both, probe) in [
        (polygon_and_circle, beyond_the_circle),
        (segment_and_circle, along_the_segment),
        (polygon_and_segment, above_the_segment),
    ] {
        assert_eq!(
            touches(both, probe),
            1,
            "{both}: the polygon, else the segment"
        );
    }
    assert_eq!(
        touches(polygon_and_segment, beyond_the_diamond),
        0,
        "the segment is not used beside a polygon"
    );
}

#[test]
fn without_transform_plugin_colliders_are_placed_by_their_global_transforms() {
    // No `TransformPlugin` (the plugin warns about it once): nothing panics, even in a fixed
    // schedule, and colliders whose `GlobalTransform` the game sets itself are where it says.
    for schedule in [PostUpdate.intern(), FixedPostUpdate.intern()] {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, CollisionPlugin::new(schedule)))
            // Frames of a fixed step each, so that the fixed schedule surely runs.
            .insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
                std::time::Duration::from_secs_f64(1.0 / 64.0),
            ));
        let at = |x: f32| GlobalTransform::from_translation(Vec3::new(x, 0.0, 0.0));
        let a = app
            .world_mut()
            .spawn((CircleCollider::new(2.0), at(100.0)))
            .id();
        let b = app
            .world_mut()
            .spawn((CircleCollider::new(2.0), at(103.0)))
            .id();
        let far = app
            .world_mut()
            .spawn((CircleCollider::new(2.0), at(-100.0)))
            .id();
        for _ in 0..3 {
            app.update();
        }
        let contacts = app.world().resource::<Contacts>();
        assert!(contacts.contains(a, b), "the pipeline ran in {schedule:?}");
        assert!(!contacts.contains(a, far) && !contacts.contains(b, far));
    }
}

/// A constructor that panics on bad input names the caller's line, not one inside the crate.
#[test]
fn panicking_constructors_report_the_callers_line() {
    use std::sync::{Arc, Mutex};
    let files = Arc::new(Mutex::new(Vec::new()));
    let test_thread = std::thread::current().id();
    let previous = std::panic::take_hook();
    let record = files.clone();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().id() == test_thread
            && let Some(location) = info.location()
        {
            record.lock().unwrap().push(location.file().to_owned());
        }
    }));
    let calls: [fn(); 7] = [
        || {
            let _ = CircleCollider::new(-1.0);
        },
        || {
            let _ = CircleCollider::new(1.0).with_offset(Vec2::NAN);
        },
        || {
            let _ = SegmentCollider::new(Vec2::NAN, Vec2::ZERO);
        },
        || {
            let _ = PolygonCollider::new(vec![Vec2::ZERO, Vec2::X]);
        },
        || {
            let _ = PolygonCollider::regular(1.0, 2);
        },
        || {
            let _ = PolygonCollider::rectangle(-1.0, 1.0);
        },
        || {
            let _ = LayerMask::layer(std::hint::black_box(40));
        },
    ];
    let panicked = calls
        .into_iter()
        .filter(|&call| std::panic::catch_unwind(call).is_err())
        .count();
    std::panic::set_hook(previous);
    assert_eq!(panicked, 7);
    let files = files.lock().unwrap();
    assert_eq!(files.len(), 7, "{files:?}");
    assert!(
        files.iter().all(|file| file.ends_with("bad_input.rs")),
        "{files:?}"
    );
}

/// Whether a sliver has area enough is the same whichever vertex it starts from: a triangle
/// 1,000 long and 5 × 10⁻⁴ high (a two-millionth of its length) is refused from each of its
/// corners, one 2 × 10⁻³ high taken from each; as is the rectangle of the same area, and a
/// concave sliver from any of its corners.
#[test]
fn a_sliver_s_verdict_does_not_hang_on_its_first_vertex() {
    for (height, valid) in [(5e-4, false), (2e-3, true)] {
        let mut triangle = vec![Vec2::ZERO, Vec2::new(1000.0, 0.0), Vec2::new(500.0, height)];
        for _ in 0..3 {
            let result = PolygonCollider::try_new(triangle.clone());
            match valid {
                true => assert!(result.is_ok(), "{triangle:?}: {result:?}"),
                false => assert_eq!(result, Err(ColliderError::ZeroArea), "{triangle:?}"),
            }
            triangle.rotate_left(1);
        }
        assert_eq!(
            PolygonCollider::try_rectangle(1000.0, height / 2.0).is_ok(),
            valid,
            "{height}"
        );
    }
    // A thin L, 1,000 along each arm: from an arm's tip vertex 0 does not see the other arm,
    // and the fan from it counts the corner's pocket again; its own area decides.
    for (thickness, valid) in [(1e-4, false), (1e-3, true)] {
        let mut l_shape = [(0.0, 0.0), (1000.0, 0.0), (1000.0, thickness)]
            .into_iter()
            .chain([(thickness, thickness), (thickness, 1000.0), (0.0, 1000.0)])
            .map(Vec2::from)
            .collect::<Vec<_>>();
        for _ in 0..l_shape.len() {
            let result = PolygonCollider::try_new(l_shape.clone());
            match valid {
                true => assert!(result.is_ok(), "{l_shape:?}: {result:?}"),
                false => assert_eq!(result, Err(ColliderError::ZeroArea), "{l_shape:?}"),
            }
            l_shape.rotate_left(1);
        }
    }
}
