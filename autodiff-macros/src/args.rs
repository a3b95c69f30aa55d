//! The attribute's options: `#[grad]`, `#[grad(wrt(a, b))]`, `#[grad(jvp, hvp, hessian)]`,
//! `#[grad(jacobian)]`, `#[grad(jacobian(forward))]`, `#[grad(argmin)]`, `#[grad(into)]`. Unknown or repeated options are spanned
//! errors.

use proc_macro2::{Ident, Span, TokenStream};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Meta, Token};

use crate::ctxt::Ctxt;
use crate::symbol;

/// The options of one `#[grad(...)]` attribute.
#[derive(Default)]
pub struct Args {
    /// The parameters named in `wrt(...)`, if the option was given (empty when it names only
    /// fields).
    pub wrt: Option<Vec<Ident>>,
    /// The fields of struct parameters named in `wrt(...)`: `m.w`.
    pub wrt_fields: Vec<WrtField>,
    /// Emit `f_jvp`.
    pub jvp: bool,
    /// Emit `f_hvp`.
    pub hvp: bool,
    /// Emit `f_hessian` (which also emits `f_hvp`).
    pub hessian: bool,
    /// Emit `f_jacobian` (which also emits `f_jvp`), in this mode.
    pub jacobian: Option<Mode>,
    /// The most stack, in bytes, that a generated function may use to store values for its
    /// reverse sweeps (`stack = N`).
    pub stack: Option<u64>,
    /// `checkpoint(s = N)`: checkpoint loops that would store values, with `N` snapshots (the
    /// default when only `checkpoint` is written).
    pub checkpoint: Option<u64>,
    /// `implicit('a, 'b)`: the labels of the loops differentiated implicitly, at their fixed
    /// point, instead of through their iterations.
    pub implicit: Vec<Ident>,
    /// Emit the argmin problem type `FProblem` (`argmin`).
    pub argmin: bool,
    /// `accumulate`: the derivatives written into the caller's buffers (of differentiated
    /// slices) are added to what the buffers hold, instead of overwriting it.
    pub accumulate: bool,
    /// `into`: also emit `f_grad_into`, the gradient written into the caller's arrays.
    pub into: bool,
    /// `__unfused` (hidden, for tests): the sweeps' loops are not fused with the forward loops
    /// they follow (`transform/fuse.rs`), so that a test can compare the two forms.
    pub unfused: bool,
    /// `jacobian(row_by_row)` or `jacobian(column_by_column)` (hidden, for tests and the
    /// fuzzer): the Jacobian in reverse (forward) mode, one `f_vjp` per row (`f_jvp` per column),
    /// instead of one pass carrying every row (column).
    pub one_by_one: bool,
    /// Where each option was written, for messages about it.
    pub spans: Vec<(&'static str, Span)>,
}

/// A field of a struct parameter named in `wrt(...)`, such as `m.w` or `self.inner.c`.
pub struct WrtField {
    /// The parameter.
    pub root: Ident,
    /// The fields from it down.
    pub path: Vec<syn::Member>,
    /// As written, for messages.
    pub tokens: TokenStream,
}

/// How `f_jacobian` makes the Jacobian.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// By the shape: forward mode when it has fewer columns than rows, reverse mode otherwise.
    Auto,
    /// One forward sweep (`f_jvp`) per column.
    Forward,
    /// One reverse sweep (`f_vjp`) per row.
    Reverse,
}

impl Args {
    /// Where the option `name` was written, if it was.
    pub fn span_of(&self, name: &str) -> Option<Span> {
        self.spans.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
    }
}

/// Parses the attribute's tokens, recording every problem in `cx`.
pub fn parse(cx: &mut Ctxt, tokens: TokenStream) -> Args {
    let mut args = Args::default();
    let metas = match Punctuated::<Meta, Token![,]>::parse_terminated.parse2(tokens) {
        Ok(metas) => metas,
        Err(e) => {
            cx.syn_error(syn::Error::new(
                e.span(),
                format!(
                    "{}: expected options separated by commas, such as `wrt(x, y)`, `jvp`, `hvp`, `hessian`",
                    e
                ),
            ));
            return args;
        }
    };
    for meta in metas {
        let Some(name) = meta.path().get_ident().map(ToString::to_string) else {
            unknown(cx, &meta);
            continue;
        };
        if let Some(known) = symbol::OPTIONS.iter().find(|o| **o == name) {
            args.spans.push((known, syn::spanned::Spanned::span(meta.path())));
        }
        let flag = match name.as_str() {
            symbol::OPT_JVP => &mut args.jvp,
            symbol::OPT_HVP => &mut args.hvp,
            symbol::OPT_HESSIAN => &mut args.hessian,
            symbol::OPT_ARGMIN => &mut args.argmin,
            symbol::OPT_ACCUMULATE => &mut args.accumulate,
            symbol::OPT_INTO => &mut args.into,
            symbol::OPT_UNFUSED => &mut args.unfused,
            symbol::OPT_WRT => {
                wrt(cx, &meta, &mut args);
                continue;
            }
            symbol::OPT_JACOBIAN => {
                args.one_by_one = jacobian(cx, &meta, &mut args.jacobian);
                continue;
            }
            symbol::OPT_STACK => {
                stack(cx, &meta, &mut args.stack);
                continue;
            }
            symbol::OPT_CHECKPOINT => {
                checkpoint(cx, &meta, &mut args.checkpoint);
                continue;
            }
            symbol::OPT_IMPLICIT => {
                implicit(cx, &meta, &mut args.implicit);
                continue;
            }
            _ => {
                unknown(cx, &meta);
                continue;
            }
        };
        if !matches!(meta, Meta::Path(_)) {
            cx.error_spanned(&meta, format!("the option `{name}` takes no arguments"));
        } else if *flag {
            cx.error_spanned(&meta, format!("the option `{name}` is given twice"));
        }
        *flag = true;
    }
    args
}

fn unknown(cx: &mut Ctxt, meta: &Meta) {
    let known: Vec<String> = symbol::OPTIONS.iter().map(|o| format!("`{o}`")).collect();
    let name = quote::ToTokens::to_token_stream(meta.path()).to_string().replace(' ', "");
    cx.error_spanned(
        meta.path(),
        format!(
            "unknown option `{name}` for `{}`; the options are {}",
            symbol::ATTR,
            known.join(", ")
        ),
    );
}

fn checkpoint(cx: &mut Ctxt, meta: &Meta, slot: &mut Option<u64>) {
    if slot.is_some() {
        cx.error_spanned(meta, "the option `checkpoint` is given twice");
        return;
    }
    let snapshots = match meta {
        Meta::Path(_) => Some(symbol::DEFAULT_SNAPSHOTS),
        Meta::List(list) => syn::parse2::<syn::MetaNameValue>(list.tokens.clone())
            .ok()
            .filter(|nv| nv.path.is_ident(symbol::OPT_SNAPSHOTS))
            .and_then(|nv| match nv.value {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => {
                    i.base10_parse::<u64>().ok()
                }
                _ => None,
            })
            .filter(|s| *s >= 1),
        Meta::NameValue(_) => None,
    };
    match snapshots {
        Some(s) => *slot = Some(s),
        None => cx.error_spanned(
            meta,
            "`checkpoint` takes the number of snapshots, at least 1: `checkpoint(s = 16)` (or `checkpoint` alone for 32)",
        ),
    }
}

fn implicit(cx: &mut Ctxt, meta: &Meta, slot: &mut Vec<Ident>) {
    if !slot.is_empty() {
        cx.error_spanned(meta, "the option `implicit` is given twice");
        return;
    }
    let labels = match meta {
        Meta::List(list) => Punctuated::<syn::Lifetime, Token![,]>::parse_terminated
            .parse2(list.tokens.clone())
            .ok(),
        _ => None,
    };
    match labels {
        Some(labels) if !labels.is_empty() => slot.extend(labels.into_iter().map(|l| l.ident)),
        _ => cx.error_spanned(
            meta,
            "`implicit` takes the labels of the loops to differentiate at their fixed point: `implicit('solve)` for `'solve: loop { … }`",
        ),
    }
}

fn stack(cx: &mut Ctxt, meta: &Meta, slot: &mut Option<u64>) {
    if slot.is_some() {
        cx.error_spanned(meta, "the option `stack` is given twice");
        return;
    }
    let bytes = match meta {
        Meta::NameValue(nv) => match &nv.value {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => {
                i.base10_parse::<u64>().ok()
            }
            _ => None,
        },
        _ => None,
    };
    match bytes {
        Some(b) => *slot = Some(b),
        None => cx.error_spanned(
            meta,
            "`stack` takes the budget in bytes as an integer literal: `stack = 4_000_000`",
        ),
    }
}

/// Parses `jacobian`, `jacobian(forward)`, `jacobian(reverse)` into `slot`; returns whether it
/// was the hidden `jacobian(row_by_row)` or `jacobian(column_by_column)`.
fn jacobian(cx: &mut Ctxt, meta: &Meta, slot: &mut Option<Mode>) -> bool {
    if slot.is_some() {
        cx.error_spanned(meta, "the option `jacobian` is given twice");
        return false;
    }
    let mut one_by_one = false;
    let mode = match meta {
        Meta::Path(_) => Mode::Auto,
        Meta::List(list) => match syn::parse2::<Ident>(list.tokens.clone()) {
            Ok(m) if m == symbol::MODE_FORWARD => Mode::Forward,
            Ok(m) if m == symbol::MODE_REVERSE => Mode::Reverse,
            Ok(m) if m == symbol::MODE_ROW_BY_ROW => {
                one_by_one = true;
                Mode::Reverse
            }
            Ok(m) if m == symbol::MODE_COLUMN_BY_COLUMN => {
                one_by_one = true;
                Mode::Forward
            }
            _ => {
                cx.error_spanned(
                    &list.tokens,
                    "`jacobian` takes `forward` or `reverse` to force a mode: `jacobian(forward)`; without it the mode follows the shape",
                );
                Mode::Auto
            }
        },
        Meta::NameValue(_) => {
            cx.error_spanned(meta, "`jacobian` takes no value; force a mode with `jacobian(forward)` or `jacobian(reverse)`");
            Mode::Auto
        }
    };
    *slot = Some(mode);
    one_by_one
}

fn wrt(cx: &mut Ctxt, meta: &Meta, args: &mut Args) {
    if args.wrt.is_some() {
        cx.error_spanned(meta, "the option `wrt` is given twice");
        return;
    }
    let Meta::List(list) = meta else {
        cx.error_spanned(meta, "`wrt` lists the parameters to differentiate: `wrt(x, y)`");
        return;
    };
    if !matches!(list.delimiter, syn::MacroDelimiter::Paren(_)) {
        cx.error_spanned(meta, "`wrt` lists the parameters in parentheses: `wrt(x, y)`");
        return;
    }
    let entries = match Punctuated::<syn::Expr, Token![,]>::parse_terminated
        .parse2(list.tokens.clone())
    {
        Ok(entries) => entries,
        Err(e) => {
            return cx.syn_error(syn::Error::new(
                e.span(),
                "`wrt` takes parameter names separated by commas: `wrt(x, y)`, and fields of struct parameters: `wrt(m.w)`",
            ));
        }
    };
    if entries.is_empty() {
        cx.error_spanned(meta, "`wrt()` is empty; name at least one `f64` parameter");
        return;
    }
    let mut names: Vec<Ident> = Vec::new();
    for e in entries {
        if let Some((root, path)) = wrt_field(&e) {
            let tokens = quote::ToTokens::to_token_stream(&e);
            let same = |f: &&WrtField| f.root == root && f.path == path;
            match args.wrt_fields.iter().find(same) {
                Some(_) => cx.error_spanned(
                    &e,
                    format!("`{}` is listed twice in `wrt`", tokens.to_string().replace(' ', "")),
                ),
                None => args.wrt_fields.push(WrtField { root, path, tokens }),
            }
            continue;
        }
        let id = match &e {
            syn::Expr::Path(p) if p.qself.is_none() => p.path.get_ident().cloned(),
            _ => None,
        };
        let Some(id) = id else {
            cx.error_spanned(&e, "`wrt` takes parameter names separated by commas: `wrt(x, y)`, and fields of struct parameters: `wrt(m.w)`");
            continue;
        };
        if names.iter().any(|n| symbol::unraw(n) == symbol::unraw(&id)) {
            cx.error_spanned(&id, format!("`{id}` is listed twice in `wrt`"));
        } else {
            names.push(id);
        }
    }
    args.wrt = Some(names);
}

/// `m.w` in `wrt(...)`: the parameter and the fields.
fn wrt_field(e: &syn::Expr) -> Option<(Ident, Vec<syn::Member>)> {
    let syn::Expr::Field(f) = e else { return None };
    let (root, mut path) = match &*f.base {
        syn::Expr::Path(p) if p.qself.is_none() => (p.path.get_ident()?.clone(), Vec::new()),
        inner @ syn::Expr::Field(_) => wrt_field(inner)?,
        _ => return None,
    };
    path.push(f.member.clone());
    Some((root, path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn options_parse_and_bad_ones_are_all_reported() {
        let mut cx = Ctxt::new();
        let a = parse(&mut cx, quote!(wrt(x, y), hvp, hessian));
        assert!(cx.is_ok());
        let names: Vec<String> = a.wrt.unwrap_or_default().iter().map(|i| i.to_string()).collect();
        assert_eq!(
            (names, a.jvp, a.hvp, a.hessian),
            (vec!["x".into(), "y".into()], false, true, true)
        );
        let mut cx = Ctxt::new();
        parse(&mut cx, quote!(jvp, jvp, speed, wrt()));
        assert_eq!(cx.into_compile_errors().to_string().matches("compile_error").count(), 3);
    }
}
