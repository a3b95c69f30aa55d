//! The IR verifier, run after every pass: a broken invariant is a bug in the macro, never in the
//! user's code, and is reported as an internal error instead of emitting wrong code.

use super::{Func, Operand};

/// Checks that every variable is defined exactly once before it is read, that every statement
/// has its primitive's arity, and that constants and outputs refer to existing things.
pub fn verify(f: &Func) -> Result<(), String> {
    let mut defined = vec![false; f.names.len()];
    let define = |defined: &mut Vec<bool>, v: crate::ir::Var, what: &str| -> Result<(), String> {
        match defined.get_mut(v.index()) {
            None => Err(format!("{what} defines unknown variable %{}", v.0)),
            Some(true) => Err(format!("variable %{} is defined twice ({what})", v.0)),
            Some(slot) => {
                *slot = true;
                Ok(())
            }
        }
    };
    for v in &f.inputs {
        define(&mut defined, *v, "an input")?;
    }
    if f.user_inputs > f.inputs.len() {
        return Err("more user inputs than inputs".into());
    }
    for a in &f.active {
        if !f.inputs.contains(a) {
            return Err(format!("active variable %{} is not an input", a.0));
        }
    }
    let check = |defined: &[bool], op: &Operand, at: &str| -> Result<(), String> {
        match op {
            Operand::Var(v) if !defined.get(v.index()).copied().unwrap_or(false) => {
                Err(format!("{at} reads %{} before it is defined", v.0))
            }
            Operand::Ext(e) if e.0 as usize >= f.exts.len() => {
                Err(format!("{at} reads unknown constant {}", e.0))
            }
            _ => Ok(()),
        }
    };
    for (i, s) in f.stmts.iter().enumerate() {
        if s.args.len() != s.prim.arity() {
            return Err(format!("statement {i} ({:?}) has {} operands", s.prim, s.args.len()));
        }
        for a in &s.args {
            check(&defined, a, &format!("statement {i}"))?;
        }
        define(&mut defined, s.out, &format!("statement {i}"))?;
    }
    for o in &f.outputs {
        check(&defined, o, "an output")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Builder, Name, Prim, Stmt, Var};

    #[test]
    fn accepts_built_code_and_rejects_use_before_definition() {
        let mut b = Builder::literal();
        let x = Operand::Var(b.input(Name::user("x")));
        let y = b.push(Prim::Sin, &[x]);
        let mut f = b.finish(vec![y]);
        assert_eq!(verify(&f), Ok(()));
        f.stmts.push(Stmt { out: Var(5), prim: Prim::Cos, args: vec![x] });
        assert!(verify(&f).is_err());
        f.stmts.pop();
        f.outputs.push(Operand::Var(Var(1_000)));
        assert!(verify(&f).is_err());
    }
}
