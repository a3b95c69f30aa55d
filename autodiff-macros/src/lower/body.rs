//! Lowering of statements: `let`, reassignment and compound assignment (renamed into single
//! assignment), and the final expression or `return`.

use syn::{BinOp, Block, Expr, Local, Pat, Stmt};

use super::expr::{STRAIGHT_LINE, describe};
use super::signature::is_f64;
use super::{Binding, Lower};
use crate::ir::{Name, Operand, Prim};
use crate::symbol;

impl Lower<'_> {
    /// Lowers the body; returns the operand of its value.
    pub(super) fn body(&mut self, block: &Block) -> Operand {
        let mut value = None;
        let n = block.stmts.len();
        for (i, stmt) in block.stmts.iter().enumerate() {
            let last = i + 1 == n;
            match stmt {
                Stmt::Local(local) => self.local(local),
                Stmt::Expr(Expr::Return(r), _) if last => match &r.expr {
                    Some(e) => value = Some(self.expr(e)),
                    None => self.cx.error_spanned(r, "`return` needs an `f64` value"),
                },
                Stmt::Expr(e, None) if last => value = Some(self.expr(e)),
                Stmt::Expr(e, _) => self.effect(e),
                Stmt::Item(item) => self.cx.error_spanned(
                    item,
                    "`#[grad]` does not support items inside the function body; define them outside the function",
                ),
                Stmt::Macro(m) => self.cx.error_spanned(
                    m,
                    format!("`#[grad]` does not support macro invocations; {STRAIGHT_LINE}"),
                ),
            }
        }
        value.unwrap_or_else(|| {
            if self.cx.is_ok() {
                self.cx.error_at(
                    block.brace_token.span.close(),
                    "the body of a `#[grad]` function must end with an `f64` expression or a `return`",
                );
            }
            Operand::Lit(0.0)
        })
    }

    /// `let x = e;`, `let mut x: f64 = e;`, `let _ = e;`
    fn local(&mut self, local: &Local) {
        let (pat, ty) = match &local.pat {
            Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
            other => (other, None),
        };
        if let Some(ty) = ty.filter(|ty| !is_f64(ty)) {
            self.cx.error_spanned(ty, "`#[grad]` supports only `f64` bindings in the body");
        }
        let name = match pat {
            Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                Some(symbol::unraw(&pi.ident))
            }
            Pat::Wild(_) => None,
            other => {
                self.cx.error_spanned(
                    other,
                    "`#[grad]` supports only `let name = ...;` bindings, not patterns",
                );
                None
            }
        };
        let Some(init) = &local.init else {
            if let Some(name) = name {
                self.env.insert(name, Binding::Uninit);
            }
            return;
        };
        if let Some((else_token, _)) = &init.diverge {
            self.cx.error_spanned(else_token, "`#[grad]` does not support `let ... else`");
        }
        let value = self.expr(&init.expr);
        if let Some(name) = name {
            self.bind(name, value);
        }
    }

    /// Binds `name` to `value`, naming the statement that computed it after the user's variable.
    fn bind(&mut self, name: String, value: Operand) {
        let version = self.versions.entry(name.clone()).or_insert(0);
        if self.b.name_temp(value, Name::version(&name, *version)) {
            *version += 1;
        }
        self.env.insert(name, Binding::Value(value));
    }

    /// A statement evaluated for its effect: an assignment, or an error.
    fn effect(&mut self, e: &Expr) {
        let (left, op, right) = match e {
            Expr::Assign(a) => (&*a.left, None, &*a.right),
            Expr::Binary(b) => match b.op {
                BinOp::AddAssign(_) => (&*b.left, Some(Prim::Add), &*b.right),
                BinOp::SubAssign(_) => (&*b.left, Some(Prim::Sub), &*b.right),
                BinOp::MulAssign(_) => (&*b.left, Some(Prim::Mul), &*b.right),
                BinOp::DivAssign(_) => (&*b.left, Some(Prim::Div), &*b.right),
                _ => return self.statement_without_effect(e),
            },
            Expr::Return(_) => {
                self.cx.error_spanned(
                    e,
                    "`#[grad]` does not support an early `return`; return only at the end of the function",
                );
                return;
            }
            _ => return self.statement_without_effect(e),
        };
        let target = match left {
            Expr::Path(p) if p.qself.is_none() => p.path.get_ident().map(symbol::unraw),
            _ => None,
        };
        let current = target.as_ref().and_then(|t| match self.env.get(t) {
            Some(Binding::Value(v)) => Some(*v),
            // `let y;` then `y = ...;` (rustc rejects `y += ...` before the first assignment).
            Some(Binding::Uninit) if op.is_none() => Some(Operand::Lit(0.0)),
            _ => None,
        });
        let (Some(name), Some(current)) = (target, current) else {
            self.cx.error_spanned(
                left,
                "`#[grad]` supports assignments only to local `f64` variables",
            );
            return;
        };
        let rhs = self.expr(right);
        let value = match op {
            None => rhs,
            Some(prim) => self.b.push(prim, &[current, rhs]),
        };
        self.bind(name, value);
    }

    fn statement_without_effect(&mut self, e: &Expr) {
        if let Some(what) = describe(e) {
            self.unsupported(e, what);
        } else {
            self.cx.error_spanned(
                e,
                "`#[grad]` supports only `let` bindings and assignments as statements; this statement has no effect",
            );
        }
    }
}
