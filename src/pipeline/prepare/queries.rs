//! What the prepare stage reads: each collider kind with its transform, layers and sweep,
//! the switched-off ones left out; and the swept entities that none of them reads.

use crate::body::CollisionBody;
use crate::collider::{CircleCollider, PolygonCollider, SegmentCollider};
use crate::layers::{ColliderDisabled, CollisionLayers};
use crate::swept::Swept;
use bevy::ecs::query::QueryData;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// Everything the prepare stage reads of the world: each collider kind, the entities with
/// more than one, and the swept entities that none of the kinds reads.
#[derive(SystemParam)]
pub(crate) struct PrepareQueries<'w, 's> {
    pub polygons: PolygonColliders<'w, 's>,
    pub segments: SegmentColliders<'w, 's>,
    pub circles: CircleColliders<'w, 's>,
    pub second_colliders: SecondColliders<'w, 's>,
    pub unplaced: UnplacedSwept<'w, 's>,
}

/// The query every collider kind is read with: `C` is how the collider is read. The sweep is
/// written to as it is read: where this run's path ends, the next one starts.
pub(crate) type Colliders<'w, 's, C, F = ()> = Query<
    'w,
    's,
    (
        Entity,
        C,
        &'static GlobalTransform,
        Option<&'static CollisionLayers>,
        Option<&'static mut Swept>,
    ),
    (Without<ColliderDisabled>, F),
>;

/// The polygons, written to only when an edit in place must be validated again.
pub(crate) type PolygonColliders<'w, 's> = Colliders<'w, 's, &'static mut PolygonCollider>;

/// The segments: those of entities without a polygon (which takes precedence).
pub(crate) type SegmentColliders<'w, 's> =
    Colliders<'w, 's, Ref<'static, SegmentCollider>, Without<PolygonCollider>>;

/// The circles: those of entities without a polygon or segment (which take precedence).
pub(crate) type CircleColliders<'w, 's> = Colliders<
    'w,
    's,
    &'static CircleCollider,
    (Without<SegmentCollider>, Without<PolygonCollider>),
>;

/// Entities with more than one collider kind: all but the first (polygon, then segment, then
/// circle) are skipped.
pub(crate) type SecondColliders<'w, 's> = Query<
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

/// Swept entities that no collider query reads (switched off, or without a collider yet):
/// where their next paths start is remembered all the same, so that one switched back on
/// sweeps only its last move.
pub(crate) type UnplacedSwept<'w, 's> = Query<
    'w,
    's,
    Unplaced,
    Or<(
        With<ColliderDisabled>,
        (
            Without<CircleCollider>,
            Without<SegmentCollider>,
            Without<PolygonCollider>,
        ),
    )>,
>;

/// A swept entity that no collider query reads, with the collider kinds it has (a polygon or
/// a segment turns), and whether it is a body.
#[derive(QueryData)]
#[query_data(mutable)]
pub(crate) struct Unplaced {
    pub entity: Entity,
    pub swept: &'static mut Swept,
    pub transform: &'static GlobalTransform,
    pub circle: Has<CircleCollider>,
    pub polygon: Has<PolygonCollider>,
    pub segment: Has<SegmentCollider>,
    pub body: Has<CollisionBody>,
}
