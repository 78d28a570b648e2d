//! The collider constructors on arbitrary floats: `CircleCollider::try_new`,
//! `try_with_offset`, `SegmentCollider::try_new`, `PolygonCollider::try_new`, `try_regular`,
//! `try_rectangle`, and `TryFrom` Bevy's `Circle`, `Segment2d`, `Polygon`, `ConvexPolygon`,
//! `Rectangle`, `RegularPolygon`, `Triangle2d`, `Rhombus`.
//!
//! Always: nothing panics, and the documented errors come when documented (a radius outside
//! `[0, MAX_COORDINATE]`, a point out of range with its index, fewer than 3 sides, a
//! rectangle side not above zero or not finite, and `TooSmall` only for a radius or segment extent between 0
//! and `MIN_SIZE`).
//!
//! When a constructor returns `Ok`, the collider behaves:
//! - its numbers are the ones given (circle, segment), or, for a polygon, at least 3 in-range
//!   vertices taken from the input, no repeated neighbours, no repeated closing vertex, no two
//!   edges crossing clearly in `f64`, and building it again from its own vertices gives it back;
//! - its bounding circle (the polygon's local one, the geometry's for a circle or segment) is
//!   finite and holds every vertex or end, within a relative `1e-5`;
//! - a polygon overlaps itself, a copy of itself moved by the difference of two of its vertices
//!   (when that is exact in `f32`: the copies then share a vertex), and a copy moved by less
//!   than the clearance of a point inside it (found in `f64`; the copies share that point);
//! - `overlap` and `intersect` against a unit disc at the origin agree, in both orders.
//!
//! (A copy moved by anything less than the bounding radius need not overlap: a needle 10 long
//! and 0.01 thick has a bounding radius of 5 and misses a copy of itself moved 1 across.)

#![no_main]

use arbitrary::Arbitrary;
use bevy::math::primitives::{
    Circle, ConvexPolygon, Polygon, Rectangle, RegularPolygon, Rhombus, Segment2d, Triangle2d,
};
use bevy::math::{DVec2, Vec2};
use bevy_collision_events::geometry::{self, MAX_COORDINATE, Segment, Shape, intersect, overlap};
use bevy_collision_events::{CircleCollider, ColliderError, PolygonCollider, SegmentCollider};
use bevy_collision_events_fuzz::{
    Builder, MIN_SIZE, Num, Owned, PointIn, ShapeIn, bits, distance_to_segment, float, orientation,
    vec2,
};
use libfuzzer_sys::fuzz_target;

/// At most this many sides for the regular polygons (validation is quadratic).
const MAX_SIDES: u16 = 260;

#[derive(Arbitrary, Debug)]
enum Constructor {
    Circle(Num),
    CircleWithOffset(Num, Num, Num),
    Segment(PointIn, PointIn),
    /// `try_new` on any point list (up to 32 points; repeats come from `PointIn::Earlier`).
    Polygon(Vec<PointIn>),
    /// `try_new` on the vertices of a generated polygon (hulls, regular polygons, boxes).
    PolygonShape(ShapeIn),
    Regular(u16, Num),
    Rectangle(Num, Num),
    FromCircle(Num),
    FromSegment2d(PointIn, PointIn),
    FromPolygon(Vec<PointIn>),
    FromConvexPolygon(ShapeIn),
    FromRectangle(Num, Num),
    FromRegularPolygon(u16, Num),
    FromTriangle2d(PointIn, PointIn, PointIn),
    FromRhombus(Num, Num),
}

#[derive(Arbitrary, Debug)]
struct Input {
    constructor: Constructor,
    /// For the translated copies: two vertex indices, a direction and a fraction.
    vertices: (u8, u8),
    angle: u16,
    fraction: u8,
}

fn in_range(p: Vec2) -> bool {
    p.x.abs() <= MAX_COORDINATE && p.y.abs() <= MAX_COORDINATE
}

fn points(builder: &mut Builder, points: &[PointIn]) -> Vec<Vec2> {
    points.iter().take(32).map(|p| builder.point(*p)).collect()
}

fn shape_vertices(builder: &mut Builder, shape: &ShapeIn) -> Vec<Vec2> {
    match builder.shape(shape) {
        Owned::Polygon(v) => v,
        Owned::Segment(s) => vec![s.a, s.b],
        Owned::Circle(c) => vec![c.center],
    }
}

fuzz_target!(|input: Input| {
    let mut builder = Builder::default();
    let context = format!("{:?}", input.constructor);
    match &input.constructor {
        Constructor::Circle(r) => check_circle(CircleCollider::try_new(r.value()), r.value(), Vec2::ZERO, &context),
        Constructor::FromCircle(r) => {
            check_circle(CircleCollider::try_from(Circle { radius: r.value() }), r.value(), Vec2::ZERO, &context)
        }
        Constructor::CircleWithOffset(r, x, y) => {
            let (r, offset) = (r.value(), Vec2::new(x.value(), y.value()));
            let result = CircleCollider::try_new(r).and_then(|c| c.try_with_offset(offset));
            check_circle(result, r, offset, &context);
        }
        Constructor::Segment(a, b) => {
            let (a, b) = (builder.point(*a), builder.point(*b));
            check_segment(SegmentCollider::try_new(a, b), a, b, &context);
        }
        Constructor::FromSegment2d(a, b) => {
            let (a, b) = (builder.point(*a), builder.point(*b));
            check_segment(SegmentCollider::try_from(Segment2d { vertices: [a, b] }), a, b, &context);
        }
        Constructor::Polygon(p) => {
            let v = points(&mut builder, p);
            check_polygon_input(PolygonCollider::try_new(v.clone()), &v, &input, &context);
        }
        Constructor::PolygonShape(shape) => {
            let v = shape_vertices(&mut builder, shape);
            check_polygon_input(PolygonCollider::try_new(v.clone()), &v, &input, &context);
        }
        Constructor::FromPolygon(p) => {
            let v = points(&mut builder, p);
            let result = PolygonCollider::try_from(Polygon { vertices: v.clone() });
            check_polygon_input(result, &v, &input, &context);
        }
        Constructor::FromConvexPolygon(shape) => {
            let v = shape_vertices(&mut builder, shape);
            let result = PolygonCollider::try_from(ConvexPolygon::new_unchecked(v.clone()));
            check_polygon_input(result, &v, &input, &context);
        }
        Constructor::Regular(sides, r) => {
            let (sides, r) = (usize::from(*sides % MAX_SIDES), r.value());
            let result = PolygonCollider::try_regular(r, sides);
            if sides < 3 {
                assert_eq!(result, Err(ColliderError::TooFewVertices(sides)), "{context}");
            } else if !(r > 0.0 && r <= MAX_COORDINATE) {
                assert!(matches!(result, Err(ColliderError::InvalidRadius(x)) if x.to_bits() == r.to_bits()), "{context}: {result:?}");
            }
            check_polygon(result, &input, &context);
        }
        Constructor::FromRegularPolygon(sides, r) => {
            let polygon = RegularPolygon {
                circumcircle: Circle { radius: r.value() },
                sides: u32::from(*sides % MAX_SIDES),
            };
            check_polygon(PolygonCollider::try_from(polygon), &input, &context);
        }
        Constructor::Rectangle(w, h) => {
            let (w, h) = (w.value(), h.value());
            let result = PolygonCollider::try_rectangle(w, h);
            if let Some(side) = [w, h].into_iter().find(|side| !(*side > 0.0 && side.is_finite())) {
                assert!(matches!(result, Err(ColliderError::InvalidSide(x)) if x.to_bits() == side.to_bits()), "{context}: {result:?}");
            }
            check_polygon(result, &input, &context);
        }
        Constructor::FromRectangle(x, y) => {
            let rectangle = Rectangle { half_size: Vec2::new(x.value(), y.value()) };
            check_polygon(PolygonCollider::try_from(rectangle), &input, &context);
        }
        Constructor::FromTriangle2d(a, b, c) => {
            let v = [builder.point(*a), builder.point(*b), builder.point(*c)];
            let result = PolygonCollider::try_from(Triangle2d { vertices: v });
            check_polygon_input(result, &v, &input, &context);
        }
        Constructor::FromRhombus(x, y) => {
            let rhombus = Rhombus { half_diagonals: Vec2::new(x.value(), y.value()) };
            check_polygon(PolygonCollider::try_from(rhombus), &input, &context);
        }
    }
});

fn check_circle(result: Result<CircleCollider, ColliderError>, radius: f32, offset: Vec2, context: &str) {
    let radius_ok = (0.0..=MAX_COORDINATE).contains(&radius);
    match &result {
        Ok(circle) => {
            assert!(radius_ok && in_range(offset), "accepted out of range: {context}");
            assert_eq!(circle.radius().to_bits(), radius.to_bits(), "{context}");
            assert_eq!(circle.offset(), offset, "{context}");
            let disc = geometry::Circle::new(circle.offset(), circle.radius());
            let bounds = Shape::Circle(disc).bounding_circle();
            check_bounds(bounds.center, bounds.radius(), &[circle.offset()], context);
            check_against_unit_disc(Shape::Circle(disc), context);
        }
        Err(ColliderError::InvalidRadius(r)) => {
            assert!(!radius_ok && r.to_bits() == radius.to_bits(), "{context}: {result:?}");
        }
        Err(ColliderError::InvalidPoint { index: 0, point }) => {
            let same = point.x.to_bits() == offset.x.to_bits() && point.y.to_bits() == offset.y.to_bits();
            assert!(radius_ok && !in_range(offset) && same, "{context}: {result:?}");
        }
        Err(error) if is_too_small(error) => {
            assert!(radius > 0.0 && f64::from(radius) < MIN_SIZE, "{context}: {result:?}");
        }
        Err(error) => panic!("unexpected {error:?}: {context}"),
    }
}

/// `ColliderError::TooSmall`, matched by name so that the target builds with or without it.
fn is_too_small(error: &ColliderError) -> bool {
    format!("{error:?}").starts_with("TooSmall")
}

fn check_segment(result: Result<SegmentCollider, ColliderError>, a: Vec2, b: Vec2, context: &str) {
    match &result {
        Ok(segment) => {
            assert!(in_range(a) && in_range(b), "accepted out of range: {context}");
            assert_eq!((segment.a(), segment.b()), (a, b), "{context}");
            let length = segment.length();
            assert!(length.is_finite() && length >= 0.0, "length {length}: {context}");
            let s = Segment::new(segment.a(), segment.b());
            let bounds = Shape::Segment(s).bounding_circle();
            check_bounds(bounds.center, bounds.radius(), &[a, b], context);
            check_against_unit_disc(Shape::Segment(s), context);
        }
        Err(ColliderError::InvalidPoint { index: 0, .. }) => assert!(!in_range(a), "{context}"),
        Err(ColliderError::InvalidPoint { index: 1, .. }) => {
            assert!(in_range(a) && !in_range(b), "{context}")
        }
        Err(error) if is_too_small(error) => {
            // Documented: longer than zero, shorter than MIN_SIZE along the axis it spans most.
            let extent = (b.as_dvec2() - a.as_dvec2()).abs().max_element();
            assert!(extent > 0.0 && extent < MIN_SIZE, "{context}: {result:?}");
        }
        Err(error) => panic!("unexpected {error:?}: {context}"),
    }
}

/// `try_new` and the `TryFrom`s that pass the vertices on as they are: the first out-of-range
/// vertex is the error's, and an accepted polygon's vertices come from the input.
fn check_polygon_input(
    result: Result<PolygonCollider, ColliderError>,
    vertices: &[Vec2],
    input: &Input,
    context: &str,
) {
    let context = format!("{context}\nvertices: {}", list(vertices));
    if let Some(index) = vertices.iter().position(|p| !in_range(*p)) {
        assert!(
            matches!(result, Err(ColliderError::InvalidPoint { index: i, .. }) if i == index),
            "vertex {index} out of range, yet {result:?}\n{context}"
        );
        return;
    }
    if let Ok(polygon) = &result {
        for p in polygon.vertices() {
            assert!(vertices.contains(p), "vertex {} not from the input\n{context}", bits(*p));
        }
    }
    check_polygon(result, input, &context);
}

fn list(vertices: &[Vec2]) -> String {
    let items: Vec<String> = vertices.iter().map(|p| vec2(*p)).collect();
    format!("&[{}]", items.join(", "))
}

fn check_polygon(result: Result<PolygonCollider, ColliderError>, input: &Input, context: &str) {
    let Ok(polygon) = result else {
        return;
    };
    let v = polygon.vertices();
    let context = format!("{context}\naccepted: {}", list(v));
    let n = v.len();
    assert!(n >= 3, "fewer than 3 vertices\n{context}");
    assert!(v.iter().all(|p| in_range(*p)), "vertex out of range\n{context}");
    for i in 0..n {
        assert_ne!(v[i], v[(i + 1) % n], "repeated neighbours at {i}\n{context}");
    }
    // No two edges cross clearly (each end a clear distance off the other's line, on opposite
    // sides): rounding cannot excuse that.
    let d: Vec<DVec2> = v.iter().map(|p| p.as_dvec2()).collect();
    for i in 0..n {
        for j in i + 2..n {
            if i == 0 && j == n - 1 {
                continue;
            }
            let (a, b, c, e) = (d[i], d[(i + 1) % n], d[j], d[(j + 1) % n]);
            let margin = 1e-4 * a.distance(b) * c.distance(e);
            let (o1, o2, o3, o4) = (orientation(a, b, c), orientation(a, b, e), orientation(c, e, a), orientation(c, e, b));
            let clear = |x: f64, y: f64| (x > margin && y < -margin) || (x < -margin && y > margin);
            assert!(!(clear(o1, o2) && clear(o3, o4)), "edges {i} and {j} cross\n{context}");
        }
    }
    // Building it again from its own vertices gives it back.
    let again = PolygonCollider::try_new(v.to_vec());
    assert!(
        again.as_ref().is_ok_and(|p| p.vertices() == v),
        "not accepted again from its own vertices: {again:?}\n{context}"
    );
    let bounds = polygon.local_bounding_circle();
    let Some(bounds) = bounds else {
        panic!("no bounding circle\n{context}");
    };
    check_bounds(bounds.center, bounds.radius(), v, &context);

    let shape = Shape::Polygon(v);
    assert!(overlap(shape, shape), "does not overlap itself\n{context}");
    assert!(intersect(shape, shape).is_some(), "intersect with itself is None\n{context}");
    check_against_unit_disc(shape, &context);

    // A copy moved by the difference of two vertices, when exact: the two share a vertex.
    let (i, j) = (usize::from(input.vertices.0) % n, usize::from(input.vertices.1) % n);
    let shift = v[i] - v[j];
    if v[j] + shift == v[i] && (v[i].as_dvec2() - v[j].as_dvec2()) == shift.as_dvec2() {
        let moved: Vec<Vec2> = v.iter().map(|p| *p + shift).collect();
        if moved.iter().all(|p| in_range(*p)) {
            let copy = Shape::Polygon(&moved);
            assert!(
                overlap(shape, copy) && overlap(copy, shape),
                "misses its copy moved by vertex {i} − vertex {j} = {} (they share a vertex)\n{context}",
                vec2(shift)
            );
            assert!(intersect(shape, copy).is_some(), "{context}");
        }
    }

    // A copy moved by less than the clearance of an inside point: the two share that point.
    if let Some((inside, clearance)) = inside_point(&d) {
        let size = bounds.radius() as f64;
        let magnitude = d.iter().map(|p| p.abs().max_element()).fold(0.0, f64::max);
        if clearance > 1e-3 * size && clearance > 1e-4 * magnitude {
            let angle = f64::from(input.angle) / 65536.0 * std::f64::consts::TAU;
            let fraction = 0.9 * f64::from(input.fraction) / 255.0;
            let shift = DVec2::from_angle(angle) * clearance * fraction;
            let shift32 = shift.as_vec2();
            let moved: Vec<Vec2> = v.iter().map(|p| *p + shift32).collect();
            if moved.iter().all(|p| in_range(*p)) {
                let copy = Shape::Polygon(&moved);
                assert!(
                    overlap(shape, copy) && overlap(copy, shape) && intersect(shape, copy).is_some(),
                    "misses its copy moved by {} ({:e}, less than the clearance {clearance:e} of \
                     the inside point {inside})\n{context}",
                    vec2(shift32),
                    shift.length()
                );
            }
        }
    }
}

/// A point inside the polygon with the largest clearance among a few candidates (each vertex's
/// corner triangle's centroid, the vertex average), and that clearance, in `f64`.
fn inside_point(v: &[DVec2]) -> Option<(DVec2, f64)> {
    let n = v.len();
    let average = v.iter().copied().sum::<DVec2>() / n as f64;
    let candidates = (0..n)
        .map(|i| (v[(i + n - 1) % n] + v[i] + v[(i + 1) % n]) / 3.0)
        .chain([average]);
    let mut best: Option<(DVec2, f64)> = None;
    for c in candidates {
        let mut inside = false;
        for i in 0..n {
            let (a, b) = (v[i], v[(i + 1) % n]);
            if (a.y > c.y) != (b.y > c.y) && c.x < a.x + (c.y - a.y) / (b.y - a.y) * (b.x - a.x) {
                inside = !inside;
            }
        }
        if !inside {
            continue;
        }
        let clearance = (0..n)
            .map(|i| distance_to_segment(c, v[i], v[(i + 1) % n]))
            .fold(f64::INFINITY, f64::min);
        if best.is_none_or(|(_, b)| clearance > b) {
            best = Some((c, clearance));
        }
    }
    best
}

fn check_bounds(center: Vec2, radius: f32, points: &[Vec2], context: &str) {
    assert!(
        center.is_finite() && radius.is_finite() && radius >= 0.0,
        "bounding circle {} radius {} not finite\n{context}",
        vec2(center),
        float(radius)
    );
    let (c, r) = (center.as_dvec2(), f64::from(radius));
    for p in points {
        let d = p.as_dvec2().distance(c);
        assert!(
            d <= r + 1e-5 * (r + c.abs().max_element()),
            "{} lies {d:e} from the centre {} of the bounding circle of radius {r:e}\n{context}",
            bits(*p),
            vec2(center)
        );
    }
}

fn check_against_unit_disc(shape: Shape, context: &str) {
    let disc = Shape::Circle(geometry::Circle::new(Vec2::ZERO, 1.0));
    for (a, b) in [(shape, disc), (disc, shape)] {
        let hit = intersect(a, b);
        assert_eq!(overlap(a, b), hit.is_some(), "against the unit disc\n{context}\n{hit:?}");
        if let Some(hit) = hit {
            assert!(hit.points.iter().all(|p| p.is_finite()), "{context}\n{hit:?}");
        }
    }
}
