//! What the fuzz targets share: turning libFuzzer's bytes into floats, points and shapes (with
//! both wild floats and "nice" ones, so that degenerate configurations come up often), the
//! conditions under which the geometry module promises precise answers, and `f64` references
//! (distance to an outline, simplicity of a polygon) to check those answers against.
//!
//! Nothing here is part of the crate under test.

use arbitrary::Arbitrary;
use bevy::math::{DVec2, Vec2};
use bevy_collision_events::geometry::{Circle, MAX_COORDINATE, Segment, Shape, TOLERANCE};
use std::fmt::Write as _;

/// The smallest size the geometry module resolves (`geometry::MIN_SIZE`, `1e-18`; written out
/// here, as the brief for these targets gives it, so that the targets build whether or not the
/// crate exports the constant).
pub const MIN_SIZE: f64 = 1e-18_f32 as f64;

/// Whether a length (a size, a motion) is 0 or at least [`MIN_SIZE`].
pub fn is_resolved(length: f64) -> bool {
    length == 0.0 || length >= MIN_SIZE
}

/// Whether to assert the known findings too (`FUZZ_STRICT=1`). By default the targets step
/// around the input classes of the findings already written down in `README.md`, so that a run
/// goes on to find new ones instead of the same one again; each such place is marked
/// `known finding`.
pub fn strict() -> bool {
    static STRICT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *STRICT.get_or_init(|| std::env::var_os("FUZZ_STRICT").is_some_and(|v| v != "0"))
}

/// The most vertices a generated polygon has.
pub const MAX_VERTICES: usize = 16;

// ---------------------------------------------------------------------------------------------
// Floats

/// A float chosen by the fuzzer: any bit pattern (NaN, infinities, subnormals, huge and tiny
/// values), or a "nice" value on a small grid, so that touching shapes, collinear edges and
/// shared vertices come up often, or one of a table of edge values.
#[derive(Arbitrary, Clone, Copy, Debug)]
pub enum Num {
    /// Any `f32`, from its bits.
    Bits(u32),
    /// A quarter-integer in `[-32, 32)`.
    Quarter(i8),
    /// An integer in `[-128, 127]`.
    Int(i8),
    /// A sixteenth in `[-8, 8)`: finer grid, still exact in `f32`.
    Sixteenth(i8),
    /// An entry of [`SPECIALS`].
    Special(u8),
}

/// Edge values: signed zeros, the ends of the `f32` range, the ends of the supported range,
/// values one ulp either side of them, values whose sums round.
pub const SPECIALS: &[f32] = &[
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
    3.0,
    0.1,
    1.0 / 3.0,
    core::f32::consts::SQRT_2,
    f32::EPSILON,
    1.0 + f32::EPSILON,
    1.0 - f32::EPSILON / 2.0,
    f32::MIN_POSITIVE,
    -f32::MIN_POSITIVE,
    1e-45, // the smallest subnormal
    1e-40,
    f32::MAX,
    f32::MIN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    MAX_COORDINATE,
    -MAX_COORDINATE,
    1.0000001e18, // one ulp above MAX_COORDINATE
    9.999999e17,  // one ulp below
    5e17,
    1e-18,
    -1e-18,
    9.999999e-19,
    1e-30,
    1e30,
    1e6,
    1_000_000.06,
    16_777_216.0,
    16_777_218.0,
    1e9,
    1e-9,
    1e-5,
    1e5,
];

impl Num {
    pub fn value(self) -> f32 {
        match self {
            Num::Bits(bits) => f32::from_bits(bits),
            Num::Quarter(i) => f32::from(i) / 4.0,
            Num::Int(i) => f32::from(i),
            Num::Sixteenth(i) => f32::from(i) / 16.0,
            Num::Special(i) => SPECIALS[usize::from(i) % SPECIALS.len()],
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Points and shapes

/// A point: fresh, or one generated earlier in the same input (a shared vertex, a segment end
/// on a polygon's vertex, a circle centred on a vertex, a repeated vertex).
#[derive(Arbitrary, Clone, Copy, Debug)]
pub enum PointIn {
    Fresh(Num, Num),
    Earlier(u8),
}

/// A shape as the fuzzer describes it.
#[derive(Arbitrary, Clone, Debug)]
pub enum ShapeIn {
    Circle {
        center: PointIn,
        radius: Num,
    },
    Segment {
        a: PointIn,
        b: PointIn,
    },
    /// Any vertex loop (truncated to [`MAX_VERTICES`]): concave, self-intersecting,
    /// degenerate, 0 to 2 vertices.
    Polygon(Vec<PointIn>),
    /// The convex hull of the points (simple by construction when it has 3 vertices or more).
    Hull(Vec<PointIn>),
    /// A regular polygon of 3 to 16 sides.
    Regular {
        center: PointIn,
        radius: Num,
        sides: u8,
        turn: Num,
    },
    /// The axis-aligned box with these opposite corners.
    Box {
        min: PointIn,
        max: PointIn,
    },
}

/// A shape built from a [`ShapeIn`], owning its vertices.
#[derive(Clone, Debug, PartialEq)]
pub enum Owned {
    Circle(Circle),
    Segment(Segment),
    Polygon(Vec<Vec2>),
}

/// Moves every point of the scene by `point * scale + offset` (radii by `|scale|`), in `f32`:
/// structured scenes at huge and tiny scales, and rounding that makes near-degenerate ones.
#[derive(Arbitrary, Clone, Copy, Debug)]
pub struct Placement {
    pub scale: Num,
    pub offset: (Num, Num),
}

/// A change of a few ulps to one coordinate of a shape (`index` modulo the number of
/// coordinates), to push exact configurations just off or onto each other.
#[derive(Arbitrary, Clone, Copy, Debug)]
pub struct Nudge {
    pub index: u8,
    pub ulps: i8,
}

/// Builds shapes, remembering every point made so far for [`PointIn::Earlier`].
#[derive(Default)]
pub struct Builder {
    points: Vec<Vec2>,
}

impl Builder {
    pub fn point(&mut self, point: PointIn) -> Vec2 {
        let p = match point {
            PointIn::Fresh(x, y) => Vec2::new(x.value(), y.value()),
            PointIn::Earlier(i) if !self.points.is_empty() => {
                self.points[usize::from(i) % self.points.len()]
            }
            PointIn::Earlier(_) => Vec2::ZERO,
        };
        self.points.push(p);
        p
    }

    /// Every coordinate of every point made so far.
    pub fn numbers(&self) -> Vec<f32> {
        self.points.iter().flat_map(|p| [p.x, p.y]).collect()
    }

    pub fn shape(&mut self, shape: &ShapeIn) -> Owned {
        match shape {
            ShapeIn::Circle { center, radius } => {
                Owned::Circle(Circle::new(self.point(*center), radius.value()))
            }
            ShapeIn::Segment { a, b } => {
                let a = self.point(*a);
                Owned::Segment(Segment::new(a, self.point(*b)))
            }
            ShapeIn::Polygon(points) => Owned::Polygon(
                points
                    .iter()
                    .take(MAX_VERTICES)
                    .map(|p| self.point(*p))
                    .collect(),
            ),
            ShapeIn::Hull(points) => {
                let points: Vec<Vec2> = points
                    .iter()
                    .take(MAX_VERTICES)
                    .map(|p| self.point(*p))
                    .collect();
                Owned::Polygon(convex_hull(&points))
            }
            ShapeIn::Regular {
                center,
                radius,
                sides,
                turn,
            } => {
                let center = self.point(*center);
                let (radius, turn) = (radius.value(), turn.value());
                let sides = 3 + usize::from(*sides) % (MAX_VERTICES - 2);
                Owned::Polygon(
                    (0..sides)
                        .map(|i| {
                            let angle = turn + i as f32 * core::f32::consts::TAU / sides as f32;
                            center + Vec2::from_angle(angle) * radius
                        })
                        .collect(),
                )
            }
            ShapeIn::Box { min, max } => {
                let (a, b) = (self.point(*min), self.point(*max));
                Owned::Polygon(vec![a, Vec2::new(b.x, a.y), b, Vec2::new(a.x, b.y)])
            }
        }
    }
}

/// The convex hull (counter-clockwise, collinear points dropped) of finite points, by Andrew's
/// monotone chain with `f64` orientation tests; non-finite points are kept out. May have fewer
/// than three vertices.
pub fn convex_hull(points: &[Vec2]) -> Vec<Vec2> {
    let mut sorted: Vec<Vec2> = points.iter().copied().filter(|p| p.is_finite()).collect();
    sorted.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    sorted.dedup();
    if sorted.len() < 3 {
        return sorted;
    }
    let turn = |o: Vec2, a: Vec2, b: Vec2| orientation(o.as_dvec2(), a.as_dvec2(), b.as_dvec2());
    let mut hull: Vec<Vec2> = Vec::with_capacity(2 * sorted.len());
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
            Box::new(sorted.iter())
        } else {
            Box::new(sorted.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2 && turn(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

impl Owned {
    pub fn shape(&self) -> Shape<'_> {
        match self {
            Owned::Circle(c) => Shape::Circle(*c),
            Owned::Segment(s) => Shape::Segment(*s),
            Owned::Polygon(v) => Shape::Polygon(v),
        }
    }

    pub fn apply(&mut self, placement: &Placement) {
        let scale = placement.scale.value();
        let offset = Vec2::new(placement.offset.0.value(), placement.offset.1.value());
        let f = |p: &mut Vec2| *p = *p * scale + offset;
        match self {
            Owned::Circle(c) => {
                f(&mut c.center);
                c.radius *= scale.abs();
            }
            Owned::Segment(s) => {
                f(&mut s.a);
                f(&mut s.b);
            }
            Owned::Polygon(v) => v.iter_mut().for_each(f),
        }
    }

    fn coordinates_mut(&mut self) -> Vec<&mut f32> {
        match self {
            Owned::Circle(c) => vec![&mut c.center.x, &mut c.center.y, &mut c.radius],
            Owned::Segment(s) => vec![&mut s.a.x, &mut s.a.y, &mut s.b.x, &mut s.b.y],
            Owned::Polygon(v) => v.iter_mut().flat_map(|p| [&mut p.x, &mut p.y]).collect(),
        }
    }

    pub fn nudge(&mut self, nudge: Nudge) {
        let mut coordinates = self.coordinates_mut();
        if coordinates.is_empty() {
            return;
        }
        let n = coordinates.len();
        let x = &mut coordinates[usize::from(nudge.index) % n];
        for _ in 0..nudge.ulps.unsigned_abs() {
            **x = if nudge.ulps > 0 { x.next_up() } else { x.next_down() };
        }
    }

    /// The shape with every number multiplied by `2^k`, when that is exact (see
    /// [`scale_exactly`]).
    pub fn scaled(&self, k: i32) -> Option<Owned> {
        let f = |x: f32| scale_exactly(x, k);
        let p = |v: Vec2| Some(Vec2::new(f(v.x)?, f(v.y)?));
        Some(match self {
            Owned::Circle(c) => Owned::Circle(Circle::new(p(c.center)?, f(c.radius)?)),
            Owned::Segment(s) => Owned::Segment(Segment::new(p(s.a)?, p(s.b)?)),
            Owned::Polygon(v) => Owned::Polygon(v.iter().map(|q| p(*q)).collect::<Option<_>>()?),
        })
    }

    /// The shape moved by `motion`, in `f32`, as the sweep's guarantee moves it.
    pub fn moved(&self, motion: Vec2) -> Owned {
        match self {
            Owned::Circle(c) => Owned::Circle(Circle::new(c.center + motion, c.radius)),
            Owned::Segment(s) => Owned::Segment(Segment::new(s.a + motion, s.b + motion)),
            Owned::Polygon(v) => Owned::Polygon(v.iter().map(|p| *p + motion).collect()),
        }
    }

    /// Every number of the shape (coordinates and radius).
    pub fn numbers(&self) -> Vec<f32> {
        match self {
            Owned::Circle(c) => vec![c.center.x, c.center.y, c.radius],
            Owned::Segment(s) => vec![s.a.x, s.a.y, s.b.x, s.b.y],
            Owned::Polygon(v) => v.iter().flat_map(|p| [p.x, p.y]).collect(),
        }
    }

    /// Whether some number is non-zero and smaller in magnitude than [`MIN_SIZE`] (a
    /// subnormal, say): known finding 3 (products of such numbers fall below `f32`'s normal
    /// range and a sweep's time comes out wrong) lies there.
    pub fn has_tiny_number(&self) -> bool {
        self.numbers().iter().any(|x| *x != 0.0 && f64::from(x.abs()) < MIN_SIZE)
    }

    pub fn has_non_finite(&self) -> bool {
        self.numbers().iter().any(|x| !x.is_finite())
    }

    /// Whether every number is finite and within [`MAX_COORDINATE`], and a radius is `≥ 0`:
    /// the documented range.
    pub fn in_range(&self) -> bool {
        let radius_ok = match self {
            Owned::Circle(c) => c.radius >= 0.0,
            _ => true,
        };
        radius_ok && self.numbers().iter().all(|x| x.abs() <= MAX_COORDINATE)
    }

    /// The size the tolerance is scaled by, in `f64` (the module docs' rule, as the crate
    /// computes it: a circle's radius, half a segment's length, half the diagonal of a polygon's
    /// bounding box).
    pub fn size(&self) -> f64 {
        match self {
            Owned::Circle(c) => f64::from(c.radius),
            Owned::Segment(s) => 0.5 * s.a.as_dvec2().distance(s.b.as_dvec2()),
            Owned::Polygon(v) if v.is_empty() => 0.0,
            Owned::Polygon(v) => {
                let min = v.iter().fold(DVec2::INFINITY, |m, p| m.min(p.as_dvec2()));
                let max = v.iter().fold(DVec2::NEG_INFINITY, |m, p| m.max(p.as_dvec2()));
                0.5 * min.distance(max)
            }
        }
    }

    /// The largest magnitude of any point of the shape, in `f64`: its coordinates, plus the
    /// radius for a circle (its outline reaches that far).
    pub fn magnitude(&self) -> f64 {
        match self {
            Owned::Circle(c) => c.center.as_dvec2().abs().max_element() + f64::from(c.radius),
            _ => self
                .numbers()
                .iter()
                .map(|x| f64::from(x.abs()))
                .fold(0.0, f64::max),
        }
    }

    /// In range, and of a size of 0 or at least [`MIN_SIZE`] (the range the module resolves).
    pub fn in_resolved_range(&self) -> bool {
        self.in_range() && is_resolved(self.size())
    }

    /// The conditions under which the points must lie on the outlines: in range, a size of 0
    /// or at least [`MIN_SIZE`], and a polygon of 3 vertices or more simple (checked in `f64`).
    ///
    /// Known finding 3: a number below `MIN_SIZE` that is not zero (a subnormal coordinate, an
    /// edge shorter than `MIN_SIZE` inside a larger polygon) gives answers wrong by far more
    /// than a gap (a sweep's time, a crossing point 0.05 off the other outline); unless
    /// [`strict`], such shapes are not precise.
    pub fn is_precise(&self) -> bool {
        self.in_resolved_range()
            && (strict() || !self.has_tiny_number())
            && match self {
                Owned::Polygon(v) => v.len() < 3 || is_simple(v),
                _ => true,
            }
    }

    /// Points of the shape that must lie in any shape said to contain it: a circle's centre and
    /// its four extreme points, a segment's ends, a polygon's vertices.
    pub fn samples(&self) -> Vec<DVec2> {
        match self {
            Owned::Circle(c) => {
                let (o, r) = (c.center.as_dvec2(), f64::from(c.radius));
                vec![o, o + DVec2::X * r, o - DVec2::X * r, o + DVec2::Y * r, o - DVec2::Y * r]
            }
            Owned::Segment(s) => vec![s.a.as_dvec2(), s.b.as_dvec2()],
            Owned::Polygon(v) => v.iter().map(|p| p.as_dvec2()).collect(),
        }
    }

    /// Whether `point` lies in the solid shape, in `f64` (a circle's disc, a polygon of 3 or more
    /// vertices by the even–odd rule); segments and polylines have no inside.
    pub fn contains(&self, point: DVec2) -> bool {
        match self {
            Owned::Circle(c) => point.distance(c.center.as_dvec2()) <= f64::from(c.radius),
            Owned::Segment(_) => false,
            Owned::Polygon(v) if v.len() < 3 => false,
            Owned::Polygon(v) => {
                let n = v.len();
                let mut inside = false;
                for i in 0..n {
                    let (a, b) = (v[i].as_dvec2(), v[(i + 1) % n].as_dvec2());
                    if (a.y > point.y) != (b.y > point.y)
                        && point.x < a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x)
                    {
                        inside = !inside;
                    }
                }
                inside
            }
        }
    }

    /// The outline in `f64`.
    pub fn outline(&self) -> Outline {
        let d = |v: Vec2| v.as_dvec2();
        match self {
            Owned::Circle(c) => Outline::Circle(d(c.center), f64::from(c.radius)),
            Owned::Segment(s) => Outline::Pieces(vec![(d(s.a), d(s.b))]),
            Owned::Polygon(v) => Outline::Pieces(match v.len() {
                0 => vec![],
                1 => vec![(d(v[0]), d(v[0]))],
                2 => vec![(d(v[0]), d(v[1]))],
                n => (0..n).map(|i| (d(v[i]), d(v[(i + 1) % n]))).collect(),
            }),
        }
    }

    /// The outline in `f64`, moved by `motion` (`f64`), for a sweep's point at its time.
    pub fn outline_moved(&self, motion: DVec2) -> Outline {
        match self.outline() {
            Outline::Circle(c, r) => Outline::Circle(c + motion, r),
            Outline::Pieces(p) => {
                Outline::Pieces(p.into_iter().map(|(a, b)| (a + motion, b + motion)).collect())
            }
        }
    }

    /// The shape as Rust source, for a regression test.
    pub fn literal(&self) -> String {
        match self {
            Owned::Circle(c) => format!(
                "Shape::Circle(Circle::new({}, {}))",
                vec2(c.center),
                float(c.radius)
            ),
            Owned::Segment(s) => format!(
                "Shape::Segment(Segment::new({}, {}))",
                vec2(s.a),
                vec2(s.b)
            ),
            Owned::Polygon(v) => {
                let mut out = String::from("Shape::Polygon(&[");
                for (i, p) in v.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&vec2(*p));
                }
                out.push_str("])");
                out
            }
        }
    }
}

/// A float as Rust source: the shortest decimal that round-trips (what `{:?}` prints), or the
/// constant, or the bits of a NaN.
pub fn float(x: f32) -> String {
    if x.is_nan() {
        format!("f32::from_bits({:#010x})", x.to_bits())
    } else if x == f32::INFINITY {
        "f32::INFINITY".into()
    } else if x == f32::NEG_INFINITY {
        "f32::NEG_INFINITY".into()
    } else {
        let s = format!("{x:?}");
        debug_assert_eq!(s.parse::<f32>().map(f32::to_bits), Ok(x.to_bits()));
        s
    }
}

pub fn vec2(p: Vec2) -> String {
    format!("Vec2::new({}, {})", float(p.x), float(p.y))
}

/// A `Vec2` with the bit patterns too, for messages.
pub fn bits(p: Vec2) -> String {
    let mut s = vec2(p);
    let _ = write!(s, " [{:#010x}, {:#010x}]", p.x.to_bits(), p.y.to_bits());
    s
}

// ---------------------------------------------------------------------------------------------
// f64 references

/// An outline in `f64`: a circle, or pieces (segments; a point is a piece of zero length).
pub enum Outline {
    Circle(DVec2, f64),
    Pieces(Vec<(DVec2, DVec2)>),
}

impl Outline {
    /// The distance from `point` to the outline (infinite for an empty one).
    pub fn distance(&self, point: DVec2) -> f64 {
        match self {
            Outline::Circle(center, radius) => (point.distance(*center) - radius).abs(),
            Outline::Pieces(pieces) => pieces
                .iter()
                .map(|(a, b)| distance_to_segment(point, *a, *b))
                .fold(f64::INFINITY, f64::min),
        }
    }
}

pub fn distance_to_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    let length_squared = ab.length_squared();
    let t = if length_squared == 0.0 {
        0.0
    } else {
        ((p - a).dot(ab) / length_squared).clamp(0.0, 1.0)
    };
    p.distance(a + ab * t)
}

/// `(a − o) × (b − o)`: positive when `o → a → b` turns left.
pub fn orientation(o: DVec2, a: DVec2, b: DVec2) -> f64 {
    (a - o).perp_dot(b - o)
}

/// Whether two closed segments share a point, in `f64` (differences of `f32` inputs are exact
/// in `f64` whenever the exponents are within 29 of each other; the products round).
pub fn segments_touch(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let (o1, o2) = (orientation(a, b, c), orientation(a, b, d));
    let (o3, o4) = (orientation(c, d, a), orientation(c, d, b));
    let within = |p: DVec2, q: DVec2, x: DVec2| {
        x.x >= p.x.min(q.x) && x.x <= p.x.max(q.x) && x.y >= p.y.min(q.y) && x.y <= p.y.max(q.y)
    };
    if o1 == 0.0 && within(a, b, c)
        || o2 == 0.0 && within(a, b, d)
        || o3 == 0.0 && within(c, d, a)
        || o4 == 0.0 && within(c, d, b)
    {
        return true;
    }
    (o1 > 0.0) != (o2 > 0.0) && o1 != 0.0 && o2 != 0.0 && (o3 > 0.0) != (o4 > 0.0) && o3 != 0.0 && o4 != 0.0
}

/// Whether a vertex loop of 3 or more vertices is a simple polygon, checked in `f64`
/// (quadratic): no edge of zero length, no two neighbouring edges folding back over each other,
/// no two other edges sharing any point.
pub fn is_simple(vertices: &[Vec2]) -> bool {
    let n = vertices.len();
    if n < 3 {
        return false;
    }
    let v: Vec<DVec2> = vertices.iter().map(|p| p.as_dvec2()).collect();
    let edge = |i: usize| (v[i], v[(i + 1) % n]);
    for i in 0..n {
        let (a, b) = edge(i);
        let (_, c) = edge((i + 1) % n);
        if a == b {
            return false;
        }
        // Neighbours fold back: collinear and turning by half a turn.
        let (d1, d2) = (b - a, c - b);
        if d1.perp_dot(d2) == 0.0 && d1.dot(d2) < 0.0 {
            return false;
        }
        for j in i + 2..n {
            if i == 0 && j == n - 1 {
                continue;
            }
            let (c, d) = edge(j);
            if segments_touch(a, b, c, d) {
                return false;
            }
        }
    }
    true
}

/// How far a reported point may lie from either outline of a precise pair:
///
/// - `4 × TOLERANCE × (size₁ + size₂)`: the module's tolerance is what its snapping may move a
///   point by (a crossing found up to the tolerance past a segment's end clamped onto the end,
///   near-parallel edges within the tolerance made collinear and their shared piece reported
///   by the ends, tangent points merged into one, nearby points merged). A point snapped that
///   way is within one tolerance of the outline it was not computed on; the factor 4 leaves
///   room for those snaps compounding with each other and with the tolerance itself being
///   computed in `f32` (the same factor as `tests/geometry_properties.rs`);
/// - `16 × f32::EPSILON × magnitude`: the rounding of the coordinates themselves (about
///   `2e-6` of the largest coordinate, as in `tests/geometry_properties.rs`): a point computed
///   as `a + t (b − a)` from coordinates of magnitude `m` carries a few ulps of `m` however
///   small the shapes are (an `f32` near `1e6` is a multiple of `1/16`);
/// - [`MIN_SIZE`]: the module docs say a gap narrower than `MIN_SIZE` is not resolved (two
///   shapes that far apart may be reported touching, at a point on one of them).
pub fn point_tolerance(sizes: f64, magnitude: f64) -> f64 {
    4.0 * f64::from(TOLERANCE) * sizes + 16.0 * f64::from(f32::EPSILON) * magnitude + MIN_SIZE
}

/// `x × 2^k` when that is exact both ways and normal (or zero): what the power-of-two scale
/// check multiplies every number by.
pub fn scale_exactly(x: f32, k: i32) -> Option<f32> {
    let y = x * 2f32.powi(k);
    let normal = |v: f32| v == 0.0 || v.is_normal();
    (normal(x) && normal(y) && y * 2f32.powi(-k) == x).then_some(y)
}

/// A power of two from a fuzzer's byte, `2^-64` to `2^63`, never `2^0`.
pub fn power(k: i8) -> i32 {
    let k = i32::from(k) % 64;
    if k == 0 { 1 } else { k }
}

/// Known finding 5: answers change with a power-of-two scale for shapes far below 1 (the
/// squared tolerance times a squared length leaves `f32`'s normal range below about `1e-7`)
/// and for coordinates near `MAX_COORDINATE` (a distance's square overflows at one scale and
/// not at the other, taking another branch; polygon pairs multiply the squared tolerance by a
/// squared length, `1e-10 s⁴` for a size `s`, which leaves the normal range below `s ≈ 2e-7` and
/// overflows above `s ≈ 1.4e12`; a segment's squared distance times its squared length, `~16 s⁴`,
/// overflows above `s ≈ 1e9`, where the crate divides first: another rounding). Unless
/// [`strict`], the scale checks take only scenes whose non-zero numbers and shape sizes lie
/// within `[2^-20, 2^29]` (about `1e-6` to `5.4e8`), before and after scaling.
pub fn within_scale_checked_range(numbers: &[f32]) -> bool {
    strict() || numbers.iter().all(|x| *x == 0.0 || (x.abs() >= 2f32.powi(-20) && x.abs() <= 2f32.powi(29)))
}

/// The sweep's guarantee at the end of the motion is asked (unless [`strict`]) only of scenes
/// whose numbers (shapes, motions, moved shapes) are at most `2^38` in magnitude: beyond, the
/// start's own `overlap` verdict is rounding and differs with the order (known finding 4;
/// `examples/findings.rs` part 7: a polyline reaching `7e17` "overlaps" a 16-gon 0.5 away in
/// one order, so the pair function rightly returns `None`, and the check would blame it).
pub fn guarantee_checked(numbers: &[f32]) -> bool {
    strict() || numbers.iter().all(|x| x.abs() <= 2f32.powi(38))
}

/// Known finding 4: `overlap` differs with the order for polygons of fewer than 3 distinct
/// vertices (a point or a polyline given as a polygon) against each other, and for shapes with
/// a number below [`MIN_SIZE`]. Unless [`strict`], the symmetry check skips those.
pub fn symmetry_known_broken(shape: &Owned) -> bool {
    if strict() {
        return false;
    }
    let degenerate = match shape {
        Owned::Polygon(v) => {
            let mut distinct: Vec<Vec2> = Vec::new();
            for p in v {
                if !distinct.contains(p) {
                    distinct.push(*p);
                }
            }
            distinct.len() < 3
        }
        _ => false,
    };
    degenerate || shape.has_tiny_number()
}

/// Whether every non-zero number is at least [`MIN_SIZE`] in magnitude: no coordinate so tiny
/// that a gap below `MIN_SIZE` (not resolved, by the module docs) is likely.
pub fn no_tiny_numbers(numbers: &[f32]) -> bool {
    numbers
        .iter()
        .all(|x| *x == 0.0 || f64::from(x.abs()) >= MIN_SIZE)
}
