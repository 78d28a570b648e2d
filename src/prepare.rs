//! Stage 1, prepare: every enabled collider's world-space shape and bounding circle.
//!
//! Reads each collider with its [`GlobalTransform`] (so it runs after transform propagation)
//! and writes [`Bodies`], the flat arrays the broad and narrow phases work on. A collider whose
//! transform is not finite, or whose scale is zero on an axis, is skipped with one warning (the
//! next one only after it has been usable again), and so is an entity's second collider kind:
//! an entity has at most one collider.

use crate::collider::{CircleCollider, PolygonCollider, SegmentCollider};
use crate::geometry::{Circle, Segment, Shape};
use crate::layers::{ColliderDisabled, CollisionLayers};
use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;

/// A collider placed in the world this frame.
#[derive(Clone, Copy, Debug)]
pub(crate) enum WorldShape {
    Circle(Circle),
    Segment(Segment),
    /// `Bodies::vertices[start..start + len]`.
    Polygon {
        start: u32,
        len: u32,
    },
}

/// The colliders of this frame, as parallel arrays indexed by body: entity, layers, bounding
/// circle and world shape. Rebuilt every frame, reusing its allocations.
#[derive(Resource, Default)]
pub(crate) struct Bodies {
    pub entities: Vec<Entity>,
    pub layers: Vec<CollisionLayers>,
    /// Bounding circles' centres.
    pub centers: Vec<Vec2>,
    /// Bounding circles' radii.
    pub radii: Vec<f32>,
    pub shapes: Vec<WorldShape>,
    /// World vertices of every polygon, back to back.
    pub vertices: Vec<Vec2>,
}

impl Bodies {
    fn clear(&mut self) {
        self.entities.clear();
        self.layers.clear();
        self.centers.clear();
        self.radii.clear();
        self.shapes.clear();
        self.vertices.clear();
    }

    fn reserve(&mut self, additional: usize) {
        self.entities.reserve(additional);
        self.layers.reserve(additional);
        self.centers.reserve(additional);
        self.radii.reserve(additional);
        self.shapes.reserve(additional);
    }

    fn push(
        &mut self,
        entity: Entity,
        layers: Option<&CollisionLayers>,
        bounds: (Vec2, f32),
        shape: WorldShape,
    ) {
        self.entities.push(entity);
        self.layers.push(layers.copied().unwrap_or_default());
        self.centers.push(bounds.0);
        self.radii.push(bounds.1);
        self.shapes.push(shape);
    }

    /// Body `index`'s world shape, for the geometry core.
    pub fn shape(&self, index: usize) -> Shape<'_> {
        match self.shapes[index] {
            WorldShape::Circle(circle) => Shape::Circle(circle),
            WorldShape::Segment(segment) => Shape::Segment(segment),
            WorldShape::Polygon { start, len } => {
                Shape::Polygon(&self.vertices[start as usize..(start + len) as usize])
            }
        }
    }
}

/// The x and y axes and translation of a [`GlobalTransform`]: how local points reach the world.
#[derive(Clone, Copy)]
struct Placement {
    x_axis: Vec2,
    y_axis: Vec2,
    translation: Vec2,
    /// The larger axis length: what a circle's radius and a bounding circle are scaled by.
    scale: f32,
}

/// Why a collider was left out this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Skipped {
    NonFiniteTransform,
    ZeroScale,
    SecondCollider,
}

impl Placement {
    fn of(transform: &GlobalTransform) -> Result<Self, Skipped> {
        let affine = transform.affine();
        let x_axis = affine.matrix3.x_axis.xy();
        let y_axis = affine.matrix3.y_axis.xy();
        let translation = affine.translation.xy();
        if !(x_axis.is_finite() && y_axis.is_finite() && translation.is_finite()) {
            return Err(Skipped::NonFiniteTransform);
        }
        let (x_scale, y_scale) = (x_axis.length_squared(), y_axis.length_squared());
        if x_scale == 0.0 || y_scale == 0.0 {
            return Err(Skipped::ZeroScale);
        }
        Ok(Self {
            x_axis,
            y_axis,
            translation,
            // Most colliders (bullets) are not scaled: no square root for them.
            scale: if x_scale == 1.0 && y_scale == 1.0 {
                1.0
            } else {
                x_scale.max(y_scale).sqrt()
            },
        })
    }

    #[inline]
    fn apply(&self, point: Vec2) -> Vec2 {
        self.x_axis * point.x + self.y_axis * point.y + self.translation
    }
}

/// The query every collider kind is read with.
type Colliders<'w, 's, C, F = ()> = Query<
    'w,
    's,
    (
        Entity,
        &'static C,
        &'static GlobalTransform,
        Option<&'static CollisionLayers>,
    ),
    (Without<ColliderDisabled>, F),
>;

/// Entities with more than one collider kind: all but the first (polygon, then segment, then
/// circle) are skipped.
type SecondColliders<'w, 's> = Query<
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

/// Entities warned about: those skipped last frame, and this frame's so far.
#[derive(Default)]
pub(crate) struct SkipWarnings {
    last_frame: EntityHashSet,
    this_frame: EntityHashSet,
}

impl SkipWarnings {
    fn skip(&mut self, entity: Entity, why: Skipped) {
        if self.this_frame.insert(entity) && !self.last_frame.contains(&entity) {
            let what = match why {
                Skipped::NonFiniteTransform => "its GlobalTransform is not finite",
                Skipped::ZeroScale => "its scale is zero on an axis",
                Skipped::SecondCollider => {
                    "it has more than one collider kind (only the polygon, else the segment, is used)"
                }
            };
            warn!("collider {entity} skipped: {what}");
        }
    }

    fn end_frame(&mut self) {
        core::mem::swap(&mut self.last_frame, &mut self.this_frame);
        self.this_frame.clear();
    }
}

/// Writes every enabled collider's world shape and bounding circle into [`Bodies`].
pub(crate) fn prepare_bodies(
    mut bodies: ResMut<Bodies>,
    mut warnings: Local<SkipWarnings>,
    polygons: Colliders<PolygonCollider>,
    segments: Colliders<SegmentCollider, Without<PolygonCollider>>,
    circles: Colliders<CircleCollider, (Without<SegmentCollider>, Without<PolygonCollider>)>,
    second_colliders: SecondColliders,
) {
    let bodies = &mut *bodies;
    bodies.clear();
    bodies.reserve(polygons.iter().len() + segments.iter().len() + circles.iter().len());

    for entity in &second_colliders {
        warnings.skip(entity, Skipped::SecondCollider);
    }
    let mut place = |entity, transform| {
        Placement::of(transform)
            .map_err(|why| warnings.skip(entity, why))
            .ok()
    };
    // `for_each` rather than `for`: Bevy's internal iteration is the faster path.
    polygons
        .iter()
        .for_each(|(entity, polygon, transform, layers)| {
            let Some(placement) = place(entity, transform) else {
                return;
            };
            let start = bodies.vertices.len() as u32;
            let vertices = polygon.vertices();
            bodies
                .vertices
                .extend(vertices.iter().map(|&v| placement.apply(v)));
            let local = polygon.local_bounding_circle();
            let center = placement.apply(local.center);
            let bounds = (
                center,
                conservative(center, local.radius() * placement.scale),
            );
            let len = vertices.len() as u32;
            bodies.push(entity, layers, bounds, WorldShape::Polygon { start, len });
        });
    segments
        .iter()
        .for_each(|(entity, segment, transform, layers)| {
            let Some(placement) = place(entity, transform) else {
                return;
            };
            let world = Segment::new(placement.apply(segment.a()), placement.apply(segment.b()));
            let center = world.a.midpoint(world.b);
            let bounds = (center, conservative(center, world.half_length()));
            bodies.push(entity, layers, bounds, WorldShape::Segment(world));
        });
    circles
        .iter()
        .for_each(|(entity, circle, transform, layers)| {
            let Some(placement) = place(entity, transform) else {
                return;
            };
            let world = Circle::new(
                placement.apply(circle.offset()),
                circle.radius() * placement.scale,
            );
            bodies.push(
                entity,
                layers,
                (world.center, world.radius),
                WorldShape::Circle(world),
            );
        });
    warnings.end_frame();
}

/// A bounding radius grown by a few units in the last place of the coordinates involved, so
/// that rounding in the world transform never leaves a point of the shape outside its bounding
/// circle. (A circle's bound is the circle itself and needs no margin.)
#[inline]
fn conservative(center: Vec2, radius: f32) -> f32 {
    radius + 8.0 * f32::EPSILON * (radius + center.abs().max_element())
}
