//! Micro-benchmarks of every pair test: ours (overlap only, and the full intersection with its
//! crossing points) beside `parry2d`'s `intersection_test` on the same inputs.
//!
//! Each pair gets a fixed, seeded set of 1024 inputs, a third to two thirds of them hits. One
//! benchmark iteration runs the whole set, so criterion's times are per 1024 tests; at the end
//! a Markdown table lists the medians per test, side by side. A second table times pairs with
//! thousands of crossings (a bar across a comb), to show the cost per point staying flat, and
//! a third times `push_out` on a few pairs, convex and concave.
//!
//! ```text
//! cargo bench --bench pair_tests
//! ```

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use bevy::math::Vec2;
use bevy_collision_events::geometry::{
    Circle, Intersection, Segment, Shape, intersect_circle_circle, intersect_polygon_circle,
    intersect_polygon_polygon, intersect_polygon_segment, intersect_segment_circle,
    intersect_segment_segment, overlap_circle_circle, overlap_polygon_circle,
    overlap_polygon_polygon, overlap_polygon_segment, overlap_segment_circle,
    overlap_segment_segment, push_out,
};
use criterion::Criterion;
use parry2d::math::{Pose, Vector as ParryVector};
use parry2d::query::intersection_test;
use parry2d::shape as parry;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::Deserialize;

/// Inputs per pair; a power of two so that cycling through them is a mask.
const INPUTS: usize = 1024;

/// A shape, and its parry2d twin where parry2d can take it (convex shapes), built before
/// timing starts.
struct Sample<T> {
    ours: T,
    parry: Option<(Pose, Box<dyn parry::Shape>)>,
}

fn parry_vector(v: Vec2) -> ParryVector {
    ParryVector::new(v.x, v.y)
}

fn random_point(rng: &mut StdRng) -> Vec2 {
    Vec2::new(rng.random_range(0.0..50.0), rng.random_range(0.0..50.0))
}

fn circle(rng: &mut StdRng) -> Sample<Circle> {
    let center = random_point(rng);
    let radius = rng.random_range(4.0..16.0);
    Sample {
        ours: Circle::new(center, radius),
        parry: Some((
            Pose::from_translation(parry_vector(center)),
            Box::new(parry::Ball::new(radius)),
        )),
    }
}

fn segment(rng: &mut StdRng) -> Sample<Segment> {
    let a = random_point(rng);
    let b = a + Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU)) * 40.0;
    Sample {
        ours: Segment::new(a, b),
        parry: Some((
            Pose::identity(),
            Box::new(parry::Segment::new(parry_vector(a), parry_vector(b))),
        )),
    }
}

/// A regular polygon of 5 to 10 vertices (octagon-like enemies), randomly turned.
fn convex(rng: &mut StdRng) -> Sample<Vec<Vec2>> {
    let center = random_point(rng);
    let count = rng.random_range(5..=10);
    let radius = rng.random_range(10.0..24.0);
    let turn = rng.random_range(0.0..std::f32::consts::TAU);
    let step = std::f32::consts::TAU / count as f32;
    let vertices: Vec<Vec2> = (0..count)
        .map(|i| center + Vec2::from_angle(turn + i as f32 * step) * radius)
        .collect();
    let points = vertices.iter().map(|v| parry_vector(*v)).collect();
    Sample {
        ours: vertices,
        parry: Some((
            Pose::identity(),
            Box::new(parry::ConvexPolygon::from_convex_polyline(points).unwrap()),
        )),
    }
}

/// A concave star of 10 vertices, alternating long and short spokes; parry2d cannot take it.
fn concave(rng: &mut StdRng) -> Sample<Vec<Vec2>> {
    let center = random_point(rng);
    let radius = rng.random_range(10.0..24.0);
    let turn = rng.random_range(0.0..std::f32::consts::TAU);
    let step = std::f32::consts::TAU / 10.0;
    let vertices = (0..10)
        .map(|i| {
            let spoke = if i % 2 == 0 { radius } else { 0.5 * radius };
            center + Vec2::from_angle(turn + i as f32 * step) * spoke
        })
        .collect();
    Sample {
        ours: vertices,
        parry: None,
    }
}

fn samples<A, B>(
    seed: u64,
    first: impl Fn(&mut StdRng) -> Sample<A>,
    second: impl Fn(&mut StdRng) -> Sample<B>,
) -> Vec<(Sample<A>, Sample<B>)> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..INPUTS)
        .map(|_| (first(&mut rng), second(&mut rng)))
        .collect()
}

/// What the full test returns, folded to a number so nothing is optimised away.
fn folded(hit: Option<Intersection>) -> usize {
    hit.map_or(0, |hit| 1 + hit.points.len())
}

/// Times one pair: our overlap test, our full intersection and, where it can take the shapes,
/// parry2d's `intersection_test`. Returns the table row's name.
fn bench_pair<A: Clone, B: Clone>(
    criterion: &mut Criterion,
    name: &str,
    pairs: &[(Sample<A>, Sample<B>)],
    overlap: impl Fn(&A, &B) -> bool,
    intersect: impl Fn(&A, &B) -> usize,
) {
    // Our shapes packed tightly, as a caller would keep them.
    let ours: Vec<(A, B)> = pairs
        .iter()
        .map(|(a, b)| (a.ours.clone(), b.ours.clone()))
        .collect();
    let hits = ours.iter().filter(|(a, b)| overlap(a, b)).count();
    println!("{name}: {hits} hits in {} inputs", ours.len());
    // One iteration runs the whole batch; `black_box` on each input keeps the compiler from
    // hoisting or vectorising across tests. The table divides by the batch size.
    let mut group = criterion.benchmark_group(name);
    group.bench_function("overlap", |bench| {
        bench.iter(|| {
            ours.iter()
                .filter(|(a, b)| overlap(black_box(a), black_box(b)))
                .count()
        })
    });
    group.bench_function("intersect", |bench| {
        bench.iter(|| {
            ours.iter()
                .map(|(a, b)| intersect(black_box(a), black_box(b)))
                .sum::<usize>()
        })
    });
    if pairs
        .iter()
        .all(|(a, b)| a.parry.is_some() && b.parry.is_some())
    {
        let parry_pairs: Vec<_> = pairs
            .iter()
            .map(|(a, b)| (a.parry.as_ref().unwrap(), b.parry.as_ref().unwrap()))
            .collect();
        group.bench_function("parry2d", |bench| {
            bench.iter(|| {
                parry_pairs
                    .iter()
                    .filter(|((pose1, shape1), (pose2, shape2))| {
                        intersection_test(
                            black_box(pose1),
                            shape1.as_ref(),
                            black_box(pose2),
                            shape2.as_ref(),
                        )
                        .is_ok_and(|result| result.intersecting)
                    })
                    .count()
            })
        });
    }
    group.finish();
}

/// A comb of `teeth` teeth one unit apart, counter-clockwise, and a bar across all of them:
/// the bar's outline crosses the comb's `4 × teeth` times.
fn comb_and_bar(teeth: usize) -> (Vec<Vec2>, [Vec2; 4]) {
    let width = teeth as f32;
    let mut comb = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(width, 0.0),
        Vec2::new(width, 1.0),
    ];
    for tooth in (0..teeth).rev() {
        let (left, right) = (tooth as f32 + 0.25, tooth as f32 + 0.75);
        comb.extend([
            Vec2::new(right, 1.0),
            Vec2::new(right, 10.0),
            Vec2::new(left, 10.0),
            Vec2::new(left, 1.0),
        ]);
    }
    comb.push(Vec2::new(0.0, 1.0));
    let bar = [
        Vec2::new(-1.0, 5.0),
        Vec2::new(width + 1.0, 5.0),
        Vec2::new(width + 1.0, 6.0),
        Vec2::new(-1.0, 6.0),
    ];
    (comb, bar)
}

/// The comb sizes of [`bench_many_crossings`], in teeth.
const COMB_TEETH: [usize; 3] = [250, 1000, 4000];

/// One polygon–polygon and one polygon–segment test with thousands of crossings, at three
/// sizes: the cost per point found must stay flat as the count grows.
fn bench_many_crossings(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("many_crossings");
    for teeth in COMB_TEETH {
        let (comb, bar) = comb_and_bar(teeth);
        let laser = Segment::new(bar[0], bar[1]);
        group.bench_function(format!("bar_comb_{teeth}"), |bench| {
            bench.iter(|| folded(intersect_polygon_polygon(black_box(&bar), black_box(&comb))));
        });
        group.bench_function(format!("comb_laser_{teeth}"), |bench| {
            bench.iter(|| {
                folded(intersect_polygon_segment(
                    black_box(&comb),
                    black_box(laser),
                ))
            });
        });
    }
    group.finish();
}

/// A comb of `teeth` teeth, 0.5 wide and `height` tall, one apart, on a base 1 thick along
/// the x axis: `4 + 4 * teeth` corners.
fn comb(teeth: usize, height: f32) -> Vec<Vec2> {
    let mut comb = vec![Vec2::ZERO, Vec2::new(teeth as f32, 0.0)];
    comb.push(Vec2::new(teeth as f32, 1.0));
    for tooth in (0..teeth).rev() {
        let (left, right) = (tooth as f32 + 0.25, tooth as f32 + 0.75);
        comb.extend([
            Vec2::new(right, 1.0),
            Vec2::new(right, 1.0 + height),
            Vec2::new(left, 1.0 + height),
            Vec2::new(left, 1.0),
        ]);
    }
    comb.push(Vec2::new(0.0, 1.0));
    comb
}

/// A strip of ground `bumps` wide: flat below, and above a bump a unit apart, 10 and 12 high
/// by turns (`bumps + 2` corners).
fn ground(bumps: usize) -> Vec<Vec2> {
    let mut ground = vec![Vec2::ZERO, Vec2::new(bumps as f32, 0.0)];
    ground.extend((0..bumps).rev().map(|x| {
        let height = if x % 2 == 0 { 10.0 } else { 12.0 };
        Vec2::new(x as f32 + 0.5, height)
    }));
    ground
}

/// A star of `points` points, `outer` and `inner` from its centre `center`.
fn star(points: usize, outer: f32, inner: f32, center: Vec2) -> Vec<Vec2> {
    (0..2 * points)
        .map(|k| {
            let radius = if k % 2 == 0 { outer } else { inner };
            center + Vec2::from_angle(k as f32 * core::f32::consts::PI / points as f32) * radius
        })
        .collect()
}

/// The pairs [`bench_push_out`] times: a name and two polygons (a circle where the second is
/// empty, given as its centre and radius in the first's place).
fn push_out_pairs() -> Vec<(String, Vec<Vec2>, Vec<Vec2>)> {
    // Points and notches as far out: a regular octagon.
    let octagon = |center| star(4, 10.0, 10.0, center);
    let mut pairs = vec![(
        "octagons".to_string(),
        octagon(Vec2::ZERO),
        octagon(Vec2::new(12.0, 3.0)),
    )];
    // Two combs with their teeth interlocked (the second turned over and set half a tooth
    // along, its teeth 0.1 into the first's).
    for teeth in [5, 8] {
        let first = comb(teeth, 5.5);
        let second: Vec<Vec2> = first
            .iter()
            .rev()
            .map(|v| Vec2::new(v.x + 0.4, 7.5 - v.y))
            .collect();
        pairs.push((format!("combs_{}_corners", first.len()), first, second));
    }
    // Two stars of 16 points (32 corners), each over half of the other.
    pairs.push((
        "stars_32_corners".to_string(),
        star(16, 10.0, 4.0, Vec2::ZERO),
        star(16, 10.0, 4.0, Vec2::new(10.0, 0.0)),
    ));
    pairs
}

/// `push_out` on a few pairs, one call a sample: the cost on shapes of tens of corners.
fn bench_push_out(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("push_out");
    for (name, first, second) in push_out_pairs() {
        assert!(
            push_out(Shape::Polygon(&first), Shape::Polygon(&second)).is_some(),
            "{name}"
        );
        group.bench_function(&name, |bench| {
            bench.iter(|| {
                push_out(
                    Shape::Polygon(black_box(&first)),
                    Shape::Polygon(black_box(&second)),
                )
            });
        });
    }
    // A circle deep inside a star of 40 points (80 corners).
    let star = star(40, 100.0, 60.0, Vec2::ZERO);
    let circle = Circle::new(Vec2::new(3.0, 2.0), 5.0);
    group.bench_function("circle_in_star_80_corners", |bench| {
        bench.iter(|| {
            push_out(
                Shape::Circle(black_box(circle)),
                Shape::Polygon(black_box(&star)),
            )
        });
    });
    // A player sunk into a level's ground of 400 corners: flat below, bumpy above.
    let ground = ground(398);
    let player = Circle::new(Vec2::new(200.0, 9.0), 3.0);
    group.bench_function("circle_in_ground_400_corners", |bench| {
        bench.iter(|| {
            push_out(
                Shape::Circle(black_box(player)),
                Shape::Polygon(black_box(&ground)),
            )
        });
    });
    group.finish();
}

fn print_push_out_table(results: &Path) {
    println!();
    println!("push_out: median µs per call:");
    println!();
    println!("| pair | µs |");
    println!("|---|---:|");
    let names = push_out_pairs()
        .into_iter()
        .map(|(name, _, _)| name)
        .chain(["circle_in_star_80_corners", "circle_in_ground_400_corners"].map(String::from));
    for name in names {
        // `median_ns` gives a time per input of a batch; a push_out sample is one call.
        let micros = median_ns(results, "push_out", &name).map_or("–".to_string(), |ns| {
            format!("{:.1}", ns * INPUTS as f64 / 1e3)
        });
        println!("| {name} | {micros} |");
    }
}

fn print_crossings_table(results: &Path) {
    println!();
    println!("Many crossings: median ns per point found (flat = linear in the number of points):");
    println!();
    println!("| teeth | bar × comb: points | ns per point | comb × laser: points | ns per point |");
    println!("|---:|---:|---:|---:|---:|");
    for teeth in COMB_TEETH {
        let per_point = |function: String, points: usize| {
            median_ns(results, "many_crossings", &function).map_or("–".to_string(), |ns| {
                format!("{:.1}", ns * INPUTS as f64 / points as f64)
            })
        };
        println!(
            "| {teeth} | {} | {} | {} | {} |",
            4 * teeth,
            per_point(format!("bar_comb_{teeth}"), 4 * teeth),
            2 * teeth,
            per_point(format!("comb_laser_{teeth}"), 2 * teeth),
        );
    }
}

/// Where criterion saves its results: `criterion/` in the target directory this bench was built
/// in (the binary lives in `<target>/<profile>/deps/`), so that `CARGO_TARGET_DIR` is honoured.
fn results_directory() -> PathBuf {
    let exe = std::env::current_exe().expect("the bench knows its own path");
    let target = exe.ancestors().nth(3).unwrap_or(Path::new("target"));
    target.join("criterion")
}

/// The part of criterion's `estimates.json` the table needs.
#[derive(Deserialize)]
struct Estimates {
    median: Estimate,
}

#[derive(Deserialize)]
struct Estimate {
    point_estimate: f64,
}

/// The median time of one test, in ns, from criterion's saved estimates for the batch.
fn median_ns(results: &Path, group: &str, function: &str) -> Option<f64> {
    let path = results
        .join(group)
        .join(function)
        .join("new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let estimates: Estimates = serde_json::from_str(&text).ok()?;
    Some(estimates.median.point_estimate / INPUTS as f64)
}

fn print_table(results: &Path, names: &[&str]) {
    println!();
    println!("Median ns per test (one core, batches of {INPUTS} seeded inputs per pair):");
    println!();
    println!(
        "| pair | ours: overlap | ours: intersect (with points) | parry2d intersection_test | intersect / parry2d |"
    );
    println!("|---|---:|---:|---:|---:|");
    let cell = |value: Option<f64>| value.map_or("–".to_string(), |ns| format!("{ns:.1}"));
    for name in names {
        let overlap = median_ns(results, name, "overlap");
        let intersect = median_ns(results, name, "intersect");
        let parry = median_ns(results, name, "parry2d");
        let ratio = intersect
            .zip(parry)
            .map_or("–".to_string(), |(ours, theirs)| {
                format!("{:.2}×", ours / theirs)
            });
        println!(
            "| {name} | {} | {} | {} | {ratio} |",
            cell(overlap),
            cell(intersect),
            cell(parry)
        );
    }
}

fn main() {
    let results = results_directory();
    let mut criterion = Criterion::default()
        .output_directory(&results)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();

    bench_pair(
        &mut criterion,
        "circle_circle",
        &samples(1, circle, circle),
        |a, b| overlap_circle_circle(*a, *b),
        |a, b| folded(intersect_circle_circle(*a, *b)),
    );
    bench_pair(
        &mut criterion,
        "segment_circle",
        &samples(2, segment, circle),
        |a, b| overlap_segment_circle(*a, *b),
        |a, b| folded(intersect_segment_circle(*a, *b)),
    );
    bench_pair(
        &mut criterion,
        "segment_segment",
        &samples(3, segment, segment),
        |a, b| overlap_segment_segment(*a, *b),
        |a, b| folded(intersect_segment_segment(*a, *b)),
    );
    for (name, polygon, seed) in [
        ("polygon", convex as fn(&mut StdRng) -> Sample<Vec<Vec2>>, 4),
        ("concave_polygon", concave, 7),
    ] {
        bench_pair(
            &mut criterion,
            &format!("{name}_circle"),
            &samples(seed, polygon, circle),
            |a, b| overlap_polygon_circle(a, *b),
            |a, b| folded(intersect_polygon_circle(a, *b)),
        );
        bench_pair(
            &mut criterion,
            &format!("{name}_segment"),
            &samples(seed + 1, polygon, segment),
            |a, b| overlap_polygon_segment(a, *b),
            |a, b| folded(intersect_polygon_segment(a, *b)),
        );
        bench_pair(
            &mut criterion,
            &format!("{name}_polygon"),
            &samples(seed + 2, polygon, convex),
            |a, b| overlap_polygon_polygon(a, b),
            |a, b| folded(intersect_polygon_polygon(a, b)),
        );
    }
    bench_many_crossings(&mut criterion);
    bench_push_out(&mut criterion);
    criterion.final_summary();
    print_table(
        &results,
        &[
            "circle_circle",
            "segment_circle",
            "segment_segment",
            "polygon_circle",
            "polygon_segment",
            "polygon_polygon",
            "concave_polygon_circle",
            "concave_polygon_segment",
            "concave_polygon_polygon",
        ],
    );
    print_crossings_table(&results);
    print_push_out_table(&results);
}
