//! The same scene gives the same messages in the same order: run twice, and with one and with
//! two task-pool threads (the parallel paths forced on by a low threshold).

use crate::common::{app_with_threads, last_frame};
use bevy::prelude::*;
use bevy_collision_events::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

#[derive(Component)]
struct Velocity(Vec2);

/// Everything the plugin wrote over a run, frame by frame, as comparable values.
#[derive(Debug, PartialEq)]
struct Frame {
    contacts: Vec<(u64, u64, Vec<[u32; 2]>, Containment)>,
    started: Vec<(u64, u64)>,
    ended: Vec<(u64, u64)>,
}

fn spawn_scene(app: &mut App, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let field = 400.0;
    for i in 0..600 {
        let position = Vec2::new(rng.random_range(0.0..field), rng.random_range(0.0..field));
        let velocity = Vec2::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0));
        let transform = Transform::from_translation(position.extend(0.0))
            .with_rotation(Quat::from_rotation_z(rng.random_range(0.0..6.0)));
        let layers = CollisionLayers::new(LayerMask::layer(i % 3), LayerMask(0b101 << (i % 2)));
        let mut entity = app
            .world_mut()
            .spawn((transform, layers, Velocity(velocity)));
        match i % 3 {
            0 => entity.insert(CircleCollider::new(rng.random_range(1.0..12.0))),
            1 => entity.insert(SegmentCollider::new(
                Vec2::ZERO,
                Vec2::new(rng.random_range(5.0..40.0), 0.0),
            )),
            _ => entity.insert(PolygonCollider::regular(
                rng.random_range(3..9),
                rng.random_range(4.0..16.0),
            )),
        };
    }
}

fn movement(mut bodies: Query<(&mut Transform, &Velocity)>) {
    for (mut transform, velocity) in &mut bodies {
        transform.translation += velocity.0.extend(0.0);
        transform.rotate_z(0.01);
    }
}

fn run(threads: usize) -> Vec<Frame> {
    let mut app = app_with_threads(Some(threads));
    app.insert_resource(CollisionSettings {
        parallel_threshold: 8,
    })
    .add_systems(Update, movement);
    spawn_scene(&mut app, 7);
    (0..40)
        .map(|_| {
            app.update();
            let key = |a: Entity, b: Entity| (a.to_bits(), b.to_bits());
            Frame {
                contacts: last_frame::<Contact>(&app)
                    .into_iter()
                    .map(|c| {
                        let points = c.points.iter().map(|p| [p.x.to_bits(), p.y.to_bits()]);
                        (
                            c.a.to_bits(),
                            c.b.to_bits(),
                            points.collect(),
                            c.containment,
                        )
                    })
                    .collect(),
                started: last_frame::<ContactStarted>(&app)
                    .into_iter()
                    .map(|e| key(e.entity, e.other))
                    .collect(),
                ended: last_frame::<ContactEnded>(&app)
                    .into_iter()
                    .map(|e| key(e.entity, e.other))
                    .collect(),
            }
        })
        .collect()
}

#[test]
fn same_scene_same_messages_whatever_the_thread_count() {
    let single = run(1);
    let total: usize = single.iter().map(|f| f.contacts.len()).sum();
    let started: usize = single.iter().map(|f| f.started.len()).sum();
    let ended: usize = single.iter().map(|f| f.ended.len()).sum();
    assert!(
        total > 1000 && started > 50 && ended > 20,
        "{total} {started} {ended}"
    );
    assert_eq!(single, run(1), "two runs on one thread differ");
    assert_eq!(single, run(2), "one thread and two threads differ");
}
