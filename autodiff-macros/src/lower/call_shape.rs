//! The array type of a call's value written without its type (issue 15): `let h = layer(w, x);`
//! then `h[i]`, or `layer(w, x)[i]`. A macro sees tokens, not types: where the value is indexed
//! (or iterated, `h.iter()`, `for v in h`, or lent to a call, `g(&h)`), it is an array of as
//! many dimensions as the deepest index says (one if none does), and its lengths are the
//! callee's `layer_shape` (a constant `#[grad]` writes next to an array-returning function's
//! derivatives, `[usize; R]`, see `codegen/shape.rs`): the call's value is typed
//! `[f64; layer_shape[0]]`, as if the user had written it. The constant is named at the call
//! (`module::g_shape` for `module::g`, `<Quat>::rotate_shape` for a method of a struct value
//! whose type is known), so a callee without one (a hand-written derivative, a function generic
//! over its value's length) is rustc's "cannot find value `g_shape`" at the call.
//!
//! A value assigned whole to an array variable or assigned one (`h = next;`, `next = [a, b];`)
//! has that array's type instead, as a call assigned to a variable directly does.
//!
//! Where the value is only passed on whole (`norm(h)`), nothing says it is an array: it is one
//! `f64`, and a callee returning an array says at the call to write the type, as before.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{Expr, Stmt, Type};

use super::arrays::index_chain;
use super::returned::Returned;
use super::structs::{call_span, in_scope, is_name, lends, respanned, suffixed};
use super::value::{Value, peel};
use super::{Binding, Lower};
use crate::ir::{Elem, Int, Operand, Ty};
use crate::symbol;

/// How many dimensions `rest`, the scope of `let name = ...;`, reads `name` as having: the
/// deepest index (`name[i][j]` two), 1 for an iteration (`name.iter()`, `name.len()`,
/// `for v in name`, lent to a call of the user's, `g(&name)`, for which `user` says whether a
/// call is one); `None` when it does not read it as an array.
pub(super) fn indexed_rank(
    name: &str,
    rest: &[Stmt],
    user: &dyn Fn(&Expr) -> bool,
) -> Option<usize> {
    let mut rank = 0;
    in_scope(name, rest, &mut |e| {
        let here = match e {
            Expr::Index(_) => {
                let (base, indices) = index_chain(e);
                if is_name(base, name) { indices.len() } else { 0 }
            }
            Expr::MethodCall(m) if is_name(&m.receiver, name) => {
                usize::from(ARRAY_METHODS.contains(&m.method.to_string().as_str()))
            }
            // Lent to a call of the user's (`user`): `#[grad]` passes an `f64` to one by value
            // (a struct's type is read first, see `structs/infer.rs`); a closure or a method of
            // another type may take `&f64`.
            Expr::MethodCall(m) if user(e) => usize::from(m.args.iter().any(|a| lends(a, name))),
            Expr::Call(c) if user(e) => usize::from(c.args.iter().any(|a| lends(a, name))),
            Expr::ForLoop(f) => usize::from(iterates(&f.expr, name)),
            _ => 0,
        };
        rank = rank.max(here);
        false
    });
    (rank > 0).then_some(rank)
}

/// The names `rest` binds to closures (`let sq = |v: &f64| ..;`), which may take `&f64`.
fn closures_bound(rest: &[Stmt]) -> std::collections::HashSet<String> {
    struct Closures(std::collections::HashSet<String>);
    impl<'ast> syn::visit::Visit<'ast> for Closures {
        fn visit_local(&mut self, l: &'ast syn::Local) {
            if let (Some(init), Some(name)) = (&l.init, super::structs::ident_of(&l.pat))
                && matches!(peel(&init.expr), Expr::Closure(_))
            {
                self.0.insert(name);
            }
            syn::visit::visit_local(self, l);
        }
    }
    let mut c = Closures(Default::default());
    rest.iter().for_each(|s| syn::visit::Visit::visit_stmt(&mut c, s));
    c.0
}

/// The methods of an array that no `f64` has: one called on a value says it is an array.
const ARRAY_METHODS: &[&str] = &["iter", "into_iter", "len"];

/// Whether `e` is `name` or `&name` (what a `for` loop iterates).
fn iterates(e: &Expr, name: &str) -> bool {
    match peel(e) {
        Expr::Reference(r) => is_name(&r.expr, name),
        other => is_name(other, name),
    }
}

impl Lower<'_> {
    /// The type `[[S; g_shape[1]]; g_shape[0]]` of `rank` dimensions, `S` the function's scalar,
    /// for the value of the call `e`, spanned at the call: `None` for what is not a call of a
    /// user's function by path, or a method of a struct value whose type is known.
    pub(super) fn shape_type(&self, e: &Expr, rank: usize) -> Option<Type> {
        let shape = match peel(e) {
            Expr::Call(_) => {
                let (_, p) = self.call_of_user_fn(e)?;
                suffixed(p, symbol::FN_SHAPE)?.to_token_stream()
            }
            Expr::MethodCall(m) if m.turbofish.is_none() => {
                let ty = self.struct_type(&m.receiver)?;
                let ident = shape_ident(&m.method);
                quote!(<#ty>::#ident)
            }
            _ => return None,
        };
        let scalar: TokenStream = self.scalar.text().parse().ok()?;
        let ty = (0..rank).rev().fold(scalar, |elem, k| {
            let k = proc_macro2::Literal::usize_unsuffixed(k);
            quote!([#elem; #shape[#k]])
        });
        syn::parse2(respanned(ty, call_span(peel(e)))).ok()
    }

    /// What `let name = init;` without a type returns when `rest`, the scope of `name`, reads
    /// it as an array and `init` is a call whose shape constant can be named.
    pub(super) fn indexed_call(
        &self,
        pat: &syn::Pat,
        init: &Expr,
        rest: &[Stmt],
    ) -> Option<Returned> {
        let name = super::structs::ident_of(pat)?;
        if let Some(ty) = self.assigned_type(&name, rest) {
            return Some(Returned::Array(ty));
        }
        let closures = closures_bound(rest);
        let user = |e: &Expr| match e {
            Expr::Call(c) => {
                let local = matches!(peel(&c.func), Expr::Path(p)
                    if p.path.get_ident().is_some_and(|id| closures.contains(&symbol::unraw(id))));
                !local && self.call_of_user_fn(e).is_some()
            }
            Expr::MethodCall(m) => self.struct_type(&m.receiver).is_some(),
            _ => false,
        };
        let ty = self.shape_type(init, indexed_rank(&name, rest, &user)?)?;
        self.scalar.array(&ty, &self.generics).map(Returned::Array)
    }

    /// The type of an array that `rest`, the scope of `name`, assigns `name` to or assigns to
    /// `name` whole: a variable's (`h = next;` types `let next = layer(..);` as `h` is, as a
    /// call assigned to it directly is, see `returned.rs`; `next = h;` too), or an array
    /// literal's of `f64`s (`next = [a, b];`) or a repeat's (`next = [0.0; 2];`).
    fn assigned_type(&self, name: &str, rest: &[Stmt]) -> Option<Ty> {
        let mut found = Vec::new();
        in_scope(name, rest, &mut |e| {
            if let Expr::Assign(a) = e {
                match (is_name(&a.right, name), is_name(&a.left, name)) {
                    (true, _) => found.push(peel(&a.left).clone()),
                    (_, true) => found.push(peel(&a.right).clone()),
                    _ => {}
                }
            }
            false
        });
        found.iter().find_map(|e| match e {
            Expr::Path(p) => match self.lookup(&symbol::unraw(p.path.get_ident()?))? {
                Binding::Slot(s) => {
                    let ty = self.b.ty(self.slots[*s].value?);
                    matches!(ty, Ty::Array(_)).then_some(ty)
                }
                _ => None,
            },
            Expr::Array(a) if !a.elems.iter().any(|x| matches!(peel(x), Expr::Array(_))) => {
                Some(Ty::array(Elem::F64, vec![Int::lit(a.elems.len() as u64)]))
            }
            Expr::Repeat(r) if !matches!(peel(&r.expr), Expr::Array(_) | Expr::Repeat(_)) => {
                Some(Ty::array(Elem::F64, vec![super::types::length(&r.len, &self.generics)]))
            }
            _ => None,
        })
    }
}

impl Lower<'_> {
    /// The value of `e`, indexed `rank` deep where it is (`layer(w, x)[i]`), when it is a call
    /// whose shape constant can be named: lowered as an array of that type.
    pub(super) fn shaped_call(&mut self, e: &Expr, rank: usize) -> Option<Operand> {
        if self.call_of_user_fn(e).is_none() && self.method_of_user(e).is_none() {
            return None;
        }
        let ty = self.scalar.array(&self.shape_type(e, rank)?, &self.generics)?;
        match self.typed_call(e, &Returned::Array(ty))? {
            Value::Real { op, .. } => Some(op),
            _ => Some(Operand::Lit(0.0)),
        }
    }
}

/// `g_shape` for a callee `g`.
fn shape_ident(name: &syn::Ident) -> syn::Ident {
    let text = format!("{}_{}", symbol::unraw(name), symbol::FN_SHAPE);
    syn::Ident::new(&text, name.span())
}

#[cfg(test)]
mod tests {
    use super::{Expr, indexed_rank, is_name};

    fn rank(body: &str) -> Option<usize> {
        let block: syn::Block = syn::parse_str(body).expect("a block");
        indexed_rank("h", &block.stmts, &|e| !matches!(e, Expr::Call(c) if is_name(&c.func, "sq")))
    }

    #[test]
    fn a_name_is_an_array_of_as_many_dimensions_as_its_deepest_index() {
        assert_eq!(rank("{ h[0] + h[1] }"), Some(1));
        assert_eq!(rank("{ let s = h[0][2]; s + h[1][0] }"), Some(2));
        assert_eq!(rank("{ h[1] = 2.0; for k in 0..3 { s += h[k][k] * 2.0; } s }"), Some(2));
        for body in [
            "{ h.iter().sum::<f64>() }",
            "{ for v in h { s += v; } s }",
            "{ for v in &h { s += v; } s }",
            "{ g(&h) }",
            "{ q.dot(&h) }",
            "{ h.len() as f64 }",
        ] {
            assert_eq!(rank(body), Some(1), "{body}");
        }
    }

    #[test]
    fn a_name_read_as_an_f64_passed_by_value_or_bound_again_is_not() {
        for body in [
            "{ h * 2.0 + h.sqrt() }",
            "{ g(h) }",
            "{ let h = 1.0; h }",
            "{ let h = [1.0; 2]; h[0] }",
            "{ xs.iter().map(|h| h[0]).sum::<f64>() }",
            "{ for h in rows { s += h[0]; } s }",
            "{ h.0 + h.1 }",
            "{ let sq = |v: &f64| v * 3.0; sq(&h) + h }",
        ] {
            assert_eq!(rank(body), None, "{body}");
        }
    }
}
