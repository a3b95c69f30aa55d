#!/usr/bin/env bash
# The macro's own cost on the lessons' function f(x) = Σ sin(xᵢ)·xᵢ₋₁ under #[grad(hvp)], at
# N = 10, 1000 and 10⁶ (N written as a literal): for each N, in a throwaway crate,
#   - the time rustc spends expanding macros (`-Z time-passes`, its `macro_expand_crate` line:
#     the crate has no other macro) and in all (its `total` line), the fastest of RUNS each;
#   - the wall time of `cargo check` of the crate (its dependencies built first, not timed),
#     the fastest of RUNS;
#   - the same for the function at N = 1000 without the attribute, as a baseline;
#   - the tokens of the expansion (`-Zunpretty=expanded`): the body of each generated function,
#     counted as autodiff-macros/src/tests/size.rs counts them (a group is its delimiters plus
#     its contents), and the whole expanded file.
#
#   scripts/macro_cost.sh [RUNS]
#
# The crates live in target/macro-cost-probe (the function) and target/macro-cost-counter (the
# token counter, built on syn); both use this workspace's Cargo.lock. Run it with nothing else
# compiling. Nightly flags go through RUSTC_BOOTSTRAP=1 on the stable toolchain.
set -euo pipefail
runs=${1:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
probe=$repo/target/macro-cost-probe
counter=$repo/target/macro-cost-counter
mkdir -p "$probe/src" "$counter/src"
cp "$repo/Cargo.lock" "$probe/"
cp "$repo/Cargo.lock" "$counter/"
cat > "$probe/Cargo.toml" <<EOF
[package]
name = "macro-cost-probe"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
autodiff-runtime = { path = "$repo/autodiff-runtime" }

[workspace]
EOF
cat > "$counter/Cargo.toml" <<EOF
[package]
name = "macro-cost-counter"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
proc-macro2 = { version = "1.0.107", default-features = false }
quote = { version = "1.0.47", default-features = false }
syn = { version = "3.0.10", default-features = false, features = ["full", "parsing", "printing"] }

[workspace]
EOF
cat > "$counter/src/main.rs" <<'EOF'
//! Reads an expanded Rust file on stdin; prints the token count of each function's body and of
//! the whole file, counted as autodiff-macros/src/tests/size.rs counts them.
use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
fn count(tokens: TokenStream) -> usize {
    tokens.into_iter().map(|t| match t { TokenTree::Group(g) => 2 + count(g.stream()), _ => 1 }).sum()
}
fn main() {
    let text = std::io::read_to_string(std::io::stdin()).expect("stdin");
    let file = syn::parse_file(&text).expect("an expanded Rust file");
    for item in &file.items {
        if let syn::Item::Fn(f) = item {
            println!("{} {}", f.sig.ident, count(f.block.to_token_stream()));
        }
    }
    println!("file {}", count(file.to_token_stream()));
}
EOF
(cd "$counter" && cargo build -q --release)
echo "//! Placeholder." > "$probe/src/lib.rs"
(cd "$probe" && cargo check -q)

fastest() { sort -g | head -1; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "N | macro_expand_crate (s, fastest of $runs) | rustc total, check (s, fastest of $runs) | cargo check wall (s, fastest of $runs) | _grad body tokens | _hvp body tokens | expanded file tokens"
# The last row is a baseline: the function at N = 1000 without `#[grad]`, which rustc expands and
# checks in the same way minus the macro.
for n in 10 1000 1000000 baseline; do
    attr="#[grad(hvp)]"
    import="use autodiff_runtime::grad;"
    if [ "$n" = baseline ]; then n=1000 attr="" import=""; fi
    cat > "$probe/src/lib.rs" <<EOF
//! The lessons' function at N = $n.
$import

/// f(x) = Σ sin(xᵢ)·xᵢ₋₁, cyclic.
$attr
pub fn lessons(x: [f64; $n]) -> f64 {
    let mut s = 0.0;
    for i in 0..$n {
        s += x[i].sin() * x[(i + $n - 1) % $n];
    }
    s
}
EOF
    cd "$probe"
    passes=$(for _ in $(seq "$runs"); do
        touch src/lib.rs
        RUSTC_BOOTSTRAP=1 cargo rustc -q --profile=check -- -Z time-passes 2>&1 |
            awk '/macro_expand_crate|\ttotal$/ { sub(";", "", $2); printf "%s ", $2 } END { print "" }'
    done)
    expand=$(awk '{ print $1 }' <<< "$passes" | fastest)
    total=$(awk '{ print $2 }' <<< "$passes" | fastest)
    check=$(for _ in $(seq "$runs"); do
        touch src/lib.rs
        /usr/bin/time -f "%e" cargo check -q 2>&1 | tail -1
    done | fastest)
    touch src/lib.rs
    tokens=$(RUSTC_BOOTSTRAP=1 cargo rustc -q --profile=check -- -Zunpretty=expanded |
        "$counter/target/release/macro-cost-counter")
    grad=$(awk '$1 == "lessons_grad" { print $2 }' <<< "$tokens")
    hvp=$(awk '$1 == "lessons_hvp" { print $2 }' <<< "$tokens")
    file=$(awk '$1 == "file" { print $2 }' <<< "$tokens")
    label=$n
    if [ -z "$attr" ]; then label="$n, without #[grad]"; fi
    echo "$label | $expand | $total | $check | ${grad:--} | ${hvp:--} | $file"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
