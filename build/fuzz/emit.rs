//! The generated file: per program, a module with the functions it calls, the `#[grad]` function
//! `f` (and its checkpointed twin `f_ck`, its iterator form `f_it`), its hyper-dual twin
//! `f_dual`, its source text, and glue that calls them through flat slices, so that the test
//! (`tests/fuzz.rs`) checks every program the same way.

use std::collections::HashSet;
use std::fmt::Write;

use super::ast::{Body, Checkpoint, Def, Expr, Modes, Output, Param, Pass, Program, Stmt};
use super::manual;
use super::options;
use super::print::{Flavor, Printer, array_type, mutated, output_type, real};
use super::print_while;

pub(super) fn numel(p: &Param) -> usize {
    p.dims.iter().map(|d| d.n).product()
}

pub(super) fn differentiated(p: &Param) -> bool {
    matches!(p.pass, Pass::Value | Pass::Ref)
}

pub(super) fn param_type(p: &Param, flavor: Flavor) -> String {
    let t = array_type(real(flavor), &p.dims);
    match p.pass {
        Pass::Data => "&[f64]".to_string(),
        Pass::Steps => "usize".to_string(),
        Pass::Ref => format!("&{t}"),
        Pass::Constant if !p.dims.is_empty() => format!("&{t}"),
        _ => t,
    }
}

/// The function `name` of `prog` in `flavor`, with the attribute for the macro (and
/// `checkpoint` in it if given).
pub(super) fn function(
    prog: &Program,
    flavor: Flavor,
    name: &str,
    checkpoint: Option<Checkpoint>,
) -> String {
    written(prog, flavor, name, checkpoint, (&prog.body, &prog.tail))
}

/// The iterator form `f_it` of `prog`, if it has one.
fn iterated(prog: &Program) -> Option<String> {
    let Body { stmts, tail, .. } = prog.idiomatic.as_ref()?;
    Some(written(prog, Flavor::Macro, "f_it", None, (stmts, tail)))
}

/// [`function`] with the body `body` in place of the program's.
fn written(
    prog: &Program,
    flavor: Flavor,
    name: &str,
    checkpoint: Option<Checkpoint>,
    body: (&[Stmt], &Expr),
) -> String {
    attributed(prog, flavor, name, checkpoint, body, None)
}

/// The options twin `f_opt` of `prog`, if it has one.
fn optioned(prog: &Program) -> Option<String> {
    let o = options::opts(prog)?;
    let body = (prog.body.as_slice(), &prog.tail);
    Some(attributed(prog, Flavor::Macro, "f_opt", None, body, Some(&o.attr)))
}

/// [`written`] under the options `attr` in place of the program's, if given.
pub(super) fn attributed(
    prog: &Program,
    flavor: Flavor,
    name: &str,
    checkpoint: Option<Checkpoint>,
    body: (&[Stmt], &Expr),
    attr: Option<&[String]>,
) -> String {
    printed(prog, (flavor, name, checkpoint), body, attr, &mut |p, ss| p.stmts(ss, 1))
}

/// The loop-exit twin `f_wh` of `prog` (`print_while.rs`), if it has one.
fn exited(prog: &Program) -> Option<String> {
    let ex = print_while::exits(prog)?;
    let head = (Flavor::Macro, "f_wh", ex.checkpoint);
    let body = (prog.body.as_slice(), &prog.tail);
    Some(printed(prog, head, body, None, &mut |p, ss| print_while::print(p, prog.seed, ss)))
}

/// [`attributed`] with the body's statements printed by `stmts`.
fn printed(
    prog: &Program,
    head: (Flavor, &str, Option<Checkpoint>),
    body: (&[Stmt], &Expr),
    attr: Option<&[String]>,
    stmts: &mut dyn FnMut(&mut Printer, &[Stmt]),
) -> String {
    printed_as(prog, head, body, attr, stmts, &param_type)
}

/// The options naming the modes `modes` asks for (`jvp, hvp`, `hessian`, `jacobian(mode)`),
/// which every twin's attribute repeats.
pub(super) fn mode_options(modes: Modes) -> Vec<String> {
    match modes {
        Modes::Scalar { hessian } if hessian => vec!["jvp, hvp".into(), "hessian".into()],
        Modes::Scalar { .. } => vec!["jvp, hvp".into()],
        Modes::Vector { forced } => vec![
            "jvp".into(),
            match forced {
                Some(mode) => format!("jacobian({mode})"),
                None => "jacobian".into(),
            },
        ],
    }
}

/// The options of `f`'s attribute (with `checkpoint` in it if given).
pub(super) fn options(prog: &Program, checkpoint: Option<Checkpoint>) -> Vec<String> {
    let mut opts = Vec::new();
    if prog.wrt {
        let names: Vec<&str> =
            prog.params.iter().filter(|p| differentiated(p)).map(|p| p.name.as_str()).collect();
        opts.push(format!("wrt({})", names.join(", ")));
    }
    opts.extend(mode_options(prog.modes));
    match checkpoint.map(|c| c.snapshots) {
        Some(Some(s)) => opts.push(format!("checkpoint(s = {s})")),
        Some(None) => opts.push("checkpoint".into()),
        None => {}
    }
    opts
}

/// [`printed`] with the parameters' types given by `types` (the slice twin's, `floats.rs`).
pub(super) fn printed_as(
    prog: &Program,
    (flavor, name, checkpoint): (Flavor, &str, Option<Checkpoint>),
    body: (&[Stmt], &Expr),
    attr: Option<&[String]>,
    stmts: &mut dyn FnMut(&mut Printer, &[Stmt]),
    types: &dyn Fn(&Param, Flavor) -> String,
) -> String {
    let mut set = HashSet::new();
    mutated(body.0, &mut set);
    let mut p = Printer::new(flavor, set);
    if let Some(attr) = attr {
        let _ = match attr.is_empty() {
            true => writeln!(p.out, "#[grad]"),
            false => writeln!(p.out, "#[grad({})]", attr.join(", ")),
        };
    } else if flavor != Flavor::Dual {
        let _ = writeln!(p.out, "#[grad({})]", options(prog, checkpoint).join(", "));
    }
    // The loops index arrays by their variable, as numeric code under `#[grad]` must (the corpus
    // allows it too): no iterators, no `copy_from_slice`. Two sides of a branch may come out the
    // same but for their local names (`let s3 = 0.0; s1 += s3;`): the user's lint, which
    // `#[grad]` carries to the derivatives, whose sweeps mirror the branch. The slice twin takes
    // `&Vec<f64>` on purpose (`ptr_arg`).
    let _ = writeln!(
        p.out,
        "#[allow(clippy::needless_range_loop, clippy::manual_memcpy, clippy::if_same_then_else, clippy::too_many_arguments, clippy::neg_cmp_op_on_partial_ord, clippy::ptr_arg)]"
    );
    let params: Vec<String> =
        prog.params.iter().map(|q| format!("{}: {}", q.name, types(q, flavor))).collect();
    let generics = if flavor == Flavor::Generic { "<T: Float>" } else { "" };
    let _ = writeln!(
        p.out,
        "pub fn {name}{generics}({}) -> {} {{",
        params.join(", "),
        output_type(prog.output, flavor)
    );
    stmts(&mut p, body.0);
    p.depth = 1;
    let tail = p.expr(body.1, 0);
    let _ = writeln!(p.out, "    {tail}\n}}");
    let consts: Vec<String> = prog.consts.iter().map(|(c, _)| c.clone()).collect();
    prog.vary.apply(&p.out, name, &consts)
}

/// Whether `text` calls `name`.
fn calls(text: &str, name: &str) -> bool {
    let call = format!("{name}(");
    text.match_indices(&call)
        .any(|(at, _)| !text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// The callees that `f` calls, directly or not, in order: each as the macro's function (or the
/// hand-written ones) and as its hyper-dual twin.
fn callees(prog: &Program) -> Vec<(String, String)> {
    let mut text = function(prog, Flavor::Macro, "f", None);
    let mut out = Vec::new();
    for c in prog.callees.iter().rev() {
        if !calls(&text, &c.name) {
            continue;
        }
        let pair = match &c.def {
            Def::Grad(g) => (
                function(g, Flavor::Macro, &c.name, None),
                function(g, Flavor::Dual, &format!("{}_dual", c.name), None),
            ),
            Def::Manual(formula) => {
                (manual::plain(&c.name, *formula), manual::dual(&c.name, *formula))
            }
        };
        text += &pair.0;
        out.push(pair);
    }
    out.reverse();
    out
}

/// The callees and `f` as the macro sees them, a line on the checkpointed twin, and the
/// iterator form.
fn functions(prog: &Program) -> String {
    let mut s: String = callees(prog).into_iter().map(|(text, _)| text).collect();
    s += &function(prog, Flavor::Macro, "f", None);
    if let Some(ck) = prog.checkpoint {
        let attr = function(prog, Flavor::Macro, "f_ck", Some(ck));
        let _ = writeln!(s, "// and `f_ck`, the same under {}", attr.lines().next().unwrap_or(""));
    }
    if let Some(text) = iterated(prog) {
        s += &text;
    }
    if let Some(text) = optioned(prog) {
        s += &text;
    }
    if let Some(text) = exited(prog) {
        s += &text;
    }
    s += &twins(prog);
    s + &super::floats::functions(prog)
}

/// The twins written in files of their own: the struct twin `f_st`, the array-of-structs twin
/// `f_ao`, the call twin `f_call` and the fusion twin `f_nf`.
fn twins(prog: &Program) -> String {
    super::structs::twin(prog).unwrap_or_default()
        + &super::arrays::twin(prog).unwrap_or_default()
        + &super::calls::twin(prog).unwrap_or_default()
        + &super::unfused::twin(prog).unwrap_or_default()
}

/// The `const` items the program reads (the generator may have named a length it then did not
/// use).
fn consts(prog: &Program) -> String {
    let text = functions(prog);
    let words: HashSet<&str> = text.split(|c: char| !c.is_alphanumeric() && c != '_').collect();
    let mut s = String::new();
    for (name, n) in prog.consts.iter().filter(|(name, _)| words.contains(name.as_str())) {
        let _ = writeln!(s, "const {name}: usize = {n};");
    }
    s
}

/// The program as a failure report shows it: its `const` items and `functions`.
pub fn source(prog: &Program) -> String {
    consts(prog) + &functions(prog)
}

/// `(a, b,)`, or past 12 parts (the most the tuple traits of the test take), nested in tuples of
/// at most 12: `((a0, .., a11,), (a12, ..,),)`.
pub(super) fn nest(parts: &[String]) -> String {
    if parts.len() <= 12 {
        return format!("({},)", parts.join(", "));
    }
    let chunks: Vec<String> = parts.chunks(12).map(nest).collect();
    format!("({},)", chunks.join(", "))
}

/// `type name = (A, B);` for the parameters `ps` (a type alias keeps clippy's
/// `type_complexity` quiet in the glue).
pub(super) fn alias(name: &str, ps: &[&Param], flavor: Flavor) -> String {
    let types: Vec<String> = ps.iter().map(|p| array_type(real(flavor), &p.dims)).collect();
    format!("type {name} = {};\n", nest(&types))
}

/// `let (a, b): Alias = how(slice);` for the parameters `ps`, or nothing if there are none.
pub(super) fn bind(ps: &[&Param], alias: &str, how: &str, prefix: &str) -> String {
    if ps.is_empty() {
        return String::new();
    }
    let names: Vec<String> = ps.iter().map(|p| format!("{prefix}{}", p.name)).collect();
    format!("let {}: {alias} = {how};\n", nest(&names))
}

/// The glue's text with the derivatives `g` and `hv` (tuples of `count` parts) regrouped as
/// [`nest`] groups the parameters, when there are more than 12.
pub(super) fn regroup(text: String, count: usize) -> String {
    if count <= 12 {
        return text;
    }
    let parts = |v: &str| nest(&(0..count).map(|k| format!("{v}.{k}")).collect::<Vec<_>>());
    text.replace("flat(&g)", &format!("flat(&{})", parts("g")))
        .replace("flat(&hv)", &format!("flat(&{})", parts("hv")))
}

/// The arguments of a call of `f` (or `f_dual`): references where the parameter is one.
pub(super) fn args(prog: &Program) -> Vec<String> {
    prog.params
        .iter()
        .map(|p| match p.pass {
            Pass::Data => "p.data".to_string(),
            Pass::Steps => "p.steps".to_string(),
            Pass::Ref => format!("&{}", p.name),
            Pass::Constant if !p.dims.is_empty() => format!("&{}", p.name),
            _ => p.name.clone(),
        })
        .collect()
}

/// The direction arguments: one per differentiated parameter, after the others.
pub(super) fn dirs(prog: &Program) -> Vec<String> {
    prog.params
        .iter()
        .filter(|p| differentiated(p))
        .map(|p| match p.pass {
            Pass::Ref => format!("&d{}", p.name),
            _ => format!("d{}", p.name),
        })
        .collect()
}

/// The bindings that start every glue function, and the arguments of `f` and its directions.
pub(super) struct Glue {
    /// The parameters from a `p: &Point`; over hyper-dual numbers seeded with `v` and `w`; the
    /// directions `d..` from `v`.
    pub(super) load: String,
    pub(super) load_dual: String,
    pub(super) load_dirs: String,
    pub(super) args: String,
    pub(super) dirs: String,
    /// How many differentiated scalars: the Hessian's and the Jacobian's sizes, written out (a
    /// const generic `f` takes them from the result's type).
    pub(super) n: usize,
}

/// The glue functions of a scalar program (`hessian`: it has `f_hessian`), and its `Fns`.
fn scalar_glue(prog: &Program, g: &Glue, hessian: bool, s: &mut String) -> String {
    let Glue { load, load_dual, load_dirs, args: a, dirs: d, n } = g;
    let _ = write!(
        s,
        "fn value(p: &Point) -> f64 {{\n{load}f({a})\n}}\n\
         fn grad(p: &Point) -> (f64, Vec<f64>) {{\n{load}let (y, g) = f_grad({a});\n(y, flat(&g))\n}}\n\
         fn jvp(p: &Point, v: &[f64]) -> (f64, f64) {{\n{load}{load_dirs}f_jvp({a}, {d})\n}}\n\
         fn hvp(p: &Point, v: &[f64]) -> Hvp {{\n{load}{load_dirs}let (y, g, hv) = f_hvp({a}, {d});\n(y, flat(&g), flat(&hv))\n}}\n\
         fn dual(p: &Point, v: &[f64], w: &[f64]) -> Hd {{\n{load_dual}f_dual({a})\n}}\n"
    );
    let hessian = if hessian {
        let _ = write!(
            s,
            "fn hessian(p: &Point) -> Vec<f64> {{\n{load}let h: [[f64; {n}]; {n}] = f_hessian({a});\nflat(&h)\n}}\n"
        );
        "Some(hessian)"
    } else {
        "None"
    };
    let checkpointed = if prog.checkpoint.is_some() {
        let _ = write!(
            s,
            "fn grad_ck(p: &Point) -> (f64, Vec<f64>) {{\n{load}let (y, g) = f_ck_grad({a});\n(y, flat(&g))\n}}\n\
             fn hvp_ck(p: &Point, v: &[f64]) -> Hvp {{\n{load}{load_dirs}let (y, g, hv) = f_ck_hvp({a}, {d});\n(y, flat(&g), flat(&hv))\n}}\n"
        );
        "Some(Checkpointed { grad: grad_ck, hvp: hvp_ck })"
    } else {
        "None"
    };
    let iterated = if prog.idiomatic.is_some() {
        let _ = write!(
            s,
            "fn value_it(p: &Point) -> f64 {{\n{load}f_it({a})\n}}\n\
             fn grad_it(p: &Point) -> (f64, Vec<f64>) {{\n{load}let (y, g) = f_it_grad({a});\n(y, flat(&g))\n}}\n\
             fn jvp_it(p: &Point, v: &[f64]) -> (f64, f64) {{\n{load}{load_dirs}f_it_jvp({a}, {d})\n}}\n\
             fn hvp_it(p: &Point, v: &[f64]) -> Hvp {{\n{load}{load_dirs}let (y, g, hv) = f_it_hvp({a}, {d});\n(y, flat(&g), flat(&hv))\n}}\n"
        );
        let hessian = if hessian == "None" {
            "None"
        } else {
            let _ = write!(
                s,
                "fn hessian_it(p: &Point) -> Vec<f64> {{\n{load}let h: [[f64; {n}]; {n}] = f_it_hessian({a});\nflat(&h)\n}}\n"
            );
            "Some(hessian_it)"
        };
        let exact = prog.idiomatic.as_ref().is_some_and(|b| b.exact);
        format!(
            "Some(Iterated {{ value: value_it, grad: grad_it, jvp: jvp_it, hvp: hvp_it, hessian: {hessian}, exact: {exact} }})"
        )
    } else {
        "None".to_string()
    };
    let optioned = scalar_optioned(prog, g, s);
    let exited = super::emit_while::scalar(prog, g, hessian != "None", s);
    let structed = super::emit_structs::scalar(prog, g, hessian != "None", s);
    let arrayed = super::arrays::scalar(prog, g, hessian != "None", s);
    let called = super::emit_calls::scalar(prog, g, hessian != "None", s);
    let unfused = super::unfused::scalar(prog, g, hessian != "None", s);
    format!(
        "Fns::Scalar {{ value, grad, jvp, hvp, hessian: {hessian}, dual, checkpointed: {checkpointed}, iterated: {iterated}, optioned: {optioned}, exited: {exited}, structed: {structed}, arrayed: {arrayed}, called: {called}, unfused: {unfused} }}"
    )
}

/// The glue functions of a program with `m` outputs, and its `Fns`.
fn vector_glue(prog: &Program, g: &Glue, m: usize, s: &mut String) -> String {
    let Glue { load, load_dual, load_dirs, args: a, dirs: d, n } = g;
    let spread = match prog.output {
        Output::Tuple(_) => {
            let xs: Vec<String> = (0..m).map(|k| format!("out.{k}")).collect();
            format!("vec![{}]", xs.join(", "))
        }
        _ => "out.to_vec()".to_string(),
    };
    let out_ty = output_type(prog.output, Flavor::Macro);
    let _ = write!(
        s,
        "fn value(p: &Point) -> Vec<f64> {{\n{load}flat(&f({a}))\n}}\n\
         fn vjp(p: &Point, u: &[f64]) -> Values {{\n{load}let u: {out_ty} = unflat(u);\nlet (y, g) = f_vjp({a}, u);\n(flat(&y), flat(&g))\n}}\n\
         fn jvp(p: &Point, v: &[f64]) -> Values {{\n{load}{load_dirs}let (y, t) = f_jvp({a}, {d});\n(flat(&y), flat(&t))\n}}\n\
         fn jacobian(p: &Point) -> Values {{\n{load}let (y, j): ({out_ty}, [[f64; {n}]; {m}]) = f_jacobian({a});\n(flat(&y), flat(&j))\n}}\n\
         fn dual(p: &Point, v: &[f64], w: &[f64]) -> Vec<Hd> {{\n{load_dual}let out = f_dual({a});\n{spread}\n}}\n"
    );
    let checkpointed = if prog.checkpoint.is_some() {
        let _ = write!(
            s,
            "fn vjp_ck(p: &Point, u: &[f64]) -> Values {{\n{load}let u: {out_ty} = unflat(u);\nlet (y, g) = f_ck_vjp({a}, u);\n(flat(&y), flat(&g))\n}}\n"
        );
        "Some(vjp_ck)"
    } else {
        "None"
    };
    let forced = match prog.modes {
        Modes::Vector { forced: Some(mode) } => format!("Some({mode:?})"),
        _ => "None".to_string(),
    };
    let iterated = if prog.idiomatic.is_some() {
        let _ = write!(
            s,
            "fn value_it(p: &Point) -> Vec<f64> {{\n{load}flat(&f_it({a}))\n}}\n\
             fn vjp_it(p: &Point, u: &[f64]) -> Values {{\n{load}let u: {out_ty} = unflat(u);\nlet (y, g) = f_it_vjp({a}, u);\n(flat(&y), flat(&g))\n}}\n\
             fn jvp_it(p: &Point, v: &[f64]) -> Values {{\n{load}{load_dirs}let (y, t) = f_it_jvp({a}, {d});\n(flat(&y), flat(&t))\n}}\n\
             fn jacobian_it(p: &Point) -> Values {{\n{load}let (y, j): ({out_ty}, [[f64; {n}]; {m}]) = f_it_jacobian({a});\n(flat(&y), flat(&j))\n}}\n"
        );
        let exact = prog.idiomatic.as_ref().is_some_and(|b| b.exact);
        format!(
            "Some(IteratedVector {{ value: value_it, vjp: vjp_it, jvp: jvp_it, jacobian: jacobian_it, exact: {exact} }})"
        )
    } else {
        "None".to_string()
    };
    let optioned = vector_optioned(prog, g, m, s);
    let exited = super::emit_while::vector(prog, g, m, s);
    let structed = super::emit_structs::vector(prog, g, m, s);
    let arrayed = super::arrays::vector(prog, g, m, s);
    let called = super::emit_calls::vector(prog, g, m, s);
    let unfused = super::unfused::vector(prog, g, m, s);
    format!(
        "Fns::Vector {{ value, vjp, jvp, jacobian, mode: {mode}, forced: {forced}, dual, checkpointed: {checkpointed}, iterated: {iterated}, optioned: {optioned}, exited: {exited}, structed: {structed}, arrayed: {arrayed}, called: {called}, unfused: {unfused} }}",
        mode = mode_fn(prog, "f", &function(prog, Flavor::Macro, "f", None)),
    )
}

/// `name_jacobian_mode` as a value, its const generic parameters given (`f_jacobian_mode::<3>`)
/// when `name`, printed as `text`, has some: it has no argument to infer them from.
fn mode_fn(prog: &Program, name: &str, text: &str) -> String {
    let head = format!("pub fn {name}<");
    let generics = text.find(&head).and_then(|at| {
        let rest = &text[at + head.len()..];
        rest.find(">(").map(|end| &rest[..end])
    });
    let values: Vec<String> = generics
        .unwrap_or("")
        .split(", ")
        .filter_map(|g| g.strip_prefix("const ")?.split(':').next())
        .filter_map(|c| prog.consts.iter().find(|(n, _)| n == c).map(|(_, v)| v.to_string()))
        .collect();
    match values.is_empty() {
        true => format!("{name}_jacobian_mode"),
        false => format!("{name}_jacobian_mode::<{}>", values.join(", ")),
    }
}

/// `Some(f)` if `has`, else `None`.
fn maybe(has: bool, f: &str) -> String {
    if has { format!("Some({f})") } else { "None".to_string() }
}

/// The glue functions of a scalar program's options twin, and its `Optioned`.
fn scalar_optioned(prog: &Program, g: &Glue, s: &mut String) -> String {
    let Some(o) = options::opts(prog) else { return "None".to_string() };
    let Glue { load, load_dirs, args: a, dirs: d, n, .. } = g;
    let _ = write!(
        s,
        "fn grad_opt(p: &Point) -> (f64, Vec<f64>) {{\n{load}let (y, g) = f_opt_grad({a});\n(y, flat(&g))\n}}\n"
    );
    if o.jvp {
        let _ = write!(
            s,
            "fn jvp_opt(p: &Point, v: &[f64]) -> (f64, f64) {{\n{load}{load_dirs}f_opt_jvp({a}, {d})\n}}\n"
        );
    }
    if o.hvp {
        let _ = write!(
            s,
            "fn hvp_opt(p: &Point, v: &[f64]) -> Hvp {{\n{load}{load_dirs}let (y, g, hv) = f_opt_hvp({a}, {d});\n(y, flat(&g), flat(&hv))\n}}\n"
        );
    }
    if o.hessian {
        let _ = write!(
            s,
            "fn hessian_opt(p: &Point) -> Vec<f64> {{\n{load}let h: [[f64; {n}]; {n}] = f_opt_hessian({a});\nflat(&h)\n}}\n"
        );
    }
    format!(
        "Some(Optioned {{ options: {:?}, grad: grad_opt, jvp: {}, hvp: {}, hessian: {} }})",
        o.attr.join(", "),
        maybe(o.jvp, "jvp_opt"),
        maybe(o.hvp, "hvp_opt"),
        maybe(o.hessian, "hessian_opt")
    )
}

/// The glue functions of a vector program's options twin, and its `OptionedVector`.
fn vector_optioned(prog: &Program, g: &Glue, m: usize, s: &mut String) -> String {
    let Some(o) = options::opts(prog) else { return "None".to_string() };
    let Glue { load, load_dirs, args: a, dirs: d, n, .. } = g;
    let out_ty = output_type(prog.output, Flavor::Macro);
    let _ = write!(
        s,
        "fn vjp_opt(p: &Point, u: &[f64]) -> Values {{\n{load}let u: {out_ty} = unflat(u);\nlet (y, g) = f_opt_vjp({a}, u);\n(flat(&y), flat(&g))\n}}\n"
    );
    if o.jvp {
        let _ = write!(
            s,
            "fn jvp_opt(p: &Point, v: &[f64]) -> Values {{\n{load}{load_dirs}let (y, t) = f_opt_jvp({a}, {d});\n(flat(&y), flat(&t))\n}}\n"
        );
    }
    if o.jacobian.is_some() {
        let _ = write!(
            s,
            "fn jacobian_opt(p: &Point) -> Values {{\n{load}let (y, j): ({out_ty}, [[f64; {n}]; {m}]) = f_opt_jacobian({a});\n(flat(&y), flat(&j))\n}}\n"
        );
    }
    let forced = match o.jacobian {
        // Row by row is reverse mode, column by column forward mode.
        Some(Some("row_by_row")) => format!("Some({:?})", "reverse"),
        Some(Some("column_by_column")) => format!("Some({:?})", "forward"),
        Some(Some(mode)) => format!("Some({mode:?})"),
        _ => "None".to_string(),
    };
    format!(
        "Some(OptionedVector {{ options: {:?}, vjp: vjp_opt, jvp: {}, jacobian: {}, mode: {}, forced: {forced} }})",
        o.attr.join(", "),
        maybe(o.jvp, "jvp_opt"),
        maybe(o.jacobian.is_some(), "jacobian_opt"),
        maybe(o.jacobian.is_some(), &mode_fn(prog, "f_opt", &optioned(prog).unwrap_or_default())),
    )
}

/// The glue functions and `program()`.
fn glue(prog: &Program) -> String {
    let active: Vec<&Param> = prog.params.iter().filter(|p| differentiated(p)).collect();
    let constant: Vec<&Param> = prog.params.iter().filter(|p| p.pass == Pass::Constant).collect();
    let g = Glue {
        load: bind(&active, "Active", "unflat(p.x)", "")
            + &bind(&constant, "Constant", "unflat(p.c)", ""),
        load_dual: bind(&active, "ActiveHd", "seed(p.x, v, w)", "")
            + &bind(&constant, "ConstantHd", "constant(p.c)", ""),
        load_dirs: bind(&active, "Active", "unflat(v)", "d"),
        args: args(prog).join(", "),
        dirs: dirs(prog).join(", "),
        n: active.iter().map(|p| numel(p)).sum(),
    };
    let n = g.n;
    let nc: usize = constant.iter().map(|p| numel(p)).sum();
    let has = |pass| prog.params.iter().any(|p| p.pass == pass);
    let (data, steps) = (has(Pass::Data), has(Pass::Steps));
    let mut s = alias("Active", &active, Flavor::Macro) + &alias("ActiveHd", &active, Flavor::Dual);
    if !constant.is_empty() {
        s += &(alias("Constant", &constant, Flavor::Macro)
            + &alias("ConstantHd", &constant, Flavor::Dual));
    }
    let mut functions = String::new();
    let (m, fns) = match (prog.output, prog.modes) {
        (Output::Scalar, Modes::Scalar { hessian }) => {
            (1, scalar_glue(prog, &g, hessian, &mut functions))
        }
        (Output::Array(m) | Output::Tuple(m), _) => (m, vector_glue(prog, &g, m, &mut functions)),
        (Output::Scalar, _) => (1, vector_glue(prog, &g, 1, &mut functions)),
    };
    let floats = super::floats::glue(prog, &g, &mut functions);
    s += &regroup(functions, active.len());
    let _ = write!(
        s,
        "pub fn program() -> Program {{\nProgram {{ seed: {}, source: SOURCE, n: {n}, nc: {nc}, m: {m}, data: {data}, steps: {steps}, fns: {fns}, floats: {floats} }}\n}}\n",
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
    for (text, dual) in callees(prog) {
        s += &text;
        s += &dual;
    }
    s += &function(prog, Flavor::Macro, "f", None);
    if let Some(ck) = prog.checkpoint {
        s += &function(prog, Flavor::Macro, "f_ck", Some(ck));
    }
    if let Some(text) = iterated(prog) {
        s += &text;
    }
    if let Some(text) = optioned(prog) {
        s += &text;
    }
    if let Some(text) = exited(prog) {
        s += &text;
    }
    s += &twins(prog);
    s += &super::floats::functions(prog);
    s += &function(prog, Flavor::Dual, "f_dual", None);
    s += &glue(prog);
    super::vary::rename_consts(&prog.vary, &s, &prog.consts) + "}\n"
}
