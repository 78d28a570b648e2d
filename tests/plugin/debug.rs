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
    app.world_mut()
        .spawn((CircleCollider::new(5.0), Transform::default()));
    app.world_mut().spawn((
        PolygonCollider::regular(5, 8.0),
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
