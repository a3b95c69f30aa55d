//! The struct twin `f_st` (issue 15): the program with some of its differentiated parameters
//! (scalars and arrays, by value or by `&`) packed into a `#[derive(Differentiable)]` struct
//! `FSt`, its body reading their fields (`s0.a1`, `s0.x2[i]`, `&s0.inner.x3` to a callee):
//! - sometimes a nested struct `FStInner` holding some of them, as the field `inner`;
//! - sometimes the program's constants (`f64`s, arrays) as `#[no_grad]` fields;
//! - the struct passed by value, by `&`, or as `self` or `&self` of the method `FSt::f_st`.
//!
//! `f_st` computes what `f` computes in the same order: its value and every derivative are
//! `f`'s to the bit, the gradient's fields the components of `f_grad` (its `#[no_grad]` fields
//! zero), the Hessian and Jacobian renumbered by `Differentiable`'s order. Which programs have
//! one, and what it packs, come from a generator of its own (seeded from the program's seed), so
//! that the programs themselves do not change.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use super::ast::{Expr, Param, Pass, Program};
use super::idiom::walk::{map_expr, map_stmts};
use super::print::{Flavor, Printer, array_type, mutated, output_type};
use super::rng::Rng;
use super::vary::Vary;

/// The struct's type, and the nested one's.
pub const OUTER: &str = "FSt";
pub const INNER: &str = "FStInner";
/// The nested struct's field in the outer one.
const INNER_FIELD: &str = "inner";
/// The struct parameter's name in a free function (no name of the generator's: its locals are
/// numbered from 1, its parameters are not `s`).
const NAME: &str = "s0";

/// How `f_st` takes the struct.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Passed {
    Value,
    Ref,
    /// `self` of a method.
    SelfValue,
    /// `&self` of a method.
    SelfRef,
}

impl Passed {
    pub fn method(self) -> bool {
        matches!(self, Passed::SelfValue | Passed::SelfRef)
    }
}

/// A field of the outer struct: one of `f`'s parameters, or the nested struct.
#[derive(Clone, PartialEq, Eq)]
pub enum Slot {
    Param(usize),
    Inner,
}

/// What `f_st` packs, and how it takes the struct.
pub struct Packing {
    pub passed: Passed,
    /// The outer struct's fields in declaration order.
    pub outer: Vec<Slot>,
    /// The nested struct's fields (indices into `f`'s parameters), if it has one.
    pub inner: Vec<usize>,
    /// The position in `f`'s parameters where a free `f_st` takes the struct (its first packed
    /// parameter's).
    pub at: usize,
}

/// The struct twin of `prog`, if it has one (a quarter of the programs: the default run's build
/// time is CI's budget).
pub fn packing(prog: &Program) -> Option<Packing> {
    let mut rng = Rng::new(prog.seed ^ 0x7374_7275_6374);
    if !rng.chance(25) {
        return None;
    }
    let ps = &prog.params;
    let diffs: Vec<usize> =
        (0..ps.len()).filter(|&k| matches!(ps[k].pass, Pass::Value | Pass::Ref)).collect();
    if diffs.is_empty() {
        return None;
    }
    let mut packed: Vec<usize> = diffs.iter().copied().filter(|_| rng.chance(60)).collect();
    if packed.is_empty() {
        packed.push(diffs[rng.below(diffs.len())]);
    }
    packed.extend((0..ps.len()).filter(|&k| ps[k].pass == Pass::Constant && rng.chance(50)));
    packed.retain(|&k| by_element(prog, &ps[k]));
    if packed.is_empty() {
        return None;
    }
    packed.sort_unstable();
    let mut inner: Vec<usize> = Vec::new();
    if packed.len() >= 2 && rng.chance(40) {
        inner = packed.iter().copied().filter(|_| rng.chance(50)).collect();
        if inner.is_empty() {
            inner.push(packed[rng.below(packed.len())]);
        }
    }
    let mut outer = Vec::new();
    for &k in &packed {
        match inner.contains(&k) {
            false => outer.push(Slot::Param(k)),
            true if !outer.contains(&Slot::Inner) => outer.push(Slot::Inner),
            true => {}
        }
    }
    let passed = [Passed::Value, Passed::Ref, Passed::SelfValue, Passed::SelfRef]
        [rng.weighted(&[25, 35, 15, 25])];
    Some(Packing { passed, outer, inner, at: packed[0] })
}

/// Whether the body reads `p` only as a scalar, by element (`x[i][j]`, not a row), or lent whole
/// when it has one dimension (`&x`): the field reads the macro types right. It takes a field for
/// an `f64` when the body only reads it whole (copied, `let y = s.x;`, or passed by value), passes
/// an array field by value as a reference (`g(s.x)`), and cannot type a row of one (`s.m[0]`);
/// see the fuzzer's report in `tests/fuzz.rs`.
fn by_element(prog: &Program, p: &Param) -> bool {
    let ok = Cell::new(true);
    let check = |e: &Expr| match e {
        Expr::Ref(x) if matches!(&**x, Expr::Var(n) if *n == p.name) => {
            ok.set(ok.get() && p.dims.len() == 1);
            Some(e.clone())
        }
        Expr::Var(n) | Expr::Deref(n) if *n == p.name => {
            ok.set(ok.get() && p.dims.is_empty());
            None
        }
        Expr::Elem(n, ix) if *n == p.name => {
            ok.set(ok.get() && ix.len() == p.dims.len());
            None
        }
        _ => None,
    };
    map_stmts(&prog.body, &check);
    map_expr(&prog.tail, &check);
    ok.get()
}

impl Packing {
    /// The struct parameter's name in `f_st`.
    pub fn name(&self) -> &'static str {
        if self.passed.method() { "self" } else { NAME }
    }

    /// Whether `f`'s parameter `k` is a field.
    pub fn packs(&self, k: usize) -> bool {
        self.inner.contains(&k) || self.outer.contains(&Slot::Param(k))
    }

    /// The field path of `f`'s parameter `k` (`a1`, `inner.x2`).
    pub fn path(&self, prog: &Program, k: usize) -> String {
        let name = &prog.params[k].name;
        match self.inner.contains(&k) {
            true => format!("{INNER_FIELD}.{name}"),
            false => name.clone(),
        }
    }

    /// `f`'s parameters in `Differentiable`'s order of the struct's scalars (declaration order,
    /// the nested struct's at its field), `#[no_grad]` ones included.
    pub fn order(&self) -> Vec<usize> {
        self.outer
            .iter()
            .flat_map(|s| match s {
                Slot::Param(k) => vec![*k],
                Slot::Inner => self.inner.clone(),
            })
            .collect()
    }

    /// `f_st`'s parameters: `None` for the struct, else `f`'s parameter.
    pub fn params(&self, prog: &Program) -> Vec<Option<usize>> {
        let mut out: Vec<Option<usize>> = Vec::new();
        if self.passed.method() {
            out.push(None);
        }
        for k in 0..prog.params.len() {
            if k == self.at && !self.passed.method() {
                out.push(None);
            }
            if !self.packs(k) {
                out.push(Some(k));
            }
        }
        out
    }

    /// The struct's definitions.
    pub fn definitions(&self, prog: &Program) -> String {
        let field = |k: usize| {
            let p = &prog.params[k];
            let attr = if p.pass == Pass::Constant { "#[no_grad] " } else { "" };
            format!("{attr}pub {}: {}", p.name, array_type("f64", &p.dims))
        };
        let derive = "#[derive(Clone, Copy, autodiff_runtime::Differentiable)]";
        let mut s = String::new();
        if !self.inner.is_empty() {
            let fields: Vec<String> = self.inner.iter().map(|&k| field(k)).collect();
            let _ = writeln!(s, "{derive}\npub struct {INNER} {{ {} }}", fields.join(", "));
        }
        let fields: Vec<String> = self
            .outer
            .iter()
            .map(|slot| match slot {
                Slot::Param(k) => field(*k),
                Slot::Inner => format!("pub {INNER_FIELD}: {INNER}"),
            })
            .collect();
        let _ = writeln!(s, "{derive}\npub struct {OUTER} {{ {} }}", fields.join(", "));
        s
    }

    /// `e` reading the fields for the packed parameters: `x` as `s0.x` (`&s0.x` where `x` was a
    /// reference), `x[i]` as `s0.x[i]`, `*c` as `s0.c`.
    fn field_read(
        &self,
        prog: &Program,
        fields: &HashMap<String, usize>,
        e: &Expr,
    ) -> Option<Expr> {
        let field = |n: &String| {
            let k = *fields.get(n)?;
            Some((format!("{}.{}", self.name(), self.path(prog, k)), &prog.params[k]))
        };
        match e {
            Expr::Var(n) => {
                let (path, p) = field(n)?;
                let by_ref = matches!(p.pass, Pass::Ref | Pass::Constant) && !p.dims.is_empty();
                let read = Expr::Var(path);
                Some(if by_ref { Expr::Ref(Box::new(read)) } else { read })
            }
            Expr::Elem(n, ix) => Some(Expr::Elem(field(n)?.0, ix.clone())),
            Expr::Deref(n) => Some(Expr::Var(field(n)?.0)),
            _ => None,
        }
    }
}

/// `f_st`'s attribute: `f`'s options, `wrt` naming the struct where `f`'s names its fields.
fn attribute(prog: &Program, pk: &Packing) -> String {
    let mut opts = Vec::new();
    let unpacked =
        |pass: Pass| (0..prog.params.len()).any(|k| !pk.packs(k) && prog.params[k].pass == pass);
    if prog.wrt || unpacked(Pass::Constant) {
        let names: Vec<String> = pk
            .params(prog)
            .into_iter()
            .filter_map(|slot| match slot {
                None => Some(pk.name().to_string()),
                Some(k) => matches!(prog.params[k].pass, Pass::Value | Pass::Ref)
                    .then(|| prog.params[k].name.clone()),
            })
            .collect();
        opts.push(format!("wrt({})", names.join(", ")));
    }
    opts.extend(super::emit::mode_options(prog.modes));
    format!("#[grad({})]", opts.join(", "))
}

/// The struct twin `f_st` of `prog` with its structs' definitions, if it has one.
pub fn twin(prog: &Program) -> Option<String> {
    let pk = packing(prog)?;
    let fields: HashMap<String, usize> = (0..prog.params.len())
        .filter(|&k| pk.packs(k))
        .map(|k| (prog.params[k].name.clone(), k))
        .collect();
    let read = |e: &Expr| pk.field_read(prog, &fields, e);
    let body = map_stmts(&prog.body, &read);
    let tail = map_expr(&prog.tail, &read);
    let mut set = HashSet::new();
    mutated(&body, &mut set);
    let mut p = Printer::new(Flavor::Macro, set);
    let _ = writeln!(p.out, "{}", attribute(prog, &pk));
    let _ = writeln!(
        p.out,
        "#[allow(clippy::needless_range_loop, clippy::manual_memcpy, clippy::if_same_then_else, clippy::too_many_arguments, clippy::neg_cmp_op_on_partial_ord)]"
    );
    let params: Vec<String> = pk
        .params(prog)
        .into_iter()
        .map(|slot| match (slot, pk.passed) {
            (None, Passed::Value) => format!("{NAME}: {OUTER}"),
            (None, Passed::Ref) => format!("{NAME}: &{OUTER}"),
            (None, Passed::SelfValue) => "self".to_string(),
            (None, Passed::SelfRef) => "&self".to_string(),
            (Some(k), _) => format!(
                "{}: {}",
                prog.params[k].name,
                super::emit::param_type(&prog.params[k], Flavor::Macro)
            ),
        })
        .collect();
    let out = output_type(prog.output, Flavor::Macro);
    let _ = writeln!(p.out, "pub fn f_st({}) -> {out} {{", params.join(", "));
    p.stmts(&body, 1);
    p.depth = 1;
    let tail = p.expr(&tail, 0);
    let _ = writeln!(p.out, "    {tail}\n}}");
    let consts: Vec<String> = prog.consts.iter().map(|(c, _)| c.clone()).collect();
    // The structs' lengths are the `const` items, which a const generic parameter would shadow.
    let vary = Vary { generic: false, ..prog.vary };
    let text = vary.apply(&p.out, "f_st", &consts);
    let text = match pk.passed.method() {
        true => {
            let lines: Vec<String> = text.lines().map(|l| format!("    {l}")).collect();
            format!("impl {OUTER} {{\n{}\n}}\n", lines.join("\n"))
        }
        false => text,
    };
    Some(pk.definitions(prog) + &text)
}
