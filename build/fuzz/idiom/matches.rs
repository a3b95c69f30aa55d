//! `if` chains on an integer as `match`: the arm whose condition compares an integer variable
//! (or `i % m`) with a literal, alone or joined by `&&` to another condition, becomes a pattern
//! (`3`, `..3`, `..=3`, `4..`) with that condition as its guard; the other arms become
//! `_ if cond`, and `else` becomes `_`. `if k != 3 { a } else { b }` becomes
//! `match k { 3 => b, _ => a }`. The generator puts at most one integer comparison in a chain,
//! so no two patterns overlap.

use super::super::ast::{Arm, Block, Cmp, Cond, Int, IntOp, IntPat, Stmt};
use super::Rewriter;

/// `Some((scrutinee, pattern, guard))` when `c` compares an integer with a literal (and `Ne`
/// only when `ne` allows it: a pattern then takes the `else`).
fn int_test(c: &Cond, ne: bool) -> Option<(Int, IntPat, Option<Cond>)> {
    match c {
        Cond::Int(op, s, Int::Lit(n)) => {
            let scrutinee_ok = match s {
                Int::Var(_) => true,
                Int::Bin(IntOp::Rem, l, r) => {
                    matches!(**l, Int::Var(_)) && matches!(**r, Int::Lit(_))
                }
                _ => false,
            };
            if !scrutinee_ok {
                return None;
            }
            let pat = match op {
                Cmp::Eq => IntPat::Lit(*n),
                Cmp::Lt => IntPat::Below(*n),
                Cmp::Le => IntPat::UpTo(*n),
                Cmp::Gt => IntPat::From(n + 1),
                Cmp::Ge => IntPat::From(*n),
                Cmp::Ne if ne => IntPat::Lit(*n),
                Cmp::Ne => return None,
            };
            Some((s.clone(), pat, None))
        }
        Cond::And(l, r) => match (int_test(l, false), int_test(r, false)) {
            (Some((s, p, None)), _) => Some((s, p, Some((**r).clone()))),
            (_, Some((s, p, None))) => Some((s, p, Some((**l).clone()))),
            _ => None,
        },
        _ => None,
    }
}

/// The arms of a `match` for the `if` chain `arms` (`else` last, `None` if empty), or the chain
/// itself when none of its conditions makes a pattern.
fn arms_of<B: Clone>(arms: &[(Cond, B)], els: Option<B>, empty: B) -> Option<(Int, Vec<Arm<B>>)> {
    if let ([(c, then)], Some(els)) = (arms, &els)
        && let Some((s, pat, None)) = int_test(c, true)
        && matches!(c, Cond::Int(Cmp::Ne, ..))
    {
        let arms = vec![
            Arm { pat, guard: None, body: els.clone() },
            Arm { pat: IntPat::Wild, guard: None, body: then.clone() },
        ];
        return Some((s, arms));
    }
    let at = arms.iter().position(|(c, _)| int_test(c, false).is_some())?;
    let (scrutinee, ..) = int_test(&arms[at].0, false)?;
    let mut out: Vec<Arm<B>> = arms
        .iter()
        .enumerate()
        .map(|(k, (c, b))| match int_test(c, false).filter(|_| k == at) {
            Some((_, pat, guard)) => Arm { pat, guard, body: b.clone() },
            None => Arm { pat: IntPat::Wild, guard: Some(c.clone()), body: b.clone() },
        })
        .collect();
    out.push(Arm { pat: IntPat::Wild, guard: None, body: els.unwrap_or(empty) });
    Some((scrutinee, out))
}

impl Rewriter {
    /// An `if` statement, sometimes as a `match` (not one arm and an empty `_`: clippy would
    /// ask for the `if`).
    pub(super) fn if_stmt(&mut self, arms: Vec<(Cond, Vec<Stmt>)>, els: Option<Vec<Stmt>>) -> Stmt {
        let worth = els.is_some() || arms.len() > 1;
        if worth
            && self.rng.chance(85)
            && let Some((s, m)) = arms_of(&arms, els.clone(), Vec::new())
        {
            self.changed = true;
            return Stmt::Match(s, m);
        }
        Stmt::If(arms, els)
    }

    /// An `if` as a value, sometimes as a `match`.
    pub(super) fn if_expr(&mut self, arms: Vec<(Cond, Block)>, els: Block) -> super::Expr {
        if self.rng.chance(85)
            && let Some((s, m)) = arms_of(&arms, Some(els.clone()), els.clone())
        {
            self.changed = true;
            return super::Expr::Match(s, m);
        }
        super::Expr::If(arms, Box::new(els))
    }
}
