//! A partial derivative as a linear map on one tangent or adjoint, and its application.

use crate::ir::{Builder, Cmp, Operand, Prim};

/// The partial derivative of a primitive's result with respect to one operand, as the linear map
/// `t ↦ ∂y/∂x · t` that both transforms apply.
#[derive(Clone, Debug, PartialEq)]
pub enum Partial {
    /// `t ↦ 0`: the operand does not influence the result (locally).
    Zero,
    /// `t ↦ t`
    One,
    /// `t ↦ -t`
    MinusOne,
    /// `t ↦ t` in the operand's float type: the derivative of `as` between `f32` and `f64` is
    /// the cast of the tangent forward, and of the adjoint back.
    Convert,
    /// `t ↦ ±(t / div · mul)`, with either factor optional.
    Scale {
        /// Whether the result is negated.
        neg: bool,
        /// A factor.
        mul: Option<Operand>,
        /// A divisor.
        div: Option<Operand>,
    },
    /// `t ↦ if p <cmp> q { then(t) } else { otherwise(t) }`.
    Select {
        /// The comparison.
        cmp: Cmp,
        /// Left side of the comparison.
        p: Operand,
        /// Right side of the comparison.
        q: Operand,
        /// The map when the comparison holds.
        then: Box<Partial>,
        /// The map otherwise.
        otherwise: Box<Partial>,
    },
}

impl Partial {
    /// `t ↦ t · m`
    pub fn mul(m: Operand) -> Self {
        Partial::Scale { neg: false, mul: Some(m), div: None }
    }

    /// `t ↦ -(t · m)`
    pub fn neg_mul(m: Operand) -> Self {
        Partial::Scale { neg: true, mul: Some(m), div: None }
    }

    /// `t ↦ t / d`
    pub fn div(d: Operand) -> Self {
        Partial::Scale { neg: false, mul: None, div: Some(d) }
    }

    /// `t ↦ -(t / d)`
    pub fn neg_div(d: Operand) -> Self {
        Partial::Scale { neg: true, mul: None, div: Some(d) }
    }

    /// `t ↦ t · m / d`
    pub fn mul_div(m: Operand, d: Operand) -> Self {
        Partial::Scale { neg: false, mul: Some(m), div: Some(d) }
    }

    /// `t ↦ -(t · m / d)`
    pub fn neg_mul_div(m: Operand, d: Operand) -> Self {
        Partial::Scale { neg: true, mul: Some(m), div: Some(d) }
    }

    /// `t ↦ if p <cmp> q { then(t) } else { otherwise(t) }`
    pub fn select(cmp: Cmp, p: Operand, q: Operand, then: Partial, otherwise: Partial) -> Self {
        Partial::Select { cmp, p, q, then: Box::new(then), otherwise: Box::new(otherwise) }
    }
}

/// Applies the map `partial` to `t`, emitting the statements into `b`; `None` is an exact zero
/// (nothing to add).
pub fn apply(b: &mut Builder, partial: &Partial, t: Operand) -> Option<Operand> {
    match partial {
        Partial::Zero => None,
        Partial::One => Some(t),
        Partial::MinusOne => Some(b.push(Prim::Neg, &[t])),
        Partial::Convert => Some(b.push(Prim::Convert, &[t])),
        Partial::Scale { neg, mul, div } => {
            // Divide first: `t / d` is then shared with the other operand's contribution (for
            // `a / b`, `ā = t / b` and `b̄ = -(t / b) · r`), one division instead of two.
            let mut r = t;
            if let Some(d) = div {
                r = b.push(Prim::Div, &[r, *d]);
            }
            if let Some(m) = mul {
                r = b.push(Prim::Mul, &[r, *m]);
            }
            Some(if *neg { b.push(Prim::Neg, &[r]) } else { r })
        }
        Partial::Select { cmp, p, q, then, otherwise } => {
            let a = apply(b, then, t);
            let c = apply(b, otherwise, t);
            if a.is_none() && c.is_none() {
                return None;
            }
            let zero = Operand::Lit(0.0);
            Some(b.push(Prim::Select(*cmp), &[*p, *q, a.unwrap_or(zero), c.unwrap_or(zero)]))
        }
    }
}
