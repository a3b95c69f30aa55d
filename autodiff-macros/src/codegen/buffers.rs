//! Slices at the boundary. A differentiated slice `x: &[f64]` (or `&[[f64; K]]`, `&Vec<f64>`) is
//! an array of the IR whose length is known only at run time, `x.len()`. Its adjoint (the
//! gradient) and, in `f_hvp`, the tangent of that adjoint (H·v) cannot live on the stack: they
//! are the caller's buffers, `x_bar: &mut [f64]` and `x_bar_dot: &mut [f64]`, parameters after
//! the directions, left out of the returned tuple. A buffer is overwritten: zeroed at entry (but
//! for the elements the first loop writes first, [`crate::transform::written_first`]), then
//! filled as the sweep adds into it in place (the transforms see a zeroed accumulator, as for an
//! array). With `#[grad(accumulate)]` it is not zeroed, and the sweep adds into the caller's
//! values (the transforms then see an array whose elements they do not know). A direction of a slice is a slice of the same length. Every length is checked at
//! entry, with a panic that says which buffer and both lengths.
//!
//! `f_grad_into` (`#[grad(into)]`) takes the same path for a differentiated array `[f64; N]`
//! (or `&[f64; N]`): its gradient is written into the caller's `x_bar: &mut [f64; N]`, zeroed at
//! entry but for the elements written first, with no length to check. An array's gradient that
//! does not start as a zeroed accumulator (an array literal of scalars) is computed as in
//! `f_grad` and copied into the buffer at the end ([`Buffers::copies`]).
//!
//! What it does not know: a value of run-time length that is not in a buffer's variable (a copy
//! of an adjoint that must outlive its update) would need the heap; the transforms never make
//! one, and if they did the expansion is an internal error, not a wrong answer.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::layout::Layout;
use super::scalar::Tokens;
use super::signature;
use crate::ir::{Block, Func, Stmt, Ty, Var, stmt_defs};
use crate::lower::Param;
use crate::symbol;
use crate::transform::{Written, written_first};

/// The buffers of one generated function.
#[derive(Default)]
pub struct Buffers {
    /// The variable that starts each buffer's slot (a `Fill` of zeros), with the buffer's name.
    pub starts: HashMap<Var, Ident>,
    /// The elements of a buffer that its first loop writes before reading them (left unzeroed),
    /// by the variable that starts it.
    pub written: HashMap<Var, Written>,
    /// The slots of buffers: variables updated in place through a `&mut`, never rebound.
    pub slots: HashSet<usize>,
    /// Every variable that holds a buffer.
    pub members: HashSet<Var>,
    /// The outputs written into buffers, by position.
    pub outputs: HashSet<usize>,
    /// The buffer parameters, `x_bar: &mut [f64]`.
    pub params: Vec<(TokenStream, TokenStream)>,
    /// The checks of the buffers' and the slice directions' lengths.
    pub checks: TokenStream,
    /// The positions, among the inputs the transform added, of the directions checked.
    pub checked_dirs: HashSet<usize>,
    /// Each variable that holds a buffer, with the buffer's name: every one of them is written
    /// by that name (a checkpointed sweep lends the buffer to its closures and gives it back, in
    /// variables of their own, which would otherwise be read by names bound nowhere).
    pub names: HashMap<Var, Ident>,
    /// The outputs (by position) that `f_grad_into` copies into the caller's arrays at the end,
    /// with the buffer's name: arrays' gradients that do not start as a zeroed accumulator.
    pub copies: Vec<(usize, Ident)>,
    /// The buffers of arrays (`f_grad_into`), by name: of a known length, not checked.
    pub arrays: HashSet<Ident>,
}

impl Buffers {
    /// `idents` with every variable holding a buffer named as the buffer.
    pub fn named(&self, idents: &[Option<Ident>]) -> Vec<Option<Ident>> {
        let mut out = idents.to_vec();
        for (v, id) in &self.names {
            if let Some(slot) = out.get_mut(v.index()).filter(|s| s.is_some()) {
                *slot = Some(id.clone());
            }
        }
        out
    }
}

/// What [`buffers`] reads about the function.
pub struct Site<'a> {
    /// The transformed function.
    pub f: &'a Func,
    /// Where its values live.
    pub layout: &'a Layout,
    /// Their names.
    pub idents: &'a [Option<Ident>],
    /// The user's parameters.
    pub params: &'a [Param],
    /// The generated function's name.
    pub name: &'a Ident,
    /// How many outputs are values (before the derivatives).
    pub values: usize,
    /// The names of the inputs added by the transform (directions), in order.
    pub extra: &'a [Ident],
    /// Where the directions start among them (after the cotangents of a vector function's value
    /// in its `f_hvp`).
    pub dirs_at: usize,
    /// For each output, the differentiated parameter whose derivative it is (see `Kind::owners`).
    pub owners: Vec<Option<usize>>,
    /// The scalar type.
    pub scalar: &'a Tokens,
    /// Whether the gradients of arrays go to buffers too (`f_grad_into`).
    pub arrays: bool,
}

impl Site<'_> {
    /// The user's parameter of the `k`-th differentiated input.
    fn param(&self, k: usize) -> Option<&Param> {
        let a = self.f.active.get(k)?;
        self.params.iter().find(|p| p.input == Some(*a))
    }
}

/// The buffers of `site`'s function, or the internal error of a value of run-time length that is
/// not in one.
pub fn buffers(site: &Site) -> Result<Buffers, String> {
    let (f, layout) = (site.f, site.layout);
    let classes = Classes::of(f, layout);
    let mut out = Buffers::default();
    let mut defined = Vec::new();
    defs(&f.body, &mut defined);
    for (k, o) in f.outputs.iter().enumerate().skip(site.values) {
        let array = |v: &Var| site.arrays && matches!(f.ty(*v), Ty::Array(_));
        let Some(v) = o.var().filter(|v| f.ty(*v).run_time_length() || array(v)) else {
            continue;
        };
        let owner = site.owners.get(k).copied().flatten();
        let param = owner.and_then(|j| site.param(j)).ok_or("a buffer without a parameter")?;
        let class = classes.root(classes.key(v));
        let members: Vec<Var> =
            defined.iter().copied().filter(|m| classes.root(classes.key(*m)) == class).collect();
        let start = members
            .iter()
            .copied()
            .find(|m| matches!(classes.defs.get(m), Some(Stmt::Fill { .. })));
        out.outputs.insert(k);
        if !f.ty(v).run_time_length() {
            let id =
                fresh(site, &format!("{}_{}", symbol::unraw(&param.ident), symbol::SUFFIX_BAR));
            let ty = signature::ty(f.ty(v), &site.scalar.ty);
            out.params.push((quote!(#id), quote!(&mut #ty)));
            out.arrays.insert(id.clone());
            match (start, site.idents[start.unwrap_or(v).index()].clone()) {
                (Some(start), Some(id)) if !out.starts.contains_key(&start) => {
                    if let Some(last) = out.params.last_mut() {
                        last.0 = quote!(#id);
                    }
                    out.arrays.insert(id.clone());
                    take(&mut out, layout, start, members, id, f);
                }
                _ => out.copies.push((k, id)),
            }
            continue;
        }
        let start = start.ok_or("a buffer that does not start zeroed")?;
        let id = site.idents[start.index()].clone().ok_or("a buffer without a name")?;
        take(&mut out, layout, start, members, id.clone(), f);
        let elem = element(f.ty(v), site.scalar);
        out.params.push((quote!(#id), quote!(&mut [#elem])));
        out.checks.extend(check(site, &id, "the buffer", &param.ident));
    }
    let dirs = f.inputs[f.user_inputs..].iter().enumerate().skip(site.dirs_at);
    for (j, v) in dirs.take(f.active.len()) {
        if f.ty(*v).run_time_length()
            && let (Some(id), Some(param)) = (site.extra.get(j), site.param(j - site.dirs_at))
        {
            out.checks.extend(check(site, id, "the direction", &param.ident));
            out.checked_dirs.insert(j);
        }
    }
    match defined.into_iter().find(|v| f.ty(*v).run_time_length() && !out.members.contains(v)) {
        Some(v) => Err(format!("a value of run-time length outside a buffer ({:?})", f.name(v))),
        None => Ok(out),
    }
}

/// `base`, or `base_2`, `base_3`, ...: the first that names no value of the function.
fn fresh(site: &Site, base: &str) -> Ident {
    let taken = |n: &str| site.idents.iter().flatten().any(|id| symbol::unraw(id) == n);
    let name = (1..)
        .map(|k| match k {
            1 => base.to_owned(),
            k => format!("{base}_{k}"),
        })
        .find(|n| !taken(n))
        .unwrap_or_else(|| base.to_owned());
    quote::format_ident!("{name}")
}

/// Records the buffer `id` that `start` starts, held by `members`.
fn take(out: &mut Buffers, layout: &Layout, start: Var, members: Vec<Var>, id: Ident, f: &Func) {
    out.slots.extend(members.iter().filter_map(|m| layout.slot(*m)));
    out.names.extend(members.iter().map(|m| (*m, id.clone())));
    out.members.extend(members);
    out.starts.insert(start, id);
    if let Some(w) = written_first(f, start) {
        out.written.insert(start, w);
    }
}

/// A variable's place: its slot, or itself when it has none.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    Slot(usize),
    Var(Var),
}

/// The places that hold one buffer: a slot, joined with the places a checkpointed sweep passes
/// it through (its closures take the adjoint and give it back, each in a variable of its own)
/// and with a branch's result where a side yields it (a branch around such a sweep).
struct Classes<'a> {
    layout: &'a Layout,
    parent: HashMap<Key, Key>,
    defs: HashMap<Var, &'a Stmt>,
}

impl<'a> Classes<'a> {
    fn of(f: &'a Func, layout: &'a Layout) -> Self {
        let mut c = Classes { layout, parent: HashMap::new(), defs: HashMap::new() };
        c.walk(f, &f.body);
        c
    }

    fn key(&self, v: Var) -> Key {
        self.layout.slot(v).map_or(Key::Var(v), Key::Slot)
    }

    fn root(&self, k: Key) -> Key {
        let mut k = k;
        while let Some(p) = self.parent.get(&k) {
            k = *p;
        }
        k
    }

    fn union(&mut self, a: Var, b: Var) {
        let (ra, rb) = (self.root(self.key(a)), self.root(self.key(b)));
        if ra != rb {
            self.parent.insert(ra, rb);
        }
    }

    fn walk(&mut self, f: &Func, block: &'a Block) {
        for s in block {
            for v in stmt_defs(s) {
                self.defs.insert(v, s);
            }
            match s {
                Stmt::For(l) => self.walk(f, &l.body),
                Stmt::If(b) => {
                    // A branch's result is what one side or the other yields: the same buffer.
                    let outs = b.outs.iter().enumerate();
                    for (k, o) in outs.filter(|(_, o)| f.ty(**o).run_time_length()) {
                        let sides = [b.then_yields[k], b.else_yields[k]];
                        for v in sides.into_iter().filter_map(|y| y.var()) {
                            self.union(*o, v);
                        }
                    }
                    self.walk(f, &b.then);
                    self.walk(f, &b.otherwise);
                }
                Stmt::Checkpoint(c) => {
                    for (k, a) in c.adjoint.iter().enumerate() {
                        let ends = [a.init, c.back_yields[k]].into_iter().filter_map(|o| o.var());
                        for v in ends.chain([c.outs[k]]) {
                            self.union(a.param, v);
                        }
                    }
                    self.walk(f, &c.step);
                    self.walk(f, &c.back);
                }
                _ => {}
            }
        }
    }
}

/// Every variable `block` defines, nested blocks and their parameters included.
fn defs(block: &Block, out: &mut Vec<Var>) {
    for s in block {
        out.extend(stmt_defs(s));
        match s {
            Stmt::For(l) => {
                out.extend(l.carried.iter().map(|c| c.param));
                defs(&l.body, out);
            }
            Stmt::If(b) => {
                defs(&b.then, out);
                defs(&b.otherwise, out);
            }
            Stmt::Checkpoint(c) => {
                out.extend(c.step_params.iter().chain(&c.back_params).copied());
                out.extend(c.adjoint.iter().map(|a| a.param));
                defs(&c.step, out);
                defs(&c.back, out);
            }
            _ => {}
        }
    }
}

/// What the doc comment says about the buffers, if there are any: overwritten, or added into
/// with `#[grad(accumulate)]`.
pub fn note(b: &Buffers, accumulate: bool) -> Option<String> {
    let slices = b
        .params
        .iter()
        .filter(|(id, _)| !b.arrays.iter().any(|a| *id.to_string() == *a.to_string()));
    let names: Vec<String> = slices.map(|(id, _)| format!("`{id}`")).collect();
    if names.is_empty() {
        return None;
    }
    let how = match accumulate {
        false => "each is overwritten, not added into (`#[grad(accumulate)]` adds into them)",
        true => {
            "each is added into, not overwritten (`#[grad(accumulate)]`): the caller zeroes it for the derivative alone"
        }
    };
    Some(format!(
        " The derivatives with respect to slices are written into {}, which must have the lengths of their slices (it panics otherwise); {how}.",
        names.join(", ")
    ))
}

/// The element type of a slice `ty`: the scalar, or an array of them.
pub fn element(ty: &Ty, scalar: &Tokens) -> TokenStream {
    match ty.shape() {
        Some(s) if s.dims.len() > 1 => {
            signature::ty(&Ty::array(s.elem, s.dims[1..].to_vec()), &scalar.ty)
        }
        _ => scalar.ty.clone(),
    }
}

/// The check that `id`, `what` (a buffer or a direction) of `param`, has `param`'s length.
fn check(site: &Site, id: &Ident, what: &str, param: &Ident) -> TokenStream {
    let name = site.name;
    let message = format!("`{name}`: {what} `{id}` must have the length of `{param}`");
    quote! {
        ::autodiff_runtime::__private::check_len(#id.len(), #param.len(), #message);
    }
}

/// The zero a buffer of type `ty` is filled with: the scalar's, or an array of them.
pub fn fill_value(ty: &Ty, scalar: &Tokens) -> TokenStream {
    let mut e = scalar.zero();
    if let Some(s) = ty.shape() {
        for d in s.dims[1..].iter().rev() {
            let n = crate::ir::without_inline_const(d.render(&|_| quote!(_)));
            e = quote!([#e; #n]);
        }
    }
    e
}
