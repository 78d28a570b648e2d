//! Pair filters: a pair turned away by the game's [`PairFilter`] never becomes a contact, a pair
//! of colliders without [`FilterPairs`] is never asked about, and the rest is as without a
//! filter (at any thread count: see the determinism tests).

use crate::common::{app, contact_between, last_frame};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_collision_events::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Which ship fired a bullet.
#[derive(Component)]
pub(crate) struct FiredBy(pub(crate) Entity);

/// How many times the filter was asked, and whether it turns every pair away.
#[derive(Resource, Default)]
pub(crate) struct Asked {
    pub(crate) count: AtomicUsize,
    refuse_all: bool,
}

/// A bullet never meets the ship that fired it; with [`Asked::refuse_all`], nothing meets.
#[derive(SystemParam)]
struct NotTheShooter<'w, 's> {
    bullets: Query<'w, 's, &'static FiredBy>,
    asked: Res<'w, Asked>,
}

impl PairFilter for NotTheShooter<'_, '_> {
    fn allows(&self, a: Entity, b: Entity) -> bool {
        self.asked.count.fetch_add(1, Ordering::Relaxed);
        let fired = |bullet, other| {
            self.bullets
                .get(bullet)
                .is_ok_and(|fired: &FiredBy| fired.0 == other)
        };
        !self.asked.refuse_all && !fired(a, b) && !fired(b, a)
    }
}

/// `app` with [`NotTheShooter`] installed.
pub(crate) fn filtered(mut app: App) -> App {
    app.init_resource::<Asked>()
        .add_plugins(PairFilterPlugin::<NotTheShooter>::default());
    app
}

fn ship(app: &mut App, x: f32) -> Entity {
    app.world_mut()
        .spawn((CircleCollider::new(10.0), Transform::from_xyz(x, 0.0, 0.0)))
        .id()
}

fn bullet(app: &mut App, x: f32, fired_by: Entity) -> Entity {
    app.world_mut()
        .spawn((
            CircleCollider::new(3.0),
            Transform::from_xyz(x, 0.0, 0.0),
            FiredBy(fired_by),
            FilterPairs,
        ))
        .id()
}

fn asked(app: &App) -> usize {
    app.world()
        .resource::<Asked>()
        .count
        .load(Ordering::Relaxed)
}

#[test]
fn a_bullet_never_meets_its_shooter_and_still_meets_the_others() {
    let mut app = filtered(app());
    let (shooter, other) = (ship(&mut app, 0.0), ship(&mut app, 15.0));
    // Inside its shooter and touching the other ship.
    let shot = bullet(&mut app, 4.0, shooter);
    for frame in 0..3 {
        app.update();
        assert!(contact_between(&app, shot, shooter).is_none(), "{frame}");
        assert!(contact_between(&app, shot, other).is_some(), "{frame}");
        // The two ships overlap as well, and neither carries `FilterPairs`.
        assert!(contact_between(&app, shooter, other).is_some(), "{frame}");
    }
    let started = last_frame::<ContactStarted>(&app);
    assert!(started.is_empty(), "nothing new after the first frame");
    assert!(!app.world().resource::<Contacts>().contains(shot, shooter));
    assert_eq!(
        asked(&app),
        6,
        "asked about both of the bullet's pairs, once each frame, and not the ships' pair"
    );
}

#[test]
fn pairs_without_the_marker_are_never_asked_about() {
    let mut app = filtered(app());
    app.world_mut().resource_mut::<Asked>().refuse_all = true;
    let (first, second) = (ship(&mut app, 0.0), ship(&mut app, 15.0));
    app.update();
    assert!(contact_between(&app, first, second).is_some());
    assert_eq!(asked(&app), 0);
}

#[test]
fn an_ongoing_contact_turned_away_ends() {
    let mut app = filtered(app());
    let (first, second) = (ship(&mut app, 0.0), ship(&mut app, 15.0));
    app.world_mut().entity_mut(first).insert(FilterPairs);
    app.update();
    assert!(contact_between(&app, first, second).is_some());
    app.world_mut().resource_mut::<Asked>().refuse_all = true;
    app.update();
    assert!(contact_between(&app, first, second).is_none());
    let ended = last_frame::<ContactEnded>(&app);
    assert_eq!(ended.len(), 1);
    let pair = BTreeSet::from([ended[0].entity, ended[0].other]);
    assert_eq!(pair, BTreeSet::from([first, second]));
}

#[test]
#[should_panic(expected = "add CollisionPlugin too")]
fn a_filter_without_the_collision_plugin_says_what_is_missing() {
    App::new()
        .init_resource::<Asked>()
        .add_plugins(PairFilterPlugin::<NotTheShooter>::default())
        .finish();
}

/// An app with the filter's plugin added before `CollisionPlugin`, not finished yet.
fn filter_added_first() -> App {
    let mut app = App::new();
    app.init_resource::<Asked>().add_plugins((
        MinimalPlugins,
        TransformPlugin,
        PairFilterPlugin::<NotTheShooter>::default(),
        CollisionPlugin::default(),
    ));
    app
}

/// A filter added before `CollisionPlugin` in an app updated without being finished is not in
/// place: the contacts are still found, unfiltered (and a warning says why), never lost.
#[test]
fn a_filter_added_before_the_collision_plugin_of_an_unfinished_app_loses_no_contact() {
    let mut app = filter_added_first();
    let (shooter, other) = (ship(&mut app, 0.0), ship(&mut app, 15.0));
    let shot = bullet(&mut app, 4.0, shooter);
    app.update();
    let contacts = app.world().resource::<Contacts>();
    assert!(contacts.contains(shot, shooter) && contacts.contains(shot, other));
    assert_eq!(asked(&app), 0);
}

/// A filter added before `CollisionPlugin` is put in place when the app is finished (as
/// `App::run` does): the bullet still never meets its shooter.
#[test]
fn a_filter_added_before_the_collision_plugin_filters_once_the_app_is_finished() {
    let mut app = filter_added_first();
    app.finish();
    let (shooter, other) = (ship(&mut app, 0.0), ship(&mut app, 15.0));
    let shot = bullet(&mut app, 4.0, shooter);
    app.update();
    let contacts = app.world().resource::<Contacts>();
    assert!(!contacts.contains(shot, shooter));
    assert!(contacts.contains(shot, other));
    assert!(asked(&app) > 0);
}

/// Three ships and 1,500 bullets moving through them and each other, every bullet fired by
/// one of the ships and opted in: with the work split finely, the contacts of every frame are
/// those of the same run without a filter, less each bullet's pair with its own shooter.
/// (Pairs are named by spawn order: the apps' entities differ. The same on one thread and two:
/// see the determinism tests.)
#[test]
fn filtered_contacts_are_the_unfiltered_less_the_turned_away() {
    let run = |filter: bool| {
        let mut app = app();
        app.insert_resource(CollisionSettings {
            parallel_threshold: 8,
            ..default()
        });
        if filter {
            app = filtered(app);
        }
        let mut spawned: Vec<Entity> = [-100.0, 0.0, 100.0]
            .into_iter()
            .map(|x| {
                app.world_mut()
                    .spawn((
                        PolygonCollider::regular(60.0, 6),
                        Transform::from_xyz(x, 0.0, 0.0),
                    ))
                    .id()
            })
            .collect();
        let mut rng = StdRng::seed_from_u64(3);
        for i in 0..1500 {
            let shooter = spawned[i % 3];
            let at = Vec3::new(rng.random_range(-200.0..200.0), -150.0, 0.0);
            let velocity = Vec3::new(0.0, rng.random_range(2.0..9.0), 0.0);
            let bullet = app.world_mut().spawn((
                CircleCollider::new(rng.random_range(1.0..6.0)),
                Transform::from_translation(at),
                Speed(velocity),
                FiredBy(shooter),
                FilterPairs,
            ));
            spawned.push(bullet.id());
        }
        app.add_systems(Update, fly);
        let order = |entity: Entity| spawned.iter().position(|&e| e == entity).unwrap();
        (0..40)
            .map(|_| {
                app.update();
                last_frame::<Contact>(&app)
                    .iter()
                    .map(|contact| {
                        let (a, b) = (order(contact.a), order(contact.b));
                        (a.min(b), a.max(b))
                    })
                    .collect::<BTreeSet<(usize, usize)>>()
            })
            .collect::<Vec<_>>()
    };
    let unfiltered = run(false);
    // Bullet `i` (spawned after the three ships) was fired by ship `i % 3`.
    let own =
        |&(ship, bullet): &(usize, usize)| ship < 3 && bullet >= 3 && (bullet - 3) % 3 == ship;
    let expected: Vec<BTreeSet<(usize, usize)>> = unfiltered
        .iter()
        .map(|frame| frame.iter().copied().filter(|pair| !own(pair)).collect())
        .collect();
    let turned_away: usize = unfiltered.iter().map(BTreeSet::len).sum::<usize>()
        - expected.iter().map(BTreeSet::len).sum::<usize>();
    assert!(turned_away > 1000, "{turned_away} pairs turned away");
    assert!(run(true) == expected);
}

#[derive(Component)]
struct Speed(Vec3);

fn fly(mut bullets: Query<(&mut Transform, &Speed)>) {
    for (mut transform, speed) in &mut bullets {
        transform.translation += speed.0;
    }
}

/// The one shield of [`WhileShielded`].
#[derive(Component)]
struct Shield;

/// Turns away every pair it is asked about, while there is a shield: a parameter that Bevy
/// finds not valid while there is none.
#[derive(SystemParam)]
struct WhileShielded<'w, 's> {
    #[expect(
        dead_code,
        reason = "only its check matters: the filter runs while it holds"
    )]
    shield: Single<'w, 's, &'static Shield>,
}

impl PairFilter for WhileShielded<'_, '_> {
    fn allows(&self, _: Entity, _: Entity) -> bool {
        false
    }
}

/// A filter whose parameters are not valid in a run (its `Single` matches nothing) is not
/// asked, and every pair meets: the pairs it would have been asked about, and the others,
/// which it never touches. Once valid, it turns its pairs away, and only those.
#[test]
fn a_filter_that_cannot_run_lets_every_pair_meet() {
    let mut app = app();
    app.add_plugins(PairFilterPlugin::<WhileShielded>::default());
    let circle = |x: f32| (CircleCollider::new(5.0), Transform::from_xyz(x, 0.0, 0.0));
    let world = app.world_mut();
    let asked = [
        world.spawn((circle(0.0), FilterPairs)).id(),
        world.spawn(circle(4.0)).id(),
    ];
    let plain = [
        world.spawn(circle(100.0)).id(),
        world.spawn(circle(104.0)).id(),
    ];
    for _ in 0..2 {
        app.update();
        assert!(contact_between(&app, plain[0], plain[1]).is_some());
        assert!(contact_between(&app, asked[0], asked[1]).is_some());
        assert!(last_frame::<ContactEnded>(&app).is_empty());
    }
    app.world_mut().spawn(Shield);
    app.update();
    assert!(contact_between(&app, plain[0], plain[1]).is_some());
    assert!(contact_between(&app, asked[0], asked[1]).is_none());
    assert_eq!(last_frame::<ContactEnded>(&app).len(), 1);
}

/// A resource no app inserts.
#[derive(Resource)]
struct Missing;

/// A filter that needs [`Missing`]: its parameters are wrong.
#[derive(SystemParam)]
struct NeedsMissing<'w> {
    #[expect(dead_code, reason = "only its check matters: it never holds")]
    missing: Res<'w, Missing>,
}

impl PairFilter for NeedsMissing<'_> {
    fn allows(&self, _: Entity, _: Entity) -> bool {
        false
    }
}

/// What [`count_errors`] was handed, by severity: warnings, and anything worse.
static WARNINGS: AtomicUsize = AtomicUsize::new(0);
static ERRORS: AtomicUsize = AtomicUsize::new(0);

fn count_errors(error: BevyError, _: bevy::ecs::error::ErrorContext) {
    use bevy::ecs::error::Severity;
    match error.severity() {
        Severity::Warning => WARNINGS.fetch_add(1, Ordering::Relaxed),
        Severity::Error | Severity::Panic => ERRORS.fetch_add(1, Ordering::Relaxed),
        _ => 0,
    };
}

/// A filter whose parameters are wrong (a resource that does not exist) reports that to Bevy's
/// error handler as a warning, once, and every pair meets meanwhile; under Bevy's default
/// handler, which panics at an error, the app runs on.
#[test]
fn a_filter_with_wrong_parameters_warns_once_and_every_pair_meets() {
    for counted in [true, false] {
        let mut app = app();
        if counted {
            app.set_error_handler(count_errors);
        }
        app.add_plugins(PairFilterPlugin::<NeedsMissing>::default());
        let circle = |x: f32| (CircleCollider::new(5.0), Transform::from_xyz(x, 0.0, 0.0));
        let world = app.world_mut();
        let pair = [
            world.spawn((circle(0.0), FilterPairs)).id(),
            world.spawn(circle(4.0)).id(),
        ];
        for _ in 0..3 {
            app.update();
        }
        assert!(contact_between(&app, pair[0], pair[1]).is_some());
        if counted {
            assert_eq!(WARNINGS.load(Ordering::Relaxed), 1, "reported once");
            assert_eq!(ERRORS.load(Ordering::Relaxed), 0, "as a warning");
        }
    }
}

/// The filter is asked about colliders: a body's parts, each by its own entity, never the
/// body. A bullet fired by one part of a ship, over both parts, misses that part and meets the
/// other, whose contact names the ship as its body.
#[test]
fn the_filter_is_asked_about_a_body_s_parts() {
    let mut app = filtered(app());
    let world = app.world_mut();
    let ship = world.spawn(CollisionBody::default()).id();
    let part = |x: f32| (CircleCollider::new(10.0), Transform::from_xyz(x, 0.0, 0.0));
    let hull = world.spawn((part(0.0), ChildOf(ship))).id();
    let wing = world.spawn((part(15.0), ChildOf(ship))).id();
    let shot = bullet(&mut app, 8.0, hull);
    app.update();
    assert!(asked(&app) >= 2);
    assert!(contact_between(&app, shot, hull).is_none());
    let contact = contact_between(&app, shot, wing).expect("the wing is met");
    assert_eq!(contact.body_of(wing), Some(ship));
}

/// Two overlapping parts of one body are left out before the filter is asked (they make no
/// contact), unless the body asks for contacts between its parts.
#[test]
fn the_filter_is_not_asked_about_two_parts_of_one_body() {
    for contacts_between_parts in [false, true] {
        let mut app = filtered(app());
        let world = app.world_mut();
        let ship = world
            .spawn(CollisionBody {
                contacts_between_parts,
            })
            .id();
        let part = |x: f32| {
            (
                CircleCollider::new(10.0),
                Transform::from_xyz(x, 0.0, 0.0),
                FilterPairs,
                ChildOf(ship),
            )
        };
        let hull = world.spawn(part(0.0)).id();
        let wing = world.spawn(part(15.0)).id();
        app.update();
        let case = format!("contacts between parts: {contacts_between_parts}");
        assert_eq!(asked(&app), usize::from(contacts_between_parts), "{case}");
        assert_eq!(
            contact_between(&app, hull, wing).is_some(),
            contacts_between_parts,
            "{case}"
        );
    }
}
