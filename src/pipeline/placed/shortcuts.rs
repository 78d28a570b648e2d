//! Pairs told apart from their circles alone, without the exact test: a disc deep inside a
//! still polygon ([`surely_holds`](super::PlacedPolygon::surely_holds)), a disc that surely
//! overlapped one at the start of its path, a swept disc clear of another collider's bounding
//! circle now, and a disc that passed clear of a still collider's bounding circle (what the ends
//! of a path say is in `path_ends`). Each answers as the exact test would, for far less work;
//! the tests below hold them to it near the edge of what they claim.

use super::{DiscPath, PlacedColliders, WorldShape, past_rounding};
use crate::geometry::{Circle, Segment};

impl DiscPath<'_> {
    /// Whether the disc, moved back to the start of its path, surely overlaps the still
    /// polygon there: it reaches into the circle the polygon surely holds (see
    /// [`clear_radius`](super::clear_radius)), by more than rounding could take back. The sweep's
    /// exact test says the same for far more work; for a bullet passing through an enemy, the bulk
    /// of the swept pairs of a bullet hell, nothing more is needed. `false` for any other
    /// collider than a polygon.
    #[inline(always)]
    pub fn overlapped_at_start(&self) -> bool {
        let Some(held) = self.polygon.and_then(|polygon| polygon.holds) else {
            return false;
        };
        if held.radius <= 0.0 {
            return false;
        }
        // A part in ten thousand of the disc's radius kept back: the exact test's rounding
        // grows with the disc's size, which the polygon's margin does not cover.
        let reach = held.radius + self.now.radius * (1.0 - 1e-4);
        held.center.distance_squared(self.start()) < reach * reach
    }

    /// Whether the disc, where it is now, lies clear of the still collider's bounding circle by
    /// more than rounding could take back (see [`PlacedColliders::clear_now`]).
    #[inline(always)]
    pub fn clear_now(&self) -> bool {
        clear_of_bound(self.now, self.bound)
    }

    /// Whether the disc, all along its path, stays clear of the still collider's bounding
    /// circle by more than rounding could take back: the sweep finds no touch, and they are
    /// apart now. Most swept pairs that meet nothing are such: the broad phase compares the
    /// circle around a whole path, which is wider than the path.
    #[inline(always)]
    pub fn apart_along_path(&self) -> bool {
        let (now, bound) = (self.now, self.bound);
        let path = Segment::new(self.start(), now.center);
        // The sweep's rounding grows with the path's length too.
        let coordinates = bound.center.abs().max_element()
            + now.center.abs().max_element()
            + self.motion.abs().max_element();
        let reach = past_rounding(bound.radius + now.radius, coordinates);
        path.distance_squared_to(bound.center) > reach * reach
    }
}

impl PlacedColliders {
    /// Whether swept circle `disc`, where it is now, lies clear of the bounding circle of
    /// collider `other` by more than rounding could take back: they do not meet where they
    /// are. A swept circle's bounding circle holds its whole path, so the broad phase pairs it
    /// with colliders that its disc is far from; for those, nothing of the other's shape needs
    /// reading.
    #[inline]
    pub fn clear_now(&self, disc: usize, other: usize) -> bool {
        // A still circle is its own bounding circle: the broad phase compared it already.
        let Some(slot) = disc.checked_sub(self.still) else {
            return false;
        };
        let WorldShape::Circle(now) = self.paths[slot].shape else {
            return false;
        };
        clear_of_bound(now, self.bound(other))
    }

    /// The bounding circle of collider `index`.
    #[inline(always)]
    pub(super) fn bound(&self, index: usize) -> Circle {
        Circle::new(self.centers[index], self.radii[index])
    }
}

/// Whether `disc` lies clear of the bounding circle `bound` by more than rounding could take
/// back: the exact tests find the disc apart from whatever the bound holds. Their rounding
/// grows with the sizes and the coordinates.
#[inline(always)]
pub(super) fn clear_of_bound(disc: Circle, bound: Circle) -> bool {
    let coordinates = bound.center.abs().max_element() + disc.center.abs().max_element();
    let reach = past_rounding(disc.radius + bound.radius, coordinates);
    bound.center.distance_squared(disc.center) > reach * reach
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::geometry::{Circle, polygon_size};
    use crate::pipeline::placed::{NO_LINES, PlacedShape, clear_radius, conservative};
    use bevy::prelude::*;

    /// A collider for the quick looks' tests, and what they need of it.
    pub(crate) struct Collider {
        /// Its vertices, for a polygon; nothing pushed yet.
        pub(crate) placed: PlacedColliders,
        pub(crate) shape: WorldShape,
        pub(crate) center: Vec2,
        pub(crate) size: f32,
        /// How far it is turned: a corner or an end lies that way from the centre.
        pub(crate) turn: f32,
        /// Its bounding radius.
        pub(crate) radius: f32,
    }

    /// A collider of a random size (a tenth to a thousand), turned anyhow, near the origin or
    /// far from it, with a corner, an end or its rim on its bounding circle, where the quick
    /// looks are at their tightest: by `kind`, a regular polygon, a segment or a circle.
    pub(crate) fn on_its_bounding_circle(rng: &mut rand::rngs::StdRng, kind: usize) -> Collider {
        use core::f32::consts::TAU;
        use rand::RngExt;
        let size = 10f32.powf(rng.random_range(-1.0..3.0));
        let far = if rng.random_bool(0.5) { 10.0 } else { 1e5 };
        let center = Vec2::new(rng.random_range(-far..far), rng.random_range(-far..far));
        let turn = rng.random_range(0.0..TAU);
        let mut placed = PlacedColliders::default();
        let (shape, radius) = match kind {
            0 => {
                let corners = rng.random_range(3..9);
                placed.vertices.extend((0..corners).map(|i| {
                    center + Vec2::from_angle(turn + i as f32 * TAU / corners as f32) * size
                }));
                let shape = WorldShape::Polygon {
                    start: 0,
                    len: corners,
                    inner_radius: 0.0,
                    size: polygon_size(&placed.vertices),
                    lines: NO_LINES,
                    concave: false,
                };
                (shape, conservative(center, size))
            }
            1 => {
                let half = Vec2::from_angle(turn) * size;
                let segment = Segment::new(center - half, center + half);
                (WorldShape::Segment(segment), conservative(center, size))
            }
            _ => (WorldShape::Circle(Circle::new(center, size)), size),
        };
        Collider {
            placed,
            shape,
            center,
            size,
            turn,
            radius,
        }
    }

    /// A disc of a random size (a thousandth of the collider's to ten thousand times it), about
    /// `radius + disc` from the collider's centre, towards its corner or end (anywhere round a
    /// circle): within a part in a thousand of that reach, or within a few parts in a million.
    pub(crate) fn disc_at_reach(rng: &mut rand::rngs::StdRng, collider: &Collider) -> Circle {
        use rand::RngExt;
        let disc = collider.size * 10f32.powf(rng.random_range(-3.0..4.0));
        let side = match collider.shape {
            WorldShape::Circle(_) => {
                Vec2::from_angle(rng.random_range(0.0..core::f32::consts::TAU))
            }
            _ => Vec2::from_angle(collider.turn),
        };
        let jitter = if rng.random_bool(0.5) { 1e-3 } else { 4e-6 };
        let away = (collider.radius + disc) * (1.0 + rng.random_range(-jitter..jitter));
        Circle::new(collider.center + side * away, disc)
    }

    /// Whenever a disc is found deep inside a long, thin wall (turned, and placed far from the
    /// origin, where rounding is coarsest), the edges agree: the wall holds it. The discs
    /// graze the long edges, many to within a thousandth.
    #[test]
    fn a_disc_found_deep_inside_is_inside_by_the_edges_too() {
        use crate::geometry::{Containment, Intersection, intersect};
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(5);
        let mut found = 0;
        for round in 0..100_000 {
            // Every other round a wall up to 4,000 long by the origin, grazed to within two
            // ten-thousandths (where a margin grown with the inner radius alone let the quick
            // answer differ); the others, walls of every length near and far, grazed less.
            let (length, far, gap) = if round % 2 == 0 {
                (
                    rng.random_range(1000.0..4000.0),
                    1.0,
                    rng.random_range(0.0..2e-4),
                )
            } else {
                let far = if rng.random_bool(0.5) { 10.0 } else { 3e4 };
                (
                    rng.random_range(10.0..2000.0),
                    far,
                    rng.random_range(-1e-3..2e-2),
                )
            };
            let thickness = 1.0;
            let turn = Vec2::from_angle(rng.random_range(0.0..core::f32::consts::TAU));
            let center = Vec2::new(rng.random_range(-far..far), rng.random_range(-far..far));
            let local = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .map(|(x, y)| Vec2::new(x * length, y * thickness) / 2.0);
            let mut placed = PlacedColliders {
                vertices: local.iter().map(|&p| turn.rotate(p) + center).collect(),
                ..PlacedColliders::default()
            };
            let outer = conservative(center, local[0].length());
            let shape = WorldShape::Polygon {
                start: 0,
                len: 4,
                inner_radius: clear_radius(thickness / 2.0, center, outer),
                size: polygon_size(&placed.vertices),
                lines: NO_LINES,
                concave: false,
            };
            let entity = Entity::from_raw_u32(0).unwrap();
            placed.push(entity, None, Circle::new(center, outer), shape, Vec2::ZERO);
            // Across the wall from its centre, by up to its half thickness.
            let across = rng.random_range(-0.5..0.5) * thickness;
            let radius = thickness / 2.0 - across.abs() - gap;
            if radius <= 0.0 {
                continue;
            }
            let place = center + turn.rotate(Vec2::new(0.0, across));
            let disc = Circle::new(place, radius);
            placed.push(
                entity,
                None,
                Circle::new(place, radius),
                WorldShape::Circle(disc),
                Vec2::ZERO,
            );
            let PlacedShape::Polygon(polygon) = placed.placed_shape(0) else {
                panic!("a polygon");
            };
            if polygon.surely_holds(disc) {
                found += 1;
                assert_eq!(
                    intersect(placed.shape(0), placed.shape(1)),
                    Some(Intersection::contained(Containment::SecondInFirst)),
                    "{disc:?} in {:?}",
                    placed.vertices
                );
            }
        }
        assert!(found > 100, "{found} found deep inside");
    }

    /// Whenever a swept disc is found overlapping a still polygon at the start of its path by
    /// the quick look, the exact sweep agrees. Regular polygons and stars, small and large,
    /// near the origin and far from it; discs from a ten-thousandth of the polygon's size to
    /// ten thousand times it, placed from just inside the quick look's reach to just outside.
    #[test]
    fn a_disc_found_overlapping_at_the_start_overlaps_by_the_sweep_too() {
        use crate::geometry::sweep::{SweepStart, sweep_from_start};
        use crate::geometry::{edges, overlap};
        use core::f32::consts::TAU;
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(11);
        let (mut found, mut missed) = (0, 0);
        for _ in 0..100_000 {
            let sides = rng.random_range(3..12);
            let star = rng.random_bool(0.5);
            let size = 10f32.powf(rng.random_range(-1.0..3.0));
            let turn = rng.random_range(0.0..TAU);
            let far = if rng.random_bool(0.5) { 10.0 } else { 1e5 };
            let center = Vec2::new(rng.random_range(-far..far), rng.random_range(-far..far));
            let corners = if star { 2 * sides } else { sides };
            let local: Vec<Vec2> = (0..corners)
                .map(|i| {
                    let reach = if star && i % 2 == 1 { 0.4 } else { 1.0 };
                    Vec2::from_angle(turn + i as f32 * TAU / corners as f32) * reach * size
                })
                .collect();
            let inner = edges(&local)
                .map(|edge| edge.distance_squared_to(Vec2::ZERO))
                .fold(f32::INFINITY, f32::min)
                .sqrt();
            let outer = conservative(center, size);
            let mut placed = PlacedColliders {
                vertices: local.iter().map(|&p| p + center).collect(),
                ..PlacedColliders::default()
            };
            let shape = WorldShape::Polygon {
                start: 0,
                len: corners as u32,
                inner_radius: clear_radius(inner, center, outer),
                size: polygon_size(&placed.vertices),
                lines: NO_LINES,
                concave: false,
            };
            let entity = Entity::from_raw_u32(0).unwrap();
            placed.push(entity, None, Circle::new(center, outer), shape, Vec2::ZERO);
            // The disc's start lies about `inner + radius` from the centre, give or take a
            // hundredth of the inner radius.
            let radius = size * 10f32.powf(rng.random_range(-4.0..4.0));
            let away = inner + radius + inner * rng.random_range(-0.01..0.01);
            let start = center + Vec2::from_angle(rng.random_range(0.0..TAU)) * away;
            let motion = Vec2::from_angle(rng.random_range(0.0..TAU)) * size;
            let now = Circle::new(start + motion, radius);
            placed.push(
                entity,
                None,
                Circle::new(now.center, radius),
                WorldShape::Circle(now),
                motion,
            );
            if !placed.disc_path(1, 0).unwrap().overlapped_at_start() {
                missed += 1;
                continue;
            }
            found += 1;
            let mut scratch = Vec::new();
            let disc_start = placed.start_shape(1, &mut scratch);
            assert!(
                overlap(placed.shape(0), disc_start),
                "{disc_start:?} misses {:?}",
                placed.vertices
            );
            assert!(matches!(
                sweep_from_start(placed.shape(0), Vec2::ZERO, disc_start, motion),
                SweepStart::Overlapping
            ));
        }
        assert!(
            found > 10_000 && missed > 10_000,
            "{found} found, {missed} not"
        );
    }

    /// Whenever a swept disc is found clear of a still collider all along its path by the quick
    /// look, the exact sweep finds no touch and the shapes are apart now. Polygons, segments
    /// and circles, near the origin and far from it; discs of every size on paths up to ten
    /// thousand times the collider's size, passing from just inside the quick look's reach to just
    /// outside.
    #[test]
    fn a_disc_found_clear_along_its_path_meets_nothing_by_the_sweep_either() {
        use crate::geometry::intersect;
        use crate::geometry::sweep::{SweepStart, sweep_from_start};
        use core::f32::consts::TAU;
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(12);
        let (mut found, mut missed) = (0, 0);
        for round in 0..100_000 {
            let Collider {
                mut placed,
                shape,
                center,
                size,
                radius,
                ..
            } = on_its_bounding_circle(&mut rng, round % 3);
            let entity = Entity::from_raw_u32(0).unwrap();
            placed.push(entity, None, Circle::new(center, radius), shape, Vec2::ZERO);
            // A path passing the collider's centre about `radius + disc` away at its nearest.
            let disc = size * 10f32.powf(rng.random_range(-3.0..2.0));
            let side = Vec2::from_angle(rng.random_range(0.0..TAU));
            let away = (radius + disc) * (1.0 + rng.random_range(-1e-3..1e-3));
            // Paths up to ten thousand times the collider's size.
            let length = size * 10f32.powf(rng.random_range(-1.0..4.0));
            let along = rng.random_range(-1.5..0.5) * length;
            let start = center + side * away + side.perp() * along;
            let motion = side.perp() * length;
            let now = Circle::new(start + motion, disc);
            placed.push(
                entity,
                None,
                Circle::new(now.center, disc),
                WorldShape::Circle(now),
                motion,
            );
            if !placed.disc_path(1, 0).unwrap().apart_along_path() {
                missed += 1;
                continue;
            }
            found += 1;
            let mut scratch = Vec::new();
            let disc_start = placed.start_shape(1, &mut scratch);
            let collider = placed.shape(0);
            assert!(
                matches!(
                    sweep_from_start(collider, Vec2::ZERO, disc_start, motion),
                    SweepStart::Apart(None)
                ),
                "{disc_start:?} moving {motion} meets {collider:?}"
            );
            assert!(intersect(collider, placed.shape(1)).is_none());
        }
        assert!(
            found > 10_000 && missed > 10_000,
            "{found} found, {missed} not"
        );
    }

    /// Whenever a swept disc is found clear of a collider's bounding circle by the quick look,
    /// the exact test finds them apart where they are. Polygons with a corner on their bounding
    /// circle, segments with an end on it and circles, still or moved along a path (their
    /// bounding circles grown over it), near the origin and far from it; discs from a
    /// thousandth of the collider's size to ten thousand times it, from just inside the quick
    /// look's reach to just outside, some within a few parts in a million. A still circle is
    /// never found clear: the broad phase compared it already. Against a collider that did not
    /// move, the disc's [`DiscPath`] says the same.
    #[test]
    fn a_swept_disc_found_clear_of_a_bounding_circle_meets_nothing() {
        use crate::geometry::intersect;
        use core::f32::consts::TAU;
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(13);
        let (mut found, mut missed) = (0, 0);
        for round in 0..100_000 {
            let collider = on_its_bounding_circle(&mut rng, round % 3);
            let moved = if rng.random_bool(0.3) {
                let heading = Vec2::from_angle(rng.random_range(0.0..TAU));
                heading * collider.size * rng.random_range(0.0..3.0)
            } else {
                Vec2::ZERO
            };
            // Towards a corner, an end, or anywhere on a circle's rim; swept from wherever.
            let now = disc_at_reach(&mut rng, &collider);
            let Collider {
                mut placed,
                shape,
                center,
                size,
                radius,
                ..
            } = collider;
            let entity = Entity::from_raw_u32(0).unwrap();
            // Moved in some rounds: its bounding circle grown over its path as it is pushed.
            placed.push(entity, None, Circle::new(center, radius), shape, moved);
            let motion = Vec2::from_angle(rng.random_range(0.0..TAU)) * size;
            // Its bounding circle grown over its path as it is pushed.
            placed.push(entity, None, now, WorldShape::Circle(now), motion);
            // The collider is a circle only in every third round; clear of the disc's bounding
            // circle (its whole path), it is clear of the disc.
            let collider_clear = placed.clear_now(0, 1);
            assert!(round % 3 == 2 || !collider_clear, "not a circle");
            if collider_clear {
                assert!(intersect(placed.shape(0), placed.shape(1)).is_none());
            }
            let clear = placed.clear_now(1, 0);
            if let Some(path) = placed.disc_path(1, 0) {
                // The collider did not move: the path's look says the same.
                assert_eq!(path.clear_now(), clear);
            }
            if !clear {
                missed += 1;
                continue;
            }
            found += 1;
            let collider = placed.shape(0);
            assert!(
                intersect(collider, placed.shape(1)).is_none(),
                "{now:?} meets {collider:?}"
            );
        }
        assert!(
            found > 5_000 && missed > 10_000,
            "{found} found, {missed} not"
        );
        // A still circle's slot: never clear, whatever its place.
        let mut placed = PlacedColliders::default();
        let (mut still, _) = placed.circle_slots(1, 0);
        let far_disc = Circle::new(Vec2::splat(1e4), 1.0);
        still.write(0, &[Entity::from_raw_u32(1).unwrap()], None, &[far_disc]);
        let square = [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y];
        placed.vertices.extend(square);
        let shape = WorldShape::Polygon {
            start: 0,
            len: 4,
            inner_radius: 0.0,
            size: polygon_size(&square),
            lines: NO_LINES,
            concave: false,
        };
        let bound = Circle::new(Vec2::splat(0.5), conservative(Vec2::splat(0.5), 0.75));
        placed.push(
            Entity::from_raw_u32(2).unwrap(),
            None,
            bound,
            shape,
            Vec2::ZERO,
        );
        assert!(!placed.clear_now(0, 1), "a still circle");
    }
}
