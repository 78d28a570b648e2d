//! Helpers for the named cases: shape constructors, and the sweep in both argument orders with
//! its checks.

use bevy::math::Vec2;
use bevy_collision_events::geometry::{Circle, Impact, Segment, Shape, sweep};

/// How far a computed time (times the speed) or point may be from the expected one.
pub(crate) const CLOSE: f32 = 1e-4;

pub(crate) fn circle(x: f32, y: f32, radius: f32) -> Shape<'static> {
    Shape::Circle(Circle::new(Vec2::new(x, y), radius))
}

pub(crate) fn segment(ax: f32, ay: f32, bx: f32, by: f32) -> Shape<'static> {
    Shape::Segment(Segment::new(Vec2::new(ax, ay), Vec2::new(bx, by)))
}

pub(crate) fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// Sweeps in both orders, checks that they agree bit for bit and that the normal is a unit
/// vector facing the relative motion, and returns the answer for `(first, second)`.
pub(crate) fn both_orders(
    first: Shape,
    first_motion: Vec2,
    second: Shape,
    second_motion: Vec2,
) -> Option<Impact> {
    let forward = sweep(first, first_motion, second, second_motion);
    let backward = sweep(second, second_motion, first, first_motion);
    match (forward, backward) {
        (None, None) => {}
        (Some(f), Some(b)) => {
            assert_eq!(f.time.to_bits(), b.time.to_bits(), "{f:?} vs {b:?}");
            assert_eq!(
                [f.point.x.to_bits(), f.point.y.to_bits()],
                [b.point.x.to_bits(), b.point.y.to_bits()],
                "{f:?} vs {b:?}"
            );
            assert_eq!(f.normal, -b.normal, "{f:?} vs {b:?}");
            assert!((0.0..=1.0).contains(&f.time), "{f:?}");
            assert!((f.normal.length() - 1.0).abs() < 1e-5, "{f:?}");
            let relative = first_motion - second_motion;
            assert!(
                f.normal.dot(relative) <= 1e-5 * relative.length(),
                "{f:?} does not face the relative motion {relative}"
            );
        }
        _ => panic!("one order hits, the other does not: {forward:?} vs {backward:?}"),
    }
    forward
}

pub(crate) fn assert_impact(impact: Option<Impact>, time: f32, point: Vec2, normal: Vec2) {
    let impact = impact.unwrap_or_else(|| panic!("expected an impact at t = {time}"));
    assert!(
        (impact.time - time).abs() <= CLOSE,
        "time {} expected {time} ({impact:?})",
        impact.time
    );
    assert!(
        impact.point.distance(point) <= CLOSE,
        "point {} expected {point} ({impact:?})",
        impact.point
    );
    assert!(
        impact.normal.distance(normal) <= CLOSE,
        "normal {} expected {normal} ({impact:?})",
        impact.normal
    );
}
