//! A `loop` used as a value, its `break v`s giving it, rewritten into a variable assigned before
//! each `break`:
//!
//! ```text
//! let r = loop { a; if c { break x * 2.0; } b; };
//! ```
//! becomes
//! ```text
//! let mut r = 0.0; loop { a; if c { r = x * 2.0; break; } b; }
//! ```
//! (a fresh name and `let r = value;` after the loop when the loop reads a name the `let`
//! binds). `x = loop { .. };` assigns `x` before each `break`, and a `loop` that is the value of
//! the function or of a block is a variable's value too. The variable starts from a zero of the
//! value's type: the type written on the `let` or the function's return type, or else the shape
//! of a `break`'s value (`0.0` for an `f64`, `[0.0; 3]` for `[a, b, c]`, an array variable's
//! type); a value of a kind lowering cannot tell is taken as an `f64`. A `let r;` declared
//! without a value and assigned in a `loop` after it starts from the same zero (Rust has checked
//! that it is assigned before it is read).
//!
//! What this does not know: the type of an array a `break` gives when it is neither a literal
//! nor a variable declared before the loop (then the `let` needs its type), integers (refused).

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::visit_mut::VisitMut;
use syn::{Block, Expr, ExprBreak, ExprLoop, Local, Pat, Stmt};

use super::{build, names_in, parse};
use crate::lower::value::peel;
use crate::lower::{Kind, Lower};
use crate::symbol;

/// The `loop` `e` is, if it gives a value (has a `break` with a value that leaves it).
pub(in crate::lower) fn loop_value(e: &Expr) -> Option<&ExprLoop> {
    let Expr::Loop(l) = peel(e) else { return None };
    let mut b = Breaks::new(l, None);
    let mut body = l.body.clone();
    b.visit_block_mut(&mut body);
    (!b.values.is_empty()).then_some(l)
}

/// A guess at the zero of a value's type.
enum Guess {
    /// The zero.
    Known(TokenStream),
    /// A value lowering cannot type yet (a variable of the loop's body): taken as an `f64`.
    Unknown,
    /// Not a value a loop can give (an integer).
    No,
}

/// The `break`s with a value that leave the loop being rewritten, rewritten into an assignment
/// to `target` and a plain `break` (each value recorded).
struct Breaks<'a> {
    label: Option<String>,
    target: Option<&'a TokenStream>,
    /// The loops open inside the loop being rewritten.
    depth: usize,
    values: Vec<Expr>,
}

impl<'a> Breaks<'a> {
    fn new(l: &ExprLoop, target: Option<&'a TokenStream>) -> Self {
        let label = l.label.as_ref().map(|l| l.name.ident.to_string());
        Breaks { label, target, depth: 0, values: Vec::new() }
    }

    /// Whether `b` leaves the loop being rewritten with a value.
    fn leaves(&self, b: &ExprBreak) -> bool {
        b.expr.is_some()
            && match &b.label {
                None => self.depth == 0,
                Some(l) => Some(l.ident.to_string()) == self.label,
            }
    }

    /// `target = v; break;` for `break v` (the label kept).
    fn assign(&mut self, b: &ExprBreak) -> Vec<Stmt> {
        let Some(v) = &b.expr else { return Vec::new() };
        self.values.push((**v).clone());
        let mut plain = b.clone();
        plain.expr = None;
        let target = self.target.cloned().unwrap_or_default();
        syn::parse2::<Block>(quote!({ #target = #v; #plain; })).map(|b| b.stmts).unwrap_or_default()
    }
}

impl VisitMut for Breaks<'_> {
    fn visit_block_mut(&mut self, block: &mut Block) {
        let mut out = Vec::new();
        for mut s in std::mem::take(&mut block.stmts) {
            match &s {
                Stmt::Expr(Expr::Break(b), _) if self.leaves(b) => {
                    let b = b.clone();
                    out.extend(self.assign(&b));
                }
                _ => {
                    self.visit_stmt_mut(&mut s);
                    out.push(s);
                }
            }
        }
        block.stmts = out;
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        match e {
            Expr::Break(b) if self.leaves(b) => {
                let b = b.clone();
                let stmts = self.assign(&b);
                if let Ok(block) = syn::parse2::<Expr>(quote!({ #(#stmts)* })) {
                    *e = block;
                }
            }
            Expr::ForLoop(_) | Expr::While(_) | Expr::Loop(_) => {
                self.depth += 1;
                syn::visit_mut::visit_expr_mut(self, e);
                self.depth -= 1;
            }
            // A `break` in a closure is the closure's own (refused by lowering).
            Expr::Closure(_) => {}
            _ => syn::visit_mut::visit_expr_mut(self, e),
        }
    }
}

/// `l` with each `break v` that leaves it written `target = v; break;`, and the values.
fn rewrite(l: &ExprLoop, target: &TokenStream) -> (ExprLoop, Vec<Expr>) {
    let mut b = Breaks::new(l, Some(target));
    let mut out = l.clone();
    b.visit_block_mut(&mut out.body);
    (out, b.values)
}

impl Lower<'_> {
    /// `let pat = loop { .. };` as the variable, the loop assigning it, and `let pat = value;`
    /// when the variable is not the `let`'s own; whether `local` was one.
    pub(in crate::lower) fn let_loop(&mut self, local: &Local, rest: &[Stmt]) -> bool {
        let Some(init) = &local.init else { return false };
        let Some(l) = loop_value(&init.expr) else { return false };
        let (pat, ty) = match &local.pat {
            Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
            other => (other, None),
        };
        let own = match pat {
            Pat::Ident(pi)
                if pi.by_ref.is_none()
                    && pi.subpat.is_none()
                    && !names_in(l).contains(&symbol::unraw(&pi.ident)) =>
            {
                Some(pi.ident.clone())
            }
            _ => None,
        };
        let var = own.clone().unwrap_or_else(|| self.names.fresh(symbol::LOOP_VALUE));
        let target = var.to_token_stream();
        let (lp, values) = rewrite(l, &target);
        let zero = match ty {
            Some(t) => self.zero_of_type(t),
            None => self.zero_like(&values),
        };
        let Some(zero) = zero else {
            self.cx.error_spanned(
                l.loop_token,
                "`#[grad]` needs the type of the value this `loop` gives to start the variable that holds it: write it on the `let`, as in `let r: [f64; 3] = loop { … };` (a `loop` gives `f64` values, arrays of them, or tuples of these)",
            );
            self.poison(pat);
            return true;
        };
        let ty = ty.map(|t| quote!(: #t));
        let mut tokens = quote!(let mut #var #ty = #zero; #lp);
        if own.is_none() {
            let p = &local.pat;
            tokens.extend(quote!(let #p = #var;));
        }
        self.loop_values.insert(var.to_string());
        let Some(block) = parse::<Block>(self.cx, l, quote!({ #tokens })) else { return true };
        for (i, s) in block.stmts.iter().enumerate() {
            let mut after = block.stmts[i + 1..].to_vec();
            after.extend_from_slice(rest);
            self.statement_before(s, &after);
        }
        true
    }

    /// `target = loop { .. };` as the loop assigning `target` before each `break`.
    pub(in crate::lower) fn assign_loop(&mut self, target: &Expr, rhs: &Expr) -> Option<Expr> {
        let l = loop_value(rhs)?;
        let (lp, _) = rewrite(l, &target.to_token_stream());
        Some(Expr::Loop(lp))
    }

    /// `block` with its final `loop { .. }` (one giving a value) the value of a variable
    /// declared before it and assigned before each `break`; `zero` the zero of the value's type
    /// when it is known (the function's return type).
    pub(in crate::lower) fn loop_value_tail(
        &mut self,
        block: &Block,
        zero: Option<TokenStream>,
    ) -> Option<Block> {
        let (Stmt::Expr(e, None), stmts) = block.stmts.split_last()? else { return None };
        let l = loop_value(e)?;
        let var = self.names.fresh(symbol::LOOP_VALUE);
        let (lp, values) = rewrite(l, &var.to_token_stream());
        let zero = zero.or_else(|| self.zero_like(&values));
        let Some(zero) = zero else {
            self.cx.error_spanned(
                l.loop_token,
                "`#[grad]` needs the type of the value this `loop` gives to start the variable that holds it: bind it with a type, as in `let r: [f64; 3] = loop { … };`, then give `r`",
            );
            return None;
        };
        self.loop_values.insert(var.to_string());
        parse(self.cx, l, quote!({ #(#stmts)* let mut #var = #zero; #lp #var }))
    }

    /// `let name;` (with its type `ty`, if written) assigned in a `loop` among `rest`: the zero it
    /// may start from, the type's or that of the first value assigned to it.
    pub(in crate::lower) fn deferred_zero(
        &mut self,
        name: &str,
        ty: Option<&syn::Type>,
        rest: &[Stmt],
    ) -> Option<TokenStream> {
        let in_loop = rest.iter().any(|s| match s {
            // Only after a `loop` may Rust read it: `for` and `while` loops may not run.
            Stmt::Expr(e @ Expr::Loop(_), _) => {
                super::super::assigned::first_assignment(e, name).is_some()
            }
            _ => false,
        });
        if !in_loop {
            return None;
        }
        if let Some(t) = ty {
            return self.zero_of_type(t);
        }
        let first = rest.iter().find_map(|s| match s {
            Stmt::Expr(e, _) => super::super::assigned::first_assignment(e, name),
            _ => None,
        })?;
        let Ok(Expr::Assign(a)) = syn::parse2::<Expr>(first) else { return None };
        self.zero_like(&[*a.right])
    }

    /// The zero of the type `ty`: `0.0`, `[[0.0; K]; M]`, a tuple of them.
    fn zero_of_type(&mut self, ty: &syn::Type) -> Option<TokenStream> {
        let ty = crate::lower::pattern::strip_refs(ty);
        if self.scalar.is(ty) {
            return Some(quote!(0.0));
        }
        if let syn::Type::Tuple(t) = ty {
            let parts = t.elems.iter().map(|e| self.zero_of_type(e)).collect::<Option<Vec<_>>>()?;
            return Some(quote!((#(#parts),*)));
        }
        build::zeros(&self.scalar.array(ty, &self.generics)?)
    }

    /// The zero of the type of the values a loop gives, from the first whose type is known
    /// (`0.0` if none is); `None` if one is an integer.
    fn zero_like(&self, values: &[Expr]) -> Option<TokenStream> {
        let mut unknown = true;
        for v in values {
            match self.guess(v) {
                Guess::Known(z) => return Some(z),
                Guess::Unknown => {}
                Guess::No => unknown = false,
            }
        }
        unknown.then(|| quote!(0.0))
    }

    fn guess(&self, e: &Expr) -> Guess {
        let or_f64 = |g: Guess| match g {
            Guess::Known(z) => Some(z),
            Guess::Unknown => Some(quote!(0.0)),
            Guess::No => None,
        };
        match peel(e) {
            Expr::Tuple(t) => {
                let parts: Option<Vec<_>> = t.elems.iter().map(|p| or_f64(self.guess(p))).collect();
                parts.map_or(Guess::No, |p| Guess::Known(quote!((#(#p),*))))
            }
            Expr::Array(a) => {
                let Some(first) = a.elems.first() else { return Guess::No };
                let n = proc_macro2::Literal::usize_unsuffixed(a.elems.len());
                or_f64(self.guess(first)).map_or(Guess::No, |z| Guess::Known(quote!([#z; #n])))
            }
            Expr::Repeat(r) => {
                let len = &r.len;
                or_f64(self.guess(&r.expr)).map_or(Guess::No, |z| Guess::Known(quote!([#z; #len])))
            }
            e => match self.array_ty(e) {
                Some(t) => build::zeros(&t).map_or(Guess::No, Guess::Known),
                None => match self.kind(e) {
                    Kind::Real => Guess::Known(quote!(0.0)),
                    Kind::Int | Kind::Bool | Kind::Array => Guess::No,
                    _ => Guess::Unknown,
                },
            },
        }
    }
}
