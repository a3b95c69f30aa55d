//! The reference's excerpts of generated code (the `text` blocks of `guide::generated` and
//! `guide::structs` in `autodiff-runtime`) are the macro's expansion as it is today: they cannot
//! be doctests, so this checks them, as `the_readme_excerpt_is_the_quickstart_expansion` checks
//! the README's.

use super::expand_pretty;
use proc_macro2::TokenStream;
use quote::quote;

/// The `text` blocks of a guide page, without the `//!` prefix and the block's indentation.
fn text_blocks(page: &str) -> Vec<String> {
    let lines: Vec<&str> = page
        .lines()
        .map(|l| l.strip_prefix("//!").unwrap_or(l).strip_prefix(' ').unwrap_or(""))
        .collect();
    let mut blocks = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for line in lines {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match &mut open {
            None if trimmed == "```text" => open = Some((indent, String::new())),
            Some((_, block)) if trimmed == "```" => {
                blocks.push(std::mem::take(block));
                open = None;
            }
            Some((at, block)) => {
                block.push_str(line.get(*at..).unwrap_or(""));
                block.push('\n');
            }
            None => {}
        }
    }
    blocks
}

/// The block of `page` whose first line starts with `first`.
fn block<'a>(blocks: &'a [String], first: &str) -> &'a str {
    blocks.iter().find(|b| b.starts_with(first)).unwrap_or_else(|| panic!("no excerpt `{first}…`"))
}

/// Asserts that every line of `excerpt` is in the expansion of `#[grad(attr)] item`, in order
/// and contiguous (the expansion's indentation shifted by the excerpt's first line).
fn assert_excerpt(excerpt: &str, attr: TokenStream, item: TokenStream) {
    let out = expand_pretty(attr, item);
    let first = excerpt.lines().next().expect("a non-empty excerpt");
    let indent = out
        .lines()
        .find(|l| l.trim_start() == first)
        .map(|l| l.len() - l.trim_start().len())
        .unwrap_or_else(|| panic!("`{first}` is not in the expansion:\n{out}"));
    let shifted: String = excerpt.lines().map(|l| format!("{}{l}\n", " ".repeat(indent))).collect();
    let shifted = shifted.replace(&format!("{}\n", " ".repeat(indent)), "\n");
    assert!(
        out.contains(&shifted),
        "the guide's excerpt is not in the expansion:\n{excerpt}\n---\n{out}"
    );
}

const GENERATED: &str = include_str!("../../../autodiff-runtime/src/guide/generated.rs");
const STRUCTS: &str = include_str!("../../../autodiff-runtime/src/guide/structs.rs");

#[test]
fn the_lessons_excerpt_is_its_expansion() {
    let blocks = text_blocks(GENERATED);
    assert_excerpt(
        block(&blocks, "pub fn lessons_grad"),
        quote!(jvp, hvp),
        quote! {
            pub fn lessons<const M: usize>(x: [f64; M]) -> f64 {
                let mut s = 0.0;
                for i in 0..M {
                    s += x[i].sin() * x[(i + M - 1) % M];
                }
                s
            }
        },
    );
}

#[test]
fn the_euler_excerpt_is_its_expansion() {
    let blocks = text_blocks(GENERATED);
    assert_excerpt(
        block(&blocks, "pub fn euler_grad"),
        quote!(hvp),
        quote! {
            pub fn euler(x0: f64, k: f64, dt: f64) -> f64 {
                let mut x = x0;
                for _ in 0..1000 {
                    x = x - dt * k * x;
                }
                x
            }
        },
    );
}

#[test]
fn the_huber_excerpt_is_its_expansion() {
    let blocks = text_blocks(GENERATED);
    assert_excerpt(
        block(&blocks, "pub fn huber_grad"),
        quote!(jvp, hvp, hessian),
        quote! {
            pub fn huber(r: f64, delta: f64) -> f64 {
                if r.abs() <= delta { 0.5 * r * r } else { delta * (r.abs() - 0.5 * delta) }
            }
        },
    );
}

#[test]
fn the_struct_excerpt_is_in_its_expansion() {
    let blocks = text_blocks(STRUCTS);
    assert_excerpt(
        block(&blocks, "let mut m_bar"),
        quote!(jvp, hvp, hessian),
        quote! {
            pub fn loss(m: &Model, x: &[[f64; 2]], y: &[f64]) -> f64 {
                let mut s = 0.0;
                for k in 0..y.len() {
                    let r = m.w[0] * x[k][0] + m.w[1] * x[k][1] + m.b - y[k];
                    s += r * r;
                }
                s + m.l2 * (m.w[0] * m.w[0] + m.w[1] * m.w[1])
            }
        },
    );
}

/// The scanner finds every `text` block of the pages, so a new excerpt cannot go unchecked
/// without this count changing.
#[test]
fn every_excerpt_of_generated_code_is_checked() {
    assert_eq!(text_blocks(GENERATED).len(), 3);
    assert_eq!(text_blocks(STRUCTS).len(), 1);
}
