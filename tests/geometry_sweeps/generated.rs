//! Property tests: the generated shapes and scenes, and the runner's configuration.

use bevy::math::Vec2;
use bevy_collision_events::geometry::{Circle, Segment, Shape};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

use crate::reference::Reference;

/// Cases per property; `GEOMETRY_CASES` overrides it.
const CASES: u32 = 3000;

/// A uniform float in `[low, high)`, drawn as an integer: proptest's own float ranges trip a
/// debug assertion of its sampler (`self.low - result < initial.step`) for rare seeds.
pub(crate) fn between(low: f32, high: f32) -> impl Strategy<Value = f32> + Clone {
    const STEPS: u32 = 1 << 24;
    (0..STEPS).prop_map(move |k| low + (high - low) * (k as f32 / STEPS as f32))
}

/// A fixed seed, so CI is reproducible; `GEOMETRY_SEED` picks another, to search further.
pub(crate) fn config() -> Config {
    let from_env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    Config {
        cases: from_env("GEOMETRY_CASES").map_or(CASES, |cases: u64| cases as u32),
        rng_seed: RngSeed::Fixed(from_env("GEOMETRY_SEED").unwrap_or(0x00C0_FFEE)),
        failure_persistence: None,
        ..Config::default()
    }
}

/// A shape owned by the test.
#[derive(Clone, Debug)]
pub(crate) enum Generated {
    Circle(Circle),
    Segment(Segment),
    /// A vertex loop: convex, or star-shaped (concave in general), in either winding.
    Polygon(Vec<Vec2>),
}

impl Generated {
    pub(crate) fn shape(&self) -> Shape<'_> {
        match self {
            Generated::Circle(c) => Shape::Circle(*c),
            Generated::Segment(s) => Shape::Segment(*s),
            Generated::Polygon(v) => Shape::Polygon(v),
        }
    }

    /// Every point moved by `f` (and a radius scaled by `scale`).
    pub(crate) fn map(&self, f: impl Fn(Vec2) -> Vec2, scale: f32) -> Self {
        match self {
            Generated::Circle(c) => Generated::Circle(Circle::new(f(c.center), c.radius * scale)),
            Generated::Segment(s) => Generated::Segment(Segment::new(f(s.a), f(s.b))),
            Generated::Polygon(v) => Generated::Polygon(v.iter().map(|&p| f(p)).collect()),
        }
    }

    /// The shape moved by `offset`, point by point in `f32`: what "moved by its motion" means.
    pub(crate) fn translated(&self, offset: Vec2) -> Self {
        self.map(|p| p + offset, 1.0)
    }

    fn points(&self) -> Vec<Vec2> {
        match self {
            Generated::Circle(c) => vec![c.center],
            Generated::Segment(s) => vec![s.a, s.b],
            Generated::Polygon(v) => v.clone(),
        }
    }

    /// The centre of the bounding box.
    fn center(&self) -> Vec2 {
        let points = self.points();
        let min = points.iter().fold(Vec2::INFINITY, |m, p| m.min(*p));
        let max = points.iter().fold(Vec2::NEG_INFINITY, |m, p| m.max(*p));
        0.5 * (min + max)
    }

    /// How far the shape reaches from its centre.
    fn reach(&self) -> f32 {
        let center = self.center();
        let radius = match self {
            Generated::Circle(c) => c.radius,
            _ => 0.0,
        };
        self.points()
            .iter()
            .map(|p| p.distance(center) + radius)
            .fold(0.0, f32::max)
    }

    /// The size the tolerance is scaled by (the geometry module's rule: a circle's radius, half
    /// a segment, half a polygon's bounding box's diagonal), computed here.
    pub(crate) fn size(&self) -> f32 {
        match self {
            Generated::Circle(c) => c.radius,
            Generated::Segment(s) => 0.5 * s.a.distance(s.b),
            Generated::Polygon(v) => {
                let min = v.iter().fold(Vec2::INFINITY, |m, p| m.min(*p));
                let max = v.iter().fold(Vec2::NEG_INFINITY, |m, p| m.max(*p));
                0.5 * min.distance(max)
            }
        }
    }

    pub(crate) fn max_coordinate(&self) -> f32 {
        self.points()
            .iter()
            .map(|p| p.abs().max_element())
            .fold(0.0, f32::max)
    }

    /// The shape as the reference sees it, in f64.
    pub(crate) fn reference(&self) -> Reference {
        let d = |v: Vec2| v.as_dvec2();
        match self {
            Generated::Circle(c) => Reference::Circle {
                center: d(c.center),
                radius: c.radius as f64,
            },
            Generated::Segment(s) => Reference::Outline {
                corners: vec![d(s.a), d(s.b)],
                edges: vec![(d(s.a), d(s.b))],
                solid: false,
            },
            Generated::Polygon(v) => Reference::Outline {
                corners: v.iter().map(|p| d(*p)).collect(),
                edges: (0..v.len())
                    .map(|i| (d(v[i]), d(v[(i + 1) % v.len()])))
                    .collect(),
                solid: v.len() >= 3,
            },
        }
    }
}

pub(crate) fn circle_shape() -> impl Strategy<Value = Generated> {
    prop_oneof![
        8 => between(0.1, 20.0).prop_map(|r| Generated::Circle(Circle::new(Vec2::ZERO, r))),
        1 => Just(Generated::Circle(Circle::new(Vec2::ZERO, 0.0))),
    ]
}

pub(crate) fn segment_shape() -> impl Strategy<Value = Generated> {
    let end = || (between(-25.0, 25.0), between(-25.0, 25.0)).prop_map(|(x, y)| Vec2::new(x, y));
    prop_oneof![
        8 => (end(), end()).prop_map(|(a, b)| Generated::Segment(Segment::new(a, b))),
        1 => end().prop_map(|a| Generated::Segment(Segment::new(a, a))),
    ]
}

/// A convex polygon: points on an ellipse in the order of their angles.
pub(crate) fn convex_shape() -> impl Strategy<Value = Generated> {
    (
        prop::collection::vec(between(0.0, std::f32::consts::TAU), 3..9),
        between(3.0, 25.0),
        between(3.0, 25.0),
        between(0.0, std::f32::consts::TAU),
        any::<bool>(),
    )
        .prop_filter_map("degenerate", |(mut angles, rx, ry, turn, clockwise)| {
            angles.sort_by(f32::total_cmp);
            let rotation = Vec2::from_angle(turn);
            let mut vertices: Vec<Vec2> = angles
                .iter()
                .map(|a| rotation.rotate(Vec2::new(rx * a.cos(), ry * a.sin())))
                .collect();
            if clockwise {
                vertices.reverse();
            }
            let spread = (0..vertices.len())
                .all(|i| vertices[i].distance(vertices[(i + 1) % vertices.len()]) > 0.5);
            (spread && doubled_area(&vertices) > 4.0).then_some(Generated::Polygon(vertices))
        })
}

/// A star-shaped polygon: spokes of random lengths around its centre (concave in general).
pub(crate) fn star_shape() -> impl Strategy<Value = Generated> {
    (
        prop::collection::vec((between(0.2, 1.0), between(4.0, 30.0)), 3..11),
        between(0.0, std::f32::consts::TAU),
        any::<bool>(),
    )
        .prop_filter_map(
            "a gap of half a turn or more",
            |(spokes, start, clockwise)| {
                let total: f32 = spokes.iter().map(|(gap, _)| gap).sum();
                let mut angle = start;
                let mut vertices = Vec::with_capacity(spokes.len());
                for (gap, radius) in &spokes {
                    let step = gap / total * std::f32::consts::TAU;
                    if step >= 0.95 * std::f32::consts::PI {
                        return None;
                    }
                    vertices.push(Vec2::from_angle(angle) * *radius);
                    angle += step;
                }
                if clockwise {
                    vertices.reverse();
                }
                Some(Generated::Polygon(vertices))
            },
        )
}

fn doubled_area(vertices: &[Vec2]) -> f32 {
    (0..vertices.len())
        .map(|i| vertices[i].perp_dot(vertices[(i + 1) % vertices.len()]))
        .sum::<f32>()
        .abs()
}

/// Two shapes, each with its motion over one frame.
#[derive(Clone, Debug)]
pub(crate) struct Scene {
    pub(crate) first: Generated,
    pub(crate) first_motion: Vec2,
    pub(crate) second: Generated,
    pub(crate) second_motion: Vec2,
}

impl Scene {
    pub(crate) fn relative(&self) -> Vec2 {
        self.first_motion - self.second_motion
    }
}

/// Two shapes placed apart (most of the time) and moving so that they often meet: the first
/// starts `separation × (reach₁ + reach₂)` from the second in a random direction and moves
/// back `approach` times that distance, with a sideways drift; the second moves or not; the
/// whole scene is scaled (tiny to large) and sometimes moved far from the origin.
pub(crate) fn scene(
    first: impl Strategy<Value = Generated>,
    second: impl Strategy<Value = Generated>,
) -> impl Strategy<Value = Scene> {
    let second_motion = prop_oneof![
        Just(Vec2::ZERO),
        (between(-30.0, 30.0), between(-30.0, 30.0)).prop_map(|(x, y)| Vec2::new(x, y)),
    ];
    let approach = prop_oneof![3 => between(0.0, 2.5), 1 => between(0.0, 0.01), 1 => Just(1.0f32)];
    let scale = prop_oneof![Just(0.05f32), Just(1.0f32), Just(30.0f32)];
    let far = prop_oneof![
        3 => Just(Vec2::ZERO),
        1 => (between(-2000.0, 2000.0), between(-2000.0, 2000.0)).prop_map(|(x, y)| Vec2::new(x, y)),
    ];
    (
        (first, second),
        (
            between(0.0, std::f32::consts::TAU),
            between(0.3, 2.5),
            approach,
            between(-1.0, 1.0),
        ),
        (second_motion, scale, far),
    )
        .prop_map(
            |(
                (first, second),
                (angle, separation, approach, drift),
                (second_motion, scale, far),
            )| {
                let direction = Vec2::from_angle(angle);
                let distance = separation * (first.reach() + second.reach());
                let offset = second.center() - first.center() + direction * distance;
                let first = first.translated(offset);
                let relative = -direction * (distance * approach)
                    + direction.perp() * (drift * 0.7 * (first.reach() + second.reach()));
                let place = |p: Vec2| p * scale + far;
                Scene {
                    first: first.map(place, scale),
                    first_motion: (relative + second_motion) * scale,
                    second: second.map(place, scale),
                    second_motion: second_motion * scale,
                }
            },
        )
}

pub(crate) fn any_shape() -> impl Strategy<Value = Generated> {
    prop_oneof![
        circle_shape(),
        segment_shape(),
        convex_shape(),
        star_shape()
    ]
}
