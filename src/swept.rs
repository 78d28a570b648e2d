//! [`Swept`]: the component that makes a collider's motion count, not just where it ends up.

use crate::geometry::{MAX_COORDINATE, in_range};
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;

/// Makes a collider **swept**: each run of the pipeline tests the whole straight path it moved
/// along since the last run, not only where it ends up, so a fast bullet never passes through
/// a thin wall or a small enemy between two frames, and its [`Contact`](crate::Contact) says
/// when, where and facing which way it first touched ([`Contact::impact`](crate::Contact::impact)).
///
/// The other collider of a pair is taken along its own path when it is swept too, and where it
/// is now when it is not: a fast collider that can be hit mid-path (a moving wall, a dashing
/// enemy) should be swept as well. A collider that moved onto the start of the path since the
/// last run is met there: the pair is a contact of this run, unless it was already one of the
/// last run (then the swept one is leaving it, and the contact ends when they are apart).
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_collision_events::prelude::*;
/// fn fire(mut commands: Commands) {
///     commands.spawn((
///         CircleCollider::new(3.0),
///         Swept::default(),
///         Transform::from_xyz(0.0, -300.0, 0.0),
///     ));
/// }
/// # bevy::ecs::system::assert_is_system(fire);
/// ```
///
/// # What is swept
/// The collider on the same entity: a [`CollisionBody`](crate::CollisionBody) whose parts
/// move fast gives each part its own `Swept` (one on an entity without a collider, a body's
/// included, sweeps nothing, and the plugin warns). The **translation** of the entity's
/// [`GlobalTransform`], from where it was at the pipeline's last run to where it is now, in a
/// straight line; and for a segment or a polygon its **turn** too, about the entity's
/// translation point, turning and moving together at
/// steady rates over the run (a boss's laser swinging across the screen, a spinning blade).
/// A part of a turning [`CollisionBody`](crate::CollisionBody) is swept about its own
/// translation point, which moves in a straight line, not round the body's centre: the
/// path of a blade set off the centre cuts the corner of its arc (by 6 px halfway through a
/// turn of a radian, 50 px out). Place each blade's entity at the centre it turns about (the
/// blade's shape set off it), or sweep the spinning shape as one collider.
/// The turn is the change in the angle of the transform's x axis, taken the shorter way
/// round: at most half a turn a run. A collider mirrored or un-mirrored since the last run (a
/// negative scale on one axis: a character turned to face the other way) is not turned. A
/// circle's turn changes nothing and is not looked at, even a circle set off its entity's
/// centre (`CircleCollider::with_offset`), which is swept along its translation only. A
/// collider that turns faster (a blade spinning more than half a turn a frame) is swept the
/// other way round; run the pipeline at a fixed step fast enough for half a turn a step
/// ([`CollisionPlugin::new`](crate::CollisionPlugin::new)). Scale is not swept: the collider
/// keeps its current scale along the whole path. (A child turning under a parent scaled
/// unevenly stretches as it turns; only the turn of its x axis is swept.) Nor is a change of
/// the collider itself: a laser aimed by giving it a new `SegmentCollider` each frame is
/// tested where it is now; aim it by turning its entity, as the `turning_laser` example does. A collider met anywhere along the way is a contact
/// of this run; see [`Contact::impact`](crate::Contact::impact) for what is reported, and when,
/// and [`Contacts::first_hit`](crate::Contacts::first_hit) for which of several came first.
///
/// A translation alone is swept exactly. A turn is swept by conservative advancement: time
/// steps forward by the distance between the two shapes over the fastest it can shrink, so no
/// step passes a contact, until the shapes are within
/// [`TOLERANCE`](crate::geometry::TOLERANCE) of the smaller one's size, or within what `f32`
/// positions tell apart across the gap where they are nearest, whichever is larger; the
/// impact is reported there. So a turning pair that passes within that tolerance without
/// touching (a door turning shut a hair short of its frame) is a contact of the run, where
/// the exact test of a run without a turn finds them apart: its contact can start while it
/// turns and end when it holds still. How
/// fast the distance can shrink is bounded by how fast their points move and, edge by edge
/// and corner by corner, by how fast the nearest edges close in, which keeps the steps long
/// where shapes slide along each other or spin a hair from each other. A pair that still
/// stays a hair apart after a thousand steps (a shape circling a hair inside a round wall) is
/// tested for the rest of its motion at 256 even steps instead, which can pass a feature
/// thinner than the distance moved in a step.
///
/// Both colliders of a pair may be swept: their motions are tested together.
///
/// A collider's first run with this component, and a run after [`Swept::jump`], test only
/// where it is (there is no path yet). So a bullet's first move is swept only if it comes after
/// that run: spawn it where it starts, and move it from then on. With the pipeline at a fixed
/// step, spawn bullets in `FixedUpdate`, after the system that moves them (spawned in `Update`,
/// a bullet would make its first move in the next step, before the run that places it). That holds however the component arrived: spawned,
/// inserted, cloned from another entity or loaded from a scene, a new `Swept` starts with no
/// path (only the pipeline records where a path starts; a scene applied by reflection onto an
/// entity that has one already keeps its path: `jump` it too). Call `jump` when the entity
/// teleports, respawns or wraps around the screen, or moves to another parent that carries it
/// elsewhere in the world, so that the jump is not taken for a path across everything in
/// between; where its descendants are swept too (a ship with swept
/// parts), queue [`Swept::jump_with_descendants`] on it instead. An entity disabled with Bevy's `Disabled` is seen by no system while
/// disabled, transform propagation included, so when enabled again it and its descendants start
/// with no path too (a bullet taken from a pool needs no `jump`); one switched off with
/// [`ColliderDisabled`](crate::ColliderDisabled) is followed meanwhile, and sweeps only its
/// last move.
/// A move whose start or length is beyond [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE)
/// counts as a jump too. With the pipeline in a fixed schedule, each step sweeps the move made
/// since the step before.
///
/// # Cost
/// The broad phase bounds the whole path with one circle, and only the pairs it finds get the
/// time-of-impact test. The cost therefore grows with how far a collider moves in a run
/// compared with its size and the gaps around it: bullets moving about their own width a frame
/// cost little more than still ones; the crate's benchmarks (`benches/README.md` in the
/// repository) measure it.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Reflect)]
#[component(on_insert = Swept::forget_start)]
#[reflect(Component, Clone, Debug, Default, PartialEq)]
pub struct Swept {
    /// The world translation at the pipeline's last run, where this run's path starts. Not
    /// reflected: a scene saved and loaded again starts with no path, not a stale one.
    #[reflect(ignore)]
    start: PathStart,
    /// The angle of the x axis of the world transform at the pipeline's last run (radians):
    /// where this run's turn starts; none where that axis had no direction. Kept for segments
    /// and polygons only.
    #[reflect(ignore)]
    start_angle: StartAngle,
    /// Whether the world transform mirrored the collider at the pipeline's last run.
    #[reflect(ignore)]
    start_mirrored: bool,
}

impl Swept {
    /// Marks the move since the pipeline's last run as a jump: the next run tests the collider
    /// where it is, without the path there (or the turn).
    pub fn jump(&mut self) {
        *self = Self::default();
    }

    /// [`jump`](Self::jump) for `entity` and each of its descendants that is swept: for a
    /// teleport that carries children with it. An [`EntityCommand`](bevy::ecs::system::EntityCommand):
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_collision_events::prelude::*;
    /// /// The ship, with its swept parts, back where a life starts.
    /// fn respawn(ship: Entity, mut commands: Commands) {
    ///     commands
    ///         .entity(ship)
    ///         .insert(Transform::from_xyz(0.0, -300.0, 0.0))
    ///         .queue(Swept::jump_with_descendants);
    /// }
    /// ```
    pub fn jump_with_descendants(mut entity: EntityWorldMut) {
        let id = entity.id();
        entity.world_scope(|world| Self::forget_starts(&mut world.into(), id));
    }

    /// Where the next run's path starts: the world translation at the pipeline's last run.
    /// `None` before the first run and after [`jump`](Self::jump).
    pub fn start(&self) -> Option<Vec2> {
        self.start.get()
    }

    /// Whenever a `Swept` is given to an entity (spawned, inserted, cloned, loaded), it starts
    /// with no path: a start copied from another entity, or from this one's past, was never
    /// travelled from here.
    fn forget_start(mut world: DeferredWorld, context: HookContext) {
        if let Some(mut swept) = world.get_mut::<Self>(context.entity) {
            swept.jump();
        }
    }

    /// The `Swept` of `entity` and of its descendants start with no path, as the entity is
    /// enabled again (a disabling component removed): no system saw where the entity went while
    /// it was disabled, and transform propagation left its descendants where they were. Read
    /// through the world, which holds what queries leave out.
    pub(crate) fn forget_starts(world: &mut DeferredWorld, entity: Entity) {
        let mut below = vec![entity];
        // As many steps as there are entities at most: a loop of `ChildOf` ends the walk.
        for _ in 0..world.entities().len() {
            let Some(entity) = below.pop() else {
                return;
            };
            if let Some(mut swept) = world.get_mut::<Self>(entity) {
                swept.bypass_change_detection().jump();
            }
            if let Some(children) = world.get::<Children>(entity) {
                below.extend(children.iter());
            }
        }
    }

    /// The path's start for the next run: `translation` when it is within range (one beyond
    /// it is no start).
    #[inline(always)]
    pub(crate) fn set_start(&mut self, translation: Vec2) {
        self.start = Recorded(translation);
    }

    /// The path's start for the next run, the world `x_axis` its turn starts from, and whether
    /// the collider is mirrored there. An axis without a direction (zero, or not finite: a
    /// collider skipped for its transform) leaves the next run no turn to sweep.
    pub(crate) fn set_start_turned(&mut self, translation: Vec2, x_axis: Vec2, mirrored: bool) {
        self.set_start(translation);
        self.start_angle = if x_axis.is_finite() && x_axis != Vec2::ZERO {
            Recorded(x_axis.to_angle())
        } else {
            StartAngle::NONE
        };
        self.start_mirrored = mirrored;
    }

    /// The turn to sweep from the path's start to `angle` (radians) at `translation`: the
    /// shorter way round, within half a turn either way; zero without a start or its angle,
    /// for a move taken for a jump (see [`motion_to`](Self::motion_to): only where the
    /// collider is is tested), and for a collider mirrored since (a character turned to face
    /// the other way is flipped, not turned).
    pub(crate) fn turn_to(&self, translation: Vec2, angle: f32, mirrored: bool) -> f32 {
        let Some(start_angle) = self.start_angle.get() else {
            return 0.0;
        };
        let Some(start) = self.start() else {
            return 0.0;
        };
        // A move out of range has no motion (`x − y` is zero only where `x == y`).
        let jumped = self.motion_to(translation) == Vec2::ZERO && translation != start;
        if jumped || !angle.is_finite() || mirrored != self.start_mirrored {
            return 0.0;
        }
        let turn = (angle - start_angle).rem_euclid(core::f32::consts::TAU);
        if turn > core::f32::consts::PI {
            turn - core::f32::consts::TAU
        } else {
            turn
        }
    }

    /// The motion to sweep from the path's start to `translation`: zero without a start, or
    /// when the move is beyond the supported range (taken for a jump).
    #[inline(always)]
    pub(crate) fn motion_to(&self, translation: Vec2) -> Vec2 {
        let Recorded(start) = self.start;
        let motion = translation - start;
        // The start and the motion within range (NaN fails: no start), all four coordinates
        // compared at once. Out of range is rare (a first run, a jump): a branch the processor
        // predicts, not a choice made for every collider.
        let both = Vec4::new(start.x, start.y, motion.x, motion.y);
        if both.abs().cmple(Vec4::splat(MAX_COORDINATE)).all() {
            motion
        } else {
            no_motion()
        }
    }
}

/// The motion of a collider without a path.
#[cold]
#[inline(never)]
fn no_motion() -> Vec2 {
    Vec2::ZERO
}

/// Where a swept path starts: a world translation, or no start at all when it is not within
/// range: the collider's first run, or one after a jump.
type PathStart = Recorded<Vec2>;

/// The angle a swept turn starts from (radians), or none: no run has recorded one yet, or the
/// last run's axis had no direction.
type StartAngle = Recorded<f32>;

/// A value recorded at one run for the next, or none ([`Recorded::NONE`] is not a number).
/// Written each run without a check; checked when it is read back.
#[derive(Clone, Copy)]
struct Recorded<T>(T);

/// What [`Recorded`] holds: a value with a not-a-number that stands for none, and the check
/// that tells a usable value.
trait Recordable: Copy + PartialEq + core::fmt::Debug {
    /// The value that stands for none.
    const NONE: Self;

    /// Whether a value is one to use.
    fn usable(self) -> bool;
}

impl Recordable for Vec2 {
    const NONE: Self = Vec2::NAN;

    /// A translation within range.
    fn usable(self) -> bool {
        in_range(self)
    }
}

impl Recordable for f32 {
    const NONE: Self = f32::NAN;

    /// A finite angle.
    fn usable(self) -> bool {
        self.is_finite()
    }
}

impl<T: Recordable> Recorded<T> {
    /// Nothing recorded.
    const NONE: Self = Self(T::NONE);

    /// The value, if it is usable.
    fn get(self) -> Option<T> {
        self.0.usable().then_some(self.0)
    }
}

impl<T: Recordable> Default for Recorded<T> {
    fn default() -> Self {
        Self::NONE
    }
}

impl<T: Recordable> PartialEq for Recorded<T> {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl<T: Recordable> core::fmt::Debug for Recorded<T> {
    fn fmt(&self, formatter: &mut core::fmt::Formatter) -> core::fmt::Result {
        self.get().fmt(formatter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_start_no_motion() {
        let mut swept = Swept::default();
        assert_eq!(swept.motion_to(Vec2::new(5.0, 1.0)), Vec2::ZERO);
        swept.set_start(Vec2::new(1.0, 1.0));
        assert_eq!(swept.motion_to(Vec2::new(5.0, 1.0)), Vec2::new(4.0, 0.0));
        swept.jump();
        assert_eq!(swept.start(), None);
        assert_eq!(swept.motion_to(Vec2::new(5.0, 1.0)), Vec2::ZERO);
        assert_eq!(
            swept,
            Swept::default(),
            "no start is no start, however it came"
        );
    }

    /// A start beyond the range is no start: the same `Swept` as one without, and so is one
    /// made back from reflection (its start is not reflected). A clone is the same value (the
    /// hook clears its start once it is given to an entity).
    #[test]
    fn no_start_however_it_came() {
        use bevy::reflect::{FromReflect, PartialReflect};
        let mut parked = Swept::default();
        parked.set_start(Vec2::new(1e20, 0.0));
        assert_eq!(parked, Swept::default());
        let mut started = Swept::default();
        started.set_start(Vec2::new(5.0, -2.0));
        assert_ne!(started, Swept::default());
        let reflected = Swept::from_reflect(started.as_partial_reflect()).expect("a Swept");
        assert_eq!(reflected.start(), None);
        let cloned = started.reflect_clone().expect("clonable");
        let cloned = cloned.downcast_ref::<Swept>().expect("a Swept");
        assert_eq!(cloned, &started, "a clone is the same value");
    }

    /// A turn starts from the last run's axis; an axis without a direction gives no turn.
    #[test]
    fn an_axis_without_a_direction_leaves_no_turn() {
        let mut swept = Swept::default();
        swept.set_start_turned(Vec2::ZERO, Vec2::Y, false);
        let turn = swept.turn_to(Vec2::ZERO, 1.0, false);
        assert!(
            (turn - (1.0 - core::f32::consts::FRAC_PI_2)).abs() < 1e-6,
            "{turn}"
        );
        for axis in [Vec2::ZERO, Vec2::NAN, Vec2::new(f32::INFINITY, 1.0)] {
            swept.set_start_turned(Vec2::ZERO, axis, false);
            assert_eq!(swept.turn_to(Vec2::ZERO, 1.0, false), 0.0, "from {axis}");
        }
    }

    #[test]
    fn a_start_or_motion_out_of_range_is_no_motion() {
        let mut swept = Swept::default();
        swept.set_start(Vec2::new(f32::NAN, 0.0));
        assert_eq!(swept.start(), None);
        swept.set_start(Vec2::new(1e20, 0.0));
        assert_eq!(swept.start(), None, "parked beyond the range");
        swept.set_start(Vec2::new(-9e17, 0.0));
        assert_eq!(
            swept.motion_to(Vec2::new(9e17, 0.0)),
            Vec2::ZERO,
            "1.8e18 is a jump"
        );
        let motion = swept.motion_to(Vec2::new(-8e17, 0.0));
        assert!(
            (motion.x / 1e17 - 1.0).abs() < 1e-5 && motion.y == 0.0,
            "{motion}"
        );
        // A jump turns nothing either; a move in range, or none, turns.
        swept.set_start_turned(Vec2::new(-9e17, 0.0), Vec2::X, false);
        assert_eq!(swept.turn_to(Vec2::new(9e17, 0.0), 1.0, false), 0.0);
        assert_eq!(swept.turn_to(Vec2::new(-8e17, 0.0), 1.0, false), 1.0);
        assert_eq!(swept.turn_to(Vec2::new(-9e17, 0.0), 1.0, false), 1.0);
    }
}
