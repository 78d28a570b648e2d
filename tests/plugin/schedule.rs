//! The plugin's systems have no schedule ambiguities, with each other or with Bevy's.

use crate::common::app;
use bevy::ecs::schedule::{ScheduleLabel, SystemSet};
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use bevy_collision_events::prelude::*;

/// The conflicting (unordered, clashing) system pairs of `PostUpdate` that involve one of the
/// plugin's systems.
fn ambiguities_involving_the_plugin(app: &mut App) -> usize {
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
    // One system per set (finding contacts runs the broad and narrow phases), and one more in prepare
    // that remembers where swept paths start.
    assert_eq!(ours.len(), 4, "the plugin's systems");
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
