//! The plugin's warnings, read from a log subscriber set for the whole process: a test binary
//! of its own, as systems (and the warnings they log) may run on any of the pool's threads,
//! and another test's systems on this one's.

use bevy::log::tracing_subscriber;
use bevy::prelude::*;
use bevy_collision_events::prelude::*;
use std::sync::{Arc, Mutex, OnceLock};

/// Everything this process has logged so far.
fn logged() -> String {
    /// Where the process's log goes, from the first call on.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    static CAPTURED: OnceLock<Captured> = OnceLock::new();
    let captured = CAPTURED.get_or_init(|| {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish();
        bevy::log::tracing::subscriber::set_global_default(subscriber).unwrap();
        captured
    });
    String::from_utf8(captured.0.lock().unwrap().clone()).unwrap()
}

/// The warnings in `log` about `entity`: as a collider skipped, or as an entity whose
/// components ask for what cannot be done.
fn warnings_about(log: &str, entity: Entity) -> Vec<String> {
    let (collider, other) = (format!("collider {entity} "), format!(": {entity}: "));
    let warnings = log.lines().filter(|line| line.contains("WARN"));
    let about = warnings.filter(|line| line.contains(&collider) || line.contains(&other));
    about.map(str::to_owned).collect()
}

/// What three runs of `app` log: only this test's, as entities of another test's world may
/// have the same names.
fn three_runs_logged(app: &mut App) -> String {
    let before = logged().len();
    for _ in 0..3 {
        app.update();
    }
    logged()[before..].to_owned()
}

/// Without Bevy's `TransformPlugin`, nothing places colliders from their transforms: the
/// plugin says so when the app is finished, and only then.
#[test]
fn without_transform_plugin_the_plugin_warns() {
    // What this test's app logs as it is built and finished, and what a test beside it logs
    // meanwhile (which names no plugin).
    let log = |with_transforms: bool| {
        let before = logged().len();
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, CollisionPlugin::default()));
        if with_transforms {
            app.add_plugins(TransformPlugin);
        }
        app.finish();
        logged()[before..].to_owned()
    };
    assert!(log(false).contains("TransformPlugin"), "{}", log(false));
    assert!(!log(true).contains("TransformPlugin"), "{}", log(true));
}

/// `Swept` on a body without a collider of its own sweeps nothing (each part needs its own):
/// the plugin warns, once, naming the body; not about a body that has a collider, nor about a
/// swept part.
#[test]
fn a_swept_body_without_a_collider_is_warned_about_once() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin, CollisionPlugin::default()));
    let world = app.world_mut();
    let bare = world
        .spawn((CollisionBody::default(), Swept::default()))
        .id();
    let part = (CircleCollider::new(2.0), Swept::default(), ChildOf(bare));
    let part = world.spawn(part).id();
    let own = (
        CollisionBody::default(),
        Swept::default(),
        CircleCollider::new(4.0),
    );
    let with_collider = world.spawn(own).id();
    let log = three_runs_logged(&mut app);
    let warned = warnings_about(&log, bare);
    assert_eq!(warned.len(), 1, "{log}");
    assert!(warned[0].contains("CollisionBody with Swept"), "{warned:?}");
    assert!(warnings_about(&log, part).is_empty(), "{log}");
    assert!(warnings_about(&log, with_collider).is_empty(), "{log}");
}

/// `Swept` on an entity with no collider at all sweeps nothing: the plugin warns, once, naming
/// it; not about a swept collider, nor about one switched off with `ColliderDisabled`.
#[test]
fn a_swept_entity_without_a_collider_is_warned_about_once() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin, CollisionPlugin::default()));
    let world = app.world_mut();
    // Past the entities of the other tests' worlds, which run beside this one and log to the
    // same place.
    for _ in 0..100 {
        world.spawn_empty();
    }
    let bare = world.spawn((Swept::default(), Transform::default())).id();
    let bullet = (CircleCollider::new(2.0), Swept::default());
    let bullet = world.spawn(bullet).id();
    let off = (
        SegmentCollider::new(Vec2::ZERO, Vec2::X),
        Swept::default(),
        ColliderDisabled,
    );
    let off = world.spawn(off).id();
    let log = three_runs_logged(&mut app);
    let warned = warnings_about(&log, bare);
    assert_eq!(warned.len(), 1, "{log}");
    assert!(warned[0].contains("an entity with Swept"), "{warned:?}");
    assert!(warnings_about(&log, bullet).is_empty(), "{log}");
    assert!(warnings_about(&log, off).is_empty(), "{log}");
}

/// A hundred bullets shrunk to nothing in one frame (faded out by their scale) make one
/// warning line, which counts them and names the first few; two make a line each.
#[test]
fn many_colliders_skipped_for_one_reason_make_one_warning() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin, CollisionPlugin::default()));
    let shrunk = |count: usize, app: &mut App| -> Vec<Entity> {
        let world = app.world_mut();
        (0..count)
            .map(|_| {
                let faded = Transform::from_scale(Vec3::ZERO);
                world.spawn((CircleCollider::new(4.0), faded)).id()
            })
            .collect()
    };
    let many = shrunk(100, &mut app);
    let before = logged().len();
    app.update();
    let log = logged()[before..].to_owned();
    let counted: Vec<&str> = log
        .lines()
        .filter(|line| line.contains("WARN") && line.contains("100 colliders skipped ("))
        .collect();
    assert_eq!(counted.len(), 1, "{log}");
    assert!(
        counted[0].contains(&format!("{} and 97 more", many[2])),
        "{log}"
    );
    assert!(counted[0].contains("scale"), "{log}");
    // Only this test scales colliders to zero (another test's entities may share names).
    let one_by_one = |log: &str| -> Vec<String> {
        let lines = log.lines().filter(|line| line.contains("WARN"));
        let zero = lines.filter(|line| line.contains("skipped: its scale"));
        zero.map(str::to_owned).collect()
    };
    assert!(one_by_one(&log).is_empty(), "{log}");
    let few = shrunk(2, &mut app);
    let before = logged().len();
    app.update();
    let log = logged()[before..].to_owned();
    let warned = one_by_one(&log);
    assert_eq!(warned.len(), 2, "{log}");
    for entity in few {
        let named = format!("collider {entity} skipped");
        assert!(warned.iter().any(|line| line.contains(&named)), "{log}");
    }
}
