//! What every sweep shares: the checks before the rays, and the
//! [guarantee](super#the-guarantee-at-the-end-of-the-motion) after them.

use crate::geometry::bounds::BoundingBox;
use crate::geometry::ray::unit_or;
use crate::geometry::{Impact, Shape, all_in_range, edges, in_range, intersect, overlap};
use bevy::math::Vec2;
use smallvec::SmallVec;

/// What every pair function does, `second` at rest and `first` moving by `motion`: checks the
/// input, rules out a start in contact, finds the first touch with `first_touch` (the pair's
/// rays), and keeps the guarantee in the pair's frame.
pub(super) fn sweep_pair(
    first: Shape,
    second: Shape,
    motion: Vec2,
    first_touch: impl FnOnce() -> Option<Impact>,
) -> Option<Impact> {
    if !(is_valid(first) && is_valid(second) && in_range(motion)) || overlap(first, second) {
        return None;
    }
    let found = if motion == Vec2::ZERO {
        None
    } else {
        first_touch().filter(is_whole)
    };
    found.or_else(|| touching_at_end(first, motion, second, Vec2::ZERO))
}

/// Whether a ray's answer is one to give: a time within the motion, finite values.
pub(super) fn is_whole(hit: &Impact) -> bool {
    (0.0..=1.0).contains(&hit.time) && hit.point.is_finite() && hit.normal.is_finite()
}

/// The [guarantee](super#the-guarantee-at-the-end-of-the-motion): when the rays found nothing
/// but the shapes, each moved by its full motion, overlap, they touch at `time = 1`, at the
/// first point where their outlines meet (or where they come nearest to touching).
pub(crate) fn touching_at_end(
    first: Shape,
    first_motion: Vec2,
    second: Shape,
    second_motion: Vec2,
) -> Option<Impact> {
    // The boxes of the moved shapes, grown by a few ulps of their coordinates: every overlap
    // test rejects shapes whose boxes are apart by more than its rounding, so this settles most
    // pairs without moving any vertex.
    let first_box = moved_box(first, first_motion);
    let second_box = moved_box(second, second_motion);
    if !first_box.overlaps(&second_box) {
        return None;
    }
    let mut first_buffer = Buffer::new();
    let mut second_buffer = Buffer::new();
    let first_end = moved(first, first_motion, &mut first_buffer);
    let second_end = moved(second, second_motion, &mut second_buffer);
    let hit = intersect(first_end, second_end)?;
    let point = match hit.points.first() {
        Some(&point) => point,
        None => nearest_contact(first_end, second_end),
    };
    let relative = first_motion - second_motion;
    let normal = if relative == Vec2::ZERO {
        let between = 0.5 * ((first_box.min + first_box.max) - (second_box.min + second_box.max));
        unit_or(between, Vec2::Y)
    } else {
        unit_or(-relative, Vec2::Y)
    };
    Some(Impact {
        time: 1.0,
        point,
        normal,
    })
}

/// A moved polygon's vertices: inline up to 32, on the heap beyond.
pub(super) type Buffer = SmallVec<[Vec2; 32]>;

/// The shape moved by `motion`; a polygon's moved vertices go into `buffer`.
pub(super) fn moved<'a>(shape: Shape<'a>, motion: Vec2, buffer: &'a mut Buffer) -> Shape<'a> {
    if motion == Vec2::ZERO {
        return shape;
    }
    match shape {
        Shape::Circle(mut circle) => {
            circle.center += motion;
            Shape::Circle(circle)
        }
        Shape::Segment(mut segment) => {
            segment.a += motion;
            segment.b += motion;
            Shape::Segment(segment)
        }
        Shape::Polygon(vertices) => {
            buffer.extend(vertices.iter().map(|&vertex| vertex + motion));
            Shape::Polygon(buffer)
        }
    }
}

/// Where two shapes that touch within rounding meet: the feature pair nearest to touching (a
/// vertex or segment end against the other's outline, the point of an edge nearest to a
/// circle's centre against that circle, two circles along their centres) and the point there.
///
/// This is the end-of-motion point when [`intersect`] finds no crossing: after the rays have
/// missed, the shapes touch only within rounding, so a shape "inside" the other is one touching
/// its outline from inside (a segment end on a circle, a point on an edge), and the nearest
/// feature pair finds where even when rounding makes the containment itself doubtful.
fn nearest_contact(first: Shape, second: Shape) -> Vec2 {
    let mut best = (f32::INFINITY, some_point(first));
    let mut keep = |gap: f32, point: Vec2| {
        if gap < best.0 {
            best = (gap, point);
        }
    };
    for (this, other) in [(first, second), (second, first)] {
        match (this, other) {
            (Shape::Circle(circle), Shape::Circle(other)) => {
                // Touching outside, on `other` towards `circle`; or inside, on the larger.
                let distance = circle.center.distance(other.center);
                let toward = unit_or(circle.center - other.center, Vec2::X);
                keep(
                    (distance - circle.radius - other.radius).abs(),
                    other.center + toward * other.radius,
                );
                if other.radius >= circle.radius {
                    keep(
                        (distance - (other.radius - circle.radius)).abs(),
                        other.center + toward * other.radius,
                    );
                }
            }
            (Shape::Circle(_), _) => {} // Seen from the other side.
            (Shape::Segment(segment), other) => {
                for corner in [segment.a, segment.b] {
                    keep(gap_to_outline(other, corner), corner);
                }
                if let Shape::Circle(circle) = other {
                    let nearest = segment.closest_point(circle.center);
                    keep(gap_to_outline(other, nearest), nearest);
                }
            }
            (Shape::Polygon(vertices), other) => {
                for &corner in vertices {
                    keep(gap_to_outline(other, corner), corner);
                }
                if let Shape::Circle(circle) = other {
                    for edge in edges(vertices) {
                        let nearest = edge.closest_point(circle.center);
                        keep(gap_to_outline(other, nearest), nearest);
                    }
                }
            }
        }
    }
    best.1
}

/// How far `point` is from the shape's outline.
fn gap_to_outline(shape: Shape, point: Vec2) -> f32 {
    match shape {
        Shape::Circle(circle) => (point.distance(circle.center) - circle.radius).abs(),
        Shape::Segment(segment) => segment.distance_squared_to(point).sqrt(),
        Shape::Polygon(vertices) => edges(vertices)
            .map(|edge| edge.distance_squared_to(point))
            .fold(f32::INFINITY, f32::min)
            .sqrt(),
    }
}

/// A point of the shape: the centre, the first end, the first vertex.
fn some_point(shape: Shape) -> Vec2 {
    match shape {
        Shape::Circle(circle) => circle.center,
        Shape::Segment(segment) => segment.a,
        Shape::Polygon(vertices) => vertices.first().copied().unwrap_or(Vec2::ZERO),
    }
}

/// The box around the shape moved by `motion`, grown by a few ulps of its coordinates. For a
/// segment or polygon, adding `motion` to the box's corners gives the box of the moved vertices
/// exactly (rounding is monotonic), so no vertex is moved here. A circle's box is taken around
/// its moved centre, as [`moved`] places it: `centre ± r` rounded where the centre starts could
/// lose the radius (near `4e8` an `f32` is a multiple of 32) when the motion brings the centre
/// back near the origin, and the padding, scaled by the moved box, would not make up for it.
fn moved_box(shape: Shape, motion: Vec2) -> BoundingBox {
    let bounds = match shape {
        Shape::Circle(circle) => {
            let center = circle.center + motion;
            return padded(BoundingBox {
                min: center - circle.radius,
                max: center + circle.radius,
            });
        }
        Shape::Segment(segment) => BoundingBox::of_segment(segment),
        Shape::Polygon(vertices) => BoundingBox::of(vertices),
    };
    padded(BoundingBox {
        min: bounds.min + motion,
        max: bounds.max + motion,
    })
}

/// The box grown by `1e-6` of its largest coordinate (eight ulps): more than the rounding of
/// any test that compares the shapes inside it.
#[inline]
fn padded(bounds: BoundingBox) -> BoundingBox {
    let pad = 1e-6 * bounds.min.abs().max(bounds.max.abs()).max_element();
    BoundingBox {
        min: bounds.min - pad,
        max: bounds.max + pad,
    }
}

/// The box swept by points of `corners` moving by `motion`, grown like [`padded`]; `None` when
/// there are no corners.
#[inline]
pub(super) fn swept_box(corners: &[Vec2], motion: Vec2) -> Option<BoundingBox> {
    if corners.is_empty() {
        return None;
    }
    let start = BoundingBox::of(corners);
    let (end_min, end_max) = (start.min + motion, start.max + motion);
    Some(padded(BoundingBox {
        min: start.min.min(end_min),
        max: start.max.max(end_max),
    }))
}

/// Whether the shape is one the overlap tests accept.
pub(super) fn is_valid(shape: Shape) -> bool {
    match shape {
        Shape::Circle(circle) => circle.is_valid(),
        Shape::Segment(segment) => segment.is_valid(),
        Shape::Polygon(vertices) => all_in_range(vertices),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Circle, Segment};

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn the_nearest_contact_of_a_segment_touching_a_circle_from_inside_is_its_end() {
        let circle = Shape::Circle(Circle::new(Vec2::ZERO, 5.0));
        let chord = Shape::Segment(Segment::new(v(1.0, 1.0), v(3.0, 4.0)));
        assert_eq!(nearest_contact(circle, chord), v(3.0, 4.0));
        assert_eq!(nearest_contact(chord, circle), v(3.0, 4.0));
        // Two circles touching inside, and outside.
        let inner = Shape::Circle(Circle::new(v(2.0, 0.0), 3.0));
        assert!(nearest_contact(inner, circle).distance(v(5.0, 0.0)) < 1e-6);
        let outer = Shape::Circle(Circle::new(v(8.0, 0.0), 3.0));
        assert!(nearest_contact(outer, circle).distance(v(5.0, 0.0)) < 1e-6);
    }

    #[test]
    fn touching_at_the_end_faces_against_the_motion_or_between_the_shapes() {
        let wall = Shape::Segment(Segment::new(v(0.0, -5.0), v(0.0, 5.0)));
        let bullet = Shape::Circle(Circle::new(v(-3.0, 1.0), 1.0));
        let hit = touching_at_end(bullet, v(2.0, 0.0), wall, Vec2::ZERO).unwrap();
        assert_eq!((hit.time, hit.normal), (1.0, v(-1.0, 0.0)));
        assert!(hit.point.distance(v(0.0, 1.0)) < 1e-6, "{hit:?}");
        // No relative motion: from the wall's box's centre towards the bullet's.
        let still = touching_at_end(
            Shape::Circle(Circle::new(v(-1.0, 0.0), 1.0)),
            Vec2::ZERO,
            wall,
            Vec2::ZERO,
        )
        .unwrap();
        assert_eq!(still.normal, v(-1.0, 0.0));
        // Apart at the end: nothing.
        assert_eq!(touching_at_end(bullet, v(1.0, 0.0), wall, Vec2::ZERO), None);
    }
}
