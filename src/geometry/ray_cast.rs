//! Ray casts: where a ray first meets a shape, and where it leaves a solid one again.

use super::bounds::BoundingBox;
use super::ray::{self, unit_or};
use super::{
    Circle, Segment, Shape, TOLERANCE, all_in_range, edges, in_range, point_in_polygon_unchecked,
    runs_anticlockwise,
};
use bevy::math::{Ray2d, Vec2};
use smallvec::SmallVec;

/// Where a ray meets a shape: see [`ray_cast`] for the conventions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayIntersection {
    /// How far along the ray it first meets the shape; zero when it starts in it.
    pub distance: f32,
    /// Where: `origin + direction × distance`.
    pub point: Vec2,
    /// The outline's unit normal there, facing the ray (`normal · direction ≤ 0`, up to
    /// rounding). For a ray starting inside, the opposite of its direction.
    pub normal: Vec2,
    /// Whether the ray starts in the shape (for a segment: on it).
    pub starts_inside: bool,
    /// Where the ray leaves a solid shape again, if it does within `max_distance`; always
    /// `None` for a segment, which has no inside.
    pub exit: Option<RayExit>,
}

/// Where a ray leaves a solid shape: the end of its first stretch inside.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayExit {
    /// How far along the ray.
    pub distance: f32,
    /// Where: `origin + direction × distance`.
    pub point: Vec2,
    /// The outline's unit outward normal there, along the ray (`normal · direction ≥ 0`, up to
    /// rounding).
    pub normal: Vec2,
}

/// Where `ray` first meets `shape` within `max_distance`: dispatches to the function of the
/// shape's kind ([`ray_circle`], [`ray_segment`], [`ray_polygon`]).
///
/// A ray starts at `ray.origin` and runs along the unit `ray.direction` for `max_distance`
/// (which may be `f32::INFINITY`); distances are measured along it, in world units. The answer
/// is the first point of the ray in the closed shape: touching counts, a graze is a hit. For
/// the solid shapes (circles and polygons) it also says where the ray leaves the shape again, if
/// it does before `max_distance`: the end of the first stretch of the ray inside the shape (a
/// concave polygon may be entered again further on; [`intersect`](super::intersect) with a
/// segment gives every crossing).
///
/// A ray whose origin lies in the shape (on its outline included) hits at distance zero, at the
/// origin, and says so ([`RayIntersection::starts_inside`]). A negative or NaN `max_distance`, or input
/// that the overlap tests reject (see [`MAX_COORDINATE`](super::MAX_COORDINATE)), hits nothing;
/// no answer holds NaN. The entry is found with the same exact ray primitives as the
/// [sweeps](mod@super::sweep), so a ray through a polygon's vertex never slips between its edges.
#[inline]
pub fn ray_cast(ray: Ray2d, max_distance: f32, shape: Shape) -> Option<RayIntersection> {
    match shape {
        Shape::Circle(disc) => ray_circle(ray, max_distance, disc),
        Shape::Segment(segment) => ray_segment(ray, max_distance, segment),
        Shape::Polygon(vertices) => ray_polygon(ray, max_distance, vertices),
    }
}

/// Whether the ray and distance are usable: finite origin in range, `max_distance ≥ 0`.
#[inline]
fn valid(ray: Ray2d, max_distance: f32) -> bool {
    in_range(ray.origin) && max_distance >= 0.0
}

/// How far along the ray to look for a shape within `radius` of `center`: `max_distance`, or
/// less where the shape ends sooner (always finite, so that an unbounded ray works with the
/// primitives, which take a finite motion).
#[inline]
fn reach(ray: Ray2d, max_distance: f32, center: Vec2, radius: f32) -> f32 {
    max_distance.min(2.0 * (ray.origin.distance(center) + radius) + 1.0)
}

/// A point of the ray.
#[inline]
fn at(ray: Ray2d, distance: f32) -> Vec2 {
    ray.origin + *ray.direction * distance
}

/// A ray against a solid circle.
///
/// The exit is the far root of `|m + s·u|² = r²` (with `m = origin − center`): `s = along +
/// half_chord`, `along = −u·m`, `half_chord = √((r − h)(r + h))` for `h` the centre's distance
/// from the ray's line, as in the stable entry of the sweeps' circle test.
pub fn ray_circle(ray: Ray2d, max_distance: f32, circle: Circle) -> Option<RayIntersection> {
    if !(valid(ray, max_distance) && circle.is_valid()) {
        return None;
    }
    let reach = reach(ray, max_distance, circle.center, circle.radius);
    let direction = *ray.direction;
    let offset = ray.origin - circle.center;
    let starts_inside = offset.length_squared() <= circle.radius * circle.radius;
    let (distance, entry_normal) = if starts_inside {
        (0.0, -direction)
    } else {
        let entry = ray::ray_circle(ray.origin, direction * reach, circle)?;
        (entry.time * reach, entry.normal)
    };
    let along = -direction.dot(offset);
    let height = direction.perp_dot(offset).abs().min(circle.radius);
    let half_chord = ((circle.radius - height) * (circle.radius + height)).sqrt();
    let exit_distance = (along + half_chord).max(distance);
    let exit = (exit_distance <= max_distance).then(|| {
        let point = at(ray, exit_distance);
        RayExit {
            distance: exit_distance,
            point,
            normal: unit_or(point - circle.center, direction),
        }
    });
    Some(RayIntersection {
        distance,
        point: at(ray, distance),
        normal: entry_normal,
        starts_inside,
        exit,
    })
}

/// A ray against a segment: where it crosses or touches it; along the segment's line, its
/// nearer end. A segment has no inside, so there is no exit.
pub fn ray_segment(ray: Ray2d, max_distance: f32, segment: Segment) -> Option<RayIntersection> {
    if !(valid(ray, max_distance) && segment.is_valid()) {
        return None;
    }
    let center = segment.a.midpoint(segment.b);
    let reach = reach(ray, max_distance, center, segment.half_length());
    if reach == 0.0 {
        // No length: only a segment through the origin is met.
        return (segment.distance_squared_to(ray.origin) == 0.0).then(|| RayIntersection {
            distance: 0.0,
            point: ray.origin,
            normal: -*ray.direction,
            starts_inside: true,
            exit: None,
        });
    }
    let hit = ray::ray_segment(ray.origin, *ray.direction * reach, segment)?;
    let distance = hit.time * reach;
    let starts_inside = hit.time == 0.0;
    Some(RayIntersection {
        distance,
        point: at(ray, distance),
        normal: if starts_inside {
            -*ray.direction
        } else {
            hit.normal
        },
        starts_inside,
        exit: None,
    })
}

/// A ray against a solid polygon, convex or concave.
///
/// The entry is the earliest crossing of an edge (or the origin, when it lies inside). The
/// exit: the ray's crossings with the edges from the entry on, in order; the first after which
/// the ray is outside (tested halfway to the next crossing, or to the end of the ray's reach
/// past the last one, by the crossing number, a point on the outline counting as inside) is
/// where it leaves. So a ray that only grazes a corner, or starts on the outline heading out,
/// leaves where it meets the polygon; one running along an edge leaves at its far end. A point
/// closer to an edge than [`TOLERANCE`](super::TOLERANCE) times the polygon's half-diagonal
/// counts as on the outline, so a gap in a concave polygon narrower than twice that is crossed
/// as inside.
pub fn ray_polygon(ray: Ray2d, max_distance: f32, vertices: &[Vec2]) -> Option<RayIntersection> {
    if !(valid(ray, max_distance) && !vertices.is_empty() && all_in_range(vertices)) {
        return None;
    }
    let bounds = BoundingBox::of(vertices);
    let half_diagonal = bounds.half_diagonal();
    // Crossings closer together than this are one (a vertex met from both its edges).
    let tolerance = TOLERANCE * half_diagonal;
    let reach = reach(ray, max_distance, bounds.center(), half_diagonal);
    let direction = *ray.direction;
    let motion = direction * reach;
    let anticlockwise = runs_anticlockwise(vertices);
    // Every edge's crossing with the ray: where, the edge's normal facing the ray, and its
    // outward normal.
    // An edge wholly on one side of the ray's line is not crossed: the first test of
    // `ray_segment`, made here with its own arithmetic before the call.
    let side = |vertex: Vec2| motion.perp_dot(vertex - ray.origin);
    let straddles = |edge: &Segment| {
        let (a_side, b_side) = (side(edge.a), side(edge.b));
        !((a_side > 0.0 && b_side > 0.0) || (a_side < 0.0 && b_side < 0.0))
    };
    let mut crossings: SmallVec<[Crossing; 8]> = edges(vertices)
        .filter(straddles)
        .filter_map(|edge| {
            let hit = ray::ray_segment(ray.origin, motion, edge)?;
            let left = (edge.b - edge.a).perp().normalize_or_zero();
            Some(Crossing {
                distance: hit.time * reach,
                facing: hit.normal,
                outward: if anticlockwise { -left } else { left },
            })
        })
        .collect();
    // Beyond the box, the origin is outside.
    let starts_inside = (!clear_of_box(ray.origin, bounds, tolerance)
        && point_in_polygon_unchecked(ray.origin, vertices))
        || crossings.iter().any(|crossing| crossing.distance == 0.0)
        || (reach == 0.0
            && edges(vertices).any(|edge| edge.distance_squared_to(ray.origin) == 0.0));
    let first = crossings
        .iter()
        .min_by(|p, q| p.distance.total_cmp(&q.distance))
        .map(|first| {
            // From outside, the first crossing is met from outside, but where the ray grazes a
            // corner: there both its edges are met at one distance, up to rounding, and the
            // one met from outside gives the normal (the other's, flipped to face the ray,
            // would point into the polygon).
            if !first.met_from_inside(direction) {
                return *first;
            }
            let slack = (4.0 * f32::EPSILON * first.distance).max(2.0 * tolerance);
            let from_outside = crossings
                .iter()
                .filter(|crossing| !crossing.met_from_inside(direction))
                .filter(|crossing| crossing.distance <= first.distance + slack)
                .min_by(|p, q| p.distance.total_cmp(&q.distance));
            from_outside.map_or(*first, |corner| Crossing {
                distance: first.distance,
                ..*corner
            })
        });
    let (distance, normal) = match (starts_inside, first) {
        (true, _) => (0.0, -direction),
        (false, Some(first)) => (first.distance, first.facing),
        (false, None) => return None,
    };
    crossings.sort_unstable_by(|p, q| p.distance.total_cmp(&q.distance));
    let exit = if vertices.len() < 3 {
        None
    } else {
        let entry = Entry {
            distance,
            starts_inside,
        };
        let polygon = Outline {
            vertices,
            bounds,
            tolerance,
        };
        polygon_exit(ray, polygon, &crossings, entry, (reach, max_distance))
    };
    Some(RayIntersection {
        distance,
        point: at(ray, distance),
        normal,
        starts_inside,
        exit,
    })
}

/// Where a ray crosses a polygon's edge (see [`ray_polygon`]).
#[derive(Clone, Copy)]
struct Crossing {
    /// How far along the ray.
    distance: f32,
    /// The edge's unit normal facing the ray.
    facing: Vec2,
    /// The edge's unit outward normal.
    outward: Vec2,
}

impl Crossing {
    /// Whether a ray along `direction` crosses the edge from the polygon's side of its line.
    fn met_from_inside(&self, direction: Vec2) -> bool {
        self.outward.dot(direction) > 0.0
    }
}

/// A polygon's vertices, with their box, and the distance from its outline within which a
/// point counts as on it.
#[derive(Clone, Copy)]
struct Outline<'a> {
    vertices: &'a [Vec2],
    bounds: BoundingBox,
    tolerance: f32,
}

/// Whether `point` lies farther than twice `tolerance` outside `bounds` (a polygon's box):
/// then it is outside the polygon, and farther than `tolerance` from every edge, and the
/// polygon's own tests say so too. Off the box's rows, no edge spans the point's height; off
/// its columns, an edge that spans it has the point on its outer side by at least
/// `|edge.y| · 2 · tolerance`, where the rounding of that side is below `|edge.y|` times a few
/// `f32::EPSILON` of the box's width, and `tolerance` is `TOLERANCE` (`1e-5`) of its
/// half-diagonal. (Only for a polygon a few [`MIN_SIZE`](super::MIN_SIZE) across, where the
/// square of the tolerance underflows to zero, do the edge distances' own tests count such a
/// point as on the outline; the box answers as at any larger scale.) NaN: `false`.
#[inline]
fn clear_of_box(point: Vec2, bounds: BoundingBox, tolerance: f32) -> bool {
    let margin = 2.0 * tolerance;
    point.x < bounds.min.x - margin
        || point.x > bounds.max.x + margin
        || point.y < bounds.min.y - margin
        || point.y > bounds.max.y + margin
}

/// Where a ray first meets a polygon.
#[derive(Clone, Copy)]
struct Entry {
    /// How far along the ray.
    distance: f32,
    /// Whether the ray starts in the polygon.
    starts_inside: bool,
}

/// Where the ray, inside the polygon from `entry` on, first leaves it: see [`ray_polygon`].
/// `crossings` are sorted by distance, those within `reach` of the origin (no further than
/// `max_distance`, nor past the polygon).
fn polygon_exit(
    ray: Ray2d,
    polygon: Outline,
    crossings: &[Crossing],
    entry: Entry,
    (reach, max_distance): (f32, f32),
) -> Option<RayExit> {
    let Outline {
        vertices,
        bounds,
        tolerance,
    } = polygon;
    let outside = |point: Vec2| {
        clear_of_box(point, bounds, tolerance)
            || (!point_in_polygon_unchecked(point, vertices)
                && edges(vertices)
                    .all(|edge| edge.distance_squared_to(point) > tolerance * tolerance))
    };
    // From the entry's own crossing on (none for a ray starting strictly inside).
    let from_entry = crossings
        .iter()
        .position(|crossing| crossing.distance >= entry.distance - tolerance)?;
    let from_entry = &crossings[from_entry..];
    let mut k = 0;
    while k < from_entry.len() {
        let distance = from_entry[k].distance;
        if distance > max_distance {
            return None;
        }
        // The crossings at this point (a corner is met from both its edges).
        let here = from_entry[k..]
            .iter()
            .take_while(|crossing| crossing.distance <= distance + tolerance)
            .count();
        let next = from_entry.get(k + here).map(|crossing| crossing.distance);
        // Tested halfway to the next crossing, or to the end of the reach past the last one;
        // with no room left there, the ray leaves only if it was inside before.
        let room = next.or((reach > distance + tolerance).then_some(reach));
        let outside_after = match room {
            Some(next) => outside(at(ray, 0.5 * (distance + next))),
            None => entry.starts_inside || distance > entry.distance + tolerance,
        };
        if outside_after {
            // Of the edges met here, the one the ray leaves through most squarely.
            let direction = *ray.direction;
            let normal = from_entry[k..k + here]
                .iter()
                .map(|crossing| crossing.outward)
                .max_by(|p, q| p.dot(direction).total_cmp(&q.dot(direction)))
                .unwrap_or(direction);
            return Some(RayExit {
                distance,
                point: at(ray, distance),
                normal,
            });
        }
        k += here;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// A point farther than twice the tolerance outside a polygon's box is outside it and
    /// farther than the tolerance from every edge, by the polygon's own tests, as
    /// [`clear_of_box`] says: for random polygons, convex or not, of sizes from a thousandth
    /// to a million, far from the origin or near it, at points near the margin and far.
    #[test]
    fn a_point_clear_of_the_box_is_outside_by_the_polygons_own_tests() {
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..2000 {
            let size = 10f32.powf(rng.random_range(-3.0..6.0));
            let middle = Vec2::new(rng.random_range(-1e6..1e6), rng.random_range(-1e6..1e6));
            let count = rng.random_range(3..12);
            let vertices: Vec<Vec2> = (0..count)
                .map(|index| {
                    let angle = index as f32 / count as f32 * core::f32::consts::TAU;
                    // Some corners pulled in: concave, and slivers.
                    let reach = size * rng.random_range(0.05..1.0);
                    middle + Vec2::from_angle(angle) * reach
                })
                .collect();
            let bounds = BoundingBox::of(&vertices);
            let tolerance = TOLERANCE * bounds.half_diagonal();
            for _ in 0..20 {
                // Past the box by a thousandth of the tolerance to a thousand times it (the
                // margin is twice it), off one side or a corner.
                let past = tolerance * 10f32.powf(rng.random_range(-3.0..3.0));
                let inside = Vec2::new(
                    rng.random_range(bounds.min.x..=bounds.max.x),
                    rng.random_range(bounds.min.y..=bounds.max.y),
                );
                // The vertex farthest right, where the outline touches the box.
                let rightmost = vertices
                    .iter()
                    .copied()
                    .max_by(|p, q| p.x.total_cmp(&q.x))
                    .unwrap();
                let mut point = inside;
                match rng.random_range(0..6) {
                    0 => point.x = bounds.min.x - past,
                    1 => point.x = bounds.max.x + past,
                    2 => point.y = bounds.min.y - past,
                    3 => point.y = bounds.max.y + past,
                    4 => point = rightmost + Vec2::X * past,
                    _ => point = bounds.max + past,
                }
                // Within the margin, nothing is claimed.
                if !clear_of_box(point, bounds, tolerance) {
                    continue;
                }
                assert!(
                    !point_in_polygon_unchecked(point, &vertices),
                    "{point} in {vertices:?}"
                );
                for edge in edges(&vertices) {
                    assert!(edge.distance_squared_to(point) > tolerance * tolerance);
                }
            }
        }
    }
}
