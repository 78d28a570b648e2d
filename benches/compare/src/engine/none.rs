//! No engine at all: the same bodies spawned and moved by the same systems, with no collider.
//! Its frame is the part every engine shares (the schedule, the scene's own systems, transform
//! propagation); an engine's frame less this one is its collision part.

use bevy::prelude::*;

use crate::scene::Body;

pub fn install(_app: &mut App) {}

pub fn insert_collider(_entity: &mut EntityCommands, _body: &Body) {}

/// What stands for the fast bodies' set-up, in the notes under the table.
pub fn fast_note() -> &'static str {
    "no collider: the shared part of the frame"
}
