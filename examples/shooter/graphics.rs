//! The shooter's looks: every outline drawn with `bevy_prototype_lyon` from the very collider
//! it belongs to, coloured by its [`Role`]; bullets as one shared mesh per look, so ten
//! thousand of them cost the renderer a few batched draws; a spark at every contact point,
//! read from the [`Contact`] messages; and the HUD, with the crate's own timings.

use std::collections::HashMap;
use std::f32::consts::{FRAC_PI_4, TAU};
use std::ops::RangeInclusive;

use bevy::camera::visibility::VisibilitySystems;
use bevy::diagnostic::{DiagnosticPath, DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::gizmos::config::GizmoConfigStore;
use bevy::math::primitives::Circle;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy_collision_events::debug::{CollisionDebugPlugin, CollisionGizmos};
use bevy_collision_events::diagnostics::CollisionDiagnosticsPlugin;
use bevy_collision_events::prelude::*;
use bevy_prototype_lyon::plugin::BuildShapes;
use bevy_prototype_lyon::prelude::*;

use crate::game::{
    EnemyDestroyed, EnemyKind, Game, GameState, GameSystems, Laser, Player, ReadContacts, Role,
    Stats, Wall,
};

// Colours. Fills are drawn at `FILL_ALPHA` over the dark field for polygons; small circles
// (bullets) are solid.
const BACKGROUND_COLOR: Color = Color::srgb(0.02, 0.02, 0.06);
const PLAYER_LOOK: Look = Look::new(Color::srgb(0.2, 0.8, 1.0), Color::srgb(0.8, 0.97, 1.0));
const STAR_LOOK: Look = Look::new(Color::srgb(0.9, 0.3, 0.6), Color::srgb(1.0, 0.7, 0.9));
const ORB_LOOK: Look = Look::new(Color::srgb(0.6, 0.35, 0.95), Color::srgb(0.85, 0.75, 1.0));
const CRAB_LOOK: Look = Look::new(Color::srgb(0.95, 0.5, 0.15), Color::srgb(1.0, 0.85, 0.5));
const WALL_LOOK: Look = Look::new(Color::srgb(0.25, 0.3, 0.35), Color::srgb(0.6, 0.7, 0.75));
const PLAYER_BULLET_COLOR: Color = Color::srgb(0.6, 1.0, 0.9);
const PLAYER_BULLET_LOOK: Look = Look::new(PLAYER_BULLET_COLOR, PLAYER_BULLET_COLOR);
const ENEMY_BULLET_LOOK: Look = Look::new(Color::srgb(1.0, 0.35, 0.3), Color::srgb(1.0, 0.8, 0.6));
const LASER_COLOR: Color = Color::srgb(0.5, 1.0, 0.95);
const SPARK_COLOR: Color = Color::srgb(1.0, 0.95, 0.4);
const STAR_EXPLOSION_COLOR: Color = Color::srgb(1.0, 0.5, 0.8);
const ORB_EXPLOSION_COLOR: Color = Color::srgb(0.8, 0.6, 1.0);
const CRAB_EXPLOSION_COLOR: Color = Color::srgb(1.0, 0.7, 0.3);
/// How much white an explosion's colour takes.
const EXPLOSION_WHITENESS: f32 = 0.2;
const HUD_COLOR: Color = Color::srgb(0.85, 0.95, 1.0);

// Outlines, in pixels.
const FILL_ALPHA: f32 = 0.55;
const OUTLINE_WIDTH: f32 = 2.0;
const WALL_WIDTH: f32 = 5.0;
const LASER_WIDTH: f32 = 4.0;
/// Circles bigger than this get an outline; the others (bullets) are solid dots.
const OUTLINED_RADIUS: f32 = 6.0;
/// The sides of the polygon a bullet's dot is drawn as: enough for a circle a few pixels
/// wide.
const BULLET_SIDES: u32 = 12;

// Sparks: one at every contact point, and a ring of them for each enemy destroyed.
/// Most sparks alive at once, so a flood of contacts cannot stall the frame.
const MAX_SPARKS: usize = 4000;
const SPARK_SECONDS: f32 = 0.4;
const SPARK_SIZE: f32 = 8.0;
/// Sparks shrink from `1 + SPARK_MIN_SCALE` to `SPARK_MIN_SCALE` as they fade.
const SPARK_MIN_SCALE: f32 = 0.6;
const SPARK_Z: f32 = 5.0;
const EXPLOSION_SPARKS: usize = 24;
const EXPLOSION_SPARK_SIZE: f32 = 6.0;
/// Explosion sparks fly out at `EXPLOSION_SPEED`, plus `EXPLOSION_SPEED_STEP` over
/// `EXPLOSION_SPEEDS` speeds.
const EXPLOSION_SPEED: f32 = 160.0;
const EXPLOSION_SPEED_STEP: f32 = 60.0;
const EXPLOSION_SPEEDS: usize = 3;

// The HUD and the rest.
const HUD_FONT_SIZE: f32 = 22.0;
const HUD_TOP: f32 = 10.0;
const HUD_LEFT: f32 = 12.0;
/// Times per second the ship blinks while invulnerable (twice per on/off cycle).
const BLINK_RATE: f32 = 12.0;
/// Shows and hides the colliders as the collision pipeline sees them.
const DEBUG_DRAWING_KEY: KeyCode = KeyCode::KeyC;

/// A fill and an outline colour.
#[derive(Clone, Copy)]
struct Look {
    fill: Color,
    stroke: Color,
}

impl Look {
    const fn new(fill: Color, stroke: Color) -> Self {
        Self { fill, stroke }
    }

    /// How one of the cast looks.
    const fn of(role: Role) -> Self {
        match role {
            Role::Player => PLAYER_LOOK,
            Role::PlayerBullet => PLAYER_BULLET_LOOK,
            Role::Enemy(EnemyKind::Star) => STAR_LOOK,
            Role::Enemy(EnemyKind::Orb) => ORB_LOOK,
            Role::Enemy(EnemyKind::Crab) => CRAB_LOOK,
            Role::EnemyBullet => ENEMY_BULLET_LOOK,
            Role::Wall => WALL_LOOK,
        }
    }
}

/// Draws the game. `screenshot` saves a PNG of the window after some frames; `recording`
/// saves one of each frame.
pub struct GraphicsPlugin {
    /// Where and after how many frames to save a screenshot.
    pub screenshot: Option<(String, u32)>,
    /// Which frames to save, and where.
    pub recording: Option<Recording>,
    /// Multisample anti-aliasing: smooth edges, cheap on a graphics card, costly in a
    /// software renderer.
    pub msaa: Msaa,
    /// Whether the crate's debug drawing starts on ([`DEBUG_DRAWING_KEY`] toggles it).
    pub debug_drawing: bool,
}

impl Plugin for GraphicsPlugin {
    fn build(&self, app: &mut App) {
        let debug_drawing = self.debug_drawing;
        app.add_plugins((
            ShapePlugin,
            CollisionDebugPlugin,
            FrameTimeDiagnosticsPlugin::default(),
        ))
        .insert_resource(ClearColor(BACKGROUND_COLOR))
        .insert_resource(ScreenshotPlan(self.screenshot.clone()))
        .insert_resource(Smoothing(self.msaa))
        .init_resource::<BulletLooks>();
        if let Some(recording) = &self.recording {
            app.insert_resource(recording.clone())
                .add_systems(Last, record_frame);
        }
        app.add_systems(
            Startup,
            (
                spawn_camera,
                spawn_hud,
                move |mut store: ResMut<GizmoConfigStore>| {
                    show_colliders(&mut store, debug_drawing);
                },
            ),
        )
        .add_systems(
            Update,
            (
                draw_polygons,
                draw_circles,
                draw_walls,
                fade_sparks,
                blink_player,
                update_hud,
                take_screenshot,
                toggle_debug_drawing,
            )
                .after(GameSystems),
        )
        // What the contacts show is drawn in the same frame: after the game reads them, before
        // lyon builds the meshes and Bevy decides what is visible.
        .add_systems(
            PostUpdate,
            (spawn_sparks, explode, draw_laser)
                .after(ReadContacts)
                .before(BuildShapes)
                .before(VisibilitySystems::VisibilityPropagate),
        );
    }
}

#[derive(Resource)]
struct ScreenshotPlan(Option<(String, u32)>);

/// The camera's anti-aliasing.
#[derive(Resource)]
struct Smoothing(Msaa);

/// Frames to save as PNGs, numbered from 0, in a folder.
#[derive(Resource, Clone)]
pub struct Recording {
    /// The folder the PNGs go to.
    pub folder: String,
    /// The frames saved, by `FrameCount`.
    pub frames: RangeInclusive<u32>,
}

/// Switches the crate's debug drawing on or off.
fn show_colliders(store: &mut GizmoConfigStore, on: bool) {
    store.config_mut::<CollisionGizmos>().0.enabled = on;
}

fn toggle_debug_drawing(keys: Res<ButtonInput<KeyCode>>, mut store: ResMut<GizmoConfigStore>) {
    if keys.just_pressed(DEBUG_DRAWING_KEY) {
        let on = store.config::<CollisionGizmos>().0.enabled;
        show_colliders(&mut store, !on);
    }
}

/// A short-lived flash where two outlines cross (or, flying outwards, a piece of an
/// explosion).
#[derive(Component)]
struct Spark {
    age: f32,
    velocity: Vec2,
}

#[derive(Component)]
struct Hud;

fn spawn_camera(mut commands: Commands, msaa: Res<Smoothing>) {
    commands.spawn((Camera2d, msaa.0));
}

fn spawn_hud(mut commands: Commands) {
    commands.spawn((
        Hud,
        Text::new(""),
        TextFont::from_font_size(HUD_FONT_SIZE),
        TextColor(HUD_COLOR),
        Node {
            position_type: PositionType::Absolute,
            top: px(HUD_TOP),
            left: px(HUD_LEFT),
            ..default()
        },
    ));
}

fn draw_polygons(
    mut commands: Commands,
    new: Query<(Entity, &PolygonCollider, &Role), Added<PolygonCollider>>,
) {
    for (entity, collider, role) in &new {
        let look = Look::of(*role);
        let outline = shapes::Polygon {
            points: collider.vertices().to_vec(),
            closed: true,
        };
        commands.entity(entity).insert(
            ShapeBuilder::with(&outline)
                .fill(look.fill.with_alpha(FILL_ALPHA))
                .stroke((look.stroke, OUTLINE_WIDTH))
                .build(),
        );
    }
}

/// One mesh and one material for each look and size of bullet, shared by every bullet drawn
/// with them: the renderer draws all bullets of a look in one batch.
#[derive(Resource, Default)]
struct BulletLooks(HashMap<BulletLook, (Handle<Mesh>, Handle<ColorMaterial>)>);

/// What tells two bullets' looks apart.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct BulletLook {
    role: Role,
    /// The radius's bits (a float is not `Hash`).
    radius: u32,
}

/// Circles: bullets (solid dots) share a mesh per look; bigger circles get an outline of
/// their own.
fn draw_circles(
    mut commands: Commands,
    new: Query<(Entity, &CircleCollider, &Role), Added<CircleCollider>>,
    mut looks: ResMut<BulletLooks>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for (entity, collider, role) in &new {
        let look = Look::of(*role);
        if collider.radius() <= OUTLINED_RADIUS && collider.offset() == Vec2::ZERO {
            let key = BulletLook {
                role: *role,
                radius: collider.radius().to_bits(),
            };
            let (mesh, material) = looks.0.entry(key).or_insert_with(|| {
                (
                    meshes.add(
                        Circle::new(collider.radius())
                            .mesh()
                            .resolution(BULLET_SIDES),
                    ),
                    materials.add(look.fill),
                )
            });
            commands
                .entity(entity)
                .insert((Mesh2d(mesh.clone()), MeshMaterial2d(material.clone())));
            continue;
        }
        let outline = shapes::Circle {
            radius: collider.radius(),
            center: collider.offset(),
        };
        commands.entity(entity).insert(
            ShapeBuilder::with(&outline)
                .fill(look.fill)
                .stroke((look.stroke, OUTLINE_WIDTH))
                .build(),
        );
    }
}

/// A wall segment that has no looks yet.
type NewWall = (Added<SegmentCollider>, With<Wall>);

/// Wall segments: drawn from their segment. (The laser is drawn by [`draw_laser`].)
fn draw_walls(mut commands: Commands, new: Query<(Entity, &SegmentCollider), NewWall>) {
    for (entity, collider) in &new {
        let line = shapes::Line(collider.a(), collider.b());
        commands.entity(entity).insert(
            ShapeBuilder::with(&line)
                .stroke((WALL_LOOK.stroke, WALL_WIDTH))
                .build(),
        );
    }
}

/// The beam runs along the laser's own segment, cut where it first meets something.
#[expect(
    clippy::type_complexity,
    reason = "the laser, its looks once it has them, and whether it is on"
)]
fn draw_laser(
    mut commands: Commands,
    laser: Single<(
        Entity,
        &Laser,
        &SegmentCollider,
        Option<&mut Shape>,
        &mut Visibility,
        Has<ColliderDisabled>,
    )>,
) {
    let (entity, laser, collider, shape, mut visibility, off) = laser.into_inner();
    visibility.set_if_neq(if off {
        Visibility::Hidden
    } else {
        Visibility::Visible
    });
    if off {
        return;
    }
    let direction = (collider.b() - collider.a()).normalize_or_zero();
    let end = collider.a() + direction * laser.visible_length;
    let beam = ShapeBuilder::with(&shapes::Line(collider.a(), end))
        .stroke((LASER_COLOR, LASER_WIDTH))
        .build();
    match shape {
        Some(mut shape) => *shape = beam,
        // Its first beam: its looks from then on.
        None => {
            commands.entity(entity).insert(beam);
        }
    }
}

/// One spark per contact point: every [`Contact`] message of this frame, as many as there is
/// room for.
fn spawn_sparks(
    mut commands: Commands,
    mut contacts: MessageReader<Contact>,
    sparks: Query<(), With<Spark>>,
) {
    let room = MAX_SPARKS.saturating_sub(sparks.iter().len());
    // A swept bullet's hit flashes where it struck; other contacts where the outlines cross.
    let points = contacts.read().flat_map(|contact| match contact.impact {
        Some(impact) => vec![impact.point],
        None => contact.points.to_vec(),
    });
    for point in points.take(room) {
        let transform = Transform::from_translation(point.extend(SPARK_Z))
            .with_rotation(Quat::from_rotation_z(FRAC_PI_4));
        commands.spawn((
            Spark {
                age: 0.0,
                velocity: Vec2::ZERO,
            },
            Sprite::from_color(SPARK_COLOR, Vec2::splat(SPARK_SIZE)),
            // Spawned after Bevy propagated the transforms: placed this frame by hand.
            GlobalTransform::from(transform),
            transform,
        ));
    }
    // What found no room is dropped, not drawn a frame late.
    contacts.clear();
}

/// A destroyed enemy bursts into a ring of sparks in its colour.
fn explode(mut commands: Commands, mut destroyed: MessageReader<EnemyDestroyed>) {
    for blast in destroyed.read() {
        let color = match blast.kind {
            EnemyKind::Star => STAR_EXPLOSION_COLOR,
            EnemyKind::Orb => ORB_EXPLOSION_COLOR,
            EnemyKind::Crab => CRAB_EXPLOSION_COLOR,
        }
        .mix(&Color::WHITE, EXPLOSION_WHITENESS);
        for i in 0..EXPLOSION_SPARKS {
            let direction = Vec2::from_angle(i as f32 * TAU / EXPLOSION_SPARKS as f32);
            let speed = EXPLOSION_SPEED + EXPLOSION_SPEED_STEP * (i % EXPLOSION_SPEEDS) as f32;
            let transform = Transform::from_translation(blast.position.extend(SPARK_Z));
            commands.spawn((
                Spark {
                    age: 0.0,
                    velocity: direction * speed,
                },
                Sprite::from_color(color, Vec2::splat(EXPLOSION_SPARK_SIZE)),
                GlobalTransform::from(transform),
                transform,
            ));
        }
    }
}

fn fade_sparks(
    mut commands: Commands,
    time: Res<Time>,
    mut sparks: Query<(Entity, &mut Spark, &mut Sprite, &mut Transform)>,
) {
    for (entity, mut spark, mut sprite, mut transform) in &mut sparks {
        spark.age += time.delta_secs();
        let left = 1.0 - spark.age / SPARK_SECONDS;
        if left <= 0.0 {
            commands.entity(entity).despawn();
            continue;
        }
        sprite.color = sprite.color.with_alpha(left);
        transform.scale = Vec3::splat(SPARK_MIN_SCALE + left);
        transform.translation += (spark.velocity * time.delta_secs()).extend(0.0);
    }
}

fn blink_player(
    game: Res<Game>,
    state: Res<GameState>,
    time: Res<Time>,
    mut player: Single<&mut Visibility, With<Player>>,
) {
    let blinking =
        game.invulnerable > 0.0 && ((time.elapsed_secs() * BLINK_RATE) as u32).is_multiple_of(2);
    **player = if *state == GameState::Over || blinking {
        Visibility::Hidden
    } else {
        Visibility::Visible
    };
}

/// The score, then what the crate is doing: colliders, bullets on screen, contacts, and its
/// own time per frame, smoothed, from its diagnostics. The frame rate is left out of a
/// recording, whose game clock steps a fixed 1/30 s per frame.
fn update_hud(
    game: Res<Game>,
    state: Res<GameState>,
    stats: Res<Stats>,
    diagnostics: Res<DiagnosticsStore>,
    recording: Option<Res<Recording>>,
    mut hud: Single<&mut Text, With<Hud>>,
) {
    let smoothed = |path: &DiagnosticPath| {
        diagnostics
            .get(path)
            .and_then(|diagnostic| diagnostic.smoothed())
            .unwrap_or(0.0)
    };
    let frame_rate = match recording {
        Some(_) => String::new(),
        None => format!("{:.0} fps   ", smoothed(&FrameTimeDiagnosticsPlugin::FPS)),
    };
    let mut text = format!(
        "SCORE {:>6}   LIVES {}   WAVE {}\n\
         {frame_rate}colliders {:>5}   bullets {:>5}   contacts {:>4}   collision {:.2} ms",
        game.score,
        game.lives,
        game.wave,
        stats.colliders,
        stats.bullets,
        stats.contacts,
        smoothed(&CollisionDiagnosticsPlugin::TOTAL),
    );
    if *state == GameState::Over {
        text.push_str("\n\nGAME OVER - press R to play again");
    }
    hud.0 = text;
}

fn take_screenshot(
    mut commands: Commands,
    plan: Res<ScreenshotPlan>,
    frames: Res<bevy::diagnostic::FrameCount>,
) {
    if let Some((path, at_frame)) = &plan.0
        && frames.0 == *at_frame
    {
        info!("saving a screenshot to {path}");
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path.clone()));
    }
}

/// Saves this frame as `frame00000.png` and on, while the recording lasts.
fn record_frame(
    mut commands: Commands,
    recording: Res<Recording>,
    frames: Res<bevy::diagnostic::FrameCount>,
) {
    if !recording.frames.contains(&frames.0) {
        return;
    }
    let number = frames.0 - recording.frames.start();
    let path = format!("{}/frame{number:05}.png", recording.folder);
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path));
}
