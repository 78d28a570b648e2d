//! Push-out: a player that walks into a wall is moved back out of it, and slides along it.
//!
//! There is no physics engine: the player just moves. Each frame, after the contacts are
//! written, `Contact::push_out` gives the least move that takes the player out of the wall it
//! overlaps: the way out and how far. Moving by it leaves the player touching the wall. The
//! wall is one concave polygon, an L: in its inner corner the player is held by both arms at
//! once, and the one push-out gets it out of both.
//!
//! ```sh
//! cargo run --example push_out                 # a window
//! cargo run --example push_out -- --headless   # 240 frames, then where the player ended
//! ```

#[path = "support/mod.rs"]
mod support;

use bevy::prelude::*;
use bevy_collision_events::prelude::*;

const FRAMES: u32 = 240;
/// The wall: a ceiling and a right-hand wall in one concave polygon.
pub const WALL: [Vec2; 6] = [
    Vec2::new(-300.0, 120.0),
    Vec2::new(100.0, 120.0),
    Vec2::new(100.0, -250.0),
    Vec2::new(140.0, -250.0),
    Vec2::new(140.0, 150.0),
    Vec2::new(-300.0, 150.0),
];
/// Where the player starts.
pub const PLAYER_START: Vec2 = Vec2::new(-200.0, -150.0);
/// The player's radius.
pub const PLAYER_RADIUS: f32 = 12.0;
/// How fast the player walks, in pixels a second: up and to the right.
pub const PLAYER_VELOCITY: Vec2 = Vec2::new(180.0, 90.0);

/// The player.
#[derive(Component)]
pub struct Player;

/// How many wall contacts pushed the player out.
#[derive(Resource, Default)]
pub struct Pushes(pub usize);

fn main() {
    let mode = support::mode(FRAMES);
    let mut app = support::app(&mode, "push_out: a player that slides along walls");
    example(&mut app);
    support::run(app, mode, |world| {
        let pushes = world.resource::<Pushes>().0;
        let mut player = world.query_filtered::<&Transform, With<Player>>();
        let at = player.single(world).expect("one player").translation;
        println!("pushed out of the wall {pushes} times; the player ended at {at}");
    });
}

/// The example, on a window's app or a headless one.
pub fn example(app: &mut App) {
    app.add_plugins(CollisionPlugin::default())
        .init_resource::<Pushes>()
        .add_systems(Startup, spawn)
        .add_systems(Update, walk)
        .add_systems(
            PostUpdate,
            out_of_walls.after(CollisionSystems::WriteEvents),
        );
}

fn spawn(mut commands: Commands) {
    commands.spawn((PolygonCollider::new(WALL), Transform::default()));
    commands.spawn((
        Player,
        CircleCollider::new(PLAYER_RADIUS),
        Transform::from_translation(PLAYER_START.extend(0.0)),
    ));
}

fn walk(time: Res<Time>, mut player: Single<&mut Transform, With<Player>>) {
    player.translation += (PLAYER_VELOCITY * time.delta_secs()).extend(0.0);
}

/// Each contact of the player's says how to get out: move by it, and the player only touches
/// the wall. Every answer is for where the player was before any of them: a second wall's push
/// counts only what the first did not already cover along its direction.
fn out_of_walls(
    mut contacts: MessageReader<Contact>,
    query: SpatialQuery,
    mut player: Single<(Entity, &mut Transform, &mut GlobalTransform), With<Player>>,
    mut pushes: ResMut<Pushes>,
) {
    let (entity, ref mut transform, ref mut global) = *player;
    let mut moved = Vec2::ZERO;
    for contact in contacts.read() {
        if let Some(out) = contact.push_out(entity, &query) {
            let still_to_go = (out.depth - moved.dot(out.direction)).max(0.0);
            moved += out.direction * still_to_go;
            pushes.0 += 1;
        }
    }
    transform.translation += moved.extend(0.0);
    // Bevy propagated the transforms before the contacts were found, and sprites and meshes
    // are drawn from `GlobalTransform`: set it too (the player has no parent), so that a
    // sprite on the player shows it out of the wall this frame, not the next, and systems
    // after this one read where it is now. (The debug outline shows where the pipeline placed
    // the player: inside the wall, until the next run.)
    **global = GlobalTransform::from(**transform);
}
