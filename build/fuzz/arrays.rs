//! The array-of-structs twin `f_ao`: the program with one or two of its differentiated
//! one-dimensional arrays of the same length (`x1: [f64; R]`, `x2: &[f64; R]`) packed into one
//! array of a `#[derive(Differentiable)]` struct, `ps0: [FAo; R]` or `ps0: &[FAo; R]` with
//! `struct FAo { a: f64, b: f64 }` (`a` the first packed array's elements, `b` the second's),
//! every read `x1[i]` printed `ps0[i].a` (the macro's `lower/structs/arrays.rs` rewrites it to
//! a read of a struct-of-arrays). Only arrays the body reads element by element, with one index,
//! and never writes, are packed: a program that lends one whole (`g0(&x1)`) has no twin here.
//!
//! `f_ao` computes what `f` computes in the same order: its value and every derivative are
//! `f`'s to the bit, the gradient's `[FAo; R]` the packed arrays' components of `f_grad`
//! (read back as `gs.map(|e| e.a)`), the Hessian and the Jacobian's columns renumbered from
//! `Differentiable`'s order (element by element, `a` then `b`) to `f`'s. Which programs have
//! one, and what it packs, come from a generator of its own (seeded from the program's seed), so
//! that the programs themselves do not change. This file prints both the twin and its glue (the
//! functions through flat slices, as a `Twin` or `TwinVector` of `tests/fuzz/twins.rs`).

use std::collections::HashSet;
use std::fmt::Write;

use super::ast::{Expr, Pass, Program};
use super::emit::{Glue, nest, param_type};
use super::emit_structs::{differentiated, numel};
use super::idiom::walk::{map_expr, map_stmts};
use super::print::{Flavor, Printer, mutated, output_type, size};
use super::rng::Rng;
use super::vary::Vary;

/// The struct's type.
const STRUCT: &str = "FAo";
/// Its fields, for the first and the second packed array.
const FIELDS: [&str; 2] = ["a", "b"];
/// The packed parameter's name in `f_ao` (the generator's parameters are not `ps`).
const NAME: &str = "ps0";
/// The name a read of field `a` is printed with before it becomes `ps0[i].a`.
const MARK: &str = "__fuzz_ao_";

/// What `f_ao` packs, and how it takes the array.
struct Packing {
    /// The packed parameters (indices into `f`'s), in field order (`f`'s order).
    packed: Vec<usize>,
    /// `&[FAo; R]` rather than `[FAo; R]`.
    by_ref: bool,
    /// The arrays' length.
    n: usize,
}

/// The array-of-structs twin's packing for `prog`, if it has one (a quarter of the programs).
fn packing(prog: &Program) -> Option<Packing> {
    let mut rng = Rng::new(prog.seed ^ 0x6172_7261_7973);
    if !rng.chance(25) {
        return None;
    }
    let ps = &prog.params;
    let mut written = HashSet::new();
    mutated(&prog.body, &mut written);
    let cands: Vec<usize> = (0..ps.len())
        .filter(|&k| differentiated(prog, k) && ps[k].dims.len() == 1)
        .filter(|&k| !written.contains(&ps[k].name))
        .collect();
    if cands.is_empty() {
        return None;
    }
    let first = cands[rng.below(cands.len())];
    let n = ps[first].dims[0].n;
    let mates: Vec<usize> =
        cands.iter().copied().filter(|&k| k != first && ps[k].dims[0].n == n).collect();
    let mut packed = vec![first];
    if !mates.is_empty() && rng.chance(60) {
        packed.push(mates[rng.below(mates.len())]);
    }
    packed.sort_unstable();
    let by_ref = rng.chance(50);
    Some(Packing { packed, by_ref, n })
}

/// Whether `text` has `word` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back().is_none_or(|c| !ident(c));
        let after = text[at + word.len()..].chars().next().is_none_or(|c| !ident(c));
        before && after
    })
}

impl Packing {
    fn field(&self, k: usize) -> Option<&'static str> {
        self.packed.iter().position(|&j| j == k).map(|at| FIELDS[at])
    }

    /// `f_ao`'s parameters: `None` for the array of structs, else `f`'s parameter.
    fn params(&self, prog: &Program) -> Vec<Option<usize>> {
        let mut out = Vec::new();
        for k in 0..prog.params.len() {
            if k == self.packed[0] {
                out.push(None);
            }
            if self.field(k).is_none() {
                out.push(Some(k));
            }
        }
        out
    }

    /// The differentiated parameters of `f_ao` in order: `None` for the array of structs.
    fn components(&self, prog: &Program) -> Vec<Option<usize>> {
        self.params(prog)
            .into_iter()
            .filter(|s| s.is_none_or(|k| differentiated(prog, k)))
            .collect()
    }

    fn definition(&self) -> String {
        let fields: Vec<String> =
            FIELDS[..self.packed.len()].iter().map(|f| format!("pub {f}: f64")).collect();
        format!(
            "#[derive(Clone, Copy, autodiff_runtime::Differentiable)]\npub struct {STRUCT} {{ {} }}\n",
            fields.join(", ")
        )
    }
}

/// `text` with every `__fuzz_ao_a[i]` printed `ps0[i].a` (an index has no brackets).
fn unmark(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(MARK) {
        out += &rest[..at];
        let after = &rest[at + MARK.len()..];
        let open = after.find('[').unwrap_or(0);
        let close = after.find(']').unwrap_or(after.len() - 1);
        let _ = write!(out, "{NAME}[{}].{}", &after[open + 1..close], &after[..open]);
        rest = &after[close + 1..];
    }
    out + rest
}

/// `f_ao`'s attribute: `f`'s options, `wrt` naming the array of structs where `f`'s names the
/// arrays.
fn attribute(prog: &Program, pk: &Packing) -> String {
    let mut opts = Vec::new();
    let constants = prog.params.iter().any(|p| p.pass == Pass::Constant);
    if prog.wrt || constants {
        let names: Vec<String> = pk
            .components(prog)
            .into_iter()
            .map(|slot| match slot {
                None => NAME.to_string(),
                Some(k) => prog.params[k].name.clone(),
            })
            .collect();
        opts.push(format!("wrt({})", names.join(", ")));
    }
    opts.extend(super::emit::mode_options(prog.modes));
    format!("#[grad({})]", opts.join(", "))
}

/// The packing and `f_ao`'s text (before `Vary`), if the program has the twin: its body must
/// read the packed arrays only by element.
fn plan(prog: &Program) -> Option<(Packing, String)> {
    let pk = packing(prog)?;
    let read = |e: &Expr| match e {
        Expr::Elem(n, ix) if ix.len() == 1 => {
            let k = prog.params.iter().position(|p| p.name == *n)?;
            Some(Expr::Elem(format!("{MARK}{}", pk.field(k)?), ix.clone()))
        }
        _ => None,
    };
    let body = map_stmts(&prog.body, &read);
    let tail = map_expr(&prog.tail, &read);
    let mut set = HashSet::new();
    mutated(&body, &mut set);
    let mut p = Printer::new(Flavor::Macro, set);
    p.stmts(&body, 1);
    p.depth = 1;
    let tail = p.expr(&tail, 0);
    let _ = writeln!(p.out, "    {tail}\n}}");
    let body = unmark(&p.out);
    if pk.packed.iter().any(|&k| has_word(&body, &prog.params[k].name)) {
        return None;
    }
    let dims = &prog.params[pk.packed[0]].dims;
    let ty = format!("[{STRUCT}; {}]", size(&dims[0]));
    let params: Vec<String> = pk
        .params(prog)
        .into_iter()
        .map(|slot| match slot {
            None if pk.by_ref => format!("{NAME}: &{ty}"),
            None => format!("{NAME}: {ty}"),
            Some(k) => {
                format!("{}: {}", prog.params[k].name, param_type(&prog.params[k], Flavor::Macro))
            }
        })
        .collect();
    let out = output_type(prog.output, Flavor::Macro);
    let text = format!(
        "{}\n#[allow(clippy::needless_range_loop, clippy::manual_memcpy, clippy::if_same_then_else, clippy::too_many_arguments, clippy::neg_cmp_op_on_partial_ord)]\npub fn f_ao({}) -> {out} {{\n{body}",
        attribute(prog, &pk),
        params.join(", ")
    );
    Some((pk, text))
}

/// The array-of-structs twin `f_ao` of `prog` with its struct's definition, if it has one.
pub fn twin(prog: &Program) -> Option<String> {
    let (pk, text) = plan(prog)?;
    let consts: Vec<String> = prog.consts.iter().map(|(c, _)| c.clone()).collect();
    // The array's length is a `const` item, which a const generic parameter would shadow.
    let vary = Vary { generic: false, ..prog.vary };
    Some(pk.definition() + &vary.apply(&text, "f_ao", &consts))
}

/// What the arguments of a call of `f_ao` end with.
enum Tail {
    Nothing,
    Dirs,
    Cotangent,
}

/// The twin of one program, for its glue.
struct Glued<'a> {
    prog: &'a Program,
    pk: Packing,
}

impl Glued<'_> {
    /// `let aos: [FAo; R] = ..;` from the loaded arrays (`d` their directions' prefix).
    fn build(&self, name: &str, d: &str) -> String {
        let fields: Vec<String> = self
            .pk
            .packed
            .iter()
            .enumerate()
            .map(|(at, &k)| format!("{}: {d}{}[e]", FIELDS[at], self.prog.params[k].name))
            .collect();
        format!(
            "let {name}: [{STRUCT}; {}] = std::array::from_fn(|e| {STRUCT} {{ {} }});\n",
            self.pk.n,
            fields.join(", ")
        )
    }

    fn call(&self, suffix: &str, tail: Tail) -> String {
        let prog = self.prog;
        let amp = if self.pk.by_ref { "&" } else { "" };
        let mut args: Vec<String> = Vec::new();
        for slot in self.pk.params(prog) {
            let Some(k) = slot else {
                args.push(format!("{amp}aos"));
                continue;
            };
            let p = &prog.params[k];
            args.push(match p.pass {
                Pass::Data => "p.data".to_string(),
                Pass::Steps => "p.steps".to_string(),
                Pass::Ref => format!("&{}", p.name),
                Pass::Constant if !p.dims.is_empty() => format!("&{}", p.name),
                _ => p.name.clone(),
            });
        }
        match tail {
            Tail::Nothing => {}
            Tail::Cotangent => args.push("u".into()),
            Tail::Dirs => {
                for slot in self.pk.components(prog) {
                    args.push(match slot {
                        None => format!("{amp}daos"),
                        Some(k) if prog.params[k].pass == Pass::Ref => {
                            format!("&d{}", prog.params[k].name)
                        }
                        Some(k) => format!("d{}", prog.params[k].name),
                    });
                }
            }
        }
        format!("f_ao{suffix}({})", args.join(", "))
    }

    /// The gradient `v` of `f_ao` as a tuple in `f`'s parameter order.
    fn in_f_order(&self, v: &str) -> String {
        let prog = self.prog;
        let comps = self.pk.components(prog);
        let whole = match comps.len() {
            1 => v.to_string(),
            _ => format!("{v}.{}", comps.iter().position(Option::is_none).unwrap_or(0)),
        };
        let parts: Vec<String> = (0..prog.params.len())
            .filter(|&k| differentiated(prog, k))
            .map(|k| match self.pk.field(k) {
                Some(f) => format!("{whole}.map(|e| e.{f})"),
                None => {
                    let at = comps.iter().position(|c| *c == Some(k)).unwrap_or(0);
                    format!("{v}.{at}")
                }
            })
            .collect();
        nest(&parts)
    }

    /// For each differentiated scalar of `f_ao` in its numbering, its index in `f`'s.
    fn perm(&self) -> String {
        let prog = self.prog;
        let mut offset = vec![0; prog.params.len()];
        let mut at = 0;
        for (k, off) in offset.iter_mut().enumerate() {
            *off = at;
            if differentiated(prog, k) {
                at += numel(prog, k);
            }
        }
        let mut perm = Vec::new();
        for slot in self.pk.components(prog) {
            match slot {
                None => {
                    for e in 0..self.pk.n {
                        perm.extend(self.pk.packed.iter().map(|&k| offset[k] + e));
                    }
                }
                Some(k) => perm.extend(offset[k]..offset[k] + numel(prog, k)),
            }
        }
        let perm: Vec<String> = perm.iter().map(usize::to_string).collect();
        format!("&[{}]", perm.join(", "))
    }
}

/// The glue functions of a scalar program's array-of-structs twin (`hessian`: it has
/// `f_ao_hessian`), and its `Option<Twin>`.
pub fn scalar(prog: &Program, g: &Glue, hessian: bool, s: &mut String) -> String {
    let Some((pk, _)) = plan(prog) else { return "None".to_string() };
    let t = Glued { prog, pk };
    let Glue { load, load_dirs, .. } = g;
    let (build, build_dirs) = (t.build("aos", ""), t.build("daos", "d"));
    let _ = write!(
        s,
        "fn value_ao(p: &Point) -> f64 {{\n{load}{build}{}\n}}\n\
         fn grad_ao(p: &Point) -> (f64, Vec<f64>) {{\n{load}{build}let (y, gs) = {};\n(y, flat(&{}))\n}}\n\
         fn jvp_ao(p: &Point, v: &[f64]) -> (f64, f64) {{\n{load}{build}{load_dirs}{build_dirs}{}\n}}\n\
         fn hvp_ao(p: &Point, v: &[f64]) -> Hvp {{\n{load}{build}{load_dirs}{build_dirs}let (y, gs, hs) = {};\n(y, flat(&{}), flat(&{}))\n}}\n",
        t.call("", Tail::Nothing),
        t.call("_grad", Tail::Nothing),
        t.in_f_order("gs"),
        t.call("_jvp", Tail::Dirs),
        t.call("_hvp", Tail::Dirs),
        t.in_f_order("gs"),
        t.in_f_order("hs"),
    );
    let hessian = hessian.then(|| (t.call("_hessian", Tail::Nothing), t.perm()));
    super::emit_structs::scalar_twin("ao", g, &build, hessian, s)
}

/// The glue functions of a vector program's array-of-structs twin with `m` outputs, and its
/// `Option<TwinVector>`.
pub fn vector(prog: &Program, g: &Glue, m: usize, s: &mut String) -> String {
    let Some((pk, _)) = plan(prog) else { return "None".to_string() };
    let t = Glued { prog, pk };
    let Glue { load, load_dirs, n, .. } = g;
    let (build, build_dirs) = (t.build("aos", ""), t.build("daos", "d"));
    let out_ty = output_type(prog.output, Flavor::Macro);
    let _ = write!(
        s,
        "fn value_ao(p: &Point) -> Vec<f64> {{\n{load}{build}flat(&{})\n}}\n\
         fn vjp_ao(p: &Point, u: &[f64]) -> Values {{\n{load}{build}let u: {out_ty} = unflat(u);\nlet (y, gs) = {};\n(flat(&y), flat(&{}))\n}}\n\
         fn jvp_ao(p: &Point, v: &[f64]) -> Values {{\n{load}{build}{load_dirs}{build_dirs}let (y, t) = {};\n(flat(&y), flat(&t))\n}}\n\
         fn jacobian_ao(p: &Point) -> Values {{\n{load}{build}let (y, j): ({out_ty}, [[f64; {n}]; {m}]) = {};\n(flat(&y), crate::fuzz::twins::columns(&flat(&j), {}))\n}}\n",
        t.call("", Tail::Nothing),
        t.call("_vjp", Tail::Cotangent),
        t.in_f_order("gs"),
        t.call("_jvp", Tail::Dirs),
        t.call("_jacobian", Tail::Nothing),
        t.perm(),
    );
    "Some(crate::fuzz::twins::TwinVector { name: \"f_ao\", value: value_ao, vjp: vjp_ao, jvp: jvp_ao, jacobian: jacobian_ao, exact: true })".to_string()
}
