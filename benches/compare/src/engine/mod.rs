//! The engines behind one small interface: install the plugin, give an entity a collider, and
//! feed contact starts to [`Recorder`](crate::started::Recorder).
//!
//! A [`BodyKind::Fast`](crate::scene::BodyKind::Fast) body gets each engine's own continuous
//! collision detection: this crate's `Swept` (with `Swept::jump` on a frame it wraps); for
//! avian2d, `bevy_rapier2d` and Box2D, which sweep a body along its velocity, a moving rigid
//! body with one (see their modules).

mod avian;
pub mod box2d;
mod none;
mod ours;
mod rapier;

use bevy::prelude::*;

use crate::scene::{Body, Scene, SceneKind};

/// The set-up named in the environment variable `variable`, one of `choices` (name and
/// set-up), or the first of them when it is not set.
///
/// # Panics
/// On a name that is none of them.
fn chosen<T: Copy>(variable: &str, choices: &[(&str, T)]) -> T {
    let Ok(name) = std::env::var(variable) else {
        return choices[0].1;
    };
    choices
        .iter()
        .find(|(choice, _)| *choice == name)
        .map(|&(_, setup)| setup)
        .unwrap_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|&(choice, _)| choice).collect();
            panic!("{variable}={name}: expected one of {}", names.join(", "))
        })
}

/// Set to `pieces` (the table's) or `triangles` to choose how avian2d and `bevy_rapier2d` take a
/// concave polygon (see [`Concave`]).
pub const CONCAVE_VARIABLE: &str = "COMPARE_CONCAVE";

/// How a concave polygon goes to avian2d and `bevy_rapier2d`, which take convex shapes only: as a
/// compound of pieces that cover exactly its area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Concave {
    /// Its convex pieces (see [`convex_pieces`](crate::shape::convex_pieces)): its triangles
    /// joined where they stay convex. The table's: avian2d is faster so (mixed-5k, one
    /// thread), and `bevy_rapier2d` no slower.
    Pieces,
    /// Its triangles.
    Triangles,
}

impl Concave {
    /// The one named in [`CONCAVE_VARIABLE`], or the table's: read once.
    ///
    /// # Panics
    /// On a name that is none of them.
    pub fn chosen() -> Self {
        static CHOSEN: std::sync::LazyLock<Concave> = std::sync::LazyLock::new(|| {
            chosen(
                CONCAVE_VARIABLE,
                &[
                    ("pieces", Concave::Pieces),
                    ("triangles", Concave::Triangles),
                ],
            )
        });
        *CHOSEN
    }
}

/// A collision engine under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// `bevy_collision_events`, this crate.
    Ours,
    /// `avian2d` 0.7: kinematic sensor bodies with collision events enabled (fast bullets with
    /// a velocity and `SweptCcd`, fixed bodies static).
    Avian,
    /// `bevy_rapier2d` 0.36: sensor colliders with collision events for every body type (fast
    /// bullets on dynamic bodies with a velocity and `Ccd`).
    Rapier,
    /// Box2D 3.2 through `boxdd` 0.6: kinematic bodies, one sensor shape in each pair and sensor
    /// events (fast bullets on dynamic bodies with a velocity, against static sensors).
    Box2d,
    /// No engine: the bodies move with no collider, the part of the frame the engines share.
    None,
}

impl Engine {
    /// Every engine, in table order.
    pub const ALL: [Self; 5] = [
        Self::Ours,
        Self::Avian,
        Self::Rapier,
        Self::Box2d,
        Self::None,
    ];

    /// The engines that detect collisions.
    pub const DETECTORS: [Self; 4] = [Self::Ours, Self::Avian, Self::Rapier, Self::Box2d];

    /// Its name on the command line and in the table.
    pub fn name(self) -> &'static str {
        match self {
            Self::Ours => "ours",
            Self::Avian => "avian2d",
            Self::Rapier => "rapier2d",
            Self::Box2d => "box2d",
            Self::None => "none",
        }
    }

    /// Why this engine cannot run `scene`, or `None` when it can. Such a run is skipped, and the
    /// table shows "—" with this reason under it.
    pub fn cannot_run(self, scene: Scene) -> Option<&'static str> {
        match (self, scene.kind) {
            (Self::Box2d, SceneKind::Crossfire) => Some(box2d::CROWD_NOTE),
            (Self::Box2d, SceneKind::Mixed) => Some(box2d::MIXED_NOTE),
            _ => None,
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
            Self::Box2d => box2d::install(app),
            Self::None => none::install(app),
        }
    }

    /// How this engine's [`BodyKind::Fast`](crate::scene::BodyKind::Fast) bodies are set up,
    /// in a few words for the notes under the table.
    pub fn fast_note(self) -> &'static str {
        match self {
            Self::Ours => ours::fast_note(),
            Self::Avian => avian::fast_note(),
            Self::Rapier => rapier::fast_note(),
            Self::Box2d => box2d::fast_note(),
            Self::None => none::fast_note(),
        }
    }

    /// Gives `entity` this engine's collider for `body` (its shape on its layers, moved as
    /// its kind says).
    pub fn insert_collider(self, entity: &mut EntityCommands, body: &Body) {
        match self {
            Self::Ours => ours::insert_collider(entity, body),
            Self::Avian => avian::insert_collider(entity, body),
            Self::Rapier => rapier::insert_collider(entity, body),
            Self::Box2d => box2d::insert_collider(entity, body),
            Self::None => none::insert_collider(entity, body),
        }
    }
}
