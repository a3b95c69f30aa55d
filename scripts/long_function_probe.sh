#!/usr/bin/env bash
# Builds one long generated function (scripts/long_function.py) in a throwaway crate with the
# default debug profile and prints: `cargo check` and `cargo build` times (wall / CPU seconds),
# whether rustc crashed, and whether f_grad and f_hvp match finite differences.
#
#   scripts/long_function_probe.sh N [STYLE [ATTR [REPO]]]
#
# STYLE is registers (default), lets or declared; ATTR the options of #[grad] (default hvp, or
# none); REPO the workspace whose autodiff-runtime is used (default this one: point it at an
# older checkout to compare). The crate lives in REPO/target/long-function-probe; the macro
# and the dependencies are built first and not timed. Run it with nothing else compiling.
set -euo pipefail
n=$1 style=${2:-registers} attr=${3:-hvp}
here=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "${4:-$here}" && pwd)
crate=$repo/target/long-function-probe
mkdir -p "$crate/src"
cp "$repo/Cargo.lock" "$crate/"
cat > "$crate/Cargo.toml" <<EOF
[package]
name = "long-function-probe"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
autodiff-runtime = { path = "$repo/autodiff-runtime" }

[workspace]
EOF
python3 "$here/scripts/long_function.py" "$n" --style "$style" --attr "$attr" > "$crate/src/main.rs"
cd "$crate"
cargo build -q -j 2 -p autodiff-runtime
cargo check -q -j 2 -p autodiff-runtime

timed() { # command...: "wall/CPU" seconds; the command's stderr is left in $crate/stderr
    /usr/bin/time -f "%e %U %S" "$@" 2> "$crate/stderr" > /dev/null || true
    tail -1 "$crate/stderr" | awk '{ printf "%.1f/%.1f", $1, $2 + $3 }'
}
cargo clean -q -p long-function-probe
load=$(cut -d' ' -f1-3 /proc/loadavg)
check=$(timed cargo check -q -j 2)
cargo clean -q -p long-function-probe
build=$(timed cargo build -q -j 2)
crash=$(grep -o "SIGSEGV\|overflowed its stack" "$crate/stderr" | sort -u | tr '\n' ' ' || true)
result=failed
if [ -z "$crash" ] && target/debug/long-function-probe > "$crate/stdout" 2>&1; then
    result=ran
    if grep -q "matches finite differences" "$crate/stdout"; then result="matches finite differences"; fi
fi
echo "N=$n style=$style attr=$attr check=${check}s build=${build}s (wall/cpu) crash=${crash:-no} run=$result load=$load"
