//! `bevy_rapier2d` 0.36 as an event detector: colliders without rigid bodies (moved by their
//! transforms), sensors, collision events on, every body-type pair active, no gravity,
//! stepping once per frame in `PostUpdate`.
//!
//! Concave polygons become a compound of the triangles that tile them, so rapier tests the
//! same solid region as the other engines.
//!
//! # Fast bodies
//! A [`BodyKind::Fast`] bullet is a sensor collider on a dynamic rigid body that rapier moves
//! itself: each frame it gets the `Velocity` that carries it, in one step, from where rapier
//! has it to where the scene has it at the frame's end. On a frame it wraps (and on the first,
//! which has no time step) its `Transform` is set where it is, with no velocity: `bevy_rapier2d`
//! applies a changed `Transform` with `set_position`, a teleport that rapier's CCD never
//! sweeps (it sweeps from the pose at the step's start to the one the velocity reaches).
//!
//! Rapier's continuous collision (rapier 0.35) sweeps every **dynamic** body that moves more
//! than half its thickness in a step, against fixed colliders (colliders without a rigid body,
//! like the walls and targets here); it never clamps a sensor, and reports each sensor it
//! crossed without touching at either end of the step as a start and a stop. `Ccd::enabled()`
//! only widens the sweep to non-fixed bodies: here it reports the same starts at twice the
//! cost, so it is off ([`FastSetup::DynamicCcd`]). Kinematic bodies are never swept. A sweep
//! counts a hit only past a depth of rapier's linear slop (0.005 length units: 0.5 px at
//! 100 px a metre), so a bullet grazing a target by less is missed. Its narrow phase runs at
//! the start of each step, so a bullet that ends a frame touching a target is reported on the
//! next.

use bevy::prelude::*;
use bevy_rapier2d::prelude as rapier;

use super::Concave;
use crate::scene::{Body, BodyId, BodyKind, MoveBodies, MovedByEngine, Path};
use crate::shape::{Shape, convex_pieces, is_convex, triangulate};
use crate::started::Recorder;

pub fn install(app: &mut App) {
    // The plugin inserts its message buffer without registering it, so that Bevy would never
    // clear it: registered first, it is cleared as every other message type is.
    app.add_message::<rapier::CollisionEvent>()
        .add_plugins(
            rapier::RapierPhysicsPlugin::<rapier::NoUserData>::pixels_per_meter(pixels_per_meter()),
        )
        .add_systems(Startup, no_gravity)
        .add_systems(Update, launch_fast_bodies.after(MoveBodies))
        .add_systems(Last, count_starts);
}

/// Set to `kinematic` to put each moved body on a position-based kinematic rigid body,
/// rather than leaving it a collider without one.
pub const BODIES_VARIABLE: &str = "COMPARE_RAPIER_BODIES";

/// Whether [`BODIES_VARIABLE`] asks for kinematic bodies: read once, not for each body spawned.
static KINEMATIC_BODIES: std::sync::LazyLock<bool> =
    std::sync::LazyLock::new(|| std::env::var(BODIES_VARIABLE).as_deref() == Ok("kinematic"));

/// Set to a number of pixels per metre to give rapier that scale instead of the table's 100.
pub const SCALE_VARIABLE: &str = "COMPARE_RAPIER_PIXELS_PER_METER";

/// The scale named in [`SCALE_VARIABLE`], or the table's: 100 pixels a metre. 1 and 100 read
/// the same in rain-50k on one thread, within the noise, with the same contact starts (see
/// the README).
fn pixels_per_meter() -> f32 {
    std::env::var(SCALE_VARIABLE)
        .ok()
        .and_then(|scale| scale.parse().ok())
        .unwrap_or(100.0)
}

/// Rapier keeps its configuration on the context entity it spawns in `PreStartup`.
fn no_gravity(mut configurations: Query<&mut rapier::RapierConfiguration>) {
    for mut configuration in &mut configurations {
        configuration.gravity = Vec2::ZERO;
    }
}

/// How a [`BodyKind::Fast`] body is set up. The table uses [`FastSetup::Dynamic`];
/// [`SETUP_VARIABLE`] picks another, to check what the README says of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastSetup {
    /// `dynamic`: a dynamic body with a velocity (swept against fixed colliders).
    Dynamic,
    /// `dynamic-ccd`: the same with `Ccd::enabled()` (swept against every body).
    DynamicCcd,
    /// `kinematic-ccd`: a velocity-based kinematic body with `Ccd::enabled()` (never swept).
    KinematicCcd,
    /// `transform`: a collider moved by its `Transform`, as in the other scenes.
    Transform,
}

/// Set to a [`FastSetup`] name to give fast bodies that set-up.
pub const SETUP_VARIABLE: &str = "COMPARE_RAPIER_FAST";

impl FastSetup {
    /// The set-up named in [`SETUP_VARIABLE`], or the table's.
    ///
    /// # Panics
    /// On a name that is none of them.
    pub fn chosen() -> Self {
        super::chosen(
            SETUP_VARIABLE,
            &[
                ("dynamic", Self::Dynamic),
                ("dynamic-ccd", Self::DynamicCcd),
                ("kinematic-ccd", Self::KinematicCcd),
                ("transform", Self::Transform),
            ],
        )
    }
}

pub fn insert_collider(entity: &mut EntityCommands, body: &Body) {
    let layers = body.layers;
    entity.insert((
        rapier::Sensor,
        rapier::ActiveEvents::COLLISION_EVENTS,
        rapier::ActiveCollisionTypes::all(),
        rapier::CollisionGroups::new(
            rapier::Group::from_bits_truncate(layers.memberships),
            rapier::Group::from_bits_truncate(layers.filters),
        ),
        collider(&body.shape),
    ));
    if body.kind == BodyKind::Moved && *KINEMATIC_BODIES {
        entity.insert(rapier::RigidBody::KinematicPositionBased);
    }
    if body.kind != BodyKind::Fast {
        return;
    }
    let setup = FastSetup::chosen();
    let rigid_body = match setup {
        FastSetup::Transform => return,
        FastSetup::Dynamic | FastSetup::DynamicCcd => rapier::RigidBody::Dynamic,
        FastSetup::KinematicCcd => rapier::RigidBody::KinematicVelocityBased,
    };
    entity.insert((rigid_body, rapier::Velocity::zero(), Fast, MovedByEngine));
    if setup != FastSetup::Dynamic {
        entity.insert(rapier::Ccd::enabled());
    }
}

/// The fast bodies' set-up, for the notes under the table.
pub fn fast_note() -> &'static str {
    match FastSetup::chosen() {
        FastSetup::Dynamic => {
            "sensors on dynamic bodies with a velocity, which rapier sweeps against fixed \
             colliders (it never sweeps kinematic bodies; Ccd::enabled() only adds non-fixed \
             targets, at twice the cost here); a sweep ignores overlaps shallower than the \
             linear slop (0.5 px here), and a bullet ending a frame on a target is reported \
             on the next frame"
        }
        FastSetup::DynamicCcd => "sensors on dynamic bodies with a velocity and Ccd::enabled()",
        FastSetup::KinematicCcd => {
            "sensors on velocity-based kinematic bodies with Ccd::enabled(), which rapier \
             never sweeps"
        }
        FastSetup::Transform => "sensor colliders moved by their transforms: nothing continuous",
    }
}

/// Marks a [`BodyKind::Fast`] body that rapier moves by its velocity.
#[derive(Component)]
struct Fast;

fn collider(shape: &Shape) -> rapier::Collider {
    match shape {
        Shape::Circle(radius) => rapier::Collider::ball(*radius),
        Shape::Segment(a, b) => rapier::Collider::segment(*a, *b),
        Shape::Polygon(vertices) if is_convex(vertices) => {
            rapier::Collider::convex_hull(vertices).expect("a convex polygon has a hull")
        }
        Shape::Polygon(vertices) => {
            let pieces: Vec<rapier::Collider> = match Concave::chosen() {
                Concave::Triangles => triangulate(vertices)
                    .into_iter()
                    .map(|[a, b, c]| rapier::Collider::triangle(a, b, c))
                    .collect(),
                Concave::Pieces => convex_pieces(vertices)
                    .into_iter()
                    .map(|piece| rapier::Collider::convex_hull(&piece).expect("a convex piece"))
                    .collect(),
            };
            rapier::Collider::compound(
                pieces
                    .into_iter()
                    .map(|piece| (Vec2::ZERO, 0.0, piece))
                    .collect(),
            )
        }
    }
}

/// Gives each fast body the velocity that ends this frame's step where the scene has it; or
/// teleports it there, still, on a frame it wrapped or with no time step (the first: rapier
/// moves nothing then).
fn launch_fast_bodies(
    time: Res<Time>,
    mut fast: Query<(&Path, &mut Transform, &mut rapier::Velocity), With<Fast>>,
) {
    let step = time.delta_secs();
    fast.par_iter_mut()
        .for_each(|(path, mut transform, mut velocity)| {
            if step > 0.0 && path.moved_from().is_some() {
                velocity.linear = (path.position() - transform.translation.truncate()) / step;
            } else {
                transform.translation = path.position().extend(0.0);
                velocity.linear = Vec2::ZERO;
            }
        });
}

fn count_starts(
    mut events: MessageReader<rapier::CollisionEvent>,
    ids: Query<&BodyId>,
    mut recorder: Recorder,
) {
    for event in events.read() {
        if let rapier::CollisionEvent::Started(a, b, _) = event
            && let Ok([a, b]) = ids.get_many([*a, *b])
        {
            recorder.record(*a, *b);
        }
    }
}
