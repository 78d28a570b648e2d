//! Property tests of the geometry core against references that are not the code under test:
//!
//! - **overlap** against `parry2d`'s `intersection_test`: discs, segments and convex polygons
//!   directly; concave (star-shaped) polygons as the fan of triangles they are made of;
//! - **points**: each lies on both outlines, computed in `f64` here; their count equals the
//!   number of crossings counted edge by edge in `f64` by this file's own code, away from
//!   tangencies and other near-degenerate configurations (where the count is a matter of
//!   tolerance, not of geometry);
//! - **containment** against `parry2d`'s point queries;
//! - the same answer in both argument orders, `overlap` agreeing with `intersect`, and no NaN
//!   for any finite input, degenerate ones included;
//! - **push-out** against a dense search over directions, parry2d saying what overlaps: the
//!   move separates the pair, and no shorter move in any of 360 directions does.
//!
//! Thousands of cases per pair, from a fixed seed so that CI is reproducible.

use bevy::math::{DVec2, Vec2};
use bevy_collision_events::geometry::{
    Circle, Containment, Intersection, PushOut, Segment, Shape, TOLERANCE, intersect, overlap,
    polygon_size, push_out,
};
use parry2d::math::{Pose, Vector as ParryVector};
use parry2d::query;
use parry2d::shape as parry;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// Cases per property; `GEOMETRY_CASES` overrides it.
const CASES: u32 = 3000;

/// A fixed seed, so CI is reproducible; `GEOMETRY_SEED` picks another, to search further.
fn config() -> Config {
    let from_env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    Config {
        cases: from_env("GEOMETRY_CASES").map_or(CASES, |cases: u64| cases as u32),
        rng_seed: RngSeed::Fixed(from_env("GEOMETRY_SEED").unwrap_or(0x00C0_FFEE)),
        failure_persistence: None,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Generated shapes

/// A shape owned by the test, with what the references need to know about it.
#[derive(Clone, Debug)]
enum Generated {
    Circle(Circle),
    Segment(Segment),
    /// A convex polygon (counter-clockwise hull vertices).
    Convex(Vec<Vec2>),
    /// A concave-in-general polygon, star-shaped around `center`: the fan of triangles from
    /// `center` covers it exactly, which is how the reference sees it.
    Star {
        center: Vec2,
        vertices: Vec<Vec2>,
    },
}

impl Generated {
    fn shape(&self) -> Shape<'_> {
        match self {
            Generated::Circle(c) => Shape::Circle(*c),
            Generated::Segment(s) => Shape::Segment(*s),
            Generated::Convex(v) | Generated::Star { vertices: v, .. } => Shape::Polygon(v),
        }
    }

    fn translated(&self, offset: Vec2) -> Self {
        match self {
            Generated::Circle(c) => Generated::Circle(Circle::new(c.center + offset, c.radius)),
            Generated::Segment(s) => Generated::Segment(Segment::new(s.a + offset, s.b + offset)),
            Generated::Convex(v) => Generated::Convex(v.iter().map(|p| *p + offset).collect()),
            Generated::Star { center, vertices } => Generated::Star {
                center: *center + offset,
                vertices: vertices.iter().map(|p| *p + offset).collect(),
            },
        }
    }

    /// The size the tolerance is scaled by (the geometry module's documented rule).
    fn size(&self) -> f32 {
        match self {
            Generated::Circle(c) => c.radius,
            Generated::Segment(s) => s.half_length(),
            Generated::Convex(v) | Generated::Star { vertices: v, .. } => polygon_size(v),
        }
    }

    fn max_coordinate(&self) -> f32 {
        let points: Vec<Vec2> = match self {
            Generated::Circle(c) => vec![c.center],
            Generated::Segment(s) => vec![s.a, s.b],
            Generated::Convex(v) | Generated::Star { vertices: v, .. } => v.clone(),
        };
        points
            .iter()
            .map(|p| p.abs().max_element())
            .fold(0.0, f32::max)
    }

    /// A point of the shape, to test containment with.
    fn some_point(&self) -> Vec2 {
        match self {
            Generated::Circle(c) => c.center,
            Generated::Segment(s) => s.a,
            Generated::Convex(v) | Generated::Star { vertices: v, .. } => v[0],
        }
    }

    /// The shape as parry2d sees it: convex pieces whose union is the shape.
    fn parry_parts(&self) -> Vec<(Pose, Box<dyn parry::Shape>)> {
        let p = |v: Vec2| ParryVector::new(v.x, v.y);
        match self {
            Generated::Circle(c) => vec![(
                Pose::from_translation(p(c.center)),
                Box::new(parry::Ball::new(c.radius)),
            )],
            Generated::Segment(s) => vec![(
                Pose::identity(),
                Box::new(parry::Segment::new(p(s.a), p(s.b))),
            )],
            Generated::Convex(v) => {
                let points: Vec<ParryVector> = v.iter().map(|v| p(*v)).collect();
                vec![(
                    Pose::identity(),
                    Box::new(parry::ConvexPolygon::from_convex_polyline(points).unwrap()),
                )]
            }
            Generated::Star { center, vertices } => (0..vertices.len())
                .map(|i| {
                    let next = vertices[(i + 1) % vertices.len()];
                    let triangle = parry::Triangle::new(p(*center), p(vertices[i]), p(next));
                    (
                        Pose::identity(),
                        Box::new(triangle) as Box<dyn parry::Shape>,
                    )
                })
                .collect(),
        }
    }

    /// The outline in f64: a circle, or the pieces (edges) of a segment or polygon.
    fn outline(&self) -> Outline {
        let d = |v: Vec2| v.as_dvec2();
        match self {
            Generated::Circle(c) => Outline::Circle(d(c.center), c.radius as f64),
            Generated::Segment(s) => Outline::Pieces(vec![(d(s.a), d(s.b))]),
            Generated::Convex(v) | Generated::Star { vertices: v, .. } => Outline::Pieces(
                (0..v.len())
                    .map(|i| (d(v[i]), d(v[(i + 1) % v.len()])))
                    .collect(),
            ),
        }
    }
}

fn coordinate() -> impl Strategy<Value = f32> {
    -40.0f32..40.0
}

fn point() -> impl Strategy<Value = Vec2> {
    (coordinate(), coordinate()).prop_map(|(x, y)| Vec2::new(x, y))
}

fn circle() -> impl Strategy<Value = Generated> {
    prop_oneof![
        8 => (point(), 0.0f32..30.0).prop_map(|(c, r)| Generated::Circle(Circle::new(c, r))),
        1 => point().prop_map(|c| Generated::Circle(Circle::new(c, 0.0))),
    ]
}

fn segment() -> impl Strategy<Value = Generated> {
    prop_oneof![
        8 => (point(), point()).prop_map(|(a, b)| Generated::Segment(Segment::new(a, b))),
        1 => point().prop_map(|a| Generated::Segment(Segment::new(a, a))),
    ]
}

fn convex() -> impl Strategy<Value = Generated> {
    (
        point(),
        prop::collection::vec((-25.0f32..25.0, -25.0f32..25.0), 3..10),
    )
        .prop_filter_map("hull has fewer than three vertices", |(center, offsets)| {
            let points: Vec<ParryVector> = offsets
                .iter()
                .map(|(x, y)| ParryVector::new(center.x + x, center.y + y))
                .collect();
            let hull = parry::ConvexPolygon::from_convex_hull(&points)?;
            let vertices: Vec<Vec2> = hull.points().iter().map(|p| Vec2::new(p.x, p.y)).collect();
            (vertices.len() >= 3 && doubled_area(&vertices) > 1.0)
                .then_some(Generated::Convex(vertices))
        })
}

fn star() -> impl Strategy<Value = Generated> {
    (
        point(),
        prop::collection::vec((0.2f32..1.0, 4.0f32..30.0), 3..12),
        0.0f32..std::f32::consts::TAU,
    )
        .prop_filter_map("a gap of half a turn or more", |(center, spokes, start)| {
            let total: f32 = spokes.iter().map(|(gap, _)| gap).sum();
            let mut angle = start;
            let mut vertices = Vec::with_capacity(spokes.len());
            for (gap, radius) in &spokes {
                let step = gap / total * std::f32::consts::TAU;
                if step >= 0.95 * std::f32::consts::PI {
                    return None;
                }
                vertices.push(center + Vec2::from_angle(angle) * *radius);
                angle += step;
            }
            Some(Generated::Star { center, vertices })
        })
}

fn any_shape() -> impl Strategy<Value = Generated> {
    prop_oneof![circle(), segment(), convex(), star()]
}

fn doubled_area(vertices: &[Vec2]) -> f32 {
    (0..vertices.len())
        .map(|i| vertices[i].perp_dot(vertices[(i + 1) % vertices.len()]))
        .sum::<f32>()
        .abs()
}

// ---------------------------------------------------------------------------------------------
// References

/// Overlap as parry2d sees it: some convex piece of one intersects some piece of the other.
fn reference_overlap(first: &Generated, second: &Generated) -> bool {
    let first_parts = first.parry_parts();
    let second_parts = second.parry_parts();
    first_parts.iter().any(|(pose1, shape1)| {
        second_parts.iter().any(|(pose2, shape2)| {
            query::intersection_test(pose1, shape1.as_ref(), pose2, shape2.as_ref())
                .expect("parry2d supports every pair used here")
                .intersecting
        })
    })
}

/// Whether the reference flips when `second` moves by `margin` in some direction: the shapes
/// are touching or nearly so, and a disagreement there is a matter of rounding.
fn reference_is_borderline(first: &Generated, second: &Generated, margin: f32) -> bool {
    let verdict = reference_overlap(first, second);
    (0..8).any(|k| {
        let offset = Vec2::from_angle(k as f32 * std::f32::consts::FRAC_PI_4) * margin;
        reference_overlap(first, &second.translated(offset)) != verdict
    })
}

/// Whether `point` lies in the shape, as parry2d's point queries see it.
fn reference_contains(shape: &Generated, point: Vec2) -> bool {
    let p = ParryVector::new(point.x, point.y);
    match shape {
        // A segment has no inside; parry's point query would accept points on it.
        Generated::Segment(_) => false,
        _ => shape
            .parry_parts()
            .iter()
            .any(|(pose, part)| part.contains_point(pose, p)),
    }
}

/// An outline in f64.
enum Outline {
    Circle(DVec2, f64),
    Pieces(Vec<(DVec2, DVec2)>),
}

impl Outline {
    fn distance(&self, point: DVec2) -> f64 {
        match self {
            Outline::Circle(center, radius) => (point.distance(*center) - radius).abs(),
            Outline::Pieces(pieces) => pieces
                .iter()
                .map(|(a, b)| distance_to_segment(point, *a, *b))
                .fold(f64::INFINITY, f64::min),
        }
    }
}

fn distance_to_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    let length_squared = ab.length_squared();
    let t = if length_squared == 0.0 {
        0.0
    } else {
        ((p - a).dot(ab) / length_squared).clamp(0.0, 1.0)
    };
    p.distance(a + ab * t)
}

/// The number of points where two outlines cross, counted piece by piece in f64, or `None` when
/// some piece pair is within `margin` of a tangency, a touching end, a parallel overlap or a
/// coincidence: there the count depends on the tolerance, not on the geometry.
fn reference_crossing_count(first: &Outline, second: &Outline, margin: f64) -> Option<usize> {
    match (first, second) {
        (Outline::Circle(c1, r1), Outline::Circle(c2, r2)) => {
            let d = c1.distance(*c2);
            let near = |x: f64| x.abs() < margin;
            if near(d - (r1 + r2)) || near(d - (r1 - r2).abs()) || near(d) {
                return None;
            }
            Some(if d < r1 + r2 && d > (r1 - r2).abs() {
                2
            } else {
                0
            })
        }
        (Outline::Pieces(pieces), Outline::Circle(c, r))
        | (Outline::Circle(c, r), Outline::Pieces(pieces)) => pieces
            .iter()
            .map(|(a, b)| segment_circle_crossings(*a, *b, *c, *r, margin))
            .sum(),
        (Outline::Pieces(first), Outline::Pieces(second)) => first
            .iter()
            .flat_map(|(a, b)| {
                second
                    .iter()
                    .map(move |(c, d)| segment_segment_crossings(*a, *b, *c, *d, margin))
            })
            .sum(),
    }
}

fn segment_circle_crossings(a: DVec2, b: DVec2, c: DVec2, r: f64, margin: f64) -> Option<usize> {
    let near = |x: f64| x.abs() < margin;
    if near(a.distance(c) - r) || near(b.distance(c) - r) || a.distance(b) < margin {
        return None;
    }
    let direction = (b - a).normalize();
    let height = direction.perp_dot(c - a).abs();
    if near(height - r) {
        return None;
    }
    if height > r {
        return Some(0);
    }
    let length = a.distance(b);
    let foot = direction.dot(c - a);
    let half_chord = (r * r - height * height).sqrt();
    Some(
        [foot - half_chord, foot + half_chord]
            .into_iter()
            .filter(|s| (0.0..=length).contains(s))
            .count(),
    )
}

fn segment_segment_crossings(a: DVec2, b: DVec2, c: DVec2, d: DVec2, margin: f64) -> Option<usize> {
    // Any end near the other segment: touching, collinear or T-shaped.
    if distance_to_segment(a, c, d) < margin
        || distance_to_segment(b, c, d) < margin
        || distance_to_segment(c, a, b) < margin
        || distance_to_segment(d, a, b) < margin
    {
        return None;
    }
    let side = |p: DVec2, q: DVec2, x: DVec2| (q - p).perp_dot(x - p);
    let crosses = side(a, b, c).signum() != side(a, b, d).signum()
        && side(c, d, a).signum() != side(c, d, b).signum();
    Some(usize::from(crosses))
}

// ---------------------------------------------------------------------------------------------
// The checks every pair goes through

fn check_pair(first: &Generated, second: &Generated) -> Result<(), TestCaseError> {
    let (a, b) = (first.shape(), second.shape());
    let forward = intersect(a, b);
    let backward = intersect(b, a);

    // The cheap test agrees with the full one, in both orders.
    prop_assert_eq!(overlap(a, b), forward.is_some());
    prop_assert_eq!(overlap(b, a), forward.is_some());
    prop_assert_eq!(forward.is_some(), backward.is_some());

    // Overlap agrees with parry2d, except where a hair's move flips parry2d's own answer.
    let scale = 1.0 + first.size() + second.size();
    if forward.is_some() != reference_overlap(first, second) {
        prop_assert!(
            reference_is_borderline(first, second, 1e-3 * scale),
            "overlap {} but parry2d says {}",
            forward.is_some(),
            forward.is_none()
        );
        return Ok(());
    }
    let (Some(forward), Some(backward)) = (forward, backward) else {
        return Ok(());
    };
    check_intersection(first, second, &forward)?;

    // Both orders: containment mirrored, the same points.
    prop_assert_eq!(forward.containment, backward.containment.mirrored());
    prop_assert_eq!(forward.points.len(), backward.points.len());
    let tolerance = point_tolerance(first, second);
    for p in &forward.points {
        prop_assert!(
            backward.points.iter().any(|q| p.distance(*q) <= tolerance),
            "{} missing from the swapped answer {:?}",
            p,
            backward.points
        );
    }
    Ok(())
}

/// How far a reported point may lie from either outline.
fn point_tolerance(first: &Generated, second: &Generated) -> f32 {
    let coordinates = first.max_coordinate().max(second.max_coordinate());
    4.0 * TOLERANCE * (first.size() + second.size()) + 2e-6 * (1.0 + coordinates)
}

fn check_intersection(
    first: &Generated,
    second: &Generated,
    hit: &Intersection,
) -> Result<(), TestCaseError> {
    // Points exactly when the outlines meet.
    prop_assert_eq!(
        hit.points.is_empty(),
        hit.containment != Containment::Neither,
        "{:?}",
        hit
    );
    let (outline1, outline2) = (first.outline(), second.outline());
    let tolerance = point_tolerance(first, second);
    for p in &hit.points {
        prop_assert!(p.is_finite(), "non-finite point in {:?}", hit);
        let dp = p.as_dvec2();
        let (d1, d2) = (outline1.distance(dp), outline2.distance(dp));
        prop_assert!(
            d1 <= tolerance as f64 && d2 <= tolerance as f64,
            "{} lies {} from the first outline and {} from the second (allowed {})",
            p,
            d1,
            d2,
            tolerance
        );
    }
    // No near-duplicates.
    let merge = 0.5 * TOLERANCE * (first.size() + second.size());
    for (i, p) in hit.points.iter().enumerate() {
        for q in &hit.points[i + 1..] {
            prop_assert!(p.distance(*q) > merge, "near-duplicate points in {:?}", hit);
        }
    }
    // The count matches the crossings counted in f64, away from near-degenerate cases.
    let margin = 1e-3 * (1.0 + first.size() as f64 + second.size() as f64);
    if let Some(count) = reference_crossing_count(&outline1, &outline2, margin) {
        prop_assert_eq!(
            hit.points.len(),
            count,
            "{:?}: the reference counts {} crossings",
            hit,
            count
        );
    }
    // Containment: the shape said to be inside is inside the other (or, for a point within
    // rounding of the other's outline, on it: either answer is right there).
    let inside_or_on = |outer: &Generated, outline: &Outline, point: Vec2| {
        reference_contains(outer, point) || outline.distance(point.as_dvec2()) <= tolerance as f64
    };
    match hit.containment {
        Containment::Neither => {}
        Containment::FirstInSecond => {
            prop_assert!(
                inside_or_on(second, &outline2, first.some_point()),
                "{:?}",
                hit
            );
        }
        Containment::SecondInFirst => {
            prop_assert!(
                inside_or_on(first, &outline1, second.some_point()),
                "{:?}",
                hit
            );
        }
        Containment::Coincident => {
            let (Generated::Circle(c1), Generated::Circle(c2)) = (first, second) else {
                return Err(TestCaseError::fail("only circles coincide"));
            };
            let tolerance = 2.0 * TOLERANCE * (c1.radius + c2.radius) + 1e-6;
            prop_assert!(c1.center.distance(c2.center) <= tolerance);
            prop_assert!((c1.radius - c2.radius).abs() <= tolerance);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// One property per pair (and per polygon kind)

proptest! {
    #![proptest_config(config())]

    #[test]
    fn circle_circle_matches_references(a in circle(), b in circle()) {
        check_pair(&a, &b)?;
    }

    #[test]
    fn segment_circle_matches_references(a in segment(), b in circle()) {
        check_pair(&a, &b)?;
    }

    #[test]
    fn segment_segment_matches_references(a in segment(), b in segment()) {
        check_pair(&a, &b)?;
    }

    #[test]
    fn convex_polygon_circle_matches_references(a in convex(), b in circle()) {
        check_pair(&a, &b)?;
    }

    #[test]
    fn concave_polygon_circle_matches_references(a in star(), b in circle()) {
        check_pair(&a, &b)?;
    }

    #[test]
    fn convex_polygon_segment_matches_references(a in convex(), b in segment()) {
        check_pair(&a, &b)?;
    }

    #[test]
    fn concave_polygon_segment_matches_references(a in star(), b in segment()) {
        check_pair(&a, &b)?;
    }

    #[test]
    fn convex_polygon_polygon_matches_references(a in convex(), b in convex()) {
        check_pair(&a, &b)?;
    }

    #[test]
    fn concave_polygon_polygon_matches_references(a in star(), b in prop_oneof![convex(), star()]) {
        check_pair(&a, &b)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Degenerate and wild input: defined answers, never NaN

/// Pairs built to sit exactly on the degenerate cases: shared centres, tangencies, a shape
/// reused as both arguments, shared vertices.
fn degenerate_pair() -> impl Strategy<Value = (Generated, Generated)> {
    prop_oneof![
        // Concentric circles, equal or not.
        (point(), 0.0f32..20.0, 0.0f32..20.0).prop_map(|(c, r1, r2)| (
            Generated::Circle(Circle::new(c, r1)),
            Generated::Circle(Circle::new(c, r2))
        )),
        // Tangent circles, outside and inside.
        (
            point(),
            0.1f32..20.0,
            0.1f32..20.0,
            0.0f32..std::f32::consts::TAU,
            any::<bool>()
        )
            .prop_map(|(c, r1, r2, angle, outside)| {
                let d = if outside { r1 + r2 } else { (r1 - r2).abs() };
                (
                    Generated::Circle(Circle::new(c, r1)),
                    Generated::Circle(Circle::new(c + Vec2::from_angle(angle) * d, r2)),
                )
            }),
        // A shape against itself.
        any_shape().prop_map(|s| (s.clone(), s)),
        // A segment tangent to a circle.
        (
            point(),
            0.1f32..20.0,
            0.0f32..std::f32::consts::TAU,
            0.0f32..30.0,
            0.0f32..30.0
        )
            .prop_map(|(c, r, angle, before, after)| {
                let normal = Vec2::from_angle(angle);
                let touch = c + normal * r;
                let along = normal.perp();
                (
                    Generated::Segment(Segment::new(touch - along * before, touch + along * after)),
                    Generated::Circle(Circle::new(c, r)),
                )
            }),
        // A polygon and a shape through one of its vertices.
        (
            prop_oneof![convex(), star()],
            any_shape(),
            any::<prop::sample::Index>()
        )
            .prop_map(|(polygon, other, index)| {
                let (Generated::Convex(v) | Generated::Star { vertices: v, .. }) = &polygon else {
                    unreachable!()
                };
                let vertex = v[index.index(v.len())];
                let offset = vertex - other.some_point();
                (polygon.clone(), other.translated(offset))
            }),
    ]
}

/// Any finite float, tiny and huge included.
fn wild() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<f32>().prop_filter("finite", |x| x.is_finite()),
        Just(0.0),
        Just(-0.0),
        Just(f32::MIN_POSITIVE),
        Just(f32::MAX),
        -1e-30f32..1e-30,
        -1e30f32..1e30,
    ]
}

fn wild_shape() -> impl Strategy<Value = Generated> {
    let wild_point = || (wild(), wild()).prop_map(|(x, y)| Vec2::new(x, y));
    prop_oneof![
        (wild_point(), wild()).prop_map(|(c, r)| Generated::Circle(Circle::new(c, r.abs()))),
        (wild_point(), wild_point()).prop_map(|(a, b)| Generated::Segment(Segment::new(a, b))),
        prop::collection::vec(wild_point(), 3..6).prop_map(Generated::Convex),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn degenerate_pairs_give_defined_answers((a, b) in degenerate_pair()) {
        let (sa, sb) = (a.shape(), b.shape());
        let forward = intersect(sa, sb);
        prop_assert_eq!(overlap(sa, sb), forward.is_some());
        prop_assert_eq!(intersect(sb, sa).is_some(), forward.is_some());
        if let Some(hit) = forward {
            check_intersection(&a, &b, &hit)?;
        }
    }

    #[test]
    fn wild_finite_input_never_gives_nan(a in wild_shape(), b in wild_shape()) {
        let (sa, sb) = (a.shape(), b.shape());
        let forward = intersect(sa, sb);
        prop_assert_eq!(overlap(sa, sb), forward.is_some());
        if let Some(hit) = forward {
            prop_assert!(hit.points.iter().all(|p| p.is_finite()), "{:?}", hit);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Push-out, against a dense search over directions with parry2d's overlap

/// Cases per push-out property: each case asks parry2d a few thousand questions.
const PUSH_OUT_CASES: u32 = 2000;
/// Directions searched around the circle, and moves tried along each.
const PUSH_OUT_DIRECTIONS: usize = 360;
const PUSH_OUT_STEPS: usize = 10;

/// Two shapes of any kind, the second moved so that its first point lies near a point of the
/// first: most such pairs overlap.
fn overlapping_pair() -> impl Strategy<Value = (Generated, Generated)> {
    (any_shape(), any_shape(), point()).prop_map(|(first, second, nudge)| {
        let offset = first.some_point() - second.some_point() + nudge * 0.25;
        (first, second.translated(offset))
    })
}

/// Moving `first` by the push-out (a little further) separates the pair, and no shorter move
/// does: along each of [`PUSH_OUT_DIRECTIONS`] directions, every move up to a little less than
/// the depth still overlaps, all as parry2d sees it. Pairs whose parry2d verdict a hair's move
/// flips are let through where the verdicts differ.
fn check_push_out(first: &Generated, second: &Generated) -> Result<(), TestCaseError> {
    let (a, b) = (first.shape(), second.shape());
    let out = push_out(a, b);
    prop_assert_eq!(out.is_some(), overlap(a, b));
    let Some(out) = out else {
        return Ok(());
    };
    prop_assert!(out.depth.is_finite() && out.depth >= 0.0);
    prop_assert!((out.direction.length() - 1.0).abs() < 1e-5, "{:?}", out);
    let scale = 1.0 + first.size() + second.size();
    let margin = 2e-3 * scale;
    let moved = first.translated(out.direction * (out.depth + margin));
    if reference_overlap(&moved, second) {
        prop_assert!(
            reference_is_borderline(&moved, second, margin / 2.0),
            "moved by {:?} and a little more, still overlapping",
            out
        );
    }
    if out.depth <= margin {
        return Ok(());
    }
    for k in 0..PUSH_OUT_DIRECTIONS {
        let direction =
            Vec2::from_angle(k as f32 * std::f32::consts::TAU / PUSH_OUT_DIRECTIONS as f32);
        for step in 1..=PUSH_OUT_STEPS {
            let along = (out.depth - margin) * step as f32 / PUSH_OUT_STEPS as f32;
            let shorter = first.translated(direction * along);
            if !reference_overlap(&shorter, second) {
                prop_assert!(
                    reference_is_borderline(&shorter, second, margin / 2.0),
                    "a move of {} along {} separates, shorter than {:?}",
                    along,
                    direction,
                    out
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(Config { cases: PUSH_OUT_CASES, ..config() })]

    #[test]
    fn push_out_is_the_least_move_that_separates((first, second) in overlapping_pair()) {
        check_push_out(&first, &second)?;
    }
}

/// Named cases: the answer itself, where it is known.
#[test]
fn push_out_named_cases() {
    let square = |center: Vec2, half: f32| {
        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .map(|(x, y)| center + Vec2::new(x, y) * half)
    };
    let close = |out: Option<PushOut>, translation: Vec2| {
        let out = out.expect("they overlap");
        assert!(
            out.translation().distance(translation) < 1e-4,
            "{out:?}, expected {translation}"
        );
    };
    // A small square deep inside a large one, nearer its right side: out to the right.
    let (inner, outer) = (square(Vec2::new(6.0, 0.0), 1.0), square(Vec2::ZERO, 10.0));
    close(
        push_out(Shape::Polygon(&inner), Shape::Polygon(&outer)),
        Vec2::new(5.0, 0.0),
    );
    // The other way round: the large square moves left until the small one only touches it.
    close(
        push_out(Shape::Polygon(&outer), Shape::Polygon(&inner)),
        Vec2::new(-5.0, 0.0),
    );
    // An L-shaped wall, cut into pieces along y = 2, and a laser across its foot: moving up
    // would leave its left end inside the upright; it leaves through the bottom edge.
    let l_shape = [
        (0.0, 0.0),
        (8.0, 0.0),
        (8.0, 2.0),
        (2.0, 2.0),
        (2.0, 8.0),
        (0.0, 8.0),
    ]
    .map(|(x, y)| Vec2::new(x, y));
    let laser = Segment::new(Vec2::new(0.5, 1.5), Vec2::new(6.0, 1.5));
    close(
        push_out(Shape::Segment(laser), Shape::Polygon(&l_shape)),
        Vec2::new(0.0, -1.5),
    );
    // A segment lying along that cut, inside the wall (the cut is no edge): out through the
    // left edge, nearer than the upright's right edge.
    let along_cut = Segment::new(Vec2::new(0.4, 2.0), Vec2::new(1.4, 2.0));
    close(
        push_out(Shape::Segment(along_cut), Shape::Polygon(&l_shape)),
        Vec2::new(-1.4, 0.0),
    );
    // A circle in the inner corner, overlapping both arms: out to where it touches both inner
    // edges at once, not along either edge's normal.
    let ball = Circle::new(Vec2::new(2.5, 2.5), 1.0);
    close(
        push_out(Shape::Circle(ball), Shape::Polygon(&l_shape)),
        Vec2::new(0.5, 0.5),
    );
    // Two crossing segments: apart until they touch end on.
    let (across, up) = (
        Segment::new(Vec2::new(-1.0, 0.0), Vec2::new(3.0, 0.0)),
        Segment::new(Vec2::new(0.0, -2.0), Vec2::new(0.0, 2.0)),
    );
    close(
        push_out(Shape::Segment(across), Shape::Segment(up)),
        Vec2::new(1.0, 0.0),
    );
    // A circle too small to tell from a point at the scene's size, deep inside a square: out
    // as far as a point would go, near the origin and far from it.
    for (corner, radius) in [(Vec2::ZERO, 1e-10), (Vec2::splat(1e6), 1e-4)] {
        let room = square(corner + Vec2::splat(4.0), 4.0);
        let speck = Circle::new(corner + Vec2::new(4.0, 3.0), radius);
        close(
            push_out(Shape::Circle(speck), Shape::Polygon(&room)),
            Vec2::new(0.0, -3.0 - radius),
        );
    }
    // A polygon with no area (its corners on one line) inside the L's foot, along its cut: out
    // as the segment it is.
    let flat = [(0.5, 0.5), (1.0, 1.0), (1.5, 1.5)].map(|(x, y)| Vec2::new(x, y));
    let as_segment = push_out(
        Shape::Segment(Segment::new(flat[0], flat[2])),
        Shape::Polygon(&l_shape),
    );
    assert_eq!(
        push_out(Shape::Polygon(&flat), Shape::Polygon(&l_shape)),
        as_segment
    );
    assert!((as_segment.unwrap().depth - 1.5).abs() < 1e-5);
    // A wall thinner than a billionth of the pair's coordinates (4e-8 thick, 100 from the
    // origin, or crossed by a laser 200 long), crossed by a laser: out by the least of half
    // the wall and half the laser, wherever the two lie, the wall as the segment it nearly is,
    // and parted a hair further. (Both short at the origin, it is pushed out as a polygon.)
    for (offset, half_laser) in [
        (Vec2::ZERO, 5.0),
        (Vec2::new(100.0, 0.0), 5.0),
        (Vec2::ZERO, 100.0),
    ] {
        let half_thickness = 2.0e-8;
        let wall = [(-5.0, -1.0), (5.0, -1.0), (5.0, 1.0), (-5.0, 1.0)]
            .map(|(x, y)| Vec2::new(x, y * half_thickness) + offset);
        let laser = Segment::new(
            Vec2::new(0.0, -half_laser) + offset,
            Vec2::new(0.0, half_laser) + offset,
        );
        assert!(overlap(Shape::Segment(laser), Shape::Polygon(&wall)));
        let out = push_out(Shape::Segment(laser), Shape::Polygon(&wall)).unwrap();
        assert!(
            (out.depth - 5.0).abs() < 1e-4,
            "{offset}, {half_laser}: {out:?}"
        );
        let parted = out.translation() + out.direction * 1e-3;
        let parted = Segment::new(laser.a + parted, laser.b + parted);
        assert!(
            !overlap(Shape::Segment(parted), Shape::Polygon(&wall)),
            "{offset}"
        );
    }
    // Touching only: depth zero.
    let touching = push_out(
        Shape::Circle(Circle::new(Vec2::ZERO, 1.0)),
        Shape::Circle(Circle::new(Vec2::new(2.0, 0.0), 1.0)),
    )
    .unwrap();
    assert_eq!(touching.depth, 0.0);
    assert_eq!(touching.direction, Vec2::NEG_X);
    // Touching far from the origin, the direction still parts them: a small circle against the
    // inside of the 0.5-thick back of a C opening to +x (a move to -x enters the back), and two
    // segments lying along each other (a move along them keeps them overlapping).
    let far = Vec2::new(10_000.0, 0.0);
    let c_shape = [
        (0.0, -5.0),
        (10.0, -5.0),
        (10.0, -4.5),
        (0.5, -4.5),
        (0.5, 4.5),
        (10.0, 4.5),
        (10.0, 5.0),
        (0.0, 5.0),
    ]
    .map(|(x, y)| Vec2::new(x, y) + far);
    let ball = Circle::new(Vec2::new(0.75, 0.0) + far, 0.25);
    let along = Segment::new(far, Vec2::new(1.0, 0.0) + far);
    let further_along = Segment::new(Vec2::new(0.5, 0.0) + far, Vec2::new(2.0, 0.0) + far);
    for (first, second) in [
        (Shape::Circle(ball), Shape::Polygon(&c_shape)),
        (Shape::Segment(along), Shape::Segment(further_along)),
    ] {
        let out = push_out(first, second).unwrap();
        assert_eq!(out.depth, 0.0, "{first:?}");
        let mut scratch = Vec::new();
        for length in [1e-3, 1e-2] {
            let moved = match first {
                Shape::Circle(circle) => Shape::Circle(Circle::new(
                    circle.center + out.direction * length,
                    circle.radius,
                )),
                Shape::Segment(segment) => Shape::Segment(Segment::new(
                    segment.a + out.direction * length,
                    segment.b + out.direction * length,
                )),
                Shape::Polygon(vertices) => {
                    scratch.clear();
                    scratch.extend(vertices.iter().map(|v| *v + out.direction * length));
                    Shape::Polygon(&scratch)
                }
            };
            assert!(
                !overlap(moved, second),
                "{first:?}: {out:?} does not part them"
            );
        }
    }
    assert!(
        push_out(
            Shape::Circle(Circle::new(Vec2::ZERO, 1.0)),
            Shape::Polygon(&inner)
        )
        .is_none()
    );
}
