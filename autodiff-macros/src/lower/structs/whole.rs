//! Array fields of a struct returned by a call, read whole or by rows (bug 48): `let y = r.w;`
//! then `y[i]`, `y = r.w;` for an array `y`, `let w: [f64; 3] = r.w;`, `r.m[i][j]`, a row
//! `r.m[i]`. The struct is held laid flat (see `flat.rs`), so such a read is the field's scalars
//! copied out of the flat array into an array of the field's shape (a literal of loads when the
//! lengths are small literals, loops otherwise).
//!
//! The shape comes from where the value goes when that is written (the `let`'s type, the
//! variable assigned, the function's return type); otherwise from the body's uses of the field,
//! read before the variable's scope is lowered (`scan.rs`: `y[i][j]` after `let y = r.m;` makes
//! `r.m` two-dimensional), with the lengths from the struct (`Differentiable::TREE`, evaluated
//! by rustc: `field_dim::<G90Out>(&["w"], 0)`). Every read checks, in a `const` block spanned at
//! the field, that the field has the shape it is read with, so a wrong guess is a compile error
//! at the read that says what to write, never a wrong value.
//!
//! A field read only whole, never indexed (`let w = r.w; g(w)`, `g(&r.w)`, `Model { w: r.w, .. }`
//! returned) is copied out as its scalars laid flat whatever its type (`field_flat_len` of them,
//! an `Int::flat` length), and rebuilt in the type of where it goes by rustc's inference
//! (`shaped`, at the call or in the returned literal).
//!
//! What this does not know: the field's type where nothing tells it otherwise. A field read as
//! a value in other ways and never indexed is read as an `f64`, and if it is an array rustc
//! reports it at the field (`field_scalar`), with the typed `let` to write.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote_spanned};
use syn::{Expr, Member, Pat, Stmt};

use super::super::{Binding, Lower};
use crate::ir::{Carry, Elem, Int, Loop, LoopInfo, Name, Operand, Range, Ty};
use crate::symbol;

/// The most scalars of a field read whole that are copied as a literal of loads, not by loops.
const LITERAL_MAX: u64 = 16;

/// A field of a struct held laid flat, from the struct down (`r.inner.w`).
pub(in crate::lower) struct FlatPath {
    /// The slot of the variable holding the struct.
    pub(super) slot: usize,
    /// The struct's type.
    pub(super) ty: std::rc::Rc<syn::Type>,
    /// The names of the fields, from the struct down (`["inner", "w"]`).
    pub(super) names: Vec<String>,
    /// The span of the last field's name, where rustc reports a wrong read.
    pub(super) span: Span,
    /// The fields, from the struct down.
    pub(super) members: Vec<Member>,
}

/// How the scope of a struct returned by a call reads one of its fields (`r.inner.w`).
pub(in crate::lower) struct FieldDepth {
    /// The names of the fields, from the struct down.
    names: Vec<String>,
    /// How many dimensions it is indexed with.
    depth: usize,
    /// Whether it is read only whole, or by rows passed to calls (see
    /// [`super::scan::FieldUse::passed_only`]).
    passed: bool,
    /// Whether rows of it are passed to calls (`g(r.m[i])`).
    rows: bool,
}

/// The name of a field as `Differentiable::TREE` has it (its position for a tuple struct).
fn member_name(m: &Member) -> String {
    match m {
        Member::Named(id) => symbol::unraw(id),
        Member::Unnamed(i) => i.index.to_string(),
    }
}

impl Lower<'_> {
    /// Records, for the variable `pat` just bound to a struct returned by a call, how many
    /// dimensions its scope `rest` indexes each of its fields with (through the locals bound to
    /// them too).
    pub(in crate::lower) fn flat_field_uses(&mut self, pat: &Pat, rest: &[Stmt]) {
        let Some(name) = super::ident_of(pat) else { return };
        let Some(super::super::Binding::Slot(s)) = self.lookup(&name).cloned() else { return };
        if self.slots[s].strukt.is_none() {
            return;
        }
        let block = syn::Block { brace_token: Default::default(), stmts: rest.to_vec() };
        let depths = super::scan::uses(&block, std::slice::from_ref(&name))
            .into_iter()
            .map(|u| FieldDepth {
                names: u.path.iter().map(member_name).collect(),
                depth: u.depth,
                passed: u.passed_only(),
                rows: u.rows,
            })
            .collect();
        self.slots[s].field_depths = std::rc::Rc::new(depths);
    }

    /// The field of a struct held laid flat that `e` reads (`r.w`, `r.inner.w`).
    pub(in crate::lower) fn flat_path(&self, e: &Expr) -> Option<FlatPath> {
        let (mut at, mut members) = (super::super::value::peel(e), Vec::new());
        let (slot, ty) = loop {
            let Expr::Field(f) = at else { return None };
            members.push(&f.member);
            if let Some(found) = self.flat_struct(&f.base) {
                break found;
            }
            at = super::super::value::peel(&f.base);
        };
        members.reverse();
        let span = syn::spanned::Spanned::span(members.last()?);
        let names = members.iter().map(|m| member_name(m)).collect();
        let members = members.into_iter().cloned().collect();
        Some(FlatPath { slot, ty, names, span, members })
    }

    /// How many dimensions the body indexes the field `p` with (0: an `f64`, as far as it
    /// tells).
    fn flat_depth(&self, p: &FlatPath) -> usize {
        let depths = &self.slots[p.slot].field_depths;
        depths.iter().filter(|d| d.names == p.names).map(|d| d.depth).max().unwrap_or(0)
    }

    /// Whether the body reads the field `p` only whole (passed to calls, copied into the
    /// returned struct), or by rows passed to calls (`g(r.m[i])`), never indexed otherwise.
    pub(super) fn flat_passed(&self, p: &FlatPath) -> bool {
        let depths = &self.slots[p.slot].field_depths;
        let mut reads = depths.iter().filter(|d| d.names == p.names);
        reads.clone().next().is_some() && reads.all(|d| d.passed && (d.depth == 0 || d.rows))
    }

    /// How many dimensions the field read `e` has, as far as the body tells (0 for an `f64`).
    pub(in crate::lower) fn flat_field_depth(&self, e: &Expr) -> usize {
        self.flat_path(e).map_or(0, |p| self.flat_depth(&p))
    }

    /// `const { ::autodiff_runtime::__private::func::<Ty>(&["inner", "w"], extra) }`, spanned at
    /// the field: a number rustc evaluates from the struct's `Differentiable` impl.
    pub(super) fn field_const(&self, p: &FlatPath, func: &str, extra: Option<TokenStream>) -> Int {
        let (ty, names) = (&p.ty, &p.names);
        let func = proc_macro2::Ident::new(func, Span::call_site());
        let extra = extra.map(|x| quote_spanned!(p.span=> , #x));
        let tokens = quote_spanned!(p.span=>
            const { ::autodiff_runtime::__private::#func::<#ty>(&[#(#names),*] #extra) }
        );
        let mut int = Int::tokens(tokens, true);
        int.generic = super::mentions_any(&ty.to_token_stream(), &self.generics);
        int
    }

    /// `s = call(..)` for a variable `s` made from a struct literal (`let mut s = P { .. };`
    /// then `s = s.step(dt);`): the call's value held laid flat, each of `s`'s fields read from
    /// it in the type the field holds. Whether `rhs` is such a call.
    pub(in crate::lower) fn assign_record_call(&mut self, rhs: &Expr, b: &Binding) -> bool {
        let Binding::Record(shape, _) = b else { return false };
        let path = &shape.path;
        let ty: std::rc::Rc<syn::Type> = std::rc::Rc::new(syn::parse_quote!(#path));
        let want = super::super::returned::Returned::Struct(Box::new((*ty).clone()));
        let Some(super::super::value::Value::Real { op, .. }) = self.typed_call(rhs, &want) else {
            return false;
        };
        let span = syn::spanned::Spanned::span(rhs);
        let mut at =
            FlatPath { slot: usize::MAX, ty, names: Vec::new(), span, members: Vec::new() };
        self.assign_flat_fields(rhs, b, op, &mut at);
        true
    }

    /// Each field of `b` (a struct literal's parts, nested ones too) assigned its value in the
    /// struct laid flat in `array`, `at` the path down to `b`.
    fn assign_flat_fields(&mut self, rhs: &Expr, b: &Binding, array: Operand, at: &mut FlatPath) {
        match b {
            Binding::Record(shape, parts) => {
                for (m, part) in shape.members.iter().zip(parts) {
                    at.names.push(member_name(m));
                    self.assign_flat_fields(rhs, part, array, at);
                    at.names.pop();
                }
            }
            Binding::Slot(s) => {
                let Some(current) = self.slots[*s].value else { return };
                let v = match self.b.ty(current) {
                    // The field's lengths are the part's: the literal it was made from has the
                    // struct's type, which rustc checks (they may be read at run time,
                    // `p.v.len()`, so only the rank is checked here).
                    Ty::Array(shape) => {
                        let rank = proc_macro2::Literal::usize_unsuffixed(shape.dims.len());
                        let from =
                            self.field_const(at, "field_array", Some(rank.to_token_stream()));
                        self.flat_copy(array, &from, &shape.dims)
                    }
                    _ => {
                        let from = self.field_const(at, "field_scalar", None);
                        self.b.load(Name::temp(), array, vec![from])
                    }
                };
                self.assign_record_part(rhs, b, v);
            }
            _ => {}
        }
    }

    /// The first `rank` lengths of the array field `p`, from the struct.
    fn flat_dims(&self, p: &FlatPath, rank: usize) -> Vec<Int> {
        let k = |k: usize| Some(proc_macro2::Literal::usize_unsuffixed(k).to_token_stream());
        (0..rank).map(|j| self.field_const(p, "field_dim", k(j))).collect()
    }

    /// The type of `base` (a field of a struct held laid flat) indexed `k` times, when it is an
    /// array: a row of a field of more dimensions.
    pub(in crate::lower) fn flat_array_ty(&self, base: &Expr, k: usize) -> Option<Ty> {
        let p = self.flat_path(base)?;
        let rank = self.flat_depth(&p).max(k);
        (rank > k).then(|| Ty::array(Elem::F64, self.flat_dims(&p, rank)[k..].to_vec()))
    }

    /// The field read `e` whole, `want` the type of where it goes when that is written: an
    /// `f64`, or an array of its scalars.
    pub(in crate::lower) fn flat_whole(&mut self, e: &Expr, want: Option<&Ty>) -> Operand {
        let Some(p) = self.flat_path(e) else { return Operand::Lit(0.0) };
        let Some(array) = self.slots[p.slot].value else { return Operand::Lit(0.0) };
        if let Some(Ty::Array(shape)) = want {
            let lens: Vec<TokenStream> =
                shape.dims.iter().map(|d| d.render(&|_| quote::quote!(_))).collect();
            let mut at = self.field_const(&p, "field_shaped", Some(quote::quote!(&[#(#lens),*])));
            at.generic |= shape.dims.iter().any(|d| d.generic);
            return self.flat_copy(array, &at, &shape.dims);
        }
        match self.flat_depth(&p) {
            // Read only whole (and by rows passed to calls): its scalars laid flat, whatever
            // its type, rebuilt in the type of where it goes (see `Int::flat`).
            _ if self.flat_passed(&p) => {
                let at = self.field_const(&p, "field_flat_at", None);
                let mut len = self.field_const(&p, "field_flat_len", None);
                len.flat = true;
                self.flat_copy(array, &at, &[len])
            }
            0 => {
                let at = self.field_const(&p, "field_scalar", None);
                self.b.load(Name::temp(), array, vec![at])
            }
            rank => {
                let k = Some(proc_macro2::Literal::usize_unsuffixed(rank).to_token_stream());
                let at = self.field_const(&p, "field_array", k);
                let dims = self.flat_dims(&p, rank);
                self.flat_copy(array, &at, &dims)
            }
        }
    }

    /// `r.v[i]`, `r.m[i][j]` (`indices` into `base`, an array field of a struct held laid flat):
    /// the element at its place after the field's first scalar, or a row (`r.m[i]`, where the
    /// body indexes `r.m` deeper elsewhere) copied out.
    pub(in crate::lower) fn flat_element(&mut self, base: &Expr, indices: &[&Expr]) -> Operand {
        let Some(p) = self.flat_path(base) else { return Operand::Lit(0.0) };
        let Some(array) = self.slots[p.slot].value else { return Operand::Lit(0.0) };
        let rank = self.flat_depth(&p).max(indices.len());
        let k = Some(proc_macro2::Literal::usize_unsuffixed(rank).to_token_stream());
        let mut at = self.field_const(&p, "field_array", k);
        // One index into a field of one dimension needs no lengths (a hand-written
        // `Differentiable`, without a tree, is read so too).
        let dims = match rank {
            1 => vec![Int::lit(0)],
            _ => self.flat_dims(&p, rank),
        };
        for (j, ix) in indices.iter().enumerate() {
            let mut i = self.int_expr(ix, super::super::int::IntCtx::Index);
            if let Some(l) = i.as_index()
                && let Some(id) = self.b.func().loops[l.0 as usize].ident.clone()
            {
                i = by_name(i, &id);
            }
            at = at.add(&i.times(&stride(&dims[j + 1..])));
        }
        match &dims[indices.len()..] {
            [] => self.b.load(Name::temp(), array, vec![at]),
            row => self.flat_copy(array, &at, row),
        }
    }

    /// The scalars of `array` from `at` on, row-major, as an array of the lengths `dims`.
    pub(super) fn flat_copy(&mut self, array: Operand, at: &Int, dims: &[Int]) -> Operand {
        let small = dims.iter().try_fold(1u64, |n, d| d.value.and_then(|v| n.checked_mul(v)));
        if small.is_some_and(|n| n <= LITERAL_MAX) {
            return self.flat_literal(array, at, dims);
        }
        let ty = Ty::array(Elem::F64, dims.to_vec());
        let zeros = self.b.fill(Name::temp(), ty, Operand::Lit(0.0));
        self.flat_loops(array, at, dims, Vec::new(), zeros)
    }

    /// [`Self::flat_copy`] for small literal lengths: a literal of loads.
    fn flat_literal(&mut self, array: Operand, at: &Int, dims: &[Int]) -> Operand {
        let (n, inner) = (dims[0].value.unwrap_or(0), &dims[1..]);
        let size = stride(inner);
        let elems = (0..n)
            .map(|k| {
                let at = at.add(&Int::lit(k).times(&size));
                match inner {
                    [] => self.b.load(Name::temp(), array, vec![at]),
                    _ => self.flat_literal(array, &at, inner),
                }
            })
            .collect();
        self.b.array(Name::temp(), Ty::array(Elem::F64, dims.to_vec()), elems)
    }

    /// [`Self::flat_copy`] by loops: `acc`, with the elements under `prefix` (the indices of the
    /// loops around) stored from `array`, one loop per remaining dimension.
    fn flat_loops(
        &mut self,
        array: Operand,
        at: &Int,
        dims: &[Int],
        prefix: Vec<Int>,
        acc: Operand,
    ) -> Operand {
        let k = prefix.len();
        // Named, as the indices of the loops the sugar writes: an index in an expression with
        // a length rustc evaluates is read by its name.
        let id = self.names.fresh(symbol::INDEX_NAMES[0]);
        let index = self.b.new_loop(LoopInfo { ident: Some(id.clone()), span: Span::call_site() });
        let ty = self.b.ty(acc);
        let param = self.b.fresh(Name::temp(), ty.clone());
        self.b.begin();
        let mut ix = prefix;
        ix.push(by_name(Int::index(index), &id));
        let y = match k + 1 == dims.len() {
            true => {
                let mut offset = at.clone();
                for (j, i) in ix.iter().enumerate() {
                    offset = offset.add(&i.times(&stride(&dims[j + 1..])));
                }
                let e = self.b.load(Name::temp(), array, vec![offset]);
                self.b.store(Name::temp(), Operand::Var(param), ix, e)
            }
            false => self.flat_loops(array, at, dims, ix, Operand::Var(param)),
        };
        let body = self.b.end();
        let out = self.b.fresh(Name::temp(), ty);
        let range = Range { lo: Int::lit(0), hi: dims[k].clone(), inclusive: false, rev: false };
        let carried = vec![Carry { param, init: acc }];
        self.b.emit_loop(Loop { index, range, carried, body, yields: vec![y], outs: vec![out] });
        Operand::Var(out)
    }
}

/// The index `i` of a loop as its name `id`, in an expression of tokens with a length rustc
/// evaluates (`at + i`): an index alone is written by codegen, an expression by its tokens.
pub(super) fn by_name(i: Int, id: &proc_macro2::Ident) -> Int {
    let mut named = Int::tokens(id.to_token_stream(), true);
    (named.affine, named.linear, named.poly, named.loops) = (i.affine, i.linear, i.poly, i.loops);
    named
}

/// The number of scalars in an array of the lengths `dims` (1 for none).
pub(super) fn stride(dims: &[Int]) -> Int {
    dims.iter().fold(Int::lit(1), |n, d| n.times(d))
}
