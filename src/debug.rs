//! [`CollisionDebugPlugin`]: every collider drawn with Bevy's gizmos, as the pipeline placed it,
//! with its contacts. Behind the cargo feature `debug-draw`.

use crate::contacts::Contacts;
use crate::geometry::Shape;
use crate::pipeline::placed::PlacedColliders;
use crate::plugin::{CollisionPlugin, CollisionSystems};
use bevy::asset::Assets;
use bevy::color::palettes::css;
use bevy::gizmos::config::{GizmoConfigGroup, GizmoConfigStore};
use bevy::gizmos::gizmos::{GizmoBuffer, Gizmos};
use bevy::gizmos::{AppGizmoBuilder, GizmoAsset};
use bevy::math::Isometry2d;
use bevy::prelude::*;

/// Draws what the collision pipeline sees: every collider's outline where the last run placed
/// it, coloured by whether it touches something, and optionally bounding circles, contact
/// points, and the impact point and normal of swept hits.
///
/// Needs Bevy's `GizmoPlugin` (part of `DefaultPlugins` when Bevy's gizmo features are on) and
/// [`CollisionPlugin`]. What is drawn, and in which colours, is
/// [`CollisionGizmos`], a gizmo config group:
///
/// ```no_run
/// # use bevy::prelude::*;
/// # use bevy_collision_events::prelude::*;
/// # use bevy_collision_events::debug::{CollisionDebugPlugin, CollisionGizmos};
/// fn toggle(keys: Res<ButtonInput<KeyCode>>, mut store: ResMut<GizmoConfigStore>) {
///     if keys.just_pressed(KeyCode::F1) {
///         let (config, _) = store.config_mut::<CollisionGizmos>();
///         config.enabled = !config.enabled;
///     }
/// }
///
/// App::new()
///     .add_plugins((DefaultPlugins, CollisionPlugin::default(), CollisionDebugPlugin))
///     .add_systems(Update, toggle)
///     .run();
/// ```
///
/// # Scheduling
/// Draws in `PostUpdate`, after [`CollisionSystems::WriteEvents`], what the pipeline's last run
/// placed (with the pipeline in a fixed schedule: its last fixed step, so that a contact made
/// and ended in an earlier step of the same frame is not drawn; in a schedule run after
/// `PostUpdate`, such as `Last`: the previous frame's run). While the contact search alone is
/// paused (a run condition on `FindContacts`, or a pause of virtual time with the pipeline in
/// `PostUpdate`: see [`CollisionSettings::pause_with_virtual_time`](crate::CollisionSettings)),
/// the outlines follow the colliders and the contacts drawn are the last search's; at a fixed
/// step, a paused clock runs no step, and nothing drawn moves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CollisionDebugPlugin;

impl Plugin for CollisionDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_gizmo_group::<CollisionGizmos>().add_systems(
            PostUpdate,
            draw_colliders.after(CollisionSystems::WriteEvents),
        );
    }

    /// Says plainly what is missing, rather than letting a system stop on a bare "Resource does
    /// not exist" at the first update.
    ///
    /// # Panics
    /// Without [`CollisionPlugin`], or without Bevy's gizmo assets.
    fn finish(&self, app: &mut App) {
        assert!(
            app.is_plugin_added::<CollisionPlugin>(),
            "CollisionDebugPlugin draws what CollisionPlugin finds: add CollisionPlugin too"
        );
        assert!(
            app.world().contains_resource::<Assets<GizmoAsset>>(),
            "CollisionDebugPlugin draws with Bevy's gizmos, which this app does not have: add \
             Bevy's GizmoPlugin (part of DefaultPlugins when Bevy's `bevy_gizmos` feature is \
             on), or at least its gizmo assets (`app.init_asset::<GizmoAsset>()`, after \
             AssetPlugin)"
        );
    }
}

/// What [`CollisionDebugPlugin`] draws, and how: a gizmo config group, so it is switched on and
/// off (and its line width set) through Bevy's `GizmoConfigStore`, like any gizmo.
#[derive(Clone, Debug, PartialEq, Reflect, GizmoConfigGroup)]
#[reflect(Clone, Debug, Default, PartialEq)]
pub struct CollisionGizmos {
    /// Draw each collider's outline. Default: `true`.
    pub outlines: bool,
    /// Draw each collider's bounding circle as the broad phase sees it (for a swept collider,
    /// around its whole path). Default: `false`.
    pub bounding_circles: bool,
    /// Mark each contact point. Default: `true`.
    pub contact_points: bool,
    /// Draw where swept pairs first touched: a circle there, and an arrow along the impact
    /// normal, which points from the contact's `b` towards its `a` (the lower entity: see
    /// [`Contact`](crate::Contact)). Default: `true`.
    pub impacts: bool,
    /// The outline of a collider that touches nothing. Default: lime.
    pub idle_color: Color,
    /// The outline of a collider that touches something. Default: orange-red.
    pub touching_color: Color,
    /// Bounding circles. Default: dim blue.
    pub bounds_color: Color,
    /// Contact points. Default: yellow.
    pub point_color: Color,
    /// Impact points and normals. Default: magenta.
    pub impact_color: Color,
    /// How far the mark of a point reaches from it, in world units: half the width of a
    /// contact point's cross, and the radius of an impact's circle. Default: `4.0`.
    pub point_radius: f32,
    /// The length of an impact normal's arrow, in world units. Default: `16.0`.
    pub normal_length: f32,
}

impl Default for CollisionGizmos {
    fn default() -> Self {
        Self {
            outlines: true,
            bounding_circles: false,
            contact_points: true,
            impacts: true,
            idle_color: css::LIME.into(),
            touching_color: css::ORANGE_RED.into(),
            bounds_color: css::STEEL_BLUE.with_alpha(0.6).into(),
            point_color: css::YELLOW.into(),
            impact_color: css::MAGENTA.into(),
            point_radius: 4.0,
            normal_length: 16.0,
        }
    }
}

/// Draws the colliders and contacts of the pipeline's last run.
fn draw_colliders(
    placed: Res<PlacedColliders>,
    contacts: Res<Contacts>,
    store: Res<GizmoConfigStore>,
    mut gizmos: Gizmos<CollisionGizmos>,
) {
    let (config, settings) = store.config::<CollisionGizmos>();
    if config.enabled {
        draw(&placed, &contacts, settings, &mut gizmos);
    }
}

/// Draws into `gizmos` what `settings` asks for.
fn draw(
    placed: &PlacedColliders,
    contacts: &Contacts,
    settings: &CollisionGizmos,
    gizmos: &mut GizmoBuffer<CollisionGizmos, ()>,
) {
    for index in 0..placed.entities.len() {
        if settings.outlines {
            let touching = contacts.touching(placed.entities[index]).next().is_some();
            let color = if touching {
                settings.touching_color
            } else {
                settings.idle_color
            };
            match placed.shape(index) {
                Shape::Circle(disc) => {
                    gizmos.circle_2d(
                        Isometry2d::from_translation(disc.center),
                        disc.radius,
                        color,
                    );
                }
                Shape::Segment(segment) => gizmos.line_2d(segment.a, segment.b, color),
                Shape::Polygon(vertices) => {
                    gizmos.lineloop_2d(vertices.iter().copied(), color);
                }
            }
        }
        if settings.bounding_circles {
            let center = Isometry2d::from_translation(placed.centers[index]);
            gizmos.circle_2d(center, placed.radii[index], settings.bounds_color);
        }
    }
    for contact in contacts.iter() {
        if settings.contact_points {
            for &point in &contact.points {
                let at = Isometry2d::from_translation(point);
                gizmos.cross_2d(at, settings.point_radius, settings.point_color);
            }
        }
        if settings.impacts
            && let Some(impact) = contact.impact
        {
            let at = Isometry2d::from_translation(impact.point);
            gizmos.circle_2d(at, settings.point_radius, settings.impact_color);
            let tip = impact.point + impact.normal * settings.normal_length;
            gizmos.arrow_2d(impact.point, tip, settings.impact_color);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::Contact;
    use crate::geometry::{Circle, Containment, Impact, Points, Segment};
    use crate::layers::CollisionLayers;
    use crate::pipeline::placed::WorldShape;

    /// A touching circle and segment, and an idle circle beside them.
    fn scene() -> (PlacedColliders, Contacts) {
        let mut placed = PlacedColliders::default();
        let mut entities: Vec<Entity> = (1..4).filter_map(Entity::from_raw_u32).collect();
        entities.sort();
        let disc = |x: f32| Circle::new(Vec2::new(x, 0.0), 2.0);
        let wall = Segment::new(Vec2::new(1.0, -5.0), Vec2::new(1.0, 5.0));
        placed.push(
            entities[0],
            None,
            disc(0.0),
            WorldShape::Circle(disc(0.0)),
            Vec2::ZERO,
        );
        placed.push(
            entities[1],
            None,
            Circle::new(Vec2::new(1.0, 0.0), 5.0),
            WorldShape::Segment(wall),
            Vec2::ZERO,
        );
        placed.push(
            entities[2],
            None,
            disc(50.0),
            WorldShape::Circle(disc(50.0)),
            Vec2::ZERO,
        );
        let mut contacts = Contacts::empty();
        let mut current = vec![vec![Contact {
            a: entities[0],
            b: entities[1],
            points: Points::from_slice(&[Vec2::new(1.0, 1.7), Vec2::new(1.0, -1.7)]),
            containment: Containment::Neither,
            impact: Some(Impact {
                time: 0.5,
                point: Vec2::new(1.0, 0.0),
                normal: Vec2::NEG_X,
            }),
            layers: [CollisionLayers::ALL; 2],
            bodies: [entities[0], entities[1]],
        }]];
        contacts.replace(&mut current);
        (placed, contacts)
    }

    fn drawn(settings: &CollisionGizmos) -> GizmoBuffer<CollisionGizmos, ()> {
        let (placed, contacts) = scene();
        let mut buffer = GizmoBuffer::new();
        draw(&placed, &contacts, settings, &mut buffer);
        buffer
    }

    /// How many vertices of the buffer (lines and strips) have `color`.
    fn vertices_of(buffer: &GizmoBuffer<CollisionGizmos, ()>, color: Color) -> usize {
        let color = LinearRgba::from(color);
        let lines = buffer.list_colors.iter().filter(|c| **c == color).count();
        let strips = buffer.strip_colors.iter().filter(|c| **c == color).count();
        lines + strips
    }

    #[test]
    fn outlines_are_coloured_by_whether_they_touch() {
        let settings = CollisionGizmos::default();
        let buffer = drawn(&settings);
        // The touching circle (a strip) and wall (a line); the idle circle (a strip).
        let touching = vertices_of(&buffer, settings.touching_color);
        let idle = vertices_of(&buffer, settings.idle_color);
        assert!(touching > 2 && idle > 2, "touching {touching}, idle {idle}");
        assert!(touching > idle, "two touching outlines, one idle");
    }

    #[test]
    fn contact_points_impacts_and_bounds_are_drawn_when_asked() {
        let settings = CollisionGizmos {
            bounding_circles: true,
            ..default()
        };
        let buffer = drawn(&settings);
        // Two crosses of two lines each, two ends per line.
        assert_eq!(vertices_of(&buffer, settings.point_color), 8);
        assert!(vertices_of(&buffer, settings.impact_color) > 0);
        assert!(vertices_of(&buffer, settings.bounds_color) > 0);
    }

    #[test]
    fn parts_switched_off_are_not_drawn() {
        let settings = CollisionGizmos {
            outlines: false,
            contact_points: false,
            impacts: false,
            ..default()
        };
        let buffer = drawn(&settings);
        assert!(buffer.list_positions.is_empty() && buffer.strip_positions.is_empty());
    }
}
