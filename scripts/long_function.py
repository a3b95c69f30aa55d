#!/usr/bin/env python3
"""Writes a long straight-line `#[grad(hvp)]` function of N statements, the shape of code that
computer-algebra systems generate: + - * / sin cos exp ln sqrt tanh, each statement reading one or
two earlier values (recent ones mostly, older ones and the inputs too).

Every value stays in [-2, 2] for inputs in [-2, 2], and every expression is smooth everywhere
(`ln` and `sqrt` only of `1 + a * a`, division only by `1 + b * b`); the inputs are read again
and again, so the derivatives stay of order one and finite differences check them well. Every
value is read, so the function compiles without warnings, clippy's included.

Styles of the user's function:
  registers  16 `let mut` variables, each statement assigns one (a few nested scopes only)
  lets       one `let` per statement (rustc overflows its stack on the function itself past
             about 2,900 of them in a debug build, whatever the macro does)
  declared   one `let (a, b, ...): (f64, ...);` per 500 values, then assignments (plain functions
             only: `#[grad]` does not accept tuple patterns)

Output (stdout):
  default    the function and a `main` that checks `f_grad` and `f_hvp` against finite
             differences (a throwaway crate's `src/main.rs`; see scripts/long_function_probe.sh)
  --test     tests/long_function.rs, the regression test of a 4,000-statement function:
             python3 scripts/long_function.py 4000 --test > tests/long_function.rs
"""
import argparse
import random

PARAMS = 4
REGISTERS = 16

# (template, arity); each keeps |result| <= 2 when |a|, |b| <= 2, and none has the shape
# `a = a op b` or `a = b op a` (clippy's `assign_op_pattern`) when `a` is the assigned register.
OPS = [
    ("0.5 * ({a} + {b})", 2),
    ("0.5 * ({a} - {b})", 2),
    ("{a} * {b} * 0.5", 2),
    ("{a} / (1.0 + {b} * {b})", 2),
    ("{a} * {b}.cos()", 2),
    ("{a}.sin() * {b} * 0.5", 2),
    ("{a}.sin()", 1),
    ("{a}.cos()", 1),
    ("{a}.tanh()", 1),
    ("(0.5 * {a}).exp() - 1.0", 1),
    ("(1.0 + {a} * {a}).ln()", 1),
    ("(1.0 + {a} * {a}).sqrt() - 1.0", 1),
]

INPUTS = [f"x{i}" for i in range(PARAMS)]


def lets(n, rng):
    """N `let`s, each reading one or two distinct earlier values; the unread ones are summed."""
    names = list(INPUTS)
    unread = set(names)
    stmts = []
    for k in range(n):
        template, arity = rng.choice(OPS)
        picks = []
        while len(picks) < arity:
            if rng.random() < 0.1:
                v = rng.choice(INPUTS)
            elif unread and rng.random() < 0.5:
                v = min(unread, key=names.index)  # the oldest unread value, so none waits forever
            elif rng.random() < 0.8:
                v = names[max(0, len(names) - 1 - int(rng.expovariate(0.3)))]
            else:
                v = rng.choice(names)  # long-range reuse
            if v not in picks:
                picks.append(v)
        unread.difference_update(picks)
        name = f"v{k}"
        stmts.append((name, template.format(a=picks[0], b=picks[-1])))
        names.append(name)
        unread.add(name)
    return [], stmts, sorted(unread, key=names.index)


def registers(n, rng):
    """N assignments to REGISTERS `let mut` variables in turn; each reads the value it overwrites
    (so every value is read) and, for a binary operation, another register or an input."""
    regs = [f"r{j}" for j in range(REGISTERS)]
    init = [(r, INPUTS[j] if j < PARAMS else f"0.5 * {INPUTS[j % PARAMS]}")
            for j, r in enumerate(regs)]
    stmts = []
    for k in range(n):
        template, arity = rng.choice(OPS)
        target = regs[k % REGISTERS]
        other = regs[(k + 1 + rng.randrange(REGISTERS - 1)) % REGISTERS]
        if rng.random() < 0.4:
            other = rng.choice(INPUTS)
        a, b = (other, target) if arity == 2 else (target, target)
        stmts.append((target, template.format(a=a, b=b)))
    return init, stmts, regs


def function(n, seed, style, attr, name):
    rng = random.Random(seed)
    init, stmts, result = (registers if style == "registers" else lets)(n, rng)
    params = ", ".join(f"{x}: f64" for x in INPUTS)
    lines = [f"#[grad({attr})]"] if attr else []
    lines.append(f"pub fn {name}({params}) -> f64 {{")
    lines += [f"    let mut {v} = {e};" for v, e in init]
    if style == "lets":
        lines += [f"    let {v} = {e};" for v, e in stmts]
    else:
        if style == "declared":
            for i in range(0, len(stmts), 500):
                names = ", ".join(v for v, _ in stmts[i:i + 500])
                types = ", ".join("f64" for _ in stmts[i:i + 500])
                lines.append(f"    let ({names}): ({types});")
        lines += [f"    {v} = {e};" for v, e in stmts]
    lines += wrap("    ", " + ", result)
    lines.append("}")
    return lines


def wrap(indent, sep, items, width=100):
    """`items` joined by `sep`, broken before `sep` as rustfmt breaks a long sum."""
    lines, line = [], indent + items[0]
    for item in items[1:]:
        if len(line) + len(sep) + len(item) > width:
            lines.append(line)
            line = indent + "    " + sep.lstrip() + item
        else:
            line += sep + item
    return lines + [line]


CHECKS = """\
    let x = [0.3, -0.7, 1.1, 0.5];
    let (v, w) = ([1.0, 0.5, -0.25, 2.0], [-0.5, 1.5, 0.75, 1.0]);
    let value = @NAME@(x[0], x[1], x[2], x[3]);
    let (value_g, (g0, g1, g2, g3)) = @NAME@_grad(x[0], x[1], x[2], x[3]);
    let (value_h, g_h, (hv0, hv1, hv2, hv3)) =
        @NAME@_hvp(x[0], x[1], x[2], x[3], v[0], v[1], v[2], v[3]);
    let (_, _, (hw0, hw1, hw2, hw3)) =
        @NAME@_hvp(x[0], x[1], x[2], x[3], w[0], w[1], w[2], w[3]);
    assert_eq!((value_g, value_h), (value, value));
    assert_eq!(g_h, (g0, g1, g2, g3));
    let tol = Tolerance { epsilon: 1e-8, max_relative: 1e-6 };
    let g = [g0, g1, g2, g3];
    check_gradient(|p| @NAME@(p[0], p[1], p[2], p[3]), &x, &g, tol).unwrap();
    let grad = |p: &[f64]| {
        let (_, (a, b, c, d)) = @NAME@_grad(p[0], p[1], p[2], p[3]);
        vec![a, b, c, d]
    };
    let (hv, hw) = ([hv0, hv1, hv2, hv3], [hw0, hw1, hw2, hw3]);
    check_hvp(grad, &x, &v, &hv, tol).unwrap();
    check_hvp(grad, &x, &w, &hw, tol).unwrap();
    let dot = |a: [f64; 4], b: [f64; 4]| a.iter().zip(b).map(|(a, b)| a * b).sum::<f64>();
    check_close(&[dot(w, hv)], &[dot(v, hw)], tol).unwrap();
"""

MAIN = """\
use autodiff_runtime::{Tolerance, check_close, check_gradient, check_hvp, grad};

fn main() {
@CHECKS@    println!("@NAME@_hvp matches finite differences: g = {g:?}, Hv = {hv:?}");
}
"""

TEST = """\
//! A function of @COUNT@ statements, of the shape computer-algebra systems generate, differentiated
//! twice, built by the default debug build of `cargo test` and checked against finite differences.
//! Its `_grad` and `_hvp` have thousands of values; with one nested `let` per value, rustc's stack
//! overflowed past about 2,900 of them (a SIGSEGV in LLVM's debug info writer).
//!
//! Generated by `python3 scripts/long_function.py @N@ --test > tests/long_function.rs`;
//! do not edit.

use autodiff_runtime::{Tolerance, check_close, check_gradient, check_hvp, grad};

#[test]
fn a_@N@_statement_function_differentiates_twice() {
@CHECKS@}

/// @COUNT@ statements over 16 registers.
"""


def main():
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("n", type=int, help="number of statements")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--style", choices=["registers", "lets", "declared"], default="registers")
    p.add_argument("--attr", default="hvp", help="options of #[grad]; 'none': a plain function")
    p.add_argument("--test", action="store_true", help="write tests/long_function.rs")
    a = p.parse_args()
    attr = None if a.attr == "none" else a.attr
    name = "long_kernel" if a.test else "f"
    body = "\n".join(function(a.n, a.seed, a.style, attr, name)) + "\n"
    if a.test:
        out = TEST.replace("@CHECKS@", CHECKS) + body
    elif attr:
        out = body + "\n" + MAIN.replace("@CHECKS@", CHECKS)
    else:
        out = body + f"\nfn main() {{\n    println!(\"{{}}\", {name}(0.3, -0.7, 1.1, 0.5));\n}}\n"
    out = out.replace("@NAME@", name).replace("@N@", str(a.n)).replace("@COUNT@", f"{a.n:,}")
    print(out, end="")


if __name__ == "__main__":
    main()
