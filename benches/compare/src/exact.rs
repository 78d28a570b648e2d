//! The exact count for the scenes with [`BodyKind::Fast`] bullets: which bullet touches which
//! still body on which frame, computed in `f64` from the scene's data alone (no engine), and
//! how an engine's contact starts compare with it.
//!
//! # What counts
//! On frame `k` a fast bullet's **path** is the straight segment from where it was after
//! frame `k − 1` to where it is after frame `k`: the positions every engine is handed,
//! replayed here with the scene's own `f32` arithmetic
//! ([`Path::advance`](crate::scene::Path::advance)). On a frame it wraps around the field the
//! path is the one point where it lands (a wrap is a teleport), and so it is on frame 1, where
//! every engine meets the scene at once.
//! The bullet **touches** a still body on frame `k` when the capsule of the bullet's radius
//! around its path meets the body's closed outline or interior ([`capsule`]). A pair
//! **starts** on frame `k` when it touches on frame `k` and did not on frame `k − 1`.
//!
//! This is fair to every engine. The walls and targets are convex and still, and a
//! bullet moves in a straight line at one speed, so between two wraps it touches a given body
//! on one run of consecutive frames, and the start is the run's first frame: the frame the
//! bullet first reaches the body, whether it ends that frame inside, touching, or already
//! through it (tunnelled). Nothing lies where a bullet can be on a frame it wraps (see the
//! scene), so how a wrap is treated changes no count. An engine that only looks where bodies
//! are (no sweep) reports the start when the bullet is inside at a frame's end, or never
//! when it went through between two frames; one that tests the motion reports it on the run's
//! first frame, or a frame later when it looks at the start of each frame's move (see
//! [`Hits`]).

pub mod capsule;

use std::collections::HashMap;

use bevy::math::{DVec2, Vec2};

use crate::scene::{Body, BodyKind, FIELD};
use crate::shape::Shape;
use crate::started::{FIRST_COUNTED_FRAME, LAST_COUNTED_FRAME, Start};

/// A still body's outline in world space, in `f64`.
enum Outline {
    Circle(DVec2, f64),
    Segment(DVec2, DVec2),
    Polygon(Vec<DVec2>),
}

impl Outline {
    /// `body`'s outline where it stands (its place and angle applied in `f64`).
    fn of(body: &Body) -> Self {
        let position = body.position.as_dvec2();
        let turn = DVec2::from_angle(f64::from(body.rotation));
        let place = |local: Vec2| position + turn.rotate(local.as_dvec2());
        match &body.shape {
            Shape::Circle(radius) => Self::Circle(position, f64::from(*radius)),
            Shape::Segment(a, b) => Self::Segment(place(*a), place(*b)),
            Shape::Polygon(vertices) => {
                Self::Polygon(vertices.iter().map(|&vertex| place(vertex)).collect())
            }
        }
    }

    /// Its bounding box.
    fn bounds(&self) -> (DVec2, DVec2) {
        let points: &[DVec2] = match self {
            Self::Circle(centre, radius) => {
                return (*centre - *radius, *centre + *radius);
            }
            Self::Segment(a, b) => &[*a, *b],
            Self::Polygon(vertices) => vertices,
        };
        points
            .iter()
            .fold((DVec2::INFINITY, DVec2::NEG_INFINITY), |(low, high), &p| {
                (low.min(p), high.max(p))
            })
    }

    /// Whether the capsule of `radius` around `a`–`b` meets it.
    fn met_by(&self, a: DVec2, b: DVec2, radius: f64) -> bool {
        match self {
            Self::Circle(centre, disc_radius) => {
                capsule::capsule_disc(a, b, radius, *centre, *disc_radius)
            }
            Self::Segment(c, d) => capsule::capsule_segment(a, b, radius, *c, *d),
            Self::Polygon(vertices) => capsule::capsule_polygon(a, b, radius, vertices),
        }
    }
}

/// Side of a cell of the grid that finds the still bodies near a path, in pixels.
const CELL: f64 = 32.0;

/// The still bodies, each in every grid cell its bounding box covers.
struct Grid {
    columns: usize,
    rows: usize,
    cells: Vec<Vec<usize>>,
}

impl Grid {
    fn new(outlines: &[Outline]) -> Self {
        let columns = (f64::from(FIELD.x) / CELL).ceil() as usize;
        let rows = (f64::from(FIELD.y) / CELL).ceil() as usize;
        let mut grid = Self {
            columns,
            rows,
            cells: vec![Vec::new(); columns * rows],
        };
        for (index, outline) in outlines.iter().enumerate() {
            let (low, high) = outline.bounds();
            grid.for_cells(low, high, |cell| cell.push(index));
        }
        grid
    }

    /// Calls `visit` on every cell that the box from `low` to `high` covers (clamped to the
    /// field).
    fn for_cells(&mut self, low: DVec2, high: DVec2, mut visit: impl FnMut(&mut Vec<usize>)) {
        let cell = |x: f64, last: usize| ((x / CELL).floor().max(0.0) as usize).min(last - 1);
        for row in cell(low.y, self.rows)..=cell(high.y, self.rows) {
            for column in cell(low.x, self.columns)..=cell(high.x, self.columns) {
                visit(&mut self.cells[row * self.columns + column]);
            }
        }
    }
}

/// Every exact contact start from frame 1 to `last_frame` (see the module docs), in frame
/// order. Empty for a scene without fast bodies.
///
/// # Panics
/// If a body that is not fast moves, or a fast body is not a circle: the count is written for
/// fast discs against still bodies.
pub fn starts(bodies: &[Body], last_frame: u32) -> Vec<Start> {
    let mut still = Vec::new();
    let mut outlines = Vec::new();
    for (id, body) in bodies.iter().enumerate() {
        if body.kind != BodyKind::Fast {
            assert!(
                body.motion.velocity == Vec2::ZERO && body.motion.spin == 0.0,
                "body {id} moves but is not fast"
            );
            still.push((id as u32, body.layers));
            outlines.push(Outline::of(body));
        }
    }
    let mut grid = Grid::new(&outlines);
    let mut starts = Vec::new();
    // Which still bodies each bullet touched on the frame before, and when a body was last
    // tested for this bullet on this frame.
    let mut touched_before: Vec<usize> = Vec::new();
    let mut touched: Vec<usize> = Vec::new();
    let mut tested = vec![u32::MAX; outlines.len()];
    let mut stamp = 0;
    for (id, body) in bodies.iter().enumerate() {
        if body.kind != BodyKind::Fast {
            continue;
        }
        let Shape::Circle(radius) = body.shape else {
            panic!("fast body {id} is not a circle");
        };
        let radius = f64::from(radius);
        let mut path = body.path();
        touched_before.clear();
        for frame in 1..=last_frame {
            path.advance();
            let to = path.position().as_dvec2();
            let from = path
                .moved_from()
                .filter(|_| frame > 1)
                .map_or(to, Vec2::as_dvec2);
            stamp += 1;
            touched.clear();
            grid.for_cells(from.min(to) - radius, from.max(to) + radius, |cell| {
                for &index in cell.iter() {
                    if tested[index] == stamp {
                        continue;
                    }
                    tested[index] = stamp;
                    let (_, layers) = still[index];
                    let meets = layers.memberships & body.layers.filters != 0
                        && body.layers.memberships & layers.filters != 0;
                    if meets && outlines[index].met_by(from, to, radius) {
                        touched.push(index);
                    }
                }
            });
            for &index in &touched {
                if !touched_before.contains(&index) {
                    starts.push(Start::new(frame, id as u32, still[index].0));
                }
            }
            std::mem::swap(&mut touched, &mut touched_before);
        }
    }
    starts.sort_unstable();
    starts
}

/// How one engine's contact starts compare with the exact ones over the counted frames
/// ([`FIRST_COUNTED_FRAME`] to [`LAST_COUNTED_FRAME`]). An engine's start **matches** an exact
/// one of the same pair on the same frame or one frame either side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hits {
    /// Exact starts on the counted frames.
    pub exact: u64,
    /// Exact starts the engine matched on the same frame.
    pub on_time: u64,
    /// Exact starts the engine reported one frame later (and not on the frame).
    pub late: u64,
    /// Exact starts the engine reported one frame earlier (and neither on the frame nor later).
    pub early: u64,
    /// Exact starts the engine did not report within a frame: missed hits.
    pub missed: u64,
    /// The engine's starts on the counted frames that match no exact start: hits that did not
    /// happen.
    pub extra: u64,
}

/// What became of one start in [`compare`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// An exact start the engine reported on its frame.
    OnTime,
    /// An exact start the engine reported one frame later.
    Late,
    /// An exact start the engine reported one frame earlier.
    Early,
    /// An exact start the engine did not report within a frame.
    Missed,
    /// One of the engine's starts that matches no exact start.
    Extra,
}

/// Set (to anything) in a run's environment to print every missed and extra start
/// (`missed FRAME LOW HIGH NEAREST`, `extra FRAME LOW HIGH NEAREST`, where `NEAREST` is the
/// nearest frame on which the other side, engine or exact count, has a start of the pair, or
/// `none`), for tracing them to body pairs:
///
/// ```text
/// COMPARE_RUN="fast-5k rapier2d 1" COMPARE_LIST_HITS=1 target/release/compare | grep missed
/// ```
pub const LIST_VARIABLE: &str = "COMPARE_LIST_HITS";

/// Compares an engine's `reported` starts (any frames) with the `exact` ones (from
/// [`starts`], covering one frame beyond the counted ones on each side); prints the missed and
/// extra ones when [`LIST_VARIABLE`] is set.
pub fn compare(exact: &[Start], reported: &[Start]) -> Hits {
    let list = std::env::var_os(LIST_VARIABLE).is_some();
    let mut hits = Hits::default();
    judge(exact, reported, |verdict, start| {
        let count = match verdict {
            Verdict::OnTime => &mut hits.on_time,
            Verdict::Late => &mut hits.late,
            Verdict::Early => &mut hits.early,
            Verdict::Missed => &mut hits.missed,
            Verdict::Extra => &mut hits.extra,
        };
        *count += 1;
        if verdict != Verdict::Extra {
            hits.exact += 1;
        }
        if list && matches!(verdict, Verdict::Missed | Verdict::Extra) {
            // The nearest frame on which the other side has a start of the pair, if any.
            let other = if verdict == Verdict::Missed {
                reported
            } else {
                exact
            };
            let nearest = other
                .iter()
                .filter(|s| (s.low, s.high) == (start.low, start.high))
                .min_by_key(|s| s.frame.abs_diff(start.frame))
                .map_or("none".to_owned(), |s| s.frame.to_string());
            let word = if verdict == Verdict::Missed {
                "missed"
            } else {
                "extra"
            };
            println!(
                "{word} {} {} {} {nearest}",
                start.frame, start.low, start.high
            );
        }
    });
    hits
}

/// Calls `visit` with the verdict on every exact start of the counted frames, then on every
/// reported start of the counted frames that matches none.
fn judge(exact: &[Start], reported: &[Start], mut visit: impl FnMut(Verdict, Start)) {
    let counted = FIRST_COUNTED_FRAME..=LAST_COUNTED_FRAME;
    let by_pair = |starts: &[Start]| {
        let mut frames: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
        for start in starts {
            frames
                .entry((start.low, start.high))
                .or_default()
                .push(start.frame);
        }
        frames
    };
    let (exact_frames, reported_frames) = (by_pair(exact), by_pair(reported));
    let has = |frames: &HashMap<(u32, u32), Vec<u32>>, start: &Start, frame: u32| {
        frames
            .get(&(start.low, start.high))
            .is_some_and(|frames| frames.contains(&frame))
    };
    for start in exact.iter().filter(|start| counted.contains(&start.frame)) {
        let frame = start.frame;
        let verdict = if has(&reported_frames, start, frame) {
            Verdict::OnTime
        } else if has(&reported_frames, start, frame + 1) {
            Verdict::Late
        } else if has(&reported_frames, start, frame - 1) {
            Verdict::Early
        } else {
            Verdict::Missed
        };
        visit(verdict, *start);
    }
    for start in reported
        .iter()
        .filter(|start| counted.contains(&start.frame))
    {
        let frame = start.frame;
        if !(frame - 1..=frame + 1).any(|near| has(&exact_frames, start, near)) {
            visit(Verdict::Extra, *start);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Layers, Motion, Scene, SceneKind};
    use bevy::math::Rect;

    fn field() -> Rect {
        Rect::from_corners(Vec2::ZERO, FIELD)
    }

    const LAYERS: Layers = Layers {
        memberships: 1,
        filters: 1,
    };

    fn still(shape: Shape, position: Vec2) -> Body {
        Body {
            shape,
            layers: LAYERS,
            position,
            rotation: 0.0,
            motion: Motion {
                velocity: Vec2::ZERO,
                spin: 0.0,
                area: field(),
            },
            kind: BodyKind::Fixed,
        }
    }

    fn bullet(position: Vec2, velocity: Vec2) -> Body {
        Body {
            shape: Shape::Circle(2.0),
            layers: LAYERS,
            position,
            rotation: 0.0,
            motion: Motion {
                velocity,
                spin: 0.0,
                area: field(),
            },
            kind: BodyKind::Fast,
        }
    }

    #[test]
    fn a_bullet_through_a_thin_wall_starts_on_the_frame_it_crosses() {
        // A wall at x = 100; the bullet moves 30 px a frame from x = 10: after frames 3 and 4
        // it is at 100 and 130 (radius 2): frame 3 ends on the wall. From x = 12 it is at 102
        // after frame 3, touching; from 5 it is at 95 and 125: through it during frame 4.
        let wall = still(
            Shape::Segment(Vec2::new(0.0, -50.0), Vec2::new(0.0, 50.0)),
            Vec2::new(100.0, 500.0),
        );
        for (x, frame) in [(10.0, 3), (12.0, 3), (5.0, 4)] {
            let bodies = [
                wall.clone(),
                bullet(Vec2::new(x, 500.0), Vec2::new(30.0, 0.0)),
            ];
            assert_eq!(
                starts(&bodies, 10),
                vec![Start::new(frame, 0, 1)],
                "from {x}"
            );
        }
    }

    #[test]
    fn a_wrap_is_no_path() {
        // Moving left from x = 10 at 30 px a frame: it wraps to 1900 on frame 1, and a wall
        // at x = 960 lies on the straight line between.
        let bodies = [
            still(
                Shape::Segment(Vec2::new(0.0, -50.0), Vec2::new(0.0, 50.0)),
                Vec2::new(960.0, 500.0),
            ),
            bullet(Vec2::new(10.0, 500.0), Vec2::new(-30.0, 0.0)),
        ];
        assert_eq!(starts(&bodies, 2), vec![]);
    }

    #[test]
    fn one_start_per_pass() {
        // Through a disc of radius 40 at 10 px a frame: touching for several frames, one start.
        let bodies = [
            still(Shape::Circle(40.0), Vec2::new(300.0, 500.0)),
            bullet(Vec2::new(200.0, 500.0), Vec2::new(10.0, 0.0)),
        ];
        assert_eq!(starts(&bodies, 30), vec![Start::new(6, 0, 1)]);
    }

    #[test]
    fn comparing() {
        let exact = [
            Start::new(5, 1, 2),
            Start::new(6, 1, 3),
            Start::new(7, 1, 4),
            Start::new(8, 1, 5),
            Start::new(1, 1, 6),
        ];
        let reported = [
            Start::new(5, 1, 2),  // on time
            Start::new(7, 1, 3),  // late
            Start::new(6, 1, 4),  // early
            Start::new(9, 1, 9),  // extra
            Start::new(2, 1, 6),  // uncounted frame
            Start::new(30, 1, 5), // extra: too late for (1, 5) on frame 8
        ];
        assert_eq!(
            compare(&exact, &reported),
            Hits {
                exact: 4,
                on_time: 1,
                late: 1,
                early: 1,
                missed: 1,
                extra: 2,
            }
        );
    }

    #[test]
    fn the_fast_scene_has_hits() {
        let bodies = Scene {
            kind: SceneKind::Fast,
            size: 5_000,
        }
        .bodies();
        let exact = starts(&bodies, LAST_COUNTED_FRAME + 1);
        let counted = exact
            .iter()
            .filter(|start| (FIRST_COUNTED_FRAME..=LAST_COUNTED_FRAME).contains(&start.frame))
            .count();
        assert!(counted > 10_000, "{counted} starts");
    }
}
