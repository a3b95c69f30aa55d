//! Unit tests of the macro: snapshots of the generated code and of the IR (after lowering and
//! after each transform), the transforms on loops and branches checked numerically with an IR
//! interpreter, the fence's errors and their spans, token counts, and robustness on arbitrary
//! input.

mod branches;
mod calls;
mod carry;
mod casts;
mod counters;
mod fence;
mod first_touch;
mod fission;
mod floats;
mod guide_excerpts;
mod interp;
mod ir;
mod long;
mod loop_snapshots;
mod loops;
mod lowering;
mod prims;
mod promote;
mod robustness;
mod sink;
mod size;
mod snapshots;
mod structs;
mod sugar;
mod vcalls;
mod whiles;
mod widen;
mod wrap;

use proc_macro2::TokenStream;
use quote::ToTokens;

/// The expansion of `#[grad(attr)] item`, formatted like `cargo expand` shows it.
pub fn expand_pretty(attr: TokenStream, item: TokenStream) -> String {
    let tokens = crate::expand::expand(attr, item);
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => prettyplease::unparse(&file),
        Err(e) => format!("unparsable expansion ({e}):\n{tokens}"),
    }
}

/// Whether `f` is a stand-in for a derivative `#[grad]` was not asked for (its doc says so).
pub fn is_stand_in(f: &syn::ItemFn) -> bool {
    let doc = |a: &&syn::Attribute| a.path().is_ident("doc");
    f.attrs.iter().filter(doc).any(|a| a.to_token_stream().to_string().contains("is a stand-in"))
}
