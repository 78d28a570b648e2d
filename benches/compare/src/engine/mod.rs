//! The three engines behind one small interface: install the plugin, give an entity a
//! collider, and feed contact starts to [`StartedPairs`](crate::started::StartedPairs).

mod avian;
mod ours;
mod rapier;

use bevy::prelude::*;

use crate::scene::Layers;
use crate::shape::Shape;

/// A collision engine under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// `bevy_collision_events`, this crate.
    Ours,
    /// `avian2d` 0.7: kinematic sensor bodies with collision events enabled.
    Avian,
    /// `bevy_rapier2d` 0.36: sensor colliders with collision events for every body type.
    Rapier,
}

impl Engine {
    /// Every engine, in table order.
    pub const ALL: [Self; 3] = [Self::Ours, Self::Avian, Self::Rapier];

    /// Its name on the command line and in the table.
    pub fn name(self) -> &'static str {
        match self {
            Self::Ours => "ours",
            Self::Avian => "avian2d",
            Self::Rapier => "rapier2d",
        }
    }

    /// The engine named `name` (as [`Engine::name`] writes it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|engine| engine.name() == name)
    }

    /// Adds the engine's plugins, set up as a pure event detector running in `PostUpdate`,
    /// and the system that counts its contact starts.
    pub fn install(self, app: &mut App) {
        match self {
            Self::Ours => ours::install(app),
            Self::Avian => avian::install(app),
            Self::Rapier => rapier::install(app),
        }
    }

    /// Gives `entity` this engine's collider for `shape` on `layers`.
    pub fn insert_collider(self, entity: &mut EntityCommands, shape: &Shape, layers: Layers) {
        match self {
            Self::Ours => ours::insert_collider(entity, shape, layers),
            Self::Avian => avian::insert_collider(entity, shape, layers),
            Self::Rapier => rapier::insert_collider(entity, shape, layers),
        }
    }
}
