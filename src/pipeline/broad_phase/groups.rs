//! Colliders grouped by their [`CollisionLayers`] value, as runs of consecutive collider indices.

use crate::layers::{CollisionLayers, LayerMask};
use crate::pipeline::placed::PlacedColliders;
use bevy::math::Vec4;
use bevy::platform::collections::HashMap;
use core::ops::Range;

/// Colliders sharing one `CollisionLayers` value (colliders arrive archetype by archetype, so a
/// group is usually one or a few runs of consecutive collider indices: see
/// [`Groups::runs_of`]).
#[derive(Default)]
pub(crate) struct Group {
    pub layers: CollisionLayers,
    /// How many colliders the group holds.
    pub len: usize,
}

/// This frame's groups, rebuilt every frame while keeping last frame's allocations.
#[derive(Default)]
pub(crate) struct Groups {
    groups: Vec<Group>,
    /// How many of `groups` are this frame's (the rest are spare allocations).
    active: usize,
    index_of_layers: HashMap<CollisionLayers, usize>,
    /// Every run of every group, in collider order, with its group's index.
    runs_in_order: Vec<(Range<u32>, usize)>,
}

impl Groups {
    /// This frame's groups, in order of first appearance among the colliders.
    pub fn active(&self) -> &[Group] {
        &self.groups[..self.active]
    }

    /// Every run of every group in collider order, with the index of its group in
    /// [`active`](Self::active).
    pub fn runs_in_order(&self) -> &[(Range<u32>, usize)] {
        &self.runs_in_order
    }

    /// The runs of group `group` (an index in [`active`](Self::active)), in collider order.
    pub fn runs_of(&self, group: usize) -> Vec<Range<u32>> {
        self.runs_in_order
            .iter()
            .filter(|(_, of)| *of == group)
            .map(|(run, _)| run.clone())
            .collect()
    }

    /// Sorts colliders into groups by layers, as runs.
    pub fn build(&mut self, placed: &PlacedColliders) {
        self.build_by(placed, |layers| layers);
    }

    /// Sorts colliders into groups by their memberships alone (what a spatial query's mask
    /// picks colliders by): each group's `layers` hold no filters.
    pub fn build_by_memberships(&mut self, placed: &PlacedColliders) {
        self.build_by(placed, |layers| {
            CollisionLayers::new(layers.memberships, LayerMask::NONE)
        });
    }

    /// Sorts colliders into groups by `key` of their layers, as runs.
    #[inline(always)]
    fn build_by(
        &mut self,
        placed: &PlacedColliders,
        key: impl Fn(CollisionLayers) -> CollisionLayers,
    ) {
        for group in &mut self.groups[..self.active] {
            group.len = 0;
        }
        self.active = 0;
        self.index_of_layers.clear();
        self.runs_in_order.clear();
        let layers = &placed.layers;
        // The groups of recent runs, by a cheap hash of their layers: layer values alternating
        // collider by collider (within one archetype) need no hash map lookup.
        // (A slot's group is `usize::MAX` until it is filled.)
        let mut recent = [(CollisionLayers::NONE, usize::MAX); RECENT];
        let mut run_start = 0;
        while run_start < layers.len() {
            let end = run_end(layers, run_start);
            let run_layers = key(layers[run_start]);
            let slot = recent_slot(run_layers);
            let (value, mut group) = recent[slot];
            if value != run_layers || group == usize::MAX {
                group = *self.index_of_layers.entry(run_layers).or_insert_with(|| {
                    let group = self.active;
                    self.active += 1;
                    if group == self.groups.len() {
                        self.groups.push(Group::default());
                    }
                    self.groups[group].layers = run_layers;
                    group
                });
                recent[slot] = (run_layers, group);
            }
            self.runs_in_order
                .push((run_start as u32..end as u32, group));
            // Only the count: the radii are summed per side, over its joined runs (see
            // `RadiusSpread::of`), not here run by run, where layer values alternating collider
            // by collider would chain each group's sums through memory.
            self.groups[group].len += end - run_start;
            run_start = end;
        }
        // Keep no more than twice the groups in use, so old layer values do not pile up.
        self.groups.truncate(2 * self.active.max(8));
    }
}

/// Where the run of colliders with the layers of collider `start` ends: sixteen colliders
/// compared at a time, without an early exit, so that the compiler can use vector instructions
/// for the long runs of a bullet hell.
fn run_end(layers: &[CollisionLayers], start: usize) -> usize {
    const LANES: usize = 16;
    let first = layers[start];
    let mut end = start + 1;
    // A run of one (layer values alternating collider by collider) costs one comparison.
    if layers.get(end).is_none_or(|next| *next != first) {
        return end;
    }
    while end + LANES <= layers.len() {
        let same = layers[end..end + LANES]
            .iter()
            .fold(true, |same, layers| same & (*layers == first));
        if !same {
            break;
        }
        end += LANES;
    }
    end + layers[end..]
        .iter()
        .position(|layers| *layers != first)
        .unwrap_or(layers.len() - end)
}

/// How many groups of recent runs [`Groups::build`] remembers.
const RECENT: usize = 256;

/// Where [`Groups::build`] remembers the group of a run with these layers: the top bits of
/// a multiplicative (Fibonacci) hash of the two masks, one of [`RECENT`] slots. The high half
/// is folded onto the low one first: a product's top bits depend on every bit below them, so
/// each mask's every bit reaches the slot. (Unfolded, the two layer values of a bullet and a
/// tracer, `(1, 2)` and `(5, 2)`, shared a slot, and every run of a side whose values
/// alternate went to the hash map.)
#[inline]
fn recent_slot(layers: CollisionLayers) -> usize {
    let both = (u64::from(layers.memberships.0) << 32) | u64::from(layers.filters.0);
    let folded = both ^ (both >> 32);
    (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - RECENT.trailing_zeros())) as usize
}

/// How the bounding radii of some colliders run: what a grid over them sizes its cells by.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct RadiusSpread {
    /// The mean radius of all but a few outliers far wider than the rest (see
    /// [`RadiusSpread::of`]); zero for no collider.
    pub typical: f32,
    /// The largest radius, outliers included; zero for no collider.
    pub largest: f32,
}

/// A collider this many times wider than the mean of the others is an outlier, whose size is left
/// out of the typical one when such outliers make up most of the mean.
const OUTLIER_FACTOR: f32 = 16.0;

impl RadiusSpread {
    /// The spread of the radii of the colliders of `runs`.
    ///
    /// The typical radius is the mean, unless a few colliders far wider than the rest make it
    /// more than twice the mean of the others: one wall across the whole world among
    /// thousands of bullets would otherwise size every cell for the wall, and the bullets
    /// would all share one. Those outliers (over [`OUTLIER_FACTOR`] times the mean of the
    /// others) are then left out. The mean's one pass costs nothing more when none is wider
    /// than that; a second pass (or a few, for outliers of several sizes) is made only then.
    pub fn of(radii: &[f32], runs: &[Range<u32>]) -> Self {
        let (mut sum, mut largest, mut len) = (0.0, 0.0_f32, 0);
        for run in runs {
            let (run_sum, run_max) = sum_and_max(&radii[run.start as usize..run.end as usize]);
            sum += run_sum;
            largest = largest.max(run_max);
            len += run.len();
        }
        if len == 0 {
            return Self::default();
        }
        let mean = sum / len as f32;
        let (mut typical, mut kept_largest) = (mean, largest);
        // Each pass leaves out at least the largest collider kept before. Eight passes settle
        // outliers of up to eight sizes, each far from the next; beyond, the typical radius
        // stays above the others' mean, which costs time, never a pair.
        for _ in 0..8 {
            let cap = OUTLIER_FACTOR * typical;
            if kept_largest <= cap {
                break;
            }
            let mut kept = Kept::default();
            for run in runs {
                kept.add(&radii[run.start as usize..run.end as usize], cap);
            }
            if kept.len == 0.0 {
                break;
            }
            kept_largest = kept.largest;
            typical = kept.sum / kept.len;
        }
        // Left as the mean unless the outliers more than double it.
        let typical = if mean > 2.0 * typical { typical } else { mean };
        Self { typical, largest }
    }
}

/// The radii at most a cap, as [`RadiusSpread::of`] keeps them past its first pass: their
/// sum, how many, and the largest (zero for none).
#[derive(Default)]
struct Kept {
    sum: f32,
    /// A count, in `f32`: exact up to 2²⁴ radii a lane (four lanes; the rest counted apart).
    len: f32,
    largest: f32,
}

impl Kept {
    /// Adds the radii of `radii` at most `cap`: four lanes at a time, without a branch.
    fn add(&mut self, radii: &[f32], cap: f32) {
        let (mut sums, mut counts, mut maxima) = (Vec4::ZERO, Vec4::ZERO, Vec4::ZERO);
        let chunks = radii.chunks_exact(4);
        let rest = chunks.remainder();
        for lanes in chunks {
            let lanes = Vec4::from_slice(lanes);
            // Radii are never negative: a radius left out counts as zero in the largest.
            let taken = lanes.cmple(Vec4::splat(cap));
            let kept = Vec4::select(taken, lanes, Vec4::ZERO);
            sums += kept;
            counts += Vec4::select(taken, Vec4::ONE, Vec4::ZERO);
            maxima = maxima.max(kept);
        }
        for &radius in rest.iter().filter(|&&radius| radius <= cap) {
            self.sum += radius;
            self.len += 1.0;
            self.largest = self.largest.max(radius);
        }
        self.sum += sums.element_sum();
        self.len += counts.element_sum();
        self.largest = self.largest.max(maxima.max_element());
    }
}

/// The sum and the largest of `radii` (zero for none), eight lanes at a time in two vectors.
fn sum_and_max(radii: &[f32]) -> (f32, f32) {
    const LANES: usize = 8;
    let (mut sums, mut maxima) = ([Vec4::ZERO; 2], [Vec4::ZERO; 2]);
    let chunks = radii.chunks_exact(LANES);
    let rest = chunks.remainder();
    for chunk in chunks {
        for (half, lanes) in chunk.chunks_exact(4).enumerate() {
            let lanes = Vec4::from_slice(lanes);
            sums[half] += lanes;
            // `Vec4::max` is one vector instruction, whose answer for NaN differs by platform:
            // radii are never NaN (prepare skips such colliders).
            maxima[half] = maxima[half].max(lanes);
        }
    }
    let [mut sums, mut maxima] = [sums, maxima].map(|[low, high]| {
        let mut lanes = [0.0_f32; LANES];
        lanes[..4].copy_from_slice(&low.to_array());
        lanes[4..].copy_from_slice(&high.to_array());
        lanes
    });
    for (lane, &radius) in rest.iter().enumerate() {
        sums[lane] += radius;
        maxima[lane] = maxima[lane].max(radius);
    }
    (
        sums.iter().sum(),
        maxima.iter().copied().fold(0.0, f32::max),
    )
}

#[cfg(test)]
mod tests {
    #![expect(
        clippy::single_range_in_vec_init,
        reason = "lists of runs, some of which hold one run"
    )]

    use super::*;
    use crate::geometry::Circle;
    use crate::layers::LayerMask;
    use crate::pipeline::placed::WorldShape;
    use bevy::prelude::*;

    fn placed_with_layers(layers: &[u32]) -> PlacedColliders {
        let mut placed = PlacedColliders::default();
        for (index, &layer) in layers.iter().enumerate() {
            let layers = CollisionLayers::new(LayerMask(layer), LayerMask::ALL);
            let radius = index as f32;
            placed.push(
                Entity::from_raw_u32(index as u32).unwrap(),
                Some(&layers),
                Circle::new(Vec2::ZERO, radius),
                WorldShape::Circle(Circle::new(Vec2::ZERO, radius)),
                Vec2::ZERO,
            );
        }
        placed
    }

    /// One collider far wider than thousands of others, or a few of several sizes, leave the
    /// typical radius the others' mean; sizes that merely vary, or outliers too few to move
    /// the mean much, leave it the mean of all.
    #[test]
    fn outliers_in_size_are_left_out_of_the_typical_radius() {
        let typical = |radii: &[f32]| {
            let spread = RadiusSpread::of(radii, &[0..radii.len() as u32]);
            let largest = radii.iter().copied().fold(0.0, f32::max);
            assert_eq!(spread.largest, largest);
            spread.typical
        };
        let mut bullets = vec![3.0; 20_000];
        bullets.push(1e8);
        assert_eq!(typical(&bullets), 3.0);
        bullets.extend([1e6, 1e7, 5e5, 2e4]);
        assert_eq!(typical(&bullets), 3.0, "outliers of several sizes");
        let mixed: Vec<f32> = (0..999).map(|i| [1.0, 10.0, 40.0][i % 3]).collect();
        assert_eq!(typical(&mixed), 17.0, "sizes that vary: the mean");
        let mut few = vec![1.0; 1000];
        few.extend([100.0; 5]);
        let mean = 1500.0 / 1005.0;
        assert!((typical(&few) - mean).abs() < 1e-5, "the mean, not doubled");
    }

    #[test]
    fn consecutive_colliders_of_one_value_form_one_run() {
        let mut groups = Groups::default();
        groups.build(&placed_with_layers(&[1, 1, 2, 2, 2, 1]));
        let active = groups.active();
        assert_eq!(active.len(), 2);
        assert_eq!(groups.runs_of(0), [0..2, 5..6]);
        assert_eq!(active[0].len, 3);
        let radii = &placed_with_layers(&[1, 1, 2, 2, 2, 1]).radii;
        let spread = RadiusSpread::of(radii, &groups.runs_of(0));
        assert_eq!(
            (spread.typical, spread.largest),
            ((0.0 + 1.0 + 5.0) / 3.0, 5.0)
        );
        assert_eq!(RadiusSpread::of(radii, &[]), RadiusSpread::default());
        assert_eq!(groups.runs_in_order().len(), 3);
        assert_eq!(groups.runs_in_order()[1], (2..5, 1));
        assert_eq!(groups.runs_of(1), [2..5]);
        assert_eq!(active[1].layers.memberships, LayerMask(2));
    }

    #[test]
    fn alternating_values_find_their_groups() {
        let mut groups = Groups::default();
        groups.build(&placed_with_layers(&[1, 2, 1, 2, 3, 1, 3, 2]));
        let active = groups.active();
        assert_eq!(active.len(), 3);
        assert_eq!(groups.runs_of(0), [0..1, 2..3, 5..6]);
        assert_eq!(groups.runs_of(1), [1..2, 3..4, 7..8]);
        assert_eq!(groups.runs_of(2), [4..5, 6..7]);
    }

    /// Layer values a side commonly holds get slots of their own: each run of such a side,
    /// however they alternate, is then found without the hash map.
    #[test]
    fn common_layer_values_get_distinct_recent_slots() {
        let value = |memberships: u32, filters: u32| {
            recent_slot(CollisionLayers::new(
                LayerMask(memberships),
                LayerMask(filters),
            ))
        };
        assert_ne!(value(1, 2), value(5, 2), "a bullet and a tracer");
        let kinds: std::collections::HashSet<usize> =
            (0..32).map(|kind| value(1 << kind, 2)).collect();
        assert!(
            kinds.len() >= 30,
            "32 kinds of bullet in {} slots",
            kinds.len()
        );
    }

    #[test]
    fn a_rebuild_forgets_last_frames_groups() {
        let mut groups = Groups::default();
        groups.build(&placed_with_layers(&[1, 2, 3]));
        groups.build(&placed_with_layers(&[4, 4]));
        assert_eq!(groups.active().len(), 1);
        assert_eq!(groups.runs_of(0), [0..2]);
        assert_eq!(groups.active()[0].layers.memberships, LayerMask(4));
    }

    #[test]
    fn spare_groups_are_trimmed() {
        let mut groups = Groups::default();
        let many: Vec<u32> = (0..40).collect();
        groups.build(&placed_with_layers(&many));
        assert_eq!(groups.active().len(), 40);
        groups.build(&placed_with_layers(&[1]));
        assert_eq!(groups.groups.len(), 16);
    }

    #[test]
    fn runs_end_where_the_layers_change() {
        let placed = placed_with_layers(&[[1; 20].as_slice(), &[2; 3], &[1; 9], &[3]].concat());
        let layers = &placed.layers;
        assert_eq!(run_end(layers, 0), 20);
        assert_eq!(run_end(layers, 5), 20);
        assert_eq!(run_end(layers, 20), 23);
        assert_eq!(run_end(layers, 23), 32);
        assert_eq!(run_end(layers, 32), 33);
    }

    #[test]
    fn sums_and_maxima_over_lanes_and_the_rest() {
        for count in [0, 1, 7, 8, 9, 23] {
            let radii: Vec<f32> = (0..count).map(|index| ((index * 7) % 11) as f32).collect();
            let (sum, max) = sum_and_max(&radii);
            assert_eq!(sum, radii.iter().sum::<f32>(), "{count}");
            assert_eq!(max, radii.iter().copied().fold(0.0, f32::max), "{count}");
        }
    }

    /// The radii at most a cap, four lanes at a time and the rest one by one: their sum, count
    /// and largest as a plain filter finds them, the cap itself kept.
    #[test]
    fn kept_radii_over_lanes_and_the_rest() {
        let cap = 5.0;
        for count in [0, 3, 4, 5, 9, 22] {
            let radii: Vec<f32> = (0..count).map(|index| ((index * 7) % 11) as f32).collect();
            let mut kept = Kept::default();
            kept.add(&radii, cap);
            let below: Vec<f32> = radii.iter().copied().filter(|&r| r <= cap).collect();
            assert_eq!(kept.sum, below.iter().sum::<f32>(), "{count}");
            assert_eq!(kept.len, below.len() as f32, "{count}");
            assert_eq!(
                kept.largest,
                below.iter().copied().fold(0.0, f32::max),
                "{count}"
            );
        }
        let mut at_cap = Kept::default();
        at_cap.add(&[cap; 6], cap);
        assert_eq!(
            (at_cap.sum, at_cap.len, at_cap.largest),
            (6.0 * cap, 6.0, cap)
        );
    }

    #[test]
    fn no_colliders_no_groups() {
        let mut groups = Groups::default();
        groups.build(&PlacedColliders::default());
        assert!(groups.active().is_empty());
    }
}
