//! The broad phase's tests: its passes against a quadratic loop, on scenes that stress the
//! grid (far outliers, huge colliders, many layers, points).

use super::*;
use crate::geometry::Circle;
use crate::layers::{CollisionLayers, LayerMask};
use crate::pipeline::placed::WorldShape;

/// `count` discs on a ring of overlapping neighbours, each on its own layer value (so many
/// groups), able to touch only the colliders whose index has the same parity.
fn ring(count: usize) -> PlacedColliders {
    let discs: Vec<_> = (0..count)
        .map(|index| {
            let center = Vec2::from_angle(index as f32 * 0.37) * 50.0;
            let parity = LayerMask::layer((index % 2) as u32);
            let layers =
                CollisionLayers::new(parity | LayerMask::layer(2 + index as u32 % 30), parity);
            (center, 12.0, layers)
        })
        .collect();
    placed_from(&discs)
}

/// Colliders (centre, radius, layers) as given.
pub(crate) fn placed_from(list: &[(Vec2, f32, CollisionLayers)]) -> PlacedColliders {
    let mut placed = PlacedColliders::default();
    for (index, &(center, radius, layers)) in list.iter().enumerate() {
        placed.push(
            Entity::from_raw_u32(index as u32).unwrap(),
            Some(&layers),
            Circle::new(center, radius),
            WorldShape::Circle(Circle::new(center, radius)),
            Vec2::ZERO,
        );
    }
    placed
}

/// The broad phase run once over `placed`, and the pairs its passes find.
fn run(placed: &PlacedColliders) -> (BroadPhase, Vec<[u32; 2]>) {
    let mut broad_phase = BroadPhase::default();
    let pairs = run_again(&mut broad_phase, placed);
    (broad_phase, pairs)
}

/// The pairs `broad_phase`'s passes find among `placed`.
pub(crate) fn run_again(broad_phase: &mut BroadPhase, placed: &PlacedColliders) -> Vec<[u32; 2]> {
    let mut pairs = Vec::new();
    broad_phase.passes(placed, |grid, pass| {
        grid.query_runs(placed, pass.runs, pass.join, &mut pairs);
    });
    pairs
}

/// Every pair that a quadratic loop finds, sorted.
pub(crate) fn brute_force(placed: &PlacedColliders) -> Vec<[u32; 2]> {
    let count = placed.entities.len();
    let mut pairs = Vec::new();
    for i in 0..count {
        for j in i + 1..count {
            let reach = placed.radii[i] + placed.radii[j];
            if placed.layers[i].interacts_with(&placed.layers[j])
                && placed.centers[i].distance_squared(placed.centers[j]) <= reach * reach
            {
                pairs.push([i as u32, j as u32]);
            }
        }
    }
    pairs
}

pub(crate) fn sorted(pairs: &[[u32; 2]]) -> Vec<[u32; 2]> {
    let mut pairs: Vec<[u32; 2]> = pairs.iter().map(|&[a, b]| [a.min(b), a.max(b)]).collect();
    pairs.sort_unstable();
    pairs
}

#[test]
fn past_the_group_limit_one_grid_checks_layers_per_pair() {
    let placed = ring(60);
    let (broad_phase, pairs) = run(&placed);
    assert!(broad_phase.groups.active().len() > MAX_GROUPS);
    let expected = brute_force(&placed);
    assert!(!expected.is_empty());
    assert_eq!(sorted(&pairs), expected);
}

/// `count` discs of radius 2 scattered over 600 × 600, on layers that `layers` gives each
/// index, and then `extra` colliders (centre, radius, layers) wherever they are put.
fn scattered(
    count: usize,
    layers: impl Fn(usize) -> CollisionLayers,
    extra: &[(Vec2, f32, CollisionLayers)],
) -> PlacedColliders {
    use rand::{RngExt, SeedableRng, rngs::StdRng};
    let mut rng = StdRng::seed_from_u64(count as u64);
    let mut discs: Vec<_> = (0..count)
        .map(|index| {
            let center = Vec2::new(rng.random_range(0.0..600.0), rng.random_range(0.0..600.0));
            (center, 2.0, layers(index))
        })
        .collect();
    discs.extend_from_slice(extra);
    placed_from(&discs)
}

#[test]
fn a_far_outlier_does_not_pile_its_group_into_one_cell() {
    // One group that touches itself, with members parked far away on either side: its box
    // is millions of colliders wide, yet each cell holds a handful of colliders.
    let all = CollisionLayers::new(LayerMask::layer(0), LayerMask::layer(0));
    let outliers = [
        (Vec2::splat(1e7), 2.0, all),
        (Vec2::new(-1e9, 3e8), 2.0, all),
        (Vec2::new(300.0, 1e12), 2.0, all),
        // Colliders almost a period of the folding wide (the array is 64 cells of about 4
        // units across): their ranges overlap folded copies of their neighbours' cells.
        (Vec2::new(100.0, 150.0), 115.0, all),
        (Vec2::new(240.0, 200.0), 120.0, all),
        (Vec2::new(420.0, 380.0), 100.0, all),
    ];
    let placed = scattered(3000, |_| all, &outliers);
    let (broad_phase, pairs) = run(&placed);
    assert_eq!(broad_phase.grid.folded(), Some(0));
    assert!(
        broad_phase.grid.fullest_cell() <= 16,
        "{}",
        broad_phase.grid.fullest_cell()
    );
    let expected = brute_force(&placed);
    assert!(expected.len() > 100);
    assert_eq!(sorted(&pairs), expected);
}

/// A member parked near the edge of the range (up to 1e18 away): its group's grid folds
/// over a box so wide that a centre's distance from the grid's corner rounds, in `f64`, by
/// more than the discs' size. Every pair is still found, within the group and between
/// sides.
#[test]
fn a_member_parked_near_the_edge_of_the_range_loses_no_pair() {
    let all = CollisionLayers::new(LayerMask::layer(0), LayerMask::layer(0));
    let bullets = CollisionLayers::new(LayerMask::layer(1), LayerMask::layer(0));
    for parked in [
        Vec2::splat(-1e17),
        Vec2::new(-1e17, 0.0),
        Vec2::splat(-3e17),
        Vec2::splat(-1e18),
        Vec2::splat(1e18),
    ] {
        for sides in [false, true] {
            let layers = |index: usize| {
                if sides && index % 2 == 1 {
                    bullets
                } else {
                    all
                }
            };
            let placed = scattered(3000, layers, &[(parked, 2.0, all)]);
            let (broad_phase, pairs) = run(&placed);
            assert!(broad_phase.grid.folded().is_some(), "{parked}: folded");
            let expected = brute_force(&placed);
            assert!(expected.len() > 100, "{parked}");
            assert_eq!(
                sorted(&pairs),
                expected,
                "parked at {parked}, sides {sides}"
            );
        }
    }
}

/// One collider far wider than the thousands of small ones it shares a group with (radius
/// 1e6 to 1e8, just reaching them): the cells stay sized for the small ones, and every
/// pair is found, within the group and between sides.
#[test]
fn a_huge_collider_does_not_pile_its_group_into_one_cell() {
    let all = CollisionLayers::new(LayerMask::layer(0), LayerMask::layer(0));
    let bullets = CollisionLayers::new(LayerMask::layer(1), LayerMask::layer(0));
    for radius in [1e6, 1e7, 1e8] {
        let huge = (Vec2::new(300.0, 20.0 - radius), radius, all);
        let layers = |index| if index % 2 == 0 { all } else { bullets };
        let placed = scattered(3000, layers, &[huge]);
        let (broad_phase, pairs) = run(&placed);
        let fullest = broad_phase.grid.fullest_cell();
        assert!(fullest <= 16, "radius {radius}: {fullest} in a cell");
        let expected = brute_force(&placed);
        assert!(expected.len() > 100, "radius {radius}");
        assert_eq!(sorted(&pairs), expected, "radius {radius}");
    }
}

/// A few huge colliders on a side of their own (walls across the world) do not size the
/// cells of the smaller colliders they are binned with (enemies), which the bullets are
/// met against: a cell holds a few enemies, not dozens, and every pair is found.
#[test]
fn huge_partners_do_not_size_the_cells_of_the_others() {
    use rand::{RngExt, SeedableRng, rngs::StdRng};
    let [enemy, bullet, wall] = [0, 1, 2].map(LayerMask::layer);
    let bullets = CollisionLayers::new(bullet, enemy | wall);
    let enemies = CollisionLayers::new(enemy, enemy | bullet);
    let walls = CollisionLayers::new(wall, bullet);
    let mut rng = StdRng::seed_from_u64(9);
    let mut extra: Vec<_> = (0..64)
        .map(|_| {
            let center = Vec2::new(rng.random_range(0.0..600.0), rng.random_range(0.0..600.0));
            (center, 10.0, enemies)
        })
        .collect();
    // Four walls reaching just into the field from each side.
    for center in [
        (-2990.0, 300.0),
        (3590.0, 300.0),
        (300.0, -2990.0),
        (300.0, 3590.0),
    ] {
        extra.push((Vec2::from(center), 3000.0, walls));
    }
    let placed = scattered(5000, |_| bullets, &extra);
    let mut broad_phase = BroadPhase::default();
    let (mut pairs, mut fullest) = (Vec::new(), 0);
    broad_phase.passes(&placed, |grid, pass| {
        if pass.len == 5000 {
            fullest = grid.fullest_cell();
        }
        grid.query_runs(&placed, pass.runs, pass.join, &mut pairs);
    });
    assert!(fullest <= 8, "{fullest} enemies in a cell");
    let expected = brute_force(&placed);
    assert!(expected.len() > 100);
    assert_eq!(sorted(&pairs), expected);
}

/// Walls that the bullets fly over, on the bullets' side, far wider than the cells of the few
/// enemies they meet: each wall looks at every enemy once rather than at the hundreds of cells
/// its box covers, and every pair is found once, in a dense grid and in a folded one (an enemy
/// parked far away), with an enemy kept aside, too wide to fold, among them. Ghosts that the
/// bullets meet and the walls do not are among the enemies, so the layers are checked pair by
/// pair; mines, listed before the enemies, meet themselves, so they are a side of their own,
/// binned after the enemies. And within a group that meets itself, where a few colliders are far
/// wider than the rest.
#[test]
fn wide_colliders_over_few_built_ones_find_every_pair_once() {
    use rand::{RngExt, SeedableRng, rngs::StdRng};
    let [enemy, bullet, wall, ghost, mine] = [0, 1, 2, 3, 4].map(LayerMask::layer);
    let bullets = CollisionLayers::new(bullet, enemy | ghost | mine);
    let walls = CollisionLayers::new(wall, enemy | mine);
    let enemies = CollisionLayers::new(enemy, bullet | wall);
    let ghosts = CollisionLayers::new(ghost, bullet);
    let mines = CollisionLayers::new(mine, bullet | wall | mine);
    let mut rng = StdRng::seed_from_u64(21);
    let mut field = || Vec2::new(rng.random_range(0.0..600.0), rng.random_range(0.0..600.0));
    let mine_list: Vec<_> = (0..10).map(|_| (field(), 12.0, mines)).collect();
    let enemy_list: Vec<_> = (0..40)
        .map(|index| (field(), 10.0, if index % 4 == 0 { ghosts } else { enemies }))
        .collect();
    let wall_list: Vec<_> = (0..30)
        .map(|index| (field(), 100.0 + 5.0 * index as f32, walls))
        .collect();
    let walls_at = 3050..3080;
    // An enemy parked far away, and one too wide to fold whose top edge is the field's.
    let far = [
        (Vec2::splat(1e6), 10.0, enemies),
        (Vec2::new(300.0, -5e5), 5e5, enemies),
    ];
    let kept_aside = 3081;
    for folded in [false, true] {
        let mut extra = [mine_list.clone(), enemy_list.clone(), wall_list.clone()].concat();
        if folded {
            extra.extend_from_slice(&far);
        }
        let placed = scattered(3000, |_| bullets, &extra);
        let mut broad_phase = BroadPhase::default();
        let (mut pairs, mut looking) = (Vec::new(), Vec::new());
        broad_phase.passes(&placed, |grid, pass| {
            if pass.len > 3000 {
                assert_eq!(grid.folded(), folded.then_some(1), "folded {folded}");
                assert!(matches!(pass.join, Join::Between { check_layers: true }));
                looking.extend(walls_at.clone().filter(|&wall| {
                    grid.looks_at_everyone(placed.centers[wall], placed.radii[wall])
                }));
            }
            grid.query_runs(&placed, pass.runs, pass.join, &mut pairs);
        });
        assert!(
            looking.len() >= 20,
            "folded {folded}: {} walls",
            looking.len()
        );
        let expected = brute_force(&placed);
        let walls_met = expected
            .iter()
            .filter(|pair| walls_at.contains(&(pair[1] as usize)))
            .count();
        assert!(walls_met > 30, "{walls_met} pairs with walls");
        if folded {
            let meets_aside = |&wall: &usize| expected.contains(&[wall as u32, kept_aside]);
            assert!(
                looking.iter().any(meets_aside),
                "a looking wall meets the wide enemy"
            );
        }
        assert_eq!(sorted(&pairs), expected, "folded {folded}");
    }
    // Within one group: a few rocks among pebbles that all meet each other.
    let all = CollisionLayers::new(LayerMask::layer(0), LayerMask::layer(0));
    let rocks: Vec<_> = (0..5)
        .map(|index| (field(), 500.0 + index as f32, all))
        .collect();
    let placed = scattered(1500, |_| all, &rocks);
    let (broad_phase, pairs) = run(&placed);
    assert_eq!(broad_phase.grid.folded(), None);
    let rocks_looking = (1500..1505)
        .filter(|&rock| {
            let grid = &broad_phase.grid;
            grid.looks_at_everyone(placed.centers[rock], placed.radii[rock])
        })
        .count();
    assert_eq!(rocks_looking, 5);
    assert_eq!(sorted(&pairs), brute_force(&placed));
}

/// Thousands of points (radius zero) with a few rocks among them: the typical radius is
/// zero, yet the cells stay finite in number and every pair is found.
#[test]
fn mostly_points_find_every_pair() {
    use rand::{RngExt, SeedableRng, rngs::StdRng};
    let all = CollisionLayers::new(LayerMask::layer(0), LayerMask::layer(0));
    let mut rng = StdRng::seed_from_u64(3);
    let mut list: Vec<_> = (0..4000)
        .map(|_| {
            let at = Vec2::new(rng.random_range(0.0..600.0), rng.random_range(0.0..600.0));
            (at.round(), 0.0, all)
        })
        .collect();
    list.extend((0..5).map(|i| (Vec2::splat(100.0 * i as f32 + 50.0), 10.0, all)));
    let placed = placed_from(&list);
    let (broad_phase, pairs) = run(&placed);
    assert!(broad_phase.grid.fullest_cell() <= 16);
    let expected = brute_force(&placed);
    assert!(expected.len() > 20, "{}", expected.len());
    assert_eq!(sorted(&pairs), expected);
}

/// A collider that is not finite (which the pipeline never places, but the grid must not
/// trust) meets nothing, and the other colliders still find every pair: its box does not
/// become the grid's. (It did: one NaN made every collider share the first cell, while
/// queries read other cells.)
#[test]
fn a_collider_that_is_not_finite_leaves_the_others_their_pairs() {
    let enemies = CollisionLayers::new(LayerMask::layer(0), LayerMask::layer(1));
    let bullets = CollisionLayers::new(LayerMask::layer(1), LayerMask::layer(0));
    let strays = [
        (Vec2::new(f32::NAN, 3.0), 1.0, bullets),
        (Vec2::new(3.0, f32::NAN), 1.0, enemies),
        (Vec2::splat(f32::INFINITY), 1.0, bullets),
        (Vec2::new(f32::NEG_INFINITY, 2.0), 1.0, enemies),
        (Vec2::new(5.0, 5.0), f32::NAN, enemies),
    ];
    for stray in strays {
        let mut list = vec![
            (Vec2::new(-9.5e17, 1e18), 1e17, enemies),
            (Vec2::new(-1e18, 1e18), 1e17, bullets),
            stray,
        ];
        for i in 0..100 {
            let at = Vec2::new(i as f32 % 40.0, (i / 40) as f32);
            list.push((at, 1.0, bullets));
            if i % 5 == 0 {
                list.push((at + Vec2::new(0.5, 0.0), 1.0, enemies));
            }
        }
        let placed = placed_from(&list);
        let (_, pairs) = run(&placed);
        let expected = brute_force(&placed);
        assert!(expected.contains(&[0, 1]), "{stray:?}");
        assert_eq!(sorted(&pairs), expected, "{stray:?}");
    }
}

#[test]
fn folded_grids_find_every_pair_once_with_colliders_too_wide_to_fold() {
    let (bullet, enemy) = (LayerMask::layer(0), LayerMask::layer(1));
    let bullets = CollisionLayers::new(bullet, enemy);
    let enemies = CollisionLayers::new(enemy, bullet);
    // Bullets and a few enemies in the field; one enemy far away, one huge, and bullets
    // far away and huge too.
    let extra = [
        (Vec2::splat(1e7), 20.0, enemies),
        (Vec2::new(300.0, 300.0), 5000.0, enemies),
        (Vec2::new(-2e6, 40.0), 3.0, bullets),
        (Vec2::new(100.0, 100.0), 8000.0, bullets),
        (Vec2::splat(1e7 + 10.0), 3.0, bullets),
    ];
    let placed = scattered(
        4000,
        |i| if i % 20 == 0 { enemies } else { bullets },
        &extra,
    );
    let (mut broad_phase, pairs) = run(&placed);
    assert_eq!(
        broad_phase.grid.folded(),
        Some(1),
        "the huge enemy kept aside"
    );
    assert_eq!(sorted(&pairs), brute_force(&placed));
    // And past the group limit, one folded grid for everyone, with layers checked per pair.
    let placed = scattered(
        2000,
        |i| {
            let parity = LayerMask::layer((i % 2) as u32);
            CollisionLayers::new(parity | LayerMask::layer(2 + i as u32 % 30), parity)
        },
        &[
            (Vec2::splat(-1e8), 2.0, bullets),
            (Vec2::ZERO, 3000.0, bullets),
        ],
    );
    let pairs = run_again(&mut broad_phase, &placed);
    assert!(broad_phase.groups.active().len() > MAX_GROUPS);
    assert_eq!(broad_phase.grid.folded(), Some(1));
    assert_eq!(sorted(&pairs), brute_force(&placed));
}

#[test]
fn many_kinds_of_bullet_are_one_side_and_still_find_every_pair() {
    // Twenty kinds of bullet, alternating collider by collider, that never meet each other; two
    // kinds of enemy, each meeting only some kinds; a few bullets far wider than the rest
    // (lasers), which read a box of cells rather than one cell.
    let (enemy, elite) = (LayerMask::layer(0), LayerMask::layer(1));
    let bullet = |index: usize| {
        let kind = 2 + (index % 20) as u32;
        let targets = if index.is_multiple_of(3) {
            enemy | elite
        } else {
            enemy
        };
        CollisionLayers::new(LayerMask::layer(kind), targets)
    };
    let kinds = (2..22).fold(LayerMask::NONE, |mask, kind| mask | LayerMask::layer(kind));
    let elites = (2..22)
        .step_by(3)
        .fold(LayerMask::NONE, |mask, kind| mask | LayerMask::layer(kind));
    let enemies = CollisionLayers::new(enemy, kinds);
    let elite_enemies = CollisionLayers::new(elite, elites);
    let mut extra: Vec<(Vec2, f32, CollisionLayers)> = (0..40)
        .map(|index| {
            let center = Vec2::new(15.0 * index as f32, 300.0 + 5.0 * index as f32);
            let layers = if index % 2 == 0 {
                enemies
            } else {
                elite_enemies
            };
            (center, 12.0, layers)
        })
        .collect();
    extra.extend([
        (Vec2::new(200.0, 310.0), 60.0, bullet(0)),
        (Vec2::new(450.0, 420.0), 25.0, bullet(3)),
    ]);
    for far_away in [false, true] {
        if far_away {
            // And an enemy parked far away: the partners' grid folds.
            extra.push((Vec2::splat(3e7), 12.0, enemies));
        }
        let placed = scattered(4000, bullet, &extra);
        let (broad_phase, pairs) = run(&placed);
        // The bullets, and the enemies with the elites (which never meet each other
        // either), each pair's layers checked.
        assert_eq!(broad_phase.sides.active().len(), 2);
        assert_eq!(broad_phase.grid.folded().is_some(), far_away);
        let expected = brute_force(&placed);
        assert!(expected.len() > 100, "{}", expected.len());
        assert_eq!(sorted(&pairs), expected);
    }
}

#[test]
fn circles_touching_to_the_last_place_are_found() {
    // Found by a brute-force comparison in review: each pair touches exactly in `f32`,
    // and a box edge rounded across a cell's edge lost it.
    let bullet = CollisionLayers::new(LayerMask::layer(1), LayerMask::layer(0));
    let enemy = CollisionLayers::new(LayerMask::layer(0), LayerMask::layer(1));
    let cases = [
        vec![
            (Vec2::new(1.300_000_1, 2.7), 0.2, bullet),
            (Vec2::new(9.0, 2.600_000_1), 0.2, bullet),
            (Vec2::new(3.600_000_4, 2.7), 2.100_000_1, enemy),
            (Vec2::new(9.3, 2.600_000_1), 0.1, enemy),
        ],
        vec![
            (Vec2::new(8e6, 4.5e7), 3e6, bullet),
            (Vec2::new(8e6, 2.9e7), 1.3e7, enemy),
            (Vec2::new(0.0, 0.0), 3e6, bullet),
        ],
    ];
    for case in cases {
        let placed = placed_from(&case);
        let expected = brute_force(&placed);
        assert!(!expected.is_empty());
        let (_, pairs) = run(&placed);
        assert_eq!(sorted(&pairs), expected);
    }
}

#[test]
fn random_pairs_touching_to_the_last_place_are_found() {
    use rand::{RngExt, SeedableRng, rngs::StdRng};
    let bullet = CollisionLayers::new(LayerMask::layer(1), LayerMask::layer(0));
    let enemy = CollisionLayers::new(LayerMask::layer(0), LayerMask::layer(1));
    let mut rng = StdRng::seed_from_u64(7);
    let mut touching = 0;
    for scene in 0..1000 {
        // Pairs set tangent, spread out (a folded grid) or packed (a dense one); only
        // those the exact check itself calls touching are kept.
        let spacing = if scene % 2 == 0 { 120.0 } else { 30.0 };
        // Every bullet of a scene as wide as the growth, the box edge it may round across.
        let mut list = Vec::new();
        let near = rng.random_range(0.1..3.0);
        for pair in 0..40 {
            let center = Vec2::new(
                (pair % 8) as f32 * spacing + rng.random_range(0.0..1.0),
                (pair / 8) as f32 * spacing + rng.random_range(0.0..1.0),
            );
            let far = rng.random_range(0.1..30.0);
            // Along an axis: where the boxes' edges meet too.
            let direction = [Vec2::X, Vec2::NEG_X, Vec2::Y, Vec2::NEG_Y][pair % 4];
            let other = center + direction * (near + far);
            let reach: f32 = near + far;
            if center.distance_squared(other) <= reach * reach {
                list.extend([(center, near, bullet), (other, far, enemy)]);
                touching += 1;
            }
        }
        let placed = placed_from(&list);
        let (_, pairs) = run(&placed);
        let found = sorted(&pairs);
        assert_eq!(found, brute_force(&placed));
    }
    assert!(touching > 10_000, "{touching}");
}

#[test]
fn hundreds_of_layer_values_share_one_grid() {
    // Each bullet on a layer value of its own: too many to merge into sides.
    let placed = scattered(
        2 * MAX_MERGED_GROUPS,
        |index| {
            let kind = LayerMask(((index as u32) << 2) | 1);
            CollisionLayers::new(kind, LayerMask::layer(1))
        },
        &[(
            Vec2::new(300.0, 300.0),
            200.0,
            CollisionLayers::new(LayerMask::layer(1), LayerMask::layer(0)),
        )],
    );
    let (broad_phase, pairs) = run(&placed);
    assert!(broad_phase.groups.active().len() > MAX_MERGED_GROUPS);
    let expected = brute_force(&placed);
    assert!(expected.len() > 50, "{}", expected.len());
    assert_eq!(sorted(&pairs), expected);
}

#[test]
fn below_the_group_limit_groups_are_compared_pairwise() {
    let mut placed = ring(20);
    placed
        .layers
        .iter_mut()
        .enumerate()
        .for_each(|(index, layers)| {
            let parity = LayerMask::layer((index % 2) as u32);
            *layers = CollisionLayers::new(parity | LayerMask::layer(2 + index as u32 % 5), parity);
        });
    let (broad_phase, pairs) = run(&placed);
    assert!(broad_phase.groups.active().len() <= MAX_GROUPS);
    assert_eq!(sorted(&pairs), brute_force(&placed));
}
