//! Expressions: operands, primitives, conditions and literals as Rust tokens, parenthesised only
//! where precedence needs it.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, quote};

use super::body::Renderer;
use crate::ir::{Cmp, Cond, Int, Operand, Prec, Prim, Stmt};
use crate::symbol;

/// An expression and how tightly it binds.
pub struct Expr {
    /// The tokens.
    pub tokens: TokenStream,
    /// How tightly they bind.
    pub prec: Prec,
}

impl Expr {
    /// An expression.
    pub fn new(tokens: TokenStream, prec: Prec) -> Self {
        Expr { tokens, prec }
    }

    /// The tokens, parenthesised unless the expression binds at least as tightly as `min`.
    pub fn at_least(self, min: Prec) -> TokenStream {
        let t = self.tokens;
        if self.prec >= min { t } else { quote!((#t)) }
    }
}

/// The left side of a comparison, parenthesised when it ends with a cast: in `n as f64 < x`
/// Rust reads `<` as the start of `f64`'s generic arguments.
fn before_comparison(tokens: TokenStream) -> TokenStream {
    let trees: Vec<proc_macro2::TokenTree> = tokens.clone().into_iter().collect();
    let ends_with_cast = trees.len() >= 2
        && matches!(&trees[trees.len() - 1], proc_macro2::TokenTree::Ident(_))
        && matches!(&trees[trees.len() - 2], proc_macro2::TokenTree::Ident(a) if a == "as");
    if ends_with_cast { quote!((#tokens)) } else { tokens }
}

/// The comparison operator.
pub fn cmp_op(cmp: Cmp) -> TokenStream {
    match cmp {
        Cmp::Eq => quote!(==),
        Cmp::Ne => quote!(!=),
        Cmp::Lt => quote!(<),
        Cmp::Le => quote!(<=),
        Cmp::Gt => quote!(>),
        Cmp::Ge => quote!(>=),
    }
}

impl Renderer<'_> {
    /// An integer expression, with loop indices named.
    pub fn int(&self, i: &Int) -> TokenStream {
        let t = i.render(&|l| self.loops[l.0 as usize].to_token_stream());
        super::indices::user_tokens(self.f, self.loops, &i.loops, &self.params, &t)
    }

    /// `[i][j]` for an index list.
    pub fn index(&self, ix: &[Int]) -> TokenStream {
        let parts = ix.iter().map(|i| self.int(i));
        quote!(#([#parts])*)
    }

    /// An operand as an expression: a name, an inlined definition, a literal or a constant.
    pub fn operand(&self, op: Operand) -> Expr {
        match op {
            Operand::Var(v) => match (&self.idents[v.index()], self.defs.get(&v)) {
                (Some(id), _) => Expr::new(id.to_token_stream(), Prec::Atom),
                (None, Some(s)) => self.expr(s),
                (None, None) => Expr::new(self.scalar.nan(), Prec::Atom),
            },
            Operand::Lit(x) => self.lit_scalar().literal(x, false),
            Operand::Ext(e) => {
                let ext = &self.f.exts[e.0 as usize];
                let (loops, params) = (&ext.loops, &self.params);
                let tokens =
                    super::indices::user_tokens(self.f, self.loops, loops, params, &ext.tokens);
                Expr::new(tokens, ext.prec)
            }
            Operand::Bool(b) => Expr::new(quote!(#b), Prec::Atom),
        }
    }

    /// Whether Rust would not know `op`'s type from the expression alone: an unsuffixed literal,
    /// a constant written with literals only (`1.0 + 0.5`), or arithmetic on such values.
    fn untyped(&self, op: Operand) -> bool {
        fn literals_only(t: &TokenStream) -> bool {
            t.clone().into_iter().all(|tree| match tree {
                proc_macro2::TokenTree::Ident(_) => false,
                proc_macro2::TokenTree::Literal(l) => {
                    let l = l.to_string();
                    !(l.ends_with(symbol::F64) || l.ends_with(symbol::F32))
                }
                proc_macro2::TokenTree::Group(g) => literals_only(&g.stream()),
                proc_macro2::TokenTree::Punct(_) => true,
            })
        }
        if self.scalar.typed_literals() {
            // A type parameter's literals are typed (`T::from(2.0).unwrap()`).
            return false;
        }
        match op {
            Operand::Lit(_) => true,
            Operand::Ext(e) => literals_only(&self.f.exts[e.0 as usize].tokens),
            Operand::Var(v) => match self.defs.get(&v) {
                Some(Stmt::Op {
                    prim: Prim::Add | Prim::Sub | Prim::Mul | Prim::Div | Prim::Neg,
                    args,
                    ..
                }) => args.iter().all(|a| self.untyped(*a)),
                Some(Stmt::Load { array, .. }) => self.untyped(Operand::Var(*array)),
                Some(Stmt::Array { elems, .. }) => elems.iter().all(|a| self.untyped(*a)),
                Some(Stmt::Fill { value, .. }) => self.untyped(*value),
                _ => false,
            },
            Operand::Bool(_) => false,
        }
    }

    /// The operand as a method receiver: literals get an `f64` suffix.
    pub(super) fn receiver(&self, op: Operand) -> TokenStream {
        match op {
            Operand::Lit(x) => self.lit_scalar().literal(x, true).at_least(Prec::Atom),
            other => self.operand(other).at_least(Prec::Atom),
        }
    }

    /// The expression a statement computes (an `Op`, a `Test` or a `Load`).
    pub fn expr(&self, s: &Stmt) -> Expr {
        match s {
            // The operands' literals have the operands' type: the result's, but for a cast.
            Stmt::Op { out, prim, args } => {
                let other = self.is_other(*out) != (*prim == Prim::Convert);
                self.literals_of(other, || self.op(*prim, args, *out))
            }
            Stmt::Test { cond, .. } => self.cond(cond),
            Stmt::Load { array, index, .. } => {
                let a = self.operand(Operand::Var(*array)).at_least(Prec::Atom);
                let ix = self.index(index);
                Expr::new(quote!(#a #ix), Prec::Atom)
            }
            _ => Expr::new(self.scalar.nan(), Prec::Atom),
        }
    }

    /// `lhs op rhs` for a binary operator of precedence `prec`.
    pub fn binary(&self, op: TokenStream, prec: Prec, lhs: Operand, rhs: Operand) -> Expr {
        let l = self.operand(lhs).at_least(prec);
        let r = self.operand(rhs);
        let r =
            if r.prec > prec { r.tokens } else { Expr::new(r.tokens, r.prec).at_least(Prec::Atom) };
        Expr::new(quote!(#l #op #r), prec)
    }

    fn op(&self, prim: Prim, args: &[Operand], out: crate::ir::Var) -> Expr {
        match prim {
            // `x as f64`: to the result's type.
            // A literal of the other type (`let s = 0.0_f64;`): the literal with its suffix.
            Prim::Convert if args[0].var().is_none() => match args[0].lit() {
                Some(x) => {
                    let tokens = if self.is_other(out) { &self.other } else { self.scalar };
                    tokens.literal(x, true)
                }
                // A constant cast by the user (`i as f64`): its own tokens.
                None if matches!(args[0], Operand::Ext(e) if self.f.exts[e.0 as usize].other) => {
                    self.operand(args[0])
                }
                // A constant of the scalar type (a cotangent `data[i]`), cast.
                None => {
                    let x = self.operand(args[0]).at_least(Prec::Cast);
                    let t = super::signature::ty(self.f.ty(out), &self.scalar.ty);
                    Expr::new(quote!(#x as #t), Prec::Cast)
                }
            },
            Prim::Convert => {
                let x = self.operand(args[0]).at_least(Prec::Cast);
                let t = super::signature::ty(self.f.ty(out), &self.scalar.ty);
                Expr::new(quote!(#x as #t), Prec::Cast)
            }
            Prim::Neg => {
                let x = self.operand(args[0]);
                let x = if x.prec > Prec::Unary { x.tokens } else { x.at_least(Prec::Atom) };
                Expr::new(quote!(-#x), Prec::Unary)
            }
            Prim::Add => self.binary(quote!(+), Prec::Sum, args[0], args[1]),
            Prim::Sub => self.binary(quote!(-), Prec::Sum, args[0], args[1]),
            // `-1.0 * x` (from folded literals, `(2.0 - 3.0) * x`) is `-x`, the same value
            // (clippy's `neg_multiply`).
            Prim::Mul if args[0].lit() == Some(-1.0) => self.op(Prim::Neg, &args[1..], out),
            Prim::Mul if args[1].lit() == Some(-1.0) => self.op(Prim::Neg, &args[..1], out),
            Prim::Mul => self.binary(quote!(*), Prec::Product, args[0], args[1]),
            Prim::Div => self.binary(quote!(/), Prec::Product, args[0], args[1]),
            Prim::Select(cmp) => self.select(cmp, args),
            Prim::Powi(n) => {
                let n = Literal::i32_unsuffixed(n).into_token_stream();
                self.method(&Ident::new(symbol::POWI, Span::call_site()), args[0], &[n])
            }
            Prim::PowiInt(k) => {
                let n = self.int_plus(args[1], k).tokens;
                self.method(&Ident::new(symbol::POWI, Span::call_site()), args[0], &[n])
            }
            Prim::IntAsF64(k) => {
                let n = self.int_plus(args[0], k).at_least(Prec::Cast);
                self.scalar.converted(n)
            }
            prim => {
                let name =
                    Ident::new(symbol::prim_method(prim).unwrap_or("abs"), Span::call_site());
                let rest: Vec<TokenStream> =
                    args[1..].iter().map(|o| self.operand(*o).tokens).collect();
                self.method(&name, args[0], &rest)
            }
        }
    }

    /// `recv.name(rest)`, or `f64::name(recv, rest)` when Rust could not type `recv`.
    fn method(&self, name: &Ident, recv: Operand, rest: &[TokenStream]) -> Expr {
        if recv.lit().is_none() && self.untyped(recv) {
            // `(1.0 + c).ln()` is a call on an ambiguous `{float}`: name the type.
            let x = self.operand(recv).tokens;
            return self.lit_scalar().call(name, x, rest);
        }
        let x = self.receiver(recv);
        Expr::new(quote!(#x.#name(#(#rest),*)), Prec::Atom)
    }

    /// The integer constant `n` plus the literal `k`: `n`, `n + 2` or `n - 1`.
    fn int_plus(&self, n: Operand, k: i32) -> Expr {
        if k == 0 {
            return self.operand(n);
        }
        let n = self.operand(n).at_least(Prec::Sum);
        let magnitude = Literal::u32_unsuffixed(k.unsigned_abs());
        let op = if k > 0 { quote!(+) } else { quote!(-) };
        Expr::new(quote!(#n #op #magnitude), Prec::Sum)
    }

    /// A condition, `a < b && !c`.
    pub fn cond(&self, c: &Cond) -> Expr {
        match c {
            Cond::F64(cmp, a, b) => {
                let other = [a, b].iter().any(|o| o.var().is_some_and(|v| self.is_other(v)));
                let (a, b) = self.literals_of(other, || {
                    (self.operand(*a).at_least(Prec::Sum), self.operand(*b).at_least(Prec::Sum))
                });
                let op = cmp_op(*cmp);
                let a = before_comparison(a);
                Expr::new(quote!(#a #op #b), Prec::Compare)
            }
            Cond::Int(cmp, a, b) => {
                let (a, b) = (self.int_operand(a), self.int_operand(b));
                let op = cmp_op(*cmp);
                let a = before_comparison(a);
                Expr::new(quote!(#a #op #b), Prec::Compare)
            }
            Cond::Var(v) => self.operand(Operand::Var(*v)),
            Cond::Not(c) => {
                let x = self.cond(c).at_least(Prec::Unary);
                Expr::new(quote!(!#x), Prec::Unary)
            }
            Cond::And(a, b) => {
                if let Some(range) = self.range_test(a, b) {
                    return range;
                }
                let (a, b) =
                    (self.cond(a).at_least(Prec::And), self.cond(b).at_least(Prec::Compare));
                Expr::new(quote!(#a && #b), Prec::And)
            }
            Cond::Or(a, b) => {
                let (a, b) = (self.cond(a).at_least(Prec::Or), self.cond(b).at_least(Prec::And));
                Expr::new(quote!(#a || #b), Prec::Or)
            }
        }
    }

    /// `x >= lo && x <= hi` (or `< hi`) on integers or floats, as `(lo..=hi).contains(&x)`: how
    /// clippy wants a range test written (a `match` arm `lo..=hi` becomes one). On floats the
    /// two agree on NaN too: neither holds.
    fn range_test(&self, a: &Cond, b: &Cond) -> Option<Expr> {
        let (x, lo, hi, upper) = match (a, b) {
            (Cond::Int(Cmp::Ge, x, lo), Cond::Int(upper @ (Cmp::Le | Cmp::Lt), y, hi))
                if x.key() == y.key() =>
            {
                (self.int_operand(x), self.int_operand(lo), self.int_operand(hi), upper)
            }
            (Cond::F64(Cmp::Ge, x, lo), Cond::F64(upper @ (Cmp::Le | Cmp::Lt), y, hi))
                if x == y =>
            {
                let other = [x, lo, hi].iter().any(|o| o.var().is_some_and(|v| self.is_other(v)));
                let (x, lo, hi) = self.literals_of(other, || {
                    let t = |o: &Operand| self.operand(*o).at_least(Prec::Unary);
                    (t(x), t(lo), t(hi))
                });
                (x, lo, hi, upper)
            }
            _ => return None,
        };
        let dots = if *upper == Cmp::Le { quote!(..=) } else { quote!(..) };
        Some(Expr::new(quote!((#lo #dots #hi).contains(&#x)), Prec::Atom))
    }

    fn int_operand(&self, i: &Int) -> TokenStream {
        let t = i.operand(&|l| self.loops[l.0 as usize].to_token_stream());
        super::indices::user_tokens(self.f, self.loops, &i.loops, &self.params, &t)
    }

    /// `if p <cmp> q { a } else { b }`, with a nested select in `b` written as `else if`.
    fn select(&self, cmp: Cmp, args: &[Operand]) -> Expr {
        let side = |op: Operand| self.operand(op).at_least(Prec::Unary);
        // The compared pair may be of the other float type than the values.
        let other = args[..2].iter().any(|o| o.var().is_some_and(|v| self.is_other(v)));
        let (p, q) = self.literals_of(other, || (side(args[0]), side(args[1])));
        let op = cmp_op(cmp);
        let then = self.operand(args[2]).tokens;
        let otherwise = self.operand(args[3]);
        let otherwise = if otherwise.prec == Prec::If {
            otherwise.tokens
        } else {
            let t = otherwise.tokens;
            quote!({ #t })
        };
        Expr::new(quote!(if #p #op #q { #then } else #otherwise), Prec::If)
    }
}
