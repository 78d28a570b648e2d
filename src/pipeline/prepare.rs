//! Stage 1, prepare: every enabled collider's world-space shape and bounding circle.
//!
//! Reads each collider with its [`GlobalTransform`] (so it runs after transform propagation)
//! and writes [`Bodies`], the flat arrays the broad and narrow phases work on. A collider whose
//! transform is not finite, whose scale is zero on an axis, or whose world shape falls outside
//! the range the geometry resolves (beyond `MAX_COORDINATE`, or smaller than `MIN_SIZE` but not
//! a point), is skipped with one warning (the next one only after it has been usable again),
//! and so is an entity's second collider kind:
//! an entity has at most one collider.
//!
//! Circles, the bulk of a bullet hell, are read table by table (each component's column as a
//! slice), and written first, in place, the still ones (not [`Swept`]) and then the swept
//! ones, a block at a time: their discs straight into their slots, then checked all at once
//! (the bulk need no check one by one), then the rest of each slot, each array in one tight
//! pass; split across the task pool when there are enough of them. What it writes per still
//! bullet is kept to its entity, layers and bounding circle.

use super::bodies::{Bodies, CircleSlots, SweptSlots, WorldShape, clear_radius, conservative};
use super::parallel::ParallelSplit;
use super::spatial_index::SpatialIndex;
use crate::collider::{CircleCollider, ColliderError, PolygonCollider, SegmentCollider};
use crate::geometry::{Circle, MAX_COORDINATE, MIN_SIZE, Segment, all_in_range};
use crate::layers::{ColliderDisabled, CollisionLayers};
use crate::settings::CollisionSettings;
use crate::swept::Swept;
use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;
use core::fmt;
use core::ops::Range;

/// The x and y axes and translation of a [`GlobalTransform`]: how local points reach the world.
#[derive(Clone, Copy)]
struct Placement {
    x_axis: Vec2,
    y_axis: Vec2,
    translation: Vec2,
    /// The most the transform stretches any direction (its largest singular value): what a
    /// circle's radius and a bounding circle are scaled by.
    scale: f32,
}

/// The most the linear map with columns `x_axis` and `y_axis` stretches any vector: its
/// largest singular value, the square root of the larger eigenvalue of `MᵀM`. Under rotation
/// and scale along the axes it is the larger axis length; under shear (a child of a
/// non-uniformly scaled, rotated parent) or a 3D tilt it can exceed both, and bounding circles
/// scaled by less would miss parts of their shapes.
#[inline]
fn stretch(x_axis: Vec2, y_axis: Vec2) -> f32 {
    // Most colliders (bullets) are neither turned, scaled nor sheared: one comparison for them.
    let axes = Vec4::new(x_axis.x, x_axis.y, y_axis.x, y_axis.y);
    if axes.cmpeq(Vec4::new(1.0, 0.0, 0.0, 1.0)).all() {
        return 1.0;
    }
    let (xx, xy, yy) = (x_axis.dot(x_axis), x_axis.dot(y_axis), y_axis.dot(y_axis));
    // The eigenvalues of [[xx, xy], [xy, yy]] are `mean ± √(half_gap² + xy²)`; the sum of
    // squares is taken in `f64`, where it cannot overflow, rather than through a call to `hypot`.
    let mean = 0.5 * (xx + yy);
    let half_gap = 0.5 * (xx - yy);
    let spread = (f64::from(half_gap).powi(2) + f64::from(xy).powi(2)).sqrt() as f32;
    (mean + spread).sqrt()
}

/// The least the linear map with columns `x_axis` and `y_axis` stretches any vector: its
/// smallest singular value, `|det| / σ_max` (the two multiply to the determinant), taken
/// from [`stretch`]. What a distance in local space is at least in the world.
#[inline]
fn least_stretch(x_axis: Vec2, y_axis: Vec2, stretch: f32) -> f32 {
    let determinant =
        f64::from(x_axis.x) * f64::from(y_axis.y) - f64::from(x_axis.y) * f64::from(y_axis.x);
    (determinant.abs() / f64::from(stretch)) as f32
}

/// Why a collider was left out this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Skipped {
    NonFiniteTransform,
    ZeroScale,
    /// Its world size or place is beyond [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE)
    /// (a huge scale).
    OutOfRange,
    /// Its world size is above zero but below [`MIN_SIZE`] (a tiny scale).
    TooSmall,
    SecondCollider,
    /// Its fields were edited into values its constructor refuses.
    Invalid(ColliderError),
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFiniteTransform => f.write_str("its GlobalTransform is not finite"),
            Self::ZeroScale => f.write_str("its scale is zero on an axis"),
            Self::OutOfRange => f.write_str(
                "its world size or position is beyond the supported range (MAX_COORDINATE)",
            ),
            Self::TooSmall => f.write_str(
                "its world size is below the smallest the tests resolve (MIN_SIZE, 1e-18)",
            ),
            Self::SecondCollider => f.write_str(
                "it has more than one collider kind (only the polygon, else the segment, is used)",
            ),
            Self::Invalid(error) => write!(f, "it was edited into an invalid shape: {error}"),
        }
    }
}

impl Placement {
    #[inline(always)]
    fn of(transform: &GlobalTransform) -> Result<Self, Skipped> {
        let placement = Self::unchecked(transform);
        let Self {
            x_axis,
            y_axis,
            translation,
            ..
        } = placement;
        if !(x_axis.is_finite() && y_axis.is_finite() && translation.is_finite()) {
            return Err(Skipped::NonFiniteTransform);
        }
        if placement.zero_on_an_axis() {
            return Err(Skipped::ZeroScale);
        }
        // A scale or translation beyond the supported range shows in the world shape, which
        // each kind checks (`Circle::is_valid`, `Segment::is_valid`).
        Ok(placement)
    }

    /// The placement, whether or not the transform is usable.
    #[inline(always)]
    fn unchecked(transform: &GlobalTransform) -> Self {
        let affine = transform.affine();
        let (x_axis, y_axis) = (affine.matrix3.x_axis.xy(), affine.matrix3.y_axis.xy());
        Self {
            x_axis,
            y_axis,
            translation: affine.translation.xy(),
            scale: stretch(x_axis, y_axis),
        }
    }

    /// Whether an axis is zero (the transform flattens everything onto a line or a point):
    /// its four coordinates compared at once, without a branch.
    #[inline(always)]
    fn zero_on_an_axis(&self) -> bool {
        let (x_axis, y_axis) = (self.x_axis, self.y_axis);
        let nonzero = Vec4::new(x_axis.x, x_axis.y, y_axis.x, y_axis.y)
            .cmpne(Vec4::ZERO)
            .bitmask();
        (nonzero & 0b0011 == 0) | (nonzero & 0b1100 == 0)
    }

    /// Where it places `circle`.
    #[inline(always)]
    fn disc(&self, circle: &CircleCollider) -> Circle {
        Circle::new(self.apply(circle.offset()), circle.radius() * self.scale)
    }

    #[inline]
    fn apply(&self, point: Vec2) -> Vec2 {
        self.x_axis * point.x + self.y_axis * point.y + self.translation
    }

    /// How far a collider moved along its swept path to this placement: zero unless swept.
    #[inline]
    fn motion(&self, swept: Option<&Swept>) -> Vec2 {
        swept.map_or(Vec2::ZERO, |swept| swept.motion_to(self.translation))
    }
}

/// Whether a world size is above zero but below [`MIN_SIZE`]: a shape too small for the tests.
#[inline]
fn too_small(size: f32) -> bool {
    size > 0.0 && size < MIN_SIZE
}

/// The query every collider kind is read with: `C` is how the collider is read.
type Colliders<'w, 's, C, F = ()> = Query<
    'w,
    's,
    (
        Entity,
        C,
        &'static GlobalTransform,
        Option<&'static CollisionLayers>,
        Option<&'static Swept>,
    ),
    (Without<ColliderDisabled>, F),
>;

/// The polygons, written to only when an edit in place must be validated again.
type PolygonColliders<'w, 's> = Colliders<'w, 's, &'static mut PolygonCollider>;

/// The segments: those of entities without a polygon (which takes precedence).
type SegmentColliders<'w, 's> =
    Colliders<'w, 's, &'static SegmentCollider, Without<PolygonCollider>>;

/// The circles: those of entities without a polygon or segment (which take precedence).
type CircleColliders<'w, 's> = Colliders<
    'w,
    's,
    &'static CircleCollider,
    (Without<SegmentCollider>, Without<PolygonCollider>),
>;

/// Entities with more than one collider kind: all but the first (polygon, then segment, then
/// circle) are skipped.
type SecondColliders<'w, 's> = Query<
    'w,
    's,
    Entity,
    (
        Or<(
            (With<CircleCollider>, With<SegmentCollider>),
            (With<CircleCollider>, With<PolygonCollider>),
            (With<SegmentCollider>, With<PolygonCollider>),
        )>,
        Without<ColliderDisabled>,
    ),
>;

/// Entities warned about: those skipped last frame, and this frame's so far. An entity is
/// warned about when it is first skipped, and again only after a frame in which it was not.
#[derive(Default)]
pub(crate) struct SkipWarnings {
    last_frame: EntityHashSet,
    this_frame: EntityHashSet,
}

impl SkipWarnings {
    /// Notes that `entity` is skipped this frame, and logs a warning unless it was skipped last
    /// frame too. Returns whether it warned.
    fn skip(&mut self, entity: Entity, why: Skipped) -> bool {
        let warn = self.this_frame.insert(entity) && !self.last_frame.contains(&entity);
        if warn {
            warn!("collider {entity} skipped: {why}");
        }
        warn
    }

    fn end_frame(&mut self) {
        core::mem::swap(&mut self.last_frame, &mut self.this_frame);
        self.this_frame.clear();
    }
}

/// Writes every enabled collider's world shape and bounding circle into [`Bodies`].
#[inline(never)]
pub(crate) fn prepare_bodies(
    // The spatial index is of the bodies: rewritten, it is forgotten with them.
    (mut bodies, mut index): (ResMut<Bodies>, ResMut<SpatialIndex>),
    settings: Res<CollisionSettings>,
    mut warnings: Local<SkipWarnings>,
    mut polygons: PolygonColliders,
    segments: SegmentColliders,
    circles: CircleColliders,
    second_colliders: SecondColliders,
) {
    let bodies = &mut *bodies;
    index.reset();
    for entity in &second_colliders {
        warnings.skip(entity, Skipped::SecondCollider);
    }
    // The circles first, in place (the still ones, then the swept ones); then everything
    // placed one by one.
    place_circles(bodies, &circles, &settings, &mut warnings);
    bodies.reserve(polygons.iter().len() + segments.iter().len());
    place_polygons(bodies, &mut polygons, &mut warnings);
    place_segments(bodies, &segments, &mut warnings);
    warnings.end_frame();
}

/// Remembers where each swept collider is, for its next path: runs right after
/// [`prepare_bodies`] has read the paths' starts. Disabled and skipped colliders are
/// remembered too, so that a collider switched back on sweeps only its last move.
#[inline(never)]
pub(crate) fn remember_path_starts(mut swept: Query<(&mut Swept, &GlobalTransform)>) {
    // The start is the plugin's own bookkeeping: no change for users to see.
    swept.par_iter_mut().for_each(|(mut swept, transform)| {
        swept
            .bypass_change_detection()
            .set_start(transform.translation().truncate());
    });
}

/// Appends every polygon, its vertices to [`Bodies::vertices`].
fn place_polygons(
    bodies: &mut Bodies,
    polygons: &mut PolygonColliders,
    warnings: &mut SkipWarnings,
) {
    // `for_each` rather than `for`: Bevy's internal iteration is the faster path.
    polygons
        .iter_mut()
        .for_each(|(entity, mut polygon, transform, layers, swept)| {
            // Validated again if its vertices changed since they were checked (an edit through
            // reflection skips the constructor), whenever that was, even while it was switched
            // off: `O(n)` when nothing changed. Without marking it changed: the check keeps the
            // vertices as they were, or drops repeated ones.
            let polygon = polygon.bypass_change_detection();
            if let Err(why) = place_polygon(bodies, entity, polygon, transform, layers, swept) {
                warnings.skip(entity, why);
            }
        });
}

/// Appends one polygon, or says why it cannot be placed.
fn place_polygon(
    bodies: &mut Bodies,
    entity: Entity,
    polygon: &mut PolygonCollider,
    transform: &GlobalTransform,
    layers: Option<&CollisionLayers>,
    swept: Option<&Swept>,
) -> Result<(), Skipped> {
    let local = polygon.revalidate().map_err(Skipped::Invalid)?;
    let placement = Placement::of(transform)?;
    let center = placement.apply(local.outer.center);
    let bounds = (
        center,
        conservative(center, local.outer.radius() * placement.scale),
    );
    // The bound holds every vertex: within range, so are they.
    if !Circle::new(bounds.0, bounds.1).is_valid() {
        return Err(Skipped::OutOfRange);
    }
    // Twice the bounding radius is at least the bounding box's larger side, which is what the
    // constructor measures: a polygon it accepts is not skipped unscaled.
    if too_small(2.0 * bounds.1) {
        return Err(Skipped::TooSmall);
    }
    let start = bodies.vertices.len() as u32;
    let vertices = polygon.vertices();
    bodies
        .vertices
        .extend(vertices.iter().map(|&v| placement.apply(v)));
    let least_stretch = least_stretch(placement.x_axis, placement.y_axis, placement.scale);
    let shape = WorldShape::Polygon {
        start,
        len: vertices.len() as u32,
        inner_radius: clear_radius(local.inner_radius * least_stretch, bounds.0, bounds.1),
    };
    bodies.push(entity, layers, bounds, shape, placement.motion(swept));
    Ok(())
}

/// Appends every segment.
fn place_segments(bodies: &mut Bodies, segments: &SegmentColliders, warnings: &mut SkipWarnings) {
    segments
        .iter()
        .for_each(|(entity, segment, transform, layers, swept)| {
            if let Err(error) = segment.validate() {
                warnings.skip(entity, Skipped::Invalid(error));
                return;
            }
            let placement = match Placement::of(transform) {
                Ok(placement) => placement,
                Err(why) => {
                    warnings.skip(entity, why);
                    return;
                }
            };
            let world = Segment::new(placement.apply(segment.a()), placement.apply(segment.b()));
            if !world.is_valid() {
                warnings.skip(entity, Skipped::OutOfRange);
                return;
            }
            if too_small((world.b - world.a).abs().max_element()) {
                warnings.skip(entity, Skipped::TooSmall);
                return;
            }
            let center = world.a.midpoint(world.b);
            let bounds = (center, conservative(center, world.half_length()));
            let shape = WorldShape::Segment(world);
            bodies.push(entity, layers, bounds, shape, placement.motion(swept));
        });
}

/// One table's circles, as Bevy stores them: each component's column as a slice, an optional
/// one `None` when the table lacks it.
type CircleTable<'w> = (
    &'w [Entity],
    &'w [CircleCollider],
    &'w [GlobalTransform],
    Option<&'w [CollisionLayers]>,
    Option<&'w [Swept]>,
);

/// Writes every circle into the first slots of `bodies`, table by table (a tight loop over
/// each table's columns): the still ones (of tables without [`Swept`]), then the swept ones,
/// split across the task pool when there are enough of them (see [`ParallelSplit`]): each
/// piece of a table fills its own slots. Warns of the circles left out.
fn place_circles(
    bodies: &mut Bodies,
    circles: &CircleColliders,
    settings: &CollisionSettings,
    warnings: &mut SkipWarnings,
) {
    let Ok(tables) = circles.contiguous_iter() else {
        // Every component of the query is stored in tables, so this cannot happen.
        bodies.circle_slots(0, 0);
        place_circles_one_by_one(bodies, circles, warnings);
        return;
    };
    let (swept_tables, still_tables): (Vec<CircleTable>, Vec<CircleTable>) =
        tables.partition(|table| table.4.is_some());
    let rows = |tables: &[CircleTable]| tables.iter().map(|table| table.0.len()).sum();
    let (still, swept) = (rows(&still_tables), rows(&swept_tables));
    let (mut still_slots, mut swept_slots) = bodies.circle_slots(still, swept);
    let mut skipped = Vec::new();
    match ParallelSplit::of(still + swept, settings) {
        None => {
            fill_tables(&still_tables, &mut still_slots, &mut skipped);
            fill_tables(&swept_tables, &mut swept_slots, &mut skipped);
        }
        Some(split) => {
            let size = split.piece_size;
            let mut pieces = cut(&still_tables, still_slots, size, Piece::Still);
            pieces.extend(cut(&swept_tables, swept_slots, size, Piece::Swept));
            skipped = split
                .work_through(pieces, |piece, _| {
                    let mut skipped = Vec::new();
                    match piece {
                        Piece::Still(part, mut slots) => {
                            fill_slots(&part, &mut slots, 0, &mut skipped);
                        }
                        Piece::Swept(part, mut slots) => {
                            fill_slots(&part, &mut slots, 0, &mut skipped);
                        }
                    }
                    skipped
                })
                .concat();
        }
    }
    if !skipped.is_empty() {
        bodies.drop_placeholders();
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
    tables: &[CircleTable],
    slots: &mut S,
    skipped: &mut Vec<(Entity, Skipped)>,
) {
    let mut first = 0;
    for table in tables {
        fill_slots(table, slots, first, skipped);
        first += table.0.len();
    }
}

/// Cuts `tables` (their circles in order, one slot each in `slots`) into pieces of at most
/// `piece_size` rows of one table, each with its slots, made into a [`Piece`] by `piece`.
fn cut<'w, 'b, S: TableSlots>(
    tables: &[CircleTable<'w>],
    slots: S,
    piece_size: usize,
    piece: fn(CircleTable<'w>, S) -> Piece<'w, 'b>,
) -> Vec<Piece<'w, 'b>> {
    let mut rest = slots;
    let mut pieces = Vec::new();
    for table in tables {
        for first in (0..table.0.len()).step_by(piece_size) {
            let part = table_part(table, first..table.0.len().min(first + piece_size));
            let (slots, after) = rest.split_at(part.0.len());
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
    fn finish_block(&mut self, first: usize, table: &CircleTable, rows: Range<usize>);

    /// Writes row `at.1` of table `at.0` into slot `index`: its disc, placed by `placement`.
    fn write_row(
        &mut self,
        index: usize,
        at: (&CircleTable, usize),
        disc: Circle,
        placement: Placement,
    );

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
    fn finish_block(&mut self, first: usize, table: &CircleTable, rows: Range<usize>) {
        let (entities, _, _, layers, _) = *table;
        let layers = layers.map(|layers| &layers[rows.clone()]);
        self.write_entities(first, &entities[rows], layers);
    }

    fn write_row(
        &mut self,
        index: usize,
        (table, row): (&CircleTable, usize),
        disc: Circle,
        _: Placement,
    ) {
        let (entities, _, _, layers, _) = *table;
        let layers = layers.map(|layers| &layers[row..=row]);
        self.write(index, &entities[row..=row], layers, &[disc]);
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
        let (centers, radii, _) = self.discs_and_motions_mut(slots);
        (centers, radii)
    }

    /// How far each swept circle moved, then its shape, its bound grown over its path, its
    /// entity and layers ([`SweptSlots::finish_block`]).
    fn finish_block(&mut self, first: usize, table: &CircleTable, rows: Range<usize>) {
        let (entities, _, transforms, layers, swept) = *table;
        let (_, _, motions) = self.discs_and_motions_mut(first..first + rows.len());
        match swept {
            Some(swept) => {
                let paths = swept[rows.clone()].iter().zip(&transforms[rows.clone()]);
                for (motion, (swept, transform)) in motions.iter_mut().zip(paths) {
                    *motion = swept.motion_to(transform.translation().xy());
                }
            }
            None => motions.fill(Vec2::ZERO),
        }
        let layers = layers.map(|layers| &layers[rows.clone()]);
        SweptSlots::finish_block(self, first, &entities[rows], layers);
    }

    fn write_row(
        &mut self,
        index: usize,
        (table, row): (&CircleTable, usize),
        disc: Circle,
        placement: Placement,
    ) {
        let (entities, _, _, layers, swept) = *table;
        let motion = placement.motion(swept.map(|swept| &swept[row]));
        let layers = layers.map(|layers| &layers[row]);
        self.write(index, entities[row], layers, disc, motion);
    }

    fn skip(&mut self, index: usize) {
        SweptSlots::skip(self, index);
    }
}

/// Places every circle one by one: for a query that cannot be read table by table.
fn place_circles_one_by_one(
    bodies: &mut Bodies,
    circles: &CircleColliders,
    warnings: &mut SkipWarnings,
) {
    circles
        .iter()
        .for_each(|(entity, circle, transform, layers, swept)| {
            push_circle(bodies, warnings, (entity, circle, transform, layers, swept));
        });
}

/// Appends one circle after the rest, or warns why it cannot be placed.
#[inline]
fn push_circle(
    bodies: &mut Bodies,
    warnings: &mut SkipWarnings,
    (entity, circle, transform, layers, swept): (
        Entity,
        &CircleCollider,
        &GlobalTransform,
        Option<&CollisionLayers>,
        Option<&Swept>,
    ),
) {
    match place_circle(circle, transform) {
        Ok((disc, placement)) => {
            let bounds = (disc.center, disc.radius);
            let shape = WorldShape::Circle(disc);
            bodies.push(entity, layers, bounds, shape, placement.motion(swept));
        }
        Err(why) => {
            warnings.skip(entity, why);
        }
    }
}

/// Rows `range` of a table.
fn table_part<'w>(table: &CircleTable<'w>, range: Range<usize>) -> CircleTable<'w> {
    let (entities, circles, transforms, layers, swept) = *table;
    (
        &entities[range.clone()],
        &circles[range.clone()],
        &transforms[range.clone()],
        layers.map(|layers| &layers[range.clone()]),
        swept.map(|swept| &swept[range]),
    )
}

/// How many circles [`fill_slots`] places at a time: a block's discs are checked while they
/// are still in the first-level cache.
const BLOCK: usize = 256;

/// Writes a table of circles into `slots` from `first` on, a block at a time: the discs of a
/// block straight into their slots, then checked all at once ([`usual_discs`]), then the rest
/// of the block ([`TableSlots::finish_block`]), each array in one pass. A block holding a
/// circle that is not usable is placed one by one: each circle left out is marked a
/// placeholder and listed in `skipped`, with why.
fn fill_slots<S: TableSlots>(
    table: &CircleTable,
    slots: &mut S,
    first: usize,
    skipped: &mut Vec<(Entity, Skipped)>,
) {
    let (entities, circles, transforms, _, _) = *table;
    for start in (0..entities.len()).step_by(BLOCK) {
        let rows = start..entities.len().min(start + BLOCK);
        let (centers, radii) = slots.discs_mut(first + rows.start..first + rows.end);
        if usual_discs(
            &circles[rows.clone()],
            &transforms[rows.clone()],
            centers,
            radii,
        ) {
            slots.finish_block(first + start, table, rows);
            continue;
        }
        for row in rows {
            match place_circle(&circles[row], &transforms[row]) {
                Ok((disc, placement)) => {
                    slots.write_row(first + row, (table, row), disc, placement)
                }
                Err(why) => {
                    slots.skip(first + row);
                    skipped.push((entities[row], why));
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
        let placement = Placement::unchecked(transform);
        // Non-finite axes or translation make the centre or the radius NaN or infinite, which
        // fail the checks below. `&` rather than `&&`: no branch.
        axes_usable &= !placement.zero_on_an_axis();
        Circle {
            center: *center,
            radius: *radius,
        } = placement.disc(circle);
    }
    let radii_usable = radii.iter().fold(true, |usable, &radius| {
        usable & (radius <= MAX_COORDINATE) & ((radius >= MIN_SIZE) | (radius == 0.0))
    });
    axes_usable & all_in_range(centers) & radii_usable
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

    /// The least stretch against the smaller eigenvalue of `MᵀM` in `f64`, and never above the
    /// length of a unit vector sent through the map, whichever way.
    #[test]
    fn the_least_stretch_is_the_shortest_image_of_a_unit_vector() {
        let maps = [
            (Vec2::X, Vec2::Y),
            (Vec2::new(0.0, 2.0), Vec2::new(-2.0, 0.0)),
            (Vec2::new(3.0, 0.0), Vec2::new(0.0, 0.5)),
            (Vec2::new(2.1, 1.3), Vec2::new(-0.4, 0.9)),
            (Vec2::new(1.0, 1.0), Vec2::new(1.0, 1.0001)),
        ];
        for (x_axis, y_axis) in maps {
            let shortest = (0..3600)
                .map(|step| {
                    let unit = Vec2::from_angle(step as f32 * core::f32::consts::TAU / 3600.0);
                    (x_axis * unit.x + y_axis * unit.y).length()
                })
                .fold(f32::INFINITY, f32::min);
            let (x, y) = (x_axis.as_dvec2(), y_axis.as_dvec2());
            let (xx, xy, yy) = (x.dot(x), x.dot(y), y.dot(y));
            let smaller = 0.5 * (xx + yy) - (0.25 * (xx - yy).powi(2) + xy * xy).sqrt();
            let exact = smaller.max(0.0).sqrt() as f32;
            let least = least_stretch(x_axis, y_axis, stretch(x_axis, y_axis));
            assert!(
                least <= shortest * (1.0 + 1e-5),
                "{x_axis} {y_axis}: {least} {shortest}"
            );
            // Never above by more than the deep-inside check's margin (a part in ten thousand).
            assert!(
                least <= exact * (1.0 + 1e-5) && least >= exact * (1.0 - 1e-3),
                "{x_axis} {y_axis}: {least} {exact}"
            );
        }
    }

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
        let table: CircleTable = (
            &entities,
            &circles,
            &transforms,
            Some(&layers),
            Some(&swept),
        );
        let by_hand = |index: usize| Entity::from_raw_u32(1000 + index as u32).unwrap();
        let disc = Circle::new(Vec2::new(-50.0, 0.0), 2.0);
        let mut slotted = Bodies::default();
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
        fill_slots(&table, &mut slots, 2, &mut skipped);
        slotted.drop_placeholders();
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].0, entities[unplaceable]);
        let mut pushed = Bodies::default();
        pushed.circle_slots(0, 0);
        for index in 0..2 {
            let shape = WorldShape::Circle(disc);
            pushed.push(
                by_hand(index),
                None,
                (disc.center, disc.radius),
                shape,
                Vec2::Y,
            );
        }
        let mut warnings = SkipWarnings::default();
        for row in 0..rows {
            let circle = (
                entities[row],
                &circles[row],
                &transforms[row],
                Some(&layers[row]),
                Some(&swept[row]),
            );
            push_circle(&mut pushed, &mut warnings, circle);
        }
        slotted.assert_same_as(&pushed);
        assert!(slotted.motion(2 + 1) != Vec2::ZERO, "the circles moved");
    }

    #[test]
    fn a_skipped_entity_is_warned_about_once_until_it_is_usable_again() {
        let mut warnings = SkipWarnings::default();
        let entity = Entity::from_raw_u32(7).unwrap();
        assert!(warnings.skip(entity, Skipped::ZeroScale), "first frame");
        assert!(!warnings.skip(entity, Skipped::ZeroScale), "same frame");
        warnings.end_frame();
        assert!(
            !warnings.skip(entity, Skipped::NonFiniteTransform),
            "next frame"
        );
        warnings.end_frame();
        warnings.end_frame(); // A frame in which it was placed.
        assert!(warnings.skip(entity, Skipped::ZeroScale), "skipped again");
    }

    #[test]
    fn placement_rejects_non_finite_and_zero_scale() {
        let nan = GlobalTransform::from_translation(Vec3::new(f32::NAN, 0.0, 0.0));
        assert!(matches!(
            Placement::of(&nan),
            Err(Skipped::NonFiniteTransform)
        ));
        let flat = GlobalTransform::from_scale(Vec3::new(1.0, 0.0, 1.0));
        assert!(matches!(Placement::of(&flat), Err(Skipped::ZeroScale)));
    }

    #[test]
    fn the_stretch_is_the_largest_length_any_unit_vector_reaches() {
        // A child of a parent scaled (4, 1) and itself turned by 45°: sheared axes.
        let turned = Mat2::from_diagonal(Vec2::new(4.0, 1.0)) * Mat2::from_angle(0.785);
        let tilted = Mat2::from_cols(Vec2::new(1.0, 0.5), Vec2::new(0.2, 2.0));
        // Axes whose squares' squares overflow `f32`.
        let huge = Mat2::from_diagonal(Vec2::new(1e15, 3e14)) * Mat2::from_angle(0.3);
        for matrix in [
            turned,
            tilted,
            huge,
            Mat2::from_angle(1.0),
            Mat2::IDENTITY * 3.0,
        ] {
            let brute = (0..3600)
                .map(|i| (matrix * Vec2::from_angle(i as f32 * 0.1_f32.to_radians())).length())
                .fold(0.0, f32::max);
            let found = stretch(matrix.x_axis, matrix.y_axis);
            assert!(found >= brute * (1.0 - 1e-5), "{matrix}: {found} < {brute}");
            assert!(found <= brute * (1.0 + 1e-4), "{matrix}: {found} > {brute}");
        }
        assert_eq!(stretch(Vec2::X, Vec2::Y), 1.0);
    }

    #[test]
    fn a_huge_scale_makes_world_shapes_out_of_range() {
        for scale in [1e20, 3e38] {
            let huge = GlobalTransform::from_scale(Vec3::new(scale, scale, 1.0));
            let placement = Placement::of(&huge).unwrap();
            let world = Circle::new(placement.apply(Vec2::ZERO), 10.0 * placement.scale);
            assert!(!world.is_valid(), "scale {scale}");
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

    #[test]
    fn placement_scales_by_the_larger_axis() {
        let transform = GlobalTransform::from(
            Transform::from_xyz(5.0, 0.0, 0.0).with_scale(Vec3::new(2.0, 3.0, 1.0)),
        );
        let placement = Placement::of(&transform).unwrap();
        assert_eq!(placement.scale, 3.0);
        assert_eq!(placement.apply(Vec2::ONE), Vec2::new(7.0, 3.0));
    }
}
