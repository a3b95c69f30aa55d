//! Labelled exits: `break 'a` and `continue 'a` out of loops nested in the loop labelled `'a`,
//! rewritten into flags of that loop and plain exits, which `exits` then rewrites as any other:
//!
//! ```text
//! 'rows: for i in 0..n { for j in 0..n { if c { break 'rows; } if d { continue 'rows; } a; } b; }
//! ```
//! becomes
//! ```text
//! for i in 0..n { let mut done_rows = false; let mut skip_rows = false;
//!     { for j in 0..n { if c { done_rows = true; break; } if d { skip_rows = true; break; } a; }
//!       if done_rows { break; } if skip_rows { continue; } }
//!     b; }
//! ```
//! In the labelled loop's own body (not inside a loop there) `break 'a` is `break` and
//! `continue 'a` is `continue`. Inside a nested loop each sets its flag and leaves that loop;
//! after a loop that may have set one, the loop around it leaves too (`if flag { break; }`),
//! up to the labelled loop, which breaks or goes on with its next iteration. The flags are
//! declared at the top of the labelled loop's body, so `skip_rows` starts each iteration false.
//!
//! What this does not know: labelled blocks (`'a: { .. }`), refused by lowering.

use proc_macro2::Ident;
use quote::{quote, quote_spanned};
use syn::visit_mut::VisitMut;
use syn::{Block, Expr, Stmt};

use crate::lower::Lower;
use crate::symbol;

/// Rewrites the exits naming one label.
struct Labelled {
    label: String,
    /// Set by `break 'a` inside a nested loop.
    done: Ident,
    /// Set by `continue 'a` inside a nested loop.
    skip: Ident,
    /// The loops open inside the labelled loop.
    depth: usize,
    /// Whether a nested loop sets `done`, `skip`.
    used: (bool, bool),
}

impl Labelled {
    fn names(&self, l: Option<&syn::Lifetime>) -> bool {
        l.is_some_and(|l| l.ident == self.label)
    }

    /// What a labelled `break` (`brk`) or `continue` becomes here, its keyword at `span` (where
    /// an error about it points).
    fn exit(&mut self, brk: bool, span: proc_macro2::Span) -> Expr {
        let tokens = match (self.depth, brk) {
            (0, true) => quote_spanned!(span=> { break }),
            (0, false) => quote_spanned!(span=> { continue }),
            (_, true) => {
                self.used.0 = true;
                let done = &self.done;
                quote_spanned!(span=> { #done = true; break })
            }
            (_, false) => {
                self.used.1 = true;
                let skip = &self.skip;
                quote_spanned!(span=> { #skip = true; break })
            }
        };
        syn::parse2(tokens).unwrap_or(Expr::Verbatim(Default::default()))
    }

    /// The tests after a nested loop that set `used` flags.
    fn after_loop(&self, used: (bool, bool)) -> proc_macro2::TokenStream {
        let (done, skip) = (&self.done, &self.skip);
        match (self.depth, used) {
            (0, (d, s)) => {
                let d = d.then(|| quote!(if #done { break; }));
                let s = s.then(|| quote!(if #skip { continue; }));
                quote!(#d #s)
            }
            (_, (true, true)) => quote!(if #done || #skip { break; }),
            (_, (true, false)) => quote!(if #done { break; }),
            (_, (false, true)) => quote!(if #skip { break; }),
            (_, (false, false)) => quote!(),
        }
    }
}

impl VisitMut for Labelled {
    fn visit_block_mut(&mut self, block: &mut Block) {
        for s in &mut block.stmts {
            // `break 'a;` as a statement: its block in place, spliced below.
            self.visit_stmt_mut(s);
        }
        // Blocks this made of single exits, spliced into their block.
        let mut out = Vec::new();
        for s in std::mem::take(&mut block.stmts) {
            match s {
                Stmt::Expr(Expr::Block(b), semi)
                    if b.label.is_none() && b.attrs.is_empty() && is_exit_block(&b.block) =>
                {
                    // `{ done = true; break }` as statements, the last ending as the
                    // statement did.
                    let n = b.block.stmts.len();
                    for (i, s) in b.block.stmts.into_iter().enumerate() {
                        out.push(match s {
                            Stmt::Expr(e, _) if i + 1 == n => Stmt::Expr(e, semi),
                            Stmt::Expr(e, _) => Stmt::Expr(e, Some(Default::default())),
                            other => other,
                        });
                    }
                }
                other => out.push(other),
            }
        }
        block.stmts = out;
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        match e {
            Expr::Break(b) if b.expr.is_none() && self.names(b.label.as_ref()) => {
                *e = self.exit(true, b.break_token.span);
            }
            Expr::Continue(c) if self.names(c.label.as_ref()) => {
                *e = self.exit(false, c.continue_token.span);
            }
            Expr::ForLoop(_) | Expr::While(_) | Expr::Loop(_) => {
                let before = self.used;
                self.used = (false, false);
                self.depth += 1;
                syn::visit_mut::visit_expr_mut(self, e);
                self.depth -= 1;
                let used = self.used;
                self.used = (before.0 || used.0, before.1 || used.1);
                let tests = self.after_loop(used);
                if !tests.is_empty() {
                    let lp = &*e;
                    if let Ok(block) = syn::parse2::<Expr>(quote!({ #lp #tests })) {
                        *e = block;
                    }
                }
            }
            // A `break` in a closure is the closure's own.
            Expr::Closure(_) => {}
            _ => syn::visit_mut::visit_expr_mut(self, e),
        }
    }
}

/// Whether `block` is one this rewrite made of an exit: `break;`, `continue;`, or a flag set
/// and `break;`.
fn is_exit_block(block: &Block) -> bool {
    let exit = |s: &Stmt| matches!(s, Stmt::Expr(Expr::Break(_) | Expr::Continue(_), _));
    match block.stmts.as_slice() {
        [only] => exit(only),
        [Stmt::Expr(Expr::Assign(_), _), last] => exit(last),
        _ => false,
    }
}

impl Lower<'_> {
    /// The body of the loop labelled `label` with the exits naming it rewritten into plain
    /// exits and flags declared at its top.
    pub(in crate::lower) fn unlabel(&mut self, label: &syn::Label, body: &Block) -> Block {
        let name = label.name.ident.to_string();
        let hint = |flag: &str| format!("{flag}_{}", name.trim_start_matches("r#"));
        let mut l = Labelled {
            done: self.names.fresh(&hint(symbol::FLAG_DONE)),
            skip: self.names.fresh(&hint(symbol::FLAG_SKIP)),
            label: name,
            depth: 0,
            used: (false, false),
        };
        let mut out = body.clone();
        l.visit_block_mut(&mut out);
        let (done, skip) = (&l.done, &l.skip);
        let mut declared: Vec<Stmt> = Vec::new();
        if l.used.0 {
            declared.extend(syn::parse2::<Stmt>(quote!(let mut #done = false;)));
        }
        if l.used.1 {
            declared.extend(syn::parse2::<Stmt>(quote!(let mut #skip = false;)));
        }
        declared.append(&mut out.stmts);
        out.stmts = declared;
        out
    }
}
