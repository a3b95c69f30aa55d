//! Rows of array fields passed whole to calls (`g(s.m[i])`, `g(&s.m[i])`, `g(r.m[0])` for a
//! struct `r` returned by a call, `g(q.mul(&p).m[0])` for the value of a call read as a struct,
//! held laid flat as a bound one is), where the body indexes the field no deeper elsewhere: the
//! row is an `f64` or an array, as the callee takes it, and nothing in the body tells which. The
//! field is held as its scalars laid flat (a struct parameter's field input, all the field's
//! scalars; or the flat array of a struct returned by a call; see `scan.rs`), and a row is its
//! scalars from `i · (len / dim₀)` on, copied into an array laid flat (`Int::flat`) that
//! codegen rebuilds in the type of the callee's parameter (`shaped`), as it does for a field
//! passed whole. The lengths are constants rustc evaluates from the field's type, named by a
//! closure reading the field (`field_row_len(|s: &S| &s.m, 1)`). The row's partial comes back
//! laid flat, and the copy's loads add it at the same place: no transform learns about rows.
//!
//! What this does not know: the row's type. A struct parameter's field read elsewhere by such
//! an index, not as the argument of a call of a user's function (an argument of a closure), is
//! read as an `f64`, checked by rustc (`field_element`). A row of a nested field of a call's
//! value read in place (`g(q.mul(&p).inner.x[0])`) is not one: bind the value first.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::{Expr, Member};

use super::super::Lower;
use super::super::arrays::index_chain;
use super::super::int::IntCtx;
use super::super::returned::Returned;
use super::super::value::{Value, peel};
use super::whole::{by_name, stride};
use crate::ir::{Elem, Int, Name, Operand, Ty};
use crate::symbol;

/// Where a row is copied from: the array, the place of the field's first scalar in it, the
/// closure naming the field (`|s: &S| &s.m`), and the span of the field.
struct RowSource {
    array: Operand,
    at: Int,
    field: TokenStream,
    span: Span,
    generic: bool,
}

/// `|s: &S| &s.inner.m`: the field `members` of the struct `owned`, for the `const fn`s that
/// read its type.
pub(super) fn field_fn(owned: &TokenStream, members: &[Member], span: Span) -> TokenStream {
    let s = Ident::new("s", Span::mixed_site());
    quote_spanned!(span=> |#s: &#owned| &#s #(.#members)*)
}

/// `const { ::autodiff_runtime::__private::func(field, k) }`, spanned at the field's read.
fn field_const(field: &TokenStream, func: &str, k: Option<usize>, span: Span) -> Int {
    let func = Ident::new(func, Span::call_site());
    let k = k.map(|k| {
        let k = proc_macro2::Literal::usize_unsuffixed(k);
        quote!(, #k)
    });
    let tokens = quote_spanned!(span=> const { ::autodiff_runtime::__private::#func(#field #k) });
    Int::tokens(tokens, true)
}

impl Lower<'_> {
    /// The IR type of the field `path` of the struct parameter `k` whose rows are passed to
    /// calls: all its scalars laid flat, `[f64; field_value_len(|s: &Model| &s.m)]`.
    pub(super) fn rows_field_ty(&self, k: usize, path: &[Member], at: &TokenStream) -> Ty {
        let span = at.clone().into_iter().next().map_or(Span::call_site(), |t| t.span());
        let owned = self.structs[k].owned.to_token_stream();
        let mut len = field_const(&field_fn(&owned, path, span), "field_value_len", None, span);
        len.flat = true;
        Ty::array(Elem::F64, vec![len])
    }

    /// The argument `e` of a call when it is a row of a field held laid flat (`s.m[i]`,
    /// `&s.m[i]`): the row's scalars laid flat, and whether it is lent.
    pub(in crate::lower) fn row_arg(&mut self, e: &Expr) -> Option<(Operand, bool)> {
        let (inner, by_ref) = match peel(e) {
            Expr::Reference(r) if r.mutability.is_none() => (peel(&r.expr), true),
            other => (other, false),
        };
        let (base, indices) = index_chain(inner);
        if indices.is_empty() {
            return None;
        }
        let source = match self.call_row_source(peel(base)) {
            Some(source) => source,
            None => self.row_source(peel(base))?,
        };
        let (at, len) = self.row_at(&source, &indices, "field_row_len");
        let mut len = len;
        len.flat = true;
        Some((self.flat_copy(source.array, &at, &[len]), by_ref))
    }

    /// `s.m[i][j]` read as an `f64` (not an argument of a call of a user's function) of a
    /// struct parameter's field whose rows are passed to calls; `None` for another read.
    pub(in crate::lower) fn row_element(
        &mut self,
        base: &Expr,
        indices: &[&Expr],
    ) -> Option<Operand> {
        self.flat_field_of(peel(base))?;
        let source = self.row_source(peel(base))?;
        let (at, _) = self.row_at(&source, indices, "field_element");
        Some(self.b.load(Name::temp(), source.array, vec![at]))
    }

    /// The field held laid flat that `base` reads, as a source of rows.
    fn row_source(&self, base: &Expr) -> Option<RowSource> {
        let Expr::Field(f) = base else { return None };
        let span = syn::spanned::Spanned::span(&f.member);
        if let Some((k, path, input)) = self.flat_field_of(base) {
            let rows = self.structs[k].fields.iter().any(|f| f.input == input && f.rows);
            if !rows {
                return None;
            }
            let field = field_fn(&self.structs[k].owned.to_token_stream(), &path, span);
            let array = Operand::Var(input);
            return Some(RowSource { array, at: Int::lit(0), field, span, generic: false });
        }
        let p = self.flat_path(base)?;
        if !self.flat_passed(&p) {
            return None;
        }
        let array = self.slots[p.slot].value?;
        let at = self.field_const(&p, "field_flat_at", None);
        let ty = p.ty.to_token_stream();
        let generic = super::mentions_any(&ty, &self.generics);
        let field = field_fn(&ty, &p.members, p.span);
        Some(RowSource { array, at, field, span: p.span, generic })
    }

    /// `call.m`, a field of the value of a call read as a struct (`q.mul(&p).m`), as a source
    /// of rows: the call lowered, its value held laid flat as a bound one is (see `infer.rs`).
    fn call_row_source(&mut self, base: &Expr) -> Option<RowSource> {
        let Expr::Field(f) = base else { return None };
        let Member::Named(id) = &f.member else { return None };
        if !self.is_inferred_struct_call(&f.base) {
            return None;
        }
        let ty = self.inferred_struct(&f.base)?;
        let want = Returned::Struct(Box::new(ty.clone()));
        let array = match self.typed_call(&f.base, &want)? {
            Value::Real { op, .. } => op,
            _ => Operand::Lit(0.0),
        };
        let span = syn::spanned::Spanned::span(&f.member);
        let (ty, member, name) = (ty.to_token_stream(), &f.member, symbol::unraw(id));
        let at = quote_spanned!(span=>
            const { ::autodiff_runtime::__private::field_flat_at::<#ty>(&[#name]) }
        );
        let generic = super::mentions_any(&ty, &self.generics);
        let mut at = Int::tokens(at, true);
        at.generic = generic;
        let field = field_fn(&ty, std::slice::from_ref(member), span);
        Some(RowSource { array, at, field, span, generic })
    }

    /// The place of the row `indices` of the field `s` (its scalars from `i · stride` on), and
    /// its length, `len` the `const fn` that gives it.
    fn row_at(&mut self, s: &RowSource, indices: &[&Expr], len: &str) -> (Int, Int) {
        let konst = |func: &str, k: usize| {
            let mut int = field_const(&s.field, func, Some(k), s.span);
            int.generic = s.generic;
            int
        };
        let len = konst(len, indices.len());
        // The lengths of the dimensions after the first, down to the row, then the row's.
        let dims: Vec<Int> = (1..indices.len())
            .map(|j| konst("field_row_dim", j))
            .chain(std::iter::once(len.clone()))
            .collect();
        let mut at = s.at.clone();
        for (j, ix) in indices.iter().enumerate() {
            let mut i = self.int_expr(ix, IntCtx::Index);
            if let Some(l) = i.as_index()
                && let Some(id) = self.b.func().loops[l.0 as usize].ident.clone()
            {
                i = by_name(i, &id);
            }
            at = at.add(&i.times(&stride(&dims[j..])));
        }
        (at, len)
    }
}
