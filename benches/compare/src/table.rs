//! The Markdown table of all runs, and the lines under it: the machine, how contact starts
//! compare, and the ratios that sum it up. When a scene's hits are checked against the exact
//! count ([`crate::exact`]), two more columns give it and each engine's missed and extra starts.

use crate::Run;
use crate::engine::Engine;
use crate::scene::{Scene, SceneKind};
use crate::started::{FIRST_COUNTED_FRAME, LAST_COUNTED_FRAME};

fn milliseconds(run: &Run) -> Option<f64> {
    Some(run.measurement?.median.as_secs_f64() * 1e3)
}

fn cpu_milliseconds(run: &Run) -> Option<f64> {
    Some(run.measurement?.cpu?.as_secs_f64() * 1e3)
}

/// The engines other than ours.
fn peers(engines: &[Engine]) -> Vec<Engine> {
    engines
        .iter()
        .copied()
        .filter(|&engine| engine != Engine::Ours)
        .collect()
}

/// A Markdown table's first two lines: the column titles, and the rule under them.
struct Header {
    titles: String,
    rule: String,
}

impl Header {
    /// The `leading` columns (title and rule cells, already joined), then a column per engine,
    /// titled with its name and `unit`, then, where ours ran, the ratio of ours to each peer.
    fn new(leading: (&str, &str), engines: &[Engine], unit: &str) -> Self {
        let mut header = Self {
            titles: leading.0.to_owned(),
            rule: leading.1.to_owned(),
        };
        for engine in engines {
            header.push(&format!("{} {unit}", engine.name()), "---:");
        }
        if engines.contains(&Engine::Ours) {
            for peer in peers(engines) {
                header.push(&format!("ours vs {}", peer.name()), "---:");
            }
        }
        header
    }

    /// One more column.
    fn push(&mut self, title: &str, rule: &str) {
        self.titles += &format!(" {title} |");
        self.rule += &format!("{rule}|");
    }

    fn print(&self) {
        println!("{}\n{}", self.titles, self.rule);
    }
}

fn find(runs: &[Run], scene: Scene, engine: Engine, threads: usize) -> Option<&Run> {
    runs.iter()
        .find(|run| run.scene == scene && run.engine == engine && run.threads == threads)
}

/// Prints the table, one row per scene and thread count, a column per engine; then, where the
/// runs include `none`, the collision part of each frame.
pub fn print(runs: &[Run], engines: &[Engine]) {
    let with_none = engines.contains(&Engine::None);
    let engines: Vec<Engine> = engines
        .iter()
        .copied()
        .filter(|&engine| engine != Engine::None)
        .collect();
    let engines = engines.as_slice();
    let peers = peers(engines);
    let has_ours = engines.contains(&Engine::Ours);
    let leading = ("| scene | colliders | threads |", "|---|---:|---:|");
    let mut header = Header::new(leading, engines, "ms");
    let names: Vec<&str> = engines.iter().map(|engine| engine.name()).collect();
    header.push(&format!("contact starts ({})", names.join(" / ")), "---");
    let checks_hits = runs.iter().any(|run| run.scene.checks_hits());
    if checks_hits {
        header.push("exact starts", "---:");
        header.push(&format!("missed / extra ({})", names.join(" · ")), "---");
    }
    header.print();

    let mut rows: Vec<(Scene, usize)> = Vec::new();
    for run in runs {
        if !rows.contains(&(run.scene, run.threads)) {
            rows.push((run.scene, run.threads));
        }
    }
    let mut differences = Vec::new();
    let mut skipped = Vec::new();
    for &(scene, threads) in &rows {
        let row: Vec<Option<&Run>> = engines
            .iter()
            .map(|&engine| find(runs, scene, engine, threads))
            .collect();
        let mut line = format!(
            "| {} | {} | {threads} |",
            scene.name(),
            scene.bodies().len()
        );
        for (&engine, run) in engines.iter().zip(&row) {
            let reason = engine.cannot_run(scene);
            line += &match (run.and_then(|run| run.measurement), reason) {
                (Some(measured), _) => format!(
                    " {:.2} ({:.2}) |",
                    measured.median.as_secs_f64() * 1e3,
                    measured.p90.as_secs_f64() * 1e3
                ),
                (None, Some(reason)) => {
                    if !skipped.contains(&(scene, engine, reason)) {
                        skipped.push((scene, engine, reason));
                    }
                    " — |".to_owned()
                }
                (None, None) => " failed |".to_owned(),
            };
        }
        if has_ours {
            let ours = find(runs, scene, Engine::Ours, threads).and_then(milliseconds);
            for &peer in &peers {
                let theirs = find(runs, scene, peer, threads).and_then(milliseconds);
                line += &match (ours, theirs) {
                    (Some(ours), Some(theirs)) => format!(" {:.0}× |", theirs / ours),
                    _ => " – |".to_owned(),
                };
            }
        }
        let ours = find(runs, scene, Engine::Ours, threads)
            .and_then(|run| run.measurement)
            .map(|m| m.started);
        let mut counts = Vec::new();
        for (&engine, run) in engines.iter().zip(&row) {
            let Some(started) = run.and_then(|run| run.measurement).map(|m| m.started) else {
                counts.push(
                    if engine.cannot_run(scene).is_some() {
                        "—"
                    } else {
                        "–"
                    }
                    .to_owned(),
                );
                continue;
            };
            let mark = match ours {
                Some(ours) if engine != Engine::Ours && ours != started => {
                    differences.push((scene, threads, engine));
                    " ≠"
                }
                Some(_) if engine != Engine::Ours => " =",
                _ => "",
            };
            counts.push(format!("{}{mark}", started.count));
        }
        line += &format!(" {} |", counts.join(" / "));
        if checks_hits {
            line += &hit_cells(&row);
        }
        println!("{line}");
    }

    println!();
    println!(
        "Times: median (90th percentile) milliseconds per frame, one whole `app.update()`, after \
         10 warm-up frames. Contact starts: from frame {FIRST_COUNTED_FRAME} to \
         {LAST_COUNTED_FRAME}; = after a peer's count: the same pairs of bodies started on the \
         same frames as with ours, ≠: not."
    );
    println!("Machine: {}.", machine());
    for (scene, engine, reason) in &skipped {
        println!(
            "—: {} does not run {}: {reason}.",
            engine.name(),
            scene.name()
        );
    }
    for (scene, threads, engine) in &differences {
        println!(
            "Contact starts differ from ours: {} on {} with {threads} thread(s).",
            scene.name(),
            engine.name()
        );
    }
    if checks_hits {
        print_hit_timing(runs, &rows, engines);
    }
    print_cpu_time(runs, &rows, engines);
    if with_none {
        print_collision_part(runs, &rows, engines);
    }
    print_ratios(runs);
}

/// An engine's collision part of the frame: its median frame less the median frame of the same
/// scene with no engine, in milliseconds.
fn collision_ms(runs: &[Run], scene: Scene, engine: Engine, threads: usize) -> Option<f64> {
    let shared = find(runs, scene, Engine::None, threads).and_then(milliseconds)?;
    Some(find(runs, scene, engine, threads).and_then(milliseconds)? - shared)
}

/// How much the frame with no engine varies (its 90th percentile less its median), in
/// milliseconds: a collision part below it is too small to divide by.
fn noise_ms(runs: &[Run], scene: Scene, threads: usize) -> Option<f64> {
    let none = find(runs, scene, Engine::None, threads)?.measurement?;
    Some((none.p90.as_secs_f64() - none.median.as_secs_f64()) * 1e3)
}

/// The third table: each engine's collision part of the frame, and the ratios of those.
/// Where ours is within the no-engine frame's noise, no ratio is shown.
fn print_collision_part(runs: &[Run], rows: &[(Scene, usize)], engines: &[Engine]) {
    println!();
    let leading = ("| scene | threads | no engine ms |", "|---|---:|---:|");
    Header::new(leading, engines, "collision ms").print();
    let ratios = if engines.contains(&Engine::Ours) {
        peers(engines)
    } else {
        Vec::new()
    };
    for &(scene, threads) in rows {
        let Some(shared) = find(runs, scene, Engine::None, threads).and_then(milliseconds) else {
            continue;
        };
        let mut line = format!("| {} | {threads} | {shared:.2} |", scene.name());
        for &engine in engines {
            // Less than the noise of the two medians: shown as such.
            line += &match collision_ms(runs, scene, engine, threads) {
                Some(ms) if ms > 0.0 => format!(" {ms:.2} |"),
                Some(_) => " ≤ 0 |".to_owned(),
                None if engine.cannot_run(scene).is_some() => " — |".to_owned(),
                None => " – |".to_owned(),
            };
        }
        let ours = collision_ms(runs, scene, Engine::Ours, threads);
        let noise = noise_ms(runs, scene, threads).unwrap_or(0.0);
        for &peer in &ratios {
            line += &match (ours, collision_ms(runs, scene, peer, threads)) {
                (Some(ours), Some(theirs)) if ours > noise.max(0.0) && theirs > 0.0 => {
                    format!(" {:.0}× |", theirs / ours)
                }
                _ => " – |".to_owned(),
            };
        }
        println!("{line}");
    }
    println!();
    println!(
        "Collision part: an engine's median frame less the median frame of the same scene with \
         no engine (the bodies spawned and moved alike, with no collider). No ratio where ours \
         is within that frame's noise (its 90th percentile less its median)."
    );
}

/// The second table: each engine's CPU time per frame, and the ratios of those. Beside the wall
/// time it shows how many cores a frame kept busy.
fn print_cpu_time(runs: &[Run], rows: &[(Scene, usize)], engines: &[Engine]) {
    let cpu =
        |scene, engine, threads| find(runs, scene, engine, threads).and_then(cpu_milliseconds);
    if !rows
        .iter()
        .any(|&(scene, threads)| engines.iter().any(|&e| cpu(scene, e, threads).is_some()))
    {
        return;
    }
    println!();
    Header::new(("| scene | threads |", "|---|---:|"), engines, "CPU ms").print();
    let has_ours = engines.contains(&Engine::Ours);
    for &(scene, threads) in rows {
        let mut line = format!("| {} | {threads} |", scene.name());
        for &engine in engines {
            line += &match cpu(scene, engine, threads) {
                Some(ms) => format!(" {ms:.2} |"),
                None if engine.cannot_run(scene).is_some() => " — |".to_owned(),
                None => " – |".to_owned(),
            };
        }
        if has_ours {
            let ours = cpu(scene, Engine::Ours, threads);
            for peer in peers(engines) {
                line += &match (ours, cpu(scene, peer, threads)) {
                    (Some(ours), Some(theirs)) => format!(" {:.0}× |", theirs / ours),
                    _ => " – |".to_owned(),
                };
            }
        }
        println!("{line}");
    }
    println!();
    println!(
        "CPU time: the median per frame of the whole process's CPU time (every thread, user and \
         system), over the same frames as the wall-time table. A frame's CPU time over its wall \
         time is about how many cores it kept busy."
    );
}

/// The exact starts of a row's scene and each engine's `missed / extra`, as two cells ("–"
/// for a scene without an exact count).
fn hit_cells(row: &[Option<&Run>]) -> String {
    let hits: Vec<_> = row
        .iter()
        .map(|run| run.and_then(|run| run.measurement).and_then(|m| m.hits))
        .collect();
    let Some(exact) = hits.iter().flatten().map(|hits| hits.exact).next() else {
        return " – | – |".to_owned();
    };
    let cells: Vec<String> = hits
        .iter()
        .map(|hits| match hits {
            Some(hits) => format!("{} / {}", hits.missed, hits.extra),
            None => "–".to_owned(),
        })
        .collect();
    format!(" {exact} | {} |", cells.join(" · "))
}

/// Under the table, for each row with an exact count: when each engine reported the starts it
/// did not miss.
fn print_hit_timing(runs: &[Run], rows: &[(Scene, usize)], engines: &[Engine]) {
    println!(
        "Exact starts: every pair of a fast bullet and a wall or target whose path (the \
         capsule of the bullet's radius around its move that frame) touches on a frame and did \
         not on the frame before, frames {FIRST_COUNTED_FRAME} to {LAST_COUNTED_FRAME}, \
         computed in f64 from the scene alone. Missed: exact starts an engine did not report \
         on that frame or one either side; extra: its starts that match none."
    );
    for &engine in engines {
        println!("Fast bullets, {}: {}.", engine.name(), engine.fast_note());
    }
    for &(scene, threads) in rows {
        let mut timings = Vec::new();
        for &engine in engines {
            let Some(hits) = find(runs, scene, engine, threads)
                .and_then(|run| run.measurement)
                .and_then(|m| m.hits)
            else {
                continue;
            };
            timings.push(format!(
                "{} {} / {} / {}",
                engine.name(),
                hits.on_time,
                hits.late,
                hits.early
            ));
        }
        if !timings.is_empty() {
            println!(
                "{}, {threads} thread(s), exact starts reported on the frame / a frame late / \
                 a frame early: {}.",
                scene.name(),
                timings.join(", ")
            );
        }
    }
}

/// The ratios worth reading off the table, where the runs cover them: how much faster than
/// each peer at the largest rain, what a clump costs beside the plain rain, and what the
/// extra threads buy.
fn print_ratios(runs: &[Run]) {
    let ms = |kind, size, engine, threads| {
        find(runs, Scene { kind, size }, engine, threads).and_then(milliseconds)
    };
    let rain_50k = |engine, threads| ms(SceneKind::Rain, 50_000, engine, threads);
    if let Some(ours) = rain_50k(Engine::Ours, 1) {
        let rain = Scene {
            kind: SceneKind::Rain,
            size: 50_000,
        };
        for peer in [Engine::Avian, Engine::Rapier, Engine::Box2d] {
            if let Some(theirs) = rain_50k(peer, 1) {
                println!(
                    "rain-50k, one thread: ours is {:.0}× faster than {} on the whole frame.",
                    theirs / ours,
                    peer.name()
                );
            }
            if let (Some(ours), Some(theirs)) = (
                collision_ms(runs, rain, Engine::Ours, 1),
                collision_ms(runs, rain, peer, 1),
            ) {
                println!(
                    "rain-50k, one thread: ours is {:.0}× faster than {} on the collision part.",
                    theirs / ours,
                    peer.name()
                );
            }
        }
    }
    if let (Some(clump), Some(rain)) = (
        ms(SceneKind::Clump, 10_000, Engine::Ours, 1),
        ms(SceneKind::Rain, 10_000, Engine::Ours, 1),
    ) {
        println!(
            "clump-10k costs {:.2}× rain-10k (ours, one thread).",
            clump / rain
        );
    }
    let most_threads = runs.iter().map(|run| run.threads).max().unwrap_or(1);
    if most_threads > 1
        && let (Some(one), Some(all)) = (
            rain_50k(Engine::Ours, 1),
            rain_50k(Engine::Ours, most_threads),
        )
    {
        println!(
            "rain-50k, ours: {most_threads} threads are {:.2}× faster than one.",
            one / all
        );
    }
}

/// The CPU model and how many threads it offers, as far as this platform tells.
fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split(':').nth(1))
                .map(|model| model.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!(
        "{model}, {threads} threads available, {}",
        std::env::consts::OS
    )
}
