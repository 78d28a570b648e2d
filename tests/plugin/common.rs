//! Helpers shared by the plugin tests.

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::ecs::message::Message;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_collision_events::prelude::*;
use std::time::Duration;

/// A headless app with the plugin, stepping time by 1/60 s per update.
pub fn app() -> App {
    app_with_threads(None)
}

/// The same, with exactly `threads` compute threads when given (the pool the plugin splits its
/// work across; Bevy's default gives a two-core machine only one).
pub fn app_with_threads(threads: Option<usize>) -> App {
    let mut app = App::new();
    let minimal = match threads {
        Some(threads) => {
            let mut options = TaskPoolOptions::default();
            options.compute.min_threads = threads;
            options.compute.max_threads = threads;
            MinimalPlugins.set(TaskPoolPlugin {
                task_pool_options: options,
            })
        }
        None => MinimalPlugins.build(),
    };
    app.add_plugins((minimal, TransformPlugin, CollisionPlugin::default()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 60.0,
        )))
        .init_resource::<LastFrame<Contact>>()
        .init_resource::<LastFrame<ContactStarted>>()
        .init_resource::<LastFrame<ContactEnded>>()
        .add_systems(
            Last,
            (
                record::<Contact>,
                record::<ContactStarted>,
                record::<ContactEnded>,
            ),
        );
    app
}

/// The messages of one type read during the last update.
#[derive(Resource)]
pub struct LastFrame<M>(Vec<M>);

impl<M> Default for LastFrame<M> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

/// Reads this frame's messages into [`LastFrame`] (a reader, so none is seen twice).
fn record<M: Message + Clone>(mut reader: MessageReader<M>, mut last: ResMut<LastFrame<M>>) {
    last.0.clear();
    last.0.extend(reader.read().cloned());
}

/// A bullet: a disc of radius 2 at `at`.
pub fn bullet(app: &mut App, at: Vec2) -> Entity {
    app.world_mut()
        .spawn((
            CircleCollider::new(2.0),
            Transform::from_translation(at.extend(0.0)),
        ))
        .id()
}

/// The messages of type `M` written during the last `app.update()`.
pub fn last_frame<M: Message + Clone>(app: &App) -> Vec<M> {
    app.world().resource::<LastFrame<M>>().0.clone()
}

/// The one contact written last frame between `a` and `b`, if any.
pub fn contact_between(app: &App, a: Entity, b: Entity) -> Option<Contact> {
    let contacts: Vec<Contact> = last_frame::<Contact>(app)
        .into_iter()
        .filter(|c| c.involves(a) && c.involves(b))
        .collect();
    assert!(contacts.len() <= 1, "a pair written twice: {contacts:?}");
    contacts.into_iter().next()
}

/// Asserts two point lists are equal as sets, within `1e-3`.
pub fn assert_same_points(actual: &[Vec2], expected: &[Vec2]) {
    assert_eq!(
        actual.len(),
        expected.len(),
        "points {actual:?}, expected {expected:?}"
    );
    for e in expected {
        assert!(
            actual.iter().any(|a| a.distance(*e) < 1e-3),
            "{e} missing from {actual:?}"
        );
    }
}

/// Two overlapping discs; returns `(a, b)`.
pub fn overlapping_pair(app: &mut App) -> (Entity, Entity) {
    let a = app
        .world_mut()
        .spawn((CircleCollider::new(5.0), Transform::default()))
        .id();
    let b = app
        .world_mut()
        .spawn((CircleCollider::new(5.0), Transform::from_xyz(6.0, 0.0, 0.0)))
        .id();
    (a, b)
}

/// A good disc and hexagon overlapping, for checking that bad colliders beside them leave
/// them unaffected; returns `(disc, hexagon)`.
pub fn good_pair(app: &mut App) -> (Entity, Entity) {
    let a = app
        .world_mut()
        .spawn((CircleCollider::new(5.0), Transform::default()))
        .id();
    let b = app
        .world_mut()
        .spawn((
            PolygonCollider::regular(5.0, 6),
            Transform::from_xyz(6.0, 0.0, 0.0),
        ))
        .id();
    (a, b)
}
