//! The slice twin `f_sl` (issue 16): the program with some of its differentiated array
//! parameters, `[f64; N]`, `&[f64; N]` or `[[f64; K]; M]`, taken as slices, `&[f64]` (a fifth of
//! the one-dimensional ones as `&Vec<f64>`) or `&[[f64; K]]`, named in `wrt(...)`; most `for`
//! loops whose bound is such a parameter's length (`0..N`, `i + 1..N`, `0..N - 1`) run to
//! `x.len()` instead, a trip count known only at run time (a loop that carries state is then
//! checkpointed). Its gradient and H·v go into the caller's buffers, which the glue fills with
//! NaN first (a buffer is overwritten). Its value and derivatives must be `f`'s to the bit; it has
//! no `f_hessian` or `f_jacobian` (refused with a slice).
//!
//! A parameter is sliced only if the program reads it by element alone: a slice passed whole,
//! copied, or read by row would not be the same program (or is refused: a differentiated slice
//! passed to a call).

use std::fmt::Write;

use super::ast::{Cond, Expr, Int, IntOp, Modes, Output, Param, Program, Range, Stmt};
use super::emit::{Glue, args, differentiated, dirs, nest, param_type, printed_as};
use super::print::{Flavor, output_type, size};
use super::rng::Rng;

/// The parameters `f_sl` takes as slices: their names, and whether as `&Vec<f64>`.
pub struct Slicing {
    pub params: Vec<(String, bool)>,
}

impl Slicing {
    /// Whether one is a `&Vec<f64>`.
    pub fn vecs(&self) -> bool {
        self.params.iter().any(|(_, v)| *v)
    }

    fn get(&self, name: &str) -> Option<bool> {
        self.params.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }
}

/// Calls `f` on every expression of `body` and `tail`, subexpressions and conditions included.
pub fn visit(body: &[Stmt], tail: &Expr, f: &mut dyn FnMut(&Expr)) {
    stmts(body, f);
    expr(tail, f);
}

fn stmts(ss: &[Stmt], f: &mut dyn FnMut(&Expr)) {
    for s in ss {
        match s {
            Stmt::Let(_, _, e) | Stmt::Assign(_, _, e) | Stmt::Closure(_, _, e) => expr(e, f),
            Stmt::LetTuple(_, e) => expr(e, f),
            Stmt::For(_, _, b) => stmts(b, f),
            Stmt::If(arms, els) => {
                for (c, b) in arms {
                    cond(c, f);
                    stmts(b, f);
                }
                stmts(els.as_deref().unwrap_or(&[]), f);
            }
            Stmt::LetInt(..) | Stmt::ForIn(..) | Stmt::Match(..) => {}
        }
    }
}

fn cond(c: &Cond, f: &mut dyn FnMut(&Expr)) {
    match c {
        Cond::Real(_, l, r) => {
            expr(l, f);
            expr(r, f);
        }
        Cond::Int(..) => {}
        Cond::And(l, r) | Cond::Or(l, r) => {
            cond(l, f);
            cond(r, f);
        }
        Cond::Not(x) => cond(x, f),
    }
}

fn expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match e {
        Expr::Neg(x) | Expr::Powi(x, _) | Expr::Ref(x) => expr(x, f),
        Expr::Bin(_, l, r) => {
            expr(l, f);
            expr(r, f);
        }
        Expr::Method { recv, args, .. } => {
            expr(recv, f);
            args.iter().for_each(|a| expr(a, f));
        }
        Expr::If(arms, els) => {
            for (c, b) in arms {
                cond(c, f);
                stmts(&b.stmts, f);
                expr(&b.tail, f);
            }
            stmts(&els.stmts, f);
            expr(&els.tail, f);
        }
        Expr::Array(xs) | Expr::Tuple(xs) | Expr::Call(_, xs) => xs.iter().for_each(|x| expr(x, f)),
        _ => {}
    }
}

/// Whether `prog` reads the array parameter `p` by element only.
fn by_element(prog: &Program, p: &Param) -> bool {
    let mut ok = true;
    visit(&prog.body, &prog.tail, &mut |e| match e {
        Expr::Var(n) | Expr::Deref(n) => ok &= *n != p.name,
        Expr::Elem(n, ix) => ok &= *n != p.name || ix.len() == p.dims.len(),
        _ => {}
    });
    ok
}

/// The slice twin of `prog`, if it has one (drawn from `rng`, the number-type twins' own).
pub fn choose(prog: &Program, rng: &mut Rng) -> Option<Slicing> {
    let candidates: Vec<&Param> = prog
        .params
        .iter()
        .filter(|p| differentiated(p) && !p.dims.is_empty() && by_element(prog, p))
        .collect();
    if candidates.is_empty() || !rng.chance(70) {
        return None;
    }
    let mut params = Vec::new();
    let first = rng.below(candidates.len());
    for (k, p) in candidates.iter().enumerate() {
        if k == first || rng.chance(60) {
            params.push((p.name.clone(), p.dims.len() == 1 && rng.chance(20)));
        }
    }
    Some(Slicing { params })
}

/// The length of a size written `i` (a literal or a `const` item), if it is one.
fn length(prog: &Program, i: &Int) -> Option<usize> {
    match i {
        Int::Lit(n) => Some(*n),
        Int::Var(v) => prog.consts.iter().find(|(c, _)| c == v).map(|(_, n)| *n),
        _ => None,
    }
}

/// `body` with loop bounds that are a sliced parameter's length read from it (`x.len()`).
fn relen(prog: &Program, how: &Slicing, body: &mut [Stmt], rng: &mut Rng) {
    for s in body {
        match s {
            Stmt::For(_, range, inner) => {
                bound(prog, how, range, rng);
                relen(prog, how, inner, rng);
            }
            Stmt::If(arms, els) => {
                for (_, b) in arms.iter_mut() {
                    relen(prog, how, b, rng);
                }
                if let Some(b) = els {
                    relen(prog, how, b, rng);
                }
            }
            _ => {}
        }
    }
}

/// `range`'s upper bound `N` (or the `N` of `N - k`) as `x.len()` for a sliced `x` of length
/// `N`, four times in five.
fn bound(prog: &Program, how: &Slicing, range: &mut Range, rng: &mut Rng) {
    let slot = match &mut range.hi {
        Int::Bin(IntOp::Sub, l, _) => &mut **l,
        hi => hi,
    };
    let Some(n) = length(prog, slot) else { return };
    let same: Vec<&str> = prog
        .params
        .iter()
        .filter(|p| how.get(&p.name).is_some() && p.dims[0].n == n)
        .map(|p| p.name.as_str())
        .collect();
    if !same.is_empty() && rng.chance(80) {
        *slot = Int::Len(same[rng.below(same.len())].to_string());
    }
}

/// The type of parameter `p` in `f_sl`.
fn slice_type(how: &Slicing, p: &Param, flavor: Flavor) -> String {
    match how.get(&p.name) {
        Some(true) => "&Vec<f64>".to_string(),
        Some(false) if p.dims.len() == 2 => format!("&[[f64; {}]]", size(&p.dims[1])),
        Some(false) => "&[f64]".to_string(),
        None => param_type(p, flavor),
    }
}

/// The function `f_sl`.
pub fn function(prog: &Program, how: &Slicing) -> String {
    let mut rng = Rng::new(prog.seed ^ 0x736c_6963_6573);
    let mut body = prog.body.clone();
    relen(prog, how, &mut body, &mut rng);
    let names: Vec<&str> =
        prog.params.iter().filter(|p| differentiated(p)).map(|p| p.name.as_str()).collect();
    let mut attr = vec![format!("wrt({})", names.join(", ")), "jvp".to_string()];
    if matches!(prog.modes, Modes::Scalar { .. }) {
        attr.push("hvp".into());
    }
    let head = (Flavor::Macro, "f_sl", None);
    let types = |p: &Param, flavor| slice_type(how, p, flavor);
    printed_as(prog, head, (&body, &prog.tail), Some(&attr), &mut |p, ss| p.stmts(ss, 1), &types)
}

/// What the glue writes for the buffers of the sliced parameters.
struct Buffers {
    /// `let mut x_bar = [f64::NAN; 3];` for each (and `x_bar_dot` when asked).
    lets: String,
    /// `&mut x_bar, ..` (then `&mut x_bar_dot, ..`).
    args: String,
    /// The non-sliced differentiated parameters, how many.
    rest: usize,
}

fn buffers(prog: &Program, how: &Slicing, dots: bool) -> Buffers {
    let sliced: Vec<&Param> = prog.params.iter().filter(|p| how.get(&p.name).is_some()).collect();
    let mut lets = String::new();
    let mut args = Vec::new();
    for suffix in if dots { &["_bar", "_bar_dot"][..] } else { &["_bar"][..] } {
        for p in &sliced {
            let ty =
                p.dims.iter().rev().fold("f64::NAN".to_string(), |t, d| format!("[{t}; {}]", d.n));
            let _ = writeln!(lets, "let mut {}{suffix} = {ty};", p.name);
            args.push(format!("&mut {}{suffix}", p.name));
        }
    }
    let rest = prog.params.iter().filter(|p| differentiated(p)).count() - sliced.len();
    Buffers { lets, args: args.join(", "), rest }
}

/// The derivatives of the differentiated parameters in their order, as the `Active` tuple:
/// a sliced one's from its buffer `name{suffix}`, the others' from `r` (one) or `r.k`.
fn gathered(prog: &Program, how: &Slicing, suffix: &str, r: &str, rest: usize) -> String {
    let mut parts = Vec::new();
    let mut k = 0;
    for p in prog.params.iter().filter(|p| differentiated(p)) {
        if how.get(&p.name).is_some() {
            parts.push(format!("{}{suffix}", p.name));
        } else {
            parts.push(if rest == 1 { r.to_string() } else { format!("{r}.{k}") });
            k += 1;
        }
    }
    nest(&parts)
}

/// The arguments and directions of `f_sl`'s functions: a sliced array borrowed (`&x`, or
/// `&x.to_vec()` for a `&Vec<f64>`), its direction borrowed.
fn sliced_args(prog: &Program, how: &Slicing) -> (String, String) {
    let borrow = |p: &Param, text: String| match how.get(&p.name) {
        Some(true) => format!("&{}.to_vec()", text.trim_start_matches('&')),
        Some(false) if !text.starts_with('&') => format!("&{text}"),
        _ => text,
    };
    let a: Vec<String> = prog.params.iter().zip(args(prog)).map(|(p, t)| borrow(p, t)).collect();
    // A direction is a slice, whatever the parameter's type.
    let as_slice = |p: &Param, text: String| match how.get(&p.name) {
        Some(_) if !text.starts_with('&') => format!("&{text}"),
        _ => text,
    };
    let active = prog.params.iter().filter(|p| differentiated(p));
    let d: Vec<String> = active.zip(dirs(prog)).map(|(p, t)| as_slice(p, t)).collect();
    (a.join(", "), d.join(", "))
}

/// The glue functions of `prog`'s slice twin, and its `Twin`.
pub fn glue(prog: &Program, how: &Slicing, g: &Glue, s: &mut String) -> String {
    let Glue { load, load_dirs, .. } = g;
    let (a, d) = sliced_args(prog, how);
    let one = buffers(prog, how, false);
    let two = buffers(prog, how, true);
    let (lets, bufs, rest) = (&one.lets, &one.args, one.rest);
    let gs = gathered(prog, how, "_bar", "r", rest);
    let grad_pat = if rest == 0 { "y" } else { "(y, r)" };
    if let Output::Scalar = prog.output
        && let Modes::Scalar { .. } = prog.modes
    {
        let hs = gathered(prog, how, "_bar_dot", "rh", rest);
        let hvp_pat = if rest == 0 { "y" } else { "(y, r, rh)" };
        let (lets2, bufs2) = (&two.lets, &two.args);
        let _ = write!(
            s,
            "fn value_sl(p: &Point) -> f64 {{\n{load}f_sl({a})\n}}\n\
             fn grad_sl(p: &Point) -> (f64, Vec<f64>) {{\n{load}{lets}let {grad_pat} = f_sl_grad({a}, {bufs});\nlet gs: Active = {gs};\n(y, flat(&gs))\n}}\n\
             fn jvp_sl(p: &Point, v: &[f64]) -> (f64, f64) {{\n{load}{load_dirs}f_sl_jvp({a}, {d})\n}}\n\
             fn hvp_sl(p: &Point, v: &[f64]) -> Hvp {{\n{load}{load_dirs}{lets2}let {hvp_pat} = f_sl_hvp({a}, {d}, {bufs2});\nlet gs: Active = {gs};\nlet hs: Active = {hs};\n(y, flat(&gs), flat(&hs))\n}}\n"
        );
        return "Some(Twin::Scalar { value: value_sl, grad: grad_sl, jvp: jvp_sl, hvp: hvp_sl, hessian: None })".to_string();
    }
    let out_ty = output_type(prog.output, Flavor::Macro);
    let _ = write!(
        s,
        "fn value_sl(p: &Point) -> Vec<f64> {{\n{load}flat(&f_sl({a}))\n}}\n\
         fn vjp_sl(p: &Point, u: &[f64]) -> Values {{\n{load}let u: {out_ty} = unflat(u);\n{lets}let {grad_pat} = f_sl_vjp({a}, u, {bufs});\nlet gs: Active = {gs};\n(flat(&y), flat(&gs))\n}}\n\
         fn jvp_sl(p: &Point, v: &[f64]) -> Values {{\n{load}{load_dirs}let (y, t) = f_sl_jvp({a}, {d});\n(flat(&y), flat(&t))\n}}\n"
    );
    "Some(Twin::Vector { value: value_sl, vjp: vjp_sl, jvp: jvp_sl, jacobian: None })".to_string()
}
