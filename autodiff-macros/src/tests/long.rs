//! Very long functions: no expression grows with the function; the adjoint of a value read by
//! every statement is cut into partial sums.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Expr, Stmt};

use crate::expand::expand;

/// `f(x, y)`: `s = (s * y).sin() + s` repeated `n` times.
fn chain(n: usize) -> TokenStream {
    let steps = (0..n).map(|_| quote!(s = (s * y).sin() + s;));
    quote!(fn f(x: f64, y: f64) -> f64 { let mut s = x; #(#steps)* s })
}

/// The bodies of the generated functions of `#[grad(hvp)]` on `item`, by name.
fn generated(item: TokenStream) -> Vec<(String, Vec<Stmt>)> {
    let file: syn::File = syn::parse2(expand(quote!(hvp), item)).expect("an expansion parses");
    let fns = file.items.into_iter().filter_map(|item| match item {
        syn::Item::Fn(f) if f.sig.ident != "f" => Some((f.sig.ident.to_string(), f.block.stmts)),
        _ => None,
    });
    fns.collect()
}

/// How deeply `e` nests operations (a name or a literal is 0).
fn depth(e: &Expr) -> usize {
    match e {
        Expr::Binary(b) => 1 + depth(&b.left).max(depth(&b.right)),
        Expr::Unary(u) => 1 + depth(&u.expr),
        Expr::Paren(p) => depth(&p.expr),
        Expr::MethodCall(m) => {
            1 + m.args.iter().chain([&*m.receiver]).map(depth).max().unwrap_or(0)
        }
        Expr::If(_) | Expr::Block(_) => 1,
        _ => 0,
    }
}

#[test]
fn sums_over_many_reads_are_cut_into_partial_sums() {
    // `y` is read by all 1,500 statements, so `y_bar` is a sum of 3,000 terms.
    for (name, body) in generated(chain(1500)) {
        let deepest = body
            .iter()
            .filter_map(|s| match s {
                Stmt::Local(local) => local.init.as_ref().map(|init| depth(&init.expr)),
                Stmt::Expr(Expr::Assign(a), _) => Some(depth(&a.right)),
                Stmt::Expr(e, None) => Some(depth(e)),
                _ => None,
            })
            .max();
        assert!(deepest.is_some_and(|d| d <= 20), "`{name}` nests {deepest:?} operations");
    }
}
