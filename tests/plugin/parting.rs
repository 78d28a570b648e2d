//! A swept pair that parts and meets again. Within one run (a bullet leaving one arm of a
//! concave polygon and crossing another) the contact goes on, with the second touch as its
//! impact, and ends once they are apart all along a run. Across two runs in a row (a bullet
//! through a wall, then straight back) it is one contact, with an impact in each run.

use crate::common::{app, contact_between, last_frame};
use bevy::prelude::*;
use bevy_collision_events::prelude::*;

const BULLET_RADIUS: f32 = 2.0;

/// A U 40 wide and 50 high: arms 10 thick (x in 0..10 and 30..40), a base 10 thick.
fn u_shape() -> PolygonCollider {
    PolygonCollider::new([
        Vec2::new(0.0, 0.0),
        Vec2::new(40.0, 0.0),
        Vec2::new(40.0, 50.0),
        Vec2::new(30.0, 50.0),
        Vec2::new(30.0, 10.0),
        Vec2::new(10.0, 10.0),
        Vec2::new(10.0, 50.0),
        Vec2::new(0.0, 50.0),
    ])
}

/// A U at the origin and a swept bullet in its left arm, at (5, 30), both placed by a first
/// run, in contact; `swept_u` sweeps the U instead of the bullet.
fn bullet_in_the_left_arm(swept_u: bool) -> (App, Entity, Entity) {
    let mut app = app();
    let u = app
        .world_mut()
        .spawn((u_shape(), Transform::default()))
        .id();
    let bullet = swept_bullet(&mut app, Vec2::new(5.0, 30.0));
    if swept_u {
        app.world_mut().entity_mut(bullet).remove::<Swept>();
        app.world_mut().entity_mut(u).insert(Swept::default());
    }
    app.update();
    assert!(contact_between(&app, bullet, u).is_some());
    assert_eq!(last_frame::<ContactStarted>(&app).len(), 1);
    (app, bullet, u)
}

/// A swept bullet at `at`.
fn swept_bullet(app: &mut App, at: Vec2) -> Entity {
    let bullet = (
        CircleCollider::new(BULLET_RADIUS),
        Swept::default(),
        Transform::from_translation(at.extend(0.0)),
    );
    app.world_mut().spawn(bullet).id()
}

/// Moves `entity` to `x`, along the x axis.
fn move_to(app: &mut App, entity: Entity, x: f32) {
    let mut entity = app.world_mut().entity_mut(entity);
    entity.get_mut::<Transform>().unwrap().translation.x = x;
}

#[test]
fn a_bullet_through_both_arms_of_a_u_stays_in_contact() {
    for swept_u in [false, true] {
        let (mut app, bullet, u) = bullet_in_the_left_arm(swept_u);
        // From x = 5 to 50 (or the U from 0 to −45): out of the left arm once its centre
        // passes x = 12, into the right one at x = 28, out beyond it at 42.
        let u_x = if swept_u {
            move_to(&mut app, u, -45.0);
            -45.0
        } else {
            move_to(&mut app, bullet, 50.0);
            0.0
        };
        app.update();
        let contact = contact_between(&app, bullet, u).expect("crossed the right arm");
        // Where the bullet met the right arm's inner side (in the U's place at the end of the
        // run, for a moving U: the point is where they touched, then).
        let met_at = if swept_u {
            Vec2::new(30.0 - 45.0 * 23.0 / 45.0, 30.0)
        } else {
            Vec2::new(30.0, 30.0)
        };
        assert_eq!(contact.points.len(), 1, "swept U: {swept_u}");
        assert!(
            contact.points[0].abs_diff_eq(met_at, 1e-3),
            "{:?}, U at {u_x}",
            contact.points
        );
        // The second touch is its impact: 23/45 of the way, the right arm's inner side facing
        // the bullet.
        let impact = contact.impact.expect("met again");
        assert!((impact.time - 23.0 / 45.0).abs() < 1e-5, "{impact:?}");
        assert!(impact.point.abs_diff_eq(met_at, 1e-3), "{impact:?}");
        let normal = contact.impact_normal(bullet).unwrap();
        assert!(normal.abs_diff_eq(Vec2::NEG_X, 1e-5), "{normal}");
        assert!(last_frame::<ContactEnded>(&app).is_empty());
        assert!(last_frame::<ContactStarted>(&app).is_empty());
        // Still where it is: apart all run.
        app.update();
        assert!(contact_between(&app, bullet, u).is_none());
        assert_eq!(last_frame::<ContactEnded>(&app).len(), 1);
    }
}

#[test]
fn a_bullet_that_stops_between_the_arms_ends_its_contact() {
    let (mut app, bullet, u) = bullet_in_the_left_arm(false);
    move_to(&mut app, bullet, 20.0);
    app.update();
    assert!(contact_between(&app, bullet, u).is_none());
    assert_eq!(last_frame::<ContactEnded>(&app).len(), 1);
}

#[test]
fn a_bullet_through_a_wall_and_straight_back_is_one_contact_with_two_impacts() {
    let mut app = app();
    let wall = app
        .world_mut()
        .spawn((
            SegmentCollider::new(Vec2::new(0.0, -50.0), Vec2::new(0.0, 50.0)),
            Transform::default(),
        ))
        .id();
    let bullet = swept_bullet(&mut app, Vec2::new(-20.0, 0.0));
    app.update();
    // Through the wall, apart beyond it: the contact starts, with its impact.
    move_to(&mut app, bullet, 20.0);
    app.update();
    assert!(
        contact_between(&app, bullet, wall)
            .unwrap()
            .impact
            .is_some()
    );
    assert_eq!(last_frame::<ContactStarted>(&app).len(), 1);
    // Turned round, straight back through it: in contact two runs in a row, one contact,
    // whose impact says they met anew.
    move_to(&mut app, bullet, -20.0);
    app.update();
    let back = contact_between(&app, bullet, wall).expect("back through the wall");
    let impact = back.impact.expect("apart where the path starts");
    assert!(impact.point.abs_diff_eq(Vec2::ZERO, 1e-3), "{impact:?}");
    let normal = back.impact_normal(bullet).unwrap();
    assert!(normal.abs_diff_eq(Vec2::X, 1e-5), "{normal}");
    assert!(last_frame::<ContactStarted>(&app).is_empty());
    assert!(last_frame::<ContactEnded>(&app).is_empty());
    // Still, apart all run: it ends.
    app.update();
    assert_eq!(last_frame::<ContactEnded>(&app).len(), 1);
}

#[test]
fn a_bullet_that_ends_inside_the_other_arm_has_the_second_touch_as_its_impact() {
    let mut app = app();
    // A U with a thick base, whose middle it holds: x in 0..40, the base y in 0..60, the arms
    // x in 0..10 and 30..40 up to y = 100.
    let u = app
        .world_mut()
        .spawn((
            PolygonCollider::new([
                Vec2::new(0.0, 0.0),
                Vec2::new(40.0, 0.0),
                Vec2::new(40.0, 100.0),
                Vec2::new(30.0, 100.0),
                Vec2::new(30.0, 60.0),
                Vec2::new(10.0, 60.0),
                Vec2::new(10.0, 100.0),
                Vec2::new(0.0, 100.0),
            ]),
            Transform::default(),
        ))
        .id();
    let bullet = swept_bullet(&mut app, Vec2::new(20.0, 50.0));
    app.update();
    assert!(contact_between(&app, bullet, u).is_some());
    // To (35, 80), inside the right arm: out of the base past y = 62, into the arm where its
    // centre reaches x = 28, 8/15 of the way, at (30, 66).
    let mut transform = app.world_mut().get_mut::<Transform>(bullet).unwrap();
    transform.translation = Vec3::new(35.0, 80.0, 0.0);
    app.update();
    let contact = contact_between(&app, bullet, u).expect("inside the arm");
    let impact = contact.impact.expect("met again");
    assert!((impact.time - 8.0 / 15.0).abs() < 1e-5, "{impact:?}");
    assert!(
        impact.point.abs_diff_eq(Vec2::new(30.0, 66.0), 1e-3),
        "{impact:?}"
    );
    assert!(last_frame::<ContactStarted>(&app).is_empty());
    assert!(last_frame::<ContactEnded>(&app).is_empty());
}
