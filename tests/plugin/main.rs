//! Headless `App` tests of the plugin: `MinimalPlugins` + `TransformPlugin` +
//! `CollisionPlugin`, manual time, `app.update()`, then the world and its messages are read.
//!
//! One test binary (linking Bevy once), one module per concern.

mod bad_input;
mod bodies;
mod body_changes;
mod common;
mod crowds;
mod debug;
mod determinism;
mod diagnostics;
mod edits;
mod filters;
mod fixed_step;
mod layers;
mod lifecycle;
mod observers;
mod parting;
mod queries;
mod query_bodies;
mod query_edges;
mod query_scenes;
mod roles;
mod scale;
mod schedule;
mod shapes;
mod sizes;
mod sweeps;
mod turns;
