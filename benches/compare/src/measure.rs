//! Runs one scene on one engine with a given number of threads and times every frame.

use std::time::{Duration, Instant};

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy::transform::StaticTransformOptimizations;

use crate::engine::Engine;
use crate::exact::{self, Hits};
use crate::scene::Scene;
use crate::started::{self, LAST_COUNTED_FRAME, StartLog, StartedPairs};

/// Frames run before timing starts: spawning and the engines' first full builds land here.
const WARM_UP_FRAMES: u32 = 10;
/// At most this many frames are timed...
const MAX_TIMED_FRAMES: usize = 300;
/// ...and timing stops early once this much time has been measured, but never before the
/// contact starts are all counted (up to [`LAST_COUNTED_FRAME`]).
const TIME_BUDGET: Duration = Duration::from_secs(4);
/// The time step every engine is given, each frame.
const FRAME: Duration = Duration::from_nanos(16_666_667);

/// What one run measured.
#[derive(Clone, Copy, Debug)]
pub struct Measurement {
    /// Median time of one `app.update()`.
    pub median: Duration,
    /// 90th percentile of the same.
    pub p90: Duration,
    /// Median CPU time of one `app.update()`, the whole process's (every thread, user and
    /// system), where the platform tells it.
    pub cpu: Option<Duration>,
    /// How many frames were timed.
    pub frames: usize,
    /// The contact starts counted (see [`started`]).
    pub started: StartedPairs,
    /// How they compare with the exact count, for a scene that has one
    /// ([`Scene::checks_hits`]).
    pub hits: Option<Hits>,
}

/// Builds the app (`MinimalPlugins` with exactly `threads` compute threads, `TransformPlugin`,
/// the engine, the scene), runs the warm-up, then times whole frames.
pub fn measure(scene: Scene, engine: Engine, threads: usize) -> Measurement {
    let mut task_pool_options = TaskPoolOptions::default();
    // Every pool of that size: an engine's async tasks (avian's tree) run on the async pool.
    for pool in [
        &mut task_pool_options.compute,
        &mut task_pool_options.async_compute,
        &mut task_pool_options.io,
    ] {
        pool.min_threads = threads;
        pool.max_threads = threads;
    }
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin { task_pool_options }),
        TransformPlugin,
        started::plugin,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(FRAME))
    // Bevy's advice for very dynamic scenes: tracking unchanged transform trees costs more
    // than it saves when nearly every entity moves every frame (and there are no hierarchies).
    .insert_resource(StaticTransformOptimizations::Disabled);
    if scene.checks_hits() {
        app.init_resource::<StartLog>();
    }
    engine.install(&mut app);
    scene.populate(&mut app, engine);
    app.finish();
    app.cleanup();

    // With an exact count, one frame more: a start reported a frame late still matches.
    let last_frame = LAST_COUNTED_FRAME + u32::from(scene.checks_hits());
    let mut times = Vec::with_capacity(MAX_TIMED_FRAMES);
    let mut cpu_times = Vec::with_capacity(MAX_TIMED_FRAMES);
    let mut timed = Duration::ZERO;
    let mut frame = 0;
    loop {
        let (start, cpu_start) = (Instant::now(), process_cpu_time());
        app.update();
        let elapsed = start.elapsed();
        let cpu = process_cpu_time()
            .zip(cpu_start)
            .map(|(end, start)| end - start);
        frame += 1;
        if frame > WARM_UP_FRAMES {
            times.push(elapsed);
            cpu_times.extend(cpu);
            timed += elapsed;
        }
        let counted = frame >= last_frame;
        if counted && (times.len() >= MAX_TIMED_FRAMES || timed >= TIME_BUDGET) {
            break;
        }
    }
    times.sort();
    cpu_times.sort();
    // Checked after timing: the exact count is the harness's work, not the engine's.
    let hits = app.world().get_resource::<StartLog>().map(|log| {
        let exact = exact::starts(&scene.bodies(), LAST_COUNTED_FRAME + 1);
        exact::compare(&exact, &log.0)
    });
    Measurement {
        median: times[times.len() / 2],
        p90: times[times.len() * 9 / 10],
        cpu: cpu_times.get(cpu_times.len() / 2).copied(),
        frames: times.len(),
        started: *app.world().resource::<StartedPairs>(),
        hits,
    }
}

impl Measurement {
    /// One line for a parent process to read back with [`Measurement::parse`].
    pub fn to_line(self) -> String {
        let mut line = format!(
            "measured {} {} {} {} {} {}",
            self.median.as_nanos(),
            self.p90.as_nanos(),
            // Zero: not measured.
            self.cpu.map_or(0, |cpu| cpu.as_nanos()),
            self.frames,
            self.started.count,
            self.started.digest
        );
        if let Some(hits) = self.hits {
            line += &format!(
                " {} {} {} {} {} {}",
                hits.exact, hits.on_time, hits.late, hits.early, hits.missed, hits.extra
            );
        }
        line
    }

    /// Reads a line written by [`Measurement::to_line`].
    pub fn parse(line: &str) -> Option<Self> {
        let mut words = line.strip_prefix("measured ")?.split(' ');
        let mut next = || words.next()?.parse::<u64>().ok();
        Some(Self {
            median: Duration::from_nanos(next()?),
            p90: Duration::from_nanos(next()?),
            cpu: Some(Duration::from_nanos(next()?)).filter(|cpu| !cpu.is_zero()),
            frames: next()? as usize,
            started: StartedPairs {
                count: next()?,
                digest: next()?,
                list: false,
            },
            hits: match next() {
                Some(exact) => Some(Hits {
                    exact,
                    on_time: next()?,
                    late: next()?,
                    early: next()?,
                    missed: next()?,
                    extra: next()?,
                }),
                None => None,
            },
        })
    }
}

/// The CPU time this process has used so far, all its threads together, user and system.
#[cfg(unix)]
#[expect(
    unsafe_code,
    reason = "the process's CPU clock, read through libc: std has no safe way to read it"
)]
fn process_cpu_time() -> Option<Duration> {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `time` is a valid, writable `timespec` for the whole call, which only writes it.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut time) };
    (status == 0).then(|| Duration::new(time.tv_sec as u64, time.tv_nsec as u32))
}

/// Not read on this system.
#[cfg(not(unix))]
fn process_cpu_time() -> Option<Duration> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A measurement read back from its line is the one written, its CPU time too, or none.
    #[test]
    fn a_measurement_reads_back_from_its_line() {
        for cpu in [Some(Duration::from_micros(2_345)), None] {
            let written = Measurement {
                median: Duration::from_micros(1_500),
                p90: Duration::from_micros(2_000),
                cpu,
                frames: 300,
                started: StartedPairs {
                    count: 31_030,
                    digest: 77,
                    list: false,
                },
                hits: None,
            };
            let read = Measurement::parse(&written.to_line()).expect("a line it reads");
            assert_eq!(
                (read.median, read.p90, read.cpu, read.frames),
                (written.median, written.p90, cpu, 300)
            );
            assert_eq!((read.started.count, read.started.digest), (31_030, 77));
            assert!(read.hits.is_none());
        }
    }
}
