//! Exact 2D collision events for Bevy: solid discs, segments and convex or concave polygons,
//! with the points where their outlines cross.
//!
//! The [`geometry`] module is the core: for every pair of the three shapes, a cheap overlap test
//! and a full intersection with the crossing points and containment. It is pure math with no
//! ECS, usable on its own.

pub mod geometry;
