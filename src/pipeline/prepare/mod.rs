//! Stage 1, prepare: every enabled collider's world-space shape and bounding circle, and the
//! bodies' parts (see [`FindParts`]).
//!
//! Reads each collider with its [`GlobalTransform`] (so it runs after transform propagation) and
//! writes [`PlacedColliders`], the flat arrays the broad and narrow phases work on. A collider
//! whose transform is not finite, whose scale is zero on an axis, or whose world shape falls
//! outside the range the geometry resolves (beyond `MAX_COORDINATE`, or smaller than `MIN_SIZE` but
//! not a point), is skipped with one warning (the next one only after it has been usable again),
//! and so is an entity's second collider kind: an entity has at most one collider.
//!
//! Circles, the bulk of a bullet hell, are read table by table (each component's column as a
//! slice), and written first, in place, the still ones (not [`Swept`]) and then the swept
//! ones, a block at a time: their discs straight into their slots, then checked all at once
//! (the bulk need no check one by one), then the rest of each slot, each array in one tight
//! pass; split across the task pool when there are enough of them. What it writes per still
//! bullet is kept to its entity, layers and bounding circle. Each swept collider's start for
//! its next path is written as its path is read, in the same pass; the swept entities that no
//! collider query reads (switched off, or without a collider) get theirs in a last pass.
//! Polygons follow, one by one; where there are many circles for each polygon, each polygon's
//! edge lines are worked out too, for the narrow phase's disc tests.

mod circle_table;
mod circles;
mod placement;
mod queries;

use super::parts::FindParts;
use super::placed::{NO_LINES, PlacedColliders, WorldShape, clear_radius, conservative};
use super::spatial_index::SpatialIndex;
use crate::collider::{PolygonCollider, SegmentCollider};
use crate::geometry::sweep::Turn;
use crate::geometry::{
    BoundingBox, Circle, MAX_COORDINATE, MIN_SIZE, Segment, all_in_range, in_range, polygon_size,
    push_edge_lines,
};
use crate::layers::CollisionLayers;
use crate::settings::CollisionSettings;
use crate::swept::Swept;
use bevy::prelude::*;
use circles::place_circles;
use placement::{Placement, SkipWarnings, Skipped, least_stretch};
use queries::{PolygonColliders, PrepareQueries, SegmentColliders};

/// Writes every enabled collider's world shape and bounding circle into [`PlacedColliders`],
/// finds the bodies' parts, and remembers where each swept collider is, for its next path.
#[inline(never)]
pub(crate) fn place_colliders(
    // The spatial index is of the colliders: rewritten, it is forgotten with them.
    (mut placed, mut index): (ResMut<PlacedColliders>, ResMut<SpatialIndex>),
    settings: Res<CollisionSettings>,
    mut warnings: Local<SkipWarnings>,
    mut queries: PrepareQueries,
    mut parts: FindParts,
) {
    let placed = &mut *placed;
    index.reset();
    parts.run();
    for entity in &queries.second_colliders {
        warnings.skip(entity, Skipped::SecondCollider);
    }
    // The circles first, in place (the still ones, then the swept ones); then everything
    // placed one by one.
    place_circles(placed, &mut queries.circles, &settings, &mut warnings);
    let polygons = queries.polygons.iter().len();
    placed.reserve(polygons + queries.segments.iter().len());
    let lines = placed.entities.len() >= CIRCLES_FOR_EDGE_LINES * polygons;
    place_polygons(placed, &mut queries.polygons, lines, &mut warnings);
    place_segments(placed, &mut queries.segments, &mut warnings);
    for mut unplaced in &mut queries.unplaced {
        let turns = unplaced.polygon || unplaced.segment;
        let swept = unplaced.swept.bypass_change_detection();
        remember_start(swept, unplaced.transform, turns);
        if !(turns || unplaced.circle) {
            let why = if unplaced.body {
                Skipped::SweptBody
            } else {
                Skipped::SweptWithoutCollider
            };
            warnings.skip(unplaced.entity, why);
        }
    }
    warnings.end_frame();
}

/// How many circles a frame needs for each polygon before the polygons' edge lines are worked
/// out (see [`push_edge_lines`]). The lines cost about 540 instructions an octagon a frame and
/// repay it only in the exact tests and sweeps of the many discs that come near it. With or
/// without them, every answer is the same.
const CIRCLES_FOR_EDGE_LINES: usize = 256;

/// Remembers where a swept collider is, for its next path: its translation, and for one that
/// `turns` (a segment or polygon; a circle's turn changes nothing) the angle of its x axis and
/// whether it is mirrored. Skipped colliders are remembered too, so that one usable again
/// sweeps only its last move. The start is the plugin's own bookkeeping: written without a
/// change for users to see.
#[inline]
fn remember_start(swept: &mut Swept, transform: &GlobalTransform, turns: bool) {
    let translation = transform.translation().truncate();
    if turns {
        let axes = transform.affine().matrix3;
        let (x_axis, y_axis) = (axes.x_axis.truncate(), axes.y_axis.truncate());
        let mirrored = x_axis.perp_dot(y_axis) < 0.0;
        swept.set_start_turned(translation, x_axis, mirrored);
    } else {
        swept.set_start(translation);
    }
}

/// Appends every polygon, its vertices to [`PlacedColliders::vertices`].
fn place_polygons(
    placed: &mut PlacedColliders,
    polygons: &mut PolygonColliders,
    lines: bool,
    warnings: &mut SkipWarnings,
) {
    // `for_each` rather than `for`: Bevy's internal iteration is the faster path.
    polygons
        .iter_mut()
        .for_each(|(entity, mut polygon, transform, layers, mut swept)| {
            // Validated again if its vertices changed since they were checked (an edit through
            // reflection skips the constructor), whenever that was, even while it was switched
            // off: `O(n)` when nothing changed. Without marking it changed: the check keeps the
            // vertices as they were, or drops repeated ones.
            let added = polygon.is_added();
            let polygon = polygon.bypass_change_detection();
            let swept = swept.as_mut().map(Mut::bypass_change_detection);
            place_and_remember(warnings, entity, transform, swept, |swept| {
                let swept = Sweep { swept, added };
                place_polygon(placed, entity, polygon, transform, layers, swept, lines)
            });
        });
}

/// Places a segment or a polygon with `place` (given its sweep), warns when it cannot be
/// placed, and remembers where a swept one is, for its next path, placed or not.
#[inline]
fn place_and_remember(
    warnings: &mut SkipWarnings,
    entity: Entity,
    transform: &GlobalTransform,
    swept: Option<&mut Swept>,
    place: impl FnOnce(Option<&Swept>) -> Result<(), Skipped>,
) {
    if let Err(why) = place(swept.as_deref()) {
        warnings.skip(entity, why);
    }
    if let Some(swept) = swept {
        remember_start(swept, transform, true);
    }
}

/// Appends one polygon, or says why it cannot be placed.
fn place_polygon(
    placed: &mut PlacedColliders,
    entity: Entity,
    polygon: &mut PolygonCollider,
    transform: &GlobalTransform,
    layers: Option<&CollisionLayers>,
    swept: Sweep,
    lines: bool,
) -> Result<(), Skipped> {
    let local = polygon.revalidate().map_err(Skipped::Invalid)?;
    let placement = Placement::of(transform)?;
    let center = placement.apply(local.outer.center);
    // The world vertices round by the size of the terms that place them, which may be far
    // larger than where they land (local vertices far from the polygon's origin, moved back by
    // its translation): both its bound and the circle it surely holds allow for that too.
    let placing = placement.translation.abs().max_element()
        + placement.scale * (local.outer.center.abs().max_element() + local.outer.radius());
    let bounds = Circle::new(
        center,
        conservative(center, local.outer.radius() * placement.scale) + 8.0 * f32::EPSILON * placing,
    );
    // The vertices are checked below: a polygon the constructor accepts as large as the range
    // allows has a bound a little wider than the range (grown for rounding), and is placed.
    if !(in_range(bounds.center) && bounds.radius.is_finite()) {
        return Err(Skipped::OutOfRange);
    }
    // Twice the bounding radius is at least the bounding box's larger side, which is what the
    // constructor measures: a polygon it accepts is not skipped unscaled. Measured before the
    // bound is grown for rounding, which grows with the distance from the origin; and a
    // polygon always has a size, so one that a tiny scale rounds to none is too small too.
    if 2.0 * local.outer.radius() * placement.scale < MIN_SIZE {
        return Err(Skipped::TooSmall);
    }
    let start = placed.vertices.len() as u32;
    let vertices = polygon.vertices();
    placed
        .vertices
        .extend(vertices.iter().map(|&v| placement.apply(v)));
    // A bound in range may still reach past it (a centre near the edge of the range): every
    // vertex must lie within it, as every exact test of the polygon takes for granted.
    if !all_in_range(&placed.vertices[start as usize..]) {
        placed.vertices.truncate(start as usize);
        return Err(Skipped::OutOfRange);
    }
    let world = &placed.vertices[start as usize..];
    // The local bound scaled by the largest stretch overstates an unevenly scaled polygon's
    // (a long bar stretched across its width, whose local circle's centre may also lie off its
    // middle by a rounding of its length): past the range, where the grids would take it for a
    // collider as wide as the world, it is measured round the middle of the vertices' box.
    // The circle the polygon surely holds is round the local circle's centre: none round
    // the middle (the quick look it saves is for ordinary polygons).
    let (bounds, inner_radius) = if bounds.radius > MAX_COORDINATE {
        let middle = BoundingBox::of(world).center();
        let reach = world
            .iter()
            .map(|vertex| vertex.distance(middle))
            .fold(0.0, f32::max);
        (Circle::new(middle, conservative(middle, reach)), 0.0)
    } else {
        (bounds, local.inner_radius)
    };
    let least_stretch = least_stretch(placement.x_axis, placement.y_axis, placement.scale);
    let lines_start = placed.edge_lines.len() as u32;
    // A transform that mirrors the polygon turns its outline round the other way.
    let mirrored = placement.x_axis.perp_dot(placement.y_axis) < 0.0;
    let anticlockwise = local.anticlockwise != mirrored;
    let lined = lines && push_edge_lines(world, anticlockwise, &mut placed.edge_lines);
    let shape = WorldShape::Polygon {
        start,
        len: vertices.len() as u32,
        inner_radius: clear_radius(
            inner_radius * least_stretch,
            bounds.center,
            bounds.radius + placing,
        ),
        size: polygon_size(world),
        lines: if lined { lines_start } else { NO_LINES },
        concave: local.concave,
    };
    match swept.turn(&placement) {
        Some(turn) => placed.push_turning(entity, layers, bounds, shape, turn),
        None => placed.push(entity, layers, bounds, shape, swept.motion(&placement)),
    }
    Ok(())
}

/// Appends every segment.
fn place_segments(
    placed: &mut PlacedColliders,
    segments: &mut SegmentColliders,
    warnings: &mut SkipWarnings,
) {
    segments
        .iter_mut()
        .for_each(|(entity, segment, transform, layers, mut swept)| {
            let added = segment.is_added();
            let swept = swept.as_mut().map(Mut::bypass_change_detection);
            place_and_remember(warnings, entity, transform, swept, |swept| {
                let swept = Sweep { swept, added };
                place_segment(placed, entity, &segment, transform, layers, swept)
            });
        });
}

/// Appends one segment, or says why it cannot be placed.
fn place_segment(
    placed: &mut PlacedColliders,
    entity: Entity,
    segment: &SegmentCollider,
    transform: &GlobalTransform,
    layers: Option<&CollisionLayers>,
    swept: Sweep,
) -> Result<(), Skipped> {
    segment.validate().map_err(Skipped::Invalid)?;
    let placement = Placement::of(transform)?;
    let world = Segment::new(placement.apply(segment.a()), placement.apply(segment.b()));
    if !world.is_valid() {
        return Err(Skipped::OutOfRange);
    }
    // The sides of its span in the world together: at least its length, which is at least the
    // larger side that the constructor measures, whichever way it is turned (and exact where
    // squaring a tiny length would not be). The span is its local one carried into the world,
    // not the difference of its ends there, whose rounding grows with the distance from the
    // origin. A segment that is not a point is too small where a tiny scale rounds it to one.
    let span = segment.b() - segment.a();
    let world_span = placement.x_axis * span.x + placement.y_axis * span.y;
    if span != Vec2::ZERO && world_span.abs().element_sum() < MIN_SIZE {
        return Err(Skipped::TooSmall);
    }
    let center = world.a.midpoint(world.b);
    let bounds = Circle::new(center, conservative(center, world.half_length()));
    let shape = WorldShape::Segment(world);
    match swept.turn(&placement) {
        Some(turn) => placed.push_turning(entity, layers, bounds, shape, turn),
        None => placed.push(entity, layers, bounds, shape, swept.motion(&placement)),
    }
    Ok(())
}

/// How a segment or polygon is swept: its [`Swept`], if any, and whether its collider was
/// given to the entity since the last run.
#[derive(Clone, Copy)]
struct Sweep<'a> {
    swept: Option<&'a Swept>,
    /// The collider is new to the entity (spawned with it, or swapped for a circle): the last
    /// run kept no angle for it to turn from, and it is swept along its translation only.
    added: bool,
}

impl Sweep<'_> {
    /// How far the collider moved along its path to `placement`: zero unless swept.
    fn motion(self, placement: &Placement) -> Vec2 {
        placement.motion(self.swept)
    }

    /// How the collider moved and turned to `placement`, if it turned.
    fn turn(self, placement: &Placement) -> Option<Turn> {
        if self.added {
            return None;
        }
        placement.turn(self.swept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collider::ColliderError;

    #[test]
    fn a_skipped_entity_is_warned_about_once_for_each_reason_until_it_is_usable_again() {
        let mut warnings = SkipWarnings::default();
        let entity = Entity::from_raw_u32(7).unwrap();
        assert!(warnings.skip(entity, Skipped::ZeroScale), "first frame");
        assert!(!warnings.skip(entity, Skipped::ZeroScale), "same frame");
        warnings.end_frame();
        assert!(!warnings.skip(entity, Skipped::ZeroScale), "next frame");
        // A second reason is news: a second collider kind does not hide a bad transform.
        assert!(
            warnings.skip(entity, Skipped::NonFiniteTransform),
            "another reason"
        );
        warnings.end_frame();
        warnings.end_frame(); // A frame in which it was placed.
        assert!(warnings.skip(entity, Skipped::ZeroScale), "skipped again");
    }

    /// A bar a million times as long as it is wide, stretched across its width by 1e18: its
    /// vertices lie in range (half a million by half 1e18), and it is placed with a bounding
    /// circle that holds them but is not the local one scaled by the largest stretch (5e23,
    /// which would take it for a collider as wide as many worlds).
    #[test]
    fn an_unevenly_scaled_polygon_is_bounded_by_its_vertices() {
        let mut placed = PlacedColliders::default();
        let mut bar = PolygonCollider::rectangle(1e6, 1.0);
        let transform = GlobalTransform::from_scale(Vec3::new(1.0, 1e18, 1.0));
        let entity = Entity::from_raw_u32(3).unwrap();
        let still = Sweep {
            swept: None,
            added: false,
        };
        let result = place_polygon(
            &mut placed,
            entity,
            &mut bar,
            &transform,
            None,
            still,
            false,
        );
        assert_eq!(result, Ok(()));
        let radius = placed.radii[0];
        let corner = Vec2::new(5e5, 5e17);
        for vertex in &placed.vertices {
            assert!(vertex.abs().abs_diff_eq(corner, 1e12), "{vertex}");
            assert!(vertex.distance(placed.centers[0]) <= radius);
        }
        assert!(radius < 1.01 * corner.length(), "{radius}");
    }

    /// A small square whose local vertices lie a long way from its origin, turned and moved
    /// back near the world's origin: its world vertices round by the size of the terms that
    /// place them, yet each lies within its bounding circle, and every point of its outline
    /// outside the circle it surely holds (measured in `f64`).
    #[test]
    fn a_polygon_placed_from_far_local_vertices_keeps_them_in_its_bounds() {
        use crate::pipeline::placed::PlacedShape;
        let still = || Sweep {
            swept: None,
            added: false,
        };
        for offset in [1e3_f32, 1e4, 1e6] {
            for step in 0..200 {
                let angle = step as f32 * 0.0314;
                let local = |x: f32, y: f32| Vec2::new(offset + x, y);
                let mut square = PolygonCollider::new([
                    local(-1.0, -1.0),
                    local(1.0, -1.0),
                    local(1.0, 1.0),
                    local(-1.0, 1.0),
                ]);
                let turn = Quat::from_rotation_z(angle);
                let back = -(turn * Vec3::new(offset, 0.0, 0.0));
                let transform =
                    GlobalTransform::from(Transform::from_translation(back).with_rotation(turn));
                let mut placed = PlacedColliders::default();
                let entity = Entity::from_raw_u32(3).unwrap();
                let result = place_polygon(
                    &mut placed,
                    entity,
                    &mut square,
                    &transform,
                    None,
                    still(),
                    false,
                );
                assert_eq!(result, Ok(()));
                let (center, radius) = (placed.centers[0].as_dvec2(), f64::from(placed.radii[0]));
                let PlacedShape::Polygon(polygon) = placed.placed_shape(0) else {
                    panic!("a polygon");
                };
                let vertices: Vec<_> = placed.vertices.iter().map(|v| v.as_dvec2()).collect();
                for (k, &vertex) in vertices.iter().enumerate() {
                    let case = format!("offset {offset}, angle {angle}");
                    assert!(
                        vertex.distance(center) <= radius,
                        "{case}: {vertex} out of its bound"
                    );
                    // Held only where the margin for rounding leaves a circle (not at 1e6).
                    let Some(holds) = polygon.holds else {
                        assert!(offset >= 1e6, "{case}: no circle held");
                        continue;
                    };
                    let (a, b) = (vertex, vertices[(k + 1) % vertices.len()]);
                    let along = ((holds.center.as_dvec2() - a).dot(b - a)
                        / (b - a).length_squared())
                    .clamp(0.0, 1.0);
                    let nearest = a + (b - a) * along;
                    let distance = nearest.distance(holds.center.as_dvec2());
                    assert!(
                        distance >= f64::from(holds.radius),
                        "{case}: an edge {distance} from the centre of the circle it holds, {}",
                        holds.radius
                    );
                }
            }
        }
    }

    /// A polygon edited from one invalid shape into another is warned about again: the
    /// constructor's error says what is wrong now.
    #[test]
    fn a_new_reason_an_edit_is_invalid_is_warned_about() {
        let mut warnings = SkipWarnings::default();
        let entity = Entity::from_raw_u32(7).unwrap();
        let crossing = Skipped::Invalid(ColliderError::SelfIntersecting(0, 2));
        assert!(warnings.skip(entity, crossing));
        warnings.end_frame();
        assert!(!warnings.skip(entity, crossing), "the same reason");
        warnings.end_frame();
        let flat = Skipped::Invalid(ColliderError::ZeroArea);
        assert!(warnings.skip(entity, flat), "a new reason");
    }
}
