//! The generated file: per program, a module with the `#[grad]` function `f`, its hyper-dual
//! twin `f_dual`, its source text, and glue that calls both through flat slices, so that the
//! test (`tests/fuzz.rs`) checks every program the same way.

use std::collections::HashSet;
use std::fmt::Write;

use super::ast::{Modes, Output, Param, Pass, Program};
use super::print::{Flavor, Printer, array_type, mutated, output_type, real};

/// Clippy lints that the macro's expansion trips (macro bug 8 of `tests/fuzz_found.rs`),
/// allowed on the programs while the generator dodges known bugs.
const MACRO_LINTS: &str = "clippy::self_assignment, clippy::misrefactored_assign_op, \
    clippy::assign_op_pattern, clippy::let_and_return, clippy::type_complexity, \
    clippy::neg_multiply";

fn numel(p: &Param) -> usize {
    p.dims.iter().map(|d| d.n).product()
}

fn differentiated(p: &Param) -> bool {
    matches!(p.pass, Pass::Value | Pass::Ref)
}

fn param_type(p: &Param, flavor: Flavor) -> String {
    let t = array_type(real(flavor), &p.dims);
    match p.pass {
        Pass::Data => "&[f64]".to_string(),
        Pass::Ref => format!("&{t}"),
        Pass::Constant if !p.dims.is_empty() => format!("&{t}"),
        _ => t,
    }
}

/// The function `name` of `prog` in `flavor`, with the attribute for the macro.
fn function(prog: &Program, flavor: Flavor, name: &str) -> String {
    let mut set = HashSet::new();
    mutated(&prog.body, &mut set);
    let mut p = Printer::new(flavor, set);
    if flavor == Flavor::Macro {
        let mut opts = Vec::new();
        if prog.wrt {
            let names: Vec<&str> =
                prog.params.iter().filter(|p| differentiated(p)).map(|p| p.name.as_str()).collect();
            opts.push(format!("wrt({})", names.join(", ")));
        }
        match prog.modes {
            Modes::Scalar { hessian } => {
                opts.push("jvp, hvp".into());
                if hessian {
                    opts.push("hessian".into());
                }
            }
            Modes::Vector { forced } => {
                opts.push("jvp".into());
                opts.push(match forced {
                    Some(mode) => format!("jacobian({mode})"),
                    None => "jacobian".into(),
                });
            }
        }
        let _ = writeln!(p.out, "#[grad({})]", opts.join(", "));
        if prog.dodge {
            // Lints that fire in the macro's expansion, not in `f` (`tests/fuzz_found.rs`).
            let _ = writeln!(p.out, "#[allow({MACRO_LINTS})]");
        }
    }
    // The loops index arrays by their variable, as numeric code under `#[grad]` must (the corpus
    // allows it too): no iterators, no `copy_from_slice`.
    let _ = writeln!(p.out, "#[allow(clippy::needless_range_loop, clippy::manual_memcpy)]");
    let params: Vec<String> =
        prog.params.iter().map(|q| format!("{}: {}", q.name, param_type(q, flavor))).collect();
    let _ = writeln!(
        p.out,
        "pub fn {name}({}) -> {} {{",
        params.join(", "),
        output_type(prog.output, flavor)
    );
    p.stmts(&prog.body, 1);
    let tail = p.expr(&prog.tail, 0);
    let _ = writeln!(p.out, "    {tail}\n}}");
    p.out
}

/// The `const` items the program reads (the generator may have named a length it then did not
/// use).
fn consts(prog: &Program) -> String {
    let text = function(prog, Flavor::Macro, "f");
    let words: HashSet<&str> = text.split(|c: char| !c.is_alphanumeric() && c != '_').collect();
    let mut s = String::new();
    for (name, n) in prog.consts.iter().filter(|(name, _)| words.contains(name.as_str())) {
        let _ = writeln!(s, "const {name}: usize = {n};");
    }
    s
}

/// The `const` items and the macro's function: what a failure report shows.
pub fn source(prog: &Program) -> String {
    consts(prog) + &function(prog, Flavor::Macro, "f")
}

/// `type name = (A, B);` for the parameters `ps` (a type alias keeps clippy's
/// `type_complexity` quiet in the glue).
fn alias(name: &str, ps: &[&Param], flavor: Flavor) -> String {
    let types: Vec<String> = ps.iter().map(|p| array_type(real(flavor), &p.dims)).collect();
    format!("type {name} = ({},);\n", types.join(", "))
}

/// `let (a, b): Alias = how(slice);` for the parameters `ps`, or nothing if there are none.
fn bind(ps: &[&Param], alias: &str, how: &str, prefix: &str) -> String {
    if ps.is_empty() {
        return String::new();
    }
    let names: Vec<String> = ps.iter().map(|p| format!("{prefix}{}", p.name)).collect();
    format!("let ({},): {alias} = {how};\n", names.join(", "))
}

/// The arguments of a call of `f` (or `f_dual`): references where the parameter is one.
fn args(prog: &Program) -> Vec<String> {
    prog.params
        .iter()
        .map(|p| match p.pass {
            Pass::Data => "p.data".to_string(),
            Pass::Ref => format!("&{}", p.name),
            Pass::Constant if !p.dims.is_empty() => format!("&{}", p.name),
            _ => p.name.clone(),
        })
        .collect()
}

/// The direction arguments: one per differentiated parameter, after the others.
fn dirs(prog: &Program) -> Vec<String> {
    prog.params
        .iter()
        .filter(|p| differentiated(p))
        .map(|p| match p.pass {
            Pass::Ref => format!("&d{}", p.name),
            _ => format!("d{}", p.name),
        })
        .collect()
}

/// The glue functions and `program()`.
fn glue(prog: &Program) -> String {
    let active: Vec<&Param> = prog.params.iter().filter(|p| differentiated(p)).collect();
    let constant: Vec<&Param> = prog.params.iter().filter(|p| p.pass == Pass::Constant).collect();
    let load = bind(&active, "Active", "unflat(p.x)", "")
        + &bind(&constant, "Constant", "unflat(p.c)", "");
    let load_dual = bind(&active, "ActiveHd", "seed(p.x, v, w)", "")
        + &bind(&constant, "ConstantHd", "constant(p.c)", "");
    let load_dirs = bind(&active, "Active", "unflat(v)", "d");
    let a = args(prog).join(", ");
    let d = dirs(prog).join(", ");
    let n: usize = active.iter().map(|p| numel(p)).sum();
    let nc: usize = constant.iter().map(|p| numel(p)).sum();
    let has_data = prog.params.iter().any(|p| p.pass == Pass::Data);
    let mut s = alias("Active", &active, Flavor::Macro) + &alias("ActiveHd", &active, Flavor::Dual);
    if !constant.is_empty() {
        s += &(alias("Constant", &constant, Flavor::Macro)
            + &alias("ConstantHd", &constant, Flavor::Dual));
    }
    let (m, fns) = match (prog.output, prog.modes) {
        (Output::Scalar, Modes::Scalar { hessian }) => {
            let _ = write!(
                s,
                "fn value(p: &Point) -> f64 {{\n{load}f({a})\n}}\n\
                 fn grad(p: &Point) -> (f64, Vec<f64>) {{\n{load}let (y, g) = f_grad({a});\n(y, flat(&g))\n}}\n\
                 fn jvp(p: &Point, v: &[f64]) -> (f64, f64) {{\n{load}{load_dirs}f_jvp({a}, {d})\n}}\n\
                 fn hvp(p: &Point, v: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {{\n{load}{load_dirs}let (y, g, hv) = f_hvp({a}, {d});\n(y, flat(&g), flat(&hv))\n}}\n\
                 fn dual(p: &Point, v: &[f64], w: &[f64]) -> Hd {{\n{load_dual}f_dual({a})\n}}\n"
            );
            let hessian = if hessian {
                let _ = write!(
                    s,
                    "fn hessian(p: &Point) -> Vec<f64> {{\n{load}flat(&f_hessian({a}))\n}}\n"
                );
                "Some(hessian)"
            } else {
                "None"
            };
            (1, format!("Fns::Scalar {{ value, grad, jvp, hvp, hessian: {hessian}, dual }}"))
        }
        (output, _) => {
            let (m, spread) = match output {
                Output::Array(m) => (m, "out.to_vec()".to_string()),
                Output::Tuple(m) => {
                    let xs: Vec<String> = (0..m).map(|k| format!("out.{k}")).collect();
                    (m, format!("vec![{}]", xs.join(", ")))
                }
                Output::Scalar => (1, "vec![out]".to_string()),
            };
            let out_ty = output_type(output, Flavor::Macro);
            let _ = write!(
                s,
                "fn value(p: &Point) -> Vec<f64> {{\n{load}flat(&f({a}))\n}}\n\
                 fn vjp(p: &Point, u: &[f64]) -> (Vec<f64>, Vec<f64>) {{\n{load}let u: {out_ty} = unflat(u);\nlet (y, g) = f_vjp({a}, u);\n(flat(&y), flat(&g))\n}}\n\
                 fn jvp(p: &Point, v: &[f64]) -> (Vec<f64>, Vec<f64>) {{\n{load}{load_dirs}let (y, t) = f_jvp({a}, {d});\n(flat(&y), flat(&t))\n}}\n\
                 fn jacobian(p: &Point) -> (Vec<f64>, Vec<f64>) {{\n{load}let (y, j) = f_jacobian({a});\n(flat(&y), flat(&j))\n}}\n\
                 fn dual(p: &Point, v: &[f64], w: &[f64]) -> Vec<Hd> {{\n{load_dual}let out = f_dual({a});\n{spread}\n}}\n"
            );
            let forced = match prog.modes {
                Modes::Vector { forced: Some(mode) } => format!("Some({mode:?})"),
                _ => "None".to_string(),
            };
            (
                m,
                format!(
                    "Fns::Vector {{ value, vjp, jvp, jacobian, mode: f_jacobian_mode, forced: {forced}, dual }}"
                ),
            )
        }
    };
    let _ = write!(
        s,
        "pub fn program() -> Program {{\nProgram {{ seed: {}, source: SOURCE, n: {n}, nc: {nc}, m: {m}, data: {has_data}, fns: {fns} }}\n}}\n",
        prog.seed
    );
    s
}

/// The module of program `k`.
pub fn module(k: usize, prog: &Program) -> String {
    let mut s =
        format!("/// Program {k}, from seed {}.\npub mod p{k} {{\nuse super::*;\n", prog.seed);
    s += &consts(prog);
    let _ = writeln!(s, "pub const SOURCE: &str = {:?};", source(prog));
    s += &function(prog, Flavor::Macro, "f");
    s += &function(prog, Flavor::Dual, "f_dual");
    s += &glue(prog);
    s + "}\n"
}
