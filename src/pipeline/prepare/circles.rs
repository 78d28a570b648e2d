//! The circles, the bulk of a bullet hell: read table by table (each component's column as a
//! slice) and written in place, the still ones and then the swept ones, a block at a time;
//! split across the task pool when there are enough of them.

use super::circle_table::CircleTable;
use super::placement::{Placement, SkipWarnings, Skipped, too_small};
use super::queries::CircleColliders;
use crate::collider::CircleCollider;
use crate::geometry::{Circle, MAX_COORDINATE, MIN_SIZE};
use crate::layers::CollisionLayers;
use crate::pipeline::parallel::ParallelSplit;
use crate::pipeline::placed::{CircleSlots, PlacedColliders, SweptSlots, WorldShape};
use crate::settings::CollisionSettings;
use crate::swept::Swept;
use bevy::ecs::change_detection::ContiguousMut;
use bevy::prelude::*;
use core::ops::Range;

/// Writes every circle into the first slots of `placed`, table by table (a tight loop over
/// each table's columns): the still ones (of tables without [`Swept`]), then the swept ones,
/// split across the task pool when there are enough of them (see [`ParallelSplit`]): each
/// piece of a table fills its own slots. Warns of the circles left out.
pub(super) fn place_circles(
    placed: &mut PlacedColliders,
    circles: &mut CircleColliders,
    settings: &CollisionSettings,
    warnings: &mut SkipWarnings,
) {
    let Ok(tables) = circles.contiguous_iter_mut() else {
        // Every component of the query is stored in tables, so this cannot happen.
        placed.circle_slots(0, 0);
        place_circles_one_by_one(placed, circles, warnings);
        return;
    };
    let tables = tables.map(
        |(entities, circles, transforms, layers, swept)| CircleTable {
            entities,
            circles,
            transforms,
            layers,
            // The start is the plugin's own bookkeeping: no change for users to see.
            swept: swept.map(|swept| ContiguousMut::bypass_change_detection_split(swept).0),
        },
    );
    let (swept_tables, still_tables): (Vec<CircleTable>, Vec<CircleTable>) =
        tables.partition(|table| table.swept.is_some());
    let rows = |tables: &[CircleTable]| tables.iter().map(CircleTable::len).sum();
    let (still, swept) = (rows(&still_tables), rows(&swept_tables));
    let (mut still_slots, mut swept_slots) = placed.circle_slots(still, swept);
    let mut skipped = Vec::new();
    match ParallelSplit::of(still + swept, settings) {
        None => {
            fill_tables(still_tables, &mut still_slots, &mut skipped);
            fill_tables(swept_tables, &mut swept_slots, &mut skipped);
        }
        Some(split) => {
            let size = split.piece_size;
            let mut pieces = cut(still_tables, still_slots, size, Piece::Still);
            pieces.extend(cut(swept_tables, swept_slots, size, Piece::Swept));
            skipped = split
                .work_through(pieces, |piece, _| {
                    let mut skipped = Vec::new();
                    match piece {
                        Piece::Still(mut part, mut slots) => {
                            fill_slots(&mut part, &mut slots, 0, &mut skipped);
                        }
                        Piece::Swept(mut part, mut slots) => {
                            fill_slots(&mut part, &mut slots, 0, &mut skipped);
                        }
                    }
                    skipped
                })
                .concat();
        }
    }
    if !skipped.is_empty() {
        placed.drop_placeholders();
    }
    for (entity, why) in skipped {
        warnings.skip(entity, why);
    }
}

/// Part of a table of circles, and the slots it fills.
enum Piece<'w, 'b> {
    Still(CircleTable<'w>, CircleSlots<'b>),
    Swept(CircleTable<'w>, SweptSlots<'b>),
}

/// Writes the circles of `tables`, in order, into `slots` (one per circle), listing those it
/// leaves out in `skipped` (see [`fill_slots`]).
fn fill_tables<S: TableSlots>(
    tables: Vec<CircleTable>,
    slots: &mut S,
    skipped: &mut Vec<(Entity, Skipped)>,
) {
    let mut first = 0;
    for mut table in tables {
        fill_slots(&mut table, slots, first, skipped);
        first += table.len();
    }
}

/// Cuts `tables` (their circles in order, one slot each in `slots`) into pieces of at most
/// `piece_size` rows of one table, each with its slots, made into a [`Piece`] by `piece`.
fn cut<'w, 'b, S: TableSlots>(
    tables: Vec<CircleTable<'w>>,
    slots: S,
    piece_size: usize,
    piece: fn(CircleTable<'w>, S) -> Piece<'w, 'b>,
) -> Vec<Piece<'w, 'b>> {
    let mut rest = slots;
    let mut pieces = Vec::new();
    for mut table in tables {
        while table.len() > 0 {
            let rows = piece_size.min(table.len());
            let (part, after) = table.split_at(rows);
            table = after;
            let (slots, after) = rest.split_at(part.len());
            rest = after;
            pieces.push(piece(part, slots));
        }
    }
    pieces
}

/// Slots that a table of circles is written into, by [`fill_slots`]: the still circles'
/// ([`CircleSlots`]) or the swept ones' ([`SweptSlots`]).
trait TableSlots: Sized {
    /// Splits off the first `at` slots.
    fn split_at(self, at: usize) -> (Self, Self);

    /// Where to write the discs of `slots`.
    fn discs_mut(&mut self, slots: Range<usize>) -> (&mut [Vec2], &mut [f32]);

    /// Finishes the slots from `first` on, whose discs were written, with rows `rows` of
    /// `table`.
    fn finish_block(&mut self, first: usize, table: &mut CircleTable, rows: Range<usize>);

    /// Writes row `row` of `table` into slot `index`: its disc.
    fn write_row(&mut self, index: usize, table: &mut CircleTable, row: usize, disc: Circle);

    /// Marks slot `index` a placeholder.
    fn skip(&mut self, index: usize);
}

impl TableSlots for CircleSlots<'_> {
    fn split_at(self, at: usize) -> (Self, Self) {
        CircleSlots::split_at(self, at)
    }

    fn discs_mut(&mut self, slots: Range<usize>) -> (&mut [Vec2], &mut [f32]) {
        self.bounds_mut(slots)
    }

    /// A still circle's disc is its own bounding circle: only its entity and layers are left.
    fn finish_block(&mut self, first: usize, table: &mut CircleTable, rows: Range<usize>) {
        let layers = table.layers.map(|layers| &layers[rows.clone()]);
        self.write_entities(first, &table.entities[rows], layers);
    }

    fn write_row(&mut self, index: usize, table: &mut CircleTable, row: usize, disc: Circle) {
        let layers = table.layers.map(|layers| &layers[row..=row]);
        self.write(index, &table.entities[row..=row], layers, &[disc]);
    }

    fn skip(&mut self, index: usize) {
        CircleSlots::skip(self, index);
    }
}

impl TableSlots for SweptSlots<'_> {
    fn split_at(self, at: usize) -> (Self, Self) {
        SweptSlots::split_at(self, at)
    }

    fn discs_mut(&mut self, slots: Range<usize>) -> (&mut [Vec2], &mut [f32]) {
        SweptSlots::discs_mut(self, slots)
    }

    /// How far each swept circle moved (its start remembered for the next path), then its
    /// shape, its bound grown over its path, its entity and layers
    /// ([`SweptSlots::finish_block`]).
    fn finish_block(&mut self, first: usize, table: &mut CircleTable, rows: Range<usize>) {
        let transforms = &table.transforms[rows.clone()];
        let layers = table.layers.map(|layers| &layers[rows.clone()]);
        let entities = &table.entities[rows.clone()];
        match table.swept.as_deref_mut() {
            Some(swept) => {
                // Each motion read, and the next start written, as its slot is finished.
                let paths = swept[rows].iter_mut().zip(transforms);
                let motions = paths.map(|(swept, transform)| {
                    let translation = transform.translation().xy();
                    let motion = swept.motion_to(translation);
                    swept.set_start(translation);
                    motion
                });
                SweptSlots::finish_block(self, first, entities, layers, motions);
            }
            None => {
                let motions = core::iter::repeat_n(Vec2::ZERO, entities.len());
                SweptSlots::finish_block(self, first, entities, layers, motions);
            }
        }
    }

    fn write_row(&mut self, index: usize, table: &mut CircleTable, row: usize, disc: Circle) {
        let motion = table.travel(row);
        let layers = table.layers.map(|layers| &layers[row]);
        self.write(index, table.entities[row], layers, disc, motion);
    }

    fn skip(&mut self, index: usize) {
        SweptSlots::skip(self, index);
    }
}

/// Places every circle one by one: for a query that cannot be read table by table.
fn place_circles_one_by_one(
    placed: &mut PlacedColliders,
    circles: &mut CircleColliders,
    warnings: &mut SkipWarnings,
) {
    circles
        .iter_mut()
        .for_each(|(entity, circle, transform, layers, mut swept)| {
            let swept = swept.as_mut().map(Mut::bypass_change_detection);
            let circle = (entity, circle, transform, layers, swept);
            push_circle(placed, warnings, circle);
        });
}

/// Appends one circle after the rest, or warns why it cannot be placed; remembers where a
/// swept one is, for its next path.
#[inline]
fn push_circle(
    placed: &mut PlacedColliders,
    warnings: &mut SkipWarnings,
    (entity, circle, transform, layers, swept): (
        Entity,
        &CircleCollider,
        &GlobalTransform,
        Option<&CollisionLayers>,
        Option<&mut Swept>,
    ),
) {
    match place_circle(circle, transform) {
        Ok((disc, placement)) => {
            let shape = WorldShape::Circle(disc);
            let motion = placement.motion(swept.as_deref());
            placed.push(entity, layers, disc, shape, motion);
        }
        Err(why) => {
            warnings.skip(entity, why);
        }
    }
    if let Some(swept) = swept {
        swept.set_start(transform.translation().xy());
    }
}

/// How many circles [`fill_slots`] places at a time: a block's discs are checked while they
/// are still in the first-level cache.
const BLOCK: usize = SweptSlots::MAX_BLOCK;

/// Writes a table of circles into `slots` from `first` on, a block at a time: the discs of a
/// block straight into their slots, then checked all at once ([`usual_discs`]), then the rest
/// of the block ([`TableSlots::finish_block`]), each array in one pass. A block holding a
/// circle that is not usable is placed one by one: each circle left out is marked a
/// placeholder and listed in `skipped`, with why.
fn fill_slots<S: TableSlots>(
    table: &mut CircleTable,
    slots: &mut S,
    first: usize,
    skipped: &mut Vec<(Entity, Skipped)>,
) {
    for start in (0..table.len()).step_by(BLOCK) {
        let rows = start..table.len().min(start + BLOCK);
        let (centers, radii) = slots.discs_mut(first + rows.start..first + rows.end);
        if usual_discs(
            &table.circles[rows.clone()],
            &table.transforms[rows.clone()],
            centers,
            radii,
        ) {
            slots.finish_block(first + start, table, rows);
            continue;
        }
        for row in rows {
            match place_circle(&table.circles[row], &table.transforms[row]) {
                Ok((disc, _)) => slots.write_row(first + row, table, row, disc),
                Err(why) => {
                    // Remembered all the same: usable again, it sweeps only its last move.
                    table.remember_start(row);
                    slots.skip(first + row);
                    skipped.push((table.entities[row], why));
                }
            }
        }
    }
}

/// Writes the world discs of a block of circles into `centers` and `radii` (as long as the
/// block), each as [`place_circle`] places it ([`Placement::disc`]) but without its checks one
/// by one: returns whether every disc is usable, which is exactly when [`place_circle`] would
/// place each of them. When one is not (a transform not finite or zero on an axis, a disc out
/// of range or too small), [`place_circle`] decides each of the block's circles, and says why.
///
/// Two passes: the discs, then their checks, in a loop over the block's centres and radii that
/// the compiler vectorises.
#[inline(always)]
fn usual_discs(
    circles: &[CircleCollider],
    transforms: &[GlobalTransform],
    centers: &mut [Vec2],
    radii: &mut [f32],
) -> bool {
    let mut axes_usable = true;
    let discs = centers.iter_mut().zip(radii.iter_mut());
    for (((center, radius), circle), transform) in discs.zip(circles).zip(transforms) {
        // Most bullets are neither turned nor scaled: their disc is only moved.
        if let Some(translation) = Placement::unturned(transform) {
            (*center, *radius) = (translation + circle.offset(), circle.radius());
            continue;
        }
        let placement = Placement::unchecked(transform);
        // Non-finite axes or translation make the centre or the radius NaN or infinite, which
        // fail the checks below. `&` rather than `&&`: no branch.
        axes_usable &= !placement.flattens();
        Circle {
            center: *center,
            radius: *radius,
        } = placement.disc(circle);
    }
    let discs_usable = centers
        .iter()
        .zip(radii.iter())
        .fold(true, |usable, (&center, &radius)| {
            usable
                & (center.x.abs() <= MAX_COORDINATE)
                & (center.y.abs() <= MAX_COORDINATE)
                & (radius <= MAX_COORDINATE)
                & ((radius >= MIN_SIZE) | (radius == 0.0))
        });
    axes_usable & discs_usable
}

/// A circle's world disc, and where its transform places it, or why it cannot be placed.
#[inline(always)]
fn place_circle(
    circle: &CircleCollider,
    transform: &GlobalTransform,
) -> Result<(Circle, Placement), Skipped> {
    let placement = Placement::of(transform)?;
    let world = placement.disc(circle);
    // A radius or offset edited out of range, or a scale or place beyond it, makes the world
    // disc invalid: the check costs nothing more for the bulk, which pass.
    if world.is_valid() && !too_small(world.radius) {
        return Ok((world, placement));
    }
    Err(circle.validate().map_or_else(Skipped::Invalid, |()| {
        if too_small(world.radius) {
            Skipped::TooSmall
        } else {
            Skipped::OutOfRange
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::LayerMask;

    #[test]
    fn swept_circles_in_slots_are_placed_as_one_by_one() {
        // Three blocks of swept circles: the second holds one that cannot be placed (so the
        // block is placed circle by circle), the others are placed as blocks. They fill slots
        // from the third on, after two written by hand.
        let rows = 2 * BLOCK + 88;
        let (unplaceable, turned) = (BLOCK + 44, 7);
        let entities: Vec<Entity> = (0..rows as u32)
            .map(|index| Entity::from_raw_u32(index + 1).unwrap())
            .collect();
        let circles: Vec<CircleCollider> = (0..rows)
            .map(|row| CircleCollider::new(1.0 + (row % 5) as f32))
            .collect();
        let transforms: Vec<GlobalTransform> = (0..rows)
            .map(|row| {
                let mut translation = Vec3::new(row as f32 * 3.0, (row % 17) as f32, 0.0);
                if row == unplaceable {
                    translation.x = f32::NAN;
                }
                let turn = Quat::from_rotation_z(if row == turned { 0.5 } else { 0.0 });
                GlobalTransform::from(Transform::from_translation(translation).with_rotation(turn))
            })
            .collect();
        let layers: Vec<CollisionLayers> = (0..rows)
            .map(|row| CollisionLayers::new(LayerMask((row % 3) as u32), LayerMask::ALL))
            .collect();
        let swept: Vec<Swept> = (0..rows)
            .map(|row| {
                let mut swept = Swept::default();
                // Every third has no start yet (no motion); the others moved a little.
                if row % 3 != 0 {
                    let now = transforms[row].translation().truncate();
                    swept.set_start(now - Vec2::new(4.0, (row % 7) as f32 - 3.0));
                }
                swept
            })
            .collect();
        // Filling the slots moves each start to where the circle is now.
        let mut filled_swept = swept.clone();
        let mut table = CircleTable {
            entities: &entities,
            circles: &circles,
            transforms: &transforms,
            layers: Some(&layers),
            swept: Some(&mut filled_swept),
        };
        let by_hand = |index: usize| Entity::from_raw_u32(1000 + index as u32).unwrap();
        let disc = Circle::new(Vec2::new(-50.0, 0.0), 2.0);
        let mut slotted = PlacedColliders::default();
        let (_, mut slots) = slotted.circle_slots(0, 2 + rows);
        for index in 0..2 {
            slots.write(index, by_hand(index), None, disc, Vec2::Y);
        }
        // The first block needs no circle-by-circle check: it takes the block path.
        let mut discs = (vec![Vec2::ZERO; BLOCK], vec![0.0; BLOCK]);
        let first_block = (&circles[..BLOCK], &transforms[..BLOCK]);
        assert!(usual_discs(
            first_block.0,
            first_block.1,
            &mut discs.0,
            &mut discs.1
        ));
        let mut skipped = Vec::new();
        fill_slots(&mut table, &mut slots, 2, &mut skipped);
        slotted.drop_placeholders();
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].0, entities[unplaceable]);
        let mut pushed = PlacedColliders::default();
        pushed.circle_slots(0, 0);
        for index in 0..2 {
            let shape = WorldShape::Circle(disc);
            pushed.push(by_hand(index), None, disc, shape, Vec2::Y);
        }
        let mut warnings = SkipWarnings::default();
        let mut pushed_swept = swept.clone();
        for row in 0..rows {
            let circle = (
                entities[row],
                &circles[row],
                &transforms[row],
                Some(&layers[row]),
                Some(&mut pushed_swept[row]),
            );
            push_circle(&mut pushed, &mut warnings, circle);
        }
        slotted.assert_same_as(&pushed);
        assert!(slotted.motion(2 + 1) != Vec2::ZERO, "the circles moved");
        // Every start, the skipped circle's too, is where its circle is now (a NaN translation
        // is out of range: no start), one by one as in blocks.
        for row in 0..rows {
            let now = transforms[row].translation().truncate();
            let expected = (row != unplaceable).then_some(now);
            assert_eq!(filled_swept[row].start(), expected, "row {row}");
            assert_eq!(pushed_swept[row].start(), expected, "row {row}");
        }
    }

    /// The block path agrees with the one-by-one path: "usable" exactly for the circles that
    /// [`place_circle`] places, and the same discs.
    #[test]
    fn usual_discs_agree_with_place_circle() {
        let turned = |angle: f32, scale: Vec3, at: Vec3| {
            GlobalTransform::from(
                Transform::from_translation(at)
                    .with_rotation(Quat::from_rotation_z(angle))
                    .with_scale(scale),
            )
        };
        let transforms = [
            GlobalTransform::from_xyz(3.0, -4.0, 0.0),
            turned(0.7, Vec3::new(2.0, 0.5, 1.0), Vec3::new(1e6, 2.0, 5.0)),
            turned(-2.0, Vec3::splat(1e-3), Vec3::ZERO),
            GlobalTransform::from_xyz(f32::NAN, 0.0, 0.0),
            GlobalTransform::from_xyz(f32::INFINITY, 0.0, 0.0),
            GlobalTransform::from_scale(Vec3::new(0.0, 1.0, 1.0)),
            GlobalTransform::from_scale(Vec3::new(f32::INFINITY, 1.0, 1.0)),
            GlobalTransform::from_scale(Vec3::splat(1e-30)),
            GlobalTransform::from_scale(Vec3::splat(1e20)),
            GlobalTransform::from_xyz(2e18, 0.0, 0.0),
        ];
        let circles = [
            CircleCollider::new(4.0),
            CircleCollider::new(0.0),
            CircleCollider::new(1.5).with_offset(Vec2::new(-2.0, 7.0)),
        ];
        let (mut centers, mut radii) = (vec![Vec2::ZERO; 3], vec![0.0; 3]);
        let mut block = |circles: &[CircleCollider], transforms: &[GlobalTransform]| {
            let len = circles.len();
            let usable = usual_discs(circles, transforms, &mut centers[..len], &mut radii[..len]);
            let discs: Vec<Circle> = (0..len)
                .map(|i| Circle::new(centers[i], radii[i]))
                .collect();
            (usable, discs)
        };
        for transform in transforms {
            for circle in circles.clone() {
                let (usable, discs) = block(core::slice::from_ref(&circle), &[transform]);
                match place_circle(&circle, &transform) {
                    Ok((disc, _)) => {
                        assert!(usable, "{circle:?} at {transform:?}");
                        assert_eq!(discs, [disc]);
                    }
                    Err(why) => assert!(!usable, "{circle:?} at {transform:?}: {why}"),
                }
            }
        }
        // One refused circle in a block sends the whole block the slow way.
        let block_transforms = [transforms[0], transforms[3], transforms[1]];
        let (first, offset) = (circles[0].clone(), circles[2].clone());
        let firsts = [first.clone(), first.clone(), first];
        assert!(!block(&firsts, &block_transforms).0);
        let (usable, discs) = block(&[offset.clone(), offset.clone()], &transforms[..2]);
        assert!(usable);
        for (disc, transform) in discs.iter().zip(&transforms[..2]) {
            assert_eq!(
                Ok(*disc),
                place_circle(&offset, transform).map(|(disc, _)| disc)
            );
        }
    }
}
