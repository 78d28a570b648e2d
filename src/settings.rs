//! [`CollisionSettings`]: the tuning the pipeline's stages read.

use bevy::prelude::*;

/// Tuning for [`CollisionPlugin`](crate::CollisionPlugin), a resource.
#[derive(Resource, Debug, Clone, PartialEq, Reflect)]
#[reflect(Resource, Debug, Default, Clone, PartialEq)]
pub struct CollisionSettings {
    /// How many items of work a stage needs before it splits them across Bevy's
    /// `ComputeTaskPool`: colliders to place in prepare, colliders to look up in the broad
    /// phase (the narrow phase tests the candidates each piece finds on the same thread, or,
    /// with fewer colliders, splits the candidate pairs when there are this many), contacts to
    /// write in events (the [`Contact`](crate::Contact) messages on one thread, the starts and
    /// ends on another). Below it the stage runs on the calling thread. The result is the same
    /// either way.
    ///
    /// The thread that splits waits for the last pieces checking rather than asleep (for up to
    /// 0.2 ms), and with at least this many colliders the broad phase wakes the pool's other
    /// threads while it groups the bodies, each waiting, checking, for its split (until the
    /// split starts or the broad phase ends, for up to 0.2 ms): a thread put to sleep and
    /// woken can take tens of microseconds to start. Those threads run no other system's
    /// task while they wait.
    ///
    /// Work is split only when the pool has more than one thread. Bevy's default
    /// `TaskPoolOptions` give the compute pool one thread on a machine with fewer than four
    /// cores; raise `TaskPoolOptions::compute.min_threads` in `TaskPoolPlugin` to change that.
    ///
    /// Default: `2048`.
    pub parallel_threshold: usize,
}

impl Default for CollisionSettings {
    fn default() -> Self {
        Self {
            parallel_threshold: 2048,
        }
    }
}
