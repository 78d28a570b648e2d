//! The diagnostics plugin: each run's stage times and counts reach Bevy's `DiagnosticsStore`.

use bevy::diagnostic::{DiagnosticPath, DiagnosticsStore};
use bevy::prelude::*;
use bevy_collision_events::diagnostics::CollisionDiagnosticsPlugin;
use bevy_collision_events::prelude::*;

/// The latest measurement of `path`.
fn latest(store: &DiagnosticsStore, path: &DiagnosticPath) -> Option<f64> {
    store.get(path)?.value()
}

#[test]
fn each_run_publishes_its_times_and_counts() {
    let mut app = crate::common::app();
    app.add_plugins(CollisionDiagnosticsPlugin);
    let world = app.world_mut();
    let spawned = [0.0, 6.0, 60.0].map(|x| {
        let circle = (CircleCollider::new(5.0), Transform::from_xyz(x, 0.0, 0.0));
        world.spawn(circle).id()
    });
    let clock = std::time::Instant::now();
    app.update();
    let update_ms = clock.elapsed().as_secs_f64() * 1e3;
    let store = app.world().resource::<DiagnosticsStore>();
    let value = |path| latest(store, &path);
    assert_eq!(value(CollisionDiagnosticsPlugin::COLLIDERS), Some(3.0));
    assert_eq!(value(CollisionDiagnosticsPlugin::CONTACTS), Some(1.0));
    assert_eq!(value(CollisionDiagnosticsPlugin::STARTED), Some(1.0));
    assert_eq!(value(CollisionDiagnosticsPlugin::ENDED), Some(0.0));
    // Each stage's time, in milliseconds: some of the update that ran it, measured outside.
    for path in [
        CollisionDiagnosticsPlugin::PREPARE,
        CollisionDiagnosticsPlugin::FIND_CONTACTS,
        CollisionDiagnosticsPlugin::WRITE_EVENTS,
        CollisionDiagnosticsPlugin::TOTAL,
    ] {
        let stage = value(path.clone()).expect("timed");
        assert!(
            stage > 0.0 && stage < update_ms,
            "{path}: {stage} of {update_ms} ms"
        );
    }
    // The next run: the pair ends.
    for entity in spawned {
        app.world_mut().despawn(entity);
    }
    app.update();
    let store = app.world().resource::<DiagnosticsStore>();
    assert_eq!(latest(store, &CollisionDiagnosticsPlugin::ENDED), Some(1.0));
    assert_eq!(
        latest(store, &CollisionDiagnosticsPlugin::COLLIDERS),
        Some(0.0)
    );
}

/// A game's systems ordered between the pipeline's sets (as after `Prepare`, to ask
/// `SpatialQuery` about this frame's positions) are in none of the sets: their time is no
/// set's, nor the pipeline's. Each sleeps far longer than the pipeline's run of one collider.
#[test]
fn a_game_s_systems_between_the_sets_are_not_timed() {
    const SLEEP: std::time::Duration = std::time::Duration::from_millis(50);
    let mut app = crate::common::app();
    app.add_plugins(CollisionDiagnosticsPlugin).add_systems(
        PostUpdate,
        (
            (|| std::thread::sleep(SLEEP))
                .after(CollisionSystems::Prepare)
                .before(CollisionSystems::FindContacts),
            (|| std::thread::sleep(SLEEP))
                .after(CollisionSystems::FindContacts)
                .before(CollisionSystems::WriteEvents),
        ),
    );
    app.world_mut()
        .spawn((CircleCollider::new(5.0), Transform::default()));
    app.update();
    let store = app.world().resource::<DiagnosticsStore>();
    let total = latest(store, &CollisionDiagnosticsPlugin::TOTAL).expect("timed");
    assert!(total < SLEEP.as_secs_f64() * 1e3, "{total} ms");
}

/// A run in which a run condition skipped a set publishes no time, only the counts (and
/// nothing without its events stage): not the time of an earlier run whose events stage was
/// skipped, either.
#[test]
fn a_run_with_a_set_skipped_publishes_no_time() {
    /// Which sets run.
    #[derive(Resource, Clone, Copy)]
    struct Running {
        prepare: bool,
        search: bool,
        events: bool,
    }
    let mut app = crate::common::app();
    let all = Running {
        prepare: true,
        search: true,
        events: true,
    };
    app.add_plugins(CollisionDiagnosticsPlugin)
        .insert_resource(all)
        .configure_sets(
            PostUpdate,
            (
                CollisionSystems::Prepare.run_if(|running: Res<Running>| running.prepare),
                CollisionSystems::FindContacts.run_if(|running: Res<Running>| running.search),
                CollisionSystems::WriteEvents.run_if(|running: Res<Running>| running.events),
            ),
        );
    app.world_mut()
        .spawn((CircleCollider::new(5.0), Transform::default()));
    let published = |app: &App, path: &DiagnosticPath| {
        let store = app.world().resource::<DiagnosticsStore>();
        store
            .get(path)
            .map_or(0, |diagnostic| diagnostic.measurements().count())
    };
    // How many times and counts are published after a run with `running`.
    let mut run = |running: Running| {
        *app.world_mut().resource_mut::<Running>() = running;
        app.update();
        (
            published(&app, &CollisionDiagnosticsPlugin::TOTAL),
            published(&app, &CollisionDiagnosticsPlugin::COLLIDERS),
        )
    };
    assert_eq!(run(all), (1, 1));
    // No events stage: nothing published.
    let no_events = Running {
        events: false,
        ..all
    };
    assert_eq!(run(no_events), (1, 1));
    // Without the prepare stage, after that run: the counts only.
    let no_prepare = Running {
        prepare: false,
        ..all
    };
    assert_eq!(run(no_prepare), (1, 2));
    assert_eq!(run(no_events), (1, 2));
    // Without a search, after a run without the events stage: the counts only.
    let no_search = Running {
        search: false,
        ..all
    };
    assert_eq!(run(no_search), (1, 3));
    assert_eq!(run(all), (2, 4));
}

/// With the pipeline at a fixed step, each step publishes its own measurements, however many
/// steps a frame runs (two a frame here).
#[test]
fn at_a_fixed_step_each_step_publishes() {
    use bevy::time::TimeUpdateStrategy;
    #[derive(Resource, Default)]
    struct Steps(usize);
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        CollisionPlugin::new(FixedPostUpdate),
        CollisionDiagnosticsPlugin,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs_f64(1.0 / 60.0),
    ))
    .insert_resource(Time::<Fixed>::from_hz(120.0))
    .init_resource::<Steps>()
    .add_systems(FixedUpdate, |mut steps: ResMut<Steps>| steps.0 += 1);
    app.world_mut()
        .spawn((CircleCollider::new(5.0), Transform::default()));
    for _ in 0..10 {
        app.update();
    }
    let steps = app.world().resource::<Steps>().0;
    assert!(steps >= 16, "{steps} steps");
    let store = app.world().resource::<DiagnosticsStore>();
    for path in [
        CollisionDiagnosticsPlugin::TOTAL,
        CollisionDiagnosticsPlugin::COLLIDERS,
    ] {
        let published = store.get(&path).unwrap().measurements().count();
        assert_eq!(published, steps, "{path}");
    }
}
