//! The debug-drawing plugin in a headless app: it runs, draws, and can be switched off.

use crate::common::app;
use bevy::asset::{AssetApp, AssetPlugin};
use bevy::gizmos::GizmoAsset;
use bevy::gizmos::config::GizmoConfigStore;
use bevy::prelude::*;
use bevy_collision_events::debug::{CollisionDebugPlugin, CollisionGizmos};
use bevy_collision_events::prelude::*;

#[test]
fn the_debug_plugin_runs_headless_and_can_be_switched_off() {
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
    let mut store = app.world_mut().resource_mut::<GizmoConfigStore>();
    let (config, settings) = store.config_mut::<CollisionGizmos>();
    assert!(config.enabled && settings.outlines, "on by default");
    config.enabled = false;
    settings.bounding_circles = true;
    app.update();
}
