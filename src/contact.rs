//! What the user reads: [`Contact`] each run for every pair in contact, [`ContactStarted`]
//! and [`ContactEnded`] on the first run together and the first apart (what is in contact now,
//! [`Contacts`](crate::Contacts) and [`CollidingEntities`](crate::CollidingEntities), has a file
//! of its own). Data only: the pipeline's events stage writes them.

use crate::geometry::{Containment, Impact, Points};
use crate::layers::{CollisionLayers, LayerMask};
use bevy::ecs::query::{QueryData, QueryFilter};
use bevy::ecs::traversal::Traversal;
use bevy::prelude::*;

/// Two colliders in contact in this run of the pipeline (overlapping, or met along a swept
/// path), and where their outlines cross.
///
/// Written **each run** (every frame by default, each fixed step at a fixed step: see
/// [`CollisionPlugin`](crate::CollisionPlugin)) for every pair in contact, with fresh points:
/// a laser reads where it enters its target each run. Each pair is written once, with `a < b`
/// (in [`Entity`] order). [`CollisionSettings::contact_messages`](crate::CollisionSettings::contact_messages)
/// turns these messages off for a game that reads none; [`Contacts`](crate::Contacts) holds
/// the same contacts either way.
///
/// With [`Swept`](crate::Swept) colliders, a pair is a contact of this run also when the two
/// met anywhere along their paths since the last run, though they are apart again now (a
/// bullet that went through a thin wall): then `points` holds the one point where they first
/// touched. When a swept pair was apart at the start of its path, [`impact`](Self::impact) says
/// when, where and facing which way they first touched.
///
/// A pair that already overlaps at the start of its paths (a collider moved onto where a swept
/// one's path starts) and is apart now is a contact of this run when it was not one of the
/// last run, with the points (or containment) of the start and no impact; when it was one, the
/// two have moved apart and the contact ends, unless they met again on the way without
/// turning: a bullet that leaves one arm of a concave polygon and crosses another in one run
/// stays in contact, with that second touch as its point and [`impact`](Self::impact).
///
/// # Scheduling
/// Written in [`CollisionSystems::WriteEvents`](crate::CollisionSystems::WriteEvents), in the
/// plugin's schedule (`PostUpdate` by default). A [`MessageReader<Contact>`] in `Update` reads
/// the previous frame's contacts; one ordered `.after(CollisionSystems::WriteEvents)` reads this
/// frame's. Messages are written in `(a, b)` order, the same whatever the thread count.
#[derive(Message, Debug, PartialEq)]
#[non_exhaustive]
pub struct Contact {
    /// One collider: the lower [`Entity`] of the two.
    pub a: Entity,
    /// The other collider.
    pub b: Entity,
    /// The world-space points where the two outlines cross or touch; where outlines run along
    /// each other, the ends of the shared piece. Ordered along the outline of the more complex
    /// shape (polygon, segment, circle), or of `a`'s when both are of one kind; see
    /// [`geometry`](crate::geometry#points). Empty when one lies inside the other.
    pub points: Points,
    /// Which collider lies inside the other when the outlines do not meet: "first" is `a`,
    /// "second" is `b`. [`Containment::Neither`] when `points` is not empty.
    pub containment: Containment,
    /// Where and when the two first touched, when at least one of them is
    /// [`Swept`](crate::Swept) and they were apart at the start of their paths: the fraction of
    /// the paths at which they touched, the world point where they touched then, and the unit
    /// normal there, pointing from `b` towards `a` (see [`impact_normal`](Self::impact_normal)
    /// for one facing a chosen entity).
    ///
    /// `None` when the pair has no path to test: neither is swept, or both moved by the same
    /// amount and neither turned, or a swept one is on its first run, was moved by
    /// [`Swept::jump`](crate::Swept::jump) or by more than the supported range; and `None` for
    /// a pair that was already touching at
    /// the start of its paths (a contact of an earlier run, or one that starts this run with
    /// the two overlapping where their paths begin: nothing along the paths says where they
    /// first touched), unless, in a contact of the last run, the two parted and met again on
    /// the way (a concave polygon's other arm): then it is that second touch.
    pub impact: Option<Impact>,
    /// `a`'s and `b`'s [`CollisionLayers`] (the default, every layer, for a collider without
    /// the component): for telling the two apart by role, see [`by_layer`](Self::by_layer).
    pub layers: [CollisionLayers; 2],
    /// `a`'s and `b`'s bodies: the [`CollisionBody`](crate::CollisionBody) each was a part of
    /// when the contact started, or the collider itself where it was part of none. A contact
    /// keeps its bodies until it ends.
    pub bodies: [Entity; 2],
}

// Every field but the points is `Copy`; the points are copied in one go, not pushed one by
// one as `SmallVec`'s own `Clone` does (the events stage clones every contact into its
// message): as many as fit inline (most contacts' few) by a copy of fixed size, without a
// call to copy a few bytes.
impl Clone for Contact {
    #[inline]
    fn clone(&self) -> Self {
        let points = &self.points;
        let points = if !points.spilled() {
            let inline = core::array::from_fn(|i| points.get(i).copied().unwrap_or(Vec2::ZERO));
            Points::from_buf_and_len(inline, points.len())
        } else {
            Points::from_slice(points)
        };
        Self { points, ..*self }
    }
}

impl Contact {
    /// A contact between `first` and `second` where their outlines cross at `points`, as the
    /// pipeline would make it for two colliders on every layer and of no body: for a game's
    /// tests of the systems that read contacts. The lower entity is [`a`](Self::a) whichever
    /// is given first. Set the other fields on the result: the paired ones (layers, bodies)
    /// in `[a, b]` order, and a [`containment`](Self::containment) where there are no
    /// points.
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_collision_events::prelude::*;
    /// const SHOT: LayerMask = LayerMask::layer(0);
    /// const WALL: LayerMask = LayerMask::layer(1);
    /// let mut world = World::new();
    /// let (bullet, wall) = (world.spawn_empty().id(), world.spawn_empty().id());
    /// let mut hit = Contact::new(bullet, wall, [Vec2::new(10.0, 0.0)]);
    /// let (shot, solid) = (CollisionLayers::new(SHOT, WALL), CollisionLayers::new(WALL, SHOT));
    /// hit.layers = if hit.a == bullet { [shot, solid] } else { [solid, shot] };
    /// assert_eq!(hit.by_layer(SHOT), Some((bullet, wall)));
    /// ```
    ///
    /// # Panics
    /// In a debug build, when `first` and `second` are the same entity.
    #[track_caller]
    pub fn new(first: Entity, second: Entity, points: impl IntoIterator<Item = Vec2>) -> Self {
        debug_assert_ne!(first, second, "a contact is between two entities");
        let (a, b) = if first <= second {
            (first, second)
        } else {
            (second, first)
        };
        Self {
            a,
            b,
            points: points.into_iter().collect(),
            containment: Containment::Neither,
            impact: None,
            layers: [CollisionLayers::ALL; 2],
            bodies: [a, b],
        }
    }

    /// The pair `(a, b)`: the order contacts are kept and written in,
    /// [`Contacts`](crate::Contacts) and the messages alike.
    pub(crate) fn pair(&self) -> (Entity, Entity) {
        (self.a, self.b)
    }

    /// The pair as (the collider on layer(s) `layer`, the other), so a game need not try both
    /// orders: `contact.by_layer(PLAYER_SHOT)` gives `(bullet, what it hit)`. When both are on
    /// `layer`, the one on fewer layers comes first (a bullet on its own layer before a wall
    /// left on every layer, as a collider without [`CollisionLayers`] is), then `a`; `None`
    /// when neither is.
    ///
    /// ```
    /// # use bevy::prelude::*;
    /// # use bevy_collision_events::prelude::*;
    /// const PLAYER_SHOT: LayerMask = LayerMask::layer(1);
    ///
    /// fn bullet_hits(mut contacts: MessageReader<Contact>, mut commands: Commands) {
    ///     for contact in contacts.read() {
    ///         if let Some((bullet, _target)) = contact.by_layer(PLAYER_SHOT) {
    ///             commands.entity(bullet).try_despawn();
    ///         }
    ///     }
    /// }
    /// # bevy::ecs::system::assert_is_system(bullet_hits);
    /// ```
    pub fn by_layer(&self, layer: LayerMask) -> Option<(Entity, Entity)> {
        let [a, b] = self.layers.map(|layers| layers.memberships);
        match (a.intersects(layer), b.intersects(layer)) {
            (true, true) if b.0.count_ones() < a.0.count_ones() => Some((self.b, self.a)),
            (true, _) => Some((self.a, self.b)),
            (false, true) => Some((self.b, self.a)),
            (false, false) => None,
        }
    }

    /// The pair as (the collider that `role` holds, the other), for a query that picks out one
    /// side by its components, such as `Query<(), With<Bullet>>`. When `role` holds both, `a`
    /// comes first; `None` when it holds neither.
    pub fn pick<D: QueryData, F: QueryFilter>(
        &self,
        role: &Query<'_, '_, D, F>,
    ) -> Option<(Entity, Entity)> {
        pick(self.a, self.b, role)
    }

    /// The body of `entity`, one of the two colliders (see [`bodies`](Self::bodies)); `None`
    /// if `entity` is neither.
    pub fn body_of(&self, entity: Entity) -> Option<Entity> {
        if entity == self.a {
            Some(self.bodies[0])
        } else if entity == self.b {
            Some(self.bodies[1])
        } else {
            None
        }
    }

    /// Whether `entity` is one of the two.
    pub fn involves(&self, entity: Entity) -> bool {
        self.a == entity || self.b == entity
    }

    /// The other collider of the pair, if `entity` is one of the two.
    pub fn other(&self, entity: Entity) -> Option<Entity> {
        if entity == self.a {
            Some(self.b)
        } else if entity == self.b {
            Some(self.a)
        } else {
            None
        }
    }

    /// Whether `entity`'s collider lies wholly inside the other's (no crossing points).
    pub fn is_inside(&self, entity: Entity) -> bool {
        match self.containment {
            Containment::FirstInSecond => entity == self.a,
            Containment::SecondInFirst => entity == self.b,
            Containment::Coincident => self.involves(entity),
            Containment::Neither => false,
        }
    }

    /// The impact normal facing `entity`: square to the outline that is smooth where they
    /// touched (the wall's face, or the bullet's circle where it met the wall's corner),
    /// pointing towards `entity`'s side (where the sweep finds them touching only at the end
    /// of their paths, against their relative motion instead: see
    /// [`Impact::normal`](crate::geometry::Impact::normal)). `None` without an [`impact`](Self::impact), or if
    /// `entity` is neither of the two. For a bullet that hit a wall's face,
    /// `impact_normal(bullet)` is the wall's normal on the side the bullet came from.
    pub fn impact_normal(&self, entity: Entity) -> Option<Vec2> {
        let impact = self.impact?;
        if entity == self.a {
            Some(impact.normal)
        } else if entity == self.b {
            Some(-impact.normal)
        } else {
            None
        }
    }

    /// The crossing point nearest to `origin`, such as where a laser fired from `origin` first
    /// meets its target. `None` when one collider lies inside the other.
    pub fn nearest_point(&self, origin: Vec2) -> Option<Vec2> {
        self.points.iter().copied().min_by(|p, q| {
            p.distance_squared(origin)
                .total_cmp(&q.distance_squared(origin))
        })
    }
}

/// Two colliders came into contact in this run of the pipeline: they overlap now, or met
/// along their [`Swept`](crate::Swept) paths.
///
/// A pair in contact in two runs in a row is one contact, even where the two parted in
/// between and met again (a bullet through a wall, then, turned round, straight back through
/// it; or through both arms of a U in one run): the second touch's [`Contact`] has an
/// [`impact`](Contact::impact), which says they met anew.
///
/// As a [`Message`] it is written once per pair, with `entity < other`. As an
/// [`EntityEvent`] it is triggered once for **each** of the two entities (with `entity` that
/// one and `other` the other), so an observer on either fires. The event of a part of a
/// [`CollisionBody`](crate::CollisionBody) then goes on to its body (see [`PartToBody`]),
/// unless its other collider is the body's own (it stays on the part). A global observer (one
/// added with `App::add_observer`) sees it on both, and can keep only the one at the body,
/// `hit.entity == hit.body`. It goes to the body the contact names, even where an earlier
/// observer of the same run moved the part off it.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_collision_events::prelude::*;
/// fn spawn_mine(mut commands: Commands) {
///     commands
///         .spawn((CircleCollider::new(10.0), Transform::default()))
///         .observe(|hit: On<ContactStarted>, mut commands: Commands| {
///             commands.entity(hit.other).try_despawn();
///         });
/// }
/// # bevy::ecs::system::assert_is_system(spawn_mine);
/// ```
///
/// An entity event is triggered only where an observer could hear it when its turn comes (an
/// observer of the entity or of its body, or one added with `App::add_observer`; one added by
/// an earlier observer of the same run counts): with no observer, triggers cost nothing. To
/// find the contact's points or impact from an observer, look the pair up in
/// [`Contacts::get`](crate::Contacts::get), which already holds this run's contacts: with
/// `hit.original_event_target()` and `hit.other` (on a body, `hit.entity` is the body; a
/// part despawned by an earlier observer of the run sends its event to its body itself, and
/// the pair is not in `Contacts` under the body's entity unless the body's own collider
/// touches `other` too).
///
/// # Scheduling
/// Written and triggered in [`CollisionSystems::WriteEvents`](crate::CollisionSystems::WriteEvents),
/// in the plugin's schedule (`PostUpdate` by default); observers run when that system's
/// commands are applied, before the next system set (so a timer around the plugin's sets counts
/// the observers' work too). Messages are written in `(entity, other)` order; triggers come
/// pair after pair in the same order, each pair's first on its lower entity, then on the other.
/// The commands each trigger's observers queue are applied right after it, before the next
/// trigger: an observer that despawns the other entity
/// has despawned it for every later trigger of the run, and a trigger on an entity despawned so
/// is dropped (a part's goes to its body instead: see [`CollisionBody`](crate::CollisionBody)).
/// The `other` of a later trigger may be gone so (two mines touching one bullet): there,
/// `commands.entity(hit.other).despawn()` logs a warning, and `try_despawn()` does not.
#[derive(Message, EntityEvent, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[entity_event(propagate = PartToBody, auto_propagate)]
pub struct ContactStarted {
    /// The entity the event is about (the observed one, for observers: on a body, the body
    /// its part's event reached).
    pub entity: Entity,
    /// The other collider of the pair.
    pub other: Entity,
    /// The body of the collider the event was triggered on (see
    /// [`CollisionBody`](crate::CollisionBody)) when the contact started: that collider
    /// itself, unless it was a part.
    pub body: Entity,
    /// The body of `other`.
    pub other_body: Entity,
}

impl ContactStarted {
    /// The pair as (the entity that `role` holds, the other), from `entity` and `other`: see
    /// [`Contact::pick`]. In an observer of a body, `entity` is the body, not its part.
    pub fn pick<D: QueryData, F: QueryFilter>(
        &self,
        role: &Query<'_, '_, D, F>,
    ) -> Option<(Entity, Entity)> {
        pick(self.entity, self.other, role)
    }
}

/// Two colliders stopped being in contact in this run of the pipeline: they moved apart, or one of
/// them was despawned, lost its collider, was switched off (with
/// [`ColliderDisabled`](crate::ColliderDisabled) or Bevy's `Disabled`), was skipped (see the
/// crate docs' Semantics), or no longer matches the other's layers, or the
/// [`PairFilter`](crate::PairFilter) turned the pair away.
/// Every [`ContactStarted`] message is followed by exactly one `ContactEnded` message. As entity
/// events, an entity receives its `ContactEnded` only while it exists: one despawned in the
/// meantime (by an observer of its own start, say) receives none.
///
/// As a [`Message`] it is written once per pair, with `entity < other`. As an
/// [`EntityEvent`] it is triggered for each of the two entities that still exists, and goes on
/// from a part of a [`CollisionBody`](crate::CollisionBody) to the body the contact started
/// with; a part despawned since has it triggered on that body instead (see
/// [`CollisionBody`](crate::CollisionBody)). Neither holds where the other collider is the
/// body's own: that event stays on the part (see [`PartToBody`]).
///
/// As for [`ContactStarted`], the entity event is triggered only where an observer could see
/// it, and never on a despawned entity.
///
/// # Scheduling
/// Written and triggered in [`CollisionSystems::WriteEvents`](crate::CollisionSystems::WriteEvents),
/// in the plugin's schedule (`PostUpdate` by default), in the same order as
/// [`ContactStarted`].
#[derive(Message, EntityEvent, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[entity_event(propagate = PartToBody, auto_propagate)]
pub struct ContactEnded {
    /// The entity the event is about (the observed one, for observers: on a body, the body
    /// its part's event reached).
    pub entity: Entity,
    /// The other collider of the pair.
    pub other: Entity,
    /// The body of the collider the event was triggered on (see
    /// [`CollisionBody`](crate::CollisionBody)) when the contact started: that collider
    /// itself, unless it was a part.
    pub body: Entity,
    /// The body of `other`.
    pub other_body: Entity,
}

impl ContactEnded {
    /// The pair as (the entity that `role` holds, the other), from `entity` and `other`: see
    /// [`Contact::pick`]. In an observer of a body, `entity` is the body, not its part. A
    /// collider despawned since is held by no query: `role` can pick only the other.
    pub fn pick<D: QueryData, F: QueryFilter>(
        &self,
        role: &Query<'_, '_, D, F>,
    ) -> Option<(Entity, Entity)> {
        pick(self.entity, self.other, role)
    }
}

/// The way [`ContactStarted`] and [`ContactEnded`] travel as entity events: from a part
/// straight to the body its contact names, and no further. No entity between them hears it, so
/// every entity that hears a contact start hears it end, however the hierarchy changes
/// meanwhile. The event of a collider that is its own body goes nowhere else, nor does a
/// part's event whose other collider is the body's own (a body that asks for contacts between
/// its parts): the body hears that contact once, on its own side, never as a contact with
/// itself.
#[derive(QueryData)]
pub struct PartToBody {
    entity: Entity,
}

impl Traversal<ContactStarted> for PartToBody {
    fn traverse(item: Self::Item<'_, '_>, event: &ContactStarted) -> Option<Entity> {
        item.towards(event.body, event.other)
    }
}

impl Traversal<ContactEnded> for PartToBody {
    fn traverse(item: Self::Item<'_, '_>, event: &ContactEnded) -> Option<Entity> {
        item.towards(event.body, event.other)
    }
}

impl PartToBodyItem<'_, '_> {
    /// The next entity on the way to `body`, for an event whose other collider is `other`:
    /// `body` itself; none once there, or when `other` is the body's own collider.
    fn towards(&self, body: Entity, other: Entity) -> Option<Entity> {
        goes_to_body(self.entity, body, other).then_some(body)
    }
}

/// Whether a contact event on `entity`, whose body is `body` and other collider `other`, goes
/// on to the body: see [`PartToBody`].
pub(crate) fn goes_to_body(entity: Entity, body: Entity, other: Entity) -> bool {
    entity != body && other != body
}

/// `(first, second)` if `role` holds `first`, else `(second, first)` if it holds `second`.
fn pick<D: QueryData, F: QueryFilter>(
    first: Entity,
    second: Entity,
    role: &Query<'_, '_, D, F>,
) -> Option<(Entity, Entity)> {
    if role.contains(first) {
        Some((first, second))
    } else if role.contains(second) {
        Some((second, first))
    } else {
        None
    }
}

/// Contacts for the crate's unit tests.
#[cfg(test)]
pub(crate) mod fixtures {
    use crate::contact::Contact;
    use bevy::prelude::*;

    /// The `index`-th entity in [`Entity`] order (which is not the order of raw indices).
    pub fn entity(index: u32) -> Entity {
        let mut entities: Vec<Entity> = (0..16).filter_map(Entity::from_raw_u32).collect();
        entities.sort();
        entities[index as usize]
    }

    /// A contact between the `a`-th and `b`-th entities (see [`entity`]), with one point.
    pub fn contact(a: u32, b: u32) -> Contact {
        Contact::new(entity(a), entity(b), [Vec2::new(a as f32, b as f32)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::fixtures::{contact, entity};

    #[test]
    fn a_clone_has_the_same_points_inline_or_not() {
        for count in 0..=9 {
            let mut original = contact(1, 2);
            original.points = (0..count).map(|i| Vec2::new(i as f32, -1.5)).collect();
            if count == 3 {
                // Spilled to the heap, then back within the inline size.
                original.points.extend([Vec2::ONE; 4]);
                original.points.truncate(3);
            }
            let copy = original.clone();
            assert_eq!(copy, original, "{count} points");
            assert_eq!(copy.points.spilled(), count > 4, "{count} points");
        }
    }

    #[test]
    fn a_contact_knows_its_sides() {
        let mut hit = contact(1, 2);
        assert_eq!(hit.other(entity(1)), Some(entity(2)));
        assert_eq!(hit.other(entity(3)), None);
        hit.points.clear();
        hit.containment = Containment::FirstInSecond;
        assert!(hit.is_inside(entity(1)) && !hit.is_inside(entity(2)));
        assert_eq!(hit.nearest_point(Vec2::ZERO), None);
    }

    #[test]
    fn by_layer_puts_the_one_on_the_layer_first() {
        const SHOT: LayerMask = LayerMask::layer(1);
        const ENEMY: LayerMask = LayerMask::layer(2);
        let mut hit = contact(1, 2);
        hit.layers = [
            CollisionLayers::new(ENEMY, SHOT),
            CollisionLayers::new(SHOT, ENEMY),
        ];
        assert_eq!(hit.by_layer(SHOT), Some((entity(2), entity(1))));
        assert_eq!(hit.by_layer(ENEMY), Some((entity(1), entity(2))));
        assert_eq!(hit.by_layer(LayerMask::layer(5)), None);
        assert_eq!(hit.by_layer(SHOT | ENEMY), Some((entity(1), entity(2))));
        // A wall left on every layer, `a` or `b`: the bullet, on its own layer, comes first.
        for (bullet, wall) in [(1, 2), (2, 1)] {
            let mut hit = contact(1, 2);
            hit.layers[bullet - 1] = CollisionLayers::new(SHOT, ENEMY);
            hit.layers[wall - 1] = CollisionLayers::default();
            let (bullet, wall) = (entity(bullet as u32), entity(wall as u32));
            assert_eq!(hit.by_layer(SHOT), Some((bullet, wall)));
        }
    }

    #[test]
    fn the_impact_normal_faces_the_chosen_entity() {
        let mut hit = contact(1, 2);
        assert_eq!(hit.impact_normal(entity(1)), None);
        hit.impact = Some(Impact {
            time: 0.5,
            point: Vec2::ZERO,
            normal: Vec2::Y,
        });
        assert_eq!(hit.impact_normal(entity(1)), Some(Vec2::Y));
        assert_eq!(hit.impact_normal(entity(2)), Some(Vec2::NEG_Y));
        assert_eq!(hit.impact_normal(entity(3)), None);
    }
}
