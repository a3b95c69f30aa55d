//! How the `f32` twin `f_32` and the generic twin `f_gen<T: Float>` (`floats.rs`) write what
//! differs from the `f64` function: literals, integer casts and reads of `&[f64]` data, and,
//! over `T`, which has no `+=`, compound assignments.
//!
//! Every constant of the twins is the `f64` program's rounded once to their type, the same way
//! in both: an `f32` literal is printed as the shortest text that parses back to `c as f32`, and
//! `T::from(c).unwrap()` at `f32` is `c as f32` (num-traits casts floats with `as`), so that the
//! two twins compute the same `f32` operations on the same operands, and `f_gen` at `f64` the
//! same as `f`.

use super::ast::{Assign, Expr};
use super::print::{ADD, Flavor, MUL, Printer};

/// The literal `v` in `flavor` (`F32` or `Generic`).
pub fn lit(flavor: Flavor, v: f64) -> String {
    match flavor {
        Flavor::F32 => {
            let s = format!("{:?}", v as f32);
            if s.contains('.') || s.contains('e') { s } else { format!("{s}.0") }
        }
        _ if v == 0.0 && v.is_sign_positive() => "T::zero()".to_string(),
        _ if v == 1.0 => "T::one()".to_string(),
        _ => {
            let s = format!("{v:?}");
            let s = if s.contains('.') || s.contains('e') { s } else { format!("{s}.0") };
            format!("T::from({s}).unwrap()")
        }
    }
}

/// An integer or an element of `f64` data as the twin's type: `value as f32` (`operand` is
/// the value written as the operand of `as`), `T::from(value).unwrap()`. The `f32` form is an
/// `as` expression: the printer parenthesises it as an operand.
pub fn cast(flavor: Flavor, value: &str, operand: &str) -> String {
    match flavor {
        Flavor::F32 => format!("{operand} as f32"),
        _ => format!("T::from({value}).unwrap()"),
    }
}

/// `target op= rhs` as `target = target op rhs;` (the same operation, rounded once).
pub fn spelled(p: &Printer, target: &str, op: Assign, rhs: &Expr) -> String {
    let (o, prec) = match op {
        Assign::Add => ("+", ADD),
        Assign::Sub => ("-", ADD),
        Assign::Mul => ("*", MUL),
        _ => ("/", MUL),
    };
    // `s + (a + b)`, not `s + a + b`, which rounds twice in another order.
    format!("{target} = {target} {o} {};", p.expr(rhs, prec + 1))
}
