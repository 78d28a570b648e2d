//! Pure 2D geometry: overlap tests, outline crossings and sweeps for circles, segments and
//! polygons.
//!
//! Nothing here knows about the ECS: every function takes shapes in one common frame (the plugin
//! passes world space) and returns plain values. Nothing here panics or returns NaN for finite
//! input. Only [`push_out`] (a search among many candidates) allocates at every call; the
//! rest only for large counts (more than four crossing points, polygons of many corners).
//! Non-finite input (NaN, infinities) or a negative radius gives "no overlap"; see
//! [`MAX_COORDINATE`] and [`MIN_SIZE`] for the range.
//!
//! # The shapes
//! - [`Circle`]: a **solid** circle (a disc), `center` and `radius ≥ 0`. Its outline is its
//!   circumference. A zero radius makes it a point. (Bevy's own `Circle` primitive is only a
//!   radius; this one is placed. With both in scope, name this one `geometry::Circle`.)
//! - [`Segment`]: the closed line segment from `a` to `b`; it is its own outline. `a == b` makes it
//!   a point.
//! - A polygon: a `&[Vec2]` vertex loop (the last vertex joins the first, no repeated closing
//!   vertex), **convex or concave**, solid, not self-intersecting, at least three vertices. Its
//!   outline is its edges; edge `i` runs from `vertices[i]` to `vertices[(i + 1) % n]`. Either
//!   winding is accepted. Fewer than three vertices is treated as the polyline they form (one
//!   vertex: a point).
//!
//! # The operations
//! Each shape pair has its own file, named `[first]_[second]` with the more complex shape first
//! (`polygon_circle`), and two functions:
//! - `overlap_[first]_[second]` → `bool`: do the two point sets share at least one point? Shapes
//!   are **closed sets**, so touching counts, and so does one shape lying wholly inside the other.
//!   This is the cheap test: squared distances, no square root where none is needed.
//! - `intersect_[first]_[second]` → `Option<`[`Intersection`]`>`: `None` exactly when the overlap
//!   test says `false`; otherwise the points where the two outlines cross or touch, and which
//!   shape contains the other when they do not meet.
//!
//! [`overlap`] and [`intersect`] take any two [`Shape`]s in either order and mirror the result
//! of the pair function, so each pair is written once and both orders agree exactly.
//!
//! **Sweeps** ask when two shapes moving by straight translations first touch: in the
//! [`sweep`](mod@sweep) module, one `sweep_[first]_[second]` → `Option<`[`Impact`]`>` per pair
//! (the first shape moving by the relative motion, the second at rest) and the dispatcher
//! [`sweep()`], for both shapes moving, in either order. Its module docs state the
//! conventions: time, point, normal, and what `None` means.
//!
//! **Push-out** asks how to separate two overlapping shapes: [`push_out`] gives the least
//! translation of the first ([`PushOut`]: a unit direction and a depth), for any two shapes.
//!
//! **Ray casts** ask where a ray first meets a shape, and where it leaves a solid one:
//! [`ray_cast`] for any [`Shape`], or [`ray_circle`], [`ray_segment`] and [`ray_polygon`];
//! [`RayIntersection`] gives the distance, point and normal, whether the ray starts inside, and the exit.
//! [`closest_point`] gives the point of a shape nearest to a point, and its distance. Both are
//! what the plugin's spatial queries answer with.
//!
//! # Points
//! [`Intersection::points`] holds the points where the outlines cross or touch:
//! - 0, 1 or 2 for circle–circle and segment–circle, any number where a polygon is involved;
//! - where two outlines run along each other (collinear edges, a segment lying on an edge) the
//!   shared piece is reported by its two end points, also where either outline has a vertex
//!   inside the piece (a vertex at which the outline runs straight on is no end);
//! - in the order met walking the outline of **the first shape of the pair function** (the more
//!   complex shape: polygon, then segment, then circle; for two of one kind, the first given):
//!   a segment from `a` to `b`, a polygon edge by edge from `vertices[0]`, and for circle–circle
//!   the point left of the line from the first centre to the second, then the one right of it.
//!   [`intersect`] gives them in that order whichever way round its arguments come;
//! - without near-duplicates: no two points lie within the pair's tolerance of each other (a
//!   polygon vertex lying on the other outline is reported once, not once per edge).
//!
//! # Tolerance
//! Floating point almost never gives exact tangency, so one rule decides "touching":
//! distances below `TOLERANCE × size` count as zero, where [`TOLERANCE`] is `1e-5` and `size` is
//! the sum of the two shapes' bounding radii (so the rule does not change when a scene is moved
//! or uniformly scaled). Concretely: tangent circles, and a segment tangent to a circle, give one
//! point and never two a hair apart; near-parallel edges closer than the tolerance are collinear;
//! points closer than the tolerance are one point; a crossing found up to the tolerance past a
//! segment's end is clamped onto that end. The tolerance never decides *whether* shapes overlap:
//! the overlap verdict is the exact closed-set test, evaluated in `f32`. (The one sweep that is
//! not exact, of shapes that turn, stops within the tolerance of the *smaller* shape's size,
//! or within what `f32` positions tell apart across the gap where the shapes are nearest,
//! whichever is larger: the second grows with the coordinates. See [`Swept`](crate::Swept).)
//!
//! # Containment
//! When the shapes overlap but their outlines do not meet, one lies inside the other and
//! [`Intersection::containment`] says which. When the outlines cross or touch it is
//! [`Containment::Neither`], even for a shape touching the other's outline from inside.

mod bounds;
mod circle_circle;
mod dispatch;
mod edge_lines;
mod point;
mod polygon_circle;
mod polygon_polygon;
mod polygon_segment;
mod precise;
mod push_out;
mod ray;
mod ray_cast;
mod segment;
mod segment_circle;
mod segment_segment;
pub mod sweep;

pub(crate) use bounds::BoundingBox;
pub use bounds::{bounding_circle_of_points, polygon_size};
pub use circle_circle::{intersect_circle_circle, overlap_circle_circle};
pub use dispatch::{Shape, intersect, overlap};
pub(crate) use edge_lines::{EdgeLines, beyond_lines, push_edge_lines, runs_anticlockwise};
pub(crate) use point::point_in_polygon_unchecked;
pub use point::{ClosestPoint, closest_point, point_in_circle, point_in_polygon};
pub(crate) use polygon_circle::{MeasuredPolygon, intersect_measured_polygon_circle};
pub use polygon_circle::{intersect_polygon_circle, overlap_polygon_circle};
pub use polygon_polygon::{intersect_polygon_polygon, overlap_polygon_polygon};
pub use polygon_segment::{intersect_polygon_segment, overlap_polygon_segment};
pub use push_out::{PushOut, push_out};
pub use ray_cast::{RayExit, RayIntersection, ray_cast, ray_circle, ray_polygon, ray_segment};
pub use segment_circle::{intersect_segment_circle, overlap_segment_circle};
pub use segment_segment::{intersect_segment_segment, overlap_segment_segment};
pub(crate) use sweep::is_concave;
pub use sweep::{
    sweep, sweep_circle_circle, sweep_polygon_circle, sweep_polygon_polygon, sweep_polygon_segment,
    sweep_segment_circle, sweep_segment_segment,
};

use bevy::math::Vec2;
use smallvec::SmallVec;

/// The relative tolerance that decides touching: see the [module docs](self#tolerance).
pub const TOLERANCE: f32 = 1e-5;

/// The largest coordinate or radius the tests are meant for, `1e18`: beyond it squares and
/// cross products could overflow `f32`. Finite input beyond it is outside the supported range:
/// no test panics or returns NaN there, but the verdict is unspecified (most tests reject it as
/// if it were infinite).
pub const MAX_COORDINATE: f32 = 1e18;

/// The smallest size the tests resolve, `1e-18`: the other end of the range from
/// [`MAX_COORDINATE`]. The tests multiply lengths together, and below this the products fall
/// under `f32`'s normal range (`1.2e-38`) and lose their precision; so a shape smaller than it
/// (a radius, a segment's length or a polygon's extent between zero and `MIN_SIZE`), or a gap
/// narrower than it, is not resolved: two such shapes apart may be reported touching. Nothing
/// panics or returns NaN there. Zero is exact: a circle of radius zero, or a zero-length segment,
/// is a point. Shapes from `MIN_SIZE` to [`MAX_COORDINATE`] are answered as shapes of
/// ordinary size are: scaled by a power of two, a pair's answer is scaled by exactly that
/// factor. Not always where the pair is degenerate within the tolerance (an exact tangency,
/// outlines running along each other within rounding): there some tests choose between
/// computations by magnitude (to keep squares in range), and which nearby points merge, or
/// whether a touch within one rounding step counts, may differ from one scale to another.
///
/// The colliders' constructors refuse sizes between zero and `MIN_SIZE`
/// ([`ColliderError::TooSmall`](crate::ColliderError::TooSmall)), and the plugin skips, with a
/// warning, a collider whose world size falls there (a tiny scale).
pub const MIN_SIZE: f32 = 1e-18;

/// A solid circle (a disc): every point within `radius` of `center`, circumference included.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Circle {
    /// The centre.
    pub center: Vec2,
    /// The radius, `≥ 0`; zero makes the circle a point.
    pub radius: f32,
}

impl Circle {
    /// A circle of `radius` around `center`.
    #[inline]
    pub const fn new(center: Vec2, radius: f32) -> Self {
        Self { center, radius }
    }

    /// Whether the circle is usable: centre within [`MAX_COORDINATE`] and
    /// `0 ≤ radius ≤ MAX_COORDINATE` (so NaN and infinities are not).
    #[inline]
    pub fn is_valid(&self) -> bool {
        in_range(self.center) && (0.0..=MAX_COORDINATE).contains(&self.radius)
    }
}

/// The closed line segment from `a` to `b`; `a == b` makes it a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// The start point.
    pub a: Vec2,
    /// The end point.
    pub b: Vec2,
}

impl Segment {
    /// The segment from `a` to `b`.
    #[inline]
    pub const fn new(a: Vec2, b: Vec2) -> Self {
        Self { a, b }
    }

    /// Whether both ends lie within [`MAX_COORDINATE`] (so NaN and infinities do not).
    #[inline]
    pub fn is_valid(&self) -> bool {
        in_range(self.a) && in_range(self.b)
    }

    /// The radius of the smallest circle around the segment: half its length.
    #[inline]
    pub fn half_length(&self) -> f32 {
        0.5 * self.a.distance(self.b)
    }
}

/// The points where two outlines cross or touch; inline up to four, which covers every
/// circle and segment pair and most polygon contacts.
pub type Points = SmallVec<[Vec2; 4]>;

/// Which of two overlapping shapes lies inside the other when their outlines do not meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Containment {
    /// The outlines cross or touch: see [`Intersection::points`].
    #[default]
    Neither,
    /// The first shape lies wholly inside the second.
    FirstInSecond,
    /// The second shape lies wholly inside the first.
    SecondInFirst,
    /// The outlines coincide everywhere (two identical circles): each contains the other and
    /// the shared outline has no end points to report.
    Coincident,
}

impl Containment {
    /// The same fact with the two shapes swapped.
    #[inline]
    #[must_use]
    pub const fn mirrored(self) -> Self {
        match self {
            Self::FirstInSecond => Self::SecondInFirst,
            Self::SecondInFirst => Self::FirstInSecond,
            other => other,
        }
    }
}

/// The full answer for an overlapping pair: where the outlines meet, or which shape contains the
/// other. Returned only for overlapping shapes, so `points` is empty exactly when `containment`
/// is not [`Containment::Neither`].
#[derive(Clone, Debug, PartialEq)]
pub struct Intersection {
    /// The points where the outlines cross or touch, in the order the
    /// [module docs](self#points) give.
    pub points: Points,
    /// Which shape lies inside the other when the outlines do not meet.
    pub containment: Containment,
}

impl Intersection {
    /// Outlines meeting at `points` (must not be empty).
    #[inline]
    pub(crate) fn crossing(points: Points) -> Self {
        debug_assert!(!points.is_empty());
        Self {
            points,
            containment: Containment::Neither,
        }
    }

    /// Outlines that do not meet, one shape inside the other.
    #[inline]
    pub(crate) fn contained(containment: Containment) -> Self {
        Self {
            points: Points::new(),
            containment,
        }
    }

    /// The same answer with the two shapes swapped: containment mirrored, points unchanged.
    #[inline]
    #[must_use]
    pub fn mirrored(mut self) -> Self {
        self.containment = self.containment.mirrored();
        self
    }
}

/// Where and when two moving shapes first touch: the answer of a [sweep](mod@sweep), whose
/// module docs give the conventions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// The fraction of the motion, in `[0, 1]`, at which the two first touch.
    pub time: f32,
    /// Where they touch at that time, both shapes moved by `time` × their motion.
    pub point: Vec2,
    /// The unit contact normal at `point`, pointing from the second shape towards the first
    /// (where the sweep's last check finds the two touching only at the end of the motion, the
    /// opposite of their relative motion instead: see the [sweep](mod@sweep) module).
    pub normal: Vec2,
}

impl Impact {
    /// The same impact with the two shapes swapped: the normal negated, time and point
    /// unchanged.
    #[inline]
    #[must_use]
    pub fn mirrored(self) -> Self {
        Self {
            normal: -self.normal,
            ..self
        }
    }
}

/// Appends `point` unless it lies within `tolerance` of the last point appended.
///
/// Points are found in order along an outline, so a point found twice (a vertex met from both
/// of its edges, a crossing where two edges of the other shape meet) is found twice in a row:
/// comparing with the last one is enough, and keeps the cost linear in the number of points.
/// An outline walked all the way round may end where it began: see [`drop_near_duplicates`].
#[inline]
pub(crate) fn push_unique(points: &mut Points, point: Vec2, tolerance: f32) {
    if points
        .last()
        .is_none_or(|last| last.distance_squared(point) > tolerance * tolerance)
    {
        points.push(point);
    }
}

/// Drops every point that lies within `tolerance` of an earlier one, keeping the order: the
/// last step of a polygon pair's points. [`push_unique`] has already merged the repeats found
/// in a row; what is left is the loop's end meeting its start, and points found apart along
/// the outline yet close together (a long, thin shape). A few points are compared pair by
/// pair, each with the points kept before it; many are sorted along the axis they spread over
/// most first, so the cost stays `n log n`, and of each close pair the later goes (in a chain
/// of close points, one close only to a dropped point may go too).
#[inline]
pub(crate) fn drop_near_duplicates(points: &mut Points, tolerance: f32) {
    // A circle's crossings with a polygon or a segment: most often two, or one.
    match points[..] {
        [] | [_] => {}
        [first, second] => {
            if first.distance_squared(second) <= tolerance * tolerance {
                points.truncate(1);
            }
        }
        _ => drop_near_duplicates_of_many(points, tolerance),
    }
}

/// [`drop_near_duplicates`] for three points or more.
fn drop_near_duplicates_of_many(points: &mut Points, tolerance: f32) {
    const PAIRWISE: usize = 16;
    let tolerance_squared = tolerance * tolerance;
    let close = |p: Vec2, q: Vec2| p.distance_squared(q) <= tolerance_squared;
    if points.len() <= PAIRWISE {
        let mut kept = 0;
        for index in 0..points.len() {
            let point = points[index];
            if !points[..kept].iter().any(|&earlier| close(earlier, point)) {
                points[kept] = point;
                kept += 1;
            }
        }
        points.truncate(kept);
        return;
    }
    let axis = wider_axis(points.iter().copied());
    let mut sorted: Vec<usize> = (0..points.len()).collect();
    sorted.sort_unstable_by(|&i, &j| points[i][axis].total_cmp(&points[j][axis]));
    let mut dropped = vec![false; points.len()];
    for (rank, &i) in sorted.iter().enumerate() {
        if dropped[i] {
            continue;
        }
        for &j in &sorted[rank + 1..] {
            if points[j][axis] - points[i][axis] > tolerance {
                break;
            }
            if !dropped[j] && close(points[i], points[j]) {
                // The later of the two along the outline goes.
                dropped[i.max(j)] = true;
            }
        }
    }
    let mut index = 0;
    points.retain(|_| {
        index += 1;
        !dropped[index - 1]
    });
}

/// The axis (0 for x, 1 for y) along which `points` spread the most: what to sort them along
/// so that few share a coordinate, and a sorted scan for near neighbours stays short.
pub(crate) fn wider_axis(points: impl Iterator<Item = Vec2>) -> usize {
    let (min, max) = points.fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(min, max), p| {
        (min.min(p), max.max(p))
    });
    usize::from(max.y - min.y > max.x - min.x)
}

/// Whether a point lies within [`MAX_COORDINATE`] on both axes (NaN does not).
#[inline]
pub(crate) fn in_range(point: Vec2) -> bool {
    // Both coordinates compared at once, without a branch (NaN fails).
    point.abs().cmple(Vec2::splat(MAX_COORDINATE)).all()
}

/// Whether every vertex lies within [`MAX_COORDINATE`]. Folded without a branch (every pair
/// test of a polygon starts with it, and the answer is almost always yes), which the compiler
/// vectorises.
#[inline]
pub(crate) fn all_in_range(vertices: &[Vec2]) -> bool {
    vertices.iter().fold(true, |all, &v| {
        all & (v.x.abs() <= MAX_COORDINATE) & (v.y.abs() <= MAX_COORDINATE)
    })
}

/// The edges of a vertex loop, in order: `(vertices[i], vertices[i + 1])`, closing with
/// `(vertices[n - 1], vertices[0])`. Two vertices give one edge (a polyline), and one vertex
/// gives one edge of zero length from it to itself: a point, which every pair test already
/// treats as the point it is.
#[inline]
pub(crate) fn edges(vertices: &[Vec2]) -> impl Iterator<Item = Segment> + '_ {
    let n = vertices.len();
    let count = match n {
        0 => 0,
        1 | 2 => 1,
        _ => n,
    };
    (0..count).map(move |i| Segment::new(vertices[i], vertices[next_vertex(i, n)]))
}

/// The index after `index` around a loop of `count` vertices, without a division
/// (`(index + 1) % count`), which costs more than the rest of an edge test.
#[inline]
pub(crate) fn next_vertex(index: usize, count: usize) -> usize {
    if index + 1 < count { index + 1 } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// Up to 16 points (compared pair by pair) lose exactly those within the tolerance of a
    /// point kept before them, as a greedy pass over them in order keeps them; the two-point
    /// case included.
    #[test]
    fn near_duplicates_are_dropped_as_a_greedy_pass_would() {
        let mut rng = StdRng::seed_from_u64(5);
        let tolerance = 0.01;
        for _ in 0..20_000 {
            let count = rng.random_range(0..=16);
            let mut points: Vec<Vec2> = Vec::with_capacity(count);
            for _ in 0..count {
                // One in three lands near (within or just past the tolerance of) an earlier one.
                let point = match points.len() {
                    len if len > 0 && rng.random_range(0..3) == 0 => {
                        let near = points[rng.random_range(0..len)];
                        let offset = Vec2::from_angle(rng.random_range(0.0..6.3));
                        near + offset * tolerance * rng.random_range(0.5..1.5)
                    }
                    _ => Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)),
                };
                points.push(point);
            }
            let mut expected: Vec<Vec2> = Vec::new();
            for &point in &points {
                let far = |kept: &Vec2| kept.distance_squared(point) > tolerance * tolerance;
                if expected.iter().all(far) {
                    expected.push(point);
                }
            }
            let mut dropped = Points::from_slice(&points);
            drop_near_duplicates(&mut dropped, tolerance);
            assert_eq!(dropped.as_slice(), expected.as_slice(), "{points:?}");
        }
    }
}
