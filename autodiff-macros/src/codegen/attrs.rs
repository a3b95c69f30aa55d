//! The attributes of a generated function that do not come from its kind: those it carries over
//! from the user's function, and the lints it must allow because of literals the folding made
//! and of ranges that may be empty.

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::quote;

use crate::ir::{Block, Stmt};
use crate::symbol;

/// `attr` as the generated functions carry it, if they do: see [`symbol::INHERITED_ATTRS`],
/// [`symbol::DOC_HIDDEN`] and [`symbol::EXPECT_AS`].
pub fn inherited(attr: &syn::Attribute) -> Option<TokenStream> {
    let (expect, allow) = symbol::EXPECT_AS;
    let (doc, hidden) = symbol::DOC_HIDDEN;
    match &attr.meta {
        syn::Meta::List(list) if list.path.is_ident(doc) => {
            let only_hidden = syn::parse2::<Ident>(list.tokens.clone()).is_ok_and(|a| a == hidden);
            only_hidden.then(|| quote!(#attr))
        }
        syn::Meta::List(list) if list.path.is_ident(expect) => {
            let allow = Ident::new(allow, syn::spanned::Spanned::span(&list.path));
            let lints = &list.tokens;
            Some(quote!(#[#allow(#lints)]))
        }
        _ => symbol::INHERITED_ATTRS.iter().any(|n| attr.path().is_ident(n)).then(|| quote!(#attr)),
    }
}

/// Whether `tokens` hold a float literal that is a named constant of `core::f64::consts`
/// truncated or rounded to three significant digits or more (equal ones are written by name): a
/// superset of what clippy's `approx_constant` reports.
pub fn mentions_near_constant(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Literal(lit) => approximates_a_constant(&lit.to_string()),
        TokenTree::Group(g) => mentions_near_constant(g.stream()),
        _ => false,
    })
}

/// Whether `attr` is `#[allow(…)]` (or `#[expect(…)]`) naming the lint `lint`.
pub fn allows(attr: &syn::Attribute, lint: &str) -> bool {
    let (expect, allow) = symbol::EXPECT_AS;
    let levels = attr.path().is_ident(allow) || attr.path().is_ident(expect);
    levels && matches!(&attr.meta, syn::Meta::List(l) if mentions(l.tokens.clone(), lint))
}

fn mentions(tokens: TokenStream, name: &str) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Ident(id) => id == name,
        TokenTree::Group(g) => mentions(g.stream(), name),
        _ => false,
    })
}

/// Whether `tokens` compare a remainder with zero (`m % 2 == 0`, from a `match m % 2` arm), which
/// clippy's `manual_is_multiple_of` objects to for unsigned integers (and `is_multiple_of` is
/// not a method of the signed ones, so the test stays as it is).
pub fn has_remainder_test(tokens: TokenStream) -> bool {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let punct = |t: &TokenTree, c: char| matches!(t, TokenTree::Punct(p) if p.as_char() == c);
    let remainder = trees.iter().any(|t| punct(t, '%'));
    let zero_test = trees.windows(3).any(|w| {
        (punct(&w[0], '=') || punct(&w[0], '!'))
            && punct(&w[1], '=')
            && matches!(&w[2], TokenTree::Literal(l) if l.to_string() == "0")
    });
    (remainder && zero_test)
        || trees.into_iter().any(|t| match t {
            TokenTree::Group(g) => has_remainder_test(g.stream()),
            _ => false,
        })
}

/// Whether `tokens` hold a `for` loop.
pub fn has_loop(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Ident(id) => id == symbol::FOR,
        TokenTree::Group(g) => has_loop(g.stream()),
        _ => false,
    })
}

/// Whether the literal `text` (such as `0.5236` or `3.14_f64`) is a named constant truncated or
/// rounded to three or more significant digits.
fn approximates_a_constant(text: &str) -> bool {
    let text = text.replace('_', "");
    let text = text.trim_end_matches("f64");
    let Ok(x) = text.parse::<f64>() else { return false };
    let mantissa = text.split(['e', 'E']).next().unwrap_or_default();
    let digits = mantissa.trim_end_matches('0').trim_end_matches('.').replace('.', "");
    let significant = i32::try_from(digits.trim_start_matches('0').len()).unwrap_or(i32::MAX);
    significant >= 3
        && symbol::CONSTS.iter().any(|&(_, c)| {
            let unit = 10f64.powi(c.log10().floor() as i32 - significant + 1);
            // `c` truncated (`x` below `c` by less than a unit) or rounded (by half a unit).
            x != c && (-unit / 2.0..unit).contains(&(c - x))
        })
}

/// Whether a loop of `block` (or nested in it) starts at a known index above 0 and ends at one
/// the macro does not know.
pub fn may_be_empty(block: &Block) -> bool {
    block.iter().any(|s| match s {
        Stmt::For(l) => {
            let r = &l.range;
            (r.lo.value.is_some_and(|lo| lo > 0) && r.hi.value.is_none()) || may_be_empty(&l.body)
        }
        Stmt::While(w) => {
            w.range
                .as_ref()
                .is_some_and(|r| r.lo.value.is_some_and(|lo| lo > 0) && r.hi.value.is_none())
                || may_be_empty(&w.body)
        }
        Stmt::If(b) => may_be_empty(&b.then) || may_be_empty(&b.otherwise),
        Stmt::Checkpoint(c) => may_be_empty(&c.step) || may_be_empty(&c.back),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::approximates_a_constant;

    #[test]
    fn literals_close_to_named_constants_to_three_digits_or_more() {
        for flagged in ["0.5236", "3.14", "3.1416_f64", "0.70711", "6.283", "2.718e0"] {
            assert!(approximates_a_constant(flagged), "{flagged}");
        }
        let exact = std::f64::consts::PI.to_string();
        for clean in ["0.3", "0.7", "2.0", "3.0", "0.5", "100.0", "1e-3", "3.15", exact.as_str()] {
            assert!(!approximates_a_constant(clean), "{clean}");
        }
    }
}
