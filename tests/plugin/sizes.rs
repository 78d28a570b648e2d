//! The smallest and largest shapes: constructors refuse what the exact tests cannot resolve
//! (below `MIN_SIZE`, beyond `MAX_COORDINATE`), the pipeline skips colliders scaled past
//! either, and never one the constructor accepted, placed unscaled.

use crate::common::{app, contact_between, good_pair, last_frame};
use bevy::prelude::*;
use bevy_collision_events::geometry::{MAX_COORDINATE, MIN_SIZE};
use bevy_collision_events::prelude::*;
use core::f32::consts::FRAC_PI_4;

#[test]
fn shapes_smaller_than_min_size_are_refused() {
    let tiny = MIN_SIZE / 4.0;
    assert_eq!(
        CircleCollider::try_new(tiny),
        Err(ColliderError::TooSmall(tiny))
    );
    assert!(CircleCollider::try_new(MIN_SIZE).is_ok());
    assert!(matches!(
        SegmentCollider::try_new(Vec2::ZERO, Vec2::new(tiny, tiny)),
        Err(ColliderError::TooSmall(_))
    ));
    assert!(SegmentCollider::try_new(Vec2::ZERO, Vec2::new(MIN_SIZE, 0.0)).is_ok());
    // The sizes the issue found `regular` panicking on, and a polygon of MIN_SIZE.
    for size in [1e-30, 1e-22, tiny] {
        assert!(matches!(
            PolygonCollider::try_regular(size, 6),
            Err(ColliderError::TooSmall(_))
        ));
        assert!(matches!(
            PolygonCollider::try_rectangle(size, size),
            Err(ColliderError::TooSmall(_))
        ));
    }
    assert!(PolygonCollider::try_rectangle(MIN_SIZE, MIN_SIZE).is_ok());
}

#[test]
fn colliders_scaled_below_min_size_are_skipped_and_hide_nothing() {
    // Two tiny shapes of each kind apart by twice their size: too small for the tests, which
    // could report them touching. Skipped, and the good pair beside them unaffected; and so
    // a pixel from the origin, where the two land on the same point (the rounding margin of a
    // polygon's bound, which grows with the distance from the origin, does not count towards
    // its size).
    let mut app = app();
    let (a, b) = good_pair(&mut app);
    let shrink = Vec3::splat(1e-21);
    let tiny: Vec<Entity> = [0.0, 4e-20, 1.0, 1.0 + 4e-20]
        .into_iter()
        .flat_map(|x| {
            let transform = Transform::from_xyz(x, 0.0, 0.0).with_scale(shrink);
            [
                app.world_mut()
                    .spawn((CircleCollider::new(10.0), transform))
                    .id(),
                app.world_mut()
                    .spawn((PolygonCollider::regular(10.0, 5), transform))
                    .id(),
                app.world_mut()
                    .spawn((SegmentCollider::new(Vec2::ZERO, Vec2::X * 10.0), transform))
                    .id(),
            ]
        })
        .collect();
    app.update();
    assert!(contact_between(&app, a, b).is_some());
    for contact in last_frame::<Contact>(&app) {
        assert!(
            !tiny.contains(&contact.a) && !tiny.contains(&contact.b),
            "{contact:?}"
        );
    }
}

/// A segment of `MIN_SIZE`, which the constructor accepts, turned an eighth of a turn (its
/// sides along x and y are then shorter than `MIN_SIZE`): placed, and touching a small probe
/// at its end.
#[test]
fn a_segment_of_min_size_is_placed_whichever_way_it_turns() {
    let mut app = app();
    let segment = app
        .world_mut()
        .spawn((
            SegmentCollider::new(Vec2::ZERO, Vec2::new(MIN_SIZE, 0.0)),
            Transform::from_rotation(Quat::from_rotation_z(FRAC_PI_4)),
        ))
        .id();
    let probe = app
        .world_mut()
        .spawn((CircleCollider::new(10.0 * MIN_SIZE), Transform::default()))
        .id();
    app.update();
    assert!(contact_between(&app, segment, probe).is_some());
}

/// The largest polygons the constructors accept, placed unscaled at the origin: each holds a
/// small disc at its centre (their bounding circles, grown for rounding, reach a little past
/// the range, their vertices do not).
#[test]
fn the_largest_polygons_the_constructors_accept_are_placed() {
    let mut app = app();
    let probe = app
        .world_mut()
        .spawn((CircleCollider::new(1.0), Transform::default()))
        .id();
    let largest = [
        PolygonCollider::regular(MAX_COORDINATE, 8),
        PolygonCollider::rectangle(2.0 * MAX_COORDINATE, 2.0 * MAX_COORDINATE),
        PolygonCollider::new(vec![
            Vec2::new(-MAX_COORDINATE, -MAX_COORDINATE),
            Vec2::new(MAX_COORDINATE, -MAX_COORDINATE),
            Vec2::new(0.0, MAX_COORDINATE),
        ]),
    ]
    .map(|polygon| app.world_mut().spawn((polygon, Transform::default())).id());
    app.update();
    for polygon in largest {
        assert!(contact_between(&app, polygon, probe).is_some(), "{polygon}");
    }
}
