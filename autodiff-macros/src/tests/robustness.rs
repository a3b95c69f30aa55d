//! The macro never panics, whatever tokens it is given: random fragments of Rust around the
//! supported subset go through the whole expansion, as the body, the signature or the options.

use proc_macro2::TokenStream;
use proptest::prelude::*;

use crate::expand::expand;

/// Fragments that are close to what users write, valid or not.
const FRAGMENTS: &[&str] = &[
    "x",
    "y",
    "n",
    "data",
    "p",
    "t0",
    "x_bar",
    "1.0",
    "2",
    "-",
    "+",
    "*",
    "/",
    "%",
    "=",
    "+=",
    "*=",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    ",",
    ".",
    "::",
    "as",
    "f64",
    "f32",
    "i32",
    "let",
    "mut",
    "return",
    "if",
    "else",
    "while",
    "for",
    "in",
    "0..3",
    "loop",
    "match",
    "=>",
    "_",
    "|",
    "&",
    "&mut",
    "sin",
    "powi",
    "powf",
    "min",
    "max",
    "abs",
    "hypot",
    "atan2",
    "mul_add",
    "foo",
    "println!",
    "unsafe",
    "async",
    "fn",
    "->",
    "<",
    ">",
    "T",
    "wrt",
    "hvp",
    "jvp",
    "hessian",
    "1e308",
    "0.0",
    "-0.0",
    "std::f64::consts::PI",
    "data[0]",
    "*r",
];

fn tokens(parts: &[usize]) -> TokenStream {
    let text: Vec<&str> = parts.iter().map(|i| FRAGMENTS[i % FRAGMENTS.len()]).collect();
    text.join(" ").parse().unwrap_or_default()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bodies_never_panic(body in prop::collection::vec(0..FRAGMENTS.len(), 0..40)) {
        let body = tokens(&body);
        let item = quote::quote!(fn f(x: f64, y: f64, n: i32, data: &[f64], r: &f64) -> f64 { #body });
        let _ = expand(quote::quote!(jvp, hvp, hessian), item);
    }

    #[test]
    fn random_signatures_and_options_never_panic(
        params in prop::collection::vec(0..FRAGMENTS.len(), 0..16),
        attr in prop::collection::vec(0..FRAGMENTS.len(), 0..8),
    ) {
        let params = tokens(&params);
        let item = quote::quote!(fn f(#params) -> f64 { x * y });
        let _ = expand(tokens(&attr), item);
    }
}

/// Straight-line bodies made of the supported subset, to exercise the transforms and codegen
/// (not only the error paths).
fn supported_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("x".to_owned()),
        Just("y".to_owned()),
        Just("2.0".to_owned()),
        Just("-0.0".to_owned()),
        Just("(n as f64)".to_owned()),
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone(), 0..4_usize)
                .prop_map(|(a, b, op)| { format!("({a} {} {b})", ["+", "-", "*", "/"][op]) }),
            (inner.clone(), 0..crate::symbol::METHODS.len()).prop_map(|(a, m)| {
                let (name, prim) = crate::symbol::METHODS[m];
                match prim.arity() {
                    _ if name == "powi" => format!("({a}).powi(3)"),
                    1 => format!("({a}).{name}()"),
                    2 => format!("({a}).{name}(y)"),
                    _ => format!("({a}).{name}(x, y)"),
                }
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn supported_bodies_expand_to_valid_rust(e1 in supported_expr(), e2 in supported_expr()) {
        let src = format!("fn f(x: f64, y: f64, n: i32) -> f64 {{ let mut a = {e1}; a *= {e2}; a + x }}");
        let item: TokenStream = src.parse().unwrap_or_default();
        let out = expand(quote::quote!(jvp, hvp, hessian), item);
        prop_assert!(!out.to_string().contains("compile_error"), "{}", out);
        prop_assert!(syn::parse2::<syn::File>(out).is_ok());
    }
}
