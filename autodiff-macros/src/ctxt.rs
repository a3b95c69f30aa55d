//! The error collector: every user-facing error is recorded with its span, and all of them are
//! reported together (the pattern of serde_derive's `Ctxt`).

use std::fmt::Display;

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;

/// Collects spanned errors during argument parsing and lowering.
#[derive(Default)]
pub struct Ctxt {
    errors: Vec<syn::Error>,
}

impl Ctxt {
    /// An empty collector.
    pub fn new() -> Self {
        Ctxt::default()
    }

    /// Records an error spanning the tokens of `node`.
    pub fn error_spanned<T: ToTokens, M: Display>(&mut self, node: T, message: M) {
        self.errors.push(syn::Error::new_spanned(node, message));
    }

    /// Records an error at `span`.
    pub fn error_at<M: Display>(&mut self, span: Span, message: M) {
        self.errors.push(syn::Error::new(span, message));
    }

    /// Records an error produced by a parser.
    pub fn syn_error(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// Whether nothing has been recorded.
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// The errors recorded so far, in order.
    #[cfg(test)]
    pub fn errors(&self) -> &[syn::Error] {
        &self.errors
    }

    /// Every error as a `compile_error!` invocation at its span.
    pub fn into_compile_errors(self) -> TokenStream {
        self.errors.into_iter().map(|e| e.to_compile_error()).collect()
    }
}
