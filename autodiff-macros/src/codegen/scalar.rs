//! The function's scalar type in the generated code: its name in types (`f64`, `f32`, `T`), its
//! literals (`2.0`, with a suffix `2.0_f32` where Rust needs the type, `T::from(2.0).unwrap()`
//! for a type parameter), named constants, non-finite values and conversions of integers. The
//! IR's literals are `f64`s holding the scalar's values; this is where they get their type.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, quote};

use super::expr::Expr;
use crate::ir::{Prec, Scalar};
use crate::lower::ScalarTy;
use crate::symbol;

/// The other primitive float type than `scalar` (`f64` for `f32`, `f32` for `f64`): the type of
/// the values a function casts with `as` ([`crate::ir::Ty::Other`]; a generic scalar has none).
pub fn other_ty(scalar: &TokenStream) -> TokenStream {
    match scalar.to_string() == symbol::F32 {
        true => quote!(f64),
        false => quote!(f32),
    }
}

/// The scalar type, as tokens.
#[derive(Clone)]
pub struct Tokens {
    /// Which kind of scalar.
    pub kind: Scalar,
    /// The type: `f64`, `f32` or the type parameter.
    pub ty: TokenStream,
}

impl Tokens {
    /// The tokens of the lowered function's scalar type.
    pub fn of(s: &ScalarTy) -> Self {
        let ty = match (&s.param, s.kind) {
            (Some(p), _) => p.to_token_stream(),
            (None, Scalar::F32) => quote!(f32),
            (None, _) => quote!(f64),
        };
        Tokens { kind: s.kind, ty }
    }

    /// The tokens of the other primitive float type (see [`other_ty`]).
    pub fn other(&self) -> Self {
        let kind = match self.kind {
            Scalar::F32 => Scalar::F64,
            _ => Scalar::F32,
        };
        Tokens { kind, ty: other_ty(&self.ty) }
    }

    /// The primitive module of the scalar (`f64`, `f32`), for its constants; `f64` for a type
    /// parameter, whose constants are converted from `f64` ones.
    fn primitive(&self) -> Ident {
        let name = match self.kind {
            Scalar::F32 => symbol::F32,
            Scalar::F64 | Scalar::Generic => symbol::F64,
        };
        Ident::new(name, Span::call_site())
    }

    /// Whether values of the type have the compound assignments (`+=`, ...): a type parameter
    /// bounded by `Float` alone has not.
    pub fn compound_assignments(&self) -> bool {
        self.kind != Scalar::Generic
    }

    /// Whether every literal names the type (`T::from(2.0).unwrap()`), so that Rust always
    /// knows it.
    pub fn typed_literals(&self) -> bool {
        self.kind == Scalar::Generic
    }

    /// NaN.
    pub fn nan(&self) -> TokenStream {
        match self.kind {
            Scalar::Generic => {
                let t = &self.ty;
                quote!(#t::nan())
            }
            _ => {
                let p = self.primitive();
                quote!(::core::#p::NAN)
            }
        }
    }

    /// Zero, as a literal a direction or an accumulator starts from.
    pub fn zero(&self) -> TokenStream {
        self.literal(0.0, false).tokens
    }

    /// The integer expression `n` (bound at [`Prec::Cast`]) converted to the scalar type.
    pub fn converted(&self, n: TokenStream) -> Expr {
        match self.kind {
            Scalar::Generic => {
                let t = &self.ty;
                Expr::new(quote!(#t::from(#n).unwrap()), Prec::Atom)
            }
            _ => {
                let t = &self.ty;
                Expr::new(quote!(#n as #t), Prec::Cast)
            }
        }
    }

    /// `name(x, rest)` called on the type, for a receiver whose type Rust would not know.
    pub fn call(&self, name: &Ident, x: TokenStream, rest: &[TokenStream]) -> Expr {
        let t = &self.ty;
        Expr::new(quote!(#t::#name(#x, #(#rest),*)), Prec::Atom)
    }

    /// The suffix a literal of the type may carry (`f64`, `f32`), if it has one.
    pub fn suffix(&self) -> Option<&'static str> {
        match self.kind {
            Scalar::F64 => Some(symbol::F64),
            Scalar::F32 => Some(symbol::F32),
            Scalar::Generic => None,
        }
    }

    /// The literal `x`; a receiver gets the type's suffix so that its type is known. Named
    /// constants of `core::f64::consts` (`core::f32::consts`) are written by name, and
    /// non-finite values by their constant.
    pub fn literal(&self, x: f64, receiver: bool) -> Expr {
        if self.kind == Scalar::Generic {
            return self.generic_literal(x);
        }
        let p = self.primitive();
        if let Some(name) = self.named(x) {
            return match x.is_sign_negative() {
                false => Expr::new(quote!(::core::#p::consts::#name), Prec::Atom),
                true => Expr::new(quote!(-::core::#p::consts::#name), Prec::Unary),
            };
        }
        if x.is_nan() {
            return Expr::new(self.nan(), Prec::Atom);
        }
        if x.is_infinite() {
            let t = if x > 0.0 {
                quote!(::core::#p::INFINITY)
            } else {
                quote!(::core::#p::NEG_INFINITY)
            };
            return Expr::new(t, Prec::Atom);
        }
        let magnitude = self.magnitude(x.abs());
        let magnitude = match (receiver, self.suffix()) {
            (true, Some(suffix)) => format!("{magnitude}_{suffix}")
                .parse::<Literal>()
                .unwrap_or_else(|_| Literal::f64_suffixed(x.abs())),
            _ => magnitude,
        };
        if x.is_sign_negative() {
            Expr::new(quote!(-#magnitude), Prec::Unary)
        } else {
            Expr::new(magnitude.into_token_stream(), Prec::Atom)
        }
    }

    /// The name in `core::f64::consts` of the constant equal to `|x|` in the scalar type.
    fn named(&self, x: f64) -> Option<Ident> {
        let same = |c: f64| match self.kind {
            Scalar::F32 => (c as f32).to_bits() == (x.abs() as f32).to_bits(),
            Scalar::F64 | Scalar::Generic => c.to_bits() == x.abs().to_bits(),
        };
        let (name, _) = symbol::CONSTS.iter().find(|(_, c)| same(*c))?;
        Some(Ident::new(name, Span::call_site()))
    }

    /// The shortest literal of the positive finite `x` that reads back as the same value of the
    /// scalar type (`1e308`, not a 309-digit literal).
    fn magnitude(&self, x: f64) -> Literal {
        let plain = match self.kind {
            Scalar::F32 => Literal::f32_unsuffixed(x as f32),
            _ => Literal::f64_unsuffixed(x),
        };
        if x == 0.0 || (1e-5..1e16).contains(&x) {
            return plain;
        }
        let text = match self.kind {
            Scalar::F32 => format!("{:e}", x as f32),
            _ => format!("{x:e}"),
        };
        text.parse::<Literal>().unwrap_or(plain)
    }

    /// A literal of a type parameter: `T::zero()`, `T::one()`, `T::from(0.5).unwrap()`,
    /// `T::from(::core::f64::consts::PI).unwrap()`, `T::nan()`, `T::infinity()`.
    fn generic_literal(&self, x: f64) -> Expr {
        let t = &self.ty;
        let negative = x.is_sign_negative() && !x.is_nan();
        let magnitude = x.abs();
        let atom = if x.is_nan() {
            quote!(#t::nan())
        } else if magnitude.is_infinite() {
            match negative {
                false => quote!(#t::infinity()),
                true => return Expr::new(quote!(#t::neg_infinity()), Prec::Atom),
            }
        } else if magnitude == 0.0 {
            quote!(#t::zero())
        } else if magnitude == 1.0 {
            quote!(#t::one())
        } else if let Some(name) = self.named(magnitude) {
            quote!(#t::from(::core::f64::consts::#name).unwrap())
        } else {
            let c = self.magnitude(magnitude);
            quote!(#t::from(#c).unwrap())
        };
        match negative {
            false => Expr::new(atom, Prec::Atom),
            true => Expr::new(quote!(-#atom), Prec::Unary),
        }
    }
}
