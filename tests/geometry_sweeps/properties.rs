//! The properties: generated scenes for every pair of shape kinds, checked against the reference.

use proptest::prelude::*;

use crate::checks::check_sweep;
use crate::generated::{
    Scene, any_shape, circle_shape, config, convex_shape, scene, segment_shape, star_shape,
};
use crate::reference::{scan, touch_time};

proptest! {
    #![proptest_config(config())]

    #[test]
    fn circle_circle_sweeps_match_the_reference(s in scene(circle_shape(), circle_shape())) {
        check_sweep(&s)?;
    }

    #[test]
    fn segment_circle_sweeps_match_the_reference(s in scene(segment_shape(), circle_shape())) {
        check_sweep(&s)?;
    }

    #[test]
    fn segment_segment_sweeps_match_the_reference(s in scene(segment_shape(), segment_shape())) {
        check_sweep(&s)?;
    }

    #[test]
    fn convex_polygon_circle_sweeps_match_the_reference(
        s in scene(convex_shape(), circle_shape())
    ) {
        check_sweep(&s)?;
    }

    #[test]
    fn concave_polygon_circle_sweeps_match_the_reference(
        s in scene(star_shape(), circle_shape())
    ) {
        check_sweep(&s)?;
    }

    #[test]
    fn polygon_segment_sweeps_match_the_reference(
        s in scene(prop_oneof![convex_shape(), star_shape()], segment_shape())
    ) {
        check_sweep(&s)?;
    }

    #[test]
    fn polygon_polygon_sweeps_match_the_reference(
        s in scene(prop_oneof![convex_shape(), star_shape()], prop_oneof![convex_shape(), star_shape()])
    ) {
        check_sweep(&s)?;
    }

    /// Scenes cut short where the reference first sees them touch: the end poses touch within
    /// rounding, the case where the rays may miss and the guarantee takes over.
    #[test]
    fn sweeps_ending_in_a_touch_keep_the_guarantee(
        s in scene(any_shape(), any_shape())
    ) {
        let (reference1, reference2) = (s.first.reference(), s.second.reference());
        let relative = s.relative().as_dvec2();
        let seen = scan(&reference1, &reference2, relative, f64::INFINITY);
        let Some(touch) = touch_time(&reference1, &reference2, relative, &seen) else {
            return Ok(());
        };
        let cut = Scene {
            first_motion: s.first_motion * touch as f32,
            second_motion: s.second_motion * touch as f32,
            ..s
        };
        check_sweep(&cut)?;
    }
}
