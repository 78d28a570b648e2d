//! The debug-drawing plugin in a headless app: it runs beside the pipeline and registers its
//! gizmo group. (What it draws is checked by the unit tests in `src/debug.rs`.)

use crate::common::app;
use bevy::asset::{AssetApp, AssetPlugin};
use bevy::gizmos::GizmoAsset;
use bevy::gizmos::config::GizmoConfigStore;
use bevy::prelude::*;
use bevy_collision_events::debug::{CollisionDebugPlugin, CollisionGizmos};
use bevy_collision_events::prelude::*;

#[test]
fn the_debug_plugin_runs_headless_with_its_gizmo_group() {
    let mut app = app();
    // What the plugin needs of Bevy's `GizmoPlugin`: its gizmo assets. (The whole
    // `GizmoPlugin`, with the features this crate's examples enable, also draws skinned-mesh
    // bounds and needs Bevy's mesh assets, which a headless app does not have.)
    app.add_plugins(AssetPlugin::default())
        .init_asset::<GizmoAsset>()
        .add_plugins(CollisionDebugPlugin);
    app.finish();
    app.world_mut()
        .spawn((CircleCollider::new(5.0), Transform::default()));
    app.world_mut().spawn((
        PolygonCollider::regular(8.0, 5),
        Transform::from_xyz(6.0, 0.0, 0.0),
    ));
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(app.world().resource::<Contacts>().len(), 1);
    let store = app.world().resource::<GizmoConfigStore>();
    let (config, settings) = store.config::<CollisionGizmos>();
    assert!(config.enabled, "on by default");
    assert_eq!(*settings, CollisionGizmos::default());
}

/// Without Bevy's gizmos, the plugin says so when the app is finished, naming itself and what to
/// add, instead of a system failing on a missing resource at the first update.
#[test]
#[should_panic(
    expected = "CollisionDebugPlugin draws with Bevy's gizmos, which this app does not have"
)]
fn the_debug_plugin_without_gizmos_says_what_is_missing() {
    let mut app = app();
    app.add_plugins(CollisionDebugPlugin);
    app.finish();
}

/// Without the collision plugin, likewise.
#[test]
#[should_panic(expected = "CollisionDebugPlugin draws what CollisionPlugin finds")]
fn the_debug_plugin_without_the_collision_plugin_says_so() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default()))
        .init_asset::<GizmoAsset>()
        .add_plugins(CollisionDebugPlugin);
    app.finish();
}
