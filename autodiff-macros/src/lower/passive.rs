//! Constant (passive) expressions: ones that read no differentiated value, such as `n as f64`,
//! `data[i]` or a `const` from outside, kept verbatim with a zero derivative.

use quote::ToTokens;
use syn::{BinOp, Expr, Lit, UnOp};

use super::{Binding, Lower};
use crate::ir::{Ext, ExtId, Operand, Prec};
use crate::symbol;

impl Lower<'_> {
    /// Whether `e` reads no IR value and uses only constant-safe syntax.
    pub(super) fn is_passive(&self, e: &Expr) -> bool {
        self.passive_reads(e, &mut Vec::new())
    }

    /// Whether `e` is passive (as [`Self::is_passive`]), collecting into `params` the passive
    /// parameters it reads, in order of first reading. Only variables count as reads: the field
    /// name `k` in `p.k` does not read a parameter called `k`.
    pub(super) fn passive_reads(&self, e: &Expr, params: &mut Vec<String>) -> bool {
        match e {
            Expr::Lit(l) => matches!(l.lit, Lit::Int(_) | Lit::Float(_)),
            Expr::Path(p) => match p.path.get_ident().map(symbol::unraw) {
                Some(name) => match self.env.get(&name) {
                    Some(Binding::Value(_) | Binding::Uninit) => false,
                    Some(Binding::Passive) => {
                        if !params.contains(&name) {
                            params.push(name);
                        }
                        true
                    }
                    _ => true,
                },
                None => true,
            },
            Expr::Paren(p) => self.passive_reads(&p.expr, params),
            Expr::Group(g) => self.passive_reads(&g.expr, params),
            Expr::Unary(u) => {
                matches!(u.op, UnOp::Neg(_) | UnOp::Deref(_)) && self.passive_reads(&u.expr, params)
            }
            Expr::Binary(b) => {
                matches!(
                    b.op,
                    BinOp::Add(_) | BinOp::Sub(_) | BinOp::Mul(_) | BinOp::Div(_) | BinOp::Rem(_)
                ) && self.passive_reads(&b.left, params)
                    && self.passive_reads(&b.right, params)
            }
            Expr::Index(i) => {
                self.passive_reads(&i.expr, params) && self.passive_reads(&i.index, params)
            }
            Expr::Field(f) => self.passive_reads(&f.base, params),
            Expr::Cast(c) => self.passive_reads(&c.expr, params),
            _ => false,
        }
    }

    /// `e` as a constant operand, or an error saying `what` needs constant operands.
    pub(super) fn passive(&mut self, e: &Expr, prec: Prec, what: &str) -> Operand {
        let mut params = Vec::new();
        if !self.passive_reads(e, &mut params) {
            self.cx.error_spanned(
                e,
                format!(
                    "`#[grad]` supports {what} only on constant (non-differentiated) parameters, such as `data[0]` for `data: &[f64]`"
                ),
            );
            return Operand::Lit(0.0);
        }
        let tokens = e.to_token_stream();
        let id = ExtId(u32::try_from(self.b.func().exts.len()).unwrap_or(u32::MAX));
        self.b.func_mut().exts.push(Ext { tokens, prec, params, loops: Vec::new() });
        Operand::Ext(id)
    }
}
