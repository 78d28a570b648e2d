//! `bevy_collision_events`: every shape as it is, concave polygons included; fast bodies
//! `Swept`, with `Swept::jump` on the frame they wrap.

use bevy::prelude::*;
use bevy_collision_events::prelude::*;

use crate::scene::{Body, BodyId, BodyKind, MoveBodies, Path};
use crate::shape::Shape;
use crate::started::Recorder;

pub fn install(app: &mut App) {
    app.add_plugins(CollisionPlugin::default())
        .add_systems(Update, jump_on_wrap.after(MoveBodies))
        .add_systems(Last, count_starts);
}

pub fn insert_collider(entity: &mut EntityCommands, body: &Body) {
    let layers = body.layers;
    entity.insert(CollisionLayers::new(
        LayerMask(layers.memberships),
        LayerMask(layers.filters),
    ));
    match &body.shape {
        Shape::Circle(radius) => entity.insert(CircleCollider::new(*radius)),
        Shape::Segment(a, b) => entity.insert(SegmentCollider::new(*a, *b)),
        Shape::Polygon(vertices) => entity.insert(PolygonCollider::new(vertices.clone())),
    };
    if body.kind == BodyKind::Fast {
        entity.insert(Swept::default());
    }
}

/// The fast bodies' set-up, for the notes under the table.
pub fn fast_note() -> &'static str {
    "Swept, with Swept::jump() on the frame a bullet wraps"
}

/// A wrap is a teleport: the next run tests the bullet where it landed, not along a path
/// across the field.
fn jump_on_wrap(mut swept: Query<(&Path, &mut Swept)>) {
    swept.par_iter_mut().for_each(|(path, mut swept)| {
        if path.moved_from().is_none() {
            swept.jump();
        }
    });
}

fn count_starts(
    mut started: MessageReader<ContactStarted>,
    ids: Query<&BodyId>,
    mut recorder: Recorder,
) {
    for event in started.read() {
        if let Ok([a, b]) = ids.get_many([event.entity, event.other]) {
            recorder.record(*a, *b);
        }
    }
}
