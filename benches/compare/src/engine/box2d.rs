//! Box2D 3.2 as an event detector, through `boxdd` 0.6: its safe bindings, which build the C
//! sources they vendor with `cc`. One world, no gravity, no sleeping. It steps once per frame,
//! in `PostUpdate`, with the frame's time step and one sub-step. Its sensor begin events are
//! the contact starts.
//!
//! The world is `!Send`, so it lives in a non-send resource, [`Physics`]. One system, [`step`],
//! drives it on the main thread. It destroys the bodies of despawned entities. It makes a body
//! and one shape for each new entity, from the [`Collider`] that [`insert_collider`] left on
//! it. It moves the moving bodies to where their [`Path`] is, steps, and records each sensor
//! begin event through [`Recorder`]. A map from each shape to its entity's [`BodyId`] turns
//! events into pairs of scene bodies.
//!
//! Box2D runs on as many workers as the run has compute threads: its own scheduler, the
//! calling thread included. One length unit is one pixel (Box2D's default scale). Its speed cap
//! (400 units a second by default) is lifted, or it would hold the fast bullets back.
//!
//! # Sensors
//! Box2D reports an overlap only between a **sensor** shape and a non-sensor shape with sensor
//! events enabled (a *visitor*). Sensors do not detect sensors, and two kinematic bodies make
//! no contact. So every pair needs one of each, and [`Role`] picks which side is the sensor.
//! At the end of each step every sensor queries the broad phase with its box and tests each
//! visitor there at the step's final pose. Touching counts: a distance under
//! `10 * FLT_EPSILON`. A begin event is a visitor in this step's overlaps and not the last's,
//! so a start lands on the frame it happens, the first frame included. Filters are the scene's
//! layers: `categoryBits` the memberships, `maskBits` the filters.
//!
//! A scene whose bodies meet bodies of their own kind (crossfire's crowd, mixed's enemies) has
//! no such split, so Box2D does not run it ([`CROWD_NOTE`], [`MIXED_NOTE`]).
//!
//! # Moving bodies
//! A [`BodyKind::Moved`] body is kinematic, and [`Motion`] picks how it follows its path. By
//! default `b2Body_SetTargetTransform` gives it the velocity that carries it to its pose in one
//! step. On a frame it wraps, or with no time step, it is teleported with
//! `b2Body_SetTransform`, with no velocity. A [`BodyKind::Fixed`] body is static.
//!
//! Box2D turns a body by `ω·h` as the rotation `normalize(q + ω·h·q⊥)`, whose angle is
//! `atan(ω·h)`: the enemies would fall 2.7e-6 rad short each frame, and one pair of clump-10k
//! would start where ours does not. So a turning body gets the rate `tan(Δ)/h`, which lands on
//! its angle. With one sub-step a body lands exactly on its pose; with four, one pair of
//! rain-10k starts a frame later.
//!
//! # Fast bodies
//! A [`BodyKind::Fast`] bullet is a **dynamic** body that Box2D moves itself, a visitor. Each
//! frame it gets the velocity that carries it, in one step, from where Box2D has it to where
//! the scene has it. On a frame it wraps (and with no time step) it is teleported, which Box2D
//! never sweeps. Walls and targets are static sensors, whatever the [`Role`].
//!
//! Box2D sweeps a dynamic body that moves more than half its smallest extent in a step against
//! static shapes: continuous collision, on by default (`isBullet` would only add kinematic and
//! dynamic targets). Each sensor the sweep reaches before the step's end is a *sensor hit*,
//! which joins that sensor's overlaps at the end of the step. So a bullet that passes through a
//! target within one step is reported too. A sweep reaches a shape a linear slop (0.005 px
//! here) inside it, so a shallower graze is missed. A sweep keeps at most 8 sensor hits, and
//! every sensor whose box meets the swept box takes one of those places, crossed or not: a
//! bullet whose sweep meets more than 8 sensors' boxes can lose the ones it crosses.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;
use boxdd::shapes::{Circle, Polygon, Segment};
use boxdd::{BodyType, Filter, Foundation, ShapeDef, WorkerCount, WorldTransform};

use crate::scene::{Body, BodyId, BodyKind, Layers, MovedByEngine, Path};
use crate::shape::Shape;
use crate::started::Recorder;

/// Why Box2D skips crossfire: its circles all meet each other.
pub const CROWD_NOTE: &str = "every circle meets every other on one layer: Box2D reports only \
     sensor-against-non-sensor overlaps (sensors do not detect sensors, two kinematic bodies make \
     no contact), and a crowd meeting itself has no such split";

/// Why Box2D skips mixed: its enemies meet each other.
pub const MIXED_NOTE: &str = "enemies meet enemies: Box2D reports only sensor-against-non-sensor \
     overlaps (sensors do not detect sensors, two kinematic bodies make no contact), and a kind of \
     body meeting itself has no such split";

/// Adds the world (one worker per compute thread) and the system that drives it.
pub fn install(app: &mut App) {
    let threads = ComputeTaskPool::try_get().map_or(1, |pool| pool.thread_num().max(1));
    app.insert_non_send(Physics::new(threads, Role::chosen(), Motion::chosen()))
        .add_systems(PostUpdate, step);
}

/// Leaves the body's description on the entity, for [`step`] to build its Box2D body from.
pub fn insert_collider(entity: &mut EntityCommands, body: &Body) {
    entity.insert(Collider {
        shape: body.shape.clone(),
        layers: body.layers,
        kind: body.kind,
        moves: body.motion.velocity != Vec2::ZERO || body.motion.spin != 0.0,
        spins: body.motion.spin != 0.0,
        handle: None,
    });
    if body.kind == BodyKind::Fast {
        entity.insert(MovedByEngine);
    }
}

/// The fast bodies' set-up, for the notes under the table.
pub fn fast_note() -> &'static str {
    "dynamic bodies with a velocity, visitors of static sensors: Box2D sweeps them against \
     static shapes and reports each sensor the sweep reaches (a linear slop, 0.005 px, inside \
     it) as a sensor hit at the end of the step; it keeps at most 8 a step per bullet, and \
     sensors whose boxes only meet the sweep's use up that room"
}

/// Which side of each pair is the sensor, in the scenes of [`BodyKind::Moved`] bodies. The
/// table uses [`Role::Targets`], the faster in rain-50k on one thread; [`ROLE_VARIABLE`] picks
/// the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// `targets`: what shots hit (enemies, the player) are sensors; shots are visitors. A few
    /// sensors each query the broad phase once a step.
    Targets,
    /// `bullets`: shots (bullets, lasers) are sensors; what they hit are visitors. Every bullet
    /// queries the broad phase each step.
    Bullets,
}

/// Set to a [`Role`] name to give Box2D that split of sensors and visitors.
pub const ROLE_VARIABLE: &str = "COMPARE_BOX2D_ROLE";

impl Role {
    /// The role named in [`ROLE_VARIABLE`], or the table's.
    ///
    /// # Panics
    /// On a name that is none of them.
    pub fn chosen() -> Self {
        super::chosen(
            ROLE_VARIABLE,
            &[("targets", Self::Targets), ("bullets", Self::Bullets)],
        )
    }

    /// Whether a body of this `kind` on these `layers` gets a sensor shape. Fixed bodies (the
    /// fast scene's walls and targets) are always sensors and fast bullets never are: Box2D's
    /// sweep only reaches sensors from a non-sensor.
    fn is_sensor(self, kind: BodyKind, layers: Layers) -> bool {
        match kind {
            BodyKind::Fixed => true,
            BodyKind::Fast => false,
            BodyKind::Moved => (self == Self::Bullets) == layers.is_shot(),
        }
    }
}

/// How a [`BodyKind::Moved`] body follows its path. The table uses [`Motion::Target`], the
/// faster in rain-50k on one thread; [`MOTION_VARIABLE`] picks the other. Both give the same
/// contact starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// `target`: `b2Body_SetTargetTransform`, the velocities that carry the body to its pose in
    /// one step; a wrap is a teleport.
    Target,
    /// `transform`: `b2Body_SetTransform` to its pose every frame, with no velocity.
    Transform,
}

/// Set to a [`Motion`] name to move Box2D's kinematic bodies that way.
pub const MOTION_VARIABLE: &str = "COMPARE_BOX2D_MOTION";

impl Motion {
    /// The set-up named in [`MOTION_VARIABLE`], or the table's.
    ///
    /// # Panics
    /// On a name that is none of them.
    pub fn chosen() -> Self {
        super::chosen(
            MOTION_VARIABLE,
            &[("target", Self::Target), ("transform", Self::Transform)],
        )
    }
}

/// How the query scene asks Box2D which shapes hold a point. The table uses
/// [`PointQuery::Shape`], the faster; [`POINTS_VARIABLE`] picks the other. Both give the same
/// answers there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointQuery {
    /// `shape`: one world query with the point as a shape (`b2World_OverlapShape`), which tests
    /// each shape in Box2D's own loop (a distance within a tenth of a linear slop, 0.0005 px,
    /// counts).
    Shape,
    /// `box`: a box query at the point, then each shape's own point test through `boxdd`.
    Box,
}

/// Set to a [`PointQuery`] name to ask Box2D's point queries that way.
pub const POINTS_VARIABLE: &str = "COMPARE_BOX2D_POINTS";

impl PointQuery {
    /// The one named in [`POINTS_VARIABLE`], or the table's.
    ///
    /// # Panics
    /// On a name that is none of them.
    pub fn chosen() -> Self {
        super::chosen(
            POINTS_VARIABLE,
            &[("shape", Self::Shape), ("box", Self::Box)],
        )
    }
}

/// Set (to anything) to print, each frame, how long Box2D's own step took and how long the
/// whole system took (the difference is creating, moving and mapping through `boxdd`), to
/// standard error.
pub const PROFILE_VARIABLE: &str = "COMPARE_BOX2D_PROFILE";

/// What [`insert_collider`] leaves on an entity: its body's description, and, once [`step`]
/// has made it, the Box2D body.
#[derive(Component)]
pub struct Collider {
    /// Its outline.
    shape: Shape,
    /// Its layers.
    layers: Layers,
    /// How it moves.
    kind: BodyKind,
    /// Whether it moves or turns at all.
    moves: bool,
    /// Whether it turns.
    spins: bool,
    /// Its Box2D body, once made.
    handle: Option<boxdd::BodyId>,
}

/// A query filter that meets every shape. Box2D tests a query as it tests a pair of shapes:
/// the query's category against the shape's mask too. Its default category (bit 0) would miss
/// every shape whose mask leaves bit 0 out (the bullets), so the query is on every layer.
fn every_layer() -> boxdd::QueryFilter {
    boxdd::QueryFilter::default()
        .category(u64::MAX)
        .mask(u64::MAX)
}

/// The Box2D world and what maps it back to the scene.
pub struct Physics {
    /// The world.
    world: boxdd::World,
    /// Which side of a pair is the sensor.
    role: Role,
    /// How kinematic bodies are moved.
    motion: Motion,
    /// Each entity's Box2D body and shape, to destroy them when the entity goes.
    bodies: HashMap<Entity, (boxdd::BodyId, boxdd::ShapeId)>,
    /// Each shape's scene body, to turn events into pairs of bodies.
    shapes: HashMap<boxdd::ShapeId, BodyId>,
    /// Whether to print [`PROFILE_VARIABLE`]'s times.
    profile: bool,
    /// How point queries are asked.
    points: PointQuery,
}

impl Physics {
    /// An empty world with `workers` workers.
    ///
    /// # Panics
    /// If Box2D refuses the set-up.
    fn new(workers: usize, role: Role, motion: Motion) -> Self {
        let foundation = Foundation::initialize_default().expect("Box2D's foundation");
        let workers = WorkerCount::new(u32::try_from(workers).unwrap_or(u32::MAX))
            .expect("a worker count Box2D takes");
        let def = foundation
            .world_builder()
            .gravity([0.0, 0.0])
            .enable_sleep(false)
            .enable_continuous(true)
            // Far above any speed here (the fastest bullet: 40 px a frame, 2,400 a second).
            .maximum_linear_speed(1.0e6)
            .worker_count(workers)
            .build()
            .expect("a valid world definition");
        Self {
            world: foundation.create_world(def).expect("a Box2D world"),
            role,
            motion,
            bodies: HashMap::default(),
            shapes: HashMap::default(),
            profile: std::env::var_os(PROFILE_VARIABLE).is_some(),
            points: PointQuery::chosen(),
        }
    }

    /// The query scene's rays: the first shape a ray from `origin` along `direction` meets
    /// within `length`, and how far, on every layer ([`every_layer`]). Box2D's closest-hit ray
    /// cast skips a shape the ray starts in, so a shape holding `origin` ([`Self::shapes_at`])
    /// is met first, at 0, as in the other engines' solid rays; otherwise the cast answers.
    ///
    /// # Panics
    /// If Box2D refuses the query.
    pub fn cast_ray(
        &mut self,
        origin: Vec2,
        direction: Dir2,
        length: f32,
    ) -> Option<(boxdd::ShapeId, f32)> {
        if let Some(&inside) = self.shapes_at(origin).first() {
            return Some((inside, 0.0));
        }
        let hit = self
            .world
            .query()
            .expect("a query")
            .cast_ray_closest(
                boxdd::Position::new(origin.x, origin.y),
                [direction.x * length, direction.y * length],
                every_layer(),
            )
            .expect("a ray cast")?;
        Some((hit.shape_id, hit.fraction * length))
    }

    /// The query scene's point queries: every shape holding `point`, on every layer
    /// ([`every_layer`]), asked as [`PointQuery`] says.
    ///
    /// # Panics
    /// If Box2D refuses the query.
    pub fn shapes_at(&mut self, point: Vec2) -> Vec<boxdd::ShapeId> {
        let origin = boxdd::Position::new(point.x, point.y);
        let query = self.world.query().expect("a query");
        match self.points {
            PointQuery::Shape => {
                let at = boxdd::ShapeProxy::new([[0.0, 0.0]], 0.0).expect("a point");
                query
                    .overlap_shape(origin, at, every_layer())
                    .expect("a shape query")
            }
            PointQuery::Box => {
                let candidates = query
                    .overlap_aabb(
                        origin,
                        boxdd::Aabb::new([0.0, 0.0], [0.0, 0.0]).expect("a box"),
                        every_layer(),
                    )
                    .expect("a box query");
                candidates
                    .into_iter()
                    .filter(|&shape| {
                        self.world
                            .shape(shape)
                            .and_then(|shape| shape.test_point(origin))
                            .expect("a point test")
                    })
                    .collect()
            }
        }
    }

    /// The scene body of Box2D shape `shape`.
    pub fn body_of(&self, shape: boxdd::ShapeId) -> Option<BodyId> {
        self.shapes.get(&shape).copied()
    }

    /// Makes the Box2D body of `collider`, with its one shape, where `path` is.
    ///
    /// # Panics
    /// If Box2D refuses it.
    fn create(
        &mut self,
        entity: Entity,
        id: BodyId,
        path: &Path,
        collider: &Collider,
    ) -> boxdd::BodyId {
        let body_type = match collider.kind {
            BodyKind::Moved => BodyType::Kinematic,
            BodyKind::Fixed => BodyType::Static,
            BodyKind::Fast => BodyType::Dynamic,
        };
        let position = path.position();
        let def = self
            .world
            .body_builder()
            .body_type(body_type)
            .position([position.x, position.y])
            .angle(path.angle())
            .build()
            .expect("a valid body definition");
        let handle = self.world.create_body(def).expect("a Box2D body");
        let layers = collider.layers;
        let shape_def = ShapeDef::builder()
            .filter(Filter {
                category_bits: u64::from(layers.memberships),
                mask_bits: u64::from(layers.filters),
                group_index: 0,
            })
            .sensor(self.role.is_sensor(collider.kind, layers))
            .enable_sensor_events(true)
            .build()
            .expect("a valid shape definition");
        let mut body = self.world.body(handle).expect("the body just made");
        let shape = match &collider.shape {
            Shape::Circle(radius) => body.create_circle(
                &shape_def,
                &Circle::new([0.0, 0.0], *radius).expect("a valid circle"),
            ),
            Shape::Segment(a, b) => body.create_segment(
                &shape_def,
                &Segment::new([a.x, a.y], [b.x, b.y]).expect("a valid segment"),
            ),
            // Box2D takes convex polygons of up to 8 vertices, which every scene it runs has.
            Shape::Polygon(vertices) => body.create_polygon(
                &shape_def,
                &Polygon::from_points(vertices.iter().map(|v| [v.x, v.y]), 0.0)
                    .expect("a convex polygon of at most 8 vertices"),
            ),
        }
        .expect("a Box2D shape");
        self.shapes.insert(shape, id);
        self.bodies.insert(entity, (handle, shape));
        handle
    }

    /// Moves body `handle` to follow `path` over a step of `dt` seconds (none on the first
    /// frame): see [`Motion`] and the module's notes on fast bodies.
    ///
    /// # Panics
    /// If Box2D refuses it.
    fn follow(&mut self, handle: boxdd::BodyId, collider: &Collider, path: &Path, dt: f32) {
        let position = path.position();
        let target = [position.x, position.y];
        let moved = dt > 0.0 && path.moved_from().is_some();
        let mut body = self.world.body(handle).expect("a live body");
        match collider.kind {
            BodyKind::Moved if moved && self.motion == Motion::Target => {
                let pose =
                    WorldTransform::from_pos_angle(target, path.angle()).expect("a finite pose");
                body.set_target_transform(pose, dt, true)
                    .expect("a reachable pose");
                if collider.spins {
                    // Box2D turns a body by ω·h as the rotation normalize(q + ω·h·q⊥), an angle
                    // of atan(ω·h): short of the target by 2.7e-6 rad a frame at this spin. The
                    // rate whose step lands on the path's angle is tan of the turn left.
                    let now = body.rotation().expect("a rotation");
                    let (sin, cos) = path.angle().sin_cos();
                    let turn = (now.cosine() * sin - now.sine() * cos)
                        .atan2(now.cosine() * cos + now.sine() * sin);
                    body.set_angular_velocity(turn.tan() / dt)
                        .expect("an angular velocity");
                }
            }
            BodyKind::Fast if moved => {
                let now = body.position().expect("a position");
                let velocity = [(position.x - now.x) / dt, (position.y - now.y) / dt];
                body.set_linear_velocity(velocity).expect("a velocity");
            }
            BodyKind::Moved if self.motion == Motion::Transform => {
                body.set_position_and_rotation(target, path.angle())
                    .expect("a pose");
            }
            // A teleport: a wrap, or the first frame.
            BodyKind::Moved | BodyKind::Fast => {
                body.set_position_and_rotation(target, path.angle())
                    .expect("a pose");
                body.set_linear_velocity([0.0, 0.0]).expect("a velocity");
                body.set_angular_velocity(0.0).expect("a velocity");
            }
            BodyKind::Fixed => {}
        }
    }
}

/// One frame of Box2D: destroys the bodies of despawned entities, makes those of new ones,
/// moves the rest, steps once, and records every sensor begin event.
///
/// # Panics
/// If Box2D refuses any of it.
fn step(
    mut physics: NonSendMut<Physics>,
    time: Res<Time>,
    mut removed: RemovedComponents<Collider>,
    mut colliders: Query<(Entity, &BodyId, &Path, &mut Collider)>,
    mut recorder: Recorder,
) {
    let start = std::time::Instant::now();
    let physics = &mut *physics;
    for entity in removed.read() {
        if let Some((handle, shape)) = physics.bodies.remove(&entity) {
            physics.shapes.remove(&shape);
            let body = physics.world.body(handle).expect("a live body");
            body.destroy().expect("a body destroyed");
        }
    }
    let dt = time.delta_secs();
    for (entity, &id, path, mut collider) in &mut colliders {
        match collider.handle {
            None => {
                collider.handle = Some(physics.create(entity, id, path, &collider));
            }
            Some(handle) if collider.moves => physics.follow(handle, &collider, path, dt),
            Some(_) => {}
        }
    }
    let Physics {
        world,
        shapes,
        profile,
        ..
    } = physics;
    let completed = world.step(dt, 1).expect("a step");
    let events = completed.sensor_events().expect("the step's sensor events");
    for event in events.begin() {
        if let (Some(&sensor), Some(&visitor)) = (
            shapes.get(&event.sensor_shape),
            shapes.get(&event.visitor_shape),
        ) {
            recorder.record(sensor, visitor);
        }
    }
    drop(completed);
    if *profile {
        let native = world.profile().expect("the step's profile");
        eprintln!(
            "box2d: step {:.3} ms (pairs {:.3}, collide {:.3}, solve {:.3}, sensors {:.3}), \
             system {:.3} ms",
            native.step,
            native.pairs,
            native.collide,
            native.solve,
            native.sensors,
            start.elapsed().as_secs_f64() * 1e3
        );
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use bevy::time::TimeUpdateStrategy;

    use super::*;
    use crate::engine::Engine;
    use crate::scene::{Scene, SceneKind};
    use crate::started::{self, LAST_COUNTED_FRAME, StartedPairs};

    /// The contact starts counted on rain-1k, with the engine set up by `install`.
    fn starts(engine: Engine, install: impl FnOnce(&mut App)) -> StartedPairs {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, TransformPlugin, started::plugin))
            .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_nanos(
                16_666_667,
            )));
        install(&mut app);
        Scene {
            kind: SceneKind::Rain,
            size: 1_000,
        }
        .populate(&mut app, engine);
        app.finish();
        app.cleanup();
        for _ in 0..LAST_COUNTED_FRAME {
            app.update();
        }
        *app.world().resource::<StartedPairs>()
    }

    #[test]
    fn every_role_and_motion_starts_what_ours_does() {
        let ours = starts(Engine::Ours, |app| Engine::Ours.install(app));
        assert!(ours.count > 0);
        for role in [Role::Targets, Role::Bullets] {
            for motion in [Motion::Target, Motion::Transform] {
                let theirs = starts(Engine::Box2d, |app| {
                    app.insert_non_send(Physics::new(1, role, motion))
                        .add_systems(PostUpdate, step);
                });
                assert_eq!(theirs, ours, "{role:?}, {motion:?}");
            }
        }
    }
}
