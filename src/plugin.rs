//! [`CollisionPlugin`] and its system sets: wires the pipeline into a schedule.

use crate::collider::{CircleCollider, PolygonCollider, SegmentCollider};
use crate::contact::{CollidingEntities, Contact, ContactEnded, ContactStarted, Contacts};
use crate::layers::{ColliderDisabled, CollisionLayers, LayerMask};
use crate::pipeline;
use crate::settings::CollisionSettings;
use crate::swept::Swept;
use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::prelude::*;
use bevy::transform::TransformSystems;

/// Finds the overlapping colliders every frame and sends [`Contact`], [`ContactStarted`] and
/// [`ContactEnded`].
///
/// Runs in [`PostUpdate`] by default, after transform propagation;
/// [`CollisionPlugin::new`] picks another schedule.
///
/// ```no_run
/// # use bevy::prelude::*;
/// # use bevy_collision_events::prelude::*;
/// App::new()
///     .add_plugins((DefaultPlugins, CollisionPlugin::default()))
///     .run();
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CollisionPlugin {
    schedule: InternedScheduleLabel,
}

impl CollisionPlugin {
    /// Runs the pipeline in `schedule` instead of [`PostUpdate`], for instance
    /// `FixedPostUpdate` to test at the fixed time step. Transform propagation does not run in
    /// fixed schedules, so colliders are then placed by the [`GlobalTransform`]s of the last
    /// propagation.
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
        }
    }
}

impl Default for CollisionPlugin {
    fn default() -> Self {
        Self::new(PostUpdate)
    }
}

/// The pipeline's stages, chained in this order, all after
/// [`TransformSystems::Propagate`].
///
/// To read this frame's contacts in the same schedule, order a system
/// `.after(CollisionSystems::Events)`.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CollisionSystems {
    /// Each enabled collider's world shape and bounding circle, from its [`GlobalTransform`];
    /// each [`Swept`](crate::Swept) collider's path since the last run.
    Prepare,
    /// Candidate pairs: bounding circles that overlap, layers that match.
    BroadPhase,
    /// The exact test on each candidate, with the crossing points.
    NarrowPhase,
    /// [`Contact`], [`ContactStarted`] and [`ContactEnded`] are written, observers triggered,
    /// [`Contacts`] and [`CollidingEntities`] updated.
    Events,
}

impl Plugin for CollisionPlugin {
    fn build(&self, app: &mut App) {
        pipeline::init(app);
        app.init_resource::<CollisionSettings>()
            .init_resource::<Contacts>()
            .add_message::<Contact>()
            .add_message::<ContactStarted>()
            .add_message::<ContactEnded>()
            .register_type::<CircleCollider>()
            .register_type::<SegmentCollider>()
            .register_type::<PolygonCollider>()
            .register_type::<CollisionLayers>()
            .register_type::<LayerMask>()
            .register_type::<ColliderDisabled>()
            .register_type::<Swept>()
            .register_type::<CollidingEntities>()
            .register_type::<CollisionSettings>()
            .configure_sets(
                self.schedule,
                (
                    CollisionSystems::Prepare,
                    CollisionSystems::BroadPhase,
                    CollisionSystems::NarrowPhase,
                    CollisionSystems::Events,
                )
                    .chain()
                    .after(TransformSystems::Propagate),
            )
            .add_systems(
                self.schedule,
                (
                    (pipeline::prepare, pipeline::remember_path_starts)
                        .chain()
                        .in_set(CollisionSystems::Prepare),
                    pipeline::broad_phase.in_set(CollisionSystems::BroadPhase),
                    pipeline::narrow_phase.in_set(CollisionSystems::NarrowPhase),
                    pipeline::events.in_set(CollisionSystems::Events),
                ),
            );
    }
}
