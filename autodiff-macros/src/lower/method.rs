//! Lowering of calls of the `f64` methods: each to its primitive, `powi`'s exponent (a literal,
//! or an integer constant plus a literal), and the receiver of `sin_cos`.

use syn::{BinOp, Expr, Lit, UnOp};

use super::konst::{Bad, Mode};
use super::{Kind, Lower};
use crate::ir::{Operand, Prim};
use crate::symbol;

impl Lower<'_> {
    /// Lowers a known method applied to `args` (receiver first).
    pub(super) fn apply_method<T: quote::ToTokens>(
        &mut self,
        name: &proc_macro2::Ident,
        args: &[&Expr],
        call: T,
    ) -> Operand {
        let Some(prim) = symbol::method_prim(&name.to_string()) else {
            let message = if name == symbol::SIN_COS {
                format!(
                    "`#[grad]` supports `{name}` only as the value of a `let` that binds its two results, as in `let (s, c) = x.{name}();`"
                )
            } else {
                format!(
                    "`#[grad]` cannot differentiate the method `{name}`; the supported `{}` methods are: {}",
                    self.scalar.text(),
                    symbol::method_list()
                )
            };
            self.cx.error_spanned(name, message);
            return Operand::Lit(0.0);
        };
        let expected = if matches!(prim, Prim::Powi(_)) { 2 } else { prim.arity() };
        if args.len() != expected {
            self.cx.error_spanned(
                call,
                format!("`{name}` takes {} argument(s) besides the receiver", expected - 1),
            );
            return Operand::Lit(0.0);
        }
        if let Prim::Powi(_) = prim {
            return self.powi(args[0], args[1]);
        }
        let operands: Vec<Operand> = args.iter().map(|a| self.real(a)).collect();
        self.b.push(prim, &operands)
    }

    /// `x.powi(e)`: `Powi` for a literal exponent (or literal arithmetic), `PowiInt` for an
    /// integer constant plus a literal (`n`, `K`, `i as i32 + 1`).
    fn powi(&mut self, base: &Expr, exponent: &Expr) -> Operand {
        let x = self.real(base);
        let (rest, k) = split_offset(exponent);
        if let Some(n) = int_literal(rest).and_then(|n| n.checked_add(k)) {
            return self.b.push(Prim::Powi(n), &[x]);
        }
        match self.exponent(exponent, rest) {
            Some(n) => self.b.push(Prim::PowiInt(k), &[x, n]),
            None => Operand::Lit(0.0),
        }
    }

    /// The integer constant `rest` of the exponent `whole` of `powi`, or `None` after reporting
    /// why it is not one.
    fn exponent(&mut self, whole: &Expr, rest: &Expr) -> Option<Operand> {
        let powi = symbol::POWI;
        if matches!(self.kind(whole), Kind::Real | Kind::Array | Kind::Bool) {
            self.cx.error_spanned(
                whole,
                format!("the exponent of `{powi}` is an `i32`, not an `f64` value; use `powf` for an `f64` exponent"),
            );
            return None;
        }
        let k = match self.probe(|l| l.konst(rest, Mode::Int)) {
            Ok(k) => k,
            Err(_) => match self.konst(rest, Mode::Real) {
                Ok(k) => k,
                Err(Bad::Reported) => return None,
                Err(Bad::Real(at)) => {
                    self.cx.error_spanned(
                        at,
                        format!("the exponent of `{powi}` is an integer constant and cannot read `f64` values; use `powf` for an exponent computed from `f64` values"),
                    );
                    return None;
                }
                Err(Bad::Syntax(at)) => {
                    self.cx.error_spanned(
                        at,
                        format!("`#[grad]` supports as the exponent of `{powi}` an integer literal or an integer constant: an integer parameter, a `const`, or integer arithmetic on them and on loop variables cast to `i32`, such as `i as i32 + 1`"),
                    );
                    return None;
                }
            },
        };
        Some(self.shared_ext(k))
    }
}

/// The receiver `x` of `x.sin_cos()` or `f64::sin_cos(x)`.
pub(super) fn sin_cos_receiver<'e>(e: &'e Expr, scalar: &super::ScalarTy) -> Option<&'e Expr> {
    match e {
        Expr::MethodCall(m)
            if m.method == symbol::SIN_COS && m.args.is_empty() && m.turbofish.is_none() =>
        {
            Some(&m.receiver)
        }
        Expr::Call(c) if c.args.len() == 1 => {
            let Expr::Path(p) = &*c.func else { return None };
            let n = p.path.segments.len();
            let named = p.qself.is_none()
                && n >= 2
                && p.path.segments[n - 1].ident == symbol::SIN_COS
                && p.path.segments[n - 1].arguments.is_none()
                && scalar.owns_methods(p.path.segments.iter().take(n - 1));
            named.then(|| &c.args[0])
        }
        Expr::Paren(p) => sin_cos_receiver(&p.expr, scalar),
        Expr::Group(g) => sin_cos_receiver(&g.expr, scalar),
        _ => None,
    }
}

/// The exponent `e` as `rest + k` for the literals `k` it ends with, parentheses removed: `n + 1`
/// is `n` plus 1, `(i as i32 - 2)` is `i as i32` plus -2. Derivatives lower `k`, so they write
/// `x.powi(n)`, not `x.powi(n + 1 - 1)`.
fn split_offset(e: &Expr) -> (&Expr, i32) {
    match e {
        Expr::Paren(p) => split_offset(&p.expr),
        Expr::Group(g) => split_offset(&g.expr),
        Expr::Binary(b) if matches!(b.op, BinOp::Add(_) | BinOp::Sub(_)) => {
            let Some(c) = int_literal(&b.right) else { return (e, 0) };
            let c = if matches!(b.op, BinOp::Sub(_)) { c.checked_neg() } else { Some(c) };
            let (rest, k) = split_offset(&b.left);
            match c.and_then(|c| k.checked_add(c)) {
                Some(k) => (rest, k),
                None => (e, 0),
            }
        }
        _ => (e, 0),
    }
}

/// The value of an `i32` integer literal, possibly negated or parenthesised.
fn int_literal(e: &Expr) -> Option<i32> {
    i32::try_from(wide_int_literal(e)?).ok()
}

fn wide_int_literal(e: &Expr) -> Option<i64> {
    match e {
        Expr::Lit(l) => match &l.lit {
            Lit::Int(i) if matches!(i.suffix(), "" | "i32") => i.base10_parse().ok(),
            _ => None,
        },
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => wide_int_literal(&u.expr)?.checked_neg(),
        Expr::Paren(p) => wide_int_literal(&p.expr),
        Expr::Group(g) => wide_int_literal(&g.expr),
        _ => None,
    }
}
