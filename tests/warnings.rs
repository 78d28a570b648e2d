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

/// The warnings logged so far that name `entity` as a collider.
fn warnings_about(entity: Entity) -> Vec<String> {
    let named = format!("collider {entity} ");
    let warnings = logged().lines().map(str::to_owned).collect::<Vec<_>>();
    warnings
        .into_iter()
        .filter(|line| line.contains("WARN") && line.contains(&named))
        .collect()
}

/// `Swept` on a body without a collider of its own sweeps nothing (each part needs its own):
/// the plugin warns, once, naming the body; not about a body that has a collider, nor about a
/// swept part.
#[test]
fn a_swept_body_without_a_collider_is_warned_about_once() {
    logged();
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
    for _ in 0..3 {
        app.update();
    }
    let warned = warnings_about(bare);
    assert_eq!(warned.len(), 1, "{}", logged());
    assert!(warned[0].contains("CollisionBody with Swept"), "{warned:?}");
    assert!(warnings_about(part).is_empty(), "{}", logged());
    assert!(warnings_about(with_collider).is_empty(), "{}", logged());
}
