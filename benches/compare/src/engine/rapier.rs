//! `bevy_rapier2d` 0.36 as an event detector: colliders without rigid bodies (moved by their
//! transforms), sensors, collision events on, every body-type pair active, no gravity,
//! stepping once per frame in `PostUpdate`.
//!
//! Concave polygons become a compound of the triangles that tile them, so rapier tests the
//! same solid region as the other engines.

use bevy::prelude::*;
use bevy_rapier2d::prelude as rapier;

use crate::scene::{BodyId, Layers};
use crate::shape::{Shape, is_convex, triangulate};
use crate::started::{Frame, StartedPairs};

pub fn install(app: &mut App) {
    app.add_plugins(rapier::RapierPhysicsPlugin::<rapier::NoUserData>::pixels_per_meter(100.0))
        .add_systems(Startup, no_gravity)
        .add_systems(Last, count_starts);
}

/// Rapier keeps its configuration on the context entity it spawns in `PreStartup`.
fn no_gravity(mut configurations: Query<&mut rapier::RapierConfiguration>) {
    for mut configuration in &mut configurations {
        configuration.gravity = Vec2::ZERO;
    }
}

pub fn insert_collider(entity: &mut EntityCommands, shape: &Shape, layers: Layers) {
    entity.insert((
        rapier::Sensor,
        rapier::ActiveEvents::COLLISION_EVENTS,
        rapier::ActiveCollisionTypes::all(),
        rapier::CollisionGroups::new(
            rapier::Group::from_bits_truncate(layers.memberships),
            rapier::Group::from_bits_truncate(layers.filters),
        ),
        collider(shape),
    ));
}

fn collider(shape: &Shape) -> rapier::Collider {
    match shape {
        Shape::Circle(radius) => rapier::Collider::ball(*radius),
        Shape::Segment(a, b) => rapier::Collider::segment(*a, *b),
        Shape::Polygon(vertices) if is_convex(vertices) => {
            rapier::Collider::convex_hull(vertices).expect("a convex polygon has a hull")
        }
        Shape::Polygon(vertices) => rapier::Collider::compound(
            triangulate(vertices)
                .into_iter()
                .map(|[a, b, c]| (Vec2::ZERO, 0.0, rapier::Collider::triangle(a, b, c)))
                .collect(),
        ),
    }
}

fn count_starts(
    mut events: MessageReader<rapier::CollisionEvent>,
    ids: Query<&BodyId>,
    frame: Res<Frame>,
    mut pairs: ResMut<StartedPairs>,
) {
    for event in events.read() {
        if let rapier::CollisionEvent::Started(a, b, _) = event
            && let Ok([a, b]) = ids.get_many([*a, *b])
        {
            pairs.record(&frame, *a, *b);
        }
    }
}
