//! `avian2d` 0.7 as an event detector: kinematic bodies (moved by their transforms), sensors,
//! collision events enabled, no gravity, stepping once per frame in `PostUpdate`.
//!
//! Concave polygons become a compound of the triangles that tile them, so avian tests the
//! same solid region as the other engines.

use avian2d::prelude as avian;
use bevy::prelude::*;

use crate::scene::{BodyId, Layers};
use crate::shape::{Shape, is_convex, triangulate};
use crate::started::{Frame, StartedPairs};

pub fn install(app: &mut App) {
    app.add_plugins(avian::PhysicsPlugins::new(PostUpdate).with_length_unit(100.0))
        .insert_resource(avian::Gravity(Vec2::ZERO))
        .add_systems(Last, count_starts);
}

pub fn insert_collider(entity: &mut EntityCommands, shape: &Shape, layers: Layers) {
    entity.insert((
        avian::RigidBody::Kinematic,
        avian::Sensor,
        avian::CollisionEventsEnabled,
        avian::CollisionLayers::from_bits(layers.memberships, layers.filters),
        collider(shape),
    ));
}

fn collider(shape: &Shape) -> avian::Collider {
    match shape {
        Shape::Circle(radius) => avian::Collider::circle(*radius),
        Shape::Segment(a, b) => avian::Collider::segment(*a, *b),
        Shape::Polygon(vertices) if is_convex(vertices) => {
            avian::Collider::convex_hull(vertices.clone()).expect("a convex polygon has a hull")
        }
        Shape::Polygon(vertices) => avian::Collider::compound(
            triangulate(vertices)
                .into_iter()
                .map(|[a, b, c]| {
                    (
                        Vec2::ZERO,
                        avian::Rotation::IDENTITY,
                        avian::Collider::triangle(a, b, c),
                    )
                })
                .collect(),
        ),
    }
}

fn count_starts(
    mut started: MessageReader<avian::CollisionStart>,
    ids: Query<&BodyId>,
    frame: Res<Frame>,
    mut pairs: ResMut<StartedPairs>,
) {
    for event in started.read() {
        if let Ok([a, b]) = ids.get_many([event.collider1, event.collider2]) {
            pairs.record(&frame, *a, *b);
        }
    }
}
