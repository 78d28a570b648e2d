//! Named cases for every pair test: the textbook configurations (apart, touching outside and
//! inside, crossing, containment, coincident, degenerate), one test each, with worked numeric
//! examples. Each case goes through the dispatcher in both argument orders and
//! checks that the cheap overlap test agrees with the full intersection.

mod circle_circle;
mod common;
mod fuzzer;
mod many_crossings;
mod non_finite;
mod one_vertex;
mod points;
mod polygon_circle;
mod polygon_polygon;
mod polygon_segment;
mod scale;
mod segment_circle;
mod segment_segment;
mod straight_vertices;
