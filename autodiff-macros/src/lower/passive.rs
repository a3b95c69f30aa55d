//! Constant (passive) expressions: ones that read no differentiated value, such as `n as f64`,
//! `data[i]` or a `const` from outside, kept verbatim with a zero derivative.

use proc_macro2::TokenTree;
use quote::ToTokens;
use syn::{BinOp, Expr, Lit, UnOp};

use super::{Binding, Lower};
use crate::ir::{Ext, ExtId, Operand, Prec};

impl Lower<'_> {
    /// Whether `e` reads no IR value and uses only constant-safe syntax.
    pub(super) fn is_passive(&self, e: &Expr) -> bool {
        match e {
            Expr::Lit(l) => matches!(l.lit, Lit::Int(_) | Lit::Float(_)),
            Expr::Path(p) => match p.path.get_ident() {
                Some(id) => !matches!(
                    self.env.get(&id.to_string()),
                    Some(Binding::Value(_) | Binding::Uninit)
                ),
                None => true,
            },
            Expr::Paren(p) => self.is_passive(&p.expr),
            Expr::Group(g) => self.is_passive(&g.expr),
            Expr::Unary(u) => {
                matches!(u.op, UnOp::Neg(_) | UnOp::Deref(_)) && self.is_passive(&u.expr)
            }
            Expr::Binary(b) => {
                matches!(
                    b.op,
                    BinOp::Add(_) | BinOp::Sub(_) | BinOp::Mul(_) | BinOp::Div(_) | BinOp::Rem(_)
                ) && self.is_passive(&b.left)
                    && self.is_passive(&b.right)
            }
            Expr::Index(i) => self.is_passive(&i.expr) && self.is_passive(&i.index),
            Expr::Field(f) => self.is_passive(&f.base),
            Expr::Cast(c) => self.is_passive(&c.expr),
            _ => false,
        }
    }

    /// `e` as a constant operand, or an error saying `what` needs constant operands.
    pub(super) fn passive(&mut self, e: &Expr, prec: Prec, what: &str) -> Operand {
        if !self.is_passive(e) {
            self.cx.error_spanned(
                e,
                format!(
                    "`#[grad]` supports {what} only on constant (non-differentiated) parameters, such as `data[0]` for `data: &[f64]`"
                ),
            );
            return Operand::Lit(0.0);
        }
        let tokens = e.to_token_stream();
        let mut params = Vec::new();
        self.passive_params(tokens.clone(), &mut params);
        let id = ExtId(u32::try_from(self.b.func().exts.len()).unwrap_or(u32::MAX));
        self.b.func_mut().exts.push(Ext { tokens, prec, params });
        Operand::Ext(id)
    }

    /// The passive parameters named in `tokens`.
    fn passive_params(&self, tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
        for t in tokens {
            match t {
                TokenTree::Ident(id) => {
                    let name = id.to_string();
                    if matches!(self.env.get(&name), Some(Binding::Passive)) && !out.contains(&name)
                    {
                        out.push(name);
                    }
                }
                TokenTree::Group(g) => self.passive_params(g.stream(), out),
                _ => {}
            }
        }
    }
}
