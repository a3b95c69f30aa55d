//! Loops whose length is decided while they run: `loop { …; if done { break; } }`, or a `for`
//! loop over the range with the same exit, behind an `if` when the first iteration may not run;
//! a loop that fills a tape for its sweep declares it before and records its state at the top of
//! every iteration.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::super::layout::Repr;
use super::Renderer;
use crate::ir::{Cond, LoopId, Operand, Prec, Stmt, While};

impl Renderer<'_> {
    /// The identifier of the tape of the loop with index `l`.
    pub(super) fn tape(&self, l: LoopId) -> Ident {
        match self.tapes.get(&l) {
            Some(id) => id.clone(),
            None => Ident::new(crate::symbol::TAPE, proc_macro2::Span::mixed_site()),
        }
    }

    pub(super) fn while_loop(&self, w: &While) -> TokenStream {
        let before = self.carried_decls(&w.carried);
        let body = self.block(&w.body);
        let pairs = w.carried.iter().zip(&w.yields).map(|(c, y)| (c.param, *y)).collect();
        let yields = self.assign(pairs);
        let (declare, push) = match w.tape {
            Some(slots) => {
                let tape = self.tape(w.index);
                let state: Vec<TokenStream> =
                    w.carried.iter().map(|c| self.ident(c.param)).collect();
                let slots = proc_macro2::Literal::u64_unsuffixed(slots);
                (
                    quote! {
                        let mut #tape =
                            ::autodiff_runtime::__private::Online::<#slots, _>::new((#(#state,)*));
                    },
                    quote!(#tape.push(&(#(#state,)*));),
                )
            }
            None => (TokenStream::new(), TokenStream::new()),
        };
        let id = &self.loops[w.index.0 as usize];
        // The exit test, written inline, may read the index too (`k + 1 < n` for a counter).
        let exit = match w.cond {
            Operand::Bool(_) => None,
            cond => Some(self.negated(cond)),
        };
        let reads_index = super::reads_index(self.f, &w.as_loop())
            && body.iter().chain([&yields]).chain(&exit).any(|t| super::mentions(t, id));
        let index = if reads_index { quote!(#id) } else { quote!(_) };
        let head = match &w.range {
            Some(r) => {
                let range = self.loop_range(r, self.index_method_called(&w.as_loop()));
                quote!(for #index in #range)
            }
            None if reads_index => quote!(for #index in 0_usize..),
            None => quote!(loop),
        };
        let run = match w.cond {
            // One iteration.
            Operand::Bool(false) => quote!({ #push #(#body)* #yields }),
            Operand::Bool(true) => quote!(#head { #push #(#body)* #yields }),
            cond => {
                let exit = exit.unwrap_or_default();
                // The test reads the values before the carried variables are assigned.
                let overwritten: Vec<usize> = w
                    .carried
                    .iter()
                    .zip(&w.yields)
                    .filter(|(c, y)| !self.layout.same_slot(Operand::Var(c.param), **y))
                    .filter_map(|(c, _)| self.layout.slot(c.param))
                    .collect();
                match self.reads_slots(cond, &overwritten) {
                    false => quote!(#head { #push #(#body)* #yields if #exit { break; } }),
                    true => {
                        let stop = &self.stop;
                        quote!(#head { #push #(#body)* let #stop = #exit; #yields if #stop { break; } })
                    }
                }
            }
        };
        let run = match w.first {
            Operand::Bool(true) => run,
            Operand::Bool(false) => TokenStream::new(),
            first => {
                let first = self.operand(first).at_least(Prec::Or);
                quote!(if #first { #run })
            }
        };
        quote! {
            #(#before)*
            #declare
            #run
        }
    }

    /// `cond` negated, for an exit test: `done` for `!done` written inline, `!(x < y)` for a
    /// comparison.
    fn negated(&self, cond: Operand) -> TokenStream {
        if let Some(v) = cond.var()
            && self.layout.repr[v.index()] == Repr::Inline
            && let Some(Stmt::Test { cond: Cond::Not(c), .. }) = self.defs.get(&v)
        {
            return self.cond(c).at_least(Prec::Or);
        }
        let x = self.operand(cond).at_least(Prec::Unary);
        quote!(!#x)
    }
}
