//! The crowd benchmark: the reference scene (see `scene.rs`) stepped by our plugin (terrain as a
//! tile grid and as merged colliders + slope segments), by Rapier's kinematic character controller
//! (terrain as one polyline and as per-tile colliders; as Rapier's guide has it, without the
//! downward press while grounded, and the controller alone with the characters kept out of the
//! physics world), by avian2d's move-and-slide (the same two terrains, set up as avian's
//! kinematic character example has it) and by a plain scan of every collider per body, for
//! N = 100, 1000 and 10 000 characters, on the reference level (512 tiles) and on one 100 times larger (51 200 tiles), side
//! by side in one criterion run. `BENCHMARKS.md` has the results.
//!
//! ```sh
//! CARGO_TARGET_DIR=$HOME/.cache/platformer-target cargo bench -p platformer_benches --bench crowd
//! ```
//!
//! Each case first runs a separate pass, not timed by criterion (100 steps to settle, then 500
//! steps), for its correctness figures: grounded fraction, bodies ending below the surface, the
//! deepest any body went below it, and stalls (grounded steps that moved less than 10 % of the
//! walking distance with no wall within a tile). Then criterion times single steps of the same
//! world, in CPU time of this thread (every variant is single-threaded; the machine may be
//! shared). The results (median time per step of criterion's samples, per character-step, the
//! figures, and the CPU's model name from `/proc/cpuinfo`) are merged into
//! `docs/benchmarks/crowd.csv` (or the file named by `CROWD_CSV`), which
//! `tools/plot_benchmarks.py` plots. `CROWD_ONLY=<substring>` runs only the cases whose id
//! (`crowd-<level>/<variant>/<n>`) contains it, skipping the others' setup too; a trailing `$`
//! anchors it at the end of the id (`crowd-512/ours-grid/100$` is N = 100 alone).
//!
//! Without `--bench` (`cargo test --benches`), only N = 100 runs, briefly, and nothing is written.
//!
//! For profilers (`perf`, `valgrind --tool=callgrind`): `CROWD_STEPS=<k>` builds and settles each
//! selected case, steps it `k` more times and goes on, without the correctness pass or criterion.
//! Comparing the counts of two values of `k` gives the cost of a step alone. `CROWD_COUNTS=0,100`
//! replaces the values of N (N = 0, with `CROWD_STEPS`, is the fixed cost of a step).

mod avian;
mod ours;
mod rapier;
mod scan;
mod scene;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode};

use scene::*;

/// What the correctness pass sees of one character after a step, in tiles.
#[derive(Clone, Copy, Debug)]
pub struct Observation {
    /// Bottom-left corner of its box.
    pub min: [f32; 2],
    /// Top-right corner of its box.
    pub max: [f32; 2],
    /// The controller says it stands on something.
    pub grounded: bool,
}

/// One variant's crowd.
pub trait Crowd {
    /// One step of 0.01 s for every character.
    fn step(&mut self);
    /// Every character's box and grounded flag, in a fixed order.
    fn observe(&mut self, out: &mut Vec<Observation>);
    /// For the peer: time in `move_shape` and in the world step since the last reset.
    fn split(&mut self) -> Option<&mut (Duration, Duration)> {
        None
    }
}

/// A body ending more than this below the surface (tiles) counts as below it: the plugin's contact
/// tolerance (0.01 tile).
const BELOW_TOLERANCE: f32 = 0.01;
/// Steps to settle (everyone lands and walks) before the correctness pass.
const SETTLE_STEPS: usize = 100;
/// Steps of the correctness pass.
const QUALITY_STEPS: usize = 500;
/// Criterion samples per case.
const SAMPLES: usize = 10;

/// The correctness figures of one case.
#[derive(Clone, Copy, Debug, Default)]
struct Quality {
    grounded_fraction: f64,
    below_surface: usize,
    max_below: f32,
    stalls: usize,
    /// Stalls with flat ground (or a plateau's top) under the whole body.
    flat_stalls: usize,
    steps: usize,
    /// Mean CPU time per step of the pass (not criterion's figure), as a cross-check.
    pass_step_ns: f64,
    /// For the peer: share of the step spent in `move_shape`.
    controller_share: Option<f64>,
}

fn quality(crowd: &mut dyn Crowd, width: i32, steps: usize) -> Quality {
    let mut before = Vec::new();
    let mut after = Vec::new();
    crowd.observe(&mut before);
    if let Some(split) = crowd.split() {
        *split = Default::default();
    }
    let desired = SPEED * DT;
    let (mut total, mut grounded, mut stalls, mut flat_stalls) = (0usize, 0usize, 0usize, 0usize);
    let mut max_below = f32::NEG_INFINITY;
    let mut time = Duration::ZERO;
    for _ in 0..steps {
        let start = thread_cpu_time();
        crowd.step();
        time += thread_cpu_time() - start;
        crowd.observe(&mut after);
        for (b, a) in before.iter().zip(&after) {
            total += 1;
            max_below = max_below.max(highest_surface(width, a.min[0], a.max[0]) - a.min[1]);
            if a.grounded {
                grounded += 1;
                let near_wall = a.min[0] < 2.0 || a.max[0] > (width - 2) as f32;
                if (a.min[0] - b.min[0]).abs() < 0.1 * desired && !near_wall {
                    stalls += 1;
                    let flat = surface(width, a.min[0]);
                    if surface(width, a.max[0]) == flat && highest_surface(width, a.min[0], a.max[0]) == flat {
                        flat_stalls += 1;
                    }
                }
            }
        }
        std::mem::swap(&mut before, &mut after);
    }
    let below_surface = before
        .iter()
        .filter(|a| highest_surface(width, a.min[0], a.max[0]) - a.min[1] > BELOW_TOLERANCE)
        .count();
    let controller_share = crowd
        .split()
        .map(|(controller, world)| controller.as_secs_f64() / (controller.as_secs_f64() + world.as_secs_f64()));
    Quality {
        grounded_fraction: grounded as f64 / total.max(1) as f64,
        below_surface,
        max_below: max_below.max(0.0),
        stalls,
        flat_stalls,
        steps,
        pass_step_ns: time.as_nanos() as f64 / steps.max(1) as f64,
        controller_share,
    }
}

/// CPU time of the calling thread. Every variant steps on this one thread (Bevy without its
/// `multi_threaded` feature, Rapier without `parallel`), so this is the time on one core, and it
/// does not count the time other processes on a shared machine take the core away.
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID exists on Linux.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(status, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Median of the per-step times of criterion's samples (the last `SAMPLES` calls: criterion
/// warms up first, then takes its samples), in nanoseconds.
fn median_per_step(samples: &[(u64, Duration)]) -> Option<f64> {
    if samples.len() < SAMPLES {
        return None;
    }
    let mut per_step: Vec<f64> = samples[samples.len() - SAMPLES..]
        .iter()
        .map(|(iters, d)| d.as_nanos() as f64 / *iters as f64)
        .collect();
    per_step.sort_by(f64::total_cmp);
    Some(0.5 * (per_step[SAMPLES / 2 - 1] + per_step[SAMPLES / 2]))
}

/// Times single steps with criterion, in thread CPU time; returns the median time per step of
/// criterion's samples in CPU time and in wall time, in nanoseconds.
fn measure(
    group: &mut BenchmarkGroup<'_, WallTime>,
    variant: &str,
    n: usize,
    crowd: &mut dyn Crowd,
) -> Option<(f64, f64)> {
    let mut cpu: Vec<(u64, Duration)> = Vec::new();
    let mut wall: Vec<(u64, Duration)> = Vec::new();
    group.bench_function(BenchmarkId::new(variant, n), |b| {
        b.iter_custom(|iters| {
            let (start, start_cpu) = (Instant::now(), thread_cpu_time());
            for _ in 0..iters {
                crowd.step();
            }
            let (elapsed, elapsed_cpu) = (start.elapsed(), thread_cpu_time() - start_cpu);
            cpu.push((iters, elapsed_cpu));
            wall.push((iters, elapsed));
            elapsed_cpu
        })
    });
    Some((median_per_step(&cpu)?, median_per_step(&wall)?))
}

/// One row of the results.
#[derive(Clone, Debug)]
struct Row {
    variant: String,
    level: i32,
    n: usize,
    /// Median CPU time per step.
    step_ns: f64,
    /// Median wall time per step (inflated when other processes share the cores).
    wall_step_ns: f64,
    quality: Quality,
}

/// The CSV's columns. `cpu` is the model name of the CPU the row was measured on.
const CSV_HEADER: &str = "variant,level_tiles,n,step_ns,char_step_ns,wall_step_ns,grounded_fraction,below_surface,\
max_below_tiles,stalls,flat_stalls,quality_steps,pass_step_ns,controller_share,cpu";
/// The columns before `cpu` was added. Rows of a file with this header are kept, with the CPU
/// "unknown": the file did not say where they were measured.
const CSV_HEADER_WITHOUT_CPU: &str = "variant,level_tiles,n,step_ns,char_step_ns,wall_step_ns,grounded_fraction,\
below_surface,max_below_tiles,stalls,flat_stalls,quality_steps,pass_step_ns,controller_share";

impl Row {
    /// The row as a line of the CSV, measured on the CPU named `cpu`.
    fn csv(&self, cpu: &str) -> String {
        let q = &self.quality;
        format!(
            "{},{},{},{:.0},{:.1},{:.0},{:.4},{},{:.4},{},{},{},{:.0},{},{}",
            self.variant,
            self.level,
            self.n,
            self.step_ns,
            self.step_ns / self.n as f64,
            self.wall_step_ns,
            q.grounded_fraction,
            q.below_surface,
            q.max_below,
            q.stalls,
            q.flat_stalls,
            q.steps,
            q.pass_step_ns,
            q.controller_share.map_or(String::new(), |s| format!("{s:.3}")),
            cpu,
        )
    }
}

/// The model name of this machine's CPU, as `/proc/cpuinfo` gives it for the first processor, or
/// "unknown" where it gives none: a figure means little without the machine it was measured on.
/// Commas, the CSV's separator, become spaces.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines().find_map(|line| {
                let (key, value) = line.split_once(':')?;
                (key.trim() == "model name").then(|| value.trim().replace(',', " "))
            })
        })
        .filter(|model| !model.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

/// Merges `rows`, measured on the CPU named `cpu`, into the CSV at `path`: rows of the same
/// variant, level and N are replaced. A file written before the `cpu` column keeps its rows, with
/// the CPU "unknown"; a file with other columns is replaced.
fn write_csv(path: &PathBuf, rows: &[Row], cpu: &str) -> std::io::Result<()> {
    let mut lines: BTreeMap<(String, i32, usize), String> = BTreeMap::new();
    if let Ok(old) = std::fs::read_to_string(path) {
        let mut old_lines = old.lines();
        // What an old row lacks of the current columns; `None` for a file with other columns.
        let missing = match old_lines.next() {
            Some(CSV_HEADER) => Some(""),
            Some(CSV_HEADER_WITHOUT_CPU) => Some(",unknown"),
            _ => None,
        };
        if let Some(missing) = missing {
            for line in old_lines {
                let fields: Vec<&str> = line.split(',').collect();
                if let (Some(v), Some(Ok(l)), Some(Ok(n))) = (
                    fields.first(),
                    fields.get(1).map(|s| s.parse()),
                    fields.get(2).map(|s| s.parse()),
                ) {
                    lines.insert((v.to_string(), l, n), format!("{line}{missing}"));
                }
            }
        }
    }
    for row in rows {
        lines.insert((row.variant.clone(), row.level, row.n), row.csv(cpu));
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut text = String::from(CSV_HEADER);
    text.push('\n');
    for line in lines.values() {
        text.push_str(line);
        text.push('\n');
    }
    std::fs::write(path, text)
}

/// The variants, in the order they run for each level and N.
const VARIANTS: [&str; 11] = [
    "ours-grid",
    "ours-merged",
    "scan-merged",
    "rapier-polyline",
    "rapier-tiles",
    "rapier-polyline-nopress",
    "rapier-tiles-nopress",
    "rapier-controller-only-polyline-nopress",
    "rapier-controller-only-tiles-nopress",
    "avian-polyline",
    "avian-tiles",
];

fn build(variant: &str, width: i32, n: usize) -> Box<dyn Crowd> {
    match variant {
        "ours-grid" => Box::new(ours::OursCrowd::new(ours::Terrain::Grid, width, n)),
        "ours-merged" => Box::new(ours::OursCrowd::new(ours::Terrain::Merged, width, n)),
        "scan-merged" => Box::new(scan::ScanCrowd::new(width, n)),
        "rapier-polyline" => Box::new(rapier::RapierCrowd::new(rapier::Terrain::Polyline, width, n, true)),
        "rapier-tiles" => Box::new(rapier::RapierCrowd::new(rapier::Terrain::Tiles, width, n, true)),
        "rapier-polyline-nopress" => Box::new(rapier::RapierCrowd::new(rapier::Terrain::Polyline, width, n, false)),
        "rapier-tiles-nopress" => Box::new(rapier::RapierCrowd::new(rapier::Terrain::Tiles, width, n, false)),
        // Rapier's controller alone, without the press: the cheapest way to use it, so the
        // strictest comparison for us.
        "rapier-controller-only-polyline-nopress" => Box::new(rapier::ControllerOnlyCrowd::new(
            rapier::Terrain::Polyline,
            width,
            n,
            false,
        )),
        "rapier-controller-only-tiles-nopress" => Box::new(rapier::ControllerOnlyCrowd::new(
            rapier::Terrain::Tiles,
            width,
            n,
            false,
        )),
        "avian-polyline" => Box::new(avian::AvianCrowd::new(avian::Terrain::Polyline, width, n)),
        "avian-tiles" => Box::new(avian::AvianCrowd::new(avian::Terrain::Tiles, width, n)),
        _ => unreachable!("unknown variant {variant}"),
    }
}

/// Whether a case runs: the plain scan of the large level with 10 000 bodies would take about
/// a minute per pass (5·10⁷ collider tests per step), so it is left out.
fn runs(variant: &str, width: i32, n: usize) -> bool {
    !(variant == "scan-merged" && width == LARGE_WIDTH && n > 1000)
}

fn main() {
    let bench_mode = std::env::args().any(|a| a == "--bench");
    let only = std::env::var("CROWD_ONLY").ok();
    // `CROWD_ONLY`: a substring of the id, or its end when the pattern ends with `$`.
    let selects = |pattern: &str, id: &str| match pattern.strip_suffix('$') {
        Some(end) => id.ends_with(end),
        None => id.contains(pattern),
    };
    let profile_steps = std::env::var("CROWD_STEPS").ok().map(|k| {
        k.parse::<usize>()
            .unwrap_or_else(|_| panic!("CROWD_STEPS={k:?} is not a number of steps"))
    });
    let mut criterion = Criterion::default()
        .sample_size(SAMPLES)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .without_plots()
        .configure_from_args();
    let (default_counts, settle, steps): (&[usize], usize, usize) = if bench_mode {
        (&[100, 1_000, 10_000], SETTLE_STEPS, QUALITY_STEPS)
    } else {
        (&[100], 5, 5)
    };
    // `CROWD_COUNTS=0,100`: other values of N (N = 0 is the fixed cost of a step alone).
    let counts: Vec<usize> = std::env::var("CROWD_COUNTS").map_or_else(
        |_| default_counts.to_vec(),
        |list| {
            list.split(',')
                .map(|n| {
                    n.trim()
                        .parse()
                        .unwrap_or_else(|_| panic!("CROWD_COUNTS={list:?}: {n:?} is not a number of characters"))
                })
                .collect()
        },
    );
    // A time per character-step needs characters: N = 0 is for instruction counts only.
    if counts.contains(&0) && profile_steps.is_none() {
        panic!("CROWD_COUNTS has N = 0, which has no time per character-step: use it with CROWD_STEPS");
    }
    let mut rows = Vec::new();
    for width in [REFERENCE_WIDTH, LARGE_WIDTH] {
        let mut group = criterion.benchmark_group(format!("crowd-{width}"));
        group.sampling_mode(SamplingMode::Flat);
        for &n in &counts {
            for variant in VARIANTS {
                let id = format!("crowd-{width}/{variant}/{n}");
                if !runs(variant, width, n) || only.as_ref().is_some_and(|o| !selects(o, &id)) {
                    continue;
                }
                let built = Instant::now();
                let mut crowd = build(variant, width, n);
                for _ in 0..settle {
                    crowd.step();
                }
                let setup = built.elapsed();
                if let Some(k) = profile_steps {
                    for _ in 0..k {
                        crowd.step();
                    }
                    println!("{id}: {k} steps after settling");
                    continue;
                }
                let q = quality(crowd.as_mut(), width, steps);
                println!(
                    "{id}: built and settled in {:.1} s; grounded {:.4}, below surface {} (deepest {:.3} tiles), \
                     stalls {} ({} on flat ground){}",
                    setup.as_secs_f64(),
                    q.grounded_fraction,
                    q.below_surface,
                    q.max_below,
                    q.stalls,
                    q.flat_stalls,
                    q.controller_share.map_or(String::new(), |s| format!(
                        ", {:.0} % of the step in move_shape",
                        s * 100.0
                    )),
                );
                if let Some((step_ns, wall_step_ns)) = measure(&mut group, variant, n, crowd.as_mut()) {
                    rows.push(Row {
                        variant: variant.to_string(),
                        level: width,
                        n,
                        step_ns,
                        wall_step_ns,
                        quality: q,
                    });
                }
            }
        }
        group.finish();
    }
    criterion.final_summary();
    if !bench_mode || rows.is_empty() {
        return;
    }
    let cpu = cpu_model();
    println!("\nCPU: {cpu}");
    println!("\n| level | variant | N | ns / character-step | grounded | below surface | stalls |");
    println!("| ---: | --- | ---: | ---: | ---: | ---: | ---: |");
    for row in &rows {
        let q = &row.quality;
        println!(
            "| {} | {} | {} | {:.0} | {:.4} | {} | {} |",
            row.level,
            row.variant,
            row.n,
            row.step_ns / row.n as f64,
            q.grounded_fraction,
            q.below_surface,
            q.stalls
        );
    }
    let path = std::env::var_os("CROWD_CSV").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/benchmarks/crowd.csv")),
        PathBuf::from,
    );
    match write_csv(&path, &rows, &cpu) {
        Ok(()) => println!("\nwrote {}", path.display()),
        Err(e) => eprintln!("\ncould not write {}: {e}", path.display()),
    }
}
