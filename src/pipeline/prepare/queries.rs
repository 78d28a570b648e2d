//! What the prepare stage reads: each collider kind with its transform, layers and sweep,
//! the switched-off ones left out.

use crate::collider::{CircleCollider, PolygonCollider, SegmentCollider};
use crate::layers::{ColliderDisabled, CollisionLayers};
use crate::swept::Swept;
use bevy::prelude::*;

/// The query every collider kind is read with: `C` is how the collider is read.
pub(super) type Colliders<'w, 's, C, F = ()> = Query<
    'w,
    's,
    (
        Entity,
        C,
        &'static GlobalTransform,
        Option<&'static CollisionLayers>,
        Option<&'static Swept>,
    ),
    (Without<ColliderDisabled>, F),
>;

/// The polygons, written to only when an edit in place must be validated again.
pub(super) type PolygonColliders<'w, 's> = Colliders<'w, 's, &'static mut PolygonCollider>;

/// The segments: those of entities without a polygon (which takes precedence).
pub(super) type SegmentColliders<'w, 's> =
    Colliders<'w, 's, &'static SegmentCollider, Without<PolygonCollider>>;

/// The circles: those of entities without a polygon or segment (which take precedence).
pub(super) type CircleColliders<'w, 's> = Colliders<
    'w,
    's,
    &'static CircleCollider,
    (Without<SegmentCollider>, Without<PolygonCollider>),
>;

/// Entities with more than one collider kind: all but the first (polygon, then segment, then
/// circle) are skipped.
pub(super) type SecondColliders<'w, 's> = Query<
    'w,
    's,
    Entity,
    (
        Or<(
            (With<CircleCollider>, With<SegmentCollider>),
            (With<CircleCollider>, With<PolygonCollider>),
            (With<SegmentCollider>, With<PolygonCollider>),
        )>,
        Without<ColliderDisabled>,
    ),
>;
