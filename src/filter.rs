//! Pair filters: a game's own rule for which pairs may meet, beyond their layers.

use bevy::ecs::system::ReadOnlySystemParam;
use bevy::prelude::*;

/// A game's own rule for which pairs of colliders may meet, beyond their
/// [`CollisionLayers`](crate::CollisionLayers): "a bullet never hits its own shooter", "a
/// shield stops only the player's bullets while it is up".
///
/// A filter is a read-only [`SystemParam`](bevy::ecs::system::SystemParam) (usually a struct of queries, with
/// `#[derive(SystemParam)]`), installed with [`PairFilterPlugin`](crate::PairFilterPlugin). It is asked about a pair
/// only when at least one of the two colliders carries [`FilterPairs`], after the broad
/// phase has found the pair (their bounding circles meet and their layers match) and before
/// the exact test: a pair it turns away costs no exact test, and makes no contact. Pairs of
/// colliders without [`FilterPairs`] are never asked about. While no collider carries it, the
/// filter costs nothing; while any does, each candidate pair costs a look at whether either
/// collider carries it.
///
/// It is asked about colliders: for a [`CollisionBody`](crate::CollisionBody), about its parts,
/// each of which carries its own [`FilterPairs`]. A rule about bodies ("never the ship that
/// fired it", for a ship made of parts) finds a part's body itself, through `ChildOf` or a
/// component the game gives each part. Two parts of one body are left out before it is asked
/// (they make no contact), unless the body asks for contacts between its parts.
///
/// The filter may be asked from several threads at once, in no set order: its answer should
/// depend only on the pair and what it reads. In a run where its parameters ask to be skipped
/// (a `Single` that matches no entity, or several: "the shield" while there is none), it is
/// not asked, and every pair may meet, under every rule it holds: for something that may be
/// missing, take an `Option<Single<..>>` and decide in `allows`. Where its parameters are
/// wrong (a `Res` of a resource that does not exist), every pair may meet too, and the error
/// goes to Bevy's error handler as a warning, once until they are right again. A pair turned away that was a contact of the last run ends
/// ([`ContactEnded`](crate::ContactEnded)). [`SpatialQuery`](crate::SpatialQuery) does not
/// ask it: a query's [`SpatialQueryFilter`](crate::SpatialQueryFilter) says what the query
/// looks at.
///
/// ```
/// use bevy::ecs::system::SystemParam;
/// use bevy::prelude::*;
/// use bevy_collision_events::prelude::*;
///
/// /// Which ship fired a bullet.
/// #[derive(Component)]
/// struct FiredBy(Entity);
///
/// /// A bullet never meets the ship that fired it.
/// #[derive(SystemParam)]
/// struct NotTheShooter<'w, 's> {
///     bullets: Query<'w, 's, &'static FiredBy>,
/// }
///
/// impl PairFilter for NotTheShooter<'_, '_> {
///     fn allows(&self, a: Entity, b: Entity) -> bool {
///         let fired = |bullet, other| {
///             self.bullets.get(bullet).is_ok_and(|fired: &FiredBy| fired.0 == other)
///         };
///         !fired(a, b) && !fired(b, a)
///     }
/// }
///
/// App::new().add_plugins((
///     MinimalPlugins,
///     TransformPlugin,
///     CollisionPlugin::default(),
///     PairFilterPlugin::<NotTheShooter>::default(),
/// ));
/// // Each bullet is spawned with `FiredBy(ship)` and `FilterPairs`.
/// ```
pub trait PairFilter: ReadOnlySystemParam + Send + Sync {
    /// Whether colliders `a` and `b` (`a < b`, in [`Entity`] order, as in
    /// [`Contact`](crate::Contact)) may meet.
    fn allows(&self, a: Entity, b: Entity) -> bool;
}

/// Marks a collider whose pairs the [`PairFilter`] is asked about: a pair is asked about when
/// either of its colliders has this component. Without a [`PairFilterPlugin`](crate::PairFilterPlugin) it does nothing.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Clone, Debug, Default, PartialEq)]
pub struct FilterPairs;
