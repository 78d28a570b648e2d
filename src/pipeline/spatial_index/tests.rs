//! The spatial index's tests: what its grids list, built new or kept.

use super::*;
use crate::layers::CollisionLayers;
use crate::pipeline::broad_phase::Binning;
use crate::pipeline::broad_phase::tests::placed_from;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A group of points (radius zero, which `CircleCollider::new(0.0)` allows): a small box, or
/// a short ray, visits the points near it, not the whole group, though the points are far
/// smaller than the gaps between them.
#[test]
fn a_small_query_among_points_visits_what_is_near() {
    use crate::pipeline::broad_phase::Stretch;
    let layers = CollisionLayers::new(LayerMask::layer(0), LayerMask::ALL);
    // 1,000 points 25 apart, 40 to a row.
    let list: Vec<_> = (0..1000)
        .map(|index| {
            let center = Vec2::new((index % 40) as f32 * 25.0, (index / 40) as f32 * 25.0);
            (center, 0.0, layers)
        })
        .collect();
    let placed = placed_from(&list);
    let index = SpatialIndex::default();
    let grids = index.grids(&placed, LayerMask::layer(0));
    assert_eq!(grids.len(), 1);
    let mut visited = 0;
    let everyone = grids[0].visit_box(Vec2::splat(99.0), Vec2::splat(101.0), |_| visited += 1);
    assert!(!everyone && visited <= 16, "a 2 × 2 box visited {visited}");
    let mut walked = 0;
    let ray = Stretch {
        origin: Vec2::new(-10.0, 12.5),
        direction: Vec2::X,
        start: 0.0,
        end: 100.0,
        reach: 1.0,
    };
    grids[0].walk(ray, |_| true, |_| walked += 1);
    assert!(walked <= 200, "a ray 100 long visited {walked}");
}

/// One collider parked far away, on the same layers, leaves small queries small:
/// colliders of a usual size still size the cells, and points get cells sized by the box
/// most of them lie in, not by the far one's. So do points nearly all on one line, with a
/// few off it. A 2 × 2 box among them visits those near it: on the line, those the line
/// folds onto it too (it crosses the grid's array about ten times).
#[test]
fn a_far_collider_leaves_small_queries_small() {
    let layers = CollisionLayers::new(LayerMask::layer(0), LayerMask::ALL);
    // 5,000 colliders 25 apart, 100 to a row.
    let rows = |radius: f32| {
        (0..5000).map(move |index| {
            let center = Vec2::new((index % 100) as f32 * 25.0, (index / 100) as f32 * 25.0);
            (center, radius, layers)
        })
    };
    let far = |radius: f32| (Vec2::splat(1e9), radius, layers);
    // 5,000 points half a unit apart on the x axis, and 40 above it.
    let line = (0..5000).map(|index| (Vec2::new(index as f32 * 0.5, 0.0), 0.0, layers));
    let above = (0..40).map(|index| (Vec2::new(index as f32 * 60.0, 100.0), 0.0, layers));
    let scenes: [(&str, Vec<_>, usize); 3] = [
        ("radius 8", rows(8.0).chain([far(8.0)]).collect(), 16),
        ("points", rows(0.0).chain([far(0.0)]).collect(), 16),
        ("a line", line.chain(above).collect(), 32),
    ];
    for (scene, list, most) in scenes {
        let placed = placed_from(&list);
        let index = SpatialIndex::default();
        let grids = index.grids(&placed, LayerMask::layer(0));
        let mut visited = 0;
        let (min, max) = (Vec2::new(99.0, -1.0), Vec2::new(101.0, 1.0));
        let everyone = grids[0].visit_box(min, max, |_| visited += 1);
        assert!(
            !everyone && visited <= most,
            "{scene}: a 2 × 2 box visited {visited}"
        );
    }
}

/// The table of places answers as a map of this frame's colliders does, frame after
/// frame in the same room: entities respawned with another generation, moved to other
/// places, or gone are found where they are now, or not at all.
#[test]
fn places_are_those_of_this_frame() {
    use bevy::ecs::entity::EntityGeneration;
    use rand::seq::SliceRandom;
    use std::collections::HashMap;
    let mut rng = StdRng::seed_from_u64(11);
    let mut places = Places::default();
    for _ in 0..50 {
        let count = rng.random_range(0..300);
        let mut indices: Vec<u32> = (0..600).collect();
        indices.shuffle(&mut rng);
        let entities: Vec<Entity> = indices[..count]
            .iter()
            .map(|&index| {
                let entity = Entity::from_raw_u32(index).unwrap();
                let generation = EntityGeneration::FIRST.after_versions(rng.random_range(0..3));
                Entity::from_index_and_generation(entity.index(), generation)
            })
            .collect();
        let mut placed = PlacedColliders::default();
        placed.entities.clone_from(&entities);
        places.fill(&placed);
        let map: HashMap<Entity, usize> = entities
            .iter()
            .enumerate()
            .map(|(place, &entity)| (entity, place))
            .collect();
        for index in 0..700 {
            for generation in 0..3 {
                let entity = Entity::from_index_and_generation(
                    Entity::from_raw_u32(index).unwrap().index(),
                    EntityGeneration::FIRST.after_versions(generation),
                );
                assert_eq!(places.of(&placed, entity), map.get(&entity).copied());
            }
        }
    }
}

/// `count` circles scattered over `side` × `side`, on two layers.
fn scattered(count: usize, side: f32, seed: u64) -> PlacedColliders {
    let mut rng = StdRng::seed_from_u64(seed);
    let list: Vec<_> = (0..count)
        .map(|index| {
            let center = Vec2::new(rng.random_range(0.0..side), rng.random_range(0.0..side));
            let layer = LayerMask::layer((index % 2) as u32);
            (
                center,
                rng.random_range(1.0..20.0),
                CollisionLayers::new(layer, layer),
            )
        })
        .collect();
    placed_from(&list)
}

/// What the grids for `mask` list in each of a few boxes, sorted: those whose bounding box
/// meets it (a grid may list others too, as its binning has it: the exact tests reject them).
fn listed(index: &SpatialIndex, placed: &PlacedColliders, mask: LayerMask) -> Vec<Vec<u32>> {
    let boxes = [(0.0, 50.0), (100.0, 400.0), (-1e4, 1e4), (380.0, 381.0)];
    boxes
        .iter()
        .map(|&(low, high)| {
            let (min, max) = (Vec2::splat(low), Vec2::splat(high));
            let mut found = Vec::new();
            for grid in index.grids(placed, mask) {
                grid.visit_box(min, max, |collider| found.push(collider));
            }
            found.retain(|&collider| {
                let (center, radius) = (
                    placed.centers[collider as usize],
                    placed.radii[collider as usize],
                );
                (center + radius).cmpge(min).all() && (center - radius).cmple(max).all()
            });
            found.sort_unstable();
            found.dedup();
            found
        })
        .collect()
}

/// `count` circles on layer values of their own (more than [`MAX_GROUPS`]): one grid
/// over everyone.
fn many_layer_values(count: usize) -> PlacedColliders {
    let list: Vec<_> = (0..count)
        .map(|index| {
            let center = Vec2::new((index % 40) as f32 * 10.0, (index / 40) as f32 * 10.0);
            let layers = CollisionLayers::new(LayerMask(index as u32 + 1), LayerMask::ALL);
            (center, 4.0, layers)
        })
        .collect();
    placed_from(&list)
}

/// Colliders that differ only in what they look for share a group: a query for a layer
/// none is on looks at no grid, though there are more layer values than [`MAX_GROUPS`].
#[test]
fn colliders_are_grouped_by_their_memberships_alone() {
    let count = MAX_GROUPS + 6;
    let list: Vec<_> = (0..count)
        .map(|index| {
            let center = Vec2::new(index as f32 * 10.0, 0.0);
            let filters = LayerMask(index as u32 + 1);
            (
                center,
                4.0,
                CollisionLayers::new(LayerMask::layer(0), filters),
            )
        })
        .collect();
    let placed = placed_from(&list);
    let index = SpatialIndex::default();
    assert!(index.grids(&placed, LayerMask::layer(1)).is_empty());
    let grids = index.grids(&placed, LayerMask::layer(0));
    assert_eq!(grids.len(), 1);
    let mut found = Vec::new();
    grids[0].visit_box(Vec2::splat(-1e4), Vec2::splat(1e4), |collider| {
        found.push(collider);
    });
    found.sort_unstable();
    found.dedup();
    assert_eq!(found.len(), count);
}

/// Grids built in the room of an earlier frame's (more colliders then, spread wider, folded,
/// one grid over everyone, or fewer) list what grids built new list; and the room is
/// taken.
#[test]
fn grids_built_in_last_frames_room_list_what_new_ones_list() {
    let mut far_away = scattered(2000, 600.0, 4);
    far_away.centers[0] = Vec2::splat(1e7);
    let frames = [
        scattered(3000, 2000.0, 1),
        far_away,
        scattered(500, 400.0, 2),
        many_layer_values(300),
        scattered(4000, 800.0, 3),
        many_layer_values(100),
    ];
    let mut index = SpatialIndex::default();
    for (frame, placed) in frames.iter().enumerate() {
        index.reset();
        let kept = lock(&index.spare)
            .grids
            .first()
            .map(|kept| kept.grid.room());
        for mask in [
            LayerMask::layer(0),
            LayerMask::layer(0) | LayerMask::layer(1),
        ] {
            let fresh = SpatialIndex::default();
            let expected = listed(&fresh, placed, mask);
            assert!(
                expected.iter().any(|found| !found.is_empty()),
                "frame {frame}"
            );
            assert_eq!(listed(&index, placed, mask), expected, "frame {frame}");
        }
        // The first group's grid was built in the room kept for it.
        if let Some(kept) = kept.filter(|&room| room > 0) {
            let left = lock(&index.spare)
                .grids
                .first()
                .map_or(0, |kept| kept.grid.room());
            let state = index.state.get().unwrap();
            if state.groups.active().len() <= MAX_GROUPS {
                assert_eq!(left, 0, "frame {frame}: the room was left unused");
                let built = state.grids[0].get().map_or(0, |kept| kept.grid.room());
                assert!(built >= kept, "frame {frame}");
            }
        }
    }
    index.reset();
    let spare = lock(&index.spare);
    assert!(spare.grids.len() >= 2 && spare.groups.is_some() && spare.everyone.is_some());
}

/// A collider as `placed_from` takes it: its centre, radius and layers.
type Listed = (Vec2, f32, CollisionLayers);

const WALL: LayerMask = LayerMask::layer(0);
const BULLET: LayerMask = LayerMask::layer(1);

/// `bullets` small circles on their own layer, then walls: 300 scattered, one far away
/// (the walls' grid folds) and one wider than the folding (kept aside).
fn bullets_then_walls(bullets: usize) -> Vec<Listed> {
    let mut rng = StdRng::seed_from_u64(bullets as u64);
    let bullet = CollisionLayers::new(BULLET, WALL);
    let wall = CollisionLayers::new(WALL, BULLET);
    let mut list: Vec<_> = (0..bullets)
        .map(|_| {
            let center = Vec2::new(rng.random_range(0.0..500.0), rng.random_range(0.0..500.0));
            (center, 2.0, bullet)
        })
        .collect();
    let mut rng = StdRng::seed_from_u64(99);
    list.extend((0..300).map(|_| {
        let center = Vec2::new(rng.random_range(0.0..500.0), rng.random_range(0.0..500.0));
        (center, rng.random_range(5.0..15.0), wall)
    }));
    list.push((Vec2::splat(1e7), 10.0, wall));
    list.push((Vec2::new(250.0, 250.0), 5e6, wall));
    list
}

/// A grid kept from an earlier frame lists what a new one lists: for the same walls after
/// more bullets, or fewer (the walls placed further on, or back); and the walls' grid is built
/// again where one of them moved by a hair, grew, or became not finite, and where they were
/// split into two runs, binned by centres where built twice in a row, and built once more,
/// binned by boxes, where walls binned by centres stood still; kept otherwise.
#[test]
fn kept_grids_list_what_new_ones_list() {
    let walls_after = |bullets: usize, change: &dyn Fn(&mut [Listed])| {
        let mut list = bullets_then_walls(bullets);
        change(&mut list[bullets..]);
        placed_from(&list)
    };
    let same = |_: &mut [_]| {};
    let moved = |walls: &mut [Listed]| walls[7].0.x += 1e-3;
    let grown = |walls: &mut [Listed]| walls[8].1 += 100.0;
    let split = {
        let mut list = bullets_then_walls(60);
        let bullet = list[0];
        list.insert(200, bullet);
        placed_from(&list)
    };
    let not_finite = |walls: &mut [Listed]| walls[3].0 = Vec2::splat(f32::NAN);
    let (boxes, centres) = (Binning::Boxes, Binning::Centres);
    // Each frame, whether the walls' grid is built in it (else kept), and how it bins them: by
    // centres where built twice in a row, by boxes again once they stand still.
    let frames = [
        (walls_after(100, &same), true, boxes),
        (walls_after(100, &same), false, boxes),
        (walls_after(150, &same), false, boxes),
        (walls_after(60, &same), false, boxes),
        (walls_after(60, &moved), true, boxes),
        (walls_after(60, &grown), true, centres),
        (walls_after(61, &not_finite), true, centres),
        (walls_after(70, &not_finite), true, boxes),
        (walls_after(72, &not_finite), false, boxes),
        (split, true, boxes),
        (walls_after(0, &same), true, centres),
        (walls_after(0, &same), true, boxes),
        (walls_after(0, &same), false, boxes),
    ];
    let mut index = SpatialIndex::default();
    // How many times the grid at each place in the list was built, as of the last frame.
    let mut builds = [0; 2];
    for (frame, (placed, built, binning)) in frames.iter().enumerate() {
        index.reset();
        for mask in [WALL, WALL | BULLET] {
            let fresh = SpatialIndex::default();
            let expected = listed(&fresh, placed, mask);
            assert!(
                expected.iter().all(|found| !found.is_empty()),
                "frame {frame}"
            );
            assert_eq!(listed(&index, placed, mask), expected, "frame {frame}");
        }
        // The walls' grid, from the room kept at the walls' place in the list.
        let state = index.state.get().unwrap();
        let walls = state
            .groups
            .active()
            .iter()
            .position(|group| group.layers.memberships == WALL);
        let walls = walls.unwrap();
        let kept = state.grids[walls].get().unwrap();
        let before = builds[walls];
        assert_eq!(
            kept.builds > before,
            *built,
            "frame {frame}: builds {before} → {}",
            kept.builds
        );
        assert_eq!(kept.binning, *binning, "frame {frame}");
        for (place, grid) in state.grids.iter().enumerate() {
            builds[place] = grid.get().map_or(builds[place], |kept| kept.builds);
        }
    }
}

/// A collider kept aside (wider than the folding) swept along another path inside the same
/// bounding circle: a kept grid takes the box of its path anew.
#[test]
fn a_kept_grid_takes_the_paths_of_colliders_kept_aside_anew() {
    use crate::geometry::Circle;
    use crate::pipeline::placed::WorldShape;
    let wall = CollisionLayers::new(WALL, BULLET);
    let sweeping = |motion: Vec2| {
        let mut placed = placed_from(&bullets_then_walls(0)[..301]);
        let now = Circle::new(Vec2::splat(250.0) + motion / 2.0, 1e6);
        let entity = Entity::from_raw_u32(301).unwrap();
        placed.push(entity, Some(&wall), now, WorldShape::Circle(now), motion);
        placed
    };
    let across = sweeping(Vec2::new(8e6, 0.0));
    let up = sweeping(Vec2::new(0.0, 8e6));
    assert_eq!((&across.centers, &across.radii), (&up.centers, &up.radii));
    // A box far above the middle, which the path up crosses and the path across does not.
    let meets_the_sweep = |index: &SpatialIndex, placed: &PlacedColliders| {
        let mut found = Vec::new();
        let (min, max) = (Vec2::new(240.0, 3e6), Vec2::new(260.0, 3e6 + 20.0));
        for grid in index.grids(placed, WALL) {
            grid.visit_box(min, max, |collider| found.push(collider));
        }
        found.contains(&301)
    };
    assert!(!meets_the_sweep(&SpatialIndex::default(), &across));
    assert!(meets_the_sweep(&SpatialIndex::default(), &up));
    let mut index = SpatialIndex::default();
    assert!(!meets_the_sweep(&index, &across));
    index.reset();
    assert!(meets_the_sweep(&index, &up));
}

/// A grid is kept, renumbered, for the same circles in runs of the same lengths moved by one
/// offset, and only for them: not for a circle moved, resized or gone, nor for runs of
/// other lengths.
#[test]
fn a_grid_is_kept_for_the_same_circles_only() {
    let wall_runs = |placed: &PlacedColliders| {
        let mut groups = Groups::default();
        groups.build_by_memberships(placed);
        let wall = groups
            .active()
            .iter()
            .position(|group| group.layers.memberships == WALL)
            .unwrap();
        groups.runs_of(wall)
    };
    let mut kept = KeptGrid::default();
    let built = placed_from(&bullets_then_walls(100));
    assert_eq!(
        kept.offset_to(&built, &wall_runs(&built)),
        None,
        "nothing built yet"
    );
    kept.update(&built, &wall_runs(&built));
    assert_eq!(kept.offset_to(&built, &wall_runs(&built)), Some(0));
    let more_bullets = placed_from(&bullets_then_walls(130));
    assert_eq!(
        kept.offset_to(&more_bullets, &wall_runs(&more_bullets)),
        Some(30)
    );
    let fewer = placed_from(&bullets_then_walls(40));
    assert_eq!(
        kept.offset_to(&fewer, &wall_runs(&fewer)),
        Some(40u32.wrapping_sub(100))
    );
    let mut changed = bullets_then_walls(100);
    changed[150].0.y = changed[150].0.y.next_up();
    let moved = placed_from(&changed);
    assert_eq!(kept.offset_to(&moved, &wall_runs(&moved)), None);
    let mut changed = bullets_then_walls(100);
    changed[101].1 += 1.0;
    let resized = placed_from(&changed);
    assert_eq!(kept.offset_to(&resized, &wall_runs(&resized)), None);
    let mut changed = bullets_then_walls(100);
    changed.pop();
    let fewer_walls = placed_from(&changed);
    assert_eq!(kept.offset_to(&fewer_walls, &wall_runs(&fewer_walls)), None);
    // The same walls, split in two runs by a bullet.
    let mut changed = bullets_then_walls(99);
    changed.insert(250, changed[0]);
    let split = placed_from(&changed);
    assert_eq!(kept.offset_to(&split, &wall_runs(&split)), None);
}
