//! `avian2d` 0.7 as an event detector: kinematic bodies (moved by their transforms), sensors,
//! collision events enabled, no gravity, stepping once per frame in `PostUpdate`.
//!
//! Concave polygons become a compound of the triangles that tile them, so avian tests the
//! same solid region as the other engines.
//!
//! # Fast bodies
//! A [`BodyKind::Fast`] bullet is a kinematic sensor that avian moves itself: each frame it
//! gets the `LinearVelocity` that carries it, in one step, from where avian has it to where
//! the scene has it at the frame's end. On a frame it wraps (and on the first, which has no
//! time step) its `Transform` is set where it is, with no velocity: a teleport, which avian
//! never sweeps (it sweeps velocities, not pose changes). Fixed bodies are static.
//!
//! avian's continuous collision for such a bullet is its **speculative margin** (on by
//! default): each step, a pair within the distance the bodies may close in one step is kept
//! in contact, and for a sensor that is what counts as touching. So it never lets a bullet
//! through a wall unseen, but it also reports near misses (anything a step away, in any
//! direction), and a bullet approaching a long wall at a slant starts touching it frames
//! early, and so reports no start when it really hits.
//!
//! `SweptCcd` is left off: on a sensor it still stops the body at the time of impact with
//! every collider it meets (sensors included), so a bullet would lose ground at each target
//! it passes through (see [`FastSetup::Swept`]).

use avian2d::prelude as avian;
use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;

use super::Concave;
use crate::scene::{Body, BodyId, BodyKind, MoveBodies, MovedByEngine, Path};
use crate::shape::{Shape, convex_pieces, is_convex, triangulate};
use crate::started::Recorder;

pub fn install(app: &mut App) {
    let plugins = avian::PhysicsPlugins::new(PostUpdate);
    let config = Config::chosen();
    match config {
        Config::Unit100 => app.add_plugins(plugins.with_length_unit(100.0)),
        Config::Unit1 | Config::Stock | Config::Substeps1 => app.add_plugins(plugins),
        Config::Lean => app.add_plugins(
            plugins
                .build()
                .disable::<avian::JointPlugin>()
                .disable::<avian::SpatialQueryPlugin>()
                .disable::<avian::PhysicsInterpolationPlugin>()
                .disable::<avian::IslandSleepingPlugin>(),
        ),
    };
    if config == Config::Substeps1 {
        app.insert_resource(avian::SubstepCount(1));
    }
    if config != Config::Stock {
        // avian's advice where nothing queries during its step, and its tree optimised on
        // the frame's own threads: with one compute thread, on that one thread (its async
        // task would run on Bevy's separate async pool, a second core).
        let threads = ComputeTaskPool::try_get().map_or(1, |pool| pool.thread_num());
        app.insert_resource(avian::ColliderTreeOptimization {
            optimize_in_place: true,
            use_async_tasks: threads > 1,
            ..default()
        });
    }
    app.insert_resource(avian::Gravity(Vec2::ZERO))
        .add_systems(Update, launch_fast_bodies.after(MoveBodies))
        .add_systems(Last, count_starts);
}

/// How avian itself is set up. The table uses [`Config::Unit1`]; the others are measured in
/// `benches/compare/README.md`, all with the same contact starts; [`CONFIG_VARIABLE`] picks
/// another. Lean would leave the query scene without spatial queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Config {
    /// `unit100`: `with_length_unit(100.0)`, avian's advice for a scene measured in pixels: it
    /// widens the margins its broad phase keeps, so more pairs reach its narrow phase here.
    Unit100,
    /// `unit1`: the default length unit, the collider tree optimised in place (avian's advice
    /// where nothing queries during the step), on the compute threads alone (no async task
    /// with one thread).
    Unit1,
    /// `stock`: avian's defaults, untouched: the default length unit, the collider tree
    /// optimised on a copy, in an async task.
    Stock,
    /// `lean`: the default length unit, without the plugins an event detector has no use for
    /// (joints, spatial queries, interpolation, sleeping).
    Lean,
    /// `substeps1`: `unit1` with one solver sub-step a step (avian's default is 6): kinematic
    /// bodies moving at a steady velocity land on the same poses, with fewer passes over them.
    Substeps1,
}

/// Set to a [`Config`] name to set avian up that way.
pub const CONFIG_VARIABLE: &str = "COMPARE_AVIAN_CONFIG";

impl Config {
    /// The set-up named in [`CONFIG_VARIABLE`], or the table's.
    ///
    /// # Panics
    /// On a name that is none of them.
    pub fn chosen() -> Self {
        super::chosen(
            CONFIG_VARIABLE,
            &[
                ("unit1", Self::Unit1),
                ("stock", Self::Stock),
                ("unit100", Self::Unit100),
                ("lean", Self::Lean),
                ("substeps1", Self::Substeps1),
            ],
        )
    }
}

/// How a [`BodyKind::Fast`] body is set up. The table uses [`FastSetup::Kinematic`];
/// [`SETUP_VARIABLE`] picks another, to check what the README says of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastSetup {
    /// `kinematic`: a kinematic sensor with a velocity (speculative margin by default).
    Kinematic,
    /// `swept`: the same with `SweptCcd::default()`. Each stop at a time of impact leaves the
    /// bullet behind its path, and the next frame's velocity has to carry it further.
    Swept,
    /// `swept-no-margin`: with `SweptCcd::default()` and `SpeculativeMargin::ZERO`, so that
    /// only real contacts count.
    SweptNoMargin,
    /// `transform`: moved by its `Transform`, as in the other scenes (no velocity: nothing
    /// continuous).
    Transform,
}

/// Set to a [`FastSetup`] name to give fast bodies that set-up.
pub const SETUP_VARIABLE: &str = "COMPARE_AVIAN_FAST";

impl FastSetup {
    /// The set-up named in [`SETUP_VARIABLE`], or the table's.
    ///
    /// # Panics
    /// On a name that is none of them.
    pub fn chosen() -> Self {
        super::chosen(
            SETUP_VARIABLE,
            &[
                ("kinematic", Self::Kinematic),
                ("swept", Self::Swept),
                ("swept-no-margin", Self::SweptNoMargin),
                ("transform", Self::Transform),
            ],
        )
    }
}

pub fn insert_collider(entity: &mut EntityCommands, body: &Body) {
    let layers = body.layers;
    entity.insert((
        avian::Sensor,
        avian::CollisionEventsEnabled,
        avian::CollisionLayers::from_bits(layers.memberships, layers.filters),
        collider(&body.shape),
    ));
    match body.kind {
        BodyKind::Moved => {
            entity.insert(avian::RigidBody::Kinematic);
        }
        BodyKind::Fixed => {
            entity.insert(avian::RigidBody::Static);
        }
        BodyKind::Fast => {
            entity.insert(avian::RigidBody::Kinematic);
            let setup = FastSetup::chosen();
            if setup != FastSetup::Transform {
                entity.insert((Fast, MovedByEngine));
            }
            if matches!(setup, FastSetup::Swept | FastSetup::SweptNoMargin) {
                entity.insert(avian::SweptCcd::default());
            }
            if setup == FastSetup::SweptNoMargin {
                entity.insert(avian::SpeculativeMargin::ZERO);
            }
        }
    }
}

/// The fast bodies' set-up, for the notes under the table.
pub fn fast_note() -> &'static str {
    match FastSetup::chosen() {
        FastSetup::Kinematic => {
            "kinematic sensors with a velocity, under avian's speculative margin (a sensor \
             pair within a step of each other counts as touching: near misses are extra \
             starts, and a slanting approach starts frames early, which misses the hit); \
             SweptCcd off: on a sensor it stops the bullet at every collider it meets"
        }
        FastSetup::Swept => "kinematic sensors with a velocity and SweptCcd",
        FastSetup::SweptNoMargin => {
            "kinematic sensors with a velocity, SweptCcd and SpeculativeMargin::ZERO"
        }
        FastSetup::Transform => "kinematic sensors moved by their transforms: nothing continuous",
    }
}

/// Marks a [`BodyKind::Fast`] body that avian moves by its velocity.
#[derive(Component)]
struct Fast;

fn collider(shape: &Shape) -> avian::Collider {
    match shape {
        Shape::Circle(radius) => avian::Collider::circle(*radius),
        Shape::Segment(a, b) => avian::Collider::segment(*a, *b),
        Shape::Polygon(vertices) if is_convex(vertices) => {
            avian::Collider::convex_hull(vertices.clone()).expect("a convex polygon has a hull")
        }
        Shape::Polygon(vertices) => {
            let pieces: Vec<avian::Collider> = match Concave::chosen() {
                Concave::Triangles => triangulate(vertices)
                    .into_iter()
                    .map(|[a, b, c]| avian::Collider::triangle(a, b, c))
                    .collect(),
                Concave::Pieces => convex_pieces(vertices)
                    .into_iter()
                    .map(|piece| avian::Collider::convex_hull(piece).expect("a convex piece"))
                    .collect(),
            };
            avian::Collider::compound(
                pieces
                    .into_iter()
                    .map(|piece| (Vec2::ZERO, avian::Rotation::IDENTITY, piece))
                    .collect(),
            )
        }
    }
}

/// Gives each fast body the velocity that ends this frame's step where the scene has it; or
/// teleports it there, still, on a frame it wrapped or with no time step (the first: avian
/// moves nothing then).
fn launch_fast_bodies(
    time: Res<Time>,
    mut fast: Query<
        (
            &Path,
            &avian::Position,
            &mut Transform,
            &mut avian::LinearVelocity,
        ),
        With<Fast>,
    >,
) {
    let step = time.delta_secs();
    fast.par_iter_mut()
        .for_each(|(path, position, mut transform, mut velocity)| {
            if step > 0.0 && path.moved_from().is_some() {
                velocity.0 = (path.position() - position.0) / step;
            } else {
                transform.translation = path.position().extend(0.0);
                velocity.0 = Vec2::ZERO;
            }
        });
}

fn count_starts(
    mut started: MessageReader<avian::CollisionStart>,
    ids: Query<&BodyId>,
    mut recorder: Recorder,
) {
    for event in started.read() {
        if let Ok([a, b]) = ids.get_many([event.collider1, event.collider2]) {
            recorder.record(*a, *b);
        }
    }
}
