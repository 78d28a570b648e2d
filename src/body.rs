//! [`CollisionBody`]: one entity made of several colliders.

use bevy::prelude::*;

/// Makes an entity a **body** whose parts are the colliders on it and on its descendants (along
/// [`ChildOf`]): a boss with armour and a weak point, a ship with its shield, a character's
/// hurtbox and hitbox. A collider belongs to the nearest body among itself and its ancestors;
/// one under no body is a body of its own. So a body under another (a turret on a ship) is a
/// body apart: its parts meet the outer body's parts, and their events go on to it, not to
/// the outer body.
///
/// - [`Contact::bodies`](crate::Contact::bodies) and the `body` and `other_body` fields of
///   [`ContactStarted`](crate::ContactStarted) and [`ContactEnded`](crate::ContactEnded) name
///   each collider's body.
/// - The entity events of a part go on from the part to its body, which its observers see:
///   `hit.entity` is the body there, and `hit.original_event_target()` the part. No entity
///   between the two hears them. A part despawned by an earlier observer of the same run
///   still has its [`ContactStarted`](crate::ContactStarted), and a despawned part its
///   [`ContactEnded`](crate::ContactEnded), triggered on the body itself
///   (`hit.original_event_target()` is the body then, so which part it was is not told).
/// - A contact keeps the bodies it started with. A part moved off its body, or under another
///   body, while touching something stays its old body's in that contact's messages until it
///   ends, and its entity events go on to the old body, not to the body the part is under
///   now: the old body hears both the start and the end, or neither. An old body despawned
///   meanwhile is still named in the contact's messages, and the part's end stays on the
///   part.
/// - Like a collider, a body requires a [`Transform`]: its parts are placed from it.
/// - Two parts of one body overlapping are no contact, unless
///   [`contacts_between_parts`](Self::contacts_between_parts) asks for them.
/// - A global observer (added with `App::add_observer`) sees a part's event on the part and
///   on the body: keep the one at the body, `hit.entity == hit.body`, which comes once. An
///   event whose body is despawned stays on the part, and this test drops it: the end just
///   above, or a start whose body an earlier observer of the same run despawned.
/// - A body disabled with Bevy's `Disabled` (or a disabling component of the game's) is no
///   body while disabled: its parts still enabled make their new contacts as bodies of their
///   own, and keep it in the contacts they had. An entity between a body and its parts
///   disabled with Bevy's `Disabled` leaves them the body's. One disabled with a disabling
///   component of the game's cuts them off it, as it cuts them off Bevy's transform
///   propagation: below it, each part still enabled is a body of its own.
/// - A part's [`CollisionLayers`](crate::CollisionLayers), like its `Swept`, are its own: a
///   body's layers are those of its own collider only, so give the parts theirs.
/// - The body is not a collider of its own (unless it has one):
///   [`ColliderDisabled`](crate::ColliderDisabled) on it switches off its own collider, not
///   its parts', and [`CollidingEntities`](crate::CollidingEntities) lists the contacts of
///   the entity's own collider; give it to the parts to ask about theirs.
///
/// While no body exists, nothing is looked up. While any does, each run walks the bodies'
/// descendants once, as the colliders are placed (even while the contact search is paused).
/// The search then leaves out the pairs of one body's parts before their exact test. Each
/// candidate pair and each contact costs a quick look (a bit per entity), and for the parts a
/// look in a table. In a run where a part's body changed, one pass over the last run's
/// contacts finds the bodies each ongoing contact started with.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_collision_events::prelude::*;
/// fn spawn_boss(mut commands: Commands) {
///     commands
///         .spawn((CollisionBody::default(), Transform::default()))
///         .with_children(|boss| {
///             boss.spawn((CircleCollider::new(12.0), Transform::default()));
///             boss.spawn((
///                 PolygonCollider::rectangle(40.0, 8.0),
///                 Transform::from_xyz(0.0, -20.0, 0.0),
///             ));
///         })
///         .observe(|hit: On<ContactStarted>| {
///             info!("{} hit the boss's part {}", hit.other, hit.original_event_target());
///         });
/// }
/// # bevy::ecs::system::assert_is_system(spawn_boss);
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Clone, Debug, Default, PartialEq)]
#[require(Transform)]
pub struct CollisionBody {
    /// Whether two parts of this body that overlap make a contact. Off by default: the parts
    /// of one body usually overlap by design. Their events go on to the body like any part's,
    /// but for a part's event whose other collider is the body's own, which stays on the part:
    /// the body hears that contact once, on its own side (an exception to each rule above for
    /// a part's events).
    pub contacts_between_parts: bool,
}
