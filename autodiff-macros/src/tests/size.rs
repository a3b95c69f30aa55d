//! Code size of the generated functions, counted in tokens over the whole test corpus: `_hvp` stays
//! a small constant times `_grad`, and `_hessian` grows linearly with the number of parameters.

use std::path::Path;

use proc_macro2::{TokenStream, TokenTree};
use quote::{ToTokens, quote};

use crate::expand::expand;

fn count(tokens: TokenStream) -> usize {
    tokens
        .into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => 2 + count(g.stream()),
            _ => 1,
        })
        .sum()
}

/// Token counts of each generated function in an expansion, by name suffix (stand-ins, which
/// are `#[doc(hidden)]`, left out).
fn sizes(expansion: TokenStream) -> Vec<(String, usize)> {
    let Ok(file) = syn::parse2::<syn::File>(expansion) else { return Vec::new() };
    file.items
        .into_iter()
        .filter_map(|item| match item {
            syn::Item::Fn(f) if !super::is_stand_in(&f) => {
                Some((f.sig.ident.to_string(), count(f.block.to_token_stream())))
            }
            _ => None,
        })
        .collect()
}

fn size_of(sizes: &[(String, usize)], suffix: &str) -> usize {
    sizes.iter().find(|(n, _)| n.ends_with(suffix)).map_or(0, |(_, s)| *s)
}

/// Every `#[grad]` function of the corpus crate (`../src/*.rs`), without its attribute, and the
/// attribute's arguments with `hvp` added.
fn corpus() -> Vec<(TokenStream, syn::ItemFn)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../src");
    let mut fns = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir).into_iter().flatten().flatten().collect();
    files.sort_by_key(|e| e.path());
    for entry in files {
        let Ok(text) = std::fs::read_to_string(entry.path()) else { continue };
        let Ok(file) = syn::parse_file(&text) else { continue };
        let mut items = file.items;
        while let Some(item) = items.pop() {
            match item {
                syn::Item::Fn(mut f) if f.attrs.iter().any(|a| a.path().is_ident("grad")) => {
                    let attr = f.attrs.iter().find(|a| a.path().is_ident("grad"));
                    let args = match attr.map(|a| &a.meta) {
                        Some(syn::Meta::List(list)) => list.tokens.clone(),
                        _ => TokenStream::new(),
                    };
                    let has_hvp = args.clone().into_iter().any(|t| t.to_string() == "hvp");
                    let args = match () {
                        _ if has_hvp => args,
                        _ if args.is_empty() => quote!(hvp),
                        _ => quote!(#args, hvp),
                    };
                    f.attrs.retain(|a| !a.path().is_ident("grad"));
                    fns.push((args, f));
                }
                syn::Item::Mod(m) => items.extend(m.content.map(|c| c.1).unwrap_or_default()),
                _ => {}
            }
        }
    }
    fns
}

#[test]
fn hvp_is_a_small_constant_times_grad_over_the_corpus() {
    let mut rows = Vec::new();
    // Functions returning several values have no gradient or HVP.
    let scalar = |f: &syn::ItemFn| matches!(&f.sig.output, syn::ReturnType::Type(_, t) if quote::ToTokens::to_token_stream(t).to_string() == "f64");
    for (args, f) in corpus().into_iter().filter(|(_, f)| scalar(f)) {
        let generated = sizes(expand(args, f.to_token_stream()));
        let (grad, hvp) = (size_of(&generated, "_grad"), size_of(&generated, "_hvp"));
        assert!(grad > 0 && hvp > 0, "`{}` did not expand", f.sig.ident);
        rows.push((f.sig.ident.to_string(), f.block.stmts.len(), grad, hvp));
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.2));
    println!("function | statements | _grad tokens | _hvp tokens | ratio");
    for (name, stmts, grad, hvp) in rows.iter().take(8) {
        println!("{name} | {stmts} | {grad} | {hvp} | {:.2}", *hvp as f64 / *grad as f64);
    }
    for (name, _, grad, hvp) in &rows {
        assert!(*hvp <= 4 * grad, "`{name}`: _hvp has {hvp} tokens, _grad {grad}");
    }
}

#[test]
fn loop_code_does_not_grow_with_the_trip_count() {
    let lessons = |n: usize| {
        let n = proc_macro2::Literal::usize_unsuffixed(n);
        let item = quote! {
            fn f(x: [f64; #n]) -> f64 {
                let mut s = 0.0;
                for i in 0..#n {
                    s += x[i].sin() * x[(i + #n - 1) % #n];
                }
                s
            }
        };
        count(expand(quote!(jvp, hvp), item))
    };
    assert_eq!(lessons(10), lessons(1000));
    assert_eq!(lessons(1000), lessons(1_000_000));
    // A loop that stores a value per iteration, too.
    let euler = |n: usize| {
        let n = proc_macro2::Literal::usize_unsuffixed(n);
        let item = quote! {
            fn e(x0: f64, k: f64) -> f64 {
                let mut x = x0;
                for _ in 0..#n {
                    x = x - 0.01 * k * x;
                }
                x
            }
        };
        count(expand(quote!(hvp, stack = 100000000), item))
    };
    assert_eq!(euler(10), euler(1000));
}

#[test]
fn hessian_code_grows_linearly_with_the_parameters() {
    let hessian_size = |n: usize| {
        let params: Vec<TokenStream> = (0..n)
            .map(|i| {
                let x = quote::format_ident!("x{}", i);
                quote!(#x: f64)
            })
            .collect();
        let item = quote!(fn f(#(#params),*) -> f64 { x0 * x0 });
        size_of(&sizes(expand(quote!(hessian), item)), "_hessian")
    };
    let (small, large) = (hessian_size(4), hessian_size(40));
    // The body has a fixed part plus two short token runs per parameter: 10x the parameters
    // must give well under 10x the tokens (a quadratic body would give 100x).
    assert!(large < 10 * small, "hessian body: {small} tokens for 4 parameters, {large} for 40");
}
