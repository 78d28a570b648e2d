//! The plugin's systems have no schedule ambiguities, with each other or with Bevy's.

use crate::common::app;
use bevy::ecs::schedule::{ScheduleLabel, SystemSet};
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use bevy_collision_events::prelude::*;

/// The conflicting (unordered, clashing) system pairs of `PostUpdate` that involve one of the
/// plugin's systems.
fn ambiguities_involving_the_plugin(app: &mut App) -> usize {
    ambiguities_among(app, 3)
}

/// The same, for an app whose plugin has `systems` systems.
fn ambiguities_among(app: &mut App, systems: usize) -> usize {
    app.update();
    let schedule = app
        .world()
        .resource::<Schedules>()
        .get(PostUpdate.intern())
        .expect("PostUpdate exists");
    let graph = schedule.graph();
    let ours: HashSet<_> = [
        CollisionSystems::Prepare,
        CollisionSystems::FindContacts,
        CollisionSystems::WriteEvents,
    ]
    .into_iter()
    .flat_map(|set| graph.systems_in_set(set.intern()).unwrap().iter().copied())
    .collect();
    // One system per set (finding contacts runs the broad and narrow phases; without a pair
    // filter).
    assert_eq!(ours.len(), systems, "the plugin's systems");
    graph
        .conflicting_systems()
        .iter()
        .filter(|(a, b, _)| ours.contains(a) || ours.contains(b))
        .count()
}

#[test]
fn no_ambiguities_involving_the_plugin() {
    assert_eq!(ambiguities_involving_the_plugin(&mut app()), 0);
}

#[test]
fn the_ambiguity_check_sees_an_unordered_clash() {
    // A user system writing what the plugin writes, with no order: the check must see it.
    fn clear_contacts(mut contacts: ResMut<Contacts>) {
        let _ = &mut *contacts;
    }
    let mut app = app();
    app.add_systems(PostUpdate, clear_contacts);
    assert!(ambiguities_involving_the_plugin(&mut app) > 0);
}

/// A spatial query ordered after the prepare stage, as its docs advise, reads only what that
/// stage wrote: no clash with the search or the events after it.
#[test]
fn a_query_after_prepare_clashes_with_nothing_of_the_plugin() {
    fn look(query: SpatialQuery) {
        let _ = query.nearest(Vec2::ZERO, 10.0, &SpatialQueryFilter::default());
    }
    let mut app = app();
    app.add_systems(PostUpdate, look.after(CollisionSystems::Prepare));
    assert_eq!(ambiguities_involving_the_plugin(&mut app), 0);
}

/// A filter that lets everything through.
#[derive(bevy::ecs::system::SystemParam)]
struct Everything<'w> {
    _time: Res<'w, Time>,
}

impl PairFilter for Everything<'_> {
    fn allows(&self, _: Entity, _: Entity) -> bool {
        true
    }
}

#[test]
fn a_pair_filter_adds_no_ambiguity() {
    let mut app = app();
    app.add_plugins(PairFilterPlugin::<Everything>::default());
    // The filtered system beside the plain one, which it stands in for.
    assert_eq!(ambiguities_among(&mut app, 4), 0);
}

/// A second filter that lets everything through.
#[derive(bevy::ecs::system::SystemParam)]
struct Anything<'w> {
    _time: Res<'w, Time>,
}

impl PairFilter for Anything<'_> {
    fn allows(&self, _: Entity, _: Entity) -> bool {
        true
    }
}

#[test]
#[should_panic(expected = "an app has one pair filter")]
fn a_second_pair_filter_says_there_is_one() {
    app().add_plugins((
        PairFilterPlugin::<Everything>::default(),
        PairFilterPlugin::<Anything>::default(),
    ));
}
