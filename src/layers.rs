//! Which colliders may touch: [`CollisionLayers`], [`LayerMask`], and [`ColliderDisabled`] to
//! switch one off.

use bevy::prelude::*;
use core::ops::{BitAnd, BitOr, BitOrAssign, Not};

/// A set of up to 32 collision layers, as a bit mask: bit `n` is layer `n`.
///
/// ```
/// # use bevy_collision_events::prelude::*;
/// const PLAYER: LayerMask = LayerMask::layer(0);
/// const ENEMY: LayerMask = LayerMask::layer(1);
/// const BULLET: LayerMask = LayerMask::layer(2);
/// const TARGETS: LayerMask = ENEMY.union(PLAYER); // `ENEMY | PLAYER` outside `const`
/// assert!(TARGETS.contains(ENEMY));
/// assert!(!TARGETS.intersects(BULLET));
/// ```
///
/// Its `Default` is [`NONE`](Self::NONE), as for a number; [`CollisionLayers::default`] is on
/// every layer and meets every layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Reflect)]
#[reflect(Clone, Debug, Default, PartialEq, Hash)]
pub struct LayerMask(
    /// One bit per layer: layer `n` is bit `n`.
    pub u32,
);

impl LayerMask {
    /// No layer.
    pub const NONE: Self = Self(0);
    /// Every layer.
    pub const ALL: Self = Self(u32::MAX);

    /// The single layer `index`.
    ///
    /// # Panics
    /// If `index ≥ 32` (at compile time when used in a `const`); see
    /// [`checked_layer`](Self::checked_layer) for an index worked out at run time.
    #[track_caller]
    pub const fn layer(index: u32) -> Self {
        assert!(index < 32, "there are 32 collision layers, 0 to 31");
        Self(1 << index)
    }

    /// The single layer `index`, or `None` if `index ≥ 32`: for an index worked out at run
    /// time, such as a team's layer from its number.
    ///
    /// ```
    /// # use bevy_collision_events::prelude::*;
    /// /// Teams' bullets are on layers 8 and up, one a team.
    /// fn team_bullets(team: u32) -> Option<LayerMask> {
    ///     LayerMask::checked_layer(8 + team)
    /// }
    /// assert_eq!(team_bullets(2), Some(LayerMask::layer(10)));
    /// assert_eq!(team_bullets(24), None);
    /// ```
    pub const fn checked_layer(index: u32) -> Option<Self> {
        if index < 32 {
            Some(Self(1 << index))
        } else {
            None
        }
    }

    /// The layers in either mask (a `const` form of `|`).
    pub const fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// Whether the two masks share a layer.
    pub const fn intersects(self, other: Self) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether every layer of `other` is in `self`.
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }
}

impl From<u32> for LayerMask {
    fn from(bits: u32) -> Self {
        Self(bits)
    }
}

impl BitOr for LayerMask {
    type Output = Self;
    fn bitor(self, other: Self) -> Self {
        self.union(other)
    }
}

impl BitOrAssign for LayerMask {
    fn bitor_assign(&mut self, other: Self) {
        self.0 |= other.0;
    }
}

impl BitAnd for LayerMask {
    type Output = Self;
    fn bitand(self, other: Self) -> Self {
        Self(self.0 & other.0)
    }
}

impl Not for LayerMask {
    type Output = Self;
    fn not(self) -> Self {
        Self(!self.0)
    }
}

/// The layers a collider is on (`memberships`) and the layers it can touch (`filters`).
///
/// Two colliders are tested only when **each** one's memberships intersect the other's
/// filters. A collider without this component is on every layer and touches every layer.
///
/// The broad phase groups colliders by their `CollisionLayers` and compares only groups that can
/// meet, so bullets that cannot hit each other are never even compared: give all bullets of a
/// side the same value. (Groups that never meet each other form one side; with more than
/// two dozen sides, or a few hundred different values, one grid holds every collider and
/// each nearby pair's layers are checked instead: bullets are compared then, and turned away
/// by their layers.)
///
/// ```
/// # use bevy_collision_events::prelude::*;
/// const PLAYER: LayerMask = LayerMask::layer(0);
/// const ENEMY: LayerMask = LayerMask::layer(1);
/// const PLAYER_BULLET: LayerMask = LayerMask::layer(2);
///
/// let bullet = CollisionLayers::new(PLAYER_BULLET, ENEMY);
/// let enemy = CollisionLayers::new(ENEMY, PLAYER_BULLET | PLAYER);
/// assert!(bullet.interacts_with(&enemy));
/// assert!(!bullet.interacts_with(&bullet));
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
#[reflect(Component, Clone, Debug, Default, PartialEq, Hash)]
pub struct CollisionLayers {
    /// The layers this collider is on.
    pub memberships: LayerMask,
    /// The layers this collider can touch.
    pub filters: LayerMask,
}

impl CollisionLayers {
    /// On every layer, touching every layer: the same as no component.
    pub const ALL: Self = Self::new(LayerMask::ALL, LayerMask::ALL);
    /// On no layer and touching none: never tested against anything.
    pub const NONE: Self = Self::new(LayerMask::NONE, LayerMask::NONE);

    /// On `memberships`, touching `filters`.
    pub const fn new(memberships: LayerMask, filters: LayerMask) -> Self {
        Self {
            memberships,
            filters,
        }
    }

    /// Whether two colliders with these layers are tested against each other: each one's
    /// memberships intersect the other's filters.
    pub const fn interacts_with(&self, other: &Self) -> bool {
        self.memberships.intersects(other.filters) && other.memberships.intersects(self.filters)
    }
}

impl Default for CollisionLayers {
    fn default() -> Self {
        Self::ALL
    }
}

/// Switches a collider off without despawning it: while present the entity takes part in no
/// test, and its current contacts end (`ContactEnded` is sent). Remove it to switch back on.
///
/// A [`Swept`](crate::Swept) collider is followed while switched off, and sweeps its last
/// move when switched back on: a pooled bullet moved from where it was parked to the gun in
/// the frame it is switched on sweeps that move too, unless it is also given
/// [`Swept::jump`](crate::Swept::jump). (A pool that parks its bullets with Bevy's `Disabled`
/// needs no `jump`.)
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Clone, Debug, Default, PartialEq)]
pub struct ColliderDisabled;
