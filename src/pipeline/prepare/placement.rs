//! Where a collider's transform places it: its axes, translation and stretch; why a collider
//! cannot be placed, and the warnings that say so.

use crate::collider::{CircleCollider, ColliderError};
use crate::geometry::sweep::Turn;
use crate::geometry::{Circle, MIN_SIZE};
use crate::swept::Swept;
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use core::fmt;
use core::mem::Discriminant;

/// The x and y axes and translation of a [`GlobalTransform`]: how local points reach the world.
#[derive(Clone, Copy)]
pub(super) struct Placement {
    pub(super) x_axis: Vec2,
    pub(super) y_axis: Vec2,
    pub(super) translation: Vec2,
    /// The most the transform stretches any direction (its largest singular value): what a
    /// circle's radius and a bounding circle are scaled by.
    pub(super) scale: f32,
}

/// Whether `x_axis` and `y_axis` are the unit axes (no turn, scale or shear): their four
/// coordinates compared at once.
#[inline(always)]
fn unit_axes(x_axis: Vec2, y_axis: Vec2) -> bool {
    let axes = Vec4::new(x_axis.x, x_axis.y, y_axis.x, y_axis.y);
    axes.cmpeq(Vec4::new(1.0, 0.0, 0.0, 1.0)).all()
}

/// The most the linear map with columns `x_axis` and `y_axis` stretches any vector: its
/// largest singular value, the square root of the larger eigenvalue of `MᵀM`. Under rotation
/// and scale along the axes it is the larger axis length; under shear (a child of a
/// non-uniformly scaled, rotated parent) or a 3D tilt it can exceed both, and bounding circles
/// scaled by less would miss parts of their shapes.
#[inline]
pub(super) fn stretch(x_axis: Vec2, y_axis: Vec2) -> f32 {
    // Most colliders (bullets) are neither turned, scaled nor sheared: one comparison for them.
    if unit_axes(x_axis, y_axis) {
        return 1.0;
    }
    // In `f64`, where the squares of `f32` lengths neither overflow nor vanish (an axis of
    // 1e-23 squares to zero in `f32`, one of 2e19 to infinity).
    let (x_axis, y_axis) = (x_axis.as_dvec2(), y_axis.as_dvec2());
    let (xx, xy, yy) = (x_axis.dot(x_axis), x_axis.dot(y_axis), y_axis.dot(y_axis));
    // The eigenvalues of [[xx, xy], [xy, yy]] are `mean ± √(half_gap² + xy²)`.
    let mean = 0.5 * (xx + yy);
    let half_gap = 0.5 * (xx - yy);
    let spread = (half_gap * half_gap + xy * xy).sqrt();
    (mean + spread).sqrt() as f32
}

/// The least the linear map with columns `x_axis` and `y_axis` stretches any vector: its
/// smallest singular value, `|det| / σ_max` (the two multiply to the determinant), taken
/// from [`stretch`]. What a distance in local space is at least in the world.
#[inline]
pub(super) fn least_stretch(x_axis: Vec2, y_axis: Vec2, stretch: f32) -> f32 {
    let determinant =
        f64::from(x_axis.x) * f64::from(y_axis.y) - f64::from(x_axis.y) * f64::from(y_axis.x);
    (determinant.abs() / f64::from(stretch)) as f32
}

/// The sine of the angle between a transform's axes at or below which it flattens
/// everything onto a line: a few times the rounding of axes multiplied out in `f32` down a
/// hierarchy.
const FLAT_SINE: f64 = 8.0 * f32::EPSILON as f64;

/// Why a collider was left out this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Skipped {
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
    /// A body with [`Swept`](crate::Swept) and no collider of its own: the component sweeps
    /// nothing there.
    SweptBody,
    /// An entity with [`Swept`](crate::Swept) and no collider, not a body: the component
    /// sweeps nothing there.
    SweptWithoutCollider,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFiniteTransform => f.write_str("its GlobalTransform is not finite"),
            Self::ZeroScale => f.write_str(
                "its scale, or a parent's, is zero on an axis (it is flattened onto a line or \
                 a point)",
            ),
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
            Self::SweptBody => f.write_str(
                "a CollisionBody with Swept and no collider of its own: Swept sweeps only the \
                 collider on its own entity (give each part that moves fast its own Swept)",
            ),
            Self::SweptWithoutCollider => f.write_str(
                "an entity with Swept and no collider: Swept sweeps only the collider on its own \
                 entity (give Swept to the colliders that move fast)",
            ),
        }
    }
}

impl Placement {
    #[inline(always)]
    pub(super) fn of(transform: &GlobalTransform) -> Result<Self, Skipped> {
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
        if placement.flattens() {
            return Err(Skipped::ZeroScale);
        }
        // A scale or translation beyond the supported range shows in the world shape, which
        // each kind checks (`Circle::is_valid`, `Segment::is_valid`).
        Ok(placement)
    }

    /// The translation of a transform that neither turns, scales nor shears (its axes are the
    /// unit axes); `None` for any other. Such a transform places a shape by
    /// its translation alone: the caller still checks the shape it places.
    #[inline(always)]
    pub(super) fn unturned(transform: &GlobalTransform) -> Option<Vec2> {
        let affine = transform.affine();
        let (x_axis, y_axis) = (affine.matrix3.x_axis.xy(), affine.matrix3.y_axis.xy());
        unit_axes(x_axis, y_axis).then(|| affine.translation.xy())
    }

    /// The placement, whether or not the transform is usable.
    #[inline(always)]
    pub(super) fn unchecked(transform: &GlobalTransform) -> Self {
        let affine = transform.affine();
        let (x_axis, y_axis) = (affine.matrix3.x_axis.xy(), affine.matrix3.y_axis.xy());
        Self {
            x_axis,
            y_axis,
            translation: affine.translation.xy(),
            scale: stretch(x_axis, y_axis),
        }
    }

    /// Whether the transform flattens everything onto a line or a point: a scale of zero on
    /// an axis, the entity's own or a parent's (a child turned under a parent scaled to zero
    /// on one axis has two axes along one line, which rounding leaves a hair apart). The
    /// sine of the angle between its axes (their determinant over their lengths) is then
    /// within rounding of zero; a shear no transform means to make. Squared, in `f64`, where
    /// neither the squares of `f32` lengths nor their products overflow or vanish.
    #[inline(always)]
    pub(super) fn flattens(&self) -> bool {
        let (x_axis, y_axis) = (self.x_axis.as_dvec2(), self.y_axis.as_dvec2());
        let determinant = x_axis.perp_dot(y_axis);
        let lengths_squared = x_axis.length_squared() * y_axis.length_squared();
        determinant * determinant <= FLAT_SINE * FLAT_SINE * lengths_squared
    }

    /// Where it places `circle`.
    #[inline(always)]
    pub(super) fn disc(&self, circle: &CircleCollider) -> Circle {
        Circle::new(self.apply(circle.offset()), circle.radius() * self.scale)
    }

    #[inline]
    pub(super) fn apply(&self, point: Vec2) -> Vec2 {
        self.x_axis * point.x + self.y_axis * point.y + self.translation
    }

    /// How far a collider moved along its swept path to this placement: zero unless swept.
    #[inline]
    pub(super) fn motion(&self, swept: Option<&Swept>) -> Vec2 {
        swept.map_or(Vec2::ZERO, |swept| swept.motion_to(self.translation))
    }

    /// The angle of the placement's x axis, which a swept segment or polygon turns by.
    #[inline]
    pub(super) fn angle(&self) -> f32 {
        self.x_axis.to_angle()
    }

    /// How a swept segment or polygon moved to this placement: its translation, and its turn
    /// about its translation point. `None` unless it turned.
    pub(super) fn turn(&self, swept: Option<&Swept>) -> Option<Turn> {
        let swept = swept?;
        let mirrored = self.x_axis.perp_dot(self.y_axis) < 0.0;
        let angle = swept.turn_to(self.translation, self.angle(), mirrored);
        (angle != 0.0).then(|| Turn {
            translation: swept.motion_to(self.translation),
            angle,
            pivot: self.translation,
        })
    }
}

/// Whether a world size is above zero but below [`MIN_SIZE`]: a shape too small for the tests.
#[inline]
pub(super) fn too_small(size: f32) -> bool {
    size > 0.0 && size < MIN_SIZE
}

/// Why a collider was skipped, as far as its warning goes: the kind of [`Skipped`], and of
/// the constructor's error for an invalid shape (an edit from one invalid shape to another
/// is warned about again).
type Reason = (Discriminant<Skipped>, Option<Discriminant<ColliderError>>);

impl Skipped {
    fn reason(&self) -> Reason {
        let error = match self {
            Self::Invalid(error) => Some(core::mem::discriminant(error)),
            _ => None,
        };
        (core::mem::discriminant(self), error)
    }
}

/// Entities warned about, each with why: those skipped last frame, and this frame's so far.
/// An entity is warned about when it is first skipped for a reason, and again for that reason
/// only after a frame in which it was not: an entity skipped for two (a second collider kind,
/// and a transform that is not finite) is warned about both. A frame's warnings are logged at
/// its end, one line for each entity, or one for all those skipped for the same reason where
/// there are more than [`LISTED`] (ten thousand bullets shrunk to nothing as they fade out
/// make one line, not ten thousand).
#[derive(Default)]
pub(crate) struct SkipWarnings {
    last_frame: HashSet<(Entity, Reason)>,
    this_frame: HashSet<(Entity, Reason)>,
    /// This frame's warnings, to be logged at its end.
    new: Vec<(Entity, Skipped)>,
}

/// Up to this many entities skipped for one reason in a frame are warned about one by one.
const LISTED: usize = 3;

impl SkipWarnings {
    /// Notes that `entity` is skipped this frame for `why`, to be warned about at the frame's
    /// end unless it was skipped for that last frame too. Returns whether it will be.
    pub(super) fn skip(&mut self, entity: Entity, why: Skipped) -> bool {
        let key = (entity, why.reason());
        let warn = self.this_frame.insert(key) && !self.last_frame.contains(&key);
        if warn {
            self.new.push((entity, why));
        }
        warn
    }

    /// Logs the frame's warnings, and starts the next frame.
    pub(super) fn end_frame(&mut self) {
        for line in lines(core::mem::take(&mut self.new)) {
            warn!("{line}");
        }
        core::mem::swap(&mut self.last_frame, &mut self.this_frame);
        self.this_frame.clear();
    }
}

/// The lines that warn about `skipped`: one for each entity, each with its own reason, or one
/// for all those skipped for the same kind of reason where there are more than [`LISTED`].
fn lines(mut skipped: Vec<(Entity, Skipped)>) -> Vec<String> {
    let mut lines = Vec::new();
    while let Some(&(first, why)) = skipped.first() {
        let reason = why.reason();
        let (same, rest): (Vec<_>, Vec<_>) = skipped
            .into_iter()
            .partition(|(_, other)| other.reason() == reason);
        skipped = rest;
        if same.len() <= LISTED {
            lines.extend(same.into_iter().map(|(entity, why)| match why {
                // Not a collider: nothing of it is skipped but the sweep it asks for.
                Skipped::SweptBody | Skipped::SweptWithoutCollider => format!("{entity}: {why}"),
                _ => format!("collider {entity} skipped: {why}"),
            }));
            continue;
        }
        // The reasons of one kind may differ in their details (which vertex is wrong): the
        // first's is told.
        let listed: Vec<String> = same[..LISTED].iter().map(|(e, _)| e.to_string()).collect();
        let which = format!("{} and {} more", listed.join(", "), same.len() - LISTED);
        let count = same.len();
        lines.push(match why {
            Skipped::SweptBody | Skipped::SweptWithoutCollider => {
                format!("{count} entities ({which}); {first}: {why}")
            }
            _ => format!("{count} colliders skipped ({which}); {first}: {why}"),
        });
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each of a few entities is told its own reason, details and all; many skipped for one
    /// kind of reason share a line, which counts them; the kinds keep their first order.
    #[test]
    fn warning_lines_tell_each_its_own_reason_or_count_many() {
        let entity = |index: u32| Entity::from_raw_u32(index).unwrap();
        let bad_point = |index: usize| {
            Skipped::Invalid(ColliderError::InvalidPoint {
                index,
                point: Vec2::NAN,
            })
        };
        let mut skipped = vec![(entity(1), bad_point(0)), (entity(2), bad_point(7))];
        skipped.extend((10..15).map(|index| (entity(index), Skipped::ZeroScale)));
        let lines = lines(skipped);
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines[0].starts_with(&format!("collider {} skipped", entity(1))));
        assert!(lines[0].contains("point 0 "), "{lines:?}");
        assert!(lines[1].contains("point 7 "), "{lines:?}");
        let counted = format!(
            "5 colliders skipped ({}, {}, {} and 2 more)",
            entity(10),
            entity(11),
            entity(12)
        );
        assert!(lines[2].starts_with(&counted), "{lines:?}");
        assert!(lines[2].contains("scale"), "{lines:?}");
    }

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
        // Axes whose squares' squares overflow `f32`, whose squares do, and whose squares
        // vanish in it.
        let huge = Mat2::from_diagonal(Vec2::new(1e15, 3e14)) * Mat2::from_angle(0.3);
        let huger = Mat2::from_diagonal(Vec2::new(3e19, 1e20)) * Mat2::from_angle(0.3);
        let tiny = Mat2::from_diagonal(Vec2::new(2e-23, 5e-24)) * Mat2::from_angle(0.3);
        for matrix in [
            turned,
            tilted,
            huge,
            huger,
            tiny,
            Mat2::from_angle(1.0),
            Mat2::IDENTITY * 3.0,
        ] {
            let brute = (0..3600)
                .map(|i| {
                    let image = matrix * Vec2::from_angle(i as f32 * 0.1_f32.to_radians());
                    image.as_dvec2().length() as f32
                })
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
