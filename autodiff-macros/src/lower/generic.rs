//! The forms generic code writes its constants in, in a function over a type parameter
//! `T: Float`: `T::from(c).unwrap()` (or `.expect("...")`), `T::one()`, `T::zero()`, and the
//! other associated functions of `T` without arguments (`T::nan()`, `T::epsilon()`, `T::PI()` for
//! a `FloatConst` bound, ...). A literal `c` becomes a literal of the IR (so that derivatives can
//! fold it); anything else that reads no value is a constant, kept as written.

use syn::{Expr, Lit, UnOp};

use super::Lower;
use super::konst::{Bad, Konst, Mode};
use crate::ir::{Operand, Prec};
use crate::symbol;

impl Lower<'_> {
    /// `e` as an operand, if it is one of the forms of a generic scalar constant.
    pub(super) fn generic_constant(&mut self, e: &Expr) -> Option<Operand> {
        self.scalar.param.as_ref()?;
        if let Some(arg) = self.converted(e) {
            if let Some(x) = literal_value(arg) {
                return Some(Operand::Lit(x));
            }
            if self.is_constant(arg) {
                return Some(self.passive_generic(e));
            }
            // `T::from(x)` of a value `x`, which is a `T` already.
            return Some(self.real(arg));
        }
        let name = self.associated(e)?;
        Some(match name.as_str() {
            "one" => Operand::Lit(1.0),
            "zero" => Operand::Lit(0.0),
            "neg_zero" => Operand::Lit(-0.0),
            "nan" => Operand::Lit(f64::NAN),
            "infinity" => Operand::Lit(f64::INFINITY),
            "neg_infinity" => Operand::Lit(f64::NEG_INFINITY),
            _ => self.passive_generic(e),
        })
    }

    /// `e`, one of the forms, as a constant operand.
    fn passive_generic(&mut self, e: &Expr) -> Operand {
        match self.konst(e, Mode::Real) {
            Ok(k) => self.ext(k),
            Err(_) => Operand::Lit(0.0),
        }
    }

    /// `e` as a constant, if it is one of the forms (called by the constant reader): re-rendered
    /// from its argument's constant, which may stand for an integer `let` that the generated
    /// code does not have.
    pub(super) fn generic_konst(&mut self, e: &Expr, mode: Mode) -> Option<Result<Konst, Bad>> {
        self.scalar.param.as_ref()?;
        if mode == Mode::Int {
            return None;
        }
        if let Some(arg) = self.converted(e) {
            let inner = match self.probe(|l| l.konst(arg, Mode::Int)) {
                Ok(k) => Ok(k),
                Err(_) => self.konst(arg, Mode::Real),
            };
            let Expr::MethodCall(m) = super::value::peel(e) else { return None };
            let Expr::Call(c) = super::value::peel(&m.receiver) else { return None };
            let (func, method, args) = (&c.func, &m.method, &m.args);
            return Some(inner.map(|k| {
                let t = &k.tokens;
                Konst::combine(quote::quote!(#func(#t).#method(#args)), Prec::Atom, &[&k])
            }));
        }
        self.associated(e)?;
        Some(Ok(Konst::combine(quote::ToTokens::to_token_stream(e), Prec::Atom, &[])))
    }

    /// The argument `c` of `T::from(c).unwrap()` or `T::from(c).expect(..)`.
    fn converted<'e>(&self, e: &'e Expr) -> Option<&'e Expr> {
        let Expr::MethodCall(m) = super::value::peel(e) else { return None };
        let unwrapped = (m.method == symbol::UNWRAP && m.args.is_empty())
            || (m.method == symbol::EXPECT && m.args.len() == 1);
        if !unwrapped || m.turbofish.is_some() {
            return None;
        }
        let Expr::Call(c) = super::value::peel(&m.receiver) else { return None };
        (self.scalar_function(&c.func).as_deref() == Some(symbol::FROM) && c.args.len() == 1)
            .then(|| &c.args[0])
    }

    /// The name of `T::name()`, a call of an associated function of `T` without arguments.
    fn associated(&self, e: &Expr) -> Option<String> {
        let Expr::Call(c) = super::value::peel(e) else { return None };
        if !c.args.is_empty() {
            return None;
        }
        self.scalar_function(&c.func).filter(|name| name != symbol::FROM)
    }

    /// `name` when `func` is the path `T::name` of the generic scalar `T`.
    fn scalar_function(&self, func: &Expr) -> Option<String> {
        let Expr::Path(p) = func else { return None };
        let param = self.scalar.param.as_ref()?;
        match (p.qself.is_none(), p.path.segments.len()) {
            (true, 2) => {
                let (owner, name) = (&p.path.segments[0], &p.path.segments[1]);
                (owner.ident == *param && owner.arguments.is_none() && name.arguments.is_none())
                    .then(|| name.ident.to_string())
            }
            _ => None,
        }
    }
}

/// The value of a float or integer literal, possibly negated or parenthesised (`0.5`, `-2`,
/// `0.1_f32`, the latter as the `f32` it is).
fn literal_value(e: &Expr) -> Option<f64> {
    match e {
        Expr::Lit(l) => match &l.lit {
            Lit::Float(f) if f.suffix() == symbol::F32 => {
                f.base10_parse::<f32>().ok().map(f64::from)
            }
            Lit::Float(f) => f.base10_parse::<f64>().ok(),
            Lit::Int(i) if i.suffix() == symbol::F32 => i.base10_parse::<f32>().ok().map(f64::from),
            // Below 2^53 an integer is the `f64` literal of it, which converts as it does.
            Lit::Int(i) => i
                .base10_parse::<i64>()
                .ok()
                .filter(|n| n.unsigned_abs() < 1 << 53)
                .map(|n| n as f64),
            _ => None,
        },
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => literal_value(&u.expr).map(|x| -x),
        Expr::Paren(p) => literal_value(&p.expr),
        Expr::Group(g) => literal_value(&g.expr),
        _ => None,
    }
}
