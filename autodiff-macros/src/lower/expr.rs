//! Lowering of expressions: literals, arithmetic, paths, casts and calls (the `f64` methods in
//! `method.rs`), each operation into one IR statement; and the fence's descriptions of what is not
//! supported.

use syn::{BinOp, Expr, ExprCall, ExprMethodCall, Lit, UnOp};

use super::konst::{Bad, Mode};
use super::{Binding, Lower};
use crate::ir::{Operand, Prim, Ty};
use crate::symbol;

/// What an unsupported expression is, for messages; `None` for supported kinds.
pub(super) fn describe(e: &Expr) -> Option<&'static str> {
    Some(match e {
        Expr::While(_) => "a `while` loop as a value",
        Expr::Loop(_) => "a `loop` as a value",
        Expr::ForLoop(_) => "a `for` loop as a value",
        Expr::Match(_) => "`match` expressions",
        Expr::Closure(_) => "closures",
        Expr::Block(b) if b.label.is_some() => "labelled blocks",
        Expr::Unsafe(_) => "`unsafe` blocks",
        Expr::Async(_) => "`async` blocks",
        Expr::Await(_) => "`.await`",
        Expr::Macro(_) => "macro invocations",
        Expr::Try(_) => "the `?` operator",
        Expr::TryBlock(_) => "`try` blocks",
        Expr::Return(_) => "`return` inside an expression",
        Expr::Reference(_) => "references (`&`)",
        Expr::RawAddr(_) => "raw pointers",
        Expr::Tuple(_) => "tuples here",
        Expr::Range(_) => "ranges here",
        Expr::Struct(_) => "struct expressions",
        Expr::Assign(_) => "assignments inside expressions",
        Expr::Break(b) if b.label.is_some() => "`break` with a label",
        Expr::Break(b) if b.expr.is_some() => "`break` with a value",
        Expr::Break(_) => "`break` inside an expression",
        Expr::Continue(c) if c.label.is_some() => "`continue` with a label",
        Expr::Continue(_) => "`continue` inside an expression",
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
        | Expr::Field(_)
        | Expr::If(_)
        | Expr::Block(_)
        | Expr::Array(_)
        | Expr::Repeat(_) => return None,
        _ => "this expression",
    })
}

/// Whether `e` is a call of a derivative function (`g_grad(x)`), or a method call: reading a
/// field of one is reading a derivative.
fn is_derivative_call(e: &Expr) -> bool {
    let Expr::Call(c) = e else { return matches!(e, Expr::MethodCall(_)) };
    let Expr::Path(p) = &*c.func else { return true };
    let Some(last) = p.path.segments.last() else { return true };
    let name = last.ident.to_string();
    [symbol::FN_GRAD, symbol::FN_JVP, symbol::FN_HVP, symbol::FN_VJP]
        .iter()
        .any(|k| name.ends_with(&format!("_{k}")))
}

/// What the body may contain, for messages.
pub(super) const SUBSET: &str = "the body may contain `let`, assignments, `for` loops over integer ranges, `while` and `loop` (with `break` and `continue`), `if` and `else`, arrays of `f64`, `+ - * /`, `f64` methods and calls of functions returning `f64`";

/// The hint that follows "`#[grad]` does not support ...".
fn hint(e: &Expr) -> &'static str {
    match e {
        Expr::Match(_) => "use `if` and `else if`",
        Expr::While(_) => {
            "assign the value to a variable declared before the loop, and run the loop as a statement"
        }
        Expr::Loop(_) => {
            "bind its value first, as in `let r = loop { … break v; … };`, or assign it, `r = loop { … };`"
        }
        Expr::Break(b) if b.label.is_some() => {
            "a label names a loop around it, as in `'outer: for … { for … { break 'outer; } }` (labelled blocks are not supported)"
        }
        Expr::Continue(c) if c.label.is_some() => {
            "a label names a loop around it, as in `'outer: for … { for … { continue 'outer; } }`"
        }
        Expr::Break(b) if b.expr.is_some() => {
            "a `break` with a value leaves a `loop` whose value is bound by `let r = loop { … };`, assigned, or the value of the function or of a block"
        }
        Expr::Break(_) | Expr::Continue(_) => {
            "write it as a statement of the loop's body (or of an `if` there), as in `if done { break; }`"
        }
        Expr::Return(_) => {
            "write it as a statement, as in `if x < 0.0 { return 0.0; }`, or end the function with the value"
        }
        Expr::Tuple(_) => {
            "a tuple can only be the function's final value, returned as `(f64, f64)`"
        }
        Expr::Range(_) => "ranges can only be iterated over, as in `for i in 0..N`",
        Expr::Block(_) => "use a block without a label",
        _ => SUBSET,
    }
}

impl Lower<'_> {
    /// Reports `e` as unsupported; returns a placeholder so lowering can go on.
    pub(super) fn unsupported(&mut self, e: &Expr, what: &str) -> Operand {
        let message = format!("`#[grad]` does not support {what}; {}", hint(e));
        match e {
            // Point at the keyword, not the whole loop or branch.
            Expr::While(x) => self.cx.error_spanned(x.while_token, message),
            Expr::Loop(x) => self.cx.error_spanned(x.loop_token, message),
            Expr::ForLoop(x) => self.cx.error_spanned(x.for_token, message),
            Expr::Match(x) => self.cx.error_spanned(x.match_token, message),
            Expr::Unsafe(x) => self.cx.error_spanned(x.unsafe_token, message),
            Expr::Async(x) => self.cx.error_spanned(x.async_token, message),
            Expr::Break(x) => self.cx.error_spanned(x.break_token, message),
            Expr::Continue(x) => self.cx.error_spanned(x.continue_token, message),
            Expr::Block(x) => match &x.label {
                Some(label) => self.cx.error_spanned(label, message),
                None => self.cx.error_spanned(e, message),
            },
            _ => self.cx.error_spanned(e, message),
        }
        Operand::Lit(0.0)
    }

    /// Lowers an `f64` expression to an operand of type `f64`, reporting an array.
    pub(super) fn real(&mut self, e: &Expr) -> Operand {
        let v = self.expr(e);
        if let Ty::Array(_) = self.b.ty(v) {
            let ty = self.ty_text(&self.b.ty(v));
            self.cx.error_spanned(
                e,
                format!("expected an `f64` value, found an array `{ty}`; index it, as in `x[i]`"),
            );
            return Operand::Lit(0.0);
        }
        v
    }

    /// Lowers an expression to an operand (an `f64` or an array), emitting one statement per
    /// operation.
    pub(super) fn expr(&mut self, e: &Expr) -> Operand {
        if let Some(op) = self.generic_constant(e) {
            return op;
        }
        match e {
            Expr::Lit(l) => self.lit(&l.lit),
            Expr::Paren(p) => self.expr(&p.expr),
            Expr::Group(g) => self.expr(&g.expr),
            Expr::Unary(u) => match u.op {
                UnOp::Neg(_) => {
                    let a = self.real(&u.expr);
                    self.b.push(Prim::Neg, &[a])
                }
                // A reference to a value is the value: `*x` for `x` bound to `&y[i]`.
                UnOp::Deref(_) if !self.is_constant(e) => self.expr(&u.expr),
                UnOp::Deref(_) => self.passive(e, "dereferencing"),
                _ => {
                    self.cx.error_spanned(
                        e,
                        "`#[grad]` supports only `-` as a unary operator on `f64` values",
                    );
                    Operand::Lit(0.0)
                }
            },
            Expr::Binary(b) => self.binary(e, b),
            Expr::Path(p) if self.named_tuple_or_closure(e) => {
                let _ = p;
                let v = self.value(e);
                self.single(e, v)
            }
            Expr::Path(p) => self.path(e, p),
            Expr::Reference(r) if r.mutability.is_none() && !self.is_constant(e) => {
                self.expr(&r.expr)
            }
            Expr::Reference(r) if r.mutability.is_none() => self.passive(e, "references"),
            Expr::Call(c) if self.is_closure(&c.func) => {
                let v = self.call_closure(c);
                self.single(e, v)
            }
            Expr::Match(m) => match self.desugar_match(m) {
                Some(chain) => self.expr(&chain),
                None => Operand::Lit(0.0),
            },
            Expr::Field(_) if self.is_flat_field(e) => self.flat_field_read(e),
            Expr::Field(_) if self.field_input(e).is_some() => {
                self.field_value(e).unwrap_or(Operand::Lit(0.0))
            }
            Expr::Field(_) if self.missing_field(e).is_some() => {
                if let Some(shape) = self.missing_field(e) {
                    self.no_such_field(e, &shape);
                }
                Operand::Lit(0.0)
            }
            Expr::Field(_) if self.tuple_component(e).is_some() => {
                let v = self.value(e);
                self.single(e, v)
            }
            Expr::Cast(c) => self.cast(e, c),
            Expr::MethodCall(m) => self.method(e, m),
            Expr::Call(c) => self.call(c),
            Expr::Index(i) => self.index(e, i),
            Expr::Field(f) if self.gives_tuple(&f.base) => {
                let v = self.value(e);
                self.single(e, v)
            }
            Expr::Field(f)
                if matches!(f.member, syn::Member::Named(_))
                    && self.is_inferred_struct_call(&f.base) =>
            {
                self.call_field(f)
            }
            Expr::Field(f) if is_derivative_call(&f.base) => {
                self.cx.error_spanned(
                    e,
                    "`#[grad]` does not read fields of a call's result: to differentiate through a function, call the function itself (`g(x)`, not `g_grad(x).0`); its derivatives are found by name",
                );
                Operand::Lit(0.0)
            }
            Expr::Field(f) if matches!(&*f.base, Expr::Call(_)) => {
                self.untyped_call(quote::ToTokens::to_token_stream(&*f.base), field_use(f));
                Operand::Lit(0.0)
            }
            Expr::Field(f) => {
                let call = self.call_value(&f.base);
                match self.vector_call(call, field_use(f)) {
                    true => Operand::Lit(0.0),
                    false => self.passive(e, "field access"),
                }
            }
            Expr::If(_) | Expr::Block(_) if !matches!(e, Expr::Block(b) if b.label.is_some()) => {
                let v = self.value(e);
                self.single(e, v)
            }
            Expr::Array(a) => self.array_literal(e, a),
            Expr::Repeat(r) => self.repeat(e, r),
            other => {
                let what = describe(other).unwrap_or("this expression");
                self.unsupported(other, what)
            }
        }
    }

    /// `a + b`, `a - b`, `a * b`, `a / b`, and the operators that are reported.
    fn binary(&mut self, e: &Expr, b: &syn::ExprBinary) -> Operand {
        if self.operator_on_struct(b) {
            return Operand::Lit(0.0);
        }
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
            BinOp::Lt(_)
            | BinOp::Le(_)
            | BinOp::Gt(_)
            | BinOp::Ge(_)
            | BinOp::Eq(_)
            | BinOp::Ne(_)
            | BinOp::And(_)
            | BinOp::Or(_) => {
                let op = quote::ToTokens::to_token_stream(&b.op);
                self.cx.error_spanned(
                    b.op,
                    format!("`#[grad]` supports `{op}` only in the condition of an `if`, such as `if x > 0.0 {{ x }} else {{ -x }}`"),
                );
                return Operand::Lit(0.0);
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
        let l = self.real(&b.left);
        let r = self.real(&b.right);
        self.b.push(prim, &[l, r])
    }

    /// A name read as a value.
    fn path(&mut self, e: &Expr, p: &syn::ExprPath) -> Operand {
        let name = p.path.get_ident().filter(|_| p.qself.is_none()).map(symbol::unraw);
        match name.as_deref().and_then(|n| self.lookup(n)).cloned() {
            Some(Binding::Slot(s)) => match self.slots[s].value {
                Some(v) => v,
                None => {
                    self.cx.error_spanned(
                        e,
                        "`#[grad]` needs a variable to be assigned before it is read",
                    );
                    Operand::Lit(0.0)
                }
            },
            // A counter whose value is not known here says why (or nothing more after an error).
            Some(Binding::Counter(c)) if !self.counter_known(c) => {
                if let Some(id) = p.path.get_ident() {
                    let _ = self.read_counter(c, id);
                }
                Operand::Lit(0.0)
            }
            Some(Binding::Int(_) | Binding::Counter(_)) => {
                let name = name.unwrap_or_default();
                self.cx.error_spanned(
                    e,
                    format!("`{name}` is an integer; convert it with `{name} as f64` to use it as an `f64`"),
                );
                Operand::Lit(0.0)
            }
            Some(Binding::Poison | Binding::Tuple(_) | Binding::Closure(_) | Binding::View(_)) => {
                Operand::Lit(0.0)
            }
            Some(Binding::Struct(_)) => {
                self.whole_struct(e, name.as_deref().unwrap_or_default());
                Operand::Lit(0.0)
            }
            Some(Binding::Record(..)) => {
                let v = self.value(e);
                self.single(e, v)
            }
            Some(Binding::Param(_)) | None => self.passive(e, "paths"),
        }
    }

    /// `e` as a constant operand, or an error saying `what` needs constant operands.
    fn passive(&mut self, e: &Expr, what: &str) -> Operand {
        match self.konst(e, Mode::Real) {
            Ok(k) => self.ext(k),
            Err(Bad::Reported) => Operand::Lit(0.0),
            Err(_) => {
                self.cx.error_spanned(
                    e,
                    format!(
                        "`#[grad]` supports {what} only on constant (non-differentiated) parameters, such as `data[0]` for `data: &[f64]`"
                    ),
                );
                Operand::Lit(0.0)
            }
        }
    }

    fn lit(&mut self, lit: &Lit) -> Operand {
        // In a function that mixes `f32` and `f64`, a literal keeps the value written (`_f32`
        // rounded): codegen writes it in the type of where it is used.
        let f32 = match lit {
            Lit::Float(f) if self.scalar.mixed => f.suffix() == symbol::F32,
            Lit::Int(i) if self.scalar.mixed => i.suffix() == symbol::F32,
            _ => self.scalar.kind == crate::ir::Scalar::F32,
        };
        // An `f32` literal is parsed as one: parsing as `f64` and rounding would round twice.
        let parsed = match lit {
            Lit::Float(f) if self.scalar.suffix_fits(f.suffix()) && f32 => {
                f.base10_parse::<f32>().ok().map(f64::from)
            }
            Lit::Float(f) if self.scalar.suffix_fits(f.suffix()) => f.base10_parse::<f64>().ok(),
            Lit::Int(i) if self.scalar.suffix_fits(i.suffix()) && f32 => {
                i.base10_parse::<f32>().ok().map(f64::from)
            }
            Lit::Int(i) if self.scalar.suffix_fits(i.suffix()) => i.base10_parse::<f64>().ok(),
            _ => None,
        };
        let other = self.scalar.other().filter(|o| match lit {
            Lit::Float(f) => f.suffix() == *o,
            Lit::Int(i) => i.suffix() == *o,
            _ => false,
        });
        if let (Some(x), Some(_)) = (parsed, other) {
            // `1.0_f64` in an `f32` function: a value of the other type.
            return self.b.typed_other(Operand::Lit(x));
        }
        parsed.map(Operand::Lit).unwrap_or_else(|| {
            let s = self.scalar.text();
            let message = match self.scalar.param {
                Some(_) => format!(
                    "`#[grad]` reads a literal of the scalar type `{s}` written `{s}::from(2.0).unwrap()`, `{s}::one()` or `{s}::zero()`; this literal is not one"
                ),
                None => format!(
                    "`#[grad]` supports only literals of the function's scalar type `{s}`, such as `2.0`, `1e-3` or `2.0_{s}`"
                ),
            };
            self.cx.error_spanned(lit, message);
            Operand::Lit(0.0)
        })
    }

    /// `e as T`: a constant cast to a float type is a constant; a value cast to its own type is
    /// itself, and to the other primitive float type (`as f64` in an `f32` function, `as f32`
    /// in an `f64` one) a [`Prim::Convert`]. Other casts of values are refused.
    fn cast(&mut self, e: &Expr, c: &syn::ExprCast) -> Operand {
        let s = self.scalar.text();
        let (to_scalar, to_other) = (self.scalar.is(&c.ty), self.scalar.is_other(&c.ty));
        if (to_scalar || to_other) && self.reads_held(&c.expr) {
            // `n as f64` of a counter held as a number: the number.
            let v = self.held_int(&c.expr, super::int::IntCtx::Let);
            return match to_other {
                true => self.b.push(Prim::Convert, &[v]),
                false => v,
            };
        }
        if (to_scalar || to_other) && self.is_constant(e) {
            let c = self.passive(e, "casts");
            return match to_other && c.var().is_none() {
                // `i as f64` in an `f32` function: a constant of the other type.
                true => self.b.typed_other(c),
                false => c,
            };
        }
        if to_scalar || to_other {
            let v = self.real(&c.expr);
            let want = if to_scalar { Ty::F64 } else { Ty::Other };
            return match v.var().map(|x| self.b.ty(Operand::Var(x))) {
                Some(ty) if ty.is_float() && ty != want => self.b.push(Prim::Convert, &[v]),
                _ => v,
            };
        }
        if self.scalar.is_other_float(&c.ty) && !self.is_constant(&c.expr) {
            let to = super::types::type_text(&c.ty);
            let message = match &self.scalar.param {
                Some(_) => format!(
                    "`#[grad]` computes a generic function and its derivatives in its scalar type `{s}`, and does not support casting a value to `{to}`; compute in `{s}` throughout (constants convert with `{s}::from(c).unwrap()`), or write the function for `f32` or `f64`, where casts between the two are supported"
                ),
                None => format!(
                    "`#[grad]` does not support casting a value to `{to}`; it supports casts between `f32` and `f64` (`x as f64` in an `{s}` function), and of integers and constants"
                ),
            };
            self.cx.error_spanned(e, message);
            return Operand::Lit(0.0);
        }
        let other = self.scalar.other().map(|o| format!(" and `{o}`")).unwrap_or_default();
        match self.is_constant(&c.expr) {
            true => self.cx.error_spanned(
                &c.ty,
                format!("`#[grad]` supports only casts to the function's scalar type, `{s}`{other}, of integers and of constants"),
            ),
            false => {
                let to = super::types::type_text(&c.ty);
                self.cx.error_spanned(
                    e,
                    format!("`#[grad]` does not support casting a differentiated value to `{to}`: its derivative would be lost; casts of values are supported to `{s}`{other}, and `.floor()`, `.round()` or `.trunc()` give a value with zero derivative"),
                );
            }
        }
        Operand::Lit(0.0)
    }

    /// `recv.method(args)` for a known `f64` method.
    fn method(&mut self, e: &Expr, m: &ExprMethodCall) -> Operand {
        if let Some(plain) = self.desugar_method(e) {
            return match plain {
                Some(plain) => self.expr(&plain),
                None => Operand::Lit(0.0),
            };
        }
        let known =
            symbol::method_prim(&m.method.to_string()).is_some() || m.method == symbol::SIN_COS;
        if !known && (self.is_struct_expr(&m.receiver) || self.is_inferred_struct_call(&m.receiver))
        {
            return self.user_method(m);
        }
        if let Some(t) = &m.turbofish {
            self.cx.error_spanned(t, "`#[grad]` does not support turbofish arguments here");
        }
        if symbol::method_prim(&m.method.to_string()).is_none()
            && self.is_constant(&m.receiver)
            && let Ok(k) = self.konst(&m.receiver, Mode::Container)
            && let Some(param) = k.params.first()
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
        if self.is_poisoned(&c.func) {
            return Operand::Lit(0.0);
        }
        let method = match &*c.func {
            // `f64::sin(x)` or `std::primitive::f64::sin(x)`: a path to `f64`, then the method.
            Expr::Path(p) if p.qself.is_none() => {
                let n = p.path.segments.len();
                let owner = p.path.segments.iter().take(n - 1);
                (n >= 2 && (self.scalar.owns_methods(owner) || self.other_method(p)))
                    .then(|| p.path.segments[n - 1].ident.clone())
            }
            _ => None,
        };
        let Some(method) = method else {
            if Self::is_from_fn(c) {
                return match self.desugar_from_fn(c) {
                    Some(plain) => self.expr(&plain),
                    None => Operand::Lit(0.0),
                };
            }
            if let Expr::Path(p) = &*c.func {
                return self.user_call(c, p);
            }
            self.cx.error_spanned(
                &c.func,
                "`#[grad]` supports calls of functions named by a path (`g(x)`, `module::g(x)`) and `f64` methods",
            );
            return Operand::Lit(0.0);
        };
        let args: Vec<&Expr> = c.args.iter().collect();
        self.apply_method(&method, &args, c)
    }
}

impl Lower<'_> {
    /// Whether `p` is a method of the rule table on the other float type (`f64::exp` in an
    /// `f32` function that casts to `f64`), called on a value of that type.
    fn other_method(&self, p: &syn::ExprPath) -> bool {
        let (s, other) = (&p.path.segments, self.scalar.other());
        self.scalar.mixed
            && s.len() == 2
            && other.is_some_and(|o| s[0].ident == o && s[0].arguments.is_none())
            && symbol::method_prim(&s[1].ident.to_string()).is_some()
    }

    /// `e` rewritten if it is an iterator chain or an array's `map`: `Some(None)` after an
    /// error, `None` if it is neither.
    pub(super) fn desugar_method(&mut self, e: &Expr) -> Option<Option<Expr>> {
        let Expr::MethodCall(m) = super::value::peel(e) else { return None };
        if m.method == symbol::MAP && m.args.len() == 1 && self.is_array(&m.receiver) {
            return Some(self.desugar_array_map(m));
        }
        iterator_chain(e)?;
        Some(self.desugar_chain(e))
    }
}

/// The iterator chain `e` is part of, if it is one: a method call with an iterator method
/// somewhere along its receivers (`data.iter().map(|x| x * x).sum::<f64>()`).
pub(super) fn iterator_chain(e: &Expr) -> Option<&Expr> {
    let mut at = e;
    while let Expr::MethodCall(m) = at {
        if symbol::ITER_METHODS.contains(&m.method.to_string().as_str()) {
            return Some(e);
        }
        at = &m.receiver;
    }
    None
}

/// The name at the root of a chain of method calls, fields and indexing (`data` in
/// `data.iter().sum()`), or `data` when there is none.
pub(super) fn chain_root(e: &Expr) -> String {
    match e {
        Expr::MethodCall(m) => chain_root(&m.receiver),
        Expr::Field(f) => chain_root(&f.base),
        Expr::Index(i) => chain_root(&i.expr),
        Expr::Paren(p) => chain_root(&p.expr),
        Expr::Group(g) => chain_root(&g.expr),
        Expr::Reference(r) => chain_root(&r.expr),
        Expr::Path(p) => p.path.get_ident().map(symbol::unraw).unwrap_or_else(|| "data".into()),
        _ => "data".into(),
    }
}

/// How `f` reads the value of a call: a tuple's field, or a struct's.
fn field_use(f: &syn::ExprField) -> super::call::Use {
    match f.member {
        syn::Member::Named(_) => super::call::Use::Member,
        syn::Member::Unnamed(_) => super::call::Use::Field,
    }
}
