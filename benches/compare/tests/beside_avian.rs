//! README's "With a physics engine": the snippet between the markers compiles here, beside avian2d,
//! and the test checks that README shows it as it is here.

#![allow(dead_code, reason = "the snippet's functions are for a game to call")]

// beside-avian:start
use avian2d::prelude::*;
use bevy::prelude::*;
use bevy_collision_events::{self as bullets, CircleCollider, CollisionSystems, Contact};

const PLAYER_BULLET: bullets::LayerMask = bullets::LayerMask::layer(0);
const ENEMY: bullets::LayerMask = bullets::LayerMask::layer(1);

fn add_physics_and_bullets(app: &mut App) {
    app.add_plugins((
        PhysicsPlugins::default(),
        bullets::CollisionPlugin::default(),
    ))
    .add_systems(Startup, spawn)
    .add_systems(PostUpdate, on_hits.after(CollisionSystems::WriteEvents));
}

fn spawn(mut commands: Commands) {
    // A bullet: this crate's collider and layers, no rigid body.
    commands.spawn((
        CircleCollider::new(4.0),
        bullets::CollisionLayers::new(PLAYER_BULLET, ENEMY),
        Transform::from_xyz(0.0, 100.0, 0.0),
    ));
    // An enemy: an avian rigid body, and a target for the bullets.
    commands.spawn((
        RigidBody::Kinematic,
        Collider::circle(8.0),
        CircleCollider::new(8.0),
        bullets::CollisionLayers::new(ENEMY, PLAYER_BULLET),
        Transform::default(),
    ));
}

fn on_hits(mut contacts: MessageReader<Contact>) {
    for contact in contacts.read() {
        if let Some((bullet, target)) = contact.by_layer(PLAYER_BULLET) {
            info!("{bullet} hit {target}");
        }
    }
}
// beside-avian:end

/// The code README shows between its markers.
fn readme_snippet() -> String {
    let readme = include_str!("../../../README.md");
    let start = readme
        .find("<!-- beside-avian:start -->")
        .expect("README's start marker");
    let end = readme
        .find("<!-- beside-avian:end -->")
        .expect("README's end marker");
    let block = &readme[start..end];
    let code = &block[block.find("```rust\n").expect("a Rust block") + 8..];
    code[..code.rfind("```").expect("the block's end")].to_owned()
}

#[test]
fn readme_shows_the_snippet_that_compiles_here() {
    let this = include_str!("beside_avian.rs");
    let start = this
        .find("// beside-avian:start\n")
        .expect("the start marker")
        + 22;
    let end = this.find("// beside-avian:end").expect("the end marker");
    assert_eq!(readme_snippet(), this[start..end]);
}
