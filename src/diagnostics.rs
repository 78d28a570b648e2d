//! [`CollisionDiagnosticsPlugin`]: the pipeline's time and counts in Bevy's
//! `DiagnosticsStore`. Behind the cargo feature `diagnostics`.

use crate::contact::{ContactEnded, ContactStarted};
use crate::contacts::Contacts;
use crate::pipeline;
use crate::pipeline::placed::PlacedColliders;
use crate::plugin::{CollisionPlugin, CollisionSystems, ContactSearch};
use bevy::diagnostic::{Diagnostic, DiagnosticPath, Diagnostics, RegisterDiagnostic};
use bevy::ecs::schedule::InternedScheduleLabel;
use bevy::platform::time::Instant;
use bevy::prelude::*;

/// Publishes what each run of the collision pipeline took and found through Bevy's
/// [`DiagnosticsStore`](bevy::diagnostic::DiagnosticsStore), as Bevy's own diagnostics plugins do:
/// read them with a `Res<DiagnosticsStore>` (a HUD), or print them with Bevy's
/// `LogDiagnosticsPlugin`.
///
/// | path | what |
/// |---|---|
/// | [`PREPARE`](Self::PREPARE), [`FIND_CONTACTS`](Self::FIND_CONTACTS), [`WRITE_EVENTS`](Self::WRITE_EVENTS) | the time of the pipeline's own systems in each [`CollisionSystems`] set, ms (the observers it triggers included in the last; a game's systems ordered before, after or between the sets left out) |
/// | [`TOTAL`](Self::TOTAL) | the three together, ms |
/// | [`COLLIDERS`](Self::COLLIDERS) | colliders placed |
/// | [`CONTACTS`](Self::CONTACTS) | contacts: pairs overlapping, or met along a swept path (while the search is paused, the pairs it holds) |
/// | [`STARTED`](Self::STARTED), [`ENDED`](Self::ENDED) | pairs that started and ended |
///
/// Each set's time is taken by two systems placed just before and just after the pipeline's
/// own in that set, so it also holds any wait for a thread between them; and in
/// [`WriteEvents`](CollisionSystems::WriteEvents), the commands of other systems that Bevy
/// applies at the same point as the pipeline's (with the observers they trigger). A run whose
/// sets did not all run (a run condition) publishes no time: only the counts, if its
/// `WriteEvents` ran, and nothing otherwise.
///
/// Add it beside [`CollisionPlugin`] (after it, for an app that is updated without being
/// finished, as in tests); an app without it pays nothing, and neither does a build without
/// the feature. With the pipeline in a fixed schedule, each step adds its own
/// measurements.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_collision_events::prelude::*;
/// use bevy::diagnostic::DiagnosticsStore;
/// use bevy_collision_events::diagnostics::CollisionDiagnosticsPlugin;
///
/// fn hud(store: Res<DiagnosticsStore>) {
///     let time = store.get(&CollisionDiagnosticsPlugin::TOTAL).and_then(|d| d.smoothed());
///     info!("collisions: {:.3} ms", time.unwrap_or_default());
/// }
///
/// App::new()
///     .add_plugins((MinimalPlugins, CollisionPlugin::default(), CollisionDiagnosticsPlugin))
///     .add_systems(Update, hud);
/// ```
///
/// # Panics
/// When the app is finished without [`CollisionPlugin`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CollisionDiagnosticsPlugin;

impl CollisionDiagnosticsPlugin {
    /// The time of the pipeline's own systems in [`CollisionSystems::Prepare`], ms.
    pub const PREPARE: DiagnosticPath = DiagnosticPath::const_new("collision/prepare");
    /// The time of the pipeline's own systems in [`CollisionSystems::FindContacts`], ms.
    pub const FIND_CONTACTS: DiagnosticPath = DiagnosticPath::const_new("collision/find_contacts");
    /// The time of the pipeline's own systems in [`CollisionSystems::WriteEvents`], ms, with
    /// the observers they trigger.
    pub const WRITE_EVENTS: DiagnosticPath = DiagnosticPath::const_new("collision/write_events");
    /// The pipeline's time, ms: the three sets' together.
    pub const TOTAL: DiagnosticPath = DiagnosticPath::const_new("collision/total");
    /// How many colliders were placed.
    pub const COLLIDERS: DiagnosticPath = DiagnosticPath::const_new("collision/colliders");
    /// How many contacts this run: pairs that overlap, or that met along a [`Swept`](crate::Swept)
    /// path.
    pub const CONTACTS: DiagnosticPath = DiagnosticPath::const_new("collision/contacts");
    /// How many pairs started to overlap.
    pub const STARTED: DiagnosticPath = DiagnosticPath::const_new("collision/started");
    /// How many pairs stopped overlapping.
    pub const ENDED: DiagnosticPath = DiagnosticPath::const_new("collision/ended");
}

impl Plugin for CollisionDiagnosticsPlugin {
    fn build(&self, app: &mut App) {
        for (path, suffix) in [
            (Self::PREPARE, " ms"),
            (Self::FIND_CONTACTS, " ms"),
            (Self::WRITE_EVENTS, " ms"),
            (Self::TOTAL, " ms"),
            (Self::COLLIDERS, ""),
            (Self::CONTACTS, ""),
            (Self::STARTED, ""),
            (Self::ENDED, ""),
        ] {
            app.register_diagnostic(Diagnostic::new(path).with_suffix(suffix));
        }
        if let Some(collisions) = app.get_added_plugins::<CollisionPlugin>().pop() {
            place_clock(app, collisions.schedule());
        }
    }

    /// Places the clock, when `CollisionPlugin` was added after this plugin.
    fn finish(&self, app: &mut App) {
        if app.world().contains_resource::<StageClock>() {
            return;
        }
        let Some(collisions) = app.get_added_plugins::<CollisionPlugin>().pop() else {
            panic!("CollisionDiagnosticsPlugin measures CollisionPlugin: add CollisionPlugin too");
        };
        place_clock(app, collisions.schedule());
    }
}

/// Puts the clock's systems around the pipeline's own systems, inside each of its sets, in the
/// pipeline's `schedule`: so that no system of the game, ordered before, after or between the
/// sets, runs between the two laps of a set.
fn place_clock(app: &mut App, schedule: InternedScheduleLabel) {
    app.init_resource::<StageClock>().add_systems(
        schedule,
        (
            clear_clock.before(CollisionSystems::Prepare),
            lap::<0>
                .in_set(CollisionSystems::Prepare)
                .before(pipeline::prepare),
            lap::<1>
                .in_set(CollisionSystems::Prepare)
                .after(pipeline::prepare),
            lap::<2>
                .in_set(CollisionSystems::FindContacts)
                .before(ContactSearch),
            lap::<3>
                .in_set(CollisionSystems::FindContacts)
                .after(ContactSearch),
            lap::<4>
                .in_set(CollisionSystems::WriteEvents)
                .before(pipeline::events),
            (lap::<5>, publish)
                .chain()
                .in_set(CollisionSystems::WriteEvents)
                .after(pipeline::events),
        ),
    );
}

/// When the pipeline's systems started and ended this run, set by set.
#[derive(Resource, Default)]
struct StageClock([Option<Instant>; 6]);

/// Forgets the last run's laps, before this run's sets: in none of them, it runs whichever
/// sets run, so that a set skipped by a run condition leaves no time of an earlier run to be
/// published for this one.
fn clear_clock(mut clock: ResMut<StageClock>) {
    clock.0 = [None; 6];
}

/// Marks a boundary of a set.
fn lap<const BOUNDARY: usize>(mut clock: ResMut<StageClock>) {
    clock.0[BOUNDARY] = Some(Instant::now());
}

/// Adds this run's measurements.
fn publish(
    mut clock: ResMut<StageClock>,
    mut diagnostics: Diagnostics,
    placed: Res<PlacedColliders>,
    contacts: Res<Contacts>,
    mut started: MessageReader<ContactStarted>,
    mut ended: MessageReader<ContactEnded>,
) {
    let laps = core::mem::take(&mut clock.0);
    if let [
        Some(prepare),
        Some(prepared),
        Some(find),
        Some(found),
        Some(write),
        Some(written),
    ] = laps
    {
        let milliseconds = |from: Instant, to: Instant| (to - from).as_secs_f64() * 1e3;
        let stages = [
            (
                CollisionDiagnosticsPlugin::PREPARE,
                milliseconds(prepare, prepared),
            ),
            (
                CollisionDiagnosticsPlugin::FIND_CONTACTS,
                milliseconds(find, found),
            ),
            (
                CollisionDiagnosticsPlugin::WRITE_EVENTS,
                milliseconds(write, written),
            ),
        ];
        let total = stages.iter().map(|(_, time)| time).sum::<f64>();
        for (path, time) in stages {
            diagnostics.add_measurement(&path, || time);
        }
        diagnostics.add_measurement(&CollisionDiagnosticsPlugin::TOTAL, || total);
    }
    let counts = [
        (CollisionDiagnosticsPlugin::COLLIDERS, placed.entities.len()),
        (CollisionDiagnosticsPlugin::CONTACTS, contacts.len()),
        (CollisionDiagnosticsPlugin::STARTED, started.read().count()),
        (CollisionDiagnosticsPlugin::ENDED, ended.read().count()),
    ];
    for (path, count) in counts {
        diagnostics.add_measurement(&path, || count as f64);
    }
}
