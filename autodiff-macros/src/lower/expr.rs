//! Lowering of expressions: literals, arithmetic, paths, casts and the known `f64` methods, each
//! operation into one IR statement.

use syn::{BinOp, Expr, ExprCall, ExprMethodCall, Lit, UnOp};

use super::{Binding, Lower};
use crate::ir::{Operand, Prec, Prim};
use crate::symbol;

/// What an unsupported expression is, for messages; `None` for supported kinds.
pub(super) fn describe(e: &Expr) -> Option<&'static str> {
    Some(match e {
        Expr::If(_) => "`if` expressions",
        Expr::While(_) => "`while` loops",
        Expr::Loop(_) => "`loop`",
        Expr::ForLoop(_) => "`for` loops",
        Expr::Match(_) => "`match` expressions",
        Expr::Closure(_) => "closures",
        Expr::Block(_) => "block expressions",
        Expr::Unsafe(_) => "`unsafe` blocks",
        Expr::Async(_) => "`async` blocks",
        Expr::Await(_) => "`.await`",
        Expr::Macro(_) => "macro invocations",
        Expr::Try(_) => "the `?` operator",
        Expr::TryBlock(_) => "`try` blocks",
        Expr::Return(_) => "an early `return`",
        Expr::Reference(_) => "references (`&`)",
        Expr::RawAddr(_) => "raw pointers",
        Expr::Tuple(_) => "tuples",
        Expr::Array(_) | Expr::Repeat(_) => "arrays",
        Expr::Range(_) => "ranges",
        Expr::Struct(_) => "struct expressions",
        Expr::Assign(_) => "assignments inside expressions",
        Expr::Break(_) | Expr::Continue(_) => "`break` and `continue`",
        Expr::Let(_) => "`let` expressions",
        Expr::Const(_) => "`const` blocks",
        Expr::Yield(_) => "`yield`",
        Expr::Infer(_) => "`_` expressions",
        Expr::Lit(_)
        | Expr::Paren(_)
        | Expr::Group(_)
        | Expr::Unary(_)
        | Expr::Binary(_)
        | Expr::Path(_)
        | Expr::Cast(_)
        | Expr::MethodCall(_)
        | Expr::Call(_)
        | Expr::Index(_)
        | Expr::Field(_) => return None,
        _ => "this expression",
    })
}

/// What the body may contain, for messages.
pub(super) const STRAIGHT_LINE: &str = "the body must be straight-line code over `f64` values: `let`, assignments, `+ - * /` and `f64` methods";

/// The hint that follows "`#[grad]` does not support ...".
fn hint(e: &Expr) -> &'static str {
    match e {
        Expr::If(_) | Expr::Match(_) => {
            "the body must be straight-line code (`min`, `max`, `abs` and `signum` cover common branches)"
        }
        Expr::While(_) | Expr::Loop(_) | Expr::ForLoop(_) => {
            "the body must be straight-line code (write the iterations out)"
        }
        Expr::Return(_) => "return only at the end of the function",
        _ => STRAIGHT_LINE,
    }
}

impl Lower<'_> {
    /// Reports `e` as unsupported; returns a placeholder so lowering can go on.
    pub(super) fn unsupported(&mut self, e: &Expr, what: &str) -> Operand {
        let message = format!("`#[grad]` does not support {what}; {}", hint(e));
        match e {
            // Point at the keyword, not the whole loop or branch.
            Expr::If(x) => self.cx.error_spanned(x.if_token, message),
            Expr::While(x) => self.cx.error_spanned(x.while_token, message),
            Expr::Loop(x) => self.cx.error_spanned(x.loop_token, message),
            Expr::ForLoop(x) => self.cx.error_spanned(x.for_token, message),
            Expr::Match(x) => self.cx.error_spanned(x.match_token, message),
            Expr::Unsafe(x) => self.cx.error_spanned(x.unsafe_token, message),
            Expr::Async(x) => self.cx.error_spanned(x.async_token, message),
            _ => self.cx.error_spanned(e, message),
        }
        Operand::Lit(0.0)
    }

    /// Lowers an `f64` expression to an operand, emitting one statement per operation.
    pub(super) fn expr(&mut self, e: &Expr) -> Operand {
        match e {
            Expr::Lit(l) => self.lit(&l.lit),
            Expr::Paren(p) => self.expr(&p.expr),
            Expr::Group(g) => self.expr(&g.expr),
            Expr::Unary(u) => match u.op {
                UnOp::Neg(_) => {
                    let a = self.expr(&u.expr);
                    self.b.push(Prim::Neg, &[a])
                }
                UnOp::Deref(_) => self.passive(e, Prec::Unary, "dereferencing"),
                _ => {
                    self.cx.error_spanned(
                        e,
                        "`#[grad]` supports only `-` as a unary operator on `f64` values",
                    );
                    Operand::Lit(0.0)
                }
            },
            Expr::Binary(b) => {
                let prim = match b.op {
                    BinOp::Add(_) => Prim::Add,
                    BinOp::Sub(_) => Prim::Sub,
                    BinOp::Mul(_) => Prim::Mul,
                    BinOp::Div(_) => Prim::Div,
                    BinOp::AddAssign(_)
                    | BinOp::SubAssign(_)
                    | BinOp::MulAssign(_)
                    | BinOp::DivAssign(_) => {
                        return self.unsupported(e, "compound assignments inside expressions");
                    }
                    op => {
                        let op = quote::ToTokens::to_token_stream(&op);
                        self.cx.error_spanned(
                            b.op,
                            format!("`#[grad]` does not support the operator `{op}`; it supports `+`, `-`, `*` and `/` on `f64` values"),
                        );
                        return Operand::Lit(0.0);
                    }
                };
                let l = self.expr(&b.left);
                let r = self.expr(&b.right);
                self.b.push(prim, &[l, r])
            }
            Expr::Path(p) => {
                match p.path.get_ident().and_then(|id| self.env.get(&symbol::unraw(id))) {
                    Some(Binding::Value(v)) if p.qself.is_none() => *v,
                    _ => self.passive(e, Prec::Atom, "paths"),
                }
            }
            Expr::Cast(c) => {
                if !super::signature::is_f64(&c.ty) {
                    self.cx.error_spanned(&c.ty, "`#[grad]` supports only casts to `f64`");
                    return Operand::Lit(0.0);
                }
                if self.is_passive(&c.expr) {
                    return self.passive(e, Prec::Cast, "casts");
                }
                self.expr(&c.expr)
            }
            Expr::MethodCall(m) => self.method(m),
            Expr::Call(c) => self.call(c),
            Expr::Index(_) => self.passive(e, Prec::Atom, "indexing"),
            Expr::Field(_) => self.passive(e, Prec::Atom, "field access"),
            other => {
                let what = describe(other).unwrap_or("this expression");
                self.unsupported(other, what)
            }
        }
    }

    fn lit(&mut self, lit: &Lit) -> Operand {
        let parsed = match lit {
            Lit::Float(f) if matches!(f.suffix(), "" | "f64") => f.base10_parse::<f64>().ok(),
            Lit::Int(i) if matches!(i.suffix(), "" | "f64") => i.base10_parse::<f64>().ok(),
            _ => None,
        };
        parsed.map(Operand::Lit).unwrap_or_else(|| {
            self.cx.error_spanned(
                lit,
                "`#[grad]` supports only `f64` literals, such as `2.0`, `1e-3` or `2.0_f64`",
            );
            Operand::Lit(0.0)
        })
    }

    /// `recv.method(args)` for a known `f64` method.
    fn method(&mut self, m: &ExprMethodCall) -> Operand {
        if let Some(t) = &m.turbofish {
            self.cx.error_spanned(t, "`#[grad]` does not support turbofish arguments here");
        }
        let mut constants = Vec::new();
        if symbol::method_prim(&m.method.to_string()).is_none()
            && self.passive_reads(&m.receiver, &mut constants)
            && let Some(param) = constants.first()
        {
            self.cx.error_spanned(
                m,
                format!(
                    "`#[grad]` does not support calling `{}` on the constant parameter `{param}`; compute the value outside and pass it in as a parameter",
                    m.method
                ),
            );
            return Operand::Lit(0.0);
        }
        let args: Vec<&Expr> = std::iter::once(&*m.receiver).chain(m.args.iter()).collect();
        self.apply_method(&m.method, &args, m)
    }

    /// `f64::method(args)`, the fully qualified form of a method call.
    fn call(&mut self, c: &ExprCall) -> Operand {
        let method = match &*c.func {
            // `f64::sin(x)` or `std::primitive::f64::sin(x)`: a path to `f64`, then the method.
            Expr::Path(p) if p.qself.is_none() => {
                let n = p.path.segments.len();
                (n >= 2 && super::signature::names_f64(p.path.segments.iter().take(n - 1)))
                    .then(|| p.path.segments[n - 1].ident.clone())
            }
            _ => None,
        };
        let Some(method) = method else {
            self.cx.error_spanned(
                &c.func,
                "`#[grad]` does not support calls to functions; use `f64` methods such as `x.sin()` or `f64::sin(x)`",
            );
            return Operand::Lit(0.0);
        };
        let args: Vec<&Expr> = c.args.iter().collect();
        self.apply_method(&method, &args, c)
    }

    /// Lowers a known method applied to `args` (receiver first).
    fn apply_method<T: quote::ToTokens>(
        &mut self,
        name: &proc_macro2::Ident,
        args: &[&Expr],
        call: T,
    ) -> Operand {
        let Some(prim) = symbol::method_prim(&name.to_string()) else {
            self.cx.error_spanned(
                name,
                format!(
                    "`#[grad]` cannot differentiate the method `{name}`; the supported `f64` methods are: {}",
                    symbol::method_list()
                ),
            );
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
        let prim = match prim {
            Prim::Powi(_) => match int_literal(args[1]) {
                Some(n) => Prim::Powi(n),
                None => {
                    self.cx.error_spanned(
                        args[1],
                        format!("the exponent of `{}` must be an integer literal; use `powf` for a variable exponent", symbol::POWI),
                    );
                    return Operand::Lit(0.0);
                }
            },
            other => other,
        };
        let operands: Vec<Operand> = args[..prim.arity()].iter().map(|a| self.expr(a)).collect();
        self.b.push(prim, &operands)
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
