//! Pair filters: bullets that pass through the ship that fired them.
//!
//! Three ships in a row each fire rings of bullets from their centre. Layers cannot say "not
//! your own ship": every bullet is on the bullets' layer, every ship on the ships'. A `PairFilter`
//! can: each bullet carries `FiredBy(ship)` and `FilterPairs`, and the filter turns away the
//! pair of a bullet and its own ship before the exact test. The bullets fly out through their
//! ship and stop in the neighbours.
//!
//! ```sh
//! cargo run --example filter                 # a window
//! cargo run --example filter -- --headless   # 120 frames, then what happened
//! ```

#[path = "support/mod.rs"]
mod support;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::time::common_conditions::on_timer;
use bevy_collision_events::prelude::*;
use std::f32::consts::TAU;
use std::time::Duration;

const FRAMES: u32 = 120;
/// The ships' centres, along the x axis.
pub const SHIP_X: [f32; 3] = [-150.0, 0.0, 150.0];
/// The ships' radius.
pub const SHIP_RADIUS: f32 = 30.0;
/// The bullets' radius.
pub const BULLET_RADIUS: f32 = 3.0;
/// Bullets in each ring, evenly spread, the first straight along +x.
pub const RING_BULLETS: usize = 48;
/// Time between two rings of each ship; the first ring is fired at once.
pub const RING_EVERY: Duration = Duration::from_millis(700);
/// Pixels a second.
const BULLET_SPEED: f32 = 300.0;
/// Bullets this far from the middle are gone.
const FIELD: f32 = 400.0;

/// The ships' layer.
const SHIP: LayerMask = LayerMask::layer(0);
/// The bullets' layer: bullets look for ships only, not for each other.
const BULLET: LayerMask = LayerMask::layer(1);

/// A ship: a target, and a gun.
#[derive(Component)]
pub struct Ship;

/// Which ship fired a bullet.
#[derive(Component)]
pub struct FiredBy(pub Entity);

#[derive(Component)]
struct Velocity(Vec2);

/// Each bullet that stopped in a ship: `(the ship that fired it, the ship it hit)`.
#[derive(Resource, Default)]
pub struct Hits(pub Vec<(Entity, Entity)>);

/// The filter: a bullet never meets the ship that fired it.
#[derive(SystemParam)]
struct NotTheShooter<'w, 's> {
    bullets: Query<'w, 's, &'static FiredBy>,
}

impl PairFilter for NotTheShooter<'_, '_> {
    fn allows(&self, a: Entity, b: Entity) -> bool {
        let fired = |bullet, ship| self.bullets.get(bullet).is_ok_and(|by| by.0 == ship);
        !fired(a, b) && !fired(b, a)
    }
}

fn main() {
    let mode = support::mode(FRAMES);
    let mut app = support::app(&mode, "filter: bullets pass through their own ship");
    example(&mut app);
    support::run(app, mode, |world| {
        let hits = &world.resource::<Hits>().0;
        let own = hits.iter().filter(|(from, to)| from == to).count();
        println!("{} bullets hit a ship, {own} of them their own", hits.len());
    });
}

/// The example, on a window's app or a headless one.
pub fn example(app: &mut App) {
    app.add_plugins((
        CollisionPlugin::default(),
        PairFilterPlugin::<NotTheShooter>::default(),
    ))
    .init_resource::<Hits>()
    .add_systems(Startup, (spawn_ships, fire).chain())
    .add_systems(Update, (fire.run_if(on_timer(RING_EVERY)), fly))
    .add_systems(
        PostUpdate,
        stop_bullets.after(CollisionSystems::WriteEvents),
    );
}

fn spawn_ships(mut commands: Commands) {
    for x in SHIP_X {
        commands.spawn((
            Ship,
            CircleCollider::new(SHIP_RADIUS),
            CollisionLayers::new(SHIP, BULLET),
            Transform::from_xyz(x, 0.0, 0.0),
        ));
    }
}

/// Each ship fires a ring from its centre: at the start, then every [`RING_EVERY`].
fn fire(mut commands: Commands, ships: Query<(Entity, &Transform), With<Ship>>) {
    for (ship, transform) in &ships {
        for index in 0..RING_BULLETS {
            let heading = Vec2::from_angle(index as f32 * TAU / RING_BULLETS as f32);
            commands.spawn((
                CircleCollider::new(BULLET_RADIUS),
                CollisionLayers::new(BULLET, SHIP),
                FiredBy(ship),
                FilterPairs,
                *transform,
                Velocity(heading * BULLET_SPEED),
            ));
        }
    }
}

fn fly(
    mut commands: Commands,
    time: Res<Time>,
    mut bullets: Query<(Entity, &mut Transform, &Velocity)>,
) {
    for (bullet, mut transform, velocity) in &mut bullets {
        transform.translation += (velocity.0 * time.delta_secs()).extend(0.0);
        if transform.translation.length() > FIELD {
            commands.entity(bullet).despawn();
        }
    }
}

/// A bullet that starts touching a ship stops there.
fn stop_bullets(
    mut started: MessageReader<ContactStarted>,
    ships: Query<(), With<Ship>>,
    bullets: Query<&FiredBy>,
    mut hits: ResMut<Hits>,
    mut commands: Commands,
) {
    for start in started.read() {
        let Some((ship, bullet)) = start.pick(&ships) else {
            continue;
        };
        if let Ok(fired_by) = bullets.get(bullet) {
            hits.0.push((fired_by.0, ship));
            commands.entity(bullet).try_despawn();
        }
    }
}
