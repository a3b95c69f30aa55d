//! What an expression is (an `f64`, an array, an integer, a boolean), as far as the syntax and
//! the bindings tell: `let` uses it to choose between an integer and a value, comparisons to
//! choose between comparing integers and comparing `f64` values.

use syn::{BinOp, Expr, Lit, Stmt, UnOp};

use super::arrays::index_chain;
use super::expr::iterator_chain;
use super::types::is_int;
use super::{Binding, Kind, Lower};
use crate::ir::Ty;
use crate::symbol;

/// The kind of `a op b` for an arithmetic operator.
fn combine(a: Kind, b: Kind) -> Kind {
    for k in [Kind::Real, Kind::Array, Kind::Int, Kind::Bool] {
        if a == k || b == k {
            return k;
        }
    }
    Kind::Unknown
}

fn ty_kind(ty: &Ty) -> Kind {
    match ty {
        Ty::F64 | Ty::Other => Kind::Real,
        Ty::Bool => Kind::Bool,
        Ty::Array(_) => Kind::Array,
        // Made by the transforms, never by lowering.
        Ty::Residuals => Kind::Unknown,
    }
}

impl Lower<'_> {
    /// What `e` is.
    pub(super) fn kind(&self, e: &Expr) -> Kind {
        match e {
            Expr::Lit(l) => match &l.lit {
                Lit::Float(_) => Kind::Real,
                Lit::Int(i) if matches!(i.suffix(), "f64" | "f32") => Kind::Real,
                Lit::Int(_) => Kind::Int,
                Lit::Bool(_) => Kind::Bool,
                _ => Kind::Unknown,
            },
            Expr::Path(p) => {
                match p.path.get_ident().and_then(|id| self.lookup(&symbol::unraw(id))) {
                    Some(Binding::Slot(s)) => match self.slots[*s].value {
                        Some(v) => ty_kind(&self.b.ty(v)),
                        None => Kind::Real,
                    },
                    Some(Binding::Int(_) | Binding::Counter(_)) => Kind::Int,
                    Some(Binding::Param(k)) => *k,
                    Some(Binding::View(_)) => Kind::Array,
                    // A const generic parameter is an integer (`let mut idx = D;`).
                    None if p
                        .path
                        .get_ident()
                        .is_some_and(|id| self.generics.contains(&symbol::unraw(id))) =>
                    {
                        Kind::Int
                    }
                    Some(
                        Binding::Poison
                        | Binding::Tuple(_)
                        | Binding::Record(..)
                        | Binding::Closure(_)
                        | Binding::Struct(_),
                    )
                    | None => Kind::Unknown,
                }
            }
            Expr::Paren(p) => self.kind(&p.expr),
            Expr::Group(g) => self.kind(&g.expr),
            Expr::Unary(u) => match u.op {
                UnOp::Not(_) => Kind::Bool,
                _ => self.kind(&u.expr),
            },
            Expr::Binary(b) => match b.op {
                BinOp::Add(_) | BinOp::Sub(_) | BinOp::Mul(_) | BinOp::Div(_) | BinOp::Rem(_) => {
                    combine(self.kind(&b.left), self.kind(&b.right))
                }
                _ => Kind::Bool,
            },
            Expr::Cast(c) if is_int(&c.ty) => Kind::Int,
            Expr::Cast(_) | Expr::Call(_) => Kind::Real,
            Expr::MethodCall(m) => {
                let method = m.method.to_string();
                if iterator_chain(e).is_some() {
                    Kind::Unknown
                } else if method == symbol::LEN {
                    Kind::Int
                } else if symbol::INT_METHODS.contains(&method.as_str()) {
                    match self.kind(&m.receiver) {
                        Kind::Real => Kind::Real,
                        other => other,
                    }
                } else {
                    Kind::Real
                }
            }
            Expr::Index(_) => self.index_kind(e),
            Expr::If(i) => match i.then_branch.stmts.last() {
                Some(Stmt::Expr(tail, None)) => self.kind(tail),
                _ => Kind::Unknown,
            },
            Expr::Block(b) => match b.block.stmts.last() {
                Some(Stmt::Expr(tail, None)) => self.kind(tail),
                _ => Kind::Unknown,
            },
            Expr::Array(_) | Expr::Repeat(_) => Kind::Array,
            Expr::Reference(r) => self.kind(&r.expr),
            Expr::Match(m) => m.arms.first().map_or(Kind::Unknown, |a| self.kind(&a.body)),
            Expr::Field(_) if self.is_flat_field(e) => match self.flat_field_depth(e) {
                0 => Kind::Real,
                _ => Kind::Array,
            },
            Expr::Field(_) if self.field_kind(e).is_some() => {
                self.field_kind(e).unwrap_or(Kind::Unknown)
            }
            Expr::Field(_) => match self.tuple_component(e) {
                Some(Binding::Int(_)) => Kind::Int,
                Some(Binding::Slot(s)) => match self.slots[s].value {
                    Some(v) => ty_kind(&self.b.ty(v)),
                    None => Kind::Real,
                },
                _ => Kind::Unknown,
            },
            _ => Kind::Unknown,
        }
    }

    fn index_kind(&self, e: &Expr) -> Kind {
        if self.array_ty(e).is_some() {
            return Kind::Array;
        }
        let (base, _) = index_chain(e);
        match self.kind(base) {
            Kind::Array => Kind::Real,
            other => other,
        }
    }
}
