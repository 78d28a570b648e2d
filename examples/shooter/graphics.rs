//! The shooter's looks: every outline drawn with `bevy_prototype_lyon` from the very collider
//! it belongs to, a spark at every contact point, and the HUD.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy_collision_events::prelude::*;
use bevy_prototype_lyon::prelude::*;

use crate::game::{
    Enemy, EnemyBullet, EnemyDestroyed, EnemyKind, Game, Laser, Player, PlayerBullet, Stats, Wall,
};

/// Most sparks alive at once, so a flood of contacts cannot stall the frame.
const MAX_SPARKS: usize = 4000;
const SPARK_SECONDS: f32 = 0.4;

/// Draws the game. `screenshot` saves a PNG of the window after some frames, then quits.
pub struct GraphicsPlugin {
    /// Where and after how many frames to save a screenshot.
    pub screenshot: Option<(String, u32)>,
}

impl Plugin for GraphicsPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(ShapePlugin)
            .insert_resource(ClearColor(Color::srgb(0.02, 0.02, 0.06)))
            .insert_resource(ScreenshotPlan(self.screenshot.clone()))
            .add_systems(Startup, (spawn_camera, spawn_hud))
            .add_systems(
                Update,
                (
                    draw_polygons,
                    draw_circles,
                    draw_segments,
                    blink_player,
                    update_hud,
                    take_screenshot,
                ),
            )
            .add_systems(
                PostUpdate,
                (spawn_sparks, explode, fade_sparks, draw_laser).after(CollisionSystems::Events),
            );
    }
}

#[derive(Resource)]
struct ScreenshotPlan(Option<(String, u32)>);

/// A short-lived flash where two outlines cross (or, flying outwards, a piece of an
/// explosion).
#[derive(Component)]
struct Spark {
    age: f32,
    velocity: Vec2,
}

#[derive(Component)]
struct Hud;

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Camera2d, Msaa::Sample4));
}

fn spawn_hud(mut commands: Commands) {
    commands.spawn((
        Hud,
        Text::new(""),
        TextFont::from_font_size(18.0),
        TextColor(Color::srgb(0.85, 0.95, 1.0)),
        Node {
            position_type: PositionType::Absolute,
            top: px(10.0),
            left: px(12.0),
            ..default()
        },
    ));
}

/// The colours of the cast.
fn palette(
    player: bool,
    enemy: Option<&Enemy>,
    wall: bool,
    player_bullet: bool,
    enemy_bullet: bool,
) -> (Color, Color) {
    let (fill, stroke) = if player {
        (Color::srgb(0.2, 0.8, 1.0), Color::srgb(0.8, 0.97, 1.0))
    } else if let Some(enemy) = enemy {
        match enemy.kind {
            EnemyKind::Star => (Color::srgb(0.9, 0.3, 0.6), Color::srgb(1.0, 0.7, 0.9)),
            EnemyKind::Orb => (Color::srgb(0.6, 0.35, 0.95), Color::srgb(0.85, 0.75, 1.0)),
            EnemyKind::Crab => (Color::srgb(0.95, 0.5, 0.15), Color::srgb(1.0, 0.85, 0.5)),
        }
    } else if wall {
        (Color::srgb(0.25, 0.3, 0.35), Color::srgb(0.6, 0.7, 0.75))
    } else if player_bullet {
        (Color::srgb(0.6, 1.0, 0.9), Color::srgb(0.6, 1.0, 0.9))
    } else if enemy_bullet {
        (Color::srgb(1.0, 0.35, 0.3), Color::srgb(1.0, 0.8, 0.6))
    } else {
        (Color::WHITE, Color::WHITE)
    };
    (fill, stroke)
}

type Roles = (
    Has<Player>,
    Option<&'static Enemy>,
    Has<Wall>,
    Has<PlayerBullet>,
    Has<EnemyBullet>,
);

fn draw_polygons(
    mut commands: Commands,
    new: Query<(Entity, &PolygonCollider, Roles), Added<PolygonCollider>>,
) {
    for (entity, collider, (player, enemy, wall, player_bullet, enemy_bullet)) in &new {
        let (fill, stroke) = palette(player, enemy, wall, player_bullet, enemy_bullet);
        let outline = shapes::Polygon {
            points: collider.vertices().to_vec(),
            closed: true,
        };
        commands.entity(entity).insert(
            ShapeBuilder::with(&outline)
                .fill(fill.with_alpha(0.55))
                .stroke((stroke, 2.0))
                .build(),
        );
    }
}

fn draw_circles(
    mut commands: Commands,
    new: Query<(Entity, &CircleCollider, Roles), Added<CircleCollider>>,
) {
    for (entity, collider, (player, enemy, wall, player_bullet, enemy_bullet)) in &new {
        let (fill, stroke) = palette(player, enemy, wall, player_bullet, enemy_bullet);
        let outline = shapes::Circle {
            radius: collider.radius(),
            center: collider.offset(),
        };
        let builder = ShapeBuilder::with(&outline).fill(fill);
        let shape = if collider.radius() > 6.0 {
            builder.stroke((stroke, 2.0)).build()
        } else {
            builder.build()
        };
        commands.entity(entity).insert(shape);
    }
}

/// A wall segment that has no looks yet.
type NewWall = (Added<SegmentCollider>, With<Wall>);

/// Walls: drawn from their segment. (The laser is drawn by [`draw_laser`].)
fn draw_segments(mut commands: Commands, new: Query<(Entity, &SegmentCollider), NewWall>) {
    for (entity, collider) in &new {
        let line = shapes::Line(collider.a(), collider.b());
        commands.entity(entity).insert(
            ShapeBuilder::with(&line)
                .stroke((Color::srgb(0.6, 0.7, 0.75), 5.0))
                .build(),
        );
    }
}

/// The beam runs along the laser's own segment, cut where it first meets something.
fn draw_laser(mut commands: Commands, laser: Single<(Entity, &Laser, &SegmentCollider)>) {
    let (entity, laser, collider) = *laser;
    if !laser.on {
        commands.entity(entity).insert(Visibility::Hidden);
        return;
    }
    let direction = (collider.b() - collider.a()).normalize_or_zero();
    let end = collider.a() + direction * laser.visible_length;
    let beam = shapes::Line(collider.a(), end);
    commands.entity(entity).insert((
        ShapeBuilder::with(&beam)
            .stroke((Color::srgb(0.5, 1.0, 0.95), 4.0))
            .build(),
        Visibility::Visible,
    ));
}

/// One spark per contact point, this frame's.
fn spawn_sparks(mut commands: Commands, contacts: Res<Contacts>, sparks: Query<(), With<Spark>>) {
    let mut room = MAX_SPARKS.saturating_sub(sparks.iter().len());
    for point in contacts.iter().flat_map(|contact| contact.points.iter()) {
        if room == 0 {
            break;
        }
        room -= 1;
        commands.spawn((
            Spark {
                age: 0.0,
                velocity: Vec2::ZERO,
            },
            Sprite::from_color(Color::srgb(1.0, 0.95, 0.4), Vec2::splat(8.0)),
            Transform::from_translation(point.extend(5.0))
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)),
        ));
    }
}

/// A destroyed enemy bursts into a ring of sparks in its colour.
fn explode(mut commands: Commands, mut destroyed: MessageReader<EnemyDestroyed>) {
    for blast in destroyed.read() {
        let colour = palette(false, None, false, false, false).0;
        let colour = match blast.kind {
            EnemyKind::Star => Color::srgb(1.0, 0.5, 0.8),
            EnemyKind::Orb => Color::srgb(0.8, 0.6, 1.0),
            EnemyKind::Crab => Color::srgb(1.0, 0.7, 0.3),
        }
        .mix(&colour, 0.2);
        for i in 0..24 {
            let direction = Vec2::from_angle(i as f32 * std::f32::consts::TAU / 24.0);
            commands.spawn((
                Spark {
                    age: 0.0,
                    velocity: direction * (160.0 + 60.0 * (i % 3) as f32),
                },
                Sprite::from_color(colour, Vec2::splat(6.0)),
                Transform::from_translation(blast.position.extend(5.0)),
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
        transform.scale = Vec3::splat(0.6 + left);
        transform.translation += (spark.velocity * time.delta_secs()).extend(0.0);
    }
}

fn blink_player(
    game: Res<Game>,
    time: Res<Time>,
    mut player: Query<&mut Visibility, With<Player>>,
) {
    for mut visibility in &mut player {
        let blinking =
            game.invulnerable > 0.0 && ((time.elapsed_secs() * 12.0) as u32).is_multiple_of(2);
        *visibility = if game.over_for.is_some() || blinking {
            Visibility::Hidden
        } else {
            Visibility::Visible
        };
    }
}

fn update_hud(game: Res<Game>, stats: Res<Stats>, mut hud: Single<&mut Text, With<Hud>>) {
    let collision_ms = stats.collision_ms.last().copied().unwrap_or(0.0);
    let mut text = format!(
        "SCORE {:>6}   LIVES {}   WAVE {}\ncolliders {:>5}   contacts {:>4}   collision {:.2} ms",
        game.score, game.lives, game.wave, stats.colliders, stats.contacts, collision_ms
    );
    if game.over_for.is_some() {
        text.push_str("\n\nGAME OVER - press R to play again");
    }
    hud.0 = text;
}

fn take_screenshot(
    mut commands: Commands,
    plan: Res<ScreenshotPlan>,
    frames: Res<bevy::diagnostic::FrameCount>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some((path, at_frame)) = &plan.0 else {
        return;
    };
    if frames.0 == *at_frame {
        info!("saving a screenshot to {path}");
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path.clone()));
    }
    // Give the screenshot a few frames to reach the disk, then quit.
    if frames.0 == at_frame + 30 {
        exit.write(AppExit::Success);
    }
}
