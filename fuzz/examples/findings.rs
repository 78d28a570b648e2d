//! The fuzz findings as plain calls, printing what the crate answers (`cargo run --example
//! findings` in `fuzz/`, a dev build: debug assertions on). Each case names the assertion of
//! the fuzz target that failed; see `README.md` for the discussion.

use bevy::math::Vec2;
use bevy_collision_events::PolygonCollider;
use bevy_collision_events::geometry::{
    Circle, Segment, Shape, bounding_circle_of_points, intersect, overlap, sweep,
    sweep_circle_circle, sweep_polygon_polygon, sweep_segment_circle,
};
use std::panic::{AssertUnwindSafe, catch_unwind};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn try_<T: std::fmt::Debug>(label: &str, f: impl FnOnce() -> T) {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(value) => println!("  {label}: {value:?}"),
        Err(_) => println!("  {label}: PANICKED"),
    }
}

fn main() {
    std::panic::set_hook(Box::new(|info| println!("    (panic: {info})")));

    println!("1. bounding circles of a negative radius / a NaN vertex");
    try_("Circle r = -1", || Shape::Circle(Circle::new(Vec2::ZERO, -1.0)).bounding_circle());
    try_("polygon with NaN", || {
        Shape::Polygon(&[Vec2::ZERO, v(f32::NAN, 0.0)]).bounding_circle()
    });

    println!("2. bounding circle / PolygonCollider of large in-range coordinates");
    for r in [1e12f32, 4e12, 5e12, 1e13, 3.7646462e16, 1e18] {
        try_(&format!("try_regular({r:e}, 3)"), || {
            PolygonCollider::try_regular(r, 3).map(|p| p.local_bounding_circle())
        });
    }
    let triangle = [v(5e12, 0.0), v(-2.5e12, 4.330127e12), v(-2.5e12, -4.330127e12)];
    try_("bounding_circle_of_points(triangle 5e12)", || bounding_circle_of_points(&triangle));

    println!("3. sweep time wrong with a subnormal coordinate");
    let first = [v(0.0, 0.0), v(4.768372e-7, 1e-45)];
    let wall = Segment::new(v(16.5, 1.4142135), v(1.4142135, 0.0));
    try_("sweep", || {
        sweep(Shape::Polygon(&first), v(2.0, 0.0), Shape::Segment(wall), Vec2::ZERO)
    });
    let first0 = [v(0.0, 0.0), v(4.768372e-7, 0.0)];
    try_("same with y = 0", || {
        sweep(Shape::Polygon(&first0), v(2.0, 0.0), Shape::Segment(wall), Vec2::ZERO)
    });

    println!("4. overlap differs with the order");
    let cases: [(&[Vec2], &[Vec2]); 4] = [
        (&[v(0.0, 0.0), v(33.0, 12.0)], &[v(1.1920929e-7, 1e-45); 3]),
        (&[v(0.0, 0.0), v(33.0, 12.0)], &[v(1.1920929e-7, 1e-45)]),
        (&[v(0.0, 0.0), v(24.5, -2.25)], &[v(0.0, -1.14e-43)]),
        (&[v(0.0, 0.0)], &[v(-0.0, 1e-45), v(0.0, 0.0)]),
    ];
    for (a, b) in cases {
        let (a, b) = (Shape::Polygon(a), Shape::Polygon(b));
        try_(&format!("{a:?} / {b:?}"), || (overlap(a, b), overlap(b, a)));
    }
    let a = [v(-8.5, -26711552.0), v(0.0, -1122304.0)];
    let b = [v(0.0, 0.0), v(1.0000001, -1e18)];
    let (a, b) = (Shape::Polygon(&a), Shape::Polygon(&b));
    try_("two polylines, one reaching 1e18", || (overlap(a, b), overlap(b, a)));
    let p = v(1.1920929e-7, 1e-45);
    let s33 = Segment::new(v(0.0, 0.0), v(33.0, 12.0));
    try_("Segment(p, p) / Segment", || {
        let (a, b) = (Shape::Segment(Segment::new(p, p)), Shape::Segment(s33));
        (overlap(a, b), overlap(b, a))
    });
    try_("Polygon[p] / Segment", || {
        let (a, b) = (Shape::Polygon(&[p]), Shape::Segment(s33));
        (overlap(a, b), overlap(b, a))
    });
    let seg = Shape::Segment(Segment::new(v(0.0, 0.0), v(33.0, 12.0)));
    let pt = Shape::Circle(Circle::new(v(1.1920929e-7, 1e-45), 0.0));
    try_("as Segment / zero Circle", || (overlap(seg, pt), overlap(pt, seg)));

    println!("5. power-of-two scale changes the answer");
    let bar = |s: f32| [v(0.0, 0.0), v(5e17 * s, 0.0), v(5e17 * s, -3.05406e-5 * s), v(0.0, -3.05406e-5 * s)];
    for s in [1.0f32, 2.0] {
        let b = bar(s);
        let c = Shape::Circle(Circle::new(v(98.0 * s, 23.5 * s), 23.5 * s));
        try_(&format!("bar x{s} vs tangent circle"), || intersect(Shape::Polygon(&b), c));
    }

    let square = |s: f32| {
        [
            v(-297425630000.0 * s, -463213100000.0 * s),
            v(463213100000.0 * s, -297425600000.0 * s),
            v(297425530000.0 * s, 463213130000.0 * s),
            v(-463213070000.0 * s, 297425670000.0 * s),
        ]
    };
    for s in [1.0f32, 2.0] {
        let q = square(s);
        try_(&format!("square x{s} against itself"), || {
            intersect(Shape::Polygon(&q), Shape::Polygon(&q)).map(|i| i.points.len())
        });
    }

    println!("6. near-duplicate points (within the pair's tolerance)");
    let tri = [v(-29.75, 0.0), v(-8.5, -1669472.0), v(0.0, -1122304.0)];
    let rect = [v(-8.5, -1669472.0), v(0.0, -1669472.0), v(0.0, 0.0), v(-8.5, 0.0)];
    try_("intersect(rect, tri)", || intersect(Shape::Polygon(&rect), Shape::Polygon(&tri)));
    try_("intersect(tri, rect)", || intersect(Shape::Polygon(&tri), Shape::Polygon(&rect)));

    println!("8. circle–circle points with very unequal radii");
    let small = Circle::new(v(27.75, 111.0), 10.370827);
    let large = Circle::new(v(27.749998, 6216.0), 6105.0);
    try_("intersect(small, large)", || intersect(Shape::Circle(small), Shape::Circle(large)));
    try_("intersect(large, small)", || intersect(Shape::Circle(large), Shape::Circle(small)));
    for (r, big) in [(1.0f32, 1e4f32), (1.0, 1e5), (1.0, 1e6)] {
        let a = Circle::new(v(0.0, 0.0), r);
        let b = Circle::new(v(0.0, big), big);
        try_(&format!("intersect(r {r}, R {big:e} through its centre); exact x = ±{:.4}",
            (r as f64) * (1.0 - (r as f64 / (2.0 * big as f64)).powi(2)).sqrt()), || {
            intersect(Shape::Circle(a), Shape::Circle(b))
        });
    }

    println!("9. containment with a polyline");
    let tri = [v(-0.75, 1e-5), v(0.0, 3.0398369e-5), v(13.75, 13.75)];
    let poly = [v(-0.75000006, 1e-5), v(3.4375, 0.0)];
    try_("intersect(tri, polyline)", || intersect(Shape::Polygon(&tri), Shape::Polygon(&poly)));
    try_("intersect(polyline, tri)", || intersect(Shape::Polygon(&poly), Shape::Polygon(&tri)));
    try_("as a Segment: intersect(segment, tri)", || {
        intersect(Shape::Segment(Segment::new(poly[0], poly[1])), Shape::Polygon(&tri))
    });

    println!("10. near-parallel crossings reported past a segment's end");
    let tri = [v(-15.933594, 14.066406), v(-17.703125, 12.296875), v(-17.109375, 12.296875)];
    let seg = Segment::new(v(-17.703125, 12.296964), v(-16.25, 13.75));
    try_("intersect(tri, seg)", || intersect(Shape::Polygon(&tri), Shape::Segment(seg)));
    let edge = Segment::new(tri[0], tri[1]);
    try_("intersect(edge as Segment, seg)", || intersect(Shape::Segment(edge), Shape::Segment(seg)));
    let a = Segment::new(v(1.6875, 15.75), v(-2.25, 11.8125));
    let b = Segment::new(v(-1.75, 12.3125), v(-2.25, 11.812552));
    try_("intersect(a, b)", || intersect(Shape::Segment(a), Shape::Segment(b)));
    try_("intersect(b, a)", || intersect(Shape::Segment(b), Shape::Segment(a)));

    println!("11. a sweep hits at time 0 what it moves away from");
    let circle = Circle::new(v(0.0, 0.0), 0.00048825142);
    let wall = Segment::new(v(14.249947, 14.25), v(0.1, 0.1));
    try_("sweep(circle moving (-0.1, -0.1), segment)", || {
        sweep(Shape::Circle(circle), v(-0.1, -0.1), Shape::Segment(wall), Vec2::ZERO)
    });

    println!("12. the guarantee at the end of a long motion");
    let a = Circle::new(v(-440813120.0, 2.0), 13.0);
    let b = Circle::new(v(22.75, 0.0), 11.0);
    let m = v(440813120.0, 1.25);
    let end = Circle::new(a.center + m, a.radius);
    try_("start apart, end overlap", || {
        (overlap(Shape::Circle(a), Shape::Circle(b)), overlap(Shape::Circle(end), Shape::Circle(b)))
    });
    try_("sweep_circle_circle", || sweep_circle_circle(a, b, m));
    try_("sweep", || sweep(Shape::Circle(a), m, Shape::Circle(b), Vec2::ZERO));

    println!("13. a normal along the motion");
    let long = Segment::new(v(8857199000000.0, 1.593292e-10), v(0.1, 0.0));
    let dot = Circle::new(v(0.0, 0.0), 1.4327146e-10);
    let m = v(-5.875, -1.9645086e-10);
    try_("sweep_segment_circle", || sweep_segment_circle(long, dot, m));

    println!("7. the sweep's guarantee at the end of the motion");
    let gon = [
        v(55.21758, -95.96521), v(96.18819, -110.00732), v(139.41376, -107.30172),
        v(178.31358, -88.26031), v(206.96503, -55.782726), v(221.00726, -14.812166),
        v(218.3018, 28.413422), v(199.26053, 67.3133), v(166.78229, 95.96528),
        v(125.811676, 110.00734), v(82.5861, 107.301674), v(43.68698, 88.260735),
        v(15.034897, 55.7826), v(0.9927063, 14.812026), v(3.698227, -28.41356),
        v(22.739563, -67.313416),
    ];
    let line = [v(1.4142135, -0.0), v(-6.9805794e17, 3821944800000000.0)];
    let motion = v(-1.4142135, 0.0);
    let moved: Vec<Vec2> = gon.iter().map(|p| *p + motion).collect();
    try_("overlap at start (both orders)", || {
        let (a, b) = (Shape::Polygon(&gon), Shape::Polygon(&line));
        (overlap(a, b), overlap(b, a))
    });
    try_("overlap at end (both orders)", || {
        let (a, b) = (Shape::Polygon(&moved), Shape::Polygon(&line));
        (overlap(a, b), overlap(b, a))
    });
    try_("sweep_polygon_polygon", || sweep_polygon_polygon(&gon, &line, motion));
    try_("sweep", || sweep(Shape::Polygon(&gon), motion, Shape::Polygon(&line), Vec2::ZERO));
}
