//! Wild input: no panic, nothing non-finite.

use bevy::math::Vec2;
use bevy_collision_events::geometry::{Circle, Impact, Segment, sweep};
use proptest::prelude::*;

use crate::generated::{Generated, any_shape, between, config, scene};

/// Any float: huge, tiny, zero, NaN and infinities included.
fn wild() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<f32>(),
        Just(0.0),
        Just(-0.0),
        Just(f32::MIN_POSITIVE),
        Just(f32::MAX),
        Just(f32::NAN),
        Just(f32::INFINITY),
        between(-1e-30, 1e-30),
        between(-1e30, 1e30),
        between(-1e18, 1e18),
        between(-1e6, 1e6),
    ]
}

fn wild_point() -> impl Strategy<Value = Vec2> {
    (wild(), wild()).prop_map(|(x, y)| Vec2::new(x, y))
}

fn wild_shape() -> impl Strategy<Value = Generated> {
    prop_oneof![
        (wild_point(), wild()).prop_map(|(c, r)| Generated::Circle(Circle::new(c, r))),
        (wild_point(), wild_point()).prop_map(|(a, b)| Generated::Segment(Segment::new(a, b))),
        prop::collection::vec(wild_point(), 1..6).prop_map(Generated::Polygon),
    ]
}

/// The sweep of `a` and `b` agrees both ways round, and an impact is finite: its time in
/// `[0, 1]`, its point finite, its normal of unit length.
fn check_finite_both_ways(
    a: &Generated,
    a_motion: Vec2,
    b: &Generated,
    b_motion: Vec2,
) -> Result<(), TestCaseError> {
    let forward = sweep(a.shape(), a_motion, b.shape(), b_motion);
    let backward = sweep(b.shape(), b_motion, a.shape(), a_motion);
    prop_assert_eq!(forward.map(Impact::mirrored), backward);
    if let Some(impact) = forward {
        prop_assert!((0.0..=1.0).contains(&impact.time), "{:?}", impact);
        prop_assert!(impact.point.is_finite(), "{:?}", impact);
        prop_assert!((impact.normal.length() - 1.0).abs() < 1e-3, "{:?}", impact);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn wild_input_never_panics_or_gives_non_finite_answers(
        a in wild_shape(),
        b in wild_shape(),
        a_motion in wild_point(),
        b_motion in wild_point(),
    ) {
        check_finite_both_ways(&a, a_motion, &b, b_motion)?;
    }
}

proptest! {
    #![proptest_config(config())]

    /// The wild-input checks on scenes that meet, scaled towards the ends of the range (10⁻¹⁵
    /// to 10¹⁵): here most cases reach the checks on the impact, which wild input seldom does.
    #[test]
    fn scenes_scaled_to_the_ends_of_the_range_give_finite_answers_both_ways(
        s in scene(any_shape(), any_shape()),
        exponent in -15i32..=15,
    ) {
        let scale = 10f32.powi(exponent);
        let (a, b) = (s.first.map(|p| p * scale, scale), s.second.map(|p| p * scale, scale));
        let (a_motion, b_motion) = (s.first_motion * scale, s.second_motion * scale);
        check_finite_both_ways(&a, a_motion, &b, b_motion)?;
    }
}

#[test]
fn a_one_vertex_polygon_sweeps_as_a_point() {
    use bevy_collision_events::geometry::{Circle, Segment, Shape, sweep};
    let point = [Vec2::new(0.0, 0.0)];
    let wall = Shape::Segment(Segment::new(Vec2::new(10.0, -5.0), Vec2::new(10.0, 5.0)));
    let hit = sweep(
        Shape::Polygon(&point),
        Vec2::new(20.0, 0.0),
        wall,
        Vec2::ZERO,
    )
    .expect("the point runs into the wall");
    assert!((hit.time - 0.5).abs() < 1e-5, "{hit:?}");
    assert!(hit.point.abs_diff_eq(Vec2::new(10.0, 0.0), 1e-4));
    let orb = Shape::Circle(Circle::new(Vec2::new(10.0, 0.0), 2.0));
    let hit = sweep(
        Shape::Polygon(&point),
        Vec2::new(20.0, 0.0),
        orb,
        Vec2::ZERO,
    )
    .expect("the point runs into the orb");
    assert!((hit.time - 0.4).abs() < 1e-5, "{hit:?}");
    assert!(hit.normal.abs_diff_eq(Vec2::NEG_X, 1e-5));
}
