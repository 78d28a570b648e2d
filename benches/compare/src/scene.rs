//! The scenes, described once as plain data (shape, layers, place, motion and kind of every
//! body) so that every engine is handed exactly the same world, and the systems that move it
//! each frame.

use bevy::math::Rect;
use bevy::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::engine::Engine;
use crate::shape::{Shape, l_shape, regular_polygon, star};
use crate::started::Frame;

/// The playing field every scene lives in, in pixels.
pub const FIELD: Vec2 = Vec2::new(1920.0, 1080.0);

/// Collision layers as bit masks; each engine turns them into its own layer type. Two bodies
/// are tested when each one's memberships meet the other's filters, the rule every engine shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layers {
    /// The layers the body is on.
    pub memberships: u32,
    /// The layers it touches.
    pub filters: u32,
}

impl Layers {
    /// Whether the body is a shot (a bullet or a laser) rather than something shots hit: how
    /// Box2D, which needs one sensor in each pair, splits a scene into sensors and visitors.
    pub fn is_shot(self) -> bool {
        self.memberships & (BULLET | LASER) != 0
    }
}

const BULLET: u32 = 1 << 0;
const ENEMY: u32 = 1 << 1;
const PLAYER: u32 = 1 << 2;
const LASER: u32 = 1 << 3;
const WALL: u32 = 1 << 4;
const CROWD: u32 = 1 << 5;

const fn layers(memberships: u32, filters: u32) -> Layers {
    Layers {
        memberships,
        filters,
    }
}

/// How a body moves each frame: it drifts by `velocity`, turns by `spin`, and wraps around
/// inside `area`.
#[derive(Clone, Copy, Debug)]
pub struct Motion {
    /// Pixels per frame.
    pub velocity: Vec2,
    /// Radians per frame.
    pub spin: f32,
    /// The rectangle the body wraps around in.
    pub area: Rect,
}

impl Motion {
    const STILL: Self = Self {
        velocity: Vec2::ZERO,
        spin: 0.0,
        area: Rect {
            min: Vec2::ZERO,
            max: FIELD,
        },
    };
}

/// Where a body is: advanced by the same arithmetic in every engine's run (and in the exact
/// count, [`crate::exact`]) and written into `Transform` each frame, never read back from it, so
/// that an engine writing its own idea of the pose into `Transform` (avian2d does) cannot make
/// its world drift from the others'. A body its engine moves by a velocity
/// ([`MovedByEngine`]) is steered to it instead: each frame's velocity ends the step here.
#[derive(Component, Clone, Copy, Debug)]
pub struct Path {
    position: Vec2,
    angle: f32,
    motion: Motion,
    /// Where the last [`advance`](Self::advance) started; `None` before the first and after
    /// one that wrapped.
    moved_from: Option<Vec2>,
}

impl Path {
    fn transform(&self) -> Transform {
        Transform::from_translation(self.position.extend(0.0))
            .with_rotation(Quat::from_rotation_z(self.angle))
    }

    /// Where the body is.
    pub fn position(&self) -> Vec2 {
        self.position
    }

    /// How far the body has turned, radians.
    pub fn angle(&self) -> f32 {
        self.angle
    }

    /// Where this frame's straight move started: `None` before the body first moved, and on
    /// a frame it wrapped around its area (a teleport, not a move across the field).
    pub fn moved_from(&self) -> Option<Vec2> {
        self.moved_from
    }

    /// One frame on: drift, wrap (a step is always smaller than the area), turn.
    pub fn advance(&mut self) {
        let Motion {
            velocity,
            spin,
            area,
        } = self.motion;
        let from = self.position;
        self.position += velocity;
        let size = area.size();
        let mut wrapped = false;
        for axis in 0..2 {
            if self.position[axis] < area.min[axis] {
                self.position[axis] += size[axis];
                wrapped = true;
            } else if self.position[axis] >= area.max[axis] {
                self.position[axis] -= size[axis];
                wrapped = true;
            }
        }
        self.moved_from = (!wrapped).then_some(from);
        self.angle += spin;
    }
}

/// A body's number in its scene, the same in every engine: how contact pairs are compared
/// across engines whose entities differ.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyId(pub u32);

/// Marks the bullets that the churn scene despawns and respawns.
#[derive(Component)]
struct Churned;

/// What an engine is told about how a body moves, beyond its [`Motion`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// Placed by the harness's `Transform` writes each frame (or still): every body of the
    /// scenes without fast bullets. The peers get a kinematic sensor body (avian2d) or a
    /// collider without a rigid body (`bevy_rapier2d`).
    Moved,
    /// Never moves: a static body where the engine has them.
    Fixed,
    /// Moves so fast that where it is each frame is not enough: this crate sweeps it
    /// (`Swept`), and each peer moves it with a velocity under its own continuous collision
    /// detection (see `engine/`).
    Fast,
}

/// One body of a scene.
#[derive(Clone, Debug)]
pub struct Body {
    /// Its outline in local space.
    pub shape: Shape,
    /// Its collision layers.
    pub layers: Layers,
    /// Where it starts.
    pub position: Vec2,
    /// Its starting angle, radians.
    pub rotation: f32,
    /// How it moves.
    pub motion: Motion,
    /// How the engines are told to move it.
    pub kind: BodyKind,
}

impl Body {
    /// Where it is before the first frame.
    pub fn path(&self) -> Path {
        Path {
            position: self.position,
            angle: self.rotation,
            motion: self.motion,
            moved_from: None,
        }
    }
}

/// The kinds of scene.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SceneKind {
    /// Bullets raining across the field onto 64 octagon enemies and a player.
    Rain,
    /// Circles of mixed sizes, every one tested against every other.
    Crossfire,
    /// Bullets, lasers, concave enemies and walls.
    Mixed,
    /// Rain with the bullets packed into a tenth of the field.
    Clump,
    /// Rain with a tenth of the bullets despawned and respawned every frame.
    Churn,
    /// Small fast bullets, each moving several times its size a frame, against thin walls
    /// and small targets: the bullets are [`BodyKind::Fast`], and [`crate::exact`] counts the
    /// hits they should report.
    Fast,
}

/// A scene kind at a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scene {
    /// Which scene.
    pub kind: SceneKind,
    /// How many bullets (rain, clump, churn, mixed, fast) or circles (crossfire).
    pub size: usize,
}

impl Scene {
    /// Every scene the comparison runs, in table order.
    pub const ALL: [Self; 8] = [
        Self::new(SceneKind::Rain, 1_000),
        Self::new(SceneKind::Rain, 10_000),
        Self::new(SceneKind::Rain, 50_000),
        Self::new(SceneKind::Crossfire, 10_000),
        Self::new(SceneKind::Mixed, 5_000),
        Self::new(SceneKind::Clump, 10_000),
        Self::new(SceneKind::Churn, 10_000),
        Self::new(SceneKind::Fast, 5_000),
    ];

    const fn new(kind: SceneKind, size: usize) -> Self {
        Self { kind, size }
    }

    /// A short name, such as `rain-50k`: used on the command line and in the table.
    pub fn name(&self) -> String {
        let kind = match self.kind {
            SceneKind::Rain => "rain",
            SceneKind::Crossfire => "crossfire",
            SceneKind::Mixed => "mixed",
            SceneKind::Clump => "clump",
            SceneKind::Churn => "churn",
            SceneKind::Fast => "fast",
        };
        format!("{kind}-{}k", self.size / 1000)
    }

    /// Whether the engines' contact starts are checked against the exact count
    /// ([`crate::exact`]): the scenes with [`BodyKind::Fast`] bullets.
    pub fn checks_hits(&self) -> bool {
        self.kind == SceneKind::Fast
    }

    /// The scene named `name` (as [`Scene::name`] writes it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|scene| scene.name() == name)
    }

    /// Every body of the scene, in [`BodyId`] order. The same seed gives the same bodies.
    pub fn bodies(&self) -> Vec<Body> {
        let mut rng = StdRng::seed_from_u64(0x5eed);
        match self.kind {
            SceneKind::Rain | SceneKind::Churn => rain(&mut rng, self.size, full_field()),
            SceneKind::Clump => {
                // A tenth of the field's area, with the field's proportions, over the enemies.
                let size = FIELD / 10f32.sqrt();
                let centre = Vec2::new(FIELD.x / 2.0, 700.0);
                rain(&mut rng, self.size, Rect::from_center_size(centre, size))
            }
            SceneKind::Crossfire => crossfire(&mut rng, self.size),
            SceneKind::Mixed => mixed(&mut rng, self.size),
            SceneKind::Fast => fast(&mut rng, self.size),
        }
    }

    /// Builds the app for this scene on `engine`: spawns every body and adds the systems that
    /// move it (and, for churn, respawn it) each frame.
    pub fn populate(&self, app: &mut App, engine: Engine) {
        let bodies = self.bodies();
        let world = app.world_mut();
        let mut commands = world.commands();
        for (id, body) in bodies.iter().enumerate() {
            let mut entity = spawn(&mut commands, engine, body, BodyId(id as u32));
            if self.kind == SceneKind::Churn && body.layers.memberships == BULLET {
                entity.insert(Churned);
            }
        }
        world.flush();
        app.add_systems(Update, move_bodies.in_set(MoveBodies));
        if self.kind == SceneKind::Churn {
            app.insert_resource(Respawn { engine, bodies })
                .add_systems(Update, churn.before(MoveBodies));
        }
    }
}

impl Scene {
    /// Spawns every body on `engine` where it starts, with nothing to move it: the query scene.
    pub fn spawn_still(&self, app: &mut App, engine: Engine) {
        let world = app.world_mut();
        let mut commands = world.commands();
        for (id, body) in self.bodies().iter().enumerate() {
            spawn(&mut commands, engine, body, BodyId(id as u32));
        }
        world.flush();
    }
}

/// The system set (in `Update`) that advances every body's [`Path`] and writes its
/// `Transform`; an engine's own per-frame work for [`BodyKind::Fast`] bodies (a velocity, a
/// jump) runs after it.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveBodies;

/// Spawns `body` with `engine`'s collider components.
fn spawn<'a>(
    commands: &'a mut Commands,
    engine: Engine,
    body: &Body,
    id: BodyId,
) -> EntityCommands<'a> {
    let path = body.path();
    let mut entity = commands.spawn((path.transform(), path, id));
    engine.insert_collider(&mut entity, body);
    entity
}

fn full_field() -> Rect {
    Rect::from_corners(Vec2::ZERO, FIELD)
}

fn random_point(rng: &mut StdRng, area: Rect) -> Vec2 {
    Vec2::new(
        rng.random_range(area.min.x..area.max.x),
        rng.random_range(area.min.y..area.max.y),
    )
}

fn random_direction(rng: &mut StdRng) -> Vec2 {
    Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU))
}

/// 64 octagon enemies in four rows, drifting sideways and turning; a player ship; `bullets`
/// circles of radius 4 moving at 6 px per frame inside `bullet_area`.
fn rain(rng: &mut StdRng, bullets: usize, bullet_area: Rect) -> Vec<Body> {
    let mut bodies = Vec::with_capacity(bullets + 65);
    for i in 0..64 {
        bodies.push(Body {
            shape: Shape::Polygon(regular_polygon(8, 24.0)),
            layers: layers(ENEMY, BULLET),
            position: Vec2::new(
                (i % 16) as f32 * 120.0 + 60.0,
                (i / 16) as f32 * 120.0 + 560.0,
            ),
            rotation: 0.0,
            motion: Motion {
                velocity: Vec2::new(1.0, 0.0),
                spin: 0.02,
                ..Motion::STILL
            },
            kind: BodyKind::Moved,
        });
    }
    bodies.push(Body {
        shape: Shape::Polygon(vec![
            Vec2::new(0.0, 20.0),
            Vec2::new(-16.0, -12.0),
            Vec2::new(16.0, -12.0),
        ]),
        layers: layers(PLAYER, BULLET),
        position: Vec2::new(FIELD.x / 2.0, 120.0),
        rotation: 0.0,
        motion: Motion {
            velocity: Vec2::new(3.0, 0.0),
            ..Motion::STILL
        },
        kind: BodyKind::Moved,
    });
    for _ in 0..bullets {
        bodies.push(bullet(rng, bullet_area));
    }
    bodies
}

fn bullet(rng: &mut StdRng, area: Rect) -> Body {
    Body {
        shape: Shape::Circle(4.0),
        layers: layers(BULLET, ENEMY | PLAYER | WALL),
        position: random_point(rng, area),
        rotation: 0.0,
        motion: Motion {
            velocity: random_direction(rng) * 6.0,
            spin: 0.0,
            area,
        },
        kind: BodyKind::Moved,
    }
}

/// `count` circles of radius 2 to 7 moving at 1 to 5 px per frame, all against all.
fn crossfire(rng: &mut StdRng, count: usize) -> Vec<Body> {
    (0..count)
        .map(|_| Body {
            shape: Shape::Circle(rng.random_range(2.0..7.0)),
            layers: layers(CROWD, CROWD),
            position: random_point(rng, full_field()),
            rotation: 0.0,
            motion: Motion {
                velocity: random_direction(rng) * rng.random_range(1.0..5.0),
                ..Motion::STILL
            },
            kind: BodyKind::Moved,
        })
        .collect()
}

/// `bullets` bullets, 500 lasers (segments 40–160 px, turning), 300 concave enemies (stars
/// and L shapes, turning) and 200 still walls (segments 60–200 px). Bullets and lasers hit
/// enemies and walls; enemies hit each other and walls.
fn mixed(rng: &mut StdRng, bullets: usize) -> Vec<Body> {
    let field = full_field();
    let mut bodies = Vec::with_capacity(bullets + 1000);
    for _ in 0..bullets {
        let mut body = bullet(rng, field);
        body.layers = layers(BULLET, ENEMY | WALL);
        bodies.push(body);
    }
    for _ in 0..500 {
        let half = random_direction(rng) * rng.random_range(20.0..80.0);
        bodies.push(Body {
            shape: Shape::Segment(-half, half),
            layers: layers(LASER, ENEMY | WALL),
            position: random_point(rng, field),
            rotation: 0.0,
            motion: Motion {
                velocity: random_direction(rng) * rng.random_range(4.0..8.0),
                spin: rng.random_range(-0.05..0.05),
                area: field,
            },
            kind: BodyKind::Moved,
        });
    }
    for i in 0..300 {
        let size = rng.random_range(20.0..32.0);
        let outline = if i % 2 == 0 {
            star(5, size, size * 0.45)
        } else {
            l_shape(size * 1.4)
        };
        bodies.push(Body {
            shape: Shape::Polygon(outline),
            layers: layers(ENEMY, BULLET | LASER | ENEMY | WALL),
            position: random_point(rng, field),
            rotation: rng.random_range(0.0..std::f32::consts::TAU),
            motion: Motion {
                velocity: random_direction(rng) * rng.random_range(1.0..2.0),
                spin: rng.random_range(-0.03..0.03),
                area: field,
            },
            kind: BodyKind::Moved,
        });
    }
    for _ in 0..200 {
        let half = random_direction(rng) * rng.random_range(30.0..100.0);
        bodies.push(Body {
            shape: Shape::Segment(-half, half),
            layers: layers(WALL, BULLET | LASER | ENEMY),
            position: random_point(rng, field),
            rotation: 0.0,
            motion: Motion::STILL,
            kind: BodyKind::Moved,
        });
    }
    bodies
}

/// How far inside the field's edge every wall and target of the fast scene lies: more than a
/// bullet's longest step plus its radius, so that no bullet can meet one on a frame it wraps
/// (where it is tested only where it lands, in every engine and in the exact count).
const FAST_EDGE: f32 = 64.0;

/// `bullets` fast bullets, circles of radius 2–3 moving 15–40 px a frame (several times their
/// size) and wrapping around the field, against 200 thin walls (100 segments and 100 boxes
/// 3 px thick, each 60–200 px long) and 300 small targets (150 discs of radius 4–8 and 150
/// convex polygons of 3–6 sides, circumradius 5–10). Walls and targets are fixed, turned once
/// when made (the turn is in their outline: an angle of zero), and at least [`FAST_EDGE`] px
/// inside the field. Bullets meet walls and targets only.
fn fast(rng: &mut StdRng, bullets: usize) -> Vec<Body> {
    let inner = Rect::from_corners(Vec2::splat(FAST_EDGE), FIELD - FAST_EDGE);
    let mut bodies = Vec::with_capacity(bullets + 500);
    let mut fixed = |rng: &mut StdRng, shape: Shape, extent: f32, layers: Layers| {
        bodies.push(Body {
            shape,
            layers,
            position: random_point(rng, inner.inflate(-extent)),
            rotation: 0.0,
            motion: Motion::STILL,
            kind: BodyKind::Fixed,
        });
    };
    for i in 0..200 {
        let half = random_direction(rng) * rng.random_range(30.0..100.0);
        let shape = if i % 2 == 0 {
            Shape::Segment(-half, half)
        } else {
            let side = half.perp().normalize() * 1.5;
            Shape::Polygon(vec![-half - side, half - side, half + side, -half + side])
        };
        fixed(rng, shape, half.length() + 1.5, layers(WALL, BULLET));
    }
    for i in 0..300 {
        let (shape, extent) = if i % 2 == 0 {
            let radius = rng.random_range(4.0..8.0);
            (Shape::Circle(radius), radius)
        } else {
            let circumradius = rng.random_range(5.0..10.0);
            let turn = random_direction(rng);
            let outline = regular_polygon(rng.random_range(3..=6), circumradius)
                .into_iter()
                .map(|vertex| turn.rotate(vertex))
                .collect();
            (Shape::Polygon(outline), circumradius)
        };
        fixed(rng, shape, extent, layers(ENEMY, BULLET));
    }
    let field = full_field();
    for _ in 0..bullets {
        bodies.push(Body {
            shape: Shape::Circle(rng.random_range(2.0..3.0)),
            layers: layers(BULLET, ENEMY | WALL),
            position: random_point(rng, field),
            rotation: 0.0,
            motion: Motion {
                velocity: random_direction(rng) * rng.random_range(15.0..40.0),
                spin: 0.0,
                area: field,
            },
            kind: BodyKind::Fast,
        });
    }
    bodies
}

/// Marks a body that its engine moves by a velocity, set each frame from its [`Path`] by the
/// engine's own system (which also teleports it on a frame it wraps): [`move_bodies`] only
/// advances its `Path`.
#[derive(Component)]
pub struct MovedByEngine;

/// Advances every moving body's [`Path`] and writes it into its `Transform` (the rotation only
/// when it turns: bullets skip the sine and cosine), except where the engine moves the body
/// itself ([`MovedByEngine`]). Split across the compute threads, as a game moving tens of
/// thousands of bullets would.
fn move_bodies(mut bodies: Query<(&mut Transform, &mut Path, Has<MovedByEngine>)>) {
    bodies
        .par_iter_mut()
        .for_each(|(mut transform, mut path, moved_by_engine)| {
            let Motion { velocity, spin, .. } = path.motion;
            if velocity == Vec2::ZERO && spin == 0.0 {
                return;
            }
            path.advance();
            if moved_by_engine {
                return;
            }
            transform.translation = path.position.extend(0.0);
            if spin != 0.0 {
                transform.rotation = Quat::from_rotation_z(path.angle);
            }
        });
}

/// What the churn scene respawns from: the engine and the scene's bodies.
#[derive(Resource)]
struct Respawn {
    engine: Engine,
    bodies: Vec<Body>,
}

/// Despawns the bullets whose id ends in this frame's digit (a tenth of them) and spawns each
/// again, as a new entity with the same id, at a place that depends only on id and frame.
fn churn(
    mut commands: Commands,
    bullets: Query<(Entity, &BodyId), With<Churned>>,
    respawn: Res<Respawn>,
    frame: Res<Frame>,
) {
    let digit = frame.0 % 10;
    for (entity, &id) in &bullets {
        if id.0 % 10 != digit {
            continue;
        }
        commands.entity(entity).despawn();
        let mut body = respawn.bodies[id.0 as usize].clone();
        let mut rng = StdRng::seed_from_u64(u64::from(frame.0) << 32 | u64::from(id.0));
        body.position = random_point(&mut rng, body.motion.area);
        spawn(&mut commands, respawn.engine, &body, id).insert(Churned);
    }
}
