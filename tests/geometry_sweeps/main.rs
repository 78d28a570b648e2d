//! Sweeps (time of impact under translation): named cases, then property tests against an
//! independent reference.
//!
//! Every named case goes through the dispatcher in both argument orders and checks that the two
//! agree bit for bit (time and point; the normal negated) and that the normal is a unit vector
//! facing the relative motion.
//!
//! The property tests compare with a reference written here in `f64`, using none of the crate's
//! code: the two shapes' overlap and distance at any time (point–segment distances, segments
//! crossing, point in polygon by crossing number, discs), sampled densely over the motion.
//! [`check_sweep`] lists what is compared and [`Tolerances`] with which margins.
//!
//! [`check_sweep`]: checks::check_sweep
//! [`Tolerances`]: checks::Tolerances

mod both_moving;
mod bullets;
mod checks;
mod common;
mod concave;
mod fuzzer;
mod generated;
mod grazing;
mod properties;
mod reference;
mod wild;
