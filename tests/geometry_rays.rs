//! Ray casts and closest points: named cases, then random rays against a reference written here
//! in `f64` that uses none of the crate's code (dense sampling along the ray for the solid
//! shapes, the crossing of two lines for segments).

use bevy::math::{DVec2, Dir2, Ray2d, Vec2};
use bevy_collision_events::geometry::{
    Circle, RayIntersection, Segment, Shape, closest_point, ray_cast, ray_circle, ray_polygon,
    ray_segment,
};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// How far a computed distance or point may be from the expected one in the named cases.
const CLOSE: f32 = 1e-4;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn ray(origin: Vec2, direction: Vec2) -> Ray2d {
    Ray2d::new(origin, Dir2::new(direction).expect("a direction"))
}

fn assert_close(actual: f32, expected: f32, what: &str) {
    assert!(
        (actual - expected).abs() <= CLOSE,
        "{what}: {actual}, expected {expected}"
    );
}

fn assert_near(actual: Vec2, expected: Vec2, what: &str) {
    assert!(
        actual.distance(expected) <= CLOSE,
        "{what}: {actual}, expected {expected}"
    );
}

const SQUARE: [Vec2; 4] = [
    Vec2::new(0.0, 0.0),
    Vec2::new(10.0, 0.0),
    Vec2::new(10.0, 10.0),
    Vec2::new(0.0, 10.0),
];

/// A U: two arms (x 0–10 and 20–30) rising from a base (y 0–10) to y = 30.
const U_SHAPE: [Vec2; 8] = [
    Vec2::new(0.0, 0.0),
    Vec2::new(30.0, 0.0),
    Vec2::new(30.0, 30.0),
    Vec2::new(20.0, 30.0),
    Vec2::new(20.0, 10.0),
    Vec2::new(10.0, 10.0),
    Vec2::new(10.0, 30.0),
    Vec2::new(0.0, 30.0),
];

#[test]
fn a_ray_through_a_disc_enters_and_leaves() {
    let hit = ray_circle(
        ray(v(-10.0, 0.0), Vec2::X),
        100.0,
        Circle::new(Vec2::ZERO, 5.0),
    )
    .unwrap();
    assert_close(hit.distance, 5.0, "entry");
    assert_near(hit.point, v(-5.0, 0.0), "entry point");
    assert_near(hit.normal, -Vec2::X, "entry normal");
    assert!(!hit.starts_inside);
    let exit = hit.exit.expect("leaves within 100");
    assert_close(exit.distance, 15.0, "exit");
    assert_near(exit.normal, Vec2::X, "exit normal");
    // Too short to leave, too short to reach.
    let short = ray_circle(
        ray(v(-10.0, 0.0), Vec2::X),
        8.0,
        Circle::new(Vec2::ZERO, 5.0),
    )
    .unwrap();
    assert_eq!(short.exit, None);
    assert_eq!(
        ray_circle(
            ray(v(-10.0, 0.0), Vec2::X),
            4.0,
            Circle::new(Vec2::ZERO, 5.0)
        ),
        None
    );
}

#[test]
fn a_ray_grazing_a_circle_touches_it_once() {
    let hit = ray_circle(
        ray(v(-10.0, 5.0), Vec2::X),
        100.0,
        Circle::new(Vec2::ZERO, 5.0),
    )
    .unwrap();
    assert_close(hit.distance, 10.0, "graze");
    assert_near(hit.point, v(0.0, 5.0), "graze point");
    assert_near(hit.normal, Vec2::Y, "graze normal");
    assert_close(hit.exit.unwrap().distance, 10.0, "leaves where it touched");
    assert_eq!(
        ray_circle(
            ray(v(-10.0, 5.01), Vec2::X),
            100.0,
            Circle::new(Vec2::ZERO, 5.0)
        ),
        None
    );
}

#[test]
fn a_ray_starting_inside_says_so() {
    let hit = ray_circle(
        ray(v(1.0, 0.0), Vec2::X),
        100.0,
        Circle::new(Vec2::ZERO, 5.0),
    )
    .unwrap();
    assert!(hit.starts_inside);
    assert_eq!((hit.distance, hit.point), (0.0, v(1.0, 0.0)));
    assert_near(hit.normal, -Vec2::X, "against the ray");
    assert_close(hit.exit.unwrap().distance, 4.0, "exit");
    let inside_square = ray_polygon(ray(v(5.0, 5.0), Vec2::Y), 100.0, &SQUARE).unwrap();
    assert!(inside_square.starts_inside);
    assert_close(inside_square.exit.unwrap().distance, 5.0, "exit");
    assert_near(inside_square.exit.unwrap().normal, Vec2::Y, "exit normal");
    // On the outline counts as in: closed sets.
    let on_edge = ray_polygon(ray(v(10.0, 5.0), Vec2::X), 100.0, &SQUARE).unwrap();
    assert!(on_edge.starts_inside);
    assert_eq!(on_edge.distance, 0.0);
}

/// A ray starting on a segment, or on a polygon's edge, meets it at a distance of plus zero,
/// in every direction: a negative zero would sort before other hits at zero, bit by bit.
#[test]
fn a_ray_starting_on_an_outline_meets_it_at_plus_zero() {
    let segment = Segment::new(v(-5.0, 0.0), v(5.0, 0.0));
    for direction in [Vec2::Y, Vec2::NEG_Y, v(1.0, 1.0), v(-1.0, -3.0)] {
        let on_segment = ray_segment(ray(Vec2::ZERO, direction), 10.0, segment).unwrap();
        let on_edge = ray_polygon(ray(v(10.0, 5.0), direction), 10.0, &SQUARE).unwrap();
        for hit in [on_segment, on_edge] {
            assert!(hit.starts_inside);
            assert_eq!(hit.distance.to_bits(), 0, "{direction}: {}", hit.distance);
        }
    }
}

#[test]
fn a_zero_length_ray_hits_only_what_holds_its_origin() {
    let disc = Circle::new(Vec2::ZERO, 5.0);
    assert_eq!(ray_circle(ray(v(-10.0, 0.0), Vec2::X), 0.0, disc), None);
    let hit = ray_circle(ray(v(-5.0, 0.0), Vec2::X), 0.0, disc).unwrap();
    assert_eq!(hit.distance, 0.0);
    assert!(hit.starts_inside);
    assert_eq!(hit.exit, None, "leaves only beyond its length");
    assert_eq!(ray_polygon(ray(v(-1.0, 5.0), Vec2::X), 0.0, &SQUARE), None);
}

#[test]
fn a_ray_pointing_away_hits_nothing() {
    let disc = Shape::Circle(Circle::new(Vec2::ZERO, 5.0));
    let square = Shape::Polygon(&SQUARE);
    let wall = Shape::Segment(Segment::new(v(0.0, -5.0), v(0.0, 5.0)));
    for shape in [disc, square, wall] {
        assert_eq!(
            ray_cast(ray(v(-20.0, 1.0), -Vec2::X), f32::INFINITY, shape),
            None,
            "{shape:?}"
        );
    }
}

#[test]
fn an_unbounded_ray_reaches_far_shapes() {
    let far = Circle::new(v(1e9, 0.0), 1.0);
    let hit = ray_circle(ray(Vec2::ZERO, Vec2::X), f32::INFINITY, far).unwrap();
    assert!((hit.distance - (1e9 - 1.0)).abs() <= 64.0, "{hit:?}");
    assert!(hit.exit.is_some());
}

#[test]
fn a_ray_along_a_polygon_edge_meets_its_near_corner_and_leaves_at_the_far_one() {
    let hit = ray_polygon(ray(v(-5.0, 0.0), Vec2::X), 100.0, &SQUARE).unwrap();
    assert_close(hit.distance, 5.0, "near corner");
    assert!(!hit.starts_inside);
    assert_close(hit.exit.unwrap().distance, 15.0, "far corner");
}

#[test]
fn a_ray_through_a_concave_notch_enters_the_first_arm_and_leaves_it() {
    let across = ray(v(-5.0, 20.0), Vec2::X);
    let hit = ray_polygon(across, 100.0, &U_SHAPE).unwrap();
    assert_close(hit.distance, 5.0, "enters the left arm");
    assert_near(hit.normal, -Vec2::X, "its outer side");
    let exit = hit.exit.unwrap();
    assert_close(exit.distance, 15.0, "leaves it into the notch");
    assert_near(exit.normal, Vec2::X, "the notch's wall, outward");
    // From inside the notch: the right arm.
    let from_notch = ray_polygon(ray(v(15.0, 20.0), Vec2::X), 100.0, &U_SHAPE).unwrap();
    assert!(!from_notch.starts_inside);
    assert_close(from_notch.distance, 5.0, "the right arm");
    // Down the notch: the base, entered at its top and left at its bottom.
    let down = ray_polygon(ray(v(15.0, 25.0), -Vec2::Y), 100.0, &U_SHAPE).unwrap();
    assert_close(down.distance, 15.0, "the base's top");
    assert_close(down.exit.unwrap().distance, 25.0, "the base's bottom");
}

/// A ray that starts on a polygon's outline heading out, or only grazes a corner, leaves where
/// it meets the polygon: the end of its first stretch inside is that point, as for a circle.
#[test]
fn a_ray_heading_out_of_an_outline_or_grazing_a_corner_leaves_at_once() {
    // On the square's right side, heading right.
    let out = ray_polygon(ray(v(10.0, 5.0), Vec2::X), 100.0, &SQUARE).unwrap();
    assert!(out.starts_inside);
    let exit = out.exit.expect("it leaves");
    assert_close(exit.distance, 0.0, "at once");
    assert_near(exit.normal, Vec2::X, "through the right side, outward");
    // On the left arm's inner wall, heading into the notch: the right arm is a second stretch.
    let into_notch = ray_polygon(ray(v(10.0, 20.0), Vec2::X), 100.0, &U_SHAPE).unwrap();
    assert!(into_notch.starts_inside);
    assert_close(
        into_notch.exit.unwrap().distance,
        0.0,
        "at once, not past the right arm",
    );
    // Grazing the top corner of a diamond, given either way round: left at the corner,
    // through its outward normal there.
    let diamond = [v(0.0, -5.0), v(5.0, 0.0), v(0.0, 5.0), v(-5.0, 0.0)];
    let mut clockwise = diamond;
    clockwise.reverse();
    for diamond in [diamond, clockwise] {
        let graze = ray_polygon(ray(v(-10.0, 5.0), Vec2::X), 100.0, &diamond).unwrap();
        assert_close(graze.distance, 10.0, "the corner");
        let exit = graze.exit.unwrap();
        assert_close(exit.distance, 10.0, "left at the corner");
        assert_near(exit.normal, v(1.0, 1.0).normalize(), "outward");
    }
}

/// A ray along any edge of a square leaves at the edge's far end (the edge is part of the
/// closed shape); one that reaches a side exactly at its end meets it and does not leave.
#[test]
fn a_ray_along_any_edge_leaves_at_its_far_end() {
    for (origin, direction) in [
        (v(-5.0, 0.0), Vec2::X),
        (v(-5.0, 10.0), Vec2::X),
        (v(0.0, -5.0), Vec2::Y),
        (v(10.0, -5.0), Vec2::Y),
        (v(15.0, 10.0), Vec2::NEG_X),
    ] {
        let hit = ray_polygon(ray(origin, direction), 100.0, &SQUARE).unwrap();
        assert_close(hit.distance, 5.0, "the near corner");
        let exit = hit
            .exit
            .unwrap_or_else(|| panic!("{origin} {direction}: no exit"));
        assert_close(
            exit.distance,
            15.0,
            &format!("{origin} {direction}: the far corner"),
        );
    }
    let ends_on_the_side = ray_polygon(ray(v(-5.0, 5.0), Vec2::X), 5.0, &SQUARE).unwrap();
    assert_close(ends_on_the_side.distance, 5.0, "the side");
    assert_eq!(ends_on_the_side.exit, None, "it ends there, entering");
}

#[test]
fn a_ray_through_a_vertex_does_not_slip_between_its_edges() {
    let diamond = [v(0.0, -5.0), v(5.0, 0.0), v(0.0, 5.0), v(-5.0, 0.0)];
    let hit = ray_polygon(ray(v(-10.0, 0.0), Vec2::X), 100.0, &diamond).unwrap();
    assert_close(hit.distance, 5.0, "the left vertex");
    assert_close(hit.exit.unwrap().distance, 15.0, "the right vertex");
}

#[test]
fn a_ray_crossing_a_segment_meets_it_once_and_along_it_meets_its_end() {
    let wall = Segment::new(v(0.0, -5.0), v(0.0, 5.0));
    let hit = ray_segment(ray(v(-3.0, 1.0), Vec2::X), 10.0, wall).unwrap();
    assert_close(hit.distance, 3.0, "crossing");
    assert_near(hit.normal, -Vec2::X, "facing the ray");
    assert_eq!(hit.exit, None);
    let along = ray_segment(ray(v(0.0, -8.0), Vec2::Y), 10.0, wall).unwrap();
    assert_close(along.distance, 3.0, "the near end");
    assert_near(along.normal, -Vec2::Y, "head-on");
}

#[test]
fn closest_points_are_zero_inside_and_on_the_outline() {
    let disc = Shape::Circle(Circle::new(Vec2::ZERO, 5.0));
    let inside = closest_point(disc, v(1.0, 1.0)).unwrap();
    assert_eq!((inside.point, inside.distance), (v(1.0, 1.0), 0.0));
    let outside = closest_point(disc, v(0.0, 9.0)).unwrap();
    assert_near(outside.point, v(0.0, 5.0), "on the circle");
    assert_close(outside.distance, 4.0, "distance");
    let square = Shape::Polygon(&SQUARE);
    assert_eq!(closest_point(square, v(10.0, 4.0)).unwrap().distance, 0.0);
    let beside = closest_point(square, v(13.0, 14.0)).unwrap();
    assert_near(beside.point, v(10.0, 10.0), "the corner");
    assert_close(beside.distance, 5.0, "distance");
    let notch = closest_point(Shape::Polygon(&U_SHAPE), v(15.0, 25.0)).unwrap();
    assert_close(notch.distance, 5.0, "in the notch");
    assert_eq!(closest_point(square, Vec2::NAN), None);
}

// ---------------------------------------------------------------------------------------------
// Random rays against the f64 reference

/// A shape owned by the test, and how the reference sees it.
#[derive(Clone, Debug)]
enum Generated {
    Circle(Circle),
    Segment(Segment),
    Polygon(Vec<Vec2>),
}

impl Generated {
    fn shape(&self) -> Shape<'_> {
        match self {
            Generated::Circle(disc) => Shape::Circle(*disc),
            Generated::Segment(segment) => Shape::Segment(*segment),
            Generated::Polygon(vertices) => Shape::Polygon(vertices),
        }
    }

    /// Whether `p` lies in the solid shape (f64; not for segments).
    fn contains(&self, p: DVec2) -> bool {
        match self {
            Generated::Circle(disc) => p.distance(disc.center.as_dvec2()) <= f64::from(disc.radius),
            Generated::Segment(_) => false,
            Generated::Polygon(vertices) => {
                let mut inside = false;
                for i in 0..vertices.len() {
                    let (a, b) = (
                        vertices[i].as_dvec2(),
                        vertices[(i + 1) % vertices.len()].as_dvec2(),
                    );
                    if (a.y <= p.y) != (b.y <= p.y) {
                        let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
                        if p.x < x {
                            inside = !inside;
                        }
                    }
                }
                inside
            }
        }
    }

    /// The distance from `p` to the outline (f64).
    fn outline_distance(&self, p: DVec2) -> f64 {
        let to_segment = |a: DVec2, b: DVec2| {
            let ab = b - a;
            let t = if ab == DVec2::ZERO {
                0.0
            } else {
                ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
            };
            p.distance(a + ab * t)
        };
        match self {
            Generated::Circle(disc) => {
                (p.distance(disc.center.as_dvec2()) - f64::from(disc.radius)).abs()
            }
            Generated::Segment(s) => to_segment(s.a.as_dvec2(), s.b.as_dvec2()),
            Generated::Polygon(vertices) => (0..vertices.len())
                .map(|i| {
                    to_segment(
                        vertices[i].as_dvec2(),
                        vertices[(i + 1) % vertices.len()].as_dvec2(),
                    )
                })
                .fold(f64::INFINITY, f64::min),
        }
    }
}

fn random_shape(rng: &mut StdRng) -> Generated {
    let center = v(rng.random_range(-30.0..30.0), rng.random_range(-30.0..30.0));
    match rng.random_range(0..4) {
        0 => Generated::Circle(Circle::new(center, rng.random_range(0.5..15.0))),
        1 => {
            let half = Vec2::from_angle(rng.random_range(0.0..6.3)) * rng.random_range(1.0..15.0);
            Generated::Segment(Segment::new(center - half, center + half))
        }
        kind => {
            // A star (concave when `kind` is 3) or a regular-ish convex polygon.
            let count = rng.random_range(3..10);
            let turn = rng.random_range(0.0..6.3);
            Generated::Polygon(
                (0..count)
                    .map(|i| {
                        let radius = if kind == 3 && i % 2 == 1 {
                            rng.random_range(1.0..6.0)
                        } else {
                            rng.random_range(6.0..15.0)
                        };
                        center
                            + Vec2::from_angle(
                                turn + i as f32 * std::f32::consts::TAU / count as f32,
                            ) * radius
                    })
                    .collect(),
            )
        }
    }
}

/// Checks one ray against the reference; `step` is the sampling step.
fn check_ray(shape: &Generated, cast: Ray2d, max_distance: f32) {
    let hit = ray_cast(cast, max_distance, shape.shape());
    let origin = cast.origin.as_dvec2();
    let direction = cast.direction.as_dvec2();
    let at = |s: f64| origin + direction * s;
    let case = format!("{shape:?}, {cast:?}, {max_distance}: {hit:?}");
    // Outline tolerance: the crate's relative rule plus f32 rounding of the coordinates.
    let tolerance = 1e-3;
    if let Some(hit) = hit {
        check_hit_shape(&hit, cast, &case);
        assert!(hit.distance <= max_distance, "{case}");
        // Its points are on the ray, at their distances.
        let on_the_ray = |point: Vec2, distance: f32| {
            point.as_dvec2().distance(at(f64::from(distance))) <= tolerance
        };
        assert!(
            on_the_ray(hit.point, hit.distance),
            "entry off the ray: {case}"
        );
        if let Some(exit) = hit.exit {
            assert!(
                on_the_ray(exit.point, exit.distance),
                "exit off the ray: {case}"
            );
        }
        if !hit.starts_inside {
            assert!(
                shape.outline_distance(hit.point.as_dvec2()) <= tolerance,
                "entry off the outline: {case}"
            );
        }
        if let Some(exit) = hit.exit {
            assert!(
                exit.distance >= hit.distance && exit.distance <= max_distance,
                "{case}"
            );
            assert!(
                shape.outline_distance(exit.point.as_dvec2()) <= tolerance,
                "exit off the outline: {case}"
            );
        }
    }
    if let Generated::Segment(segment) = shape {
        // The crossing of two lines, in f64, for rays that cross the segment's line clearly.
        let (a, b) = (segment.a.as_dvec2(), segment.b.as_dvec2());
        let along = b - a;
        let denominator = direction.perp_dot(along);
        if denominator.abs() < 1e-3 * along.length() {
            return;
        }
        let s = (a - origin).perp_dot(along) / denominator;
        let u = (a - origin).perp_dot(direction) / denominator;
        let clear = (0.01..=0.99).contains(&u) && s > 1e-3 && s < f64::from(max_distance) - 1e-3;
        let missed =
            !(-0.01..=1.01).contains(&u) || s < -1e-3 || s > f64::from(max_distance) + 1e-3;
        if clear {
            let hit = hit.unwrap_or_else(|| panic!("missed the segment: {case}"));
            assert!((f64::from(hit.distance) - s).abs() <= tolerance, "{case}");
        } else if missed {
            assert!(hit.is_none(), "hit a segment it misses: {case}");
        }
        return;
    }
    // Solid shapes: sample the ray densely; a stretch inside wider than two steps must be seen.
    let length = f64::from(max_distance).min(200.0);
    let steps = 4000;
    let step = length / steps as f64;
    let inside: Vec<bool> = (0..=steps)
        .map(|k| shape.contains(at(k as f64 * step)))
        .collect();
    let Some(first_in) = inside.iter().position(|&inside| inside) else {
        // Nothing inside on the samples: a hit must be a graze, thinner than a step.
        if let Some(hit) = hit {
            let thickness = hit.exit.map_or(0.0, |exit| exit.distance - hit.distance);
            assert!(f64::from(thickness) <= 2.0 * step + 1e-3, "{case}");
        }
        return;
    };
    let hit = hit.unwrap_or_else(|| panic!("missed: sample {first_in} is inside: {case}"));
    if first_in == 0 {
        assert!(hit.starts_inside || hit.distance <= 1e-3, "{case}");
    } else {
        let (before, after) = ((first_in - 1) as f64 * step, first_in as f64 * step);
        let entry = f64::from(hit.distance);
        assert!(
            entry >= before - 2.0 * step - tolerance && entry <= after + tolerance,
            "entry {entry} not in [{before}, {after}]: {case}"
        );
    }
    match inside[first_in..].iter().position(|&inside| !inside) {
        Some(out) => {
            let (before, after) = (
                (first_in + out - 1) as f64 * step,
                (first_in + out) as f64 * step,
            );
            let exit = hit.exit.unwrap_or_else(|| {
                panic!("no exit, yet sample {} is outside: {case}", first_in + out)
            });
            let exit = f64::from(exit.distance);
            // The exit may come earlier where a sliver thinner than a step was missed.
            assert!(
                exit >= f64::from(hit.distance) - tolerance && exit <= after + tolerance,
                "exit {exit} not in [.., {before}, {after}]: {case}"
            );
        }
        None if f64::from(max_distance) <= length => {
            if let Some(exit) = hit.exit {
                assert!(
                    f64::from(exit.distance) >= length - 2.0 * step - tolerance,
                    "an exit the samples do not see: {case}"
                );
            }
        }
        None => {}
    }
}

/// What every hit must be: finite, unit normals facing the right way.
fn check_hit_shape(hit: &RayIntersection, cast: Ray2d, case: &str) {
    let direction = *cast.direction;
    assert!(hit.distance.is_finite() && hit.distance >= 0.0, "{case}");
    assert!(hit.point.is_finite() && hit.normal.is_finite(), "{case}");
    assert!((hit.normal.length() - 1.0).abs() < 1e-3, "{case}");
    assert!(
        hit.normal.dot(direction) <= 1e-3,
        "entry normal faces the ray: {case}"
    );
    if let Some(exit) = hit.exit {
        assert!(exit.point.is_finite() && exit.normal.is_finite(), "{case}");
        assert!((exit.normal.length() - 1.0).abs() < 1e-3, "{case}");
        assert!(
            exit.normal.dot(direction) >= -1e-3,
            "exit normal along the ray: {case}"
        );
    }
}

#[test]
fn random_rays_agree_with_dense_sampling() {
    let cases = std::env::var("GEOMETRY_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(3000);
    let mut rng = StdRng::seed_from_u64(0x00C0_FFEE);
    for _ in 0..cases {
        let shape = random_shape(&mut rng);
        let origin = v(rng.random_range(-60.0..60.0), rng.random_range(-60.0..60.0));
        // Mostly aimed near the shape, so that hits, grazes and misses all occur.
        let target = match &shape {
            Generated::Circle(disc) => disc.center,
            Generated::Segment(segment) => segment.a.midpoint(segment.b),
            Generated::Polygon(vertices) => vertices[0],
        } + v(rng.random_range(-15.0..15.0), rng.random_range(-15.0..15.0));
        let Ok(direction) = Dir2::new(target - origin) else {
            continue;
        };
        let max_distance = match rng.random_range(0..4) {
            0 => f32::INFINITY,
            1 => rng.random_range(0.0..20.0),
            _ => rng.random_range(20.0..150.0),
        };
        check_ray(&shape, Ray2d::new(origin, direction), max_distance);
    }
}

#[test]
fn random_closest_points_agree_with_the_reference() {
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..3000 {
        let shape = random_shape(&mut rng);
        let point = v(rng.random_range(-60.0..60.0), rng.random_range(-60.0..60.0));
        let found = closest_point(shape.shape(), point).expect("finite input");
        let p = point.as_dvec2();
        let expected = if shape.contains(p) {
            0.0
        } else {
            shape.outline_distance(p)
        };
        let case = format!("{shape:?}, {point}: {found:?}");
        assert!(
            (f64::from(found.distance) - expected).abs() <= 1e-3,
            "{case}"
        );
        assert!(
            (f64::from(found.point.distance(point)) - expected).abs() <= 1e-3,
            "{case}"
        );
        if expected > 0.0 {
            assert!(
                shape.outline_distance(found.point.as_dvec2()) <= 1e-3,
                "{case}"
            );
        }
    }
}

/// A ray that grazes a corner meets both of its edges at one distance: its normal is that of
/// the edge it meets from outside, facing the ray, whichever edge comes first in the polygon
/// and whichever way round it runs (the other edge's, flipped, would point into the polygon).
#[test]
fn a_ray_grazing_a_corner_gets_the_normal_of_the_edge_it_meets_from_outside() {
    let square = [v(1.0, 1.0), v(0.0, 1.0), v(0.0, 0.0), v(1.0, 0.0)];
    let grazing = ray(v(2.0, 0.5), v(-2.0, 1.0));
    for reversed in [false, true] {
        for turn in 0..square.len() {
            let mut vertices = square;
            vertices.rotate_left(turn);
            if reversed {
                vertices.reverse();
            }
            let hit = ray_polygon(grazing, 10.0, &vertices).unwrap();
            assert_close(hit.distance, 5f32.sqrt() / 2.0, "at the corner (1, 1)");
            assert_near(hit.normal, Vec2::X, "the right side's normal");
        }
    }
}

/// The same where rounding puts the edge met from inside a hair nearer than the one met from
/// outside (4.7999997 against 4.8000002): the corner's normal still faces the ray.
#[test]
fn a_ray_grazing_a_corner_within_rounding_still_gets_the_outside_normal() {
    let triangle = [v(-0.4, -5.9), v(1.8, -1.6), v(4.7, -3.9)];
    let hit = ray_polygon(ray(v(-3.0, -1.6), Vec2::X), 10.0, &triangle).unwrap();
    assert_close(hit.distance, 4.8, "at the corner (1.8, -1.6)");
    assert_near(
        hit.normal,
        v(-4.3, 2.2).normalize(),
        "the normal of the edge from (-0.4, -5.9), met from outside",
    );
}
