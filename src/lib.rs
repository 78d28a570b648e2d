//! Exact 2D collision events for Bevy, without a physics engine.
//!
//! Add [`CollisionPlugin`], give entities a [`CircleCollider`] (a solid circle), a
//! [`SegmentCollider`] (a laser, a wall) or a [`PolygonCollider`] (solid, **convex or
//! concave**), and read [`Contact`] messages: both entities and the **points where their
//! outlines cross**. [`ContactStarted`] and [`ContactEnded`] mark a pair's first run
//! together and its first run apart, as messages and as entity events for observers.
//!
//! # Quick start
//!
//! ```
//! use bevy::prelude::*;
//! use bevy_collision_events::prelude::*;
//!
//! const PLAYER_BULLET: LayerMask = LayerMask::layer(0);
//! const ENEMY: LayerMask = LayerMask::layer(1);
//! /// Pixels a second: 5 a frame at 60 frames a second. Being swept, it hits at any speed.
//! const BULLET_SPEED: f32 = 300.0;
//! const BULLET_RADIUS: f32 = 4.0;
//! /// Below the enemy, a little right of its centre line.
//! const BULLET_START: Vec3 = Vec3::new(8.0, -300.0, 0.0);
//! /// An arrowhead with a notch in its base: concave.
//! const ENEMY_OUTLINE: [Vec2; 4] = [
//!     Vec2::new(0.0, 30.0),
//!     Vec2::new(20.0, -20.0),
//!     Vec2::new(0.0, -5.0),
//!     Vec2::new(-20.0, -20.0),
//! ];
//!
//! #[derive(Component)]
//! struct Bullet;
//!
//! fn spawn(mut commands: Commands) {
//!     commands.spawn(Camera2d);
//!     // On the bullets' layer, looking for enemies (the enemy is on its own, looking for
//!     // bullets): bullets are never even compared with each other. Swept: it cannot skip
//!     // past anything between two frames.
//!     commands.spawn((
//!         Bullet,
//!         CircleCollider::new(BULLET_RADIUS),
//!         CollisionLayers::new(PLAYER_BULLET, ENEMY),
//!         Swept::default(),
//!         Transform::from_translation(BULLET_START),
//!     ));
//!     // A concave enemy, with an observer of its own hits: the bullet that hits it is spent.
//!     commands
//!         .spawn((
//!             PolygonCollider::new(ENEMY_OUTLINE),
//!             CollisionLayers::new(ENEMY, PLAYER_BULLET),
//!             Transform::default(),
//!         ))
//!         .observe(|hit: On<ContactStarted>, mut commands: Commands| {
//!             info!("hit by {}", hit.other);
//!             commands.entity(hit.other).try_despawn();
//!         });
//! }
//!
//! fn fly(time: Res<Time>, mut bullets: Query<&mut Transform, With<Bullet>>) {
//!     for mut transform in &mut bullets {
//!         transform.translation.y += BULLET_SPEED * time.delta_secs();
//!     }
//! }
//!
//! fn on_hits(mut contacts: MessageReader<Contact>) {
//!     for contact in contacts.read() {
//!         // a, b: the entities; impact: where a swept pair first touched (in the run it hit);
//!         // points: where the outlines cross (none while one shape holds the other).
//!         let (a, b) = (contact.a, contact.b);
//!         if let Some(impact) = contact.impact {
//!             info!("{a} × {b} first touched at {}", impact.point);
//!         }
//!         for point in &contact.points {
//!             info!("{a} × {b} at {point}");
//!         }
//!     }
//! }
//!
//! // A game adds `DefaultPlugins` and calls `run`. Here, two seconds at 60 frames a second:
//! // after the first update, each moves Bevy's clock on by a sixtieth of a second.
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, TransformPlugin, CollisionPlugin::default()))
//!     .add_systems(Startup, spawn)
//!     .add_systems(Update, fly)
//!     // After the events are written: this frame's contacts, not the last frame's.
//!     .add_systems(PostUpdate, on_hits.after(CollisionSystems::WriteEvents))
//!     .insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
//!         core::time::Duration::from_secs_f64(1.0 / 60.0),
//!     ));
//! for _ in 0..120 {
//!     app.update();
//! }
//! // The bullet struck the enemy, and was spent.
//! let world = app.world_mut();
//! assert_eq!(world.query::<&Bullet>().iter(world).count(), 0);
//! ```
//!
//! # What you get
//!
//! | item | what it is |
//! |---|---|
//! | [`CircleCollider`], [`SegmentCollider`], [`PolygonCollider`] | the shapes, in local space, placed by `GlobalTransform` |
//! | [`CollisionLayers`], [`LayerMask`] | the layers a collider is on and those it looks for (32 layers): two meet only when each looks for the other, so bullets need never meet bullets |
//! | [`ColliderDisabled`] | switch a collider off without despawning it |
//! | [`Swept`] | test the path a fast collider moved along, and a segment's or polygon's turn, not only where it ends up: no bullet through a wall, no bullet skipped by a swinging laser |
//! | [`CollisionBody`] | one entity made of colliders (its parts) on it and its descendants: a contact's `a` and `b` are the parts, [`Contact::bodies`] their bodies, and the body's observers hear its parts' hits |
//! | [`PairFilter`], [`FilterPairs`], [`PairFilterPlugin`] | a game's own rule for which pairs may meet, beyond layers |
//! | [`Contact`] | a message each run (each frame, or fixed step) for every pair in contact (overlapping, or met along a swept path), with crossing points, containment and, for swept pairs, the [`Impact`](geometry::Impact) ([`Contact::impact_normal`] faces the side you name) |
//! | [`ContactStarted`], [`ContactEnded`] | the run two colliders come into contact, and the run they stop: messages and entity events |
//! | [`Contacts`], [`CollidingEntities`] | what is in contact now, without reading messages |
//! | [`SpatialQuery`], [`SpatialQueryFilter`] | rays, circle casts, shape and point queries, the nearest collider (hits name its body too), filtered by layers, entities left out (a body with its parts) or a test of the game's own ([`ColliderFilter::with_predicate`]); and [`Contact::push_out`]: the least move out of an overlap |
//! | [`CollisionSystems`], [`CollisionSettings`] | ordering against the pipeline; tuning |
//! | [`geometry`] | the pure geometry underneath, usable on its own |
//!
//! # Semantics
//!
//! Shapes are closed sets: touching counts, and so does one shape wholly inside another. Then
//! [`Contact::points`] is empty and [`Contact::containment`] says which holds which. Points
//! are exact up to one documented tolerance: see [`geometry`].
//!
//! Sizes and coordinates must lie between [`MIN_SIZE`](geometry::MIN_SIZE) (`1e-18`) and
//! [`MAX_COORDINATE`](geometry::MAX_COORDINATE) (`1e18`). Constructors refuse shapes outside
//! that range. A collider that leaves it at run time (a tiny or huge scale, a NaN transform)
//! is skipped, without affecting the others. A warning names it when it is first skipped for a
//! reason, and not again while it stays skipped for that reason; many skipped for one reason
//! in one run share a line, which counts them.
//!
//! A [`Swept`] collider also meets what lies along its path since the last run (what it turns
//! across, to within a tolerance: see [`Swept`]). Its contact then says when, where and facing
//! which way it first touched ([`Contact::impact`]).
//!
//! # The pipeline
//!
//! Three chained system sets, [`CollisionSystems`], in `PostUpdate` after transform
//! propagation: place the colliders, find the contacts, write the events. A system in
//! `Update` reads the last frame's contacts; to react in the same frame, add it to
//! `PostUpdate` `.after(CollisionSystems::WriteEvents)`. Results are sorted, so they do not
//! depend on the thread count.
//!
//! # Fixed time step
//!
//! Games that move their colliders in `FixedUpdate` run the pipeline at the fixed step too:
//!
//! ```no_run
//! # use bevy::prelude::*;
//! # use bevy_collision_events::prelude::*;
//! App::new().add_plugins((DefaultPlugins, CollisionPlugin::new(FixedPostUpdate)));
//! ```
//!
//! Bevy propagates transforms only in `PostUpdate`, so in any other schedule the plugin runs
//! Bevy's propagation itself right before its [`CollisionSystems::Prepare`]: each fixed step
//! tests the colliders where that step left them (children of moving parents too, and
//! colliders spawned during the step where they were spawned). Each step writes its own
//! messages and triggers its own observers; a `MessageReader` in `FixedUpdate` or in `Update`
//! sees each message once, whether a frame runs no step, one or several. See
//! [`CollisionPlugin::new`] and [`CollisionPlugin::with_transform_propagation`].
//!
//! # Cargo features
//!
//! | feature | default | what it does |
//! |---|---|---|
//! | `debug-draw` | no | `debug::CollisionDebugPlugin`: colliders, bounds, contact points and impacts drawn with Bevy's gizmos |
//! | `diagnostics` | no | `diagnostics::CollisionDiagnosticsPlugin`: each stage's time, and the counts of colliders, contacts, starts and ends, in Bevy's `DiagnosticsStore` |
//! | `parallel` | yes | turns on Bevy's `multi_threaded`, so that the compute task pool has threads to split the stages across. A stage splits its work when it has enough of it (see [`CollisionSettings::parallel_threshold`]), the pool has more than one thread and the machine more than one core. Apps with Bevy's default features have it on already |

// The modules' layers. Imports run one way, from the top of this list down (`tests/layout.rs`
// checks it):
// - `plugin` (`CollisionPlugin`, `CollisionSystems`, `PairFilterPlugin`: the pipeline wired
//   into a schedule), `debug`, `diagnostics` and `query`, which read what the pipeline placed
//   and found, and `reenabled`, which catches up on entities enabled again;
// - `pipeline`, the stages: `prepare`, `find_contacts` (which owns the split of the broad
//   phase's search and the narrow phase's tests), `events`, each owning its resource and
//   system;
// - `settings`, `collider`, `body`, `layers`, `swept`, `filter`, `contact`, `contacts`: the
//   public types;
// - `geometry`: pure 2D geometry, one file per shape pair, usable on its own.
mod body;
mod collider;
mod contact;
mod contacts;
#[cfg(feature = "debug-draw")]
pub mod debug;
#[cfg(feature = "diagnostics")]
pub mod diagnostics;
mod filter;
pub mod geometry;
mod layers;
mod pipeline;
mod plugin;
mod query;
mod reenabled;
mod settings;
mod swept;

pub use body::CollisionBody;
pub use collider::{CircleCollider, ColliderError, PolygonCollider, SegmentCollider};
pub use contact::{Contact, ContactEnded, ContactStarted, PartToBody};
pub use contacts::{CollidingEntities, Contacts};
pub use filter::{FilterPairs, PairFilter};
pub use layers::{ColliderDisabled, CollisionLayers, LayerMask};
pub use plugin::{CollisionPlugin, CollisionSystems, PairFilterPlugin};
pub use query::{
    ColliderFilter, NearestCollider, RayCastHit, ShapeCastHit, SpatialQuery, SpatialQueryFilter,
    WithPredicate,
};
pub use settings::CollisionSettings;
pub use swept::Swept;

/// Everything a game needs, for `use bevy_collision_events::prelude::*`.
pub mod prelude {
    pub use crate::geometry::{Containment, Impact, PushOut, RayExit};
    pub use crate::{
        CircleCollider, ColliderDisabled, ColliderError, ColliderFilter, CollidingEntities,
        CollisionBody, CollisionLayers, CollisionPlugin, CollisionSettings, CollisionSystems,
        Contact, ContactEnded, ContactStarted, Contacts, FilterPairs, LayerMask, NearestCollider,
        PairFilter, PairFilterPlugin, PolygonCollider, RayCastHit, SegmentCollider, ShapeCastHit,
        SpatialQuery, SpatialQueryFilter, Swept,
    };
}
