//! Which colliders a spatial query looks at: [`SpatialQueryFilter`], and a test of the game's
//! own added to a filter ([`WithPredicate`]), each a [`ColliderFilter`].

use crate::layers::LayerMask;
use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;

/// Which colliders a [`SpatialQuery`](crate::SpatialQuery) looks at: a [`SpatialQueryFilter`],
/// a reference to one, or either with a test of the game's own added
/// ([`with_predicate`](Self::with_predicate)). A game may implement it for a filter of its own.
pub trait ColliderFilter {
    /// The layers looked at: a collider on none of them (its
    /// [`memberships`](crate::CollisionLayers::memberships) do not meet the mask) is never
    /// returned, nor passed to [`allows`](Self::allows).
    fn mask(&self) -> LayerMask;

    /// Whether the collider of `entity`, on a layer of the mask, may be returned. Asked of the
    /// colliders in the index's cells that the query visits (for a ray or a cast, only those
    /// whose bounding circle comes near its path), before their exact test, in no set order,
    /// and perhaps more than once for one collider: a plain test, without side effects.
    fn allows(&self, entity: Entity) -> bool;

    /// Whether the parts of `body`, a [`CollisionBody`](crate::CollisionBody), may be returned:
    /// asked as [`allows`](Self::allows) is, after it, of a collider that is a part of a body
    /// other than itself. Yes by default; [`SpatialQueryFilter`] leaves out the parts of the
    /// bodies it excludes.
    fn allows_body(&self, body: Entity) -> bool {
        let _ = body;
        true
    }

    /// This filter, and `predicate` too: a collider is returned only where
    /// `predicate(entity)` holds as well. For a test that changes from one call to the next,
    /// such as a component of the game's own read through its queries, which a filter kept in
    /// a resource cannot hold. It takes the filter; to keep using one, add the predicate to a
    /// reference to it, `(&filter).with_predicate(..)`.
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
    ///     let unshielded = SpatialQueryFilter::from_mask(ENEMY)
    ///         .with_predicate(|enemy| !shielded.contains(enemy));
    ///     let shot = Ray2d::new(Vec2::ZERO, Dir2::Y);
    ///     if let Some(hit) = query.cast_ray(shot, TURRET_RANGE, &unshielded) {
    ///         commands.entity(hit.entity).despawn();
    ///     }
    /// }
    /// # bevy::ecs::system::assert_is_system(shoot);
    /// ```
    fn with_predicate<P: Fn(Entity) -> bool>(self, predicate: P) -> WithPredicate<Self, P>
    where
        Self: Sized,
    {
        WithPredicate {
            filter: self,
            predicate,
        }
    }
}

/// Which colliders a query looks at: those on a layer of `mask` (their
/// [`memberships`](crate::CollisionLayers::memberships) meet it), other than the `excluded`
/// entities. The default looks at every collider on at least one layer. With
/// [`ColliderFilter::with_predicate`], a test of the game's own too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpatialQueryFilter {
    /// The layers looked at.
    pub mask: LayerMask,
    /// Entities never returned (the shooter itself, say); for a body, its parts too.
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

    /// The same filter, leaving out `entities` as well: for a
    /// [`CollisionBody`](crate::CollisionBody), all of its parts.
    pub fn with_excluded(mut self, entities: impl IntoIterator<Item = Entity>) -> Self {
        self.excluded.extend(entities);
        self
    }
}

impl ColliderFilter for SpatialQueryFilter {
    #[inline]
    fn mask(&self) -> LayerMask {
        self.mask
    }

    #[inline]
    fn allows(&self, entity: Entity) -> bool {
        self.excluded.is_empty() || !self.excluded.contains(&entity)
    }

    #[inline]
    fn allows_body(&self, body: Entity) -> bool {
        self.allows(body)
    }
}

/// A filter used through a reference: the filter itself.
impl<F: ColliderFilter + ?Sized> ColliderFilter for &F {
    #[inline]
    fn mask(&self) -> LayerMask {
        (**self).mask()
    }

    #[inline]
    fn allows(&self, entity: Entity) -> bool {
        (**self).allows(entity)
    }

    #[inline]
    fn allows_body(&self, body: Entity) -> bool {
        (**self).allows_body(body)
    }
}

/// A filter and a test of the game's own: made by [`ColliderFilter::with_predicate`].
#[derive(Clone, Copy)]
#[must_use = "a filter does nothing until a query is given it"]
pub struct WithPredicate<F, P> {
    filter: F,
    predicate: P,
}

impl<F: ColliderFilter, P: Fn(Entity) -> bool> ColliderFilter for WithPredicate<F, P> {
    #[inline]
    fn mask(&self) -> LayerMask {
        self.filter.mask()
    }

    #[inline]
    fn allows(&self, entity: Entity) -> bool {
        self.filter.allows(entity) && (self.predicate)(entity)
    }

    #[inline]
    fn allows_body(&self, body: Entity) -> bool {
        self.filter.allows_body(body)
    }
}

impl<F: core::fmt::Debug, P> core::fmt::Debug for WithPredicate<F, P> {
    fn fmt(&self, formatter: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        formatter
            .debug_struct("WithPredicate")
            .field("filter", &self.filter)
            .finish_non_exhaustive()
    }
}
