//! [`push_out`]: the least translation that separates two overlapping shapes.
//!
//! Moving the first shape by `t` keeps the pair overlapping exactly while `t` lies in the set
//! `B ⊕ −A` of all differences of their points (the second shape "grown" by the first one,
//! mirrored). The push-out is the point of that set's outside nearest the origin: its distance
//! is the depth, its direction the way out. That nearest point lies on the set's boundary,
//! either at the foot of the origin on one of the boundary's pieces or where two pieces cross,
//! so the search lists those points, nearest first, and takes the first one at which the
//! shapes only touch. The pieces:
//! - a circle of radius `r` against anything: the other shape's edges moved out by `r`, and
//!   circles of radius `r` round its corners (where the circle's centre may be);
//! - two polygons (or a polygon and a segment, or two segments): one shape's edges shifted by
//!   each corner of the other, both ways round.
//!
//! A concave polygon is cut into convex pieces where that keeps the test of a candidate simple
//! (two solid shapes); a segment or a point against a concave polygon is tested against the
//! whole polygon, since a segment lying along a cut between two pieces enters neither piece
//! but does enter the polygon. Everything is worked out in `f64`, from the `f32` shapes, so
//! the answer is exact up to rounding to `f32`.

mod pieces;

use super::precise::{contains, edges, nearest_on_segment, segment_crossing};
use super::{Shape, overlap};
use bevy::math::DVec2;
use bevy::prelude::*;
use pieces::{Piece, convex_hull, distance_to_piece, polygon_pieces, turn};

/// The least translation that separates two overlapping shapes: [`push_out`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PushOut {
    /// The unit direction to move the first shape in.
    pub direction: Vec2,
    /// How far: moved by `direction * depth`, the first shape only touches the second. Zero
    /// when they only touch already.
    pub depth: f32,
}

impl PushOut {
    /// The translation itself, `direction * depth`.
    #[must_use]
    pub fn translation(&self) -> Vec2 {
        self.direction * self.depth
    }
}

/// The least translation of `first` that separates it from `second`, when they overlap:
/// after moving `first` by [`PushOut::translation`], the two only touch, and no shorter move
/// in any direction gets them there. `None` when they do not overlap (see [`overlap`]).
///
/// Exact (up to rounding to `f32`) for every pair of shapes, convex or concave, containment
/// included: a shape wholly inside the other is pushed out the shortest way. A segment or a
/// point inside a polygon counts as overlapping it; two segments that cross are pushed apart
/// until they touch end on; two that lie along each other only touch. A polygon with no area
/// (its corners on one line, up to a billionth of the pair's coordinates) is pushed out as the
/// segment it is.
///
/// For shapes that only touch, the depth is zero, and the direction is one in which a small
/// move parts them, where one of those tried does: from the second shape's bounding centre to
/// the first's, then the eight directions of a compass rose. Where none does (one shape's
/// corner caught in a narrow notch of the other), it is the first of those.
///
/// The cost grows with the corner counts: about their product for two convex shapes (two
/// octagons, a few microseconds). A concave polygon is cut into convex pieces, and the cost
/// grows faster than the product of the two shapes' piece counts: two combs of 24 corners
/// interlocked, about 0.2 ms; two stars of 16 points over each other, about 5 ms; a circle
/// sunk into ground of 400 corners, about 1.4 ms (the crate's `benches/README.md` in the
/// repository). Meant for the pairs a game asks about, not for every contact.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_collision_events::geometry::{Circle, Shape, push_out};
///
/// let wall = [Vec2::new(0.0, -10.0), Vec2::new(4.0, -10.0), Vec2::new(4.0, 10.0), Vec2::new(0.0, 10.0)];
/// let player = Circle::new(Vec2::new(-1.0, 0.0), 2.0);
/// let out = push_out(Shape::Circle(player), Shape::Polygon(&wall)).unwrap();
/// assert_eq!(out.direction, Vec2::NEG_X);
/// assert!((out.depth - 1.0).abs() < 1e-6);
/// ```
pub fn push_out(first: Shape, second: Shape) -> Option<PushOut> {
    if !overlap(first, second) {
        return None;
    }
    let flat = pair_tolerance(first, second);
    let (first_solid, second_solid) = (Solid::of(first, flat), Solid::of(second, flat));
    let translation = match (&first_solid, &second_solid) {
        (Solid::Round(a, r), Solid::Round(b, s)) => circles_out(*a, *r, *b, *s),
        (Solid::Round(center, r), Solid::Corners(corners)) => circle_out(*center, *r, corners),
        (Solid::Corners(corners), Solid::Round(center, r)) => -circle_out(*center, *r, corners),
        (Solid::Corners(a), Solid::Corners(b)) => match (a.len() >= 3, b.len() >= 3) {
            (true, true) => pieces_out(&polygon_pieces(a), &polygon_pieces(b)),
            (false, true) => thin_out(a, b),
            (true, false) => -thin_out(b, a),
            (false, false) => pieces_out(core::slice::from_ref(a), core::slice::from_ref(b)),
        },
    };
    let depth = translation.length();
    let direction = if depth > 0.0 {
        (translation / depth).as_vec2()
    } else {
        way_apart(first, second)
    };
    Some(PushOut {
        direction,
        depth: depth as f32,
    })
}

/// For shapes that only touch: a direction in which a hair's move parts them, away from the
/// second shape's bounding centre if that does (straight up where the centres coincide), else
/// the first of the square's eight directions that does. The hair is a ten-thousandth of the
/// smaller shape's size, or a few roundings of the coordinates where they are larger, so that
/// it jumps past no feature wider than that, and a move that parts the shapes must part them
/// at half its length too.
fn way_apart(first: Shape, second: Shape) -> Vec2 {
    let (from, to) = (first.bounding_circle(), second.bounding_circle());
    let away = (from.center - to.center).normalize_or(Vec2::Y);
    let (smaller, larger) = (
        from.radius().min(to.radius()),
        from.radius().max(to.radius()),
    );
    let coordinates = from.center.abs().max(to.center.abs()).max_element() + larger;
    let hair = (1e-4 * smaller)
        .max(16.0 * f32::EPSILON * coordinates)
        .max(1e-7 * larger);
    let mut scratch = Vec::new();
    let parts = |direction: Vec2, scratch: &mut Vec<Vec2>| {
        [hair, 0.5 * hair]
            .into_iter()
            .all(|length| !overlap(moved(first, direction * length, scratch), second))
    };
    if parts(away, &mut scratch) {
        return away;
    }
    (0..8)
        .map(|k| Vec2::from_angle(k as f32 * core::f32::consts::FRAC_PI_4))
        .find(|&direction| parts(direction, &mut scratch))
        .unwrap_or(away)
}

/// `shape` moved by `offset` (a polygon's vertices written to `scratch`).
fn moved<'a>(shape: Shape<'a>, offset: Vec2, scratch: &'a mut Vec<Vec2>) -> Shape<'a> {
    match shape {
        Shape::Circle(circle) => {
            Shape::Circle(super::Circle::new(circle.center + offset, circle.radius))
        }
        Shape::Segment(segment) => {
            Shape::Segment(super::Segment::new(segment.a + offset, segment.b + offset))
        }
        Shape::Polygon(vertices) => {
            scratch.clear();
            scratch.extend(vertices.iter().map(|&vertex| vertex + offset));
            Shape::Polygon(scratch)
        }
    }
}

/// A shape in `f64`: a circle of positive radius, or its corners (a polygon's vertex loop, a
/// segment's two ends, a point).
enum Solid {
    Round(DVec2, f64),
    Corners(Vec<DVec2>),
}

impl Solid {
    /// `shape` in `f64`, a polygon flat within `flat` as the segment it is (see [`flattened`]).
    fn of(shape: Shape, flat: f64) -> Self {
        match shape {
            Shape::Circle(circle) if circle.radius > 0.0 => {
                Self::Round(circle.center.as_dvec2(), f64::from(circle.radius))
            }
            Shape::Circle(point) => Self::Corners(vec![point.center.as_dvec2()]),
            Shape::Segment(segment) => {
                Self::Corners(vec![segment.a.as_dvec2(), segment.b.as_dvec2()])
            }
            Shape::Polygon(vertices) => {
                let corners: Vec<DVec2> = vertices.iter().map(|vertex| vertex.as_dvec2()).collect();
                Self::Corners(flattened(corners, flat))
            }
        }
    }
}

/// A polygon whose corners all lie on one line (no area, up to `flat`, the pair's [`tolerance`]
/// that tells inside from the boundary) as what it is, a segment between its two outermost
/// corners (or a point), so that it is pushed out as one: a polygon thinner than the tolerance
/// has no inside that the other shape could be found in.
fn flattened(corners: Vec<DVec2>, flat: f64) -> Vec<DVec2> {
    let Some(&first) = corners.first() else {
        return corners;
    };
    let farthest = corners
        .iter()
        .copied()
        .max_by(|p, q| {
            p.distance_squared(first)
                .total_cmp(&q.distance_squared(first))
        })
        .unwrap_or(first);
    let along = farthest - first;
    // Each corner's distance from the line, times `along`'s length.
    let off_the_line = flat * along.length();
    if corners
        .iter()
        .any(|&p| along.perp_dot(p - first).abs() > off_the_line)
    {
        return corners;
    }
    let position = |p: &DVec2| along.dot(*p - first);
    let low = corners
        .iter()
        .copied()
        .min_by(|p, q| position(p).total_cmp(&position(q)));
    let high = corners
        .iter()
        .copied()
        .max_by(|p, q| position(p).total_cmp(&position(q)));
    match (low, high) {
        (Some(low), Some(high)) if low != high => vec![low, high],
        _ => vec![first],
    }
}

/// The [`tolerance`] of a pair of shapes: of every point of either, and their radii.
fn pair_tolerance(first: Shape, second: Shape) -> f64 {
    let mut points = Vec::new();
    let mut size = 0.0;
    for shape in [first, second] {
        match shape {
            Shape::Circle(circle) => {
                points.push(circle.center.as_dvec2());
                size = f64::max(size, f64::from(circle.radius));
            }
            Shape::Segment(segment) => points.extend([segment.a, segment.b].map(Vec2::as_dvec2)),
            Shape::Polygon(vertices) => points.extend(vertices.iter().map(|v| v.as_dvec2())),
        }
    }
    tolerance(&points, size)
}

/// How far past a boundary a point must lie to count as inside: a billionth of the scene's
/// size, so that a candidate found on the boundary is never taken for inside by rounding.
fn tolerance<'a>(points: impl IntoIterator<Item = &'a DVec2>, size: f64) -> f64 {
    let reach = points
        .into_iter()
        .map(|point| point.abs().max_element())
        .fold(size, f64::max);
    1e-9 * reach.max(f64::MIN_POSITIVE)
}

/// Two circles: apart along the line of their centres.
fn circles_out(a: DVec2, r: f64, b: DVec2, s: f64) -> DVec2 {
    let between = a - b;
    let distance = between.length();
    let direction = if distance > 0.0 {
        between / distance
    } else {
        DVec2::Y
    };
    direction * (r + s - distance).max(0.0)
}

/// A curve where the centre of a circle of radius `r` touches a convex piece: an edge moved
/// out by `r`, or a circle of radius `r` round a corner.
#[derive(Clone, Copy)]
enum Curve {
    Line(DVec2, DVec2),
    Round(DVec2),
}

/// The least move of a circle (`center`, `radius > 0`) out of the shape with these corners.
fn circle_out(center: DVec2, radius: f64, corners: &[DVec2]) -> DVec2 {
    let tolerance = tolerance(corners.iter().chain([&center]), radius);
    if radius <= tolerance {
        // Too small to tell from a point at the scene's size: pushed out as one.
        return if corners.len() >= 3 {
            thin_out(&[center], corners)
        } else {
            DVec2::ZERO
        };
    }
    let pieces = if corners.len() >= 3 {
        polygon_pieces(corners)
    } else {
        vec![corners.to_vec()]
    };
    // Each piece's box grown by the radius: a point outside it is not within the radius.
    let grown: Vec<Bounds> = pieces
        .iter()
        .map(|piece| Bounds::of(piece).grown(radius))
        .collect();
    let inside = |point: DVec2| {
        pieces.iter().zip(&grown).any(|(piece, bounds)| {
            bounds.holds(point) && distance_to_piece(point, piece) < radius - tolerance
        })
    };
    if !inside(center) {
        return DVec2::ZERO;
    }
    let mut curves = Vec::new();
    for piece in &pieces {
        for (a, b) in edges(piece) {
            let normal = (b - a).perp().normalize_or_zero();
            // Outwards for a counter-clockwise polygon's edge: its right; a segment, both sides.
            curves.push(Curve::Line(a - normal * radius, b - normal * radius));
            if piece.len() <= 2 {
                curves.push(Curve::Line(a + normal * radius, b + normal * radius));
            }
        }
        curves.extend(piece.iter().map(|&corner| Curve::Round(corner)));
    }
    let feet = curves.iter().flat_map(|&curve| match curve {
        Curve::Line(a, b) => vec![nearest_on_segment(center, a, b), a, b],
        Curve::Round(corner) => {
            // A centre on the corner itself may leave it any way: straight up, say.
            let away = (center - corner).normalize_or(DVec2::Y);
            vec![corner + away * radius]
        }
    });
    let distance_to = |curve: &Curve| match *curve {
        Curve::Line(a, b) => center.distance(nearest_on_segment(center, a, b)),
        Curve::Round(corner) => (center.distance(corner) - radius).abs(),
    };
    let crossings = |first: &Curve, second: &Curve| match (*first, *second) {
        (Curve::Line(a, b), Curve::Line(c, d)) => {
            segment_crossing(a, b, c, d).into_iter().collect()
        }
        (Curve::Line(a, b), Curve::Round(corner)) | (Curve::Round(corner), Curve::Line(a, b)) => {
            segment_circle_crossings(a, b, corner, radius)
        }
        (Curve::Round(p), Curve::Round(q)) => circle_crossings(p, q, radius),
    };
    let bounds = |curve: &Curve| match *curve {
        Curve::Line(a, b) => Bounds::of(&[a, b]),
        Curve::Round(corner) => Bounds::of(&[corner]).grown(radius),
    };
    nearest_outside(
        center,
        feet.collect(),
        &curves,
        Measures {
            distance_to,
            bounds,
        },
        crossings,
        |point| !inside(point),
    ) - center
}

/// The least move of the first shape out of the second, each given by convex pieces with an
/// inside (or two segments, or a point and a segment).
fn pieces_out(first: &[Piece], second: &[Piece]) -> DVec2 {
    let mut hulls = Vec::new();
    for a in first {
        for b in second {
            let differences = b
                .iter()
                .flat_map(|&q| a.iter().map(move |&p| q - p))
                .collect();
            let hull = convex_hull(differences);
            if hull.len() >= 3 {
                hulls.push(hull);
            }
        }
    }
    let every_point = first.iter().chain(second).flatten();
    let tolerance = tolerance(every_point, 0.0);
    let boxes: Vec<Bounds> = hulls.iter().map(|hull| Bounds::of(hull)).collect();
    let inside = |t: DVec2| {
        hulls.iter().zip(&boxes).any(|(hull, bounds)| {
            bounds.holds(t) && edges(hull).all(|(a, b)| turn(a, b, t) > tolerance * a.distance(b))
        })
    };
    if !inside(DVec2::ZERO) {
        return DVec2::ZERO;
    }
    let lines: Vec<(DVec2, DVec2)> = hulls.iter().flat_map(|hull| edges(hull)).collect();
    nearest_out_of_lines(&lines, |t| !inside(t))
}

/// The least move of a segment or point (`thin`) out of a polygon: tested against the whole
/// polygon (see the module docs).
fn thin_out(thin: &[DVec2], polygon: &[DVec2]) -> DVec2 {
    let tolerance = tolerance(thin.iter().chain(polygon), 0.0);
    let enters = |t: DVec2| {
        let moved: Vec<DVec2> = thin.iter().map(|&p| p + t).collect();
        enters_polygon(&moved, polygon, tolerance)
    };
    if !enters(DVec2::ZERO) {
        return DVec2::ZERO;
    }
    // Where one end of the thin shape lies on an edge, or a corner of the polygon on it.
    let n = polygon.len();
    let mut lines = Vec::new();
    for i in 0..n {
        let (a, b) = (polygon[i], polygon[(i + 1) % n]);
        lines.extend(thin.iter().map(|&end| (a - end, b - end)));
        if let [start, end] = thin {
            lines.push((a - *start, a - *end));
        }
    }
    nearest_out_of_lines(&lines, |t| !enters(t))
}

/// The point nearest the origin that `outside` accepts, among the feet of the origin on
/// `lines` and where two of them cross.
fn nearest_out_of_lines(lines: &[(DVec2, DVec2)], outside: impl Fn(DVec2) -> bool) -> DVec2 {
    let curves: Vec<Curve> = lines.iter().map(|&(a, b)| Curve::Line(a, b)).collect();
    let feet = lines
        .iter()
        .flat_map(|&(a, b)| [nearest_on_segment(DVec2::ZERO, a, b), a, b])
        .collect();
    let distance_to = |curve: &Curve| match *curve {
        Curve::Line(a, b) => nearest_on_segment(DVec2::ZERO, a, b).length(),
        Curve::Round(_) => f64::INFINITY,
    };
    let crossings = |first: &Curve, second: &Curve| match (*first, *second) {
        (Curve::Line(a, b), Curve::Line(c, d)) => {
            segment_crossing(a, b, c, d).into_iter().collect()
        }
        _ => Vec::new(),
    };
    let bounds = |curve: &Curve| match *curve {
        Curve::Line(a, b) => Bounds::of(&[a, b]),
        Curve::Round(corner) => Bounds::of(&[corner]),
    };
    let measures = Measures {
        distance_to,
        bounds,
    };
    nearest_outside(DVec2::ZERO, feet, &curves, measures, crossings, outside)
}

/// How [`nearest_outside`] measures a curve: how far it comes to the origin, and the box
/// that holds it.
struct Measures<D, B> {
    distance_to: D,
    bounds: B,
}

/// An axis-aligned box.
#[derive(Clone, Copy)]
struct Bounds {
    min: DVec2,
    max: DVec2,
}

impl Bounds {
    /// The box of `points`.
    fn of(points: &[DVec2]) -> Self {
        let first = Self {
            min: DVec2::INFINITY,
            max: DVec2::NEG_INFINITY,
        };
        points.iter().fold(first, |bounds, &point| Self {
            min: bounds.min.min(point),
            max: bounds.max.max(point),
        })
    }

    /// The box grown by `margin` on every side.
    fn grown(self, margin: f64) -> Self {
        Self {
            min: self.min - margin,
            max: self.max + margin,
        }
    }

    /// Whether `point` lies in the box, its edges included.
    fn holds(&self, point: DVec2) -> bool {
        point.cmpge(self.min).all() && point.cmple(self.max).all()
    }
}

/// The candidate nearest `origin` that `outside` accepts: first among `feet` (nearest
/// first), then among the crossings of the curves near enough to beat it.
fn nearest_outside(
    origin: DVec2,
    mut feet: Vec<DVec2>,
    curves: &[Curve],
    measures: Measures<impl Fn(&Curve) -> f64, impl Fn(&Curve) -> Bounds>,
    crossings: impl Fn(&Curve, &Curve) -> Vec<DVec2>,
    outside: impl Fn(DVec2) -> bool,
) -> DVec2 {
    let Measures {
        distance_to,
        bounds,
    } = measures;
    let by_distance = |p: &DVec2, q: &DVec2| {
        p.distance_squared(origin)
            .total_cmp(&q.distance_squared(origin))
    };
    feet.sort_by(by_distance);
    let mut best = feet.into_iter().find(|&point| outside(point));
    let reach = best.map_or(f64::INFINITY, |point| point.distance(origin));
    // The near curves by where their boxes start along x: two cross only where their boxes
    // meet, so each is paired only with those whose boxes start before its own ends.
    let mut near: Vec<(Bounds, &Curve)> = curves
        .iter()
        .filter(|curve| distance_to(curve) <= reach)
        .map(|curve| (bounds(curve), curve))
        .collect();
    // Each box grown by a billionth of its coordinates, so that no rounding of a box's edge
    // parts two curves that touch.
    for (bounds, _) in &mut near {
        let slack = 1e-9 * bounds.min.abs().max(bounds.max.abs()).max_element();
        *bounds = bounds.grown(slack);
    }
    near.sort_by(|(p, _), (q, _)| p.min.x.total_cmp(&q.min.x));
    let mut crossed = Vec::new();
    for (index, (first_box, first)) in near.iter().enumerate() {
        let meeting = near[index + 1..]
            .iter()
            .take_while(|(second_box, _)| second_box.min.x <= first_box.max.x)
            .filter(|(second_box, _)| {
                second_box.min.y <= first_box.max.y && first_box.min.y <= second_box.max.y
            });
        for (_, second) in meeting {
            crossed.extend(
                crossings(first, second)
                    .into_iter()
                    .filter(|point| point.distance(origin) < reach),
            );
        }
    }
    crossed.sort_by(by_distance);
    if let Some(point) = crossed.into_iter().find(|&point| outside(point)) {
        best = Some(point);
    }
    // Some candidate is always outside: the boundary's point farthest in any direction.
    best.unwrap_or(origin)
}

/// Where segment `a`–`b` crosses the circle of `radius` round `center`.
fn segment_circle_crossings(a: DVec2, b: DVec2, center: DVec2, radius: f64) -> Vec<DVec2> {
    let along = b - a;
    let (qa, qb) = (along.length_squared(), along.dot(a - center));
    let qc = (a - center).length_squared() - radius * radius;
    let discriminant = qb * qb - qa * qc;
    if qa == 0.0 || discriminant < 0.0 {
        return Vec::new();
    }
    let root = discriminant.sqrt();
    [(-qb - root) / qa, (-qb + root) / qa]
        .into_iter()
        .filter(|s| (0.0..=1.0).contains(s))
        .map(|s| a + along * s)
        .collect()
}

/// Where two circles of one `radius` round `p` and `q` cross.
fn circle_crossings(p: DVec2, q: DVec2, radius: f64) -> Vec<DVec2> {
    let between = q - p;
    let half = between.length() / 2.0;
    if half == 0.0 || half > radius {
        return Vec::new();
    }
    let middle = p + between / 2.0;
    let aside = between.perp().normalize() * (radius * radius - half * half).sqrt();
    vec![middle + aside, middle - aside]
}

/// Whether the segment (or point) `thin` has a point inside `polygon` by more than
/// `tolerance`: cut where it meets the outline, each stretch's middle tested.
fn enters_polygon(thin: &[DVec2], polygon: &[DVec2], tolerance: f64) -> bool {
    let strictly_inside = |point: DVec2| {
        contains(polygon, point)
            && edges(polygon)
                .all(|(a, b)| point.distance(nearest_on_segment(point, a, b)) > tolerance)
    };
    let [start, end] = match thin {
        [point] => return strictly_inside(*point),
        [start, end] => [*start, *end],
        _ => return false,
    };
    let along = end - start;
    let length_squared = along.length_squared();
    if length_squared == 0.0 {
        return strictly_inside(start);
    }
    let mut cuts = vec![0.0, 1.0];
    for (a, b) in edges(polygon) {
        if let Some(point) = segment_crossing(start, end, a, b) {
            cuts.push((point - start).dot(along) / length_squared);
        }
        // Corners on the segment, and the ends of a stretch it shares with an edge.
        for corner in [a, b] {
            let s = ((corner - start).dot(along) / length_squared).clamp(0.0, 1.0);
            if (start + along * s).distance(corner) <= tolerance {
                cuts.push(s);
            }
        }
    }
    cuts.sort_by(f64::total_cmp);
    cuts.windows(2).any(|pair| {
        pair[1] > pair[0] && strictly_inside(start + along * ((pair[0] + pair[1]) / 2.0))
    })
}
