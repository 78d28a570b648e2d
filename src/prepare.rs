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
use crate::plugin::CollisionSettings;
use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;

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

    /// Appends `additional` placeholder bodies and returns their slots, to be filled in place
    /// (in parallel, piece by piece). A placeholder is on no layer, so even one left in place
    /// would meet nothing; [`Bodies::drop_placeholders`] removes those left unfilled.
    fn grow(&mut self, additional: usize) -> BodySlots<'_> {
        let start = self.entities.len();
        let end = start + additional;
        self.entities.resize(end, Entity::PLACEHOLDER);
        self.layers.resize(end, CollisionLayers::NONE);
        self.centers.resize(end, Vec2::ZERO);
        self.radii.resize(end, 0.0);
        self.shapes
            .resize(end, WorldShape::Circle(Circle::new(Vec2::ZERO, 0.0)));
        BodySlots {
            entities: &mut self.entities[start..],
            layers: &mut self.layers[start..],
            centers: &mut self.centers[start..],
            radii: &mut self.radii[start..],
            shapes: &mut self.shapes[start..],
        }
    }

    /// Removes the bodies from `start` on that are still placeholders, keeping the order.
    fn drop_placeholders(&mut self, start: usize) {
        let mut kept = start;
        for index in start..self.entities.len() {
            if self.entities[index] != Entity::PLACEHOLDER {
                self.entities[kept] = self.entities[index];
                self.layers[kept] = self.layers[index];
                self.centers[kept] = self.centers[index];
                self.radii[kept] = self.radii[index];
                self.shapes[kept] = self.shapes[index];
                kept += 1;
            }
        }
        self.entities.truncate(kept);
        self.layers.truncate(kept);
        self.centers.truncate(kept);
        self.radii.truncate(kept);
        self.shapes.truncate(kept);
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

/// Consecutive bodies' entries in each of [`Bodies`]' arrays, to be written in place.
struct BodySlots<'a> {
    entities: &'a mut [Entity],
    layers: &'a mut [CollisionLayers],
    centers: &'a mut [Vec2],
    radii: &'a mut [f32],
    shapes: &'a mut [WorldShape],
}

impl<'a> BodySlots<'a> {
    fn len(&self) -> usize {
        self.entities.len()
    }

    /// Splits off the first `at` slots.
    fn split_at(self, at: usize) -> (Self, Self) {
        let (entities, entities_rest) = self.entities.split_at_mut(at);
        let (layers, layers_rest) = self.layers.split_at_mut(at);
        let (centers, centers_rest) = self.centers.split_at_mut(at);
        let (radii, radii_rest) = self.radii.split_at_mut(at);
        let (shapes, shapes_rest) = self.shapes.split_at_mut(at);
        (
            Self {
                entities,
                layers,
                centers,
                radii,
                shapes,
            },
            Self {
                entities: entities_rest,
                layers: layers_rest,
                centers: centers_rest,
                radii: radii_rest,
                shapes: shapes_rest,
            },
        )
    }

    fn set(
        &mut self,
        index: usize,
        entity: Entity,
        layers: Option<&CollisionLayers>,
        circle: Circle,
    ) {
        self.entities[index] = entity;
        self.layers[index] = layers.copied().unwrap_or_default();
        self.centers[index] = circle.center;
        self.radii[index] = circle.radius;
        self.shapes[index] = WorldShape::Circle(circle);
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

/// The circles: those of entities without a polygon or segment (which take precedence).
type CircleColliders<'w, 's> =
    Colliders<'w, 's, CircleCollider, (Without<SegmentCollider>, Without<PolygonCollider>)>;

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
    settings: Res<CollisionSettings>,
    mut warnings: Local<SkipWarnings>,
    polygons: Colliders<PolygonCollider>,
    segments: Colliders<SegmentCollider, Without<PolygonCollider>>,
    circles: CircleColliders,
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
    for (entity, why) in place_circles(bodies, &circles, settings.parallel_threshold) {
        warnings.skip(entity, why);
    }
    warnings.end_frame();
}

/// Appends every circle to `bodies`, split across the `ComputeTaskPool` when there are at
/// least `parallel_threshold` of them. Returns the circles left out, and why.
fn place_circles(
    bodies: &mut Bodies,
    circles: &CircleColliders,
    parallel_threshold: usize,
) -> Vec<(Entity, Skipped)> {
    let count = circles.iter().len();
    let start = bodies.entities.len();
    let slots = bodies.grow(count);
    let pool = ComputeTaskPool::try_get().filter(|pool| pool.thread_num() > 1);
    let skipped = match pool {
        Some(pool) if count >= parallel_threshold => {
            // One piece per thread: each piece walks the query from the start to its first
            // circle (Bevy's query iterators cannot jump), so more pieces would walk more.
            let piece_size = count.div_ceil(pool.thread_num());
            pool.scope(|scope| {
                let mut rest = slots;
                let mut first = 0;
                while rest.len() > 0 {
                    let at = piece_size.min(rest.len());
                    let (piece, after) = rest.split_at(at);
                    rest = after;
                    let skip = first;
                    first += piece.len();
                    scope.spawn(async move { place_circle_run(circles, skip, piece) });
                }
            })
            .concat()
        }
        _ => place_circle_run(circles, 0, slots),
    };
    if !skipped.is_empty() {
        bodies.drop_placeholders(start);
    }
    skipped
}

/// Places the circles from the `skip`-th of the query on, one per slot.
fn place_circle_run(
    circles: &CircleColliders,
    skip: usize,
    mut slots: BodySlots,
) -> Vec<(Entity, Skipped)> {
    let mut skipped = Vec::new();
    let count = slots.len();
    circles.iter().skip(skip).take(count).enumerate().for_each(
        |(index, (entity, circle, transform, layers))| match Placement::of(transform) {
            Ok(placement) => {
                let world = Circle::new(
                    placement.apply(circle.offset()),
                    circle.radius() * placement.scale,
                );
                slots.set(index, entity, layers, world);
            }
            Err(why) => skipped.push((entity, why)),
        },
    );
    skipped
}

/// A bounding radius grown by a few units in the last place of the coordinates involved, so
/// that rounding in the world transform never leaves a point of the shape outside its bounding
/// circle. (A circle's bound is the circle itself and needs no margin.)
#[inline]
fn conservative(center: Vec2, radius: f32) -> f32 {
    radius + 8.0 * f32::EPSILON * (radius + center.abs().max_element())
}
