//! The interleaved timing of `benches/interleaved_loops.rs`, `benches/interleaved_calls.rs`,
//! `benches/checkpoint.rs` and
//! `benches/checkpoint_long.rs`: the kernels of a workload take turns in blocks, round after
//! round, and a ratio is the median over rounds of the ratio of two kernels' times within a round,
//! so a drift of the machine's speed slows both sides of a ratio alike (the method of
//! `benches/interleaved.rs`, with blocks sized per kernel and quartiles reported).
//!
//! A block is timed by the wall clock ([`Clock::Wall`]) or by the CPU time of the timing thread
//! ([`Clock::ThreadCpu`], `CLOCK_THREAD_CPUTIME_ID`). On this shared machine, at a load average
//! of 3 to 5 on 2 cores, the scheduler interrupts most calls that last milliseconds and few that
//! last microseconds, so a wall-clock ratio of a long kernel to a short one is inflated by the
//! time other processes ran; the thread's CPU time leaves that out. Reading it is a system call
//! (under a microsecond), so blocks timed by it should last a millisecond or more.

// Each bench target that includes this module uses part of it (the checkpointing benchmarks only
// the CPU-time clock).
#![allow(dead_code)]

use std::time::{Duration, Instant};

/// A kernel: a name for the report and one call, its inputs and result through `black_box`.
pub struct Kernel<'a> {
    name: &'static str,
    run: Box<dyn Fn() + 'a>,
}

impl<'a> Kernel<'a> {
    pub fn new(name: &'static str, run: impl Fn() + 'a) -> Self {
        Kernel { name, run: Box::new(run) }
    }
}

/// Per-call times in nanoseconds, one vector per kernel, one entry per round.
pub struct Timings {
    names: Vec<&'static str>,
    ns: Vec<Vec<f64>>,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

impl Timings {
    fn index(&self, name: &str) -> usize {
        self.names.iter().position(|n| *n == name).expect("a kernel of this workload")
    }

    /// The median over rounds of the time of one call of `name`.
    pub fn median_ns(&self, name: &str) -> f64 {
        median(self.ns[self.index(name)].clone())
    }

    /// The quartiles over rounds of `a`'s time over `b`'s time in the same round: the median is
    /// the ratio reported, the first and third quartiles say how much the rounds scatter.
    pub fn ratio(&self, a: &str, b: &str) -> [f64; 3] {
        let (a, b) = (&self.ns[self.index(a)], &self.ns[self.index(b)]);
        let mut r: Vec<f64> = a.iter().zip(b).map(|(x, y)| x / y).collect();
        r.sort_by(f64::total_cmp);
        [r[r.len() / 4], r[r.len() / 2], r[3 * r.len() / 4]]
    }

    /// Prints the median time of every kernel, then each ratio `(label, a, b)` as `a / b` with
    /// its quartiles over rounds; each ratio also on a line `RATIO <workload> <label> <median>`,
    /// for collating several runs (`grep ^RATIO`).
    pub fn report(&self, workload: &str, ratios: &[(&str, &str, &str)]) {
        let times: Vec<String> =
            self.names.iter().map(|n| format!("{n} {}", format_ns(self.median_ns(n)))).collect();
        println!(
            "{workload}: median per call over {} rounds: {}",
            self.ns[0].len(),
            times.join(" | ")
        );
        let mut line = Vec::new();
        for (label, a, b) in ratios {
            let [q1, r, q3] = self.ratio(a, b);
            line.push(format!("{label} {r:.3} [{q1:.3}, {q3:.3}]"));
            println!("RATIO {workload} {label} {r:.4}");
        }
        println!("{workload}: {}", line.join(" | "));
    }
}

/// A time in the unit that keeps it between 1 and 1000.
pub fn format_ns(ns: f64) -> String {
    match ns {
        ns if ns >= 1e9 => format!("{:.2} s", ns / 1e9),
        ns if ns >= 1e6 => format!("{:.2} ms", ns / 1e6),
        ns if ns >= 1e3 => format!("{:.2} µs", ns / 1e3),
        ns => format!("{ns:.1} ns"),
    }
}

/// What a block's time is measured by.
#[derive(Clone, Copy)]
pub enum Clock {
    /// `Instant`: the wall clock.
    Wall,
    /// The CPU time this thread has used: no time of other processes, for long blocks.
    ThreadCpu,
}

impl Clock {
    /// The clock's reading, in nanoseconds from an arbitrary origin.
    fn now_ns(self, origin: Instant) -> f64 {
        match self {
            Clock::Wall => origin.elapsed().as_secs_f64() * 1e9,
            Clock::ThreadCpu => {
                let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
                // SAFETY: `ts` is a valid `timespec` for `clock_gettime` to write.
                let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
                assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
                ts.tv_sec as f64 * 1e9 + ts.tv_nsec as f64
            }
        }
    }
}

/// The number of calls of `run` that take at least `block` (one for a kernel slower than that).
fn calibrate(run: &dyn Fn(), block: Duration) -> u32 {
    let mut calls = 1u32;
    loop {
        let start = Instant::now();
        for _ in 0..calls {
            run();
        }
        if start.elapsed() >= block || calls >= 1 << 20 {
            return calls;
        }
        calls *= 2;
    }
}

/// Times `kernels` in rotating blocks of about `block` each (as many calls as take that long,
/// calibrated once), round after round, for about `budget` in all and at least `min_rounds`
/// rounds, each block by `clock`. Every kernel is called once first, to warm caches (and, for
/// stack arrays, to touch the stack's pages).
pub fn interleave(
    kernels: &[Kernel],
    block: Duration,
    budget: Duration,
    min_rounds: usize,
    clock: Clock,
) -> Timings {
    let origin = Instant::now();
    for k in kernels {
        (k.run)();
    }
    let calls: Vec<u32> = kernels.iter().map(|k| calibrate(&*k.run, block)).collect();
    let start = Instant::now();
    for (k, c) in kernels.iter().zip(&calls) {
        for _ in 0..*c {
            (k.run)();
        }
    }
    let round = start.elapsed().as_secs_f64();
    let rounds = ((budget.as_secs_f64() / round) as usize).max(min_rounds);
    let n = kernels.len();
    let mut ns: Vec<Vec<f64>> = (0..n).map(|_| Vec::with_capacity(rounds)).collect();
    for r in 0..rounds {
        for i in 0..n {
            let k = (i + r) % n;
            let start = clock.now_ns(origin);
            for _ in 0..calls[k] {
                (kernels[k].run)();
            }
            ns[k].push((clock.now_ns(origin) - start) / f64::from(calls[k]));
        }
    }
    Timings { names: kernels.iter().map(|k| k.name).collect(), ns }
}

/// The load average (`/proc/loadavg`'s first three fields), to print with every run.
pub fn load_average() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}
