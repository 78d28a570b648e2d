//! `bevy_collision_events`: every shape as it is, concave polygons included.

use bevy::prelude::*;
use bevy_collision_events::prelude::*;

use crate::scene::{BodyId, Layers};
use crate::shape::Shape;
use crate::started::{Frame, StartedPairs};

pub fn install(app: &mut App) {
    app.add_plugins(CollisionPlugin::default())
        .add_systems(Last, count_starts);
}

pub fn insert_collider(entity: &mut EntityCommands, shape: &Shape, layers: Layers) {
    entity.insert(CollisionLayers::new(
        LayerMask(layers.memberships),
        LayerMask(layers.filters),
    ));
    match shape {
        Shape::Circle(radius) => entity.insert(CircleCollider::new(*radius)),
        Shape::Segment(a, b) => entity.insert(SegmentCollider::new(*a, *b)),
        Shape::Polygon(vertices) => entity.insert(PolygonCollider::new(vertices.clone())),
    };
}

fn count_starts(
    mut started: MessageReader<ContactStarted>,
    ids: Query<&BodyId>,
    frame: Res<Frame>,
    mut pairs: ResMut<StartedPairs>,
) {
    for event in started.read() {
        if let Ok([a, b]) = ids.get_many([event.entity, event.other]) {
            pairs.record(&frame, *a, *b);
        }
    }
}
