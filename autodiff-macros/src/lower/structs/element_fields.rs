//! The second step of reading an array of structs as a struct of arrays (see `arrays.rs`):
//! each read of an element's field, `ps[i].x`, rewritten as a read of the array that field is,
//! `ps.x[i]` (`ps[i].w[j]` is `ps.w[i][j]`), and `ps.len()` as the array's length; the element
//! or the array read otherwise (whole, or a method's receiver) is refused. A binding of the
//! array's name shadows it in its scope (`scope.rs`): its reads there are the local's.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{Expr, Member};

use super::arrays::{Elements, name_of, path_expr, peel};
use super::scope::{self, Scoped, Shadows};
use crate::symbol;

/// The second step: an element's field read as the array of that field.
pub(super) struct Fields<'a> {
    pub(super) arrays: &'a [Elements],
    pub(super) errors: Vec<(TokenStream, String)>,
    /// The arrays' names shadowed here by the body's bindings.
    pub(super) shadows: Shadows,
}

impl Fields<'_> {
    /// The array of structs `e` names, if it names one (and no binding shadows it here).
    fn array(&self, e: &Expr) -> Option<usize> {
        let name = name_of(e)?;
        (!self.shadows.hides(&name)).then(|| self.arrays.iter().position(|a| a.name == name))?
    }

    /// `ps[E].a.b` as the array, the index `E` and the fields `[a, b]`.
    fn field_read(&self, e: &Expr) -> Option<(usize, Expr, Vec<Member>)> {
        let Expr::Field(f) = peel(e) else { return None };
        match peel(&f.base) {
            Expr::Index(i) => {
                let k = self.array(&i.expr)?;
                Some((k, (*i.index).clone(), vec![f.member.clone()]))
            }
            inner @ Expr::Field(_) => {
                let (k, index, mut path) = self.field_read(inner)?;
                path.push(f.member.clone());
                Some((k, index, path))
            }
            _ => None,
        }
    }

    fn refuse(&mut self, e: &mut Expr, what: String) {
        self.errors.push((e.to_token_stream(), what));
        // A placeholder, so that lowering reports nothing more here.
        *e = syn::parse_quote_spanned!(e.span()=> 0.0);
    }
}

impl Scoped for Fields<'_> {
    fn shadows(&mut self) -> &mut Shadows {
        &mut self.shadows
    }
}

impl VisitMut for Fields<'_> {
    scope::scoped_visits!();

    fn visit_macro_mut(&mut self, _: &mut syn::Macro) {}

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Some((k, mut index, path)) = self.field_read(e) {
            self.visit_expr_mut(&mut index);
            let span = e.span();
            let root = path_expr(&self.arrays[k].name, span);
            *e = syn::parse_quote_spanned!(span=> #root #(.#path)* [#index]);
            return;
        }
        let name = |k: usize| self.arrays[k].name.clone();
        match peel(e) {
            Expr::MethodCall(m) if m.method == symbol::LEN && m.args.is_empty() => {
                if let Some(k) = self.array(&m.receiver) {
                    let len = &self.arrays[k].len;
                    *e = match len {
                        Expr::Lit(_) | Expr::Path(_) => len.clone(),
                        _ => syn::parse_quote_spanned!(e.span()=> (#len)),
                    };
                    return;
                }
            }
            Expr::MethodCall(m) if matches!(peel(&m.receiver), Expr::Index(i) if self.array(&i.expr).is_some()) =>
            {
                let Expr::Index(i) = peel(&m.receiver) else { return };
                let Some(k) = self.array(&i.expr) else { return };
                let (ps, method) = (name(k), m.method.to_string());
                let what = format!(
                    "`#[grad]` does not call methods on an element of the array of structs `{ps}` (`{method}`): it reads the elements through their fields (`{ps}[i].x`, `p.x` in `for p in {ps}.iter()`); write the method's computation with the fields, or a `#[grad]` function taking them"
                );
                return self.refuse(e, what);
            }
            Expr::Index(i) if self.array(&i.expr).is_some() => {
                let Some(k) = self.array(&i.expr) else { return };
                let ps = name(k);
                let what = format!(
                    "`#[grad]` reads an element of the array of structs `{ps}` through its fields (`{ps}[i].x`) and does not take it whole (an argument of a call, a copy, a value); pass the fields it needs"
                );
                return self.refuse(e, what);
            }
            Expr::Path(_) if self.array(e).is_some() => {
                let Some(k) = self.array(e) else { return };
                let ps = name(k);
                let what = format!(
                    "`#[grad]` reads the array of structs `{ps}` through its elements' fields (`{ps}[i].x`), in loops over its indices or its elements (`for p in {ps}.iter()`), and its length (`{ps}.len()`); it does not take it whole here"
                );
                return self.refuse(e, what);
            }
            _ => {}
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}
