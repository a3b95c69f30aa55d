//! The glue of the struct twin `f_st` (`structs.rs`): its functions through flat slices, in `f`'s
//! numbering, as a `Twin` (or `TwinVector`) for the test, which compares them with `f`'s to the
//! bit. The glue builds the struct from the point's values (`FSt { a1, inner: FStInner { x2 } }`)
//! and the direction from its directions, with NaN in the `#[no_grad]` fields (whose values a
//! direction must not read); it reads the gradient back by field (`gs.0.inner.x2`), checks
//! that its `#[no_grad]` fields are zero, and renumbers the Hessian and the Jacobian's columns
//! from `Differentiable`'s order to `f`'s.

use std::fmt::Write;

use super::ast::{Pass, Program};
use super::emit::{Glue, nest};
use super::print::{Flavor, output_type};
use super::structs::{INNER, OUTER, Packing, Passed, Slot, packing};

/// How many numbers `prog`'s parameter `k` holds.
pub(super) fn numel(prog: &Program, k: usize) -> usize {
    prog.params[k].dims.iter().map(|d| d.n).product()
}

/// Whether `prog`'s parameter `k` is differentiated.
pub(super) fn differentiated(prog: &Program, k: usize) -> bool {
    matches!(prog.params[k].pass, Pass::Value | Pass::Ref)
}

/// What the arguments of a call of `f_st` end with.
enum Tail {
    Nothing,
    /// The directions (`dst` for the struct, `d..` for the others).
    Dirs,
    /// The cotangent `u` of `f_vjp`.
    Cotangent,
}

/// The twin of one program, for its glue.
struct Twin<'a> {
    prog: &'a Program,
    pk: Packing,
}

impl Twin<'_> {
    /// `FSt { .. }` with the value of `f`'s parameter `k` given by `value`.
    fn literal(&self, value: &dyn Fn(usize) -> String) -> String {
        let field = |k: usize| {
            let name = &self.prog.params[k].name;
            match value(k) {
                v if v == *name => v,
                v => format!("{name}: {v}"),
            }
        };
        let fields: Vec<String> = self
            .pk
            .outer
            .iter()
            .map(|slot| match slot {
                Slot::Param(k) => field(*k),
                Slot::Inner => {
                    let inner: Vec<String> = self.pk.inner.iter().map(|&k| field(k)).collect();
                    format!("inner: {INNER} {{ {} }}", inner.join(", "))
                }
            })
            .collect();
        format!("{OUTER} {{ {} }}", fields.join(", "))
    }

    /// `let st = FSt { .. };` from the loaded parameters.
    fn build(&self) -> String {
        format!("let st = {};\n", self.literal(&|k| self.prog.params[k].name.clone()))
    }

    /// `let dst = FSt { .. };` from the loaded directions, NaN where `#[no_grad]`.
    fn build_dirs(&self) -> String {
        let value = |k: usize| {
            let p = &self.prog.params[k];
            match p.pass {
                Pass::Constant => p
                    .dims
                    .iter()
                    .rev()
                    .fold("f64::NAN".to_string(), |t, d| format!("[{t}; {}]", d.n)),
                _ => format!("d{}", p.name),
            }
        };
        format!("let dst = {};\n", self.literal(&value))
    }

    /// The differentiated parameters of `f_st` in order: `None` for the struct.
    fn components(&self) -> Vec<Option<usize>> {
        let prog = self.prog;
        self.pk
            .params(prog)
            .into_iter()
            .filter(|s| s.is_none_or(|k| differentiated(prog, k)))
            .collect()
    }

    /// A call of `f_st{suffix}`.
    fn call(&self, suffix: &str, tail: Tail) -> String {
        let prog = self.prog;
        let passed = self.pk.passed;
        let mut args: Vec<String> = Vec::new();
        for slot in self.pk.params(prog) {
            let Some(k) = slot else {
                match passed {
                    Passed::Value => args.push("st".into()),
                    Passed::Ref => args.push("&st".into()),
                    _ => {}
                }
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
                for slot in self.components() {
                    args.push(match slot {
                        None if passed == Passed::Value => "dst".to_string(),
                        None => "&dst".to_string(),
                        Some(k) if prog.params[k].pass == Pass::Ref => {
                            format!("&d{}", prog.params[k].name)
                        }
                        Some(k) => format!("d{}", prog.params[k].name),
                    });
                }
            }
        }
        match passed.method() {
            true => format!("st.f_st{suffix}({})", args.join(", ")),
            false => format!("f_st{suffix}({})", args.join(", ")),
        }
    }

    /// `v..` where `v` is the struct's gradient (or H·w) in the result `v` of `f_st_grad`.
    fn struct_part(&self, v: &str) -> String {
        let comps = self.components();
        match comps.len() {
            1 => v.to_string(),
            _ => format!("{v}.{}", comps.iter().position(Option::is_none).unwrap_or(0)),
        }
    }

    /// The gradient `v` of `f_st` as a tuple in `f`'s parameter order, read by field.
    fn in_f_order(&self, v: &str) -> String {
        let prog = self.prog;
        let comps = self.components();
        let parts: Vec<String> = (0..prog.params.len())
            .filter(|&k| differentiated(prog, k))
            .map(|k| match self.pk.packs(k) {
                true => format!("{}.{}", self.struct_part(v), self.pk.path(prog, k)),
                false => {
                    let at = comps.iter().position(|c| *c == Some(k)).unwrap_or(0);
                    format!("{v}.{at}")
                }
            })
            .collect();
        nest(&parts)
    }

    /// Asserts that the `#[no_grad]` fields of the struct in `v` are zero.
    fn zero_check(&self, v: &str, what: &str) -> String {
        let prog = self.prog;
        let mut s = String::new();
        for k in self.pk.order().into_iter().filter(|&k| prog.params[k].pass == Pass::Constant) {
            let path = self.pk.path(prog, k);
            let _ = writeln!(
                s,
                "assert!(flat(&{}.{path}).iter().all(|z| *z == 0.0), \"the #[no_grad] field `{path}` of {what} is not zero\");",
                self.struct_part(v)
            );
        }
        s
    }

    /// For each differentiated scalar of `f_st` in its numbering (the struct's in
    /// `Differentiable`'s order), its index in `f`'s.
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
        for slot in self.components() {
            let ks = match slot {
                None => self.pk.order().into_iter().filter(|&k| differentiated(prog, k)).collect(),
                Some(k) => vec![k],
            };
            for k in ks {
                perm.extend(offset[k]..offset[k] + numel(prog, k));
            }
        }
        let perm: Vec<String> = perm.iter().map(usize::to_string).collect();
        format!("&[{}]", perm.join(", "))
    }
}

/// The glue functions of a scalar program's struct twin (`hessian`: it has `f_st_hessian`), and
/// its `Option<Twin>`.
pub fn scalar(prog: &Program, g: &Glue, hessian: bool, s: &mut String) -> String {
    let Some(pk) = packing(prog) else { return "None".to_string() };
    let t = Twin { prog, pk };
    let Glue { load, load_dirs, .. } = g;
    let (build, build_dirs) = (t.build(), t.build_dirs());
    let _ = write!(
        s,
        "fn value_st(p: &Point) -> f64 {{\n{load}{build}{}\n}}\n\
         fn grad_st(p: &Point) -> (f64, Vec<f64>) {{\n{load}{build}let (y, gs) = {};\n{}(y, flat(&{}))\n}}\n\
         fn jvp_st(p: &Point, v: &[f64]) -> (f64, f64) {{\n{load}{build}{load_dirs}{build_dirs}{}\n}}\n\
         fn hvp_st(p: &Point, v: &[f64]) -> Hvp {{\n{load}{build}{load_dirs}{build_dirs}let (y, gs, hs) = {};\n{}{}(y, flat(&{}), flat(&{}))\n}}\n",
        t.call("", Tail::Nothing),
        t.call("_grad", Tail::Nothing),
        t.zero_check("gs", "f_st_grad's gradient"),
        t.in_f_order("gs"),
        t.call("_jvp", Tail::Dirs),
        t.call("_hvp", Tail::Dirs),
        t.zero_check("gs", "f_st_hvp's gradient"),
        t.zero_check("hs", "f_st_hvp's H·w"),
        t.in_f_order("gs"),
        t.in_f_order("hs"),
    );
    let hessian = hessian.then(|| (t.call("_hessian", Tail::Nothing), t.perm()));
    scalar_twin("st", g, &build, hessian, s)
}

/// The `Option<Twin>` of the scalar twin `f_{tag}` (`st`, `ao`) whose glue functions
/// `value_{tag}` ... `hvp_{tag}` are written, and its `hessian_{tag}` written into `s` from
/// `hessian`: the call of `f_{tag}_hessian` (on `build`'s values) and the permutation of its
/// rows into `f`'s order.
pub(super) fn scalar_twin(
    tag: &str,
    g: &Glue,
    build: &str,
    hessian: Option<(String, String)>,
    s: &mut String,
) -> String {
    let Glue { load, n, .. } = g;
    let hessian = match hessian {
        None => "None".to_string(),
        Some((call, perm)) => {
            let _ = write!(
                s,
                "fn hessian_{tag}(p: &Point) -> Vec<f64> {{\n{load}{build}let h: [[f64; {n}]; {n}] = {call};\ncrate::fuzz::twins::square(&flat(&h), {perm})\n}}\n",
            );
            format!("Some(hessian_{tag})")
        }
    };
    format!(
        "Some(crate::fuzz::twins::Twin {{ name: \"f_{tag}\", value: value_{tag}, grad: grad_{tag}, jvp: jvp_{tag}, hvp: hvp_{tag}, hessian: {hessian}, exact: true, exact_second: true }})"
    )
}

/// The glue functions of a vector program's struct twin with `m` outputs, and its
/// `Option<TwinVector>`.
pub fn vector(prog: &Program, g: &Glue, m: usize, s: &mut String) -> String {
    let Some(pk) = packing(prog) else { return "None".to_string() };
    let t = Twin { prog, pk };
    let Glue { load, load_dirs, n, .. } = g;
    let (build, build_dirs) = (t.build(), t.build_dirs());
    let out_ty = output_type(prog.output, Flavor::Macro);
    let _ = write!(
        s,
        "fn value_st(p: &Point) -> Vec<f64> {{\n{load}{build}flat(&{})\n}}\n\
         fn vjp_st(p: &Point, u: &[f64]) -> Values {{\n{load}{build}let u: {out_ty} = unflat(u);\nlet (y, gs) = {};\n{}(flat(&y), flat(&{}))\n}}\n\
         fn jvp_st(p: &Point, v: &[f64]) -> Values {{\n{load}{build}{load_dirs}{build_dirs}let (y, t) = {};\n(flat(&y), flat(&t))\n}}\n\
         fn jacobian_st(p: &Point) -> Values {{\n{load}{build}let (y, j): ({out_ty}, [[f64; {n}]; {m}]) = {};\n(flat(&y), crate::fuzz::twins::columns(&flat(&j), {}))\n}}\n",
        t.call("", Tail::Nothing),
        t.call("_vjp", Tail::Cotangent),
        t.zero_check("gs", "f_st_vjp's cotangent"),
        t.in_f_order("gs"),
        t.call("_jvp", Tail::Dirs),
        t.call("_jacobian", Tail::Nothing),
        t.perm(),
    );
    "Some(crate::fuzz::twins::TwinVector { name: \"f_st\", value: value_st, vjp: vjp_st, jvp: jvp_st, jacobian: jacobian_st, exact: true })".to_string()
}
