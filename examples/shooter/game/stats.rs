//! What the shooter counts as it runs, for the HUD and the headless summary: hits, kills,
//! contacts, and how long the collision pipeline and each frame took.

use bevy::prelude::*;

/// Running totals for the HUD and the headless summary.
#[derive(Resource, Default, Debug)]
pub struct Stats {
    /// Frames played.
    pub frames: u64,
    /// The most colliders placed in one run.
    pub peak_colliders: usize,
    /// Colliders the pipeline placed in its last run (those switched off left out).
    pub colliders: usize,
    /// Contacts this frame.
    pub contacts: usize,
    /// Contacts over the whole run.
    pub total_contacts: u64,
    /// Player bullets (missiles included) that hit an enemy.
    pub hits: u64,
    /// Homing missiles that hit an enemy.
    pub missile_hits: u64,
    /// Enemies destroyed.
    pub kills: u64,
    /// Points scored over every game of the run.
    pub points: u64,
    /// Frames in which the laser was stopped short by something it hit.
    pub laser_stops: u64,
    /// Lives lost.
    pub lives_lost: u64,
    /// Bullets on screen now, of both sides.
    pub bullets: usize,
    /// The most bullets on screen at once.
    pub peak_bullets: usize,
    /// Whether each frame's timings below are kept, for the summary of a run of so many
    /// frames (a game played on in a window keeps none).
    pub keep_timings: bool,
    /// Milliseconds the collision pipeline took, per frame.
    pub collision_ms: Vec<f32>,
    /// The same, in the frames with at least [`CROWD`] bullets on screen.
    pub crowded_collision_ms: Vec<f32>,
    /// Seconds each frame took, by the wall clock.
    pub frame_seconds: Vec<f32>,
    /// The same, in the frames with at least [`CROWD`] bullets on screen.
    pub crowded_frame_seconds: Vec<f32>,
}

/// Bullets on screen from which a frame counts as crowded, for [`Stats`].
pub const CROWD: usize = 10_000;

impl Stats {
    /// No totals yet, and each frame's timings kept, for a summary.
    pub fn keeping_timings() -> Self {
        Self {
            keep_timings: true,
            ..default()
        }
    }

    /// The median collision time per frame, in milliseconds; `None` before any frame.
    pub fn median_collision_ms(&self) -> Option<f32> {
        median(&self.collision_ms)
    }

    /// The median collision time per frame with at least [`CROWD`] bullets on screen, in
    /// milliseconds; `None` without such a frame.
    pub fn median_crowded_collision_ms(&self) -> Option<f32> {
        median(&self.crowded_collision_ms)
    }

    /// The median frame rate, frames per second by the wall clock; `None` before any frame.
    pub fn median_frame_rate(&self) -> Option<f32> {
        median(&self.frame_seconds).map(|seconds| 1.0 / seconds.max(f32::EPSILON))
    }

    /// The median frame rate with at least [`CROWD`] bullets on screen; `None` without such
    /// a frame.
    pub fn median_crowded_frame_rate(&self) -> Option<f32> {
        median(&self.crowded_frame_seconds).map(|seconds| 1.0 / seconds.max(f32::EPSILON))
    }
}

/// The middle value of `values`, if there are any.
fn median(values: &[f32]) -> Option<f32> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f32::total_cmp);
    sorted.get(sorted.len() / 2).copied()
}
