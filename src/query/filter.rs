//! Which colliders a spatial query looks at: [`SpatialQueryFilter`], and a test of the game's
//! own added to it ([`WithPredicate`]), both a [`ColliderFilter`].

use crate::layers::LayerMask;
use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;

/// Which colliders a [`SpatialQuery`](crate::SpatialQuery) looks at: a [`SpatialQueryFilter`],
/// or one with a test of the game's own ([`SpatialQueryFilter::with_predicate`]). A game may
/// implement it for a filter of its own.
pub trait ColliderFilter {
    /// The layers looked at: a collider on none of them (its
    /// [`memberships`](crate::CollisionLayers::memberships) do not meet the mask) is never
    /// returned, nor passed to [`accepts`](Self::accepts).
    fn mask(&self) -> LayerMask;

    /// Whether the collider of `entity`, on a layer of the mask, may be returned. Asked of the
    /// colliders in the index's cells that the query visits (for a ray or a cast, only those
    /// whose bounding circle comes near its path), before their exact test, in no set order,
    /// and perhaps more than once for one collider: a plain test, without side effects.
    fn accepts(&self, entity: Entity) -> bool;
}

/// Which colliders a query looks at: those on a layer of `mask` (their
/// [`memberships`](crate::CollisionLayers::memberships) meet it), other than the `excluded`
/// entities. The default looks at every collider on at least one layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpatialQueryFilter {
    /// The layers looked at.
    pub mask: LayerMask,
    /// Entities never returned (the shooter itself, say).
    pub excluded: EntityHashSet,
}

impl Default for SpatialQueryFilter {
    fn default() -> Self {
        Self::from_mask(LayerMask::ALL)
    }
}

impl SpatialQueryFilter {
    /// The colliders on a layer of `mask`.
    pub fn from_mask(mask: LayerMask) -> Self {
        Self {
            mask,
            excluded: EntityHashSet::default(),
        }
    }

    /// The same filter, leaving out `entities` as well.
    pub fn with_excluded(mut self, entities: impl IntoIterator<Item = Entity>) -> Self {
        self.excluded.extend(entities);
        self
    }

    /// This filter, and `predicate` too: a collider is returned only where
    /// `predicate(entity)` holds. For a test that changes from one call to the next, such as
    /// a component of the game's own read through its queries, which a filter kept in a
    /// resource cannot hold. See [`ColliderFilter::accepts`] for when it is asked.
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_collision_events::prelude::*;
    /// const ENEMY: LayerMask = LayerMask::layer(1);
    /// const TURRET_RANGE: f32 = 800.0;
    ///
    /// #[derive(Component)]
    /// struct Shielded;
    ///
    /// /// The turret's shot goes through shielded enemies and destroys the first without one.
    /// fn shoot(query: SpatialQuery, shielded: Query<(), With<Shielded>>, mut commands: Commands) {
    ///     let enemies = SpatialQueryFilter::from_mask(ENEMY);
    ///     let unshielded = enemies.with_predicate(|enemy| !shielded.contains(enemy));
    ///     let shot = Ray2d::new(Vec2::ZERO, Dir2::Y);
    ///     if let Some(hit) = query.cast_ray(shot, TURRET_RANGE, &unshielded) {
    ///         commands.entity(hit.entity).despawn();
    ///     }
    /// }
    /// # bevy::ecs::system::assert_is_system(shoot);
    /// ```
    pub fn with_predicate<P: Fn(Entity) -> bool>(&self, predicate: P) -> WithPredicate<'_, P> {
        WithPredicate {
            filter: self,
            predicate,
        }
    }
}

impl ColliderFilter for SpatialQueryFilter {
    #[inline]
    fn mask(&self) -> LayerMask {
        self.mask
    }

    #[inline]
    fn accepts(&self, entity: Entity) -> bool {
        self.excluded.is_empty() || !self.excluded.contains(&entity)
    }
}

/// A [`SpatialQueryFilter`] and a test of the game's own: made by
/// [`SpatialQueryFilter::with_predicate`].
#[derive(Clone, Copy)]
pub struct WithPredicate<'f, P> {
    filter: &'f SpatialQueryFilter,
    predicate: P,
}

impl<P: Fn(Entity) -> bool> ColliderFilter for WithPredicate<'_, P> {
    #[inline]
    fn mask(&self) -> LayerMask {
        self.filter.mask
    }

    #[inline]
    fn accepts(&self, entity: Entity) -> bool {
        self.filter.accepts(entity) && (self.predicate)(entity)
    }
}
