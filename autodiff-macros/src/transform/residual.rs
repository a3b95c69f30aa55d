//! Which primal values a primitive's derivative rule reads (its residuals): what the reverse
//! sweep of a loop needs from each iteration. Found by running the rule on placeholders, so the
//! rule table stays the one source of truth.

use crate::ir::{Builder, Func, Name, Operand, Prim, Stmt, Ty, Var};
use crate::rules::{Partial, partials};

/// For `out = prim(args)`, whether the partial derivatives with respect to the operands marked in
/// `wanted` read each operand, and whether they read `out`.
pub fn residuals(prim: Prim, wanted: &[bool]) -> (Vec<bool>, bool) {
    let mut b = Builder::literal();
    let args: Vec<Operand> =
        (0..prim.arity()).map(|_| Operand::Var(b.input(Name::temp(), Ty::F64))).collect();
    let out = b.input(Name::temp(), Ty::F64);
    let rules = partials(&mut b, prim, &args, Operand::Var(out));
    let f = b.finish(Vec::new());
    let mut read = vec![false; f.names.len()];
    for (partial, want) in rules.iter().zip(wanted) {
        if *want {
            mark_partial(&f, partial, &mut read);
        }
    }
    let args_read = args.iter().map(|a| a.var().is_some_and(|v| read[v.index()])).collect();
    (args_read, read[out.index()])
}

fn mark_partial(f: &Func, p: &Partial, read: &mut Vec<bool>) {
    match p {
        Partial::Zero | Partial::One | Partial::MinusOne | Partial::Convert => {}
        Partial::Scale { mul, div, .. } => {
            for op in mul.iter().chain(div.iter()) {
                mark_operand(f, *op, read);
            }
        }
        Partial::Select { p, q, then, otherwise, .. } => {
            mark_operand(f, *p, read);
            mark_operand(f, *q, read);
            mark_partial(f, then, read);
            mark_partial(f, otherwise, read);
        }
    }
}

/// Marks `op`, and through the statements the rule emitted, every placeholder it is made from.
fn mark_operand(f: &Func, op: Operand, read: &mut Vec<bool>) {
    let Some(v) = op.var() else { return };
    if read[v.index()] {
        return;
    }
    read[v.index()] = true;
    if let Some(args) = def_args(f, v) {
        for a in args {
            mark_operand(f, a, read);
        }
    }
}

fn def_args(f: &Func, v: Var) -> Option<Vec<Operand>> {
    f.body.iter().find_map(|s| match s {
        Stmt::Op { out, args, .. } if *out == v => Some(args.clone()),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_read_what_their_math_says() {
        // d(x + y): nothing; d(x y): both; d sin x: x; d eˣ: the result; d(x / y) w.r.t. x: y only
        assert_eq!(residuals(Prim::Add, &[true, true]), (vec![false, false], false));
        assert_eq!(residuals(Prim::Mul, &[true, true]), (vec![true, true], false));
        assert_eq!(residuals(Prim::Mul, &[true, false]), (vec![false, true], false));
        assert_eq!(residuals(Prim::Sin, &[true]), (vec![true], false));
        assert_eq!(residuals(Prim::Exp, &[true]), (vec![false], true));
        assert_eq!(residuals(Prim::Div, &[true, false]), (vec![false, true], false));
        assert_eq!(residuals(Prim::Div, &[false, true]), (vec![false, true], true));
    }
}
