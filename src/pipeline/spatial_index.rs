//! The spatial index: the last run's colliders grouped by their memberships (what a query's
//! mask picks them by; their filters play no part), each group's grid built the first time a
//! spatial query asks about its layers, and kept until the next prepare.
//!
//! Nothing is built after a run without queries, and a grid is built in the room of the grid
//! its group had after an earlier run. A query looks only at the groups on the layers it asks
//! for, so a homing missile looking for the nearest of a few dozen enemies never touches the
//! grid of fifty thousand bullets. Past [`MAX_GROUPS`] distinct memberships, one grid holds
//! every collider instead (as in the broad phase), and each candidate's layers are checked.

use super::broad_phase::{Grid, Groups, MAX_GROUPS, RadiusSpread};
use super::parallel::lock;
use super::placed::PlacedColliders;
use crate::layers::LayerMask;
use bevy::prelude::*;
use smallvec::SmallVec;
use std::sync::{Mutex, OnceLock, PoisonError};

/// The spatial index of this frame's [`PlacedColliders`]: see the [module docs](self).
#[derive(Resource, Default)]
pub struct SpatialIndex {
    state: OnceLock<IndexState>,
    /// Each collider's place in [`PlacedColliders`], by entity: filled the first time a frame's
    /// query names colliders by entity.
    places: OnceLock<Places>,
    /// The last frame's groups and grids, emptied of meaning but not of room: this frame's
    /// are built in them.
    spare: Mutex<Spare>,
}

/// Room kept from frame to frame.
#[derive(Default)]
struct Spare {
    groups: Option<Groups>,
    places: Option<Places>,
    /// The last grid built for each group, by the group's place in the list (a game's groups
    /// mostly keep their places from frame to frame, and so their sizes).
    grids: Vec<Grid>,
    /// The last grid built over everyone.
    everyone: Option<Grid>,
}

/// Each placed collider's place in [`PlacedColliders`], by its entity's index: a table as long
/// as the largest index, filled with one store per collider (no hashing) and never cleared. An
/// entry left from an earlier frame, or another entity's of the same index, names a place
/// that holds another entity now, and is refused.
#[derive(Default)]
struct Places {
    by_index: Vec<u32>,
}

impl Places {
    /// Writes the place of every collider in `placed`.
    fn fill(&mut self, placed: &PlacedColliders) {
        for (place, entity) in placed.entities.iter().enumerate() {
            let index = entity.index_u32() as usize;
            if index >= self.by_index.len() {
                self.by_index.resize(index + 1, u32::MAX);
            }
            self.by_index[index] = place as u32;
        }
    }

    /// Where `entity` is in `placed` (which the table was filled from), if it is there.
    fn of(&self, placed: &PlacedColliders, entity: Entity) -> Option<usize> {
        let place = *self.by_index.get(entity.index_u32() as usize)? as usize;
        (placed.entities.get(place) == Some(&entity)).then_some(place)
    }
}

/// The groups, and each one's grid once asked for.
struct IndexState {
    groups: Groups,
    grids: Vec<OnceLock<Grid>>,
    /// One grid over everyone, past [`MAX_GROUPS`] groups.
    everyone: OnceLock<Grid>,
}

impl SpatialIndex {
    /// Forgets the last frame's grids, keeping their room: the prepare stage calls it when it
    /// rewrites [`PlacedColliders`].
    pub(crate) fn reset(&mut self) {
        let spare = self.spare.get_mut().unwrap_or_else(PoisonError::into_inner);
        if let Some(places) = self.places.take() {
            spare.places = Some(places);
        }
        let Some(state) = self.state.take() else {
            return;
        };
        spare.groups = Some(state.groups);
        let built = state
            .grids
            .into_iter()
            .take(MAX_GROUPS)
            .map(OnceLock::into_inner);
        for (index, grid) in built.enumerate() {
            let Some(grid) = grid else { continue };
            if index >= spare.grids.len() {
                spare.grids.resize_with(index + 1, Grid::default);
            }
            spare.grids[index] = grid;
        }
        if let Some(everyone) = state.everyone.into_inner() {
            spare.everyone = Some(everyone);
        }
    }

    /// Where collider `entity` is in `placed`, if it was placed this frame.
    pub(crate) fn place_of(&self, placed: &PlacedColliders, entity: Entity) -> Option<usize> {
        let places = self.places.get_or_init(|| {
            let mut places = lock(&self.spare).places.take().unwrap_or_default();
            places.fill(placed);
            places
        });
        places.of(placed, entity)
    }

    /// A grid to build group `group`'s in (`None`: everyone's): the room of the last one built
    /// for it, or a new one.
    fn spare_grid(&self, group: Option<usize>) -> Grid {
        let mut spare = lock(&self.spare);
        match group {
            Some(index) => spare.grids.get_mut(index).map(core::mem::take),
            None => spare.everyone.take(),
        }
        .unwrap_or_default()
    }

    /// The grids that together hold every collider whose memberships meet `mask`: more colliders
    /// may be in them, so a query checks each candidate's layers.
    pub(crate) fn grids<'a>(
        &'a self,
        placed: &PlacedColliders,
        mask: LayerMask,
    ) -> SmallVec<[&'a Grid; 4]> {
        let state = self.state.get_or_init(|| {
            let mut groups = lock(&self.spare).groups.take().unwrap_or_default();
            groups.build_by_memberships(placed);
            let grids = groups.active().iter().map(|_| OnceLock::new()).collect();
            IndexState {
                groups,
                grids,
                everyone: OnceLock::new(),
            }
        });
        let groups = state.groups.active();
        if groups.len() > MAX_GROUPS {
            let grid = state.everyone.get_or_init(|| {
                let mut grid = self.spare_grid(None);
                let everyone = 0..placed.entities.len() as u32;
                let everyone = core::slice::from_ref(&everyone);
                let typical_radius = RadiusSpread::of(&placed.radii, everyone).typical;
                grid.build_for_queries(placed, everyone, typical_radius);
                grid
            });
            return SmallVec::from_buf_and_len([grid; 4], 1);
        }
        groups
            .iter()
            .enumerate()
            .zip(&state.grids)
            .filter(|((_, group), _)| group.layers.memberships.intersects(mask))
            .map(|((index, _), grid)| {
                grid.get_or_init(|| {
                    let mut grid = self.spare_grid(Some(index));
                    let runs = state.groups.runs_of(index);
                    let typical_radius = RadiusSpread::of(&placed.radii, &runs).typical;
                    grid.build_for_queries(placed, &runs, typical_radius);
                    grid
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::CollisionLayers;
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

    /// What the grids for `mask` list in each of a few boxes, sorted.
    fn listed(index: &SpatialIndex, placed: &PlacedColliders, mask: LayerMask) -> Vec<Vec<u32>> {
        let boxes = [(0.0, 50.0), (100.0, 400.0), (-1e4, 1e4), (380.0, 381.0)];
        boxes
            .iter()
            .map(|&(low, high)| {
                let mut found = Vec::new();
                for grid in index.grids(placed, mask) {
                    grid.visit_box(Vec2::splat(low), Vec2::splat(high), |collider| {
                        found.push(collider)
                    });
                }
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
            let kept = lock(&index.spare).grids.first().map(Grid::room);
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
                let left = lock(&index.spare).grids.first().map_or(0, Grid::room);
                let state = index.state.get().unwrap();
                if state.groups.active().len() <= MAX_GROUPS {
                    assert_eq!(left, 0, "frame {frame}: the room was left unused");
                    let built = state.grids[0].get().map_or(0, Grid::room);
                    assert!(built >= kept, "frame {frame}");
                }
            }
        }
        index.reset();
        let spare = lock(&index.spare);
        assert!(spare.grids.len() >= 2 && spare.groups.is_some() && spare.everyone.is_some());
    }
}
