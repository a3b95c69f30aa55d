//! Statements: one `let` per value that has a name, assignments (`s += …`, `y[i] += …`) to the
//! mutable variables that carry values through loops and updates, and `for` loops and `if`s with
//! their blocks.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote};

mod whiles;

use super::layout::{Layout, Repr};
use crate::ir::{
    Arg, Block, Branch, Checkpoint, Cond, Func, Int, Loop, LoopId, Operand, Prec, Prim, Source,
    Stmt, Var,
};

/// Up to this many `let`s of `f64` values, a block has one `let` per value. Every `let` opens a
/// lexical scope nested in the previous one, and in a debug build LLVM's DWARF writer recurses
/// once per nested scope (`DwarfCompileUnit::createAndAddScopeChildren`): about 2,900 nested
/// `let`s overflow the 2 MiB stack of rustc's codegen threads (rustc 1.95, x86-64 Linux), which
/// kills rustc with a SIGSEGV. The limit leaves a margin for platforms with larger stack frames.
const MAX_LETS: usize = 1000;

/// Past [`MAX_LETS`], values are declared about this many at a time, `let [a, b, ...]: [f64; n];`,
/// each declaration followed by the assignments of its values, so scopes nest once per
/// declaration. Declarations stay short because rustc's cost for one grows faster than its length
/// (one of 28,000 names took 6 s and 10 GB in MIR building and borrow checking).
const DECLARED_TOGETHER: usize = 128;

/// Renders the statements of one function.
pub struct Renderer<'a> {
    /// The function.
    pub f: &'a Func,
    /// Where each value lives.
    pub layout: &'a Layout,
    /// The identifier of each variable (its slot's, for a slot member); `None` when inlined.
    pub idents: &'a [Option<Ident>],
    /// The name of each loop's index.
    pub loops: &'a [Ident],
    /// The statement defining each variable that an `Op`, `Test`, `Load`, `Fill` or `Array`
    /// defines.
    pub defs: HashMap<Var, &'a Stmt>,
    /// Inputs taken by reference (copied with `*` into a mutable variable).
    pub by_ref: &'a HashSet<Var>,
    /// The scalar type.
    pub scalar: &'a super::scalar::Tokens,
    /// The other primitive float type, of the values cast with `as` ([`crate::ir::Ty::Other`]).
    pub other: super::scalar::Tokens,
    /// Whether the literals being written are of the other float type: a literal takes the
    /// type of where it is used, which the statement rendering it sets.
    pub other_literals: std::cell::Cell<bool>,
    /// A name for a branch's value computed before the branch updates variables in place.
    pub result: Ident,
    /// A name for the step counter of a checkpointed sweep.
    pub step: Ident,
    /// Every variable something reads.
    pub read: HashSet<Var>,
    /// The variables whose type a method call needs to know (see [`receivers`]).
    pub receivers: HashSet<Var>,
    /// The caller's buffers that values of run-time length live in, if there are any.
    pub buffers: Option<&'a super::buffers::Buffers>,
    /// The inputs that are struct parameters passed whole to calls (their scalars laid flat),
    /// and their directions: passed as the structs themselves.
    pub wholes: HashMap<Var, super::call::Whole>,
    /// The name of the tape of each loop that fills one.
    pub tapes: HashMap<LoopId, Ident>,
    /// A name for a loop's exit test, computed before the loop's variables are assigned.
    pub stop: Ident,
    /// The parameters passed through as constants (integers, ...) that are named apart, by the
    /// user's names: the user's tokens read them by their new names.
    pub params: HashMap<String, Ident>,
}

impl<'a> Renderer<'a> {
    /// A renderer for `f`.
    pub fn new(
        f: &'a Func,
        layout: &'a Layout,
        idents: &'a [Option<Ident>],
        loops: &'a [Ident],
        by_ref: &'a HashSet<Var>,
        scalar: &'a super::scalar::Tokens,
        (result, step): (Ident, Ident),
    ) -> Self {
        let mut defs = HashMap::new();
        collect_defs(&f.body, &mut defs);
        let mut read = HashSet::new();
        super::reads::collect(f, &mut read, &mut HashSet::new());
        let receivers = receivers(&f.body, &defs);
        let buffers = None;
        let (tapes, stop) = (HashMap::new(), Ident::new("stop", proc_macro2::Span::mixed_site()));
        let wholes = HashMap::new();
        Renderer {
            f,
            layout,
            idents,
            loops,
            defs,
            by_ref,
            scalar,
            other: scalar.other(),
            other_literals: std::cell::Cell::new(false),
            result,
            step,
            read,
            receivers,
            buffers,
            wholes,
            tapes,
            stop,
            params: HashMap::new(),
        }
    }

    /// Whether `v` is of the other float type, or an array of it.
    pub(super) fn is_other(&self, v: Var) -> bool {
        match self.f.ty(v) {
            crate::ir::Ty::Other => true,
            t => t.shape().is_some_and(|s| s.elem == crate::ir::Elem::Other),
        }
    }

    /// `render` with literals of the other float type when `other` holds, of the scalar type
    /// otherwise.
    pub(super) fn literals_of<R>(&self, other: bool, render: impl FnOnce() -> R) -> R {
        let before = self.other_literals.replace(other);
        let r = render();
        self.other_literals.set(before);
        r
    }

    /// The float type that literals are written in here.
    pub(super) fn lit_scalar(&self) -> &super::scalar::Tokens {
        if self.other_literals.get() { &self.other } else { self.scalar }
    }

    /// Whether an integer expression in `l` calls a method on `l`'s index (`x[i.abs_diff(1)]`).
    fn index_method_called(&self, l: &Loop) -> bool {
        fn has_method(t: &TokenStream) -> bool {
            t.clone().into_iter().any(|tree| match tree {
                proc_macro2::TokenTree::Punct(p) => p.as_char() == '.',
                proc_macro2::TokenTree::Group(g) => has_method(&g.stream()),
                _ => false,
            })
        }
        block_reads(
            &l.body,
            &l.yields,
            &|i: &Int| i.loops.contains(&l.index) && has_method(&self.int(i)),
            &|o: &Operand| match o {
                Operand::Ext(e) => {
                    let ext = &self.f.exts[e.0 as usize];
                    ext.loops.contains(&l.index) && has_method(&ext.tokens)
                }
                _ => false,
            },
        )
    }

    /// A literal that starts the life of `v`'s variable, suffixed `_f64` when a method is called
    /// on the variable (else `let mut s = 0.5; … s.sin()` is a call on an ambiguous `{float}`).
    fn initial(&self, v: Var, init: Operand) -> TokenStream {
        self.initial_of(&[v], init)
    }

    /// [`Self::initial`] for a value that starts several variables (a checkpoint's state, which
    /// both of its closures take).
    fn initial_of(&self, vs: &[Var], init: Operand) -> TokenStream {
        let typed = |v: &Var| match self.layout.slot(*v) {
            Some(slot) => self.layout.slots[slot].iter().any(|m| self.receivers.contains(m)),
            None => self.receivers.contains(v),
        };
        let other = vs.first().is_some_and(|v| self.is_other(*v));
        self.literals_of(other, || match (init, vs.iter().any(typed)) {
            (Operand::Lit(_), true) => self.receiver(init),
            _ => self.operand(init).tokens,
        })
    }

    /// Whether `v`'s variable is assigned after its declaration, so that it needs `mut` (a
    /// buffer, a `&mut` updated in place, never does).
    fn mutable(&self, v: Var) -> bool {
        self.layout.mutable(v) && !self.in_buffer(v)
    }

    /// The buffer whose variable `v` starts, if it does.
    fn buffer_start(&self, v: Var) -> Option<&Ident> {
        self.buffers.and_then(|b| b.starts.get(&v))
    }

    /// The zeroing of the buffer that `start` starts: of the elements its first loop does not
    /// write first, or of all.
    fn zero_buffer(&self, start: Var) -> TokenStream {
        let id = self.buffer_start(start);
        if self.f.accumulate {
            // `#[grad(accumulate)]`: the sweep adds into what the caller put there.
            return TokenStream::new();
        }
        let zero = super::buffers::fill_value(self.f.ty(start), self.scalar);
        let Some(w) = self.buffers.and_then(|b| b.written.get(&start)) else {
            return quote!(#id.fill(#zero););
        };
        let lo = self.int(&w.range.lo);
        let end = match w.range.inclusive {
            true => self.int(&w.range.hi.plus(1)),
            false => self.int(&w.range.hi),
        };
        let offset = proc_macro2::Literal::i64_unsuffixed(w.offset);
        quote!(::autodiff_runtime::__private::zero_outside(#id, #zero, #lo, #end, #offset);)
    }

    /// Whether `v` lives in one of the caller's buffers.
    fn in_buffer(&self, v: Var) -> bool {
        self.buffers.is_some_and(|b| b.members.contains(&v))
    }

    /// Whether `v` and `op` hold the same buffer: a buffer is updated in place, so a region's
    /// result that is the buffer needs no assignment (`x_bar = x_bar;` after a checkpointed
    /// sweep that was lent it, which rustc refuses: the parameter is not `mut`, bug 49).
    fn same_buffer(&self, v: Var, op: Operand) -> bool {
        let Some((b, w)) = self.buffers.zip(op.var()) else { return false };
        b.names.get(&v).is_some_and(|id| b.names.get(&w) == Some(id))
    }

    pub(super) fn ident(&self, v: Var) -> TokenStream {
        match &self.idents[v.index()] {
            Some(id) => id.to_token_stream(),
            None => quote!(_),
        }
    }

    /// `let x = e;`, `let mut x = e;` or `x = e;` for the value `out`, by its representation.
    fn bind(&self, out: Var, e: TokenStream) -> TokenStream {
        let id = self.ident(out);
        match self.layout.repr[out.index()] {
            Repr::Inline => TokenStream::new(),
            Repr::Let => quote!(let #id = #e;),
            Repr::Slot(_) if self.layout.declares(out) => match self.mutable(out) {
                true => quote!(let mut #id = #e;),
                false => quote!(let #id = #e;),
            },
            Repr::Slot(_) => quote!(#id = #e;),
        }
    }

    /// The statements of `block`: one `let` per value, or, past [`MAX_LETS`] `f64` values,
    /// declarations of about [`DECLARED_TOGETHER`] at a time each followed by the assignments.
    pub fn block(&self, block: &Block) -> Vec<TokenStream> {
        let lets: Vec<Option<(TokenStream, TokenStream)>> =
            block.iter().map(|s| self.plain_let(s)).collect();
        let count = lets.iter().flatten().count();
        if count <= MAX_LETS {
            return block.iter().map(|s| self.stmt(s)).collect();
        }
        // Runs of equal length to one, so that none is a lone value.
        let runs = count.div_ceil(DECLARED_TOGETHER);
        let start = |k: usize| k * count / runs;
        let ids: Vec<&TokenStream> = lets.iter().flatten().map(|(id, _)| id).collect();
        let mut out = Vec::new();
        let (mut seen, mut next) = (0, 0);
        for (s, plain) in block.iter().zip(&lets) {
            let Some((id, e)) = plain else {
                out.push(self.stmt(s));
                continue;
            };
            if next < runs && start(next) == seen {
                let run = &ids[start(next)..start(next + 1)];
                let n = proc_macro2::Literal::usize_unsuffixed(run.len());
                let t = &self.scalar.ty;
                out.push(quote!(let [#(#run),*]: [#t; #n];));
                next += 1;
            }
            out.push(quote!(#id = #e;));
            seen += 1;
        }
        out
    }

    /// The name and expression of `s` when it is a plain `let` of one `f64` (`let v = e;`).
    fn plain_let(&self, s: &Stmt) -> Option<(TokenStream, TokenStream)> {
        let out = match s {
            Stmt::Op { out, .. } | Stmt::Load { out, .. } => *out,
            _ => return None,
        };
        let plain =
            self.layout.repr[out.index()] == Repr::Let && *self.f.ty(out) == crate::ir::Ty::F64;
        plain.then(|| (self.ident(out), self.expr(s).tokens))
    }

    fn stmt(&self, s: &Stmt) -> TokenStream {
        match s {
            // A stored or filled literal has the type of the array's elements.
            Stmt::Store { out, .. } | Stmt::Fill { out, .. } | Stmt::Array { out, .. }
                if self.is_other(*out) != self.other_literals.get() =>
            {
                self.literals_of(self.is_other(*out), || self.stmt(s))
            }
            Stmt::Op { out, prim, args } => match self.compound(*out, *prim, args) {
                Some(t) => t,
                None => self.bind(*out, self.expr(s).tokens),
            },
            Stmt::Test { out, .. } | Stmt::Load { out, .. } => self.bind(*out, self.expr(s).tokens),
            Stmt::Store { out, array, index, value } => self.store(*out, *array, index, *value),
            Stmt::Fill { out, .. } if self.buffer_start(*out).is_some() => self.zero_buffer(*out),
            // A buffer filled again (zeros a transform put where a store of zero was): in place.
            Stmt::Fill { out, value } if self.in_buffer(*out) => {
                let id = self.ident(*out);
                let v = match value {
                    Operand::Lit(x) if *x == 0.0 => {
                        super::buffers::fill_value(self.f.ty(*out), self.scalar)
                    }
                    _ => self.operand(*value).tokens,
                };
                quote!(#id.fill(#v);)
            }
            Stmt::Fill { out, value } => {
                let shape = self.f.ty(*out).shape();
                let mut e = match shape.map(|s| s.elem) {
                    // Storage for a call's residuals, whose type rustc infers from the store.
                    Some(crate::ir::Elem::Residuals) => {
                        quote!(::autodiff_runtime::__private::Residuals::zeroed())
                    }
                    _ => self.initial(*out, *value),
                };
                if let Some(shape) = shape {
                    // From the first length read from an array field down, the field's type.
                    let at = shape.dims.iter().position(|d| d.witness.is_some());
                    let dims = &shape.dims[..at.unwrap_or(shape.dims.len())];
                    if let Some((base, k)) = at.and_then(|j| shape.dims[j].witness.as_ref()) {
                        let k = proc_macro2::Literal::usize_unsuffixed(*k);
                        e = quote!(::autodiff_runtime::__private::filled_at::<#k, _>(&#base, #e));
                    }
                    for d in dims.iter().rev() {
                        let n = match d.inferred {
                            true => quote!(_),
                            false => crate::ir::without_inline_const(self.int(d)),
                        };
                        e = quote!([#e; #n]);
                    }
                }
                self.bind(*out, e)
            }
            Stmt::Array { out, elems } => {
                let items = elems.iter().map(|e| self.operand(*e).tokens);
                self.bind(*out, quote!([#(#items),*]))
            }
            Stmt::For(l) => self.for_loop(l),
            Stmt::While(w) => self.while_loop(w),
            Stmt::If(b) => self.branch(b),
            Stmt::Checkpoint(c) => self.checkpoint(c),
            Stmt::Call(c) => self.call(c),
        }
    }

    /// `s += e` for `s = s + e` when both are one variable (and `-=`, `*=`, `/=`).
    fn compound(&self, out: Var, prim: Prim, args: &[Operand]) -> Option<TokenStream> {
        if self.layout.declares(out) || self.layout.slot(out).is_none() {
            return None;
        }
        self.update(out, prim, args)
    }

    /// `s += e;` for the assignment of `value` to the variable of `slot`, when `value` is an
    /// inlined `s + e` (`-`, `*`, `/` likewise) of the variable's current value.
    fn compound_into(&self, slot: Var, value: Operand) -> Option<TokenStream> {
        let v = value.var()?;
        if self.layout.repr[v.index()] != Repr::Inline {
            return None;
        }
        let Some(Stmt::Op { prim, args, .. }) = self.defs.get(&v) else { return None };
        self.update(slot, *prim, args)
    }

    /// `s op= e;` writing `prim(args)` into the variable of `target`, when one operand is that
    /// variable's current value (either one, for `+` and `*`).
    fn update(&self, target: Var, prim: Prim, args: &[Operand]) -> Option<TokenStream> {
        if !self.scalar.compound_assignments() {
            return None;
        }
        let here = Operand::Var(target);
        let op = match prim {
            Prim::Add => quote!(+=),
            Prim::Sub => quote!(-=),
            Prim::Mul => quote!(*=),
            Prim::Div => quote!(/=),
            _ => return None,
        };
        let rhs = if self.layout.same_slot(args[0], here) {
            args[1]
        } else if matches!(prim, Prim::Add | Prim::Mul) && self.layout.same_slot(args[1], here) {
            args[0]
        } else {
            return None;
        };
        if self.repeats(rhs, prim, |op| self.layout.same_slot(op, here)) {
            return None;
        }
        let id = self.ident(target);
        let rhs = self.operand(rhs).tokens;
        Some(quote!(#id #op #rhs;))
    }

    /// Whether `rhs`, written inline, is itself `prim` with an operand that `old` recognises as
    /// the variable being updated, where clippy's `misrefactored_assign_op` would look for it:
    /// `s += s + e` reads as a mistake for `s += e`, so it is written `s = s + (s + e)`, the same
    /// value to the bit.
    fn repeats(&self, rhs: Operand, prim: Prim, old: impl Fn(Operand) -> bool) -> bool {
        let Some(v) = rhs.var().filter(|v| self.layout.repr[v.index()] == Repr::Inline) else {
            return false;
        };
        match self.defs.get(&v) {
            Some(Stmt::Op { prim: p, args, .. }) if *p == prim && args.len() == 2 => {
                old(args[0]) || (matches!(prim, Prim::Add | Prim::Mul) && old(args[1]))
            }
            _ => false,
        }
    }

    /// `y[i] = v;` in place, `y[i] += e;` for an update of the element, or a copy then the
    /// write when the old array is still needed.
    fn store(&self, out: Var, array: Var, index: &[Int], value: Operand) -> TokenStream {
        let id = self.ident(out);
        let ix = self.index(index);
        // `y[i] = y[i];` in place (the element of the very version written to) changes nothing.
        let in_place = self.layout.same_slot(Operand::Var(array), Operand::Var(out));
        if in_place
            && let Some(Stmt::Load { array: from, index: at, .. }) =
                value.var().and_then(|v| self.defs.get(&v))
            && *from == array
            && self.index(at).to_string() == ix.to_string()
        {
            return TokenStream::new();
        }
        let write = match self.element_update(out, index, value) {
            Some((op, rhs)) => quote!(#id #ix #op #rhs;),
            None => {
                let v = self.operand(value).tokens;
                quote!(#id #ix = #v;)
            }
        };
        if self.layout.same_slot(Operand::Var(array), Operand::Var(out)) {
            return write;
        }
        let src = self.operand(Operand::Var(array)).tokens;
        let src = if self.by_ref.contains(&array) { quote!(*#src) } else { src };
        match self.layout.declares(out) || self.layout.slot(out).is_none() {
            true => quote!(let mut #id = #src; #write),
            false => quote!(#id = #src; #write),
        }
    }

    /// `(+=, e)` when `value` is `out[index] + e` read from the same variable, inlined.
    fn element_update(
        &self,
        out: Var,
        index: &[Int],
        value: Operand,
    ) -> Option<(TokenStream, TokenStream)> {
        if !self.scalar.compound_assignments() {
            return None;
        }
        let v = value.var().filter(|v| self.layout.repr[v.index()] == Repr::Inline)?;
        let Stmt::Op { prim, args, .. } = self.defs.get(&v)? else { return None };
        let is_old = |op: Operand| {
            op.var().filter(|l| self.layout.repr[l.index()] == Repr::Inline).is_some_and(|l| {
                matches!(self.defs.get(&l), Some(Stmt::Load { array, index: ix, .. })
                    if ix.as_slice() == index && self.layout.same_slot(Operand::Var(*array), Operand::Var(out)))
            })
        };
        let (op, rhs) = match prim {
            Prim::Add if is_old(args[0]) => (quote!(+=), args[1]),
            Prim::Add if is_old(args[1]) => (quote!(+=), args[0]),
            Prim::Sub if is_old(args[0]) => (quote!(-=), args[1]),
            Prim::Mul if is_old(args[0]) => (quote!(*=), args[1]),
            Prim::Mul if is_old(args[1]) => (quote!(*=), args[0]),
            Prim::Div if is_old(args[0]) => (quote!(/=), args[1]),
            _ => return None,
        };
        if self.repeats(rhs, *prim, is_old) {
            return None;
        }
        Some((op, self.operand(rhs).tokens))
    }

    /// Assignments that make each slot in `targets` hold the matching value: one `s = e;`, or a
    /// tuple assignment when several are written at once (so none reads another's new value).
    fn assign(&self, pairs: Vec<(Var, Operand)>) -> TokenStream {
        let pairs: Vec<(Var, Operand)> = pairs
            .into_iter()
            .filter(|(slot, value)| !self.layout.same_slot(Operand::Var(*slot), *value))
            .filter(|(slot, value)| !self.same_buffer(*slot, *value))
            .collect();
        if let [(slot, value)] = pairs.as_slice()
            && let Some(update) = self.compound_into(*slot, *value)
        {
            return update;
        }
        let pending: Vec<(TokenStream, TokenStream)> = pairs
            .into_iter()
            .map(|(slot, value)| {
                let value = self.literals_of(self.is_other(slot), || self.operand(value).tokens);
                (self.ident(slot), value)
            })
            .collect();
        match pending.as_slice() {
            [] => TokenStream::new(),
            [(s, e)] => quote!(#s = #e;),
            _ => {
                let (ss, es): (Vec<_>, Vec<_>) = pending.into_iter().unzip();
                quote!((#(#ss),*) = (#(#es),*);)
            }
        }
    }

    /// What starts a loop's carried variables: `let mut s = init;`, or an assignment to a
    /// variable declared before.
    fn carried_decls(&self, carried: &[crate::ir::Carry]) -> Vec<TokenStream> {
        let mut before = Vec::new();
        for c in carried {
            if self.layout.declares(c.param) {
                let id = self.ident(c.param);
                let init = self.initial(c.param, c.init);
                let init = match c.init.var() {
                    Some(v) if self.by_ref.contains(&v) => quote!(*#init),
                    _ => init,
                };
                before.push(quote!(let mut #id = #init;));
            } else if !self.layout.same_slot(c.init, Operand::Var(c.param)) {
                before.push(self.assign(vec![(c.param, c.init)]));
            }
        }
        before
    }

    fn for_loop(&self, l: &Loop) -> TokenStream {
        let before = self.carried_decls(&l.carried);
        let body = self.block(&l.body);
        let pairs = l.carried.iter().zip(&l.yields).map(|(c, y)| (c.param, *y)).collect();
        let yields = self.assign(pairs);
        // An index read only by statements that write nothing (`y[i] = y[i];` in place) is not
        // read by the code either.
        let id = &self.loops[l.index.0 as usize];
        let index =
            match reads_index(self.f, l) && body.iter().chain([&yields]).any(|t| mentions(t, id)) {
                true => id.to_token_stream(),
                false => quote!(_),
            };
        let range = self.loop_range(&l.range, self.index_method_called(l));
        // A loop over rows whose body walks them in loops stays scalar: vectorized, it would run
        // rows side by side through strided gathers (see the runtime's `outer_loop`).
        let rows = holds_loop(&l.body) && selects_rows(self.f, &l.body, l.index);
        let nest = rows.then(|| quote!(::autodiff_runtime::__private::outer_loop();));
        quote! {
            #(#before)*
            for #index in #range {
                #nest
                #(#body)*
                #yields
            }
        }
    }

    /// `lo..hi`, `lo..=hi`, or either reversed; with `typed` literal bounds, the end typed
    /// `usize` (a method called on the index, `i.min(2)`, needs its type known).
    fn loop_range(&self, r: &crate::ir::Range, typed: bool) -> TokenStream {
        let (lo, mut hi) = (self.int_bound(&r.lo), self.int_bound(&r.hi));
        if let (Some(_), Some(n)) = (r.lo.value, r.hi.value)
            && typed
        {
            hi = proc_macro2::Literal::usize_suffixed(n as usize).to_token_stream();
        }
        let range = match r.inclusive {
            true => quote!(#lo..=#hi),
            false => quote!(#lo..#hi),
        };
        if r.rev { quote!((#range).rev()) } else { range }
    }

    /// A checkpointed sweep: a call of the runtime's `revolve` (or, from a tape, of its
    /// `reverse`) with one iteration of the loop and the sweep of one iteration as closures.
    fn checkpoint(&self, c: &Checkpoint) -> TokenStream {
        let tuple = |items: Vec<TokenStream>| quote!((#(#items,)*));
        // No state: the closure's block gives `()` with no trailing `()` (clippy's `unused_unit`).
        let values = |ops: &[Operand]| match ops.is_empty() {
            true => TokenStream::new(),
            false => tuple(ops.iter().map(|o| self.operand(*o).tokens).collect()),
        };
        let k = &self.step;
        let (n, index) = match c.source.range() {
            Some(r) => self.step_index(r),
            None => (TokenStream::new(), quote!(#k)),
        };
        let reads_index = |block: &Block, ys: &[Operand]| {
            block_reads(
                block,
                ys,
                &|i: &Int| i.loops.contains(&c.index),
                &|o: &Operand| matches!(o, Operand::Ext(e) if self.f.exts[e.0 as usize].loops.contains(&c.index)),
            )
        };
        let id = &self.loops[c.index.0 as usize];
        // Revolve passes the loop's index; a tape passes the step's number, from which the
        // closure computes the index (the number itself when the loop has no range).
        let counted = match &c.source {
            Source::Range(_) | Source::Tape(None) => true,
            Source::Tape(Some(r)) => r.lo.value == Some(0) && !r.rev,
        };
        let at = |block: &Block, ys: &[Operand]| match (reads_index(block, ys), counted) {
            (false, _) => (quote!(_), TokenStream::new()),
            (true, true) => (id.to_token_stream(), TokenStream::new()),
            (true, false) => (quote!(#k), quote!(let #id = #index;)),
        };
        let ((step_at, step_index), (back_at, back_index)) =
            (at(&c.step, &c.step_yields), at(&c.back, &c.back_yields));
        let (step_params, back_params) =
            (self.pattern(&c.step_params), self.pattern(&c.back_params));
        let adjoint: Vec<Var> = c.adjoint.iter().map(|a| a.param).collect();
        let adjoint_params = self.pattern(&adjoint);
        // A buffer is lent to the sweep and updated in place: its result is not bound again.
        let inits = c
            .adjoint
            .iter()
            .map(|a| match self.in_buffer(a.param) {
                true => {
                    let id = self.operand(a.init).tokens;
                    quote!(&mut *#id)
                }
                false => self.initial(a.param, a.init),
            })
            .collect();
        let inits = tuple(inits);
        let step = self.block(&c.step);
        let step_yields = values(&c.step_yields);
        let back = self.block(&c.back);
        let back_yields = values(&c.back_yields);
        let closures = quote! {
            |#step_at, #step_params| {
                #step_index
                #(#step)*
                #step_yields
            },
            |#back_at, #back_params, #adjoint_params| {
                #back_index
                #(#back)*
                #back_yields
            },
        };
        let call = match &c.source {
            Source::Range(_) => {
                // The two closures' state parameters take the state's type.
                let state = (0..c.state.len())
                    .map(|j| {
                        let init =
                            self.initial_of(&[c.step_params[j], c.back_params[j]], c.state[j]);
                        // A parameter taken by reference starts the state with a copy.
                        match c.state[j].var() {
                            Some(v) if self.by_ref.contains(&v) => quote!(*#init),
                            _ => init,
                        }
                    })
                    .collect();
                let state = tuple(state);
                let slots = proc_macro2::Literal::u64_unsuffixed(c.slots);
                quote! {
                    ::autodiff_runtime::__private::revolve::<#slots, _, _>(
                        #n,
                        |#k| #index,
                        #state,
                        #inits,
                        #closures
                    )
                }
            }
            Source::Tape(_) => {
                let tape = self.tape(c.index);
                quote!(#tape.reverse(#inits, #closures))
            }
        };
        // Results that live in a variable declared before (an adjoint the enclosing sweep
        // carries) are assigned; the others are declared first when some are.
        let new = |v: &Var| self.layout.slot(*v).is_none() || self.layout.declares(*v);
        // A buffer was updated in place: its result is not bound.
        let outs = c.outs.iter().map(|v| {
            let id = self.ident(*v);
            match (self.in_buffer(*v), self.mutable(*v)) {
                (true, _) => quote!(_),
                (false, true) => quote!(mut #id),
                (false, false) => id,
            }
        });
        let outs = quote!((#(#outs,)*));
        let (binding, declared) = match c.outs.iter().all(new) {
            true => (quote!(let #outs), TokenStream::new()),
            false => {
                let ids = c.outs.iter().map(|v| match self.in_buffer(*v) {
                    true => quote!(_),
                    false => self.ident(*v),
                });
                // (A buffer's result is not bound: nothing to declare.)
                let lets = c.outs.iter().filter(|v| new(v) && !self.in_buffer(**v)).map(|v| {
                    let id = self.ident(*v);
                    if self.mutable(*v) { quote!(let mut #id;) } else { quote!(let #id;) }
                });
                (quote!((#(#ids,)*)), quote!(#(#lets)*))
            }
        };
        quote! {
            #declared
            #binding = #call;
        }
    }

    /// `(a, mut b, c,)`: a tuple pattern binding `vars` (mutable where they are assigned).
    pub(super) fn pattern(&self, vars: &[Var]) -> TokenStream {
        let items = vars.iter().map(|v| {
            let id = self.ident(*v);
            if self.mutable(*v) { quote!(mut #id) } else { id }
        });
        quote!((#(#items,)*))
    }

    /// For steps numbered from 0 over the range `r`: their number, and the index of step `k`
    /// (named by [`Renderer::step`]).
    pub(super) fn step_index(&self, r: &crate::ir::Range) -> (TokenStream, TokenStream) {
        let (lo, hi) = (self.int(&r.lo), self.int(&r.hi));
        let end = if r.inclusive { quote!(#hi + 1) } else { hi.clone() };
        let k = &self.step;
        let n = match r.lo.value {
            Some(0) => end.clone(),
            _ => quote!(usize::saturating_sub(#end, #lo)),
        };
        let index = match (r.rev, r.lo.value) {
            (false, Some(0)) => quote!(#k),
            (false, _) => quote!(#lo + #k),
            (true, _) => quote!(#end - 1 - #k),
        };
        (n, index)
    }

    /// A range bound: any integer expression binds tighter than `..`.
    fn int_bound(&self, i: &Int) -> TokenStream {
        self.int(i)
    }

    fn branch(&self, b: &Branch) -> TokenStream {
        let cond = self.operand(Operand::Var(b.cond)).at_least(Prec::Or);
        // Results that live in a variable declared before the branch are assigned in place;
        // the others are the branch's value.
        let in_place: Vec<bool> = b
            .outs
            .iter()
            .map(|o| self.layout.slot(*o).is_some() && !self.layout.declares(*o))
            .collect();
        let side = |block: &Block, yields: &[Operand]| {
            let stmts = self.block(block);
            let pairs = b
                .outs
                .iter()
                .zip(yields)
                .zip(&in_place)
                .filter(|(_, p)| **p)
                .map(|((o, y), _)| (*o, *y))
                .collect();
            let assigns = self.assign(pairs);
            let values: Vec<TokenStream> = yields
                .iter()
                .zip(b.outs.iter().zip(&in_place))
                .filter(|(_, (_, p))| !**p)
                .map(|(y, (o, _))| self.literals_of(self.is_other(*o), || self.operand(*y).tokens))
                .collect();
            let value = match values.as_slice() {
                [] => TokenStream::new(),
                [one] => one.clone(),
                many => quote!((#(#many),*)),
            };
            let overwritten: Vec<usize> = b
                .outs
                .iter()
                .zip(yields)
                .zip(&in_place)
                .filter(|((o, y), p)| **p && !self.layout.same_slot(Operand::Var(**o), **y))
                .filter_map(|((o, _), _)| self.layout.slot(*o))
                .collect();
            let reads_overwritten = yields
                .iter()
                .zip(&in_place)
                .any(|(y, p)| !*p && self.reads_slots(*y, &overwritten));
            if !reads_overwritten {
                return quote!(#(#stmts)* #assigns #value);
            }
            // The value may read a variable the assignments overwrite: compute it first.
            let r = &self.result;
            quote!(#(#stmts)* let #r = #value; #assigns #r)
        };
        let then = side(&b.then, &b.then_yields);
        let otherwise = side(&b.otherwise, &b.else_yields);
        let results: Vec<Var> =
            b.outs.iter().zip(&in_place).filter(|(_, p)| !**p).map(|(o, _)| *o).collect();
        let else_part = match (otherwise.is_empty(), is_lone_if(&otherwise)) {
            (true, _) => TokenStream::new(),
            (false, true) => quote!(else #otherwise),
            (false, false) => quote!(else { #otherwise }),
        };
        let pattern = |o: &Var| {
            let id = self.ident(*o);
            match self.mutable(*o) {
                true => quote!(mut #id),
                false => id,
            }
        };
        match results.as_slice() {
            [] => quote!(if #cond { #then } #else_part),
            [one] => {
                let p = pattern(one);
                quote!(let #p = if #cond { #then } else { #otherwise };)
            }
            many => {
                let ps = many.iter().map(pattern);
                quote!(let (#(#ps),*) = if #cond { #then } else { #otherwise };)
            }
        }
    }

    /// Whether the expression of `op` reads a variable of one of `slots` (through what is
    /// inlined into it).
    fn reads_slots(&self, op: Operand, slots: &[usize]) -> bool {
        let Some(v) = op.var() else { return false };
        if self.layout.slot(v).is_some_and(|s| slots.contains(&s)) {
            return true;
        }
        self.layout.repr[v.index()] == Repr::Inline
            && self.defs.get(&v).is_some_and(|s| {
                crate::ir::reads(s).into_iter().any(|o| self.reads_slots(o, slots))
            })
    }

    /// An output (or any operand) as an expression in a position that needs no parentheses.
    pub fn value(&self, op: Operand) -> TokenStream {
        self.operand(op).tokens
    }
}

/// `tokens` located at `span`, each keeping what its name resolves to.
pub(super) fn located_at(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut t| {
            if let proc_macro2::TokenTree::Group(g) = &t {
                let mut inner =
                    proc_macro2::Group::new(g.delimiter(), located_at(g.stream(), span));
                inner.set_span(g.span().located_at(span));
                return proc_macro2::TokenTree::Group(inner);
            }
            t.set_span(t.span().located_at(span));
            t
        })
        .collect()
}

/// The variables a method is called on (`s.sin()`, `y[i].sin()`), and those whose type they
/// take (the operands of arithmetic giving a receiver, the values a region's variable starts or
/// ends as): a literal that starts such a variable needs a type.
fn receivers(block: &Block, defs: &HashMap<Var, &Stmt>) -> HashSet<Var> {
    /// What each region's variables start as or end as: a loop's carried value (inside and
    /// after) its initial value and what the body yields, a branch's result what each side
    /// yields, a checkpoint's state (in both closures) its initial value and what a step
    /// yields, an array after a store the array before. A literal array copied into a loop's
    /// state types that state.
    fn flows(block: &Block, out: &mut HashMap<Var, Vec<Operand>>) {
        for s in block {
            match s {
                // An element written: the array after it has the array's type.
                Stmt::Store { out: after, array, .. } => {
                    out.entry(*after).or_default().push(Operand::Var(*array));
                }
                Stmt::For(l) => {
                    for (k, c) in l.carried.iter().enumerate() {
                        out.entry(c.param).or_default().push(c.init);
                        let from = out.entry(l.outs[k]).or_default();
                        from.push(c.init);
                        from.extend(l.yields.get(k));
                    }
                    flows(&l.body, out);
                }
                Stmt::While(w) => {
                    for (k, c) in w.carried.iter().enumerate() {
                        out.entry(c.param).or_default().push(c.init);
                        let from = out.entry(w.outs[k]).or_default();
                        from.push(c.init);
                        from.extend(w.yields.get(k));
                    }
                    flows(&w.body, out);
                }
                Stmt::If(b) => {
                    for (k, o) in b.outs.iter().enumerate() {
                        let from = out.entry(*o).or_default();
                        from.extend(b.then_yields.get(k));
                        from.extend(b.else_yields.get(k));
                    }
                    flows(&b.then, out);
                    flows(&b.otherwise, out);
                }
                Stmt::Checkpoint(c) => {
                    for (k, init) in c.state.iter().enumerate() {
                        for params in [&c.step_params, &c.back_params] {
                            if let Some(p) = params.get(k) {
                                let from = out.entry(*p).or_default();
                                from.push(*init);
                                from.extend(c.step_yields.get(k));
                            }
                        }
                    }
                    flows(&c.step, out);
                    flows(&c.back, out);
                }
                _ => {}
            }
        }
    }
    struct Graph<'a> {
        defs: &'a HashMap<Var, &'a Stmt>,
        flows: HashMap<Var, Vec<Operand>>,
    }
    fn root(op: Operand, g: &Graph, out: &mut HashSet<Var>) {
        let Some(v) = op.var() else { return };
        if !out.insert(v) {
            return;
        }
        match g.defs.get(&v) {
            Some(Stmt::Op {
                prim: Prim::Add | Prim::Sub | Prim::Mul | Prim::Div | Prim::Neg,
                args,
                ..
            }) => {
                args.iter().for_each(|a| root(*a, g, out));
            }
            Some(Stmt::Load { array, .. }) => root(Operand::Var(*array), g, out),
            _ => {}
        }
        for from in g.flows.get(&v).into_iter().flatten() {
            root(*from, g, out);
        }
    }
    fn walk(block: &Block, g: &Graph, out: &mut HashSet<Var>) {
        for s in block {
            match s {
                Stmt::Op { prim, args, .. } if crate::symbol::prim_method(*prim).is_some() => {
                    root(args[0], g, out);
                }
                Stmt::For(l) => walk(&l.body, g, out),
                Stmt::While(w) => walk(&w.body, g, out),
                Stmt::If(b) => {
                    walk(&b.then, g, out);
                    walk(&b.otherwise, g, out);
                }
                Stmt::Checkpoint(c) => {
                    walk(&c.step, g, out);
                    walk(&c.back, g, out);
                }
                _ => {}
            }
        }
    }
    let mut g = Graph { defs, flows: HashMap::new() };
    flows(block, &mut g.flows);
    let mut out = HashSet::new();
    walk(block, &g, &mut out);
    out
}

/// Whether `tokens` are one `if` statement and nothing else (written `else if` after an `else`).
fn is_lone_if(tokens: &TokenStream) -> bool {
    match syn::parse2::<syn::Block>(quote!({ #tokens })) {
        Ok(block) => matches!(block.stmts.as_slice(), [syn::Stmt::Expr(syn::Expr::If(_), _)]),
        Err(_) => false,
    }
}

/// The defining statement of every value an `Op`, `Test`, `Load`, `Fill` or `Array` defines,
/// nested ones included.
fn collect_defs<'a>(block: &'a Block, defs: &mut HashMap<Var, &'a Stmt>) {
    for s in block {
        match s {
            Stmt::Op { out, .. }
            | Stmt::Test { out, .. }
            | Stmt::Load { out, .. }
            | Stmt::Fill { out, .. }
            | Stmt::Array { out, .. } => {
                defs.insert(*out, s);
            }
            Stmt::For(l) => collect_defs(&l.body, defs),
            Stmt::While(w) => collect_defs(&w.body, defs),
            Stmt::If(b) => {
                collect_defs(&b.then, defs);
                collect_defs(&b.otherwise, defs);
            }
            Stmt::Checkpoint(c) => {
                collect_defs(&c.step, defs);
                collect_defs(&c.back, defs);
            }
            _ => {}
        }
    }
}

/// Whether `tokens` name `id`.
pub(super) fn mentions(tokens: &TokenStream, id: &Ident) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == *id,
        proc_macro2::TokenTree::Group(g) => mentions(&g.stream(), id),
        _ => false,
    })
}

/// Whether the body of `l` reads its index (otherwise the loop is written `for _ in …`).
fn reads_index(f: &Func, l: &Loop) -> bool {
    let id = l.index;
    let int = |i: &Int| i.loops.contains(&id);
    let op = |o: &Operand| matches!(o, Operand::Ext(e) if f.exts[e.0 as usize].loops.contains(&id));
    block_reads(&l.body, &l.yields, &int, &op)
}

type Probe<'p, T> = &'p dyn Fn(&T) -> bool;

fn block_reads(b: &Block, yields: &[Operand], int: Probe<Int>, op: Probe<Operand>) -> bool {
    yields.iter().any(op) || b.iter().any(|s| stmt_reads(s, int, op))
}

fn stmt_reads(s: &Stmt, int: Probe<Int>, op: Probe<Operand>) -> bool {
    match s {
        Stmt::Op { args, .. } => args.iter().any(op),
        Stmt::Test { cond, .. } => cond_reads(cond, int, op),
        Stmt::Load { index, .. } => index.iter().any(int),
        Stmt::Store { index, value, .. } => index.iter().any(int) || op(value),
        Stmt::Fill { value, .. } => op(value),
        Stmt::Array { elems, .. } => elems.iter().any(op),
        Stmt::For(l) => {
            int(&l.range.lo)
                || int(&l.range.hi)
                || l.carried.iter().any(|c| op(&c.init))
                || block_reads(&l.body, &l.yields, int, op)
        }
        Stmt::If(b) => {
            block_reads(&b.then, &b.then_yields, int, op)
                || block_reads(&b.otherwise, &b.else_yields, int, op)
        }
        Stmt::Call(c) => {
            c.args.iter().any(|a| match a {
                Arg::Value { op: o, .. } => op(o),
                Arg::Fixed { ext: e, .. } | Arg::Const(e) => op(&Operand::Ext(*e)),
            }) || c.dirs.iter().any(op)
        }
        Stmt::While(w) => {
            w.range.as_ref().is_some_and(|r| int(&r.lo) || int(&r.hi))
                || op(&w.first)
                || op(&w.cond)
                || w.carried.iter().any(|c| op(&c.init))
                || block_reads(&w.body, &w.yields, int, op)
        }
        Stmt::Checkpoint(c) => {
            c.source.range().is_some_and(|r| int(&r.lo) || int(&r.hi))
                || c.state.iter().chain(c.adjoint.iter().map(|a| &a.init)).any(op)
                || block_reads(&c.step, &c.step_yields, int, op)
                || block_reads(&c.back, &c.back_yields, int, op)
        }
    }
}

fn cond_reads(c: &Cond, int: Probe<Int>, op: Probe<Operand>) -> bool {
    match c {
        Cond::F64(_, a, b) => op(a) || op(b),
        Cond::Int(_, a, b) => int(a) || int(b),
        Cond::Var(_) => false,
        Cond::Not(c) => cond_reads(c, int, op),
        Cond::And(a, b) | Cond::Or(a, b) => cond_reads(a, int, op) || cond_reads(b, int, op),
    }
}

/// Whether `block` holds a loop, at any depth of its branches.
fn holds_loop(block: &Block) -> bool {
    block.iter().any(|s| match s {
        Stmt::For(_) | Stmt::While(_) | Stmt::Checkpoint(_) => true,
        Stmt::If(b) => holds_loop(&b.then) || holds_loop(&b.otherwise),
        _ => false,
    })
}

/// Whether `block` (at any depth) reads or writes an array at an index that reads `index` in a
/// dimension other than the array's last: whether the loop of `index` selects rows.
fn selects_rows(f: &Func, block: &Block, index: LoopId) -> bool {
    let row = |array: &Var, at: &[Int]| {
        let rank = f.ty(*array).shape().map_or(0, |s| s.dims.len());
        at.iter().take(rank.saturating_sub(1)).any(|i| i.loops.contains(&index))
    };
    block.iter().any(|s| match s {
        Stmt::Load { array, index: at, .. } | Stmt::Store { array, index: at, .. } => {
            row(array, at)
        }
        Stmt::For(l) => selects_rows(f, &l.body, index),
        Stmt::While(w) => selects_rows(f, &w.body, index),
        Stmt::If(b) => selects_rows(f, &b.then, index) || selects_rows(f, &b.otherwise, index),
        _ => false,
    })
}
