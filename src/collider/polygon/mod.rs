//! [`PolygonCollider`]: a solid simple polygon, convex or concave, and its validation.

mod checks;

use super::ColliderError;
use crate::geometry::{self, MAX_COORDINATE};
use bevy::math::bounding::BoundingCircle;
use bevy::math::primitives::{
    ConvexPolygon, Polygon, Rectangle, RegularPolygon, Rhombus, Triangle2d,
};
use bevy::prelude::*;
use checks::checked;

/// A solid simple polygon, **convex or concave**, given as a loop of vertices in local space
/// (either winding; the last vertex joins the first).
///
/// Repeated neighbouring vertices and a repeated closing vertex are dropped. The polygon must
/// then have at least three vertices, a non-zero area, and no two edges that cross.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_collision_events::prelude::*;
/// // An arrow-head ship: concave.
/// let ship = PolygonCollider::new(vec![
///     Vec2::new(0.0, 20.0),
///     Vec2::new(14.0, -14.0),
///     Vec2::new(0.0, -6.0),
///     Vec2::new(-14.0, -14.0),
/// ]);
/// assert_eq!(ship.vertices().len(), 4);
///
/// // A bow tie crosses itself.
/// let bow_tie = [Vec2::ZERO, Vec2::new(1.0, 1.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0)];
/// assert_eq!(
///     PolygonCollider::try_new(bow_tie),
///     Err(ColliderError::SelfIntersecting(0, 2))
/// );
/// ```
#[derive(Component, Clone, Debug, Reflect)]
#[reflect(Component, Clone, Debug, PartialEq)]
#[require(Transform)]
pub struct PolygonCollider {
    vertices: Vec<Vec2>,
    /// What validating `vertices` found. Not reflected: an edit through reflection changes the
    /// vertices only, and the pipeline validates them again (see [`Self::revalidate`]).
    #[reflect(ignore)]
    checked: Checked,
}

/// Two polygons are equal when their vertices are: what validation found of them is not
/// compared (a polygon built through reflection is checked only when it is used).
impl PartialEq for PolygonCollider {
    fn eq(&self, other: &Self) -> bool {
        self.vertices == other.vertices
    }
}

/// The result of validating a polygon's vertices, and which vertices it is for.
#[derive(Clone, Debug, Default, PartialEq)]
enum Checked {
    /// Not validated (built through reflection).
    #[default]
    Not,
    /// Valid, with its bounds in local space.
    Valid {
        fingerprint: u64,
        bounds: PolygonBounds,
    },
    /// Not a valid polygon.
    Invalid {
        fingerprint: u64,
        error: ColliderError,
    },
}

/// What bounds a valid polygon, in local space: the smallest circle around its vertices, and
/// how far around that circle's centre the polygon reaches every way; and which way its outline
/// runs. Measured once, when the vertices are checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PolygonBounds {
    pub outer: BoundingCircle,
    /// The radius of the largest circle around `outer`'s centre that the polygon holds (no edge
    /// comes nearer the centre): zero when the centre lies outside it (a concave polygon's
    /// notch). A circle within it is inside the polygon, and no edge need be looked at.
    pub inner_radius: f32,
    /// Whether its outline runs anticlockwise (see
    /// [`runs_anticlockwise`](geometry::runs_anticlockwise)).
    pub anticlockwise: bool,
    /// Whether a corner turns the other way from the rest (see
    /// [`is_concave`](geometry::is_concave)).
    pub concave: bool,
}

impl PolygonBounds {
    /// The bounds of a valid polygon's vertices.
    fn of(vertices: &[Vec2]) -> Self {
        let outer = geometry::bounding_circle_of_points(vertices);
        let inner_radius = if geometry::point_in_polygon(outer.center, vertices) {
            geometry::edges(vertices)
                .map(|edge| edge.distance_squared_to(outer.center))
                .fold(f32::INFINITY, f32::min)
                .sqrt()
        } else {
            0.0
        };
        Self {
            outer,
            inner_radius,
            anticlockwise: geometry::runs_anticlockwise(vertices),
            concave: geometry::is_concave(vertices),
        }
    }
}

/// A hash of the vertices' bits (FNV-1a), to tell whether they changed since they were checked.
fn fingerprint(vertices: &[Vec2]) -> u64 {
    vertices
        .iter()
        .flat_map(|vertex| [vertex.x.to_bits(), vertex.y.to_bits()])
        .fold(0xcbf2_9ce4_8422_2325, |hash, bits| {
            (hash ^ u64::from(bits)).wrapping_mul(0x0100_0000_01b3)
        })
}

impl PolygonCollider {
    /// The most sides [`try_regular`](Self::try_regular) (and a conversion from Bevy's
    /// `RegularPolygon`) makes: far more than a round shape needs, and a bound on the memory
    /// a count of sides can ask for.
    pub const MAX_SIDES: usize = 4096;

    /// A polygon from its vertex loop.
    ///
    /// # Panics
    /// If the vertices do not make a valid polygon; see [`try_new`](Self::try_new).
    #[track_caller]
    pub fn new(vertices: impl Into<Vec<Vec2>>) -> Self {
        match Self::try_new(vertices) {
            Ok(collider) => collider,
            Err(error) => panic!("{error}"),
        }
    }

    /// A polygon from its vertex loop. Validation runs once: it tests for crossings only the
    /// edges that lie side by side along x, about `O(n log n)` for an outline of short edges
    /// (a terrain's, a curve's), up to `O(n²)` where most edges span the same stretch of x.
    ///
    /// # Errors
    /// - [`ColliderError::InvalidPoint`] for a NaN, infinite or too large vertex;
    /// - [`ColliderError::TooFewVertices`] for fewer than three distinct vertices;
    /// - [`ColliderError::TooSmall`] when their bounding box is smaller than [`MIN_SIZE`](crate::geometry::MIN_SIZE);
    /// - [`ColliderError::ZeroArea`] when they lie on one line, or nearly (see its docs);
    /// - [`ColliderError::SelfIntersecting`] when two edges meet other than neighbours at
    ///   their shared vertex (edge `i` runs from vertex `i` to vertex `i + 1`, counted after
    ///   repeated vertices are dropped).
    pub fn try_new(vertices: impl Into<Vec<Vec2>>) -> Result<Self, ColliderError> {
        let (vertices, bounds) = validated(vertices.into())?;
        let checked = Checked::Valid {
            fingerprint: fingerprint(&vertices),
            bounds,
        };
        Ok(Self { vertices, checked })
    }

    /// A regular polygon of `sides` vertices on a circle of `circumradius` around the origin,
    /// counter-clockwise from the first at the top: an octagon enemy is `regular(24.0, 8)`.
    /// The same polygon as Bevy's `RegularPolygon::new(circumradius, sides)`, so a mesh made
    /// from that primitive matches the collider.
    ///
    /// # Panics
    /// When [`try_regular`](Self::try_regular) returns an error.
    #[track_caller]
    pub fn regular(circumradius: f32, sides: usize) -> Self {
        match Self::try_regular(circumradius, sides) {
            Ok(collider) => collider,
            Err(error) => panic!("{error}"),
        }
    }

    /// A regular polygon of `sides` vertices on a circle of `circumradius` around the origin,
    /// counter-clockwise from the first at the top, as Bevy's `RegularPolygon` places them.
    ///
    /// # Errors
    /// - [`ColliderError::TooFewVertices`] for fewer than 3 sides, and
    ///   [`ColliderError::TooManySides`] for more than [`MAX_SIDES`](Self::MAX_SIDES);
    /// - [`ColliderError::InvalidRadius`] for a circumradius not above zero, or beyond
    ///   [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE) (NaN and infinity included);
    /// - what [`try_new`](Self::try_new) finds of the vertices: beyond [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE)
    ///   ([`ColliderError::InvalidPoint`]), smaller than [`MIN_SIZE`](crate::geometry::MIN_SIZE)
    ///   ([`ColliderError::TooSmall`]), or so many that `f32` cannot tell them apart
    ///   ([`ColliderError::TooFewVertices`], [`ColliderError::ZeroArea`]).
    pub fn try_regular(circumradius: f32, sides: usize) -> Result<Self, ColliderError> {
        check_regular(circumradius, sides)?;
        // Checked: `sides` is at most `MAX_SIDES`, well within `u32`.
        Self::try_from(RegularPolygon::new(circumradius, sides as u32))
    }

    /// An axis-aligned rectangle of `width` × `height` centred on the origin.
    ///
    /// # Panics
    /// When [`try_rectangle`](Self::try_rectangle) returns an error.
    #[track_caller]
    pub fn rectangle(width: f32, height: f32) -> Self {
        match Self::try_rectangle(width, height) {
            Ok(collider) => collider,
            Err(error) => panic!("{error}"),
        }
    }

    /// An axis-aligned rectangle of `width` × `height` centred on the origin.
    ///
    /// # Errors
    /// [`ColliderError::InvalidSide`] for a side of zero or negative length, NaN or infinite;
    /// otherwise what [`try_new`](Self::try_new) finds of its corners: a side that reaches
    /// beyond [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE)
    /// ([`ColliderError::InvalidPoint`]), a rectangle smaller than
    /// [`MIN_SIZE`](crate::geometry::MIN_SIZE) ([`ColliderError::TooSmall`]), or sides so
    /// unequal, one under about a two-millionth of the other, that the rectangle is a sliver
    /// ([`ColliderError::ZeroArea`]).
    pub fn try_rectangle(width: f32, height: f32) -> Result<Self, ColliderError> {
        let half = halves(Vec2::new(width, height))?;
        Self::try_new(vec![
            Vec2::new(-half.x, -half.y),
            Vec2::new(half.x, -half.y),
            Vec2::new(half.x, half.y),
            Vec2::new(-half.x, half.y),
        ])
    }

    /// The vertex loop, in local space, as validated.
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// The smallest circle around the polygon, in local space; `None` while the vertices are
    /// not a valid polygon (after an edit through reflection). `O(n)` while the vertices are as
    /// last checked. After an edit the pipeline has not checked yet (it checks at its next
    /// run, or when a switched-off polygon is switched back on), each call checks them again,
    /// as the pipeline will (see [`try_new`](Self::try_new)), with a copy of the vertices.
    pub fn local_bounding_circle(&self) -> Option<BoundingCircle> {
        let now = fingerprint(&self.vertices);
        match self.checked {
            Checked::Valid {
                fingerprint,
                bounds,
            } if fingerprint == now => Some(bounds.outer),
            Checked::Invalid { fingerprint, .. } if fingerprint == now => None,
            _ => validated(self.vertices.clone())
                .ok()
                .map(|(_, bounds)| bounds.outer),
        }
    }

    /// Validates the vertices again if they changed since they were last checked (an edit
    /// through reflection), as [`try_new`](Self::try_new) does; a valid edit is kept, with its
    /// repeated vertices dropped and its bounds recomputed. `O(n)` when nothing changed.
    /// Returns the bounds of the vertices, or why they are not a valid polygon.
    pub(crate) fn revalidate(&mut self) -> Result<PolygonBounds, ColliderError> {
        let now = fingerprint(&self.vertices);
        match self.checked {
            Checked::Valid {
                fingerprint,
                bounds,
            } if fingerprint == now => return Ok(bounds),
            Checked::Invalid { fingerprint, error } if fingerprint == now => return Err(error),
            _ => {}
        }
        match validated(self.vertices.clone()) {
            Ok((vertices, bounds)) => {
                self.checked = Checked::Valid {
                    fingerprint: fingerprint(&vertices),
                    bounds,
                };
                self.vertices = vertices;
                Ok(bounds)
            }
            Err(error) => {
                self.checked = Checked::Invalid {
                    fingerprint: now,
                    error,
                };
                Err(error)
            }
        }
    }
}

/// The vertices as a valid polygon, with their bounds; or why they are not one.
fn validated(vertices: Vec<Vec2>) -> Result<(Vec<Vec2>, PolygonBounds), ColliderError> {
    let vertices = checked(vertices)?;
    let bounds = PolygonBounds::of(&vertices);
    Ok((vertices, bounds))
}

impl TryFrom<Polygon> for PolygonCollider {
    type Error = ColliderError;

    fn try_from(polygon: Polygon) -> Result<Self, Self::Error> {
        Self::try_new(polygon.vertices)
    }
}

/// The checks of a regular polygon before its vertices are made: 3 to
/// [`PolygonCollider::MAX_SIDES`] sides, a circumradius above zero and at most
/// [`MAX_COORDINATE`].
fn check_regular(circumradius: f32, sides: usize) -> Result<(), ColliderError> {
    if sides < 3 {
        return Err(ColliderError::TooFewVertices(sides));
    }
    if sides > PolygonCollider::MAX_SIDES {
        return Err(ColliderError::TooManySides(sides));
    }
    if !(circumradius > 0.0 && circumradius <= MAX_COORDINATE) {
        return Err(ColliderError::InvalidRadius(circumradius));
    }
    Ok(())
}

impl TryFrom<ConvexPolygon> for PolygonCollider {
    type Error = ColliderError;

    fn try_from(polygon: ConvexPolygon) -> Result<Self, Self::Error> {
        Self::try_new(polygon.vertices().to_vec())
    }
}

impl TryFrom<Rectangle> for PolygonCollider {
    type Error = ColliderError;

    /// The rectangle centred on the origin, counter-clockwise from its lower-left corner.
    fn try_from(rectangle: Rectangle) -> Result<Self, Self::Error> {
        // As `try_rectangle`.
        let half = halves(2.0 * rectangle.half_size)?;
        Self::try_new(vec![
            Vec2::new(-half.x, -half.y),
            Vec2::new(half.x, -half.y),
            Vec2::new(half.x, half.y),
            Vec2::new(-half.x, half.y),
        ])
    }
}

impl TryFrom<RegularPolygon> for PolygonCollider {
    type Error = ColliderError;

    /// The polygon's vertices as Bevy places them: the first at the top, counter-clockwise.
    fn try_from(polygon: RegularPolygon) -> Result<Self, Self::Error> {
        check_regular(polygon.circumcircle.radius, polygon.sides as usize)?;
        Self::try_new(polygon.vertices(0.0).into_iter().collect::<Vec<_>>())
    }
}

impl TryFrom<Triangle2d> for PolygonCollider {
    type Error = ColliderError;

    fn try_from(triangle: Triangle2d) -> Result<Self, Self::Error> {
        Self::try_new(triangle.vertices.to_vec())
    }
}

impl TryFrom<Rhombus> for PolygonCollider {
    type Error = ColliderError;

    /// The rhombus centred on the origin, counter-clockwise from its rightmost vertex.
    fn try_from(rhombus: Rhombus) -> Result<Self, Self::Error> {
        let half = halves(2.0 * rhombus.half_diagonals)?;
        Self::try_new(vec![
            Vec2::new(half.x, 0.0),
            Vec2::new(0.0, half.y),
            Vec2::new(-half.x, 0.0),
            Vec2::new(0.0, -half.y),
        ])
    }
}

impl From<&PolygonCollider> for Polygon {
    /// The collider's vertex loop, in local space.
    fn from(collider: &PolygonCollider) -> Self {
        Polygon {
            vertices: collider.vertices.clone(),
        }
    }
}

/// Half of `sides` (a rectangle's sides, a rhombus's diagonals): an error for a side not above
/// zero or not finite, and a sliver (no area) for one so small beside the other that its half
/// rounds to zero, where the corners would fall onto each other.
fn halves(sides: Vec2) -> Result<Vec2, ColliderError> {
    let invalid = [sides.x, sides.y]
        .into_iter()
        .find(|side| !(*side > 0.0 && side.is_finite()));
    if let Some(side) = invalid {
        return Err(ColliderError::InvalidSide(side));
    }
    let half = sides / 2.0;
    if half.min_element() == 0.0 {
        return Err(ColliderError::ZeroArea);
    }
    Ok(half)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> Vec<Vec2> {
        vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y]
    }

    /// The inner radius reaches the nearest edge from the bounding centre, or is zero when that
    /// centre lies outside (a notch).
    #[test]
    fn the_inner_radius_reaches_the_nearest_edge() {
        let inner = |vertices: &[Vec2]| PolygonBounds::of(vertices).inner_radius;
        assert!((inner(&square()) - 0.5).abs() < 1e-6);
        let wide = [
            Vec2::ZERO,
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 1.0),
            Vec2::Y,
        ];
        assert!((inner(&wide) - 0.5).abs() < 1e-6);
        // A U whose bounding centre (2, 2) lies in its notch.
        let u = [
            (0.0, 0.0),
            (4.0, 0.0),
            (4.0, 4.0),
            (3.0, 4.0),
            (3.0, 1.0),
            (1.0, 1.0),
            (1.0, 4.0),
            (0.0, 4.0),
        ]
        .map(|(x, y)| Vec2::new(x, y));
        assert_eq!(inner(&u), 0.0);
        // Off the local origin, and more vertices than one word of flags holds.
        let off: Vec<Vec2> = square()
            .iter()
            .map(|&v| v + Vec2::new(50.0, -20.0))
            .collect();
        assert!((inner(&off) - 0.5).abs() < 1e-5);
        let ring: Vec<Vec2> = (0..80)
            .map(|k| Vec2::from_angle(k as f32 * core::f32::consts::TAU / 80.0) * 10.0)
            .collect();
        let apothem = 10.0 * (core::f32::consts::PI / 80.0).cos();
        assert!((inner(&ring) - apothem).abs() < 1e-4);
    }

    /// A fold names its two edges the lower first, as a crossing does: here the last edge
    /// folds back over the first.
    #[test]
    fn a_fold_names_the_lower_edge_first() {
        let v = Vec2::new;
        let folded =
            PolygonCollider::try_new(vec![v(4.0, 0.0), v(2.0, 0.0), v(2.0, 3.0), v(0.0, 0.0)]);
        assert_eq!(folded, Err(ColliderError::SelfIntersecting(0, 3)));
    }

    /// Bounds kept beside the vertices they were found from are given back as they are: a
    /// marker inner radius that no check would find comes back unchanged.
    #[test]
    fn an_unchanged_polygon_is_not_checked_again() {
        let mut polygon = PolygonCollider::new(square());
        let Checked::Valid {
            fingerprint,
            mut bounds,
        } = polygon.checked
        else {
            panic!("checked when made");
        };
        bounds.inner_radius = -7.0;
        polygon.checked = Checked::Valid {
            fingerprint,
            bounds,
        };
        assert_eq!(polygon.revalidate().map(|b| b.inner_radius), Ok(-7.0));
        // Edited: checked again.
        polygon.vertices[2] = Vec2::splat(3.0);
        assert!(polygon.revalidate().unwrap().inner_radius >= 0.0);
    }

    #[test]
    fn an_edit_is_checked_and_its_bounds_recomputed() {
        let mut polygon = PolygonCollider::new(square());
        polygon.vertices = vec![
            Vec2::ZERO,
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 4.0),
            Vec2::ZERO,
        ];
        assert!(polygon.revalidate().is_ok());
        assert_eq!(polygon.vertices().len(), 3, "the closing vertex dropped");
        let bounds = polygon.local_bounding_circle().unwrap();
        assert!((bounds.radius() - 8.0_f32.sqrt()).abs() < 1e-4);
    }

    #[test]
    fn a_bad_edit_is_refused_until_mended() {
        let mut polygon = PolygonCollider::new(square());
        polygon.vertices.swap(1, 2); // A bow tie.
        assert!(matches!(
            polygon.revalidate(),
            Err(ColliderError::SelfIntersecting(..))
        ));
        assert_eq!(polygon.local_bounding_circle(), None);
        assert!(polygon.revalidate().is_err(), "still bad, remembered");
        polygon.vertices.swap(1, 2);
        assert!(polygon.revalidate().is_ok());
        assert!(polygon.local_bounding_circle().is_some());
    }

    /// A polygon built by reflection (loaded from a scene) is checked when first asked: its
    /// bounding circle at once, and by the pipeline when it places it.
    #[test]
    fn a_polygon_built_by_reflection_is_checked() {
        let mut polygon = PolygonCollider {
            vertices: square(),
            checked: Checked::default(),
        };
        let circle = polygon.local_bounding_circle().expect("a valid square");
        assert!(polygon.revalidate().is_ok());
        assert_eq!(polygon.local_bounding_circle(), Some(circle));
        let mut bow_tie = PolygonCollider {
            vertices: square(),
            checked: Checked::default(),
        };
        bow_tie.vertices.swap(1, 2);
        assert_eq!(bow_tie.local_bounding_circle(), None);
        assert!(bow_tie.revalidate().is_err());
    }

    #[test]
    fn a_regular_polygon_starts_at_the_top_and_turns_counter_clockwise_as_bevy_places_it() {
        let hexagon = PolygonCollider::regular(10.0, 6);
        for (i, vertex) in hexagon.vertices().iter().enumerate() {
            let angle = core::f64::consts::FRAC_PI_2 + i as f64 * core::f64::consts::TAU / 6.0;
            let expected = 10.0 * bevy::math::DVec2::from_angle(angle);
            assert!(vertex.as_dvec2().distance(expected) < 1e-5, "{i}: {vertex}");
        }
    }

    #[test]
    fn regular_and_rectangle_refuse_sizes_out_of_range_instead_of_panicking() {
        assert!(PolygonCollider::try_regular(24.0, 8).is_ok());
        assert!(PolygonCollider::try_rectangle(3.0, 2.0).is_ok());
        for size in [1e-30, 2e18, f32::INFINITY, f32::NAN, 0.0, -1.0] {
            assert!(PolygonCollider::try_regular(size, 8).is_err(), "{size}");
        }
        for size in [1e-30, 3e18, f32::INFINITY, f32::NAN, 0.0, -1.0] {
            assert!(PolygonCollider::try_rectangle(size, 1.0).is_err(), "{size}");
        }
        assert_eq!(
            PolygonCollider::try_regular(1.0, 2),
            Err(ColliderError::TooFewVertices(2))
        );
        // A side whose half rounds to zero: a sliver, not two corners on each other.
        let sliver = Err(ColliderError::ZeroArea);
        assert_eq!(PolygonCollider::try_rectangle(1e-45, 1.0), sliver);
        assert_eq!(PolygonCollider::try_rectangle(1.0, 1e-45), sliver);
        // The radius itself is out of range, whatever its vertices would be.
        for size in [2e18, 1e30, f32::INFINITY, f32::NAN, 0.0, -1.0] {
            assert!(
                matches!(
                    PolygonCollider::try_regular(size, 8),
                    Err(ColliderError::InvalidRadius(_))
                ),
                "{size}"
            );
        }
    }
}
