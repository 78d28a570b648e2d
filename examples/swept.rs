//! Swept bullets: fast bullets never pass through a thin wall, and say where they hit it.
//!
//! A bullet of radius 2 moving 45 px a frame (at 60 frames a second) would jump over a wall of zero width between two
//! frames. With `Swept`, each run tests the whole path since the last one: the bullet's
//! `Contact` comes with an `impact`, the time, point and normal of the first touch, which is
//! where the spark goes (not where the bullet ended up, past the wall). A new volley comes
//! every two seconds.
//!
//! ```sh
//! cargo run --example swept                 # a window
//! cargo run --example swept -- --headless   # 60 frames, then what happened
//! ```

#[path = "support/mod.rs"]
mod support;

use bevy::prelude::*;
use bevy_collision_events::prelude::*;
use std::time::Duration;

const FRAMES: u32 = 60;
/// The wall: a segment of zero width at this x.
pub const WALL_X: f32 = 200.0;
const WALL_HALF_HEIGHT: f32 = 250.0;
/// The bullets' radius: far smaller than how far they move a frame.
pub const BULLET_RADIUS: f32 = 2.0;
/// Pixels a second: 45 a frame at 60 frames a second.
const BULLET_SPEED: f32 = 2700.0;
/// How many bullets fly at the wall, a row apart.
pub const BULLETS: usize = 20;
/// The first bullet's row; each next one is [`ROW_GAP`] higher.
pub const FIRST_ROW_Y: f32 = -200.0;
/// How far apart the bullets' rows are.
pub const ROW_GAP: f32 = 20.0;
/// Where the first bullet starts.
const START_X: f32 = -400.0;
/// How much further back each next bullet starts, so that each crosses the wall at a different
/// point of its frame's move.
const STAGGER: f32 = 7.3;
/// How often a volley is fired (the first at once); each one's sparks replace the last's.
const VOLLEY_EVERY: Duration = Duration::from_secs(2);
/// The sparks drawn where the bullets hit, and the normals' arrows.
const SPARK_RADIUS: f32 = 5.0;
const NORMAL_LENGTH: f32 = 20.0;

/// A bullet flying right.
#[derive(Component)]
pub struct Bullet;

/// Where each bullet first touched the wall, and the wall's normal there facing the bullet.
#[derive(Resource, Default)]
pub struct Impacts(pub Vec<(Vec2, Vec2)>);

fn main() {
    let mode = support::mode(FRAMES);
    let mut app = support::app(&mode, "swept: no bullet through the wall");
    example(&mut app);
    support::draw(&mut app, draw_impacts.after(stop_at_the_wall));
    support::run(app, mode, |world| {
        let impacts = &world.resource::<Impacts>().0;
        println!("{} of {BULLETS} bullets hit the wall", impacts.len());
        for (point, normal) in impacts.iter().take(3) {
            println!("  at {point}, facing {normal}");
        }
    });
}

/// The example, on a window's app or a headless one.
pub fn example(app: &mut App) {
    app.add_plugins(CollisionPlugin::default())
        .init_resource::<Impacts>()
        .insert_resource(Volley(Timer::new(VOLLEY_EVERY, TimerMode::Repeating)))
        .add_systems(Startup, (spawn_wall, fire))
        .add_systems(Update, (fire_again, fly))
        .add_systems(
            PostUpdate,
            stop_at_the_wall.after(CollisionSystems::WriteEvents),
        );
}

/// When the next volley is fired.
#[derive(Resource)]
struct Volley(Timer);

fn spawn_wall(mut commands: Commands) {
    commands.spawn((
        SegmentCollider::new(
            Vec2::new(0.0, -WALL_HALF_HEIGHT),
            Vec2::new(0.0, WALL_HALF_HEIGHT),
        ),
        Transform::from_xyz(WALL_X, 0.0, 0.0),
    ));
}

/// Every [`VOLLEY_EVERY`], the last volley's sparks go and a new volley is fired.
fn fire_again(
    time: Res<Time>,
    mut volley: ResMut<Volley>,
    mut impacts: ResMut<Impacts>,
    commands: Commands,
) {
    if volley.0.tick(time.delta()).just_finished() {
        impacts.0.clear();
        fire(commands);
    }
}

/// A volley: [`BULLETS`] bullets, a row apart, staggered.
fn fire(mut commands: Commands) {
    for index in 0..BULLETS {
        let x = START_X - index as f32 * STAGGER;
        let y = FIRST_ROW_Y + index as f32 * ROW_GAP;
        commands.spawn((
            Bullet,
            CircleCollider::new(BULLET_RADIUS),
            Swept::default(),
            Transform::from_xyz(x, y, 0.0),
        ));
    }
}

fn fly(time: Res<Time>, mut bullets: Query<&mut Transform, With<Bullet>>) {
    for mut transform in &mut bullets {
        transform.translation.x += BULLET_SPEED * time.delta_secs();
    }
}

/// A bullet that hit the wall is gone; its impact is kept to draw.
fn stop_at_the_wall(
    mut contacts: MessageReader<Contact>,
    bullets: Query<(), With<Bullet>>,
    mut impacts: ResMut<Impacts>,
    mut commands: Commands,
) {
    for contact in contacts.read() {
        let Some((bullet, _wall)) = contact.pick(&bullets) else {
            continue;
        };
        // The impact, and its normal turned to face the bullet: the wall's side it came from.
        let (Some(impact), Some(normal)) = (contact.impact, contact.impact_normal(bullet)) else {
            continue;
        };
        impacts.0.push((impact.point, normal));
        commands.entity(bullet).try_despawn();
    }
}

fn draw_impacts(impacts: Res<Impacts>, mut gizmos: Gizmos) {
    for &(point, normal) in &impacts.0 {
        gizmos.circle_2d(point, SPARK_RADIUS, Color::srgb(1.0, 0.9, 0.2));
        gizmos.arrow_2d(
            point,
            point + normal * NORMAL_LENGTH,
            Color::srgb(1.0, 0.3, 0.8),
        );
    }
}
