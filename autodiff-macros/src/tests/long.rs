//! Very long functions: past a thousand values, a generated body declares its values a run at a
//! time and then assigns them, so that its `let` scopes nest a few dozen deep, not once per value
//! (rustc's debug build overflows its stack past about 2,900); shorter bodies keep one `let` per
//! value. And no expression grows with the function: the adjoint of a value read by every
//! statement is cut into partial sums. `tests/long_function.rs` builds and runs a 4,000-statement
//! function.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Expr, Pat, Stmt};

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
        syn::Item::Fn(f) if f.sig.ident != "f" && !super::is_stand_in(&f) => {
            Some((f.sig.ident.to_string(), f.block.stmts))
        }
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

/// The names a declaration `let [a, b, ...]: [f64; n];` introduces, or `None` for another `let`.
fn declared(local: &syn::Local) -> Option<usize> {
    let Pat::Type(typed) = &local.pat else { return None };
    let Pat::Slice(names) = &*typed.pat else { return None };
    local.init.is_none().then_some(names.elems.len())
}

#[test]
fn short_bodies_have_one_let_per_value() {
    for (name, body) in generated(chain(40)) {
        let lets: Vec<&syn::Local> = body
            .iter()
            .filter_map(|s| match s {
                Stmt::Local(local) => Some(local),
                _ => None,
            })
            .collect();
        assert!(lets.len() > 40, "`{name}` has {} `let`s", lets.len());
        assert!(lets.iter().all(|l| l.init.is_some()), "`{name}` has a `let` without a value");
    }
}

#[test]
fn long_bodies_declare_their_values_in_runs() {
    for (name, body) in generated(chain(1500)) {
        let (mut declarations, mut names, mut assignments) = (0, 0, 0);
        for stmt in &body {
            match stmt {
                Stmt::Local(local) => {
                    let n =
                        declared(local).unwrap_or_else(|| panic!("`{name}`: a `let` with a value"));
                    assert!((100..=128).contains(&n), "`{name}` declares {n} names in one `let`");
                    declarations += 1;
                    names += n;
                }
                Stmt::Expr(Expr::Assign(_), Some(_)) => assignments += 1,
                _ => {}
            }
        }
        assert_eq!(names, assignments, "`{name}`: every declared name is assigned once");
        assert!(names > 1000 && declarations <= names / 64, "`{name}`: {declarations} `let`s");
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
