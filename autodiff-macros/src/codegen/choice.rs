//! A derivative function with several variants of its body, one per way of sweeping its loops,
//! and the condition that picks one: the lengths of its loops of run-time length against the
//! capacities of each variant's storage (when the function starts), and the size of storage
//! only rustc can size against the budget (folded at compile time).

use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote};

use super::names::Namer;
use super::{Context, Kind, Rendered};
use crate::ir::{Func, Int};
use crate::symbol;

impl Context<'_> {
    /// A derivative function whose loops store their values in arrays whose size only rustc
    /// knows (loops over `0..STEPS`, a `const` item or a const generic), or of a capacity that a
    /// loop's run-time length may exceed (`0..n`): `stored`, in order, each taken when its
    /// storage fits the budget and every such length is at most its capacity (the variants are
    /// the capacity tiers, smallest first, so that the one taken zero-fills the least), and
    /// `checkpointed` (the same function with those loops checkpointed) past them all. Each
    /// variant is a closure of its own, run by `__private::variant` or `variant_with` (never
    /// inlined), so that the ones not taken take no stack: in a debug build every local of a
    /// function has its stack slot, on any path, and in a release build the variants inlined
    /// would share one frame, the largest's, probed page by page on every call. A stored
    /// variant of a page or less runs in line (`variant_inline`), and the closure takes the
    /// function's reference parameters as its own (`passed`).
    pub fn derivative_choice(
        &self,
        kind: Kind,
        stored: &[&Func],
        checkpointed: &Func,
    ) -> TokenStream {
        let mut namer = Namer::new(self.item.to_token_stream());
        let fresh = || Namer::new(self.item.to_token_stream());
        let rendered: Vec<Rendered> =
            stored.iter().map(|f| self.render(&mut fresh(), kind, f)).collect();
        let b = self.render(&mut fresh(), kind, checkpointed);
        let sig = rendered.first().unwrap_or(&b);
        let check = self.stack_check(checkpointed);
        let revolve = namer.local(symbol::CHECKPOINTED_VARIANT);
        let (sb, lb) = (&b.stmts, rebind(sig, &b));
        let (params, run) = self.passed(sig, &b, &revolve, quote!(#check #lb #(#sb)*), None);
        let last = quote! {
            let #revolve = |#(#params),*| {
                #check
                #lb
                #(#sb)*
            };
            #run
        };
        let mut used = b.used.clone();
        let (mut conds, mut arms) = (Vec::new(), Vec::new());
        for (f, a) in stored.iter().zip(&rendered) {
            let caps = crate::transform::capacities(f);
            let keep = match (stored.len(), caps.iter().map(|(_, c)| *c).max()) {
                (2.., Some(cap)) => namer.local(&format!("{}_{cap}", symbol::STORED_VARIANT)),
                _ => namer.local(symbol::STORED_VARIANT),
            };
            let fits = self.fits(f, &caps);
            conds.push(quote!(#(#fits)&&*));
            let (sa, la) = (&a.stmts, rebind(sig, a));
            let bytes = crate::transform::total(&crate::transform::storage(f));
            let (params, run) = self.passed(sig, a, &keep, quote!(#la #(#sa)*), Some(bytes));
            arms.push(quote! {
                let #keep = |#(#params),*| {
                    #la
                    #(#sa)*
                };
                #run
            });
            used.extend(a.used.iter().cloned());
        }
        let body = quote! {
            #(if #conds { #arms } else)* { #last }
        };
        // A value read by any body is a used parameter. (They read the same directions: they
        // are one function, its loops swept in several ways.)
        let mut doc = self.choice_doc(stored);
        for note in &b.notes {
            doc.push_str("\n\n");
            doc.push_str(note);
        }
        let mut r = rendered.into_iter().next().unwrap_or(b);
        r.used = used;
        let lead = stored.first().copied().unwrap_or(checkpointed);
        self.assemble(&mut namer, kind, lead, &r, &doc, body)
    }

    /// The parameters of the closure `name` that holds the variant `v` (whose statements are
    /// `body`), and its call through `__private::variant_with`: the user's parameters that are
    /// shared references and that `v` reads, at most [`symbol::PASSED_MAX`], each under the name
    /// `v` gives it and passed under the signature's (`sig`'s) name. A reference that reaches the
    /// variant as a parameter keeps what the closure's captured copy loses, that nothing writes
    /// the memory behind it while the call lasts (see `variant_with`). The other values (scalars,
    /// `&mut` buffers, directions, `self`) are captured; with no parameter to pass, the closure
    /// runs through `__private::variant`. A stored variant whose storage, `bytes`, is at most
    /// [`symbol::INLINE_VARIANT_BYTES`] runs in line (`__private::variant_inline`): when only
    /// rustc knows the size, under a condition on the constants that it folds (none when the
    /// budget itself is that small).
    fn passed(
        &self,
        sig: &Rendered,
        v: &Rendered,
        name: &Ident,
        body: TokenStream,
        bytes: Option<Int>,
    ) -> (Vec<TokenStream>, TokenStream) {
        let (mut params, mut args) = (Vec::new(), Vec::new());
        for p in self.params {
            let own = symbol::unraw(&p.ident);
            let shared = matches!(&p.ty, syn::Type::Reference(r) if r.mutability.is_none());
            if !shared || own == symbol::SELF_VALUE || !v.used.contains(&own) {
                continue;
            }
            if mentions_impl(p.ty.to_token_stream()) || params.len() == symbol::PASSED_MAX {
                continue;
            }
            let have = v.renamed.get(&own).cloned().unwrap_or_else(|| p.ident.clone());
            if !super::body::mentions(&body, &have) {
                continue;
            }
            let want = sig.renamed.get(&own).cloned().unwrap_or_else(|| p.ident.clone());
            let ty = &p.ty;
            params.push(quote!(#have: #ty));
            args.push(want);
        }
        let p = quote!(::autodiff_runtime::__private);
        let apart = match args.is_empty() {
            true => quote!(#p::variant(#name)),
            false => quote!(#p::variant_with(#name, (#(#args,)*))),
        };
        let inline = quote!(#p::variant_inline(#name, (#(#args,)*)));
        let small = symbol::INLINE_VARIANT_BYTES;
        let run = match bytes {
            None => apart,
            // Every stored variant is within the budget.
            Some(_) if self.budget <= small => inline,
            Some(b) => match b.value {
                Some(v) if v <= small => inline,
                Some(_) => apart,
                None => {
                    let text = b.render(&|_| quote!(_));
                    let small = proc_macro2::Literal::u64_unsuffixed(small);
                    quote!(if #text <= #small { #inline } else { #apart })
                }
            },
        };
        (params, run)
    }

    /// The condition under which the variant `f` runs: each run-time length at most its
    /// capacity, and storage that only rustc sizes within the budget.
    fn fits(&self, f: &Func, caps: &[(Int, u64)]) -> Vec<TokenStream> {
        let mut fits: Vec<TokenStream> = caps
            .iter()
            .map(|(end, cap)| {
                let end = end.operand(&|_| quote!(_));
                let cap = proc_macro2::Literal::u64_unsuffixed(*cap);
                quote!(#end <= #cap)
            })
            .collect();
        let bytes = crate::transform::total(&crate::transform::storage(f));
        if bytes.value.is_none() || fits.is_empty() {
            let text = bytes.render(&|_| quote!(_));
            let budget = proc_macro2::Literal::u64_unsuffixed(self.budget);
            fits.insert(0, quote!(#text <= #budget));
        }
        fits
    }

    /// The doc comment's paragraphs on the choice between `stored` and the checkpointed variant.
    fn choice_doc(&self, stored: &[&Func]) -> String {
        let mut doc = String::new();
        let sized_by_rustc = stored
            .iter()
            .any(|f| crate::transform::total(&crate::transform::storage(f)).value.is_none());
        let plain_const = stored.iter().all(|f| crate::transform::capacities(f).is_empty());
        if sized_by_rustc && plain_const {
            let f = stored.first().copied();
            let bytes = f.map(|f| crate::transform::total(&crate::transform::storage(f)));
            let text = bytes.map(|b| b.render(&|_| quote!(_)).to_string().replace(' ', ""));
            doc.push_str(&format!(
                "\n\n Its loops whose storage the macro cannot size store their values when those take\n `{}` bytes of stack or fewer (the budget, {}), and are checkpointed otherwise:\n rustc decides, from the constants' values.",
                text.unwrap_or_default(),
                self.budget
            ));
        }
        // Each loop of run-time length, with its capacities in the variants, smallest first.
        let mut loops: Vec<(String, Vec<u64>)> = Vec::new();
        for f in stored {
            for (end, cap) in crate::transform::capacities(f) {
                let end =
                    end.render(&|_| quote!(_)).to_string().replace(" . ", ".").replace(" ()", "()");
                match loops.iter_mut().find(|(e, _)| *e == end) {
                    Some((_, caps)) if !caps.contains(&cap) => caps.push(cap),
                    Some(_) => {}
                    None => loops.push((end, vec![cap])),
                }
            }
        }
        for (end, caps) in &loops {
            doc.push_str(&self.capacity_doc(end, caps, sized_by_rustc));
        }
        doc
    }

    /// The paragraph on the loop to `end`, a length known at run time, stored in arrays of the
    /// capacities `caps` (smallest first).
    fn capacity_doc(&self, end: &str, caps: &[u64], sized_by_rustc: bool) -> String {
        let budget = self.budget;
        let tiered = caps.len() > 1 || caps.iter().any(|c| symbol::CAPACITY_TIERS.contains(c));
        if tiered {
            let list: Vec<String> = caps.iter().map(u64::to_string).collect();
            let (last, rest) = list.split_last().map_or(("", &[][..]), |(l, r)| (l, r));
            let largest = caps.last().copied().unwrap_or(0);
            let held = match symbol::CAPACITY_TIERS.contains(&largest) {
                true => String::new(),
                false => format!(" ({largest}: what the stack budget of {budget} bytes holds)"),
            };
            let fitting = match sized_by_rustc {
                true => format!(
                    " of those whose storage fits the stack budget of {budget} bytes (which rustc decides, from the constants' values)"
                ),
                false => String::new(),
            };
            let list = match rest {
                [] => last.to_owned(),
                _ => format!("{} or {last}", rest.join(", ")),
            };
            let text = format!(
                "Its loop to `{end}`, a length known at run time, stores every step's values in arrays of {list} steps{held}: the smallest{fitting} that holds `{end}` steps, chosen when the function starts, so that the storage zero-filled is at most 16 times what the run needs past the first. Past the largest, the loop is checkpointed."
            );
            return format!("\n\n{}", wrapped(&text));
        }
        let cap = caps.first().copied().unwrap_or(0);
        format!(
            "\n\n Its loop to `{end}`, a length known at run time, stores every step's values when\n `{end}` is at most {cap} (what the stack budget of {budget} bytes holds of its steps), and is\n checkpointed otherwise: the function chooses when it starts."
        )
    }
}

/// Whether a parameter's type holds `impl Trait`, which a closure's parameter cannot be given.
fn mentions_impl(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == "impl",
        proc_macro2::TokenTree::Group(g) => mentions_impl(g.stream()),
        _ => false,
    })
}

/// `text` as doc comment lines of at most about 95 characters, each starting with a space.
fn wrapped(text: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if line.len() + 1 + word.len() <= 95 => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(format!(" {word}")),
        }
    }
    lines.join("\n")
}

/// The parameters a transform added (directions, buffers) as `v`'s body names them, bound to
/// the names of the signature `sig` where the two differ: each variant's body is named on its
/// own, and the names of those parameters may follow what else the body holds. (A buffer,
/// `&mut`, is reborrowed; the others are references or `Copy` values.)
fn rebind(sig: &Rendered, v: &Rendered) -> TokenStream {
    let mut out = TokenStream::new();
    for ((want, ty), (have, _)) in sig.extra.iter().zip(&v.extra) {
        if want.to_string() == have.to_string() {
            continue;
        }
        let value = match ty.to_string().replace(' ', "").starts_with("&mut") {
            true => quote!(&mut *#want),
            false => quote!(#want),
        };
        out.extend(quote! {
            #[allow(unused_variables)]
            let #have = #value;
        });
    }
    out
}
