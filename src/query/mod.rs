//! Spatial queries: the [`SpatialQuery`] system param; its filters and its answers have files
//! of their own.

mod filter;
mod hits;

pub use filter::{ColliderFilter, SpatialQueryFilter, WithPredicate};
pub use hits::{NearestCollider, RayCastHit, ShapeCastHit};

use crate::contact::Contact;
use crate::geometry::{
    Circle, MAX_COORDINATE, PushOut, Shape, closest_point, in_range, overlap, push_out, ray_cast,
    sweep,
};
use crate::pipeline::broad_phase::{Grid, Stretch};
use crate::pipeline::parts::Parts;
use crate::pipeline::placed::PlacedColliders;
use crate::pipeline::spatial_index::SpatialIndex;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use core::cell::Cell;

/// Spatial queries: the first collider along a ray, every collider a shape overlaps or a point
/// lies in, the nearest collider to a point, the first one a moving circle meets.
///
/// [`SpatialQuery`] is a system param. It answers from the colliders **as the last run of
/// [`CollisionSystems::Prepare`](crate::CollisionSystems::Prepare) placed them**: in `Update`,
/// with the pipeline in `PostUpdate`, where the previous frame's prepare stage found them (with
/// it at a fixed step, where the last step's did). A move made after that stage, such as a
/// push-out applied after the events, shows from the next run. To answer from this frame's
/// positions, run the system after the prepare stage, for instance
/// `.after(CollisionSystems::Prepare)` in the plugin's schedule (that ordering means nothing in
/// another schedule). A collider spawned since that run is not there yet: one spawned in
/// `Startup` is found after the pipeline's first run (the first `PostUpdate`; at a fixed step,
/// the first step, which may come a frame or more later). Colliders that were switched off with
/// [`ColliderDisabled`](crate::ColliderDisabled) or Bevy's `Disabled`, or skipped (a scale or
/// transform out of range: see the crate docs' Semantics), at that run are never returned;
/// one despawned or switched off since is, until the next run (a system that despawns and then
/// asks should check the answer against its own queries: `get`, not `get().unwrap()`).
///
/// Answers name colliders: for a [`CollisionBody`](crate::CollisionBody), its parts, with the
/// body beside them in the hits (`body`). [`SpatialQueryFilter::with_excluded`] leaves out
/// the entities it names and, for a body, all of its parts: a turret that is a body casts
/// from inside itself with itself excluded. The parts are those the prepare stage found, with
/// the colliders.
///
/// The answers are exact, from the same [`geometry`](crate::geometry) as the contacts; an index
/// (a grid per group of colliders on the same layers, by their memberships, built the first
/// time a query after each run asks for that group, and kept from an earlier run where the
/// group's colliders have the same bounding circles, in the same order) picks the colliders
/// near the query to test, so a query costs what is near it, not what the world holds (only a
/// query as wide as a whole sparse, folded grid, or a ray that runs far through one, tests all
/// of its colliders). A [`SpatialQueryFilter`] says which layers to look at, and which entities to leave out; with
/// [`with_predicate`](ColliderFilter::with_predicate), a test of the game's own too.
///
/// A query out of range finds nothing: a point or origin not finite or beyond
/// [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE), a `max_distance` or radius that is
/// negative or NaN.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_collision_events::prelude::*;
/// const ENEMY: LayerMask = LayerMask::layer(1);
///
/// #[derive(Component)]
/// struct Homing;
///
/// /// Each homing missile turns towards the nearest enemy within 500 px.
/// fn steer(query: SpatialQuery, mut missiles: Query<&mut Transform, With<Homing>>) {
///     let enemies = SpatialQueryFilter::from_mask(ENEMY);
///     for mut transform in &mut missiles {
///         let position = transform.translation.truncate();
///         if let Some(target) = query.nearest(position, 500.0, &enemies) {
///             let heading = (target.point - position).to_angle();
///             transform.rotation = Quat::from_rotation_z(heading);
///         }
///     }
/// }
/// # bevy::ecs::system::assert_is_system(steer);
/// ```
#[derive(SystemParam)]
pub struct SpatialQuery<'w> {
    placed: Res<'w, PlacedColliders>,
    index: Res<'w, SpatialIndex>,
    parts: Res<'w, Parts>,
}

impl SpatialQuery<'_> {
    /// The least move of collider `entity` that separates it from collider `from`, where the
    /// two overlap: [`geometry::push_out`](crate::geometry::push_out) of their shapes as the
    /// last prepare placed them. `None` when they do not overlap there, or when either was
    /// not placed (no collider, switched off, or skipped). See also [`Contact::push_out`].
    ///
    /// The first call after each run fills a table of that run's colliders by entity index:
    /// one store per collider, no hashing.
    pub fn push_out(&self, entity: Entity, from: Entity) -> Option<PushOut> {
        let place = |entity| self.index.place_of(&self.placed, entity);
        let (moved, other) = (place(entity)?, place(from)?);
        push_out(self.placed.shape(moved), self.placed.shape(other))
    }

    /// The first collider along `ray` within `max_distance` (which may be `f32::INFINITY`):
    /// the one met at the smallest distance (ties: the smaller entity).
    pub fn cast_ray(
        &self,
        ray: Ray2d,
        max_distance: f32,
        filter: &(impl ColliderFilter + ?Sized),
    ) -> Option<RayCastHit> {
        if !in_range(ray.origin) {
            return None;
        }
        let best: Cell<Option<RayCastHit>> = Cell::new(None);
        for grid in self.grids(filter) {
            grid.walk(
                Stretch::of_ray(ray, max_distance),
                // A hit found later lies past where the next step starts.
                |step_start| best.get().is_none_or(|best| best.distance >= step_start),
                |collider| {
                    // Candidates no farther than the best so far...
                    let length = best.get().map_or(max_distance, |best| best.distance);
                    if self.on_layers(filter, collider)
                        && self.near_path(collider, ray.origin, *ray.direction, length, 0.0)
                        && self.allows(filter, collider)
                        // ...each against the whole ray, so that every answer is the
                        // geometry's own, bit for bit.
                        && let Some(hit) = self.ray_hit(collider, ray, max_distance)
                        && best.get().is_none_or(|best| {
                            (hit.distance, hit.entity) < (best.distance, best.entity)
                        })
                    {
                        best.set(Some(hit));
                    }
                },
            );
        }
        best.get()
    }

    /// Every collider along `ray` within `max_distance`, in order of distance (ties: by
    /// entity), each once, with where the ray enters it and leaves it (for a concave collider
    /// the ray crosses more than once, where it leaves it first: see [`RayCastHit::exit`]).
    pub fn ray_hits(
        &self,
        ray: Ray2d,
        max_distance: f32,
        filter: &(impl ColliderFilter + ?Sized),
    ) -> Vec<RayCastHit> {
        if !in_range(ray.origin) {
            return Vec::new();
        }
        let mut candidates = Vec::new();
        for grid in self.grids(filter) {
            grid.walk(
                Stretch::of_ray(ray, max_distance),
                |_| true,
                |collider| {
                    if self.on_layers(filter, collider)
                        && self.near_path(collider, ray.origin, *ray.direction, max_distance, 0.0)
                    {
                        candidates.push(collider);
                    }
                },
            );
        }
        candidates.sort_unstable();
        candidates.dedup();
        let mut hits: Vec<RayCastHit> = candidates
            .into_iter()
            .filter(|&collider| self.allows(filter, collider))
            .filter_map(|collider| self.ray_hit(collider, ray, max_distance))
            .collect();
        hits.sort_unstable_by(|p, q| {
            p.distance
                .total_cmp(&q.distance)
                .then(p.entity.cmp(&q.entity))
        });
        hits
    }

    /// The first collider that a circle of `radius` at `center`, moving along `direction` for
    /// `max_distance` (which may be `f32::INFINITY`), touches: the exact time of impact, as the
    /// [sweeps](mod@crate::geometry::sweep) compute it. A collider it already overlaps at
    /// `center` is met at distance zero, touching included, whichever way the circle moves: a
    /// character that slides along the floor it rests on (after
    /// [`push_out`](Self::push_out), the two touch) casts a circle a little smaller than its
    /// own (its radius less a skin of, say, a hundredth of a pixel), which meets a wall it
    /// moves toward and passes along the floor. The circle travels at most
    /// [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE), the sweeps' range.
    pub fn cast_circle(
        &self,
        center: Vec2,
        radius: f32,
        direction: Dir2,
        max_distance: f32,
        filter: &(impl ColliderFilter + ?Sized),
    ) -> Option<ShapeCastHit> {
        let circle = Circle::new(center, radius);
        if !(circle.is_valid() && max_distance >= 0.0) {
            return None;
        }
        // Kept in place (a few grids at most), walked twice.
        let grids = self.index.grids(&self.placed, filter.mask());
        // How far to sweep: no farther than the last grid's box reaches (beyond it nothing is
        // met), nor than `MAX_COORDINATE`, so that the motion stays finite and in the sweeps'
        // range (a box near the edge of the range reaches past it). One reach for every
        // collider, so that each answer is the sweep's own.
        let reach = grids
            .iter()
            .filter_map(|grid| {
                grid.clip(Stretch {
                    reach: radius,
                    ..Stretch::of_ray(Ray2d::new(center, direction), max_distance)
                })
            })
            .map(|(_, end)| end)
            .fold(0.0, f32::max)
            .min(max_distance)
            .min(MAX_COORDINATE);
        let best: Cell<Option<ShapeCastHit>> = Cell::new(None);
        for grid in grids {
            grid.walk(
                Stretch {
                    reach: radius,
                    ..Stretch::of_ray(Ray2d::new(center, direction), reach)
                },
                |step_start| best.get().is_none_or(|best| best.distance >= step_start),
                |collider| {
                    if self.on_layers(filter, collider)
                        && self.near_path(collider, center, *direction, reach, radius)
                        && self.allows(filter, collider)
                        && let Some(hit) = self.circle_hit(collider, circle, *direction, reach)
                        && best.get().is_none_or(|best| {
                            (hit.distance, hit.entity) < (best.distance, best.entity)
                        })
                    {
                        best.set(Some(hit));
                    }
                },
            );
        }
        best.get()
    }

    /// Every collider that `shape` (in world space) overlaps, by the exact
    /// [`overlap`](crate::geometry::overlap) test, sorted by entity. The shapes are
    /// [`geometry`](crate::geometry)'s (its `Circle` is not Bevy's primitive of that name):
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_collision_events::prelude::*;
    /// use bevy_collision_events::geometry::{self, Shape};
    ///
    /// const ENEMY: LayerMask = LayerMask::layer(1);
    /// const BLAST_RADIUS: f32 = 120.0;
    ///
    /// /// Every enemy within the blast of a bomb going off at `at` is destroyed.
    /// fn blast(at: Vec2, query: &SpatialQuery, commands: &mut Commands) {
    ///     let area = Shape::Circle(geometry::Circle::new(at, BLAST_RADIUS));
    ///     for enemy in query.shape_intersections(area, &SpatialQueryFilter::from_mask(ENEMY)) {
    ///         commands.entity(enemy).despawn();
    ///     }
    /// }
    /// ```
    pub fn shape_intersections(
        &self,
        shape: Shape,
        filter: &(impl ColliderFilter + ?Sized),
    ) -> Vec<Entity> {
        let (min, max) = match shape {
            Shape::Circle(disc) => (disc.center - disc.radius, disc.center + disc.radius),
            Shape::Segment(segment) => (segment.a.min(segment.b), segment.a.max(segment.b)),
            Shape::Polygon(vertices) => vertices.iter().fold(
                (Vec2::INFINITY, Vec2::NEG_INFINITY),
                |(min, max), &vertex| (min.min(vertex), max.max(vertex)),
            ),
        };
        let (min, max) = padded(min, max);
        let mut found = Vec::new();
        for grid in self.grids(filter) {
            grid.visit_box(min, max, |collider| {
                if self.on_layers(filter, collider)
                    && self.allows(filter, collider)
                    && overlap(shape, self.placed.shape(collider as usize))
                {
                    found.push(self.placed.entities[collider as usize]);
                }
            });
        }
        found.sort_unstable();
        found.dedup();
        found
    }

    /// Every collider that `point` lies in (its outline included), sorted by entity.
    pub fn point_intersections(
        &self,
        point: Vec2,
        filter: &(impl ColliderFilter + ?Sized),
    ) -> Vec<Entity> {
        self.shape_intersections(Shape::Circle(Circle::new(point, 0.0)), filter)
    }

    /// The collider nearest to `point` within `max_distance` (which may be `f32::INFINITY`),
    /// with its point nearest to `point` (ties: the smaller entity). A collider that holds
    /// `point` is at distance zero.
    pub fn nearest(
        &self,
        point: Vec2,
        max_distance: f32,
        filter: &(impl ColliderFilter + ?Sized),
    ) -> Option<NearestCollider> {
        if !(in_range(point) && max_distance >= 0.0) {
            return None;
        }
        let mut best: Option<NearestCollider> = None;
        for grid in self.grids(filter) {
            // Boxes growing from a cell around the point: once the nearest found lies within
            // the box's half-width, nothing outside the box can be nearer.
            let (grid_min, grid_max) = grid.bounds();
            let covering = (grid_max - point)
                .abs()
                .max((point - grid_min).abs())
                .max_element();
            let mut half_width = grid.cell_size();
            loop {
                let limit = best.map_or(max_distance, |best| best.distance);
                let half = half_width.min(limit);
                let (min, max) = padded(point - half, point + half);
                let everyone = grid.visit_box(min, max, |collider| {
                    if !(self.on_layers(filter, collider) && self.allows(filter, collider)) {
                        return;
                    }
                    let Some(closest) = closest_point(self.placed.shape(collider as usize), point)
                    else {
                        return;
                    };
                    let entity = self.placed.entities[collider as usize];
                    let limit = best.map_or(max_distance, |best| best.distance);
                    let nearer = closest.distance < limit
                        || (closest.distance == limit
                            && best.is_none_or(|best| entity < best.entity));
                    if nearer && closest.distance <= max_distance {
                        best = Some(NearestCollider {
                            entity,
                            body: self.parts.body_of(entity),
                            distance: closest.distance,
                            point: closest.point,
                        });
                    }
                });
                let found_within = best.is_some_and(|best| best.distance <= half);
                if found_within || everyone || half >= limit || half >= covering {
                    break;
                }
                half_width *= 2.0;
            }
        }
        best
    }

    /// The grids holding the colliders the filter may accept.
    fn grids(&self, filter: &(impl ColliderFilter + ?Sized)) -> impl Iterator<Item = &Grid> {
        self.index.grids(&self.placed, filter.mask()).into_iter()
    }

    /// Whether collider `collider` is on a layer of the filter's mask.
    #[inline]
    fn on_layers(&self, filter: &(impl ColliderFilter + ?Sized), collider: u32) -> bool {
        let layers = self.placed.layers[collider as usize];
        layers.memberships.intersects(filter.mask())
    }

    /// Whether the filter's own test allows collider `collider` (on its layers): asked after
    /// the quick looks at where the collider is, before the exact test.
    #[inline]
    fn allows(&self, filter: &(impl ColliderFilter + ?Sized), collider: u32) -> bool {
        let entity = self.placed.entities[collider as usize];
        filter.allows(entity) && {
            let body = self.parts.body_of(entity);
            body == entity || filter.allows_body(body)
        }
    }

    /// Whether collider `collider`'s bounding circle comes within `pad` of the path from `origin`
    /// along the unit `direction` for `length`: see [`near_path`].
    #[inline]
    fn near_path(
        &self,
        collider: u32,
        origin: Vec2,
        direction: Vec2,
        length: f32,
        pad: f32,
    ) -> bool {
        let (center, radius) = (
            self.placed.centers[collider as usize],
            self.placed.radii[collider as usize],
        );
        near_path(center, radius + pad, origin, direction, length)
    }

    /// Collider `collider` against the ray, as a hit with its entity.
    fn ray_hit(&self, collider: u32, ray: Ray2d, max_distance: f32) -> Option<RayCastHit> {
        let hit = ray_cast(ray, max_distance, self.placed.shape(collider as usize))?;
        let entity = self.placed.entities[collider as usize];
        Some(RayCastHit {
            entity,
            body: self.parts.body_of(entity),
            distance: hit.distance,
            point: hit.point,
            normal: hit.normal,
            starts_inside: hit.starts_inside,
            exit: hit.exit,
        })
    }

    /// Collider `collider` against the circle moving along `direction` for `reach` (finite).
    fn circle_hit(
        &self,
        collider: u32,
        circle: Circle,
        direction: Vec2,
        reach: f32,
    ) -> Option<ShapeCastHit> {
        let shape = self.placed.shape(collider as usize);
        let entity = self.placed.entities[collider as usize];
        if overlap(Shape::Circle(circle), shape) {
            let point = closest_point(shape, circle.center).map_or(circle.center, |c| c.point);
            return Some(ShapeCastHit {
                entity,
                body: self.parts.body_of(entity),
                distance: 0.0,
                point,
                normal: -direction,
            });
        }
        let impact = sweep(Shape::Circle(circle), direction * reach, shape, Vec2::ZERO)?;
        Some(ShapeCastHit {
            entity,
            body: self.parts.body_of(entity),
            distance: impact.time * reach,
            point: impact.point,
            normal: impact.normal,
        })
    }
}

/// Whether a circle of `radius` at `center` comes within reach of the path from `origin` along
/// the unit `direction` for `length`: a few operations that spare the exact test most of the
/// candidates a grid gives. It never turns away a circle that the exact ray test meets at a
/// distance up to `length`: its bounds are grown by a few units in the last place of the
/// distances, which the exact test rounds differently.
#[inline]
fn near_path(center: Vec2, radius: f32, origin: Vec2, direction: Vec2, length: f32) -> bool {
    let offset = center - origin;
    let along = direction.dot(offset);
    let slack = 4.0 * f32::EPSILON * (along.abs() + radius);
    direction.perp_dot(offset).abs() <= radius + slack
        && along >= -radius - slack
        && along <= length + radius + slack
}

impl Contact {
    /// The least move of `entity`, one of the two colliders, that separates it from the other:
    /// [`SpatialQuery::push_out`] for this pair. The way a character without a physics engine
    /// gets out of a wall it walked into:
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_collision_events::prelude::*;
    /// #[derive(Component)]
    /// struct Player;
    ///
    /// fn out_of_walls(
    ///     mut contacts: MessageReader<Contact>,
    ///     query: SpatialQuery,
    ///     mut player: Single<(Entity, &mut Transform), With<Player>>,
    /// ) {
    ///     let (entity, ref mut transform) = *player;
    ///     // Each answer is for where the player was before any of them: a second wall's push
    ///     // counts only what the first did not already cover along its direction.
    ///     let mut moved = Vec2::ZERO;
    ///     for contact in contacts.read() {
    ///         if let Some(out) = contact.push_out(entity, &query) {
    ///             moved += out.direction * (out.depth - moved.dot(out.direction)).max(0.0);
    ///         }
    ///     }
    ///     transform.translation += moved.extend(0.0);
    /// }
    /// # bevy::ecs::system::assert_is_system(out_of_walls);
    /// ```
    ///
    /// Read in the same frame's schedule, after
    /// [`CollisionSystems::WriteEvents`](crate::CollisionSystems::WriteEvents), the answer is
    /// for where the pair is in this contact; later, for where the last prepare placed them.
    /// `None` if `entity` is neither collider, or the two no longer overlap. The contact
    /// names colliders: for a [`CollisionBody`](crate::CollisionBody), pass the part in the
    /// contact ([`Contacts::of_body`](crate::Contacts::of_body) lists the body's contacts) and
    /// move the body; its other parts are not looked at. Bevy has
    /// propagated the transforms by then, and draws the frame from `GlobalTransform`: to show
    /// the move this frame, set that too (for an entity without a parent,
    /// `GlobalTransform::from(transform)`), as the `push_out` example does.
    pub fn push_out(&self, entity: Entity, query: &SpatialQuery) -> Option<PushOut> {
        query.push_out(entity, self.other(entity)?)
    }
}

/// The box from `min` to `max`, grown by a few roundings of its coordinates: the box of a
/// shape worked out in `f32` may lie a rounding inside the shape, and a collider just past it
/// would be missed. A box not finite is left as it is.
fn padded(min: Vec2, max: Vec2) -> (Vec2, Vec2) {
    let pad = 4.0 * f32::EPSILON * min.abs().max(max.abs()).max_element();
    if pad.is_finite() {
        (min - pad, max + pad)
    } else {
        (min, max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::ray_circle;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// A circle that a ray meets at distance `d` is near the path of length `d`: cutting the
    /// candidates at the nearest hit so far keeps every hit that ties with it.
    #[test]
    fn a_circle_a_ray_meets_is_near_the_path_up_to_its_hit() {
        let mut rng = StdRng::seed_from_u64(29);
        let mut hits = 0;
        for _ in 0..200_000 {
            let origin = Vec2::new(rng.random_range(-50.0..50.0), rng.random_range(-50.0..50.0));
            let direction = Dir2::new(Vec2::from_angle(rng.random_range(0.0..6.3))).unwrap();
            // Centres near the ray's line, so that most rays hit, some head-on.
            let along = rng.random_range(-5.0..60.0);
            let across = rng.random_range(-3.0..3.0);
            let center = origin + *direction * along + direction.perp() * across;
            let radius = rng.random_range(0.01..4.0);
            let Some(hit) = ray_circle(
                Ray2d::new(origin, direction),
                100.0,
                Circle::new(center, radius),
            ) else {
                continue;
            };
            hits += 1;
            assert!(
                near_path(center, radius, origin, *direction, hit.distance),
                "origin {origin:?} direction {direction:?} centre {center:?} r {radius}: \
                 met at {}",
                hit.distance
            );
        }
        assert!(hits > 100_000);
    }
}
