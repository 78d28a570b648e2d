//! [`CollisionPlugin`] and its system sets: wires the pipeline into a schedule.

use crate::body::CollisionBody;
use crate::collider::{CircleCollider, PolygonCollider, SegmentCollider};
use crate::contact::{Contact, ContactEnded, ContactStarted};
use crate::contacts::{CollidingEntities, Contacts};
use crate::filter::{FilterPairs, PairFilter};
use crate::layers::{ColliderDisabled, CollisionLayers, LayerMask};
use crate::pipeline;
use crate::reenabled;
use crate::settings::CollisionSettings;
use crate::swept::Swept;
use bevy::ecs::entity_disabling::DefaultQueryFilters;
use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy::ecs::system::ReadOnlySystemParam;
use bevy::prelude::*;
use bevy::transform::systems::{
    StaticTransformOptimizations, mark_dirty_trees, propagate_parent_transforms,
    sync_simple_transforms,
};
use bevy::transform::{TransformPlugin, TransformSystems};
use core::marker::PhantomData;

/// Finds the colliders in contact and sends [`Contact`] (unless
/// [`CollisionSettings::contact_messages`](crate::CollisionSettings::contact_messages) turns
/// it off), [`ContactStarted`] and [`ContactEnded`], once each time its schedule runs: a
/// **run** of the pipeline.
///
/// Runs in [`PostUpdate`] by default, after transform propagation: a run each frame.
/// [`CollisionPlugin::new`] picks another schedule: with `FixedPostUpdate`, a run each fixed
/// step (none, one or several a frame).
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
    propagate_transforms: bool,
}

impl CollisionPlugin {
    /// Runs the pipeline in `schedule` instead of [`PostUpdate`], for instance
    /// `FixedPostUpdate` to test at the fixed time step, for games that move their colliders
    /// in `FixedUpdate`.
    ///
    /// Bevy propagates transforms only in `PostUpdate`, so in any other schedule the plugin
    /// propagates them itself, right before its [`CollisionSystems::Prepare`] (Bevy's own
    /// propagation systems, in [`TransformSystems::Propagate`] of that schedule; see
    /// [`with_transform_propagation`](Self::with_transform_propagation)): each fixed step
    /// tests its colliders where that step left them, parents and children included, and a
    /// collider spawned in a step is tested where it was spawned. Each step writes its own
    /// messages. Bevy advances its message buffers only in frames that ran a fixed step, and
    /// keeps each message for two advances, so a reader in `FixedUpdate`, or one in `Update`
    /// that runs every frame, sees each message once, however many steps a frame runs (none,
    /// one or several). Several steps' messages read at once come each kind in order, but the
    /// starts apart from the ends: a pair that ended in one step and started again in the next
    /// reads as a start and an end with nothing to say which came first. To keep what touches
    /// what, read [`Contacts`] or [`CollidingEntities`], or observe the entity events, which
    /// run in order, step by step.
    ///
    /// A game whose systems move or spawn colliders in the pipeline's own schedule (the one
    /// given here, such as `FixedPostUpdate`, or `PostUpdate` for the default) orders those
    /// systems `.before(TransformSystems::Propagate)` there: unordered, a run may place them
    /// before they move, where the last run left them, and a collider spawned after the
    /// propagation at the origin, its `GlobalTransform` not yet set. Systems in an earlier
    /// schedule (`FixedUpdate` before `FixedPostUpdate`, `Update` before `PostUpdate`) need
    /// no ordering.
    ///
    /// ```no_run
    /// # use bevy::prelude::*;
    /// # use bevy_collision_events::prelude::*;
    /// App::new()
    ///     .add_plugins((DefaultPlugins, CollisionPlugin::new(FixedPostUpdate)))
    ///     .run();
    /// ```
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        let schedule = schedule.intern();
        Self {
            schedule,
            propagate_transforms: schedule != PostUpdate.intern(),
        }
    }

    /// The schedule the pipeline runs in.
    pub fn schedule(&self) -> InternedScheduleLabel {
        self.schedule
    }

    /// Whether the plugin runs Bevy's transform propagation in its own schedule, before placing
    /// the colliders. On by default in every schedule but [`PostUpdate`] (where Bevy does it);
    /// switch it off for a schedule that runs after Bevy's propagation anyway (a schedule of
    /// your own run after `app.update()`, or `Last`), where it would only repeat the work.
    /// Switched on in `PostUpdate`, it adds a second copy of Bevy's propagation there, which
    /// only repeats Bevy's work.
    pub fn with_transform_propagation(self, propagate_transforms: bool) -> Self {
        Self {
            propagate_transforms,
            ..self
        }
    }
}

impl Default for CollisionPlugin {
    fn default() -> Self {
        Self::new(PostUpdate)
    }
}

/// The pipeline's system sets, chained in this order, all after
/// [`TransformSystems::Propagate`].
///
/// To read this frame's contacts in the same schedule, order a system
/// `.after(CollisionSystems::WriteEvents)`.
///
/// A run condition on `FindContacts` pauses the contacts (a pause menu:
/// `configure_sets(PostUpdate, CollisionSystems::FindContacts.run_if(playing))`, with the
/// plugin's own schedule, [`CollisionPlugin::schedule`], in place of `PostUpdate`). While
/// [`FindContacts`](Self::FindContacts) is skipped, the contacts stay as its last run left
/// them: no contact starts or ends, and no message is written. [`Prepare`](Self::Prepare)
/// still runs: [`SpatialQuery`](crate::SpatialQuery) and the debug drawing's outlines follow
/// the colliders and the bodies' parts, and each run starts the swept paths afresh, so a move
/// made during the pause is not swept after it.
///
/// A pause of Bevy's virtual time (`Time<Virtual>::pause`) pauses the search the same way
/// (see [`CollisionSettings::pause_with_virtual_time`](crate::CollisionSettings::pause_with_virtual_time)).
///
/// Put a pause's run condition on `FindContacts` alone: `Prepare` skipped too would leave the
/// search testing where the colliders were, and `WriteEvents` skipped alone drops the contacts
/// of the runs it skips.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CollisionSystems {
    /// Places every enabled collider: its world shape and bounding circle, from its
    /// [`GlobalTransform`], and each [`Swept`](crate::Swept) collider's path since the last run.
    /// Finds each [`CollisionBody`](crate::CollisionBody)'s parts too, which the search, the
    /// events and [`SpatialQuery`](crate::SpatialQuery) read.
    Prepare,
    /// Finds this run's contacts: the pairs whose bounding circles overlap and whose layers
    /// match (the broad phase), each given the exact test, with the crossing points (the narrow
    /// phase). [`SpatialQuery`](crate::SpatialQuery) answers from what [`Prepare`](Self::Prepare)
    /// placed, so a system that asks about this frame's positions runs after `Prepare`.
    FindContacts,
    /// Writes [`Contact`] (unless
    /// [`CollisionSettings::contact_messages`](crate::CollisionSettings::contact_messages) turns
    /// it off), [`ContactStarted`] and [`ContactEnded`], triggers the observers, and updates
    /// [`Contacts`] and [`CollidingEntities`].
    WriteEvents,
}

/// The contact search inside [`CollisionSystems::FindContacts`]: the plain one, or a
/// [`PairFilterPlugin`]'s. What the diagnostics time as that set's work.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct ContactSearch;

/// The schedule [`CollisionPlugin`] runs the pipeline in, for the plugins that add to it.
#[derive(Resource)]
pub(crate) struct PipelineSchedule(pub InternedScheduleLabel);

impl Plugin for CollisionPlugin {
    fn build(&self, app: &mut App) {
        if self.propagate_transforms {
            // Bevy propagates transforms in `PostUpdate` only: elsewhere (a fixed step), place
            // colliders from the transforms as they are now, not as the last frame left them.
            app.add_systems(
                self.schedule,
                (
                    mark_dirty_trees,
                    propagate_parent_transforms,
                    sync_simple_transforms,
                )
                    .chain()
                    .in_set(TransformSystems::Propagate)
                    // Only with Bevy's `TransformPlugin`, which these systems need (without
                    // it the game keeps `GlobalTransform` itself; `finish` warns).
                    .run_if(resource_exists::<StaticTransformOptimizations>),
            );
        }
        pipeline::init(app);
        app.init_resource::<CollisionSettings>()
            .insert_resource(PipelineSchedule(self.schedule))
            .insert_resource(Contacts::empty())
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
            .register_type::<FilterPairs>()
            .register_type::<CollisionBody>()
            .register_type::<CollidingEntities>()
            .register_type::<CollisionSettings>()
            .configure_sets(
                self.schedule,
                (
                    CollisionSystems::Prepare,
                    CollisionSystems::FindContacts.run_if(virtual_time_runs),
                    CollisionSystems::WriteEvents,
                )
                    .chain()
                    .after(TransformSystems::Propagate),
            )
            .add_systems(
                self.schedule,
                (
                    pipeline::prepare.in_set(CollisionSystems::Prepare),
                    // A `PairFilterPlugin` adds its own, filtered, in its place.
                    pipeline::find_contacts
                        .run_if(no_filter_in_place)
                        .in_set(CollisionSystems::FindContacts)
                        .in_set(ContactSearch),
                    pipeline::events.in_set(CollisionSystems::WriteEvents),
                ),
            )
            .add_observer(reenabled::forget_starts_when_enabled)
            .add_systems(
                self.schedule,
                reenabled::watch_disabling_components
                    .run_if(resource_exists_and_changed::<DefaultQueryFilters>)
                    .before(CollisionSystems::Prepare),
            );
    }

    fn finish(&self, app: &mut App) {
        if !app.is_plugin_added::<TransformPlugin>() {
            // Without it no `GlobalTransform` moves: every collider would sit at the origin.
            warn!(
                "CollisionPlugin places colliders by their GlobalTransform, which only Bevy's \
                 TransformPlugin (part of DefaultPlugins) keeps up to date: add it, or set every \
                 collider's GlobalTransform yourself"
            );
        }
    }
}

/// Whether the contact search runs as far as Bevy's virtual time goes: unless the clock stood
/// still this update and [`CollisionSettings::pause_with_virtual_time`] says to pause with it.
fn virtual_time_runs(settings: Res<CollisionSettings>, time: Option<Res<Time<Virtual>>>) -> bool {
    !settings.pause_with_virtual_time || time.is_none_or(|time| !time.was_paused())
}

/// Installs the pair filter `F` (see [`PairFilter`]) in [`CollisionPlugin`]'s pipeline, added
/// before or after it (after it, for an app that is updated without being finished, as in
/// tests).
/// An app has one filter at most: to apply several rules, put them in one [`SystemParam`](bevy::ecs::system::SystemParam).
///
/// # Panics
/// When added to an app that has a pair filter already, and when the app is finished without
/// [`CollisionPlugin`].
pub struct PairFilterPlugin<F>(PhantomData<fn() -> F>);

impl<F> Default for PairFilterPlugin<F> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

/// Whether the plain contact search runs: unless a pair filter's own search is in place. A
/// filter added before `CollisionPlugin`, in an app updated without being finished, is not in
/// place: said once.
fn no_filter_in_place(filter: Option<Res<InstalledFilter>>, mut said: Local<bool>) -> bool {
    match filter {
        None => true,
        Some(filter) if filter.placed => false,
        Some(filter) => {
            if !core::mem::replace(&mut *said, true) {
                warn!(
                    "PairFilterPlugin::<{}> was added before CollisionPlugin in an app updated \
                     without being finished (App::finish): every pair may meet until it is; \
                     add it after CollisionPlugin",
                    filter.name
                );
            }
            true
        }
    }
}

/// Which filter an app installed: its type's name, for the message when a second one comes,
/// and whether its system is in the pipeline yet.
#[derive(Resource)]
pub(crate) struct InstalledFilter {
    name: &'static str,
    placed: bool,
}

impl<F> Plugin for PairFilterPlugin<F>
where
    F: ReadOnlySystemParam + Send + Sync + 'static,
    for<'w, 's> F::Item<'w, 's>: PairFilter,
{
    fn build(&self, app: &mut App) {
        if let Some(installed) = app.world().get_resource::<InstalledFilter>() {
            panic!(
                "PairFilterPlugin::<{}> added after PairFilterPlugin::<{}>: an app has one pair \
                 filter; put both rules in one SystemParam",
                core::any::type_name::<F>(),
                installed.name
            );
        }
        app.insert_resource(InstalledFilter {
            name: core::any::type_name::<F>(),
            placed: false,
        });
        Self::place(app);
    }

    /// Places the filter, when `CollisionPlugin` was added after this plugin.
    fn finish(&self, app: &mut App) {
        if !Self::place(app) {
            panic!(
                "PairFilterPlugin::<{}> filters CollisionPlugin's pairs: add CollisionPlugin too",
                core::any::type_name::<F>()
            );
        }
    }
}

impl<F> PairFilterPlugin<F>
where
    F: ReadOnlySystemParam + Send + Sync + 'static,
    for<'w, 's> F::Item<'w, 's>: PairFilter,
{
    /// Puts the filtered contact search in the pipeline's schedule, once, if the pipeline is
    /// there; whether it is in place.
    fn place(app: &mut App) -> bool {
        let Some(schedule) = app.world().get_resource::<PipelineSchedule>().map(|s| s.0) else {
            return false;
        };
        let mut installed = app.world_mut().resource_mut::<InstalledFilter>();
        if core::mem::replace(&mut installed.placed, true) {
            return true;
        }
        app.add_systems(
            schedule,
            pipeline::find_filtered_contacts::<F>
                .in_set(CollisionSystems::FindContacts)
                .in_set(ContactSearch)
                // The plain one does not run beside it (its run condition).
                .ambiguous_with(pipeline::find_contacts),
        );
        true
    }
}
