//! The pipeline in `FixedPostUpdate`, with bodies moved in `FixedUpdate`: each fixed step
//! tests the bodies where that step left them, and each step's events are seen once.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_collision_events::prelude::*;
use std::time::Duration;

/// Fixed steps per second (Bevy's default).
const STEPS_PER_SECOND: f64 = 64.0;
/// How far the probe moves in one fixed step.
const STEP: f32 = 10.0;
/// Where the probe starts: it reaches the target's centre after this many steps.
const STEPS_TO_TARGET: u32 = 10;

#[derive(Component)]
struct Probe;

/// Fixed steps run so far, counted in `FixedUpdate`.
#[derive(Resource, Default)]
struct Steps(u32);

/// The step of every `ContactStarted` seen by a reader in `FixedUpdate`, by an observer, and
/// by a reader in `Update`; and the steps of every `Contact` seen in `FixedUpdate`.
#[derive(Resource, Default, Debug)]
struct Seen {
    started_in_fixed_update: Vec<u32>,
    started_by_observer: Vec<u32>,
    started_in_update: usize,
    contacts_in_fixed_update: Vec<u32>,
}

fn move_probe(mut steps: ResMut<Steps>, mut probe: Single<&mut Transform, With<Probe>>) {
    steps.0 += 1;
    probe.translation.x += STEP;
}

fn read_in_fixed_update(
    steps: Res<Steps>,
    mut started: MessageReader<ContactStarted>,
    mut contacts: MessageReader<Contact>,
    mut seen: ResMut<Seen>,
) {
    // Messages of the last step (written in its `FixedPostUpdate`), read in this one before
    // the probe moves: `steps` still counts that last step.
    let step = steps.0;
    for _ in started.read() {
        seen.started_in_fixed_update.push(step);
    }
    for _ in contacts.read() {
        seen.contacts_in_fixed_update.push(step);
    }
}

fn read_in_update(mut started: MessageReader<ContactStarted>, mut seen: ResMut<Seen>) {
    seen.started_in_update += started.read().count();
}

/// An app with the pipeline in `FixedPostUpdate`, frames `frame` long, and a probe (a small
/// disc) that `FixedUpdate` moves by [`STEP`] towards and past a target disc of radius 5. With
/// `parent`, the probe is the child of a moving parent, and the parent is what moves.
fn fixed_app(frame: Duration, parent: bool) -> App {
    fixed_app_with(frame, parent, CollisionPlugin::new(FixedPostUpdate))
}

/// [`fixed_app`] with the plugin given.
fn fixed_app_with(frame: Duration, parent: bool, plugin: CollisionPlugin) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin, plugin))
        .insert_resource(Time::<Fixed>::from_hz(STEPS_PER_SECOND))
        .insert_resource(TimeUpdateStrategy::ManualDuration(frame))
        .init_resource::<Steps>()
        .init_resource::<Seen>()
        .add_systems(FixedUpdate, (read_in_fixed_update, move_probe).chain())
        .add_systems(Update, read_in_update);
    app.world_mut()
        .spawn((CircleCollider::new(5.0), Transform::default()));
    let start = Transform::from_xyz(-STEP * STEPS_TO_TARGET as f32, 0.0, 0.0);
    let probe = CircleCollider::new(1.0);
    let observe = |hit: On<ContactStarted>, steps: Res<Steps>, mut seen: ResMut<Seen>| {
        let _ = hit;
        seen.started_by_observer.push(steps.0);
    };
    if parent {
        app.world_mut()
            .spawn((Probe, start))
            .with_children(|children| {
                children
                    .spawn((probe, Transform::default()))
                    .observe(observe);
            });
    } else {
        app.world_mut()
            .spawn((Probe, start, probe))
            .observe(observe);
    }
    app
}

/// Runs frames until 20 fixed steps have run, and a few frames more.
fn run(frame: Duration, parent: bool) -> Seen {
    let mut app = fixed_app(frame, parent);
    let frames_needed = (20.0 / (STEPS_PER_SECOND * frame.as_secs_f64())).ceil() as usize + 3;
    for _ in 0..frames_needed {
        app.update();
    }
    assert!(app.world().resource::<Steps>().0 >= 20, "too few steps ran");
    std::mem::take(&mut *app.world_mut().resource_mut::<Seen>())
}

#[test]
fn one_start_in_the_step_that_touches_with_0_1_or_3_steps_a_frame() {
    let step = 1.0 / STEPS_PER_SECOND;
    // Half a step a frame (some frames run no step), one step, three steps.
    for steps_per_frame in [0.5, 1.0, 3.0] {
        for parent in [false, true] {
            let seen = run(Duration::from_secs_f64(step * steps_per_frame), parent);
            let case = format!("{steps_per_frame} steps a frame, parent {parent}: {seen:?}");
            // The probe (r 1) touches the target (r 5) only at x = 0, after step 10.
            assert_eq!(seen.started_by_observer, [STEPS_TO_TARGET], "{case}");
            assert_eq!(seen.started_in_fixed_update, [STEPS_TO_TARGET], "{case}");
            assert_eq!(seen.contacts_in_fixed_update, [STEPS_TO_TARGET], "{case}");
            assert_eq!(seen.started_in_update, 1, "{case}");
        }
    }
}

/// A collider spawned in a fixed step is tested where it was spawned: the plugin propagates
/// the transforms before placing it. With the propagation switched off
/// ([`CollisionPlugin::with_transform_propagation`]), it is tested where its
/// `GlobalTransform` still is, at the origin.
#[test]
fn a_collider_spawned_in_a_fixed_step_is_tested_where_it_was_spawned() {
    #[derive(Resource, Default)]
    struct Spawned(bool);
    for propagate in [true, false] {
        let plugin = CollisionPlugin::new(FixedPostUpdate).with_transform_propagation(propagate);
        let frame = Duration::from_secs_f64(1.0 / STEPS_PER_SECOND);
        let mut app = fixed_app_with(frame, false, plugin);
        // Far from the origin, where a `GlobalTransform` not yet propagated would put it.
        app.init_resource::<Spawned>().add_systems(
            FixedUpdate,
            |mut commands: Commands, mut spawned: ResMut<Spawned>| {
                if !spawned.0 {
                    spawned.0 = true;
                    commands.spawn((
                        CircleCollider::new(2.0),
                        Transform::from_xyz(500.0, 0.0, 0.0),
                    ));
                }
            },
        );
        // A neighbour beside where it is spawned.
        let neighbour = app
            .world_mut()
            .spawn((
                CircleCollider::new(2.0),
                Transform::from_xyz(503.0, 0.0, 0.0),
            ))
            .id();
        // The frame of the step that spawned it (one step a frame).
        while !app.world().resource::<Spawned>().0 {
            app.update();
        }
        let contacts = app.world().resource::<Contacts>();
        let with_neighbour: Vec<bool> = contacts
            .iter()
            .map(|contact| contact.involves(neighbour))
            .collect();
        // Left at the origin (no propagation yet), it overlaps the target there instead.
        assert_eq!(with_neighbour, [propagate], "propagated: {propagate}");
    }
}

#[test]
fn each_fixed_step_sweeps_the_move_since_the_step_before() {
    // A swept probe moved 10 px a step (five times its radius) past a thin wall, three steps a
    // frame: each step sweeps its own move, so the wall is met in the step whose path crosses
    // it, and only then.
    #[derive(Resource, Default)]
    struct Met(Vec<u32>);
    let mut app = fixed_app(Duration::from_secs_f64(3.0 / STEPS_PER_SECOND), false);
    app.init_resource::<Met>();
    let probe = app
        .world_mut()
        .query_filtered::<Entity, With<Probe>>()
        .single(app.world())
        .unwrap();
    app.world_mut().entity_mut(probe).insert(Swept::default());
    app.world_mut().spawn((
        SegmentCollider::new(Vec2::new(35.0, -50.0), Vec2::new(35.0, 50.0)),
        Transform::default(),
    ));
    app.add_systems(
        FixedPostUpdate,
        (|steps: Res<Steps>, mut started: MessageReader<ContactStarted>, mut met: ResMut<Met>| {
            for _ in started.read() {
                met.0.push(steps.0);
            }
        })
        .after(CollisionSystems::WriteEvents),
    );
    for _ in 0..10 {
        app.update();
    }
    // Step 10 reaches the target at the origin (path −10 → 0), step 14 the wall: the probe
    // (radius 1) ends step 13 at x = 30, clear of it, and step 14 at 40, past it.
    assert_eq!(app.world().resource::<Met>().0, [STEPS_TO_TARGET, 14]);
}
