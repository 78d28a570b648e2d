//! [`CollisionSettings`]: the tuning the pipeline's stages read.

use bevy::prelude::*;

/// Tuning for [`CollisionPlugin`](crate::CollisionPlugin), a resource.
#[derive(Resource, Debug, Clone, PartialEq, Reflect)]
#[reflect(Resource, Debug, Default, Clone, PartialEq)]
pub struct CollisionSettings {
    /// How much work a stage needs before it spreads it over the threads of Bevy's
    /// `ComputeTaskPool`: circles to place (prepare), colliders in one pass of the broad phase
    /// (or, in a pass of fewer, candidate pairs to test), and three times as many contacts to
    /// write (events, lighter work a contact). Below it, the stage runs on one thread (as it
    /// does with nothing to do, at a threshold of zero too). The contacts and events are the
    /// same either way, in the same order.
    ///
    /// When to change it: lower it if your game has a few thousand colliders and idle cores;
    /// raise it (`usize::MAX` keeps the pipeline on one thread) to leave the pool's other
    /// threads to your own systems.
    ///
    /// A frame's work is spread over no more of the pool's threads than the machine has
    /// cores. A thread with no piece left ends its task, and one that waits for the others'
    /// last pieces waits asleep: the pool's threads are free for your systems as soon as the
    /// work runs out.
    ///
    /// The work is spread only when the pool has more than one thread and the machine more
    /// than one core. Bevy gives the compute pool one thread on a machine with fewer than four
    /// cores; raise `TaskPoolOptions::compute.min_threads` in `TaskPoolPlugin` to change that.
    ///
    /// Default: `2048`.
    pub parallel_threshold: usize,
    /// Whether a pause of Bevy's virtual time (`Time<Virtual>::pause`, or a relative speed of
    /// zero) pauses the contact search, as a run condition on
    /// [`CollisionSystems::FindContacts`](crate::CollisionSystems::FindContacts) does: while the
    /// clock stands still, the contacts stay as they are and no message is written. A pipeline
    /// at a fixed step pauses with the clock anyway (no step runs); in `PostUpdate`, each run
    /// would write its [`Contact`](crate::Contact) messages, which Bevy keeps, without a fixed
    /// step to advance its message buffers, until the clock runs again. (Slowed down, not
    /// paused, the clock runs fixed steps less often, and the messages of the frames between
    /// two are kept together: at a tenth of the speed, about ten frames' worth. Bevy keeps every
    /// message type so.)
    ///
    /// While paused, [`Contacts`](crate::Contacts) and
    /// [`CollidingEntities`](crate::CollidingEntities) keep the pairs of the last search, even
    /// of entities despawned meanwhile (a level torn down from the pause menu): their
    /// [`ContactEnded`](crate::ContactEnded) comes with the first search after.
    ///
    /// When to change it: turn it off if colliders move and meet while the game is paused (a
    /// pause menu's buttons under the pointer), and read the messages in `Update` or later.
    /// Every paused frame's messages are then kept until the clock runs again, as said above:
    /// thousands of touching pairs over a long pause are millions of messages. Keep few
    /// colliders touching meanwhile (a menu's), or turn it off only while they are needed.
    ///
    /// Default: `true`.
    pub pause_with_virtual_time: bool,
    /// Whether each run writes a [`Contact`](crate::Contact) message for every pair in
    /// contact. [`Contacts`](crate::Contacts), [`CollidingEntities`](crate::CollidingEntities),
    /// and the [`ContactStarted`](crate::ContactStarted) and
    /// [`ContactEnded`](crate::ContactEnded) messages and entity events come either way.
    ///
    /// When to change it: turn it off if nothing in your game reads `Contact` messages (it
    /// reads `Contacts`, or observes the starts and ends). Each run then saves copying every
    /// contact into a message: a few percent of the pipeline where many pairs touch.
    ///
    /// Default: `true`.
    pub contact_messages: bool,
}

impl Default for CollisionSettings {
    fn default() -> Self {
        Self {
            parallel_threshold: 2048,
            pause_with_virtual_time: true,
            contact_messages: true,
        }
    }
}
