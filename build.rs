//! Writes the random programs of the differential fuzzer (`tests/fuzz.rs`) into
//! `$OUT_DIR/fuzz_programs.rs`: `AUTODIFF_FUZZ_COUNT` programs (40 by default) from the seed
//! `AUTODIFF_FUZZ_SEED` (a fixed one by default). The generator lives in `build/fuzz/`.

#[path = "build/fuzz/mod.rs"]
mod fuzz;

use std::env;
use std::path::PathBuf;

/// The seed of the programs that CI checks.
const DEFAULT_SEED: u64 = 20_240_601;
/// How many programs CI checks: enough to cover every construct, few enough to build fast.
const DEFAULT_COUNT: usize = 40;

fn var(name: &str) -> Option<u64> {
    println!("cargo::rerun-if-env-changed={name}");
    let text = env::var(name).ok()?;
    match text.trim().parse() {
        Ok(v) => Some(v),
        Err(_) => panic!("{name} must be a non-negative integer, not `{text}`"),
    }
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=build/fuzz");
    let seed = var("AUTODIFF_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let count = var("AUTODIFF_FUZZ_COUNT").map_or(DEFAULT_COUNT, |c| c as usize);
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let path = out.join("fuzz_programs.rs");
    std::fs::write(&path, fuzz::file(seed, count)).expect("the generated programs are written");
}
