//! The number-type twins (issue 16), each decided from the program's seed by a generator of its
//! own (so that the programs themselves do not change):
//! - `f_gen<T: Float>`, the program over `T` (`print_float.rs`), under `f`'s attribute; at `f64`
//!   its value and derivatives must be `f`'s to the bit in every mode;
//! - `f_32`, the program over `f32`, under the same attribute: to the bit `f_gen` at `f32`, and
//!   `f`'s to `f32` precision (the test's tolerance, `tests/fuzz/floats.rs`);
//! - `f_sl`, its differentiated arrays as slices (`sliced.rs`), which must be `f` to the bit.
//!
//! The two typed twins go together, to programs that call no function (a callee is over `f64`);
//! the slice twin to programs with an array parameter read by element only. The glue calls them
//! through flat `f64` slices, as `Twin`s for the test.

use std::fmt::Write;

use super::ast::{Expr, Modes, Output, Pass, Program, Stmt};
use super::emit::{Glue, alias, bind, differentiated, function};
use super::print::{Flavor, output_type};
use super::rng::Rng;
use super::sliced;

/// Which number-type twins a program has.
pub struct Floats {
    /// `f_gen` and `f_32`.
    pub typed: bool,
    /// `f_sl`, and how.
    pub sliced: Option<sliced::Slicing>,
}

/// The twins of `prog`.
pub fn floats(prog: &Program) -> Floats {
    let mut rng = Rng::new(prog.seed ^ 0x666c_6f61_7473);
    let typed = !calls(&prog.body, &prog.tail) && rng.chance(60);
    let sliced = sliced::choose(prog, &mut rng);
    Floats { typed, sliced }
}

/// Whether the body calls a function.
fn calls(body: &[Stmt], tail: &Expr) -> bool {
    let mut found = false;
    sliced::visit(body, tail, &mut |e| found |= matches!(e, Expr::Call(..)));
    found
}

/// The twins' functions, as the module defines them.
pub fn functions(prog: &Program) -> String {
    let f = floats(prog);
    let mut s = String::new();
    if f.typed {
        s += &function(prog, Flavor::Generic, "f_gen", None);
        s += &function(prog, Flavor::F32, "f_32", None);
    }
    if let Some(how) = &f.sliced {
        s += &sliced::function(prog, how);
    }
    s
}

/// A twin's functions as the glue calls them.
pub(super) struct Call<'a> {
    /// The function (`f_gen`), and the suffix of the glue's functions (`gen`).
    pub f: &'a str,
    pub tag: &'a str,
    /// Its scalar type, where the glue writes it.
    pub real: &'a str,
    pub load: &'a str,
    pub load_dirs: &'a str,
    pub args: &'a str,
    pub dirs: &'a str,
}

/// The glue functions of a scalar program's twin `c` (with `f_hessian` when `hessian`), and its
/// `Twin`.
fn scalar(c: &Call, n: usize, hessian: bool, s: &mut String) -> String {
    let Call { f, tag: t, real, load, load_dirs, args: a, dirs: d } = c;
    let _ = write!(
        s,
        "fn value_{t}(p: &Point) -> f64 {{\n{load}flat(&{f}({a}))[0]\n}}\n\
         fn grad_{t}(p: &Point) -> (f64, Vec<f64>) {{\n{load}let (y, g) = {f}_grad({a});\n(flat(&y)[0], flat(&g))\n}}\n\
         fn jvp_{t}(p: &Point, v: &[f64]) -> (f64, f64) {{\n{load}{load_dirs}let (y, t) = {f}_jvp({a}, {d});\n(flat(&y)[0], flat(&t)[0])\n}}\n\
         fn hvp_{t}(p: &Point, v: &[f64]) -> Hvp {{\n{load}{load_dirs}let (y, g, hv) = {f}_hvp({a}, {d});\n(flat(&y)[0], flat(&g), flat(&hv))\n}}\n"
    );
    let hessian = match hessian {
        false => "None".to_string(),
        true => {
            let _ = write!(
                s,
                "fn hessian_{t}(p: &Point) -> Vec<f64> {{\n{load}let h: [[{real}; {n}]; {n}] = {f}_hessian({a});\nflat(&h)\n}}\n"
            );
            format!("Some(hessian_{t})")
        }
    };
    format!(
        "Some(Twin::Scalar {{ value: value_{t}, grad: grad_{t}, jvp: jvp_{t}, hvp: hvp_{t}, hessian: {hessian} }})"
    )
}

/// The glue functions of a vector program's twin `c` with `m` outputs (of type `out_ty`), and
/// its `Twin`.
fn vector(c: &Call, (n, m): (usize, usize), out_ty: &str, s: &mut String) -> String {
    let Call { f, tag: t, real, load, load_dirs, args: a, dirs: d } = c;
    let _ = write!(
        s,
        "fn value_{t}(p: &Point) -> Vec<f64> {{\n{load}flat(&{f}({a}))\n}}\n\
         fn vjp_{t}(p: &Point, u: &[f64]) -> Values {{\n{load}let u: {out_ty} = unflat(u);\nlet (y, g) = {f}_vjp({a}, u);\n(flat(&y), flat(&g))\n}}\n\
         fn jvp_{t}(p: &Point, v: &[f64]) -> Values {{\n{load}{load_dirs}let (y, t) = {f}_jvp({a}, {d});\n(flat(&y), flat(&t))\n}}\n\
         fn jacobian_{t}(p: &Point) -> Values {{\n{load}let (y, j): ({out_ty}, [[{real}; {n}]; {m}]) = {f}_jacobian({a});\n(flat(&y), flat(&j))\n}}\n"
    );
    format!(
        "Some(Twin::Vector {{ value: value_{t}, vjp: vjp_{t}, jvp: jvp_{t}, jacobian: Some(jacobian_{t}) }})"
    )
}

/// The glue of one typed twin.
fn typed(prog: &Program, c: &Call, n: usize, s: &mut String) -> String {
    match (prog.output, prog.modes) {
        (Output::Scalar, Modes::Scalar { hessian }) => scalar(c, n, hessian, s),
        (Output::Array(m) | Output::Tuple(m), _) => vector(c, (n, m), &out(prog, c.real), s),
        (Output::Scalar, _) => vector(c, (n, 1), &out(prog, c.real), s),
    }
}

/// The output type over `real`.
fn out(prog: &Program, real: &str) -> String {
    let flavor = if real == "f32" { Flavor::F32 } else { Flavor::Macro };
    output_type(prog.output, flavor)
}

/// The glue functions of `prog`'s number-type twins (`g`: the program's own glue), and its
/// `Floats`.
pub fn glue(prog: &Program, g: &Glue, s: &mut String) -> String {
    let f = floats(prog);
    let active: Vec<_> = prog.params.iter().filter(|p| differentiated(p)).collect();
    let constant: Vec<_> = prog.params.iter().filter(|p| p.pass == Pass::Constant).collect();
    let (mut generic, mut generic32, mut single) = ("None".into(), "None".into(), "None".into());
    if f.typed {
        let mut text = alias("Active32", &active, Flavor::F32);
        if !constant.is_empty() {
            text += &alias("Constant32", &constant, Flavor::F32);
        }
        let load32 = bind(&active, "Active32", "unflat(p.x)", "")
            + &bind(&constant, "Constant32", "unflat(p.c)", "");
        let dirs32 = bind(&active, "Active32", "unflat(v)", "d");
        let (a, d) = (g.args.as_str(), g.dirs.as_str());
        let at64 = Call {
            f: "f_gen",
            tag: "gen",
            real: "f64",
            load: &g.load,
            load_dirs: &g.load_dirs,
            args: a,
            dirs: d,
        };
        let at32 = Call {
            f: "f_gen",
            tag: "gen32",
            real: "f32",
            load: &load32,
            load_dirs: &dirs32,
            args: a,
            dirs: d,
        };
        let single32 = Call { f: "f_32", tag: "f32", real: "f32", ..at32 };
        generic = typed(prog, &at64, g.n, &mut text);
        generic32 = typed(prog, &at32, g.n, &mut text);
        single = typed(prog, &single32, g.n, &mut text);
        // `glue` regroups a long signature's tuples (`emit.rs`).
        *s += &text;
    }
    let (sliced, vecs) = match &f.sliced {
        Some(how) => (sliced::glue(prog, how, g, s), how.vecs()),
        None => ("None".to_string(), false),
    };
    format!(
        "Floats {{ generic: {generic}, generic32: {generic32}, single: {single}, sliced: {sliced}, vecs: {vecs} }}"
    )
}
