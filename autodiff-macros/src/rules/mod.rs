//! The derivative rules: for each primitive, the partial derivative of its result with respect to
//! each operand, built as IR through the builder from primitives only.
//!
//! Both transforms use this one table: forward mode multiplies each partial by the operand's
//! tangent and sums (`ẏ = Σ ∂y/∂xᵢ ẋᵢ`), reverse mode multiplies the result's adjoint by each
//! partial (`x̄ᵢ += ȳ ∂y/∂xᵢ`). Because the partials are IR made of primitives that are in this
//! table too, whatever the reverse transform emits can be differentiated again.

mod partial;

pub use partial::{Partial, apply};

use std::f64::consts::{LN_2, LN_10};

use crate::ir::{Builder, Cmp, Operand, Prim};

/// `x * x`
fn square(b: &mut Builder, x: Operand) -> Operand {
    b.push(Prim::Mul, &[x, x])
}

/// The partial derivatives of `out = prim(args)` with respect to each of `args`, in order.
/// Statements they need are emitted into `b` at the current point.
pub fn partials(b: &mut Builder, prim: Prim, args: &[Operand], out: Operand) -> Vec<Partial> {
    use Partial::{MinusOne, One, Zero};
    let lit = Operand::Lit;
    let x = args[0];
    let y = args.get(1).copied().unwrap_or(lit(0.0));
    match prim {
        // d(-x) = -dx
        Prim::Neg => vec![MinusOne],
        // d(x + y) = dx + dy
        Prim::Add => vec![One, One],
        // d(x - y) = dx - dy
        Prim::Sub => vec![One, MinusOne],
        // d(x x) = 2x dx: one term for an operand multiplied by itself
        Prim::Mul if x == y => vec![Partial::mul(b.push(Prim::Mul, &[lit(2.0), x])), Zero],
        // d(x y) = y dx + x dy
        Prim::Mul => vec![Partial::mul(y), Partial::mul(x)],
        // d(x / y) = dx / y - (r / y) dy
        Prim::Div => vec![Partial::div(y), Partial::neg_mul_div(out, y)],
        // d sin x = cos x dx
        Prim::Sin => vec![Partial::mul(b.push(Prim::Cos, &[x]))],
        // d cos x = -sin x dx
        Prim::Cos => vec![Partial::neg_mul(b.push(Prim::Sin, &[x]))],
        // d tan x = (1 + r²) dx
        Prim::Tan => {
            let r2 = square(b, out);
            vec![Partial::mul(b.push(Prim::Add, &[lit(1.0), r2]))]
        }
        // d asin x = dx / √(1 - x²)
        Prim::Asin => vec![Partial::div(sqrt_one_minus_square(b, x))],
        // d acos x = -dx / √(1 - x²)
        Prim::Acos => vec![Partial::neg_div(sqrt_one_minus_square(b, x))],
        // d atan x = dx / (1 + x²)
        Prim::Atan => {
            let x2 = square(b, x);
            vec![Partial::div(b.push(Prim::Add, &[lit(1.0), x2]))]
        }
        // d atan2(u, v) = (v du - u dv) / (u² + v²), for the receiver `u` and the argument `v`;
        // with h = hypot(u, v) as (v/h)/h and (u/h)/h, which cannot overflow before atan2 does
        Prim::Atan2 => {
            let (u, v) = (x, y);
            let h = b.push(Prim::Hypot, &[u, v]);
            let (uh, vh) = (b.push(Prim::Div, &[u, h]), b.push(Prim::Div, &[v, h]));
            vec![Partial::mul_div(vh, h), Partial::neg_mul_div(uh, h)]
        }
        // d sinh x = cosh x dx
        Prim::Sinh => vec![Partial::mul(b.push(Prim::Cosh, &[x]))],
        // d cosh x = sinh x dx
        Prim::Cosh => vec![Partial::mul(b.push(Prim::Sinh, &[x]))],
        // d tanh x = (1 - r²) dx
        Prim::Tanh => {
            let r2 = square(b, out);
            vec![Partial::mul(b.push(Prim::Sub, &[lit(1.0), r2]))]
        }
        // d asinh x = dx / √(x² + 1)
        Prim::Asinh => {
            let x2 = square(b, x);
            let s = b.push(Prim::Add, &[x2, lit(1.0)]);
            vec![Partial::div(b.push(Prim::Sqrt, &[s]))]
        }
        // d acosh x = dx / √(x² - 1)
        Prim::Acosh => {
            let x2 = square(b, x);
            let s = b.push(Prim::Sub, &[x2, lit(1.0)]);
            vec![Partial::div(b.push(Prim::Sqrt, &[s]))]
        }
        // d atanh x = dx / (1 - x²)
        Prim::Atanh => {
            let x2 = square(b, x);
            vec![Partial::div(b.push(Prim::Sub, &[lit(1.0), x2]))]
        }
        // d eˣ = eˣ dx
        Prim::Exp => vec![Partial::mul(out)],
        // d 2ˣ = 2ˣ ln 2 dx
        Prim::Exp2 => vec![Partial::mul(b.push(Prim::Mul, &[out, lit(LN_2)]))],
        // d (eˣ - 1) = (r + 1) dx
        Prim::ExpM1 => vec![Partial::mul(b.push(Prim::Add, &[out, lit(1.0)]))],
        // d ln x = dx / x
        Prim::Ln => vec![Partial::div(x)],
        // d ln(1 + x) = dx / (x + 1)
        Prim::Ln1p => vec![Partial::div(b.push(Prim::Add, &[x, lit(1.0)]))],
        // d log_y x = dx / (x ln y) - (r / (y ln y)) dy
        Prim::Log => {
            let ln_y = b.push(Prim::Ln, &[y]);
            let dx = b.push(Prim::Mul, &[x, ln_y]);
            let dy = b.push(Prim::Mul, &[y, ln_y]);
            vec![Partial::div(dx), Partial::neg_mul_div(out, dy)]
        }
        // d log2 x = dx / (x ln 2)
        Prim::Log2 => vec![Partial::div(b.push(Prim::Mul, &[x, lit(LN_2)]))],
        // d log10 x = dx / (x ln 10)
        Prim::Log10 => vec![Partial::div(b.push(Prim::Mul, &[x, lit(LN_10)]))],
        // d √x = dx / (2 r)
        Prim::Sqrt => vec![Partial::div(b.push(Prim::Mul, &[lit(2.0), out]))],
        // d ∛x = dx / (3 r²)
        Prim::Cbrt => {
            let r2 = square(b, out);
            vec![Partial::div(b.push(Prim::Mul, &[lit(3.0), r2]))]
        }
        // d xⁿ = n xⁿ⁻¹ dx
        Prim::Powi(0) => vec![Zero],
        Prim::Powi(n) => {
            let p = match n.checked_sub(1) {
                Some(m) => b.push(Prim::Powi(m), &[x]),
                // i32::MIN - 1 does not fit: the same power through powf
                None => b.push(Prim::Powf, &[x, lit(f64::from(n) - 1.0)]),
            };
            vec![Partial::mul(b.push(Prim::Mul, &[lit(f64::from(n)), p]))]
        }
        // d xᵐ = m xᵐ⁻¹ dx for the integer m = n + k, and 0 where m = 0 (as for powi(0): the
        // product would be 0·∞ at x = 0); the integer operand n has no derivative
        Prim::PowiInt(k) => {
            let m = b.push(Prim::IntAsF64(k), &[y]);
            let p = match k.checked_sub(1) {
                Some(k1) => b.push(Prim::PowiInt(k1), &[x, y]),
                // k = i32::MIN - 1 does not fit: the same power through powf
                None => {
                    let m1 = b.push(Prim::Sub, &[m, lit(1.0)]);
                    b.push(Prim::Powf, &[x, m1])
                }
            };
            let d = b.push(Prim::Mul, &[m, p]);
            vec![Partial::select(Cmp::Eq, m, lit(0.0), Zero, Partial::mul(d)), Zero]
        }
        // an integer constant converted: no derivative
        Prim::IntAsF64(_) => vec![Zero],
        // d x⁰ = 0, as for powi(0) (y x^(y-1) would be 0·∞ at x = 0)
        Prim::Powf if y.lit() == Some(0.0) => vec![Zero, Zero],
        // d xʸ = y xʸ⁻¹ dx + r ln x dy
        Prim::Powf => {
            let y1 = b.push(Prim::Sub, &[y, lit(1.0)]);
            let p = b.push(Prim::Powf, &[x, y1]);
            let dx = b.push(Prim::Mul, &[y, p]);
            let ln_x = b.push(Prim::Ln, &[x]);
            vec![Partial::mul(dx), Partial::mul(b.push(Prim::Mul, &[out, ln_x]))]
        }
        // d hypot(x, y) = (x dx + y dy) / r, and 0 at the origin (as for abs at 0)
        // (nothing computed for an operand that is not differentiated: the sweep may not have it)
        Prim::Hypot => {
            let at_origin = |p| Partial::select(Cmp::Eq, out, lit(0.0), Zero, p);
            vec![at_origin(Partial::mul_div(x, out)), at_origin(Partial::mul_div(y, out))]
        }
        // d (1/x) = -r² dx
        Prim::Recip => vec![Partial::neg_mul(square(b, out))],
        // d (x y + z) = y dx + x dy + dz
        Prim::MulAdd => vec![Partial::mul(y), Partial::mul(x), One],
        // d |x| = sign(x) dx, with sign(0) = 0
        Prim::Abs => {
            let negative = Partial::select(Cmp::Lt, x, lit(0.0), MinusOne, Zero);
            vec![Partial::select(Cmp::Gt, x, lit(0.0), One, negative)]
        }
        // d min(x, y) and d max(x, y) follow the operand returned; a tie goes to the receiver `x`
        Prim::Min | Prim::Max => vec![
            Partial::select(Cmp::Eq, out, x, One, Zero),
            Partial::select(Cmp::Eq, out, x, Zero, One),
        ],
        // d clamp(x, lo, hi) follows the operand returned, as clamp's branches choose it: lo when
        // x < lo, hi when x > hi, and x otherwise (bounds included, as for min and max at a tie)
        Prim::Clamp => {
            let (lo, hi) = (y, args[2]);
            vec![
                Partial::select(Cmp::Lt, x, lo, Zero, Partial::select(Cmp::Gt, x, hi, Zero, One)),
                Partial::select(Cmp::Lt, x, lo, One, Zero),
                Partial::select(Cmp::Gt, x, hi, One, Zero),
            ]
        }
        // piecewise constant: zero derivative everywhere
        Prim::Signum | Prim::Floor | Prim::Ceil | Prim::Round | Prim::Trunc => vec![Zero],
        // d (x as f32) = dx as f32 (and as f64): the identity between the float types
        Prim::Convert => vec![Partial::Convert],
        // d select(p, q, a, b) = select(p, q, da, db): the condition is piecewise constant
        Prim::Select(c) => vec![
            Zero,
            Zero,
            Partial::select(c, x, y, One, Zero),
            Partial::select(c, x, y, Zero, One),
        ],
    }
}

/// `√(1 - x²)`
fn sqrt_one_minus_square(b: &mut Builder, x: Operand) -> Operand {
    let x2 = square(b, x);
    let s = b.push(Prim::Sub, &[Operand::Lit(1.0), x2]);
    b.push(Prim::Sqrt, &[s])
}
