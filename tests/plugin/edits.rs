//! Colliders edited in place through reflection (as an inspector or a scene file would): a
//! valid edit takes effect at once, an invalid one is skipped until it is mended.

use crate::common::{app, contact_between, last_frame};
use bevy::ecs::component::Mutable;
use bevy::prelude::*;
use bevy::reflect::{PartialReflect, ReflectMut};
use bevy_collision_events::prelude::*;

/// Sets `field` of `entity`'s `C` through reflection, bypassing every constructor.
fn set_field<C, T>(app: &mut App, entity: Entity, field: &str, value: T)
where
    C: Component<Mutability = Mutable> + Reflect,
    T: PartialReflect,
{
    let mut component = app.world_mut().get_mut::<C>(entity).unwrap();
    let ReflectMut::Struct(fields) = component.reflect_mut() else {
        panic!("a struct");
    };
    fields.field_mut(field).unwrap().apply(&value);
}

fn square(half: f32) -> Vec<Vec2> {
    vec![
        Vec2::new(-half, -half),
        Vec2::new(half, -half),
        Vec2::new(half, half),
        Vec2::new(-half, half),
    ]
}

/// The square of half-size `half`, its second and third corners swapped: it crosses itself.
fn bow_tie(half: f32) -> Vec<Vec2> {
    let mut vertices = square(half);
    vertices.swap(1, 2);
    vertices
}

/// A square of half-size 5 at the origin.
fn spawn_square(app: &mut App) -> Entity {
    app.world_mut()
        .spawn((PolygonCollider::new(square(5.0)), Transform::default()))
        .id()
}

/// An app with a square of half-size 5 around a small disc, touching after one update; returns
/// the app, the square and the disc.
fn square_around_a_disc() -> (App, Entity, Entity) {
    let mut app = app();
    let polygon = spawn_square(&mut app);
    let inside = app
        .world_mut()
        .spawn((CircleCollider::new(1.0), Transform::default()))
        .id();
    app.update();
    assert!(contact_between(&app, polygon, inside).is_some());
    (app, polygon, inside)
}

#[test]
fn a_circle_edited_to_a_bad_radius_is_skipped_until_mended() {
    let mut app = app();
    let edited = app
        .world_mut()
        .spawn((CircleCollider::new(5.0), Transform::default()))
        .id();
    let neighbour = app
        .world_mut()
        .spawn((CircleCollider::new(5.0), Transform::from_xyz(8.0, 0.0, 0.0)))
        .id();
    let (c, d) = (
        app.world_mut()
            .spawn((
                CircleCollider::new(1.0),
                Transform::from_xyz(100.0, 0.0, 0.0),
            ))
            .id(),
        app.world_mut()
            .spawn((
                CircleCollider::new(1.0),
                Transform::from_xyz(101.0, 0.0, 0.0),
            ))
            .id(),
    );
    app.update();
    assert!(contact_between(&app, edited, neighbour).is_some());
    set_field::<CircleCollider, f32>(&mut app, edited, "radius", f32::NAN);
    app.update();
    assert!(
        contact_between(&app, edited, neighbour).is_none(),
        "skipped"
    );
    assert_eq!(last_frame::<ContactEnded>(&app).len(), 1);
    assert!(
        contact_between(&app, c, d).is_some(),
        "the others are unaffected"
    );
    set_field::<CircleCollider, f32>(&mut app, edited, "radius", 3.5);
    app.update();
    // Radii 3.5 and 5, centres 8 apart: the circles cross at x = (64 + 12.25 − 25) / 16.
    let contact = contact_between(&app, edited, neighbour).expect("mended at once");
    assert_eq!(contact.points.len(), 2, "two crossings");
    assert!(
        contact
            .points
            .iter()
            .all(|p| (p.x - 3.203_125).abs() < 1e-3)
    );
}

#[test]
fn a_polygon_edit_takes_effect_with_its_new_bounds_at_once() {
    let mut app = app();
    let polygon = spawn_square(&mut app);
    // Only a square of half-size 30 reaches it; the small one's bounds never would.
    let far = app
        .world_mut()
        .spawn((
            CircleCollider::new(2.0),
            Transform::from_xyz(31.0, 0.0, 0.0),
        ))
        .id();
    app.update();
    assert!(contact_between(&app, polygon, far).is_none());
    set_field::<PolygonCollider, Vec<Vec2>>(&mut app, polygon, "vertices", square(30.0));
    app.update();
    let contact = contact_between(&app, polygon, far).expect("the bigger square reaches it");
    assert_eq!(contact.points.len(), 2, "two crossings");
    assert!(contact.points.iter().all(|p| (p.x - 30.0).abs() < 1e-3));
}

#[test]
fn a_polygon_edited_to_cross_itself_is_skipped_until_mended() {
    let (mut app, polygon, inside) = square_around_a_disc();
    set_field::<PolygonCollider, Vec<Vec2>>(&mut app, polygon, "vertices", bow_tie(5.0));
    app.update();
    assert!(contact_between(&app, polygon, inside).is_none(), "skipped");
    app.update();
    assert!(
        contact_between(&app, polygon, inside).is_none(),
        "still skipped"
    );
    set_field::<PolygonCollider, Vec<Vec2>>(&mut app, polygon, "vertices", square(5.0));
    app.update();
    assert!(
        contact_between(&app, polygon, inside).is_some(),
        "mended at once"
    );
}

#[test]
fn a_segment_edited_to_an_infinite_end_is_skipped() {
    let mut app = app();
    let segment = app
        .world_mut()
        .spawn((
            SegmentCollider::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0)),
            Transform::default(),
        ))
        .id();
    let disc = app
        .world_mut()
        .spawn((CircleCollider::new(1.0), Transform::default()))
        .id();
    app.update();
    assert!(contact_between(&app, segment, disc).is_some());
    set_field::<SegmentCollider, Vec2>(&mut app, segment, "b", Vec2::new(f32::INFINITY, 0.0));
    app.update();
    assert!(contact_between(&app, segment, disc).is_none());
}

#[test]
fn a_polygon_edited_while_switched_off_is_checked_when_switched_back_on() {
    let (mut app, polygon, inside) = square_around_a_disc();
    app.world_mut().entity_mut(polygon).insert(ColliderDisabled);
    app.update();
    set_field::<PolygonCollider, Vec<Vec2>>(&mut app, polygon, "vertices", bow_tie(5.0));
    app.update();
    app.world_mut()
        .entity_mut(polygon)
        .remove::<ColliderDisabled>();
    app.update();
    assert!(
        contact_between(&app, polygon, inside).is_none(),
        "the bow tie is skipped, not used with its old bounds"
    );
}

/// A polygon's local bounding circle follows an edit at once, before the pipeline has run:
/// none while the vertices cross themselves, the new square's once mended.
#[test]
fn a_polygon_s_bounding_circle_follows_an_edit_at_once() {
    let mut app = app();
    let polygon = spawn_square(&mut app);
    app.update();
    let circle = |app: &App| {
        let collider = app.world().get::<PolygonCollider>(polygon).unwrap();
        collider.local_bounding_circle()
    };
    set_field::<PolygonCollider, Vec<Vec2>>(&mut app, polygon, "vertices", bow_tie(5.0));
    assert_eq!(circle(&app), None, "a bow tie has no bounds");
    set_field::<PolygonCollider, Vec<Vec2>>(&mut app, polygon, "vertices", square(30.0));
    let radius = circle(&app).expect("a square").radius();
    assert!((radius - 30.0 * 2f32.sqrt()).abs() < 1e-3, "{radius}");
    app.update();
    assert_eq!(circle(&app).map(|circle| circle.radius()), Some(radius));
}

/// Components given through reflection, as a scene or an inspector gives them: each public
/// component is registered with its `ReflectComponent`, and a collider inserted so (a polygon,
/// with its layers and a sweep, onto a bare entity) is placed and meets what it touches.
#[test]
fn components_given_through_reflection_are_registered_and_placed() {
    use bevy::ecs::reflect::ReflectComponent;
    use core::any::TypeId;
    let mut app = app();
    let registry = app.world().resource::<AppTypeRegistry>().clone();
    let registry = registry.read();
    let components = [
        TypeId::of::<CircleCollider>(),
        TypeId::of::<SegmentCollider>(),
        TypeId::of::<PolygonCollider>(),
        TypeId::of::<CollisionLayers>(),
        TypeId::of::<ColliderDisabled>(),
        TypeId::of::<Swept>(),
        TypeId::of::<CollisionBody>(),
        TypeId::of::<FilterPairs>(),
        TypeId::of::<CollidingEntities>(),
    ];
    for id in components {
        let registered = registry.get_type_data::<ReflectComponent>(id);
        assert!(registered.is_some(), "{:?}", registry.get_type_info(id));
    }
    let other = app
        .world_mut()
        .spawn((CircleCollider::new(5.0), Transform::from_xyz(8.0, 0.0, 0.0)))
        .id();
    let target = app.world_mut().spawn(Transform::default()).id();
    let given: [&dyn PartialReflect; 3] = [
        &PolygonCollider::new(square(5.0)),
        &CollisionLayers::default(),
        &Swept::default(),
    ];
    let mut entity = app.world_mut().entity_mut(target);
    for component in given {
        let id = component.get_represented_type_info().unwrap().type_id();
        let reflected = registry.get_type_data::<ReflectComponent>(id).unwrap();
        reflected.insert(&mut entity, component, &registry);
    }
    assert!(entity.contains::<PolygonCollider>() && entity.contains::<Swept>());
    drop(registry);
    app.update();
    assert!(contact_between(&app, target, other).is_some());
}
