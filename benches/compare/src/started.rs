//! Every engine's contact-start events reduced to the same two numbers, so that engines whose
//! entities differ can be checked for finding the same pairs on the same frames; and, for a
//! scene with an exact count, kept one by one ([`StartLog`]) to be matched against it.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::scene::BodyId;

/// The first frame whose contact starts are counted. Frames 1 and 2 are left out: on the
/// first, every engine meets the whole scene at once, and avian2d reports what it finds among
/// newly spawned colliders one frame later than the others (so not at all for the pairs that
/// are apart again by frame 2).
pub const FIRST_COUNTED_FRAME: u32 = 3;

/// How many frames contact starts are counted over (the same for every engine, however many
/// frames it is timed for).
pub const COUNTED_FRAMES: u32 = 60;

/// The last frame whose contact starts are counted.
pub const LAST_COUNTED_FRAME: u32 = FIRST_COUNTED_FRAME + COUNTED_FRAMES - 1;

/// The frame being run, counting from 1; advanced at the start of each frame. (Bevy's
/// `FrameCount` is advanced in `Last`, where the engines' counting systems also run.)
#[derive(Resource, Default)]
pub struct Frame(pub u32);

/// The contact-start events seen from [`FIRST_COUNTED_FRAME`] to [`LAST_COUNTED_FRAME`].
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartedPairs {
    /// How many there were.
    pub count: u64,
    /// An order-free digest of which pairs started on which frame: two engines agree on it when
    /// they report the same pairs of bodies starting on the same frames.
    pub digest: u64,
    /// Print every counted start (`start FRAME LOW HIGH`): set from [`LIST_VARIABLE`].
    pub list: bool,
}

/// Set (to anything) in a run's environment to print every counted contact start, for finding
/// out where two engines differ:
///
/// ```text
/// COMPARE_RUN="mixed-5k ours 1" COMPARE_LIST_STARTS=1 target/release/compare | sort > ours.txt
/// ```
pub const LIST_VARIABLE: &str = "COMPARE_LIST_STARTS";

/// One contact start: the frame and the pair's two [`BodyId`]s, the lower first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Start {
    /// The frame, counting from 1.
    pub frame: u32,
    /// The lower body id of the pair.
    pub low: u32,
    /// The higher one.
    pub high: u32,
}

impl Start {
    /// The start of `a` and `b` on `frame`, in either order.
    pub fn new(frame: u32, a: u32, b: u32) -> Self {
        Self {
            frame,
            low: a.min(b),
            high: a.max(b),
        }
    }
}

/// Every contact start of every frame, kept for the scenes whose hits are checked against an
/// exact count ([`crate::exact`]); absent otherwise.
#[derive(Resource, Default, Debug)]
pub struct StartLog(pub Vec<Start>);

/// What an engine's counting system records each contact start through.
#[derive(SystemParam)]
pub struct Recorder<'w> {
    frame: Res<'w, Frame>,
    pairs: ResMut<'w, StartedPairs>,
    log: Option<ResMut<'w, StartLog>>,
}

impl Recorder<'_> {
    /// Notes that bodies `a` and `b` started touching on this frame.
    pub fn record(&mut self, a: BodyId, b: BodyId) {
        if let Some(log) = &mut self.log {
            log.0.push(Start::new(self.frame.0, a.0, b.0));
        }
        self.pairs.record(&self.frame, a, b);
    }
}

impl StartedPairs {
    /// Notes that bodies `a` and `b` started touching on `frame`.
    fn record(&mut self, frame: &Frame, a: BodyId, b: BodyId) {
        if !(FIRST_COUNTED_FRAME..=LAST_COUNTED_FRAME).contains(&frame.0) {
            return;
        }
        let (low, high) = if a < b { (a.0, b.0) } else { (b.0, a.0) };
        self.count += 1;
        let key = (u64::from(frame.0) << 42) ^ (u64::from(low) << 21) ^ u64::from(high);
        self.digest = self.digest.wrapping_add(mix(key));
        if self.list {
            println!("start {} {low} {high}", frame.0);
        }
    }
}

/// The `SplitMix64` finaliser: spreads every input bit over the whole word.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Adds the frame counter and the tally; each engine adds the system that feeds it.
pub fn plugin(app: &mut App) {
    app.init_resource::<Frame>()
        .insert_resource(StartedPairs {
            list: std::env::var_os(LIST_VARIABLE).is_some(),
            ..default()
        })
        .add_systems(First, |mut frame: ResMut<Frame>| frame.0 += 1);
}
