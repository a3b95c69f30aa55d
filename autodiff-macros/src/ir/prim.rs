//! The primitive operations of the IR: one per differentiable `f64` operation.

/// A comparison, used by [`Prim::Select`] and by conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `a == b`
    Eq,
    /// `a != b`
    Ne,
    /// `a < b`
    Lt,
    /// `a <= b`
    Le,
    /// `a > b`
    Gt,
    /// `a >= b`
    Ge,
}

impl Cmp {
    /// The comparison's result for `a` and `b`.
    #[cfg(test)]
    pub fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }
}

/// A primitive operation on `f64` operands, producing one `f64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prim {
    /// `-a`
    Neg,
    /// `a + b`
    Add,
    /// `a - b`
    Sub,
    /// `a * b`
    Mul,
    /// `a / b`
    Div,
    /// `a.sin()`
    Sin,
    /// `a.cos()`
    Cos,
    /// `a.tan()`
    Tan,
    /// `a.asin()`
    Asin,
    /// `a.acos()`
    Acos,
    /// `a.atan()`
    Atan,
    /// `y.atan2(x)`
    Atan2,
    /// `a.sinh()`
    Sinh,
    /// `a.cosh()`
    Cosh,
    /// `a.tanh()`
    Tanh,
    /// `a.asinh()`
    Asinh,
    /// `a.acosh()`
    Acosh,
    /// `a.atanh()`
    Atanh,
    /// `a.exp()`
    Exp,
    /// `a.exp2()`
    Exp2,
    /// `a.exp_m1()`
    ExpM1,
    /// `a.ln()`
    Ln,
    /// `a.ln_1p()`
    Ln1p,
    /// `a.log(base)`
    Log,
    /// `a.log2()`
    Log2,
    /// `a.log10()`
    Log10,
    /// `a.sqrt()`
    Sqrt,
    /// `a.cbrt()`
    Cbrt,
    /// `a.powi(k)` with a literal exponent `k`
    Powi(i32),
    /// `a.powi(n + k)` over operands `[a, n]`: the exponent is an integer constant of the user's
    /// (`n`, `K`, `i as i32`), held by the operand `n` (an
    /// [`Operand::Ext`](super::Operand::Ext)), plus a literal `k` (0 as written; each derivative
    /// lowers it by one)
    PowiInt(i32),
    /// `(n + k) as f64` over the operand `[n]`, an integer constant as in [`Prim::PowiInt`]: the
    /// factor of `powi`'s derivative
    IntAsF64(i32),
    /// `a.powf(b)`
    Powf,
    /// `a.hypot(b)`
    Hypot,
    /// `a.recip()`
    Recip,
    /// `a.mul_add(b, c)`, that is `a * b + c` with one rounding
    MulAdd,
    /// `a.abs()`
    Abs,
    /// `a.min(b)`
    Min,
    /// `a.max(b)`
    Max,
    /// `a.clamp(lo, hi)`
    Clamp,
    /// `a.signum()`
    Signum,
    /// `a.floor()`
    Floor,
    /// `a.ceil()`
    Ceil,
    /// `a.round()`
    Round,
    /// `a.trunc()`
    Trunc,
    /// `if p <cmp> q { a } else { b }` over operands `[p, q, a, b]`
    Select(Cmp),
    /// `a as f64` in an `f32` function, `a as f32` in an `f64` one: the value in the other float
    /// type ([`Ty::Other`](super::Ty::Other)), or back
    Convert,
}

impl Prim {
    /// The number of operands.
    pub fn arity(self) -> usize {
        use Prim::*;
        match self {
            Neg | Sin | Cos | Tan | Asin | Acos | Atan | Sinh | Cosh | Tanh | Asinh | Acosh
            | Atanh | Exp | Exp2 | ExpM1 | Ln | Ln1p | Log2 | Log10 | Sqrt | Cbrt | Powi(_)
            | IntAsF64(_) | Recip | Abs | Signum | Floor | Ceil | Round | Trunc | Convert => 1,
            Add | Sub | Mul | Div | Atan2 | Log | Powf | PowiInt(_) | Hypot | Min | Max => 2,
            MulAdd | Clamp => 3,
            Select(_) => 4,
        }
    }

    /// The position of the operand that is an integer constant (an
    /// [`Operand::Ext`](super::Operand::Ext) holding an `i32` expression, never a value of the
    /// IR), if the primitive has one.
    pub fn int_operand(self) -> Option<usize> {
        match self {
            Prim::PowiInt(_) => Some(1),
            Prim::IntAsF64(_) => Some(0),
            _ => None,
        }
    }
}
