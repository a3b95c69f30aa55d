//! The IR verifier, run after every pass: a broken invariant is a bug in the macro, never in the
//! user's code, and is reported as an internal error instead of emitting wrong code.

use std::collections::HashSet;

use super::walk::cond_reads;
use super::{Block, Func, Operand, Prim, Stmt, Ty, Var};

/// Checks that every variable is defined exactly once, before it is read and in a block that
/// encloses the reader; that statements have their primitive's arity and operands of the right
/// types; and that loops and branches carry and yield matching values.
pub fn verify(f: &Func) -> Result<(), String> {
    let mut v = Verifier {
        f,
        defined: vec![false; f.names.len()],
        scopes: vec![HashSet::new()],
        tapes: vec![Vec::new()],
    };
    if f.types.len() != f.names.len() {
        return Err("names and types differ in length".into());
    }
    for input in &f.inputs {
        v.define(*input, "an input")?;
    }
    if f.user_inputs > f.inputs.len() {
        return Err("more user inputs than inputs".into());
    }
    for a in &f.active {
        if !f.inputs.contains(a) {
            return Err(format!("active variable %{} is not an input", a.0));
        }
    }
    v.block(&f.body, &f.outputs, "the body")?;
    Ok(())
}

struct Verifier<'a> {
    f: &'a Func,
    defined: Vec<bool>,
    /// The variables visible in each open block, innermost last.
    scopes: Vec<HashSet<Var>>,
    /// The tapes filled in each open block (by a [`crate::ir::While`]): the loop and how many
    /// values it records.
    tapes: Vec<Vec<(crate::ir::LoopId, usize)>>,
}

impl Verifier<'_> {
    fn define(&mut self, v: Var, what: &str) -> Result<(), String> {
        match self.defined.get_mut(v.index()) {
            None => Err(format!("{what} defines unknown variable %{}", v.0)),
            Some(true) => Err(format!("variable %{} is defined twice ({what})", v.0)),
            Some(slot) => {
                *slot = true;
                if let Some(scope) = self.scopes.last_mut() {
                    scope.insert(v);
                }
                Ok(())
            }
        }
    }

    fn known(&self, v: Var, at: &str) -> Result<(), String> {
        match v.index() < self.f.types.len() {
            true => Ok(()),
            false => Err(format!("{at} defines unknown variable %{}", v.0)),
        }
    }

    fn visible(&self, v: Var) -> bool {
        self.scopes.iter().any(|s| s.contains(&v))
    }

    fn read(&self, op: Operand, want: Option<&Ty>, at: &str) -> Result<(), String> {
        match op {
            Operand::Var(v) if !self.visible(v) => {
                Err(format!("{at} reads %{} where it is not defined", v.0))
            }
            Operand::Ext(e) if e.0 as usize >= self.f.exts.len() => {
                Err(format!("{at} reads unknown constant {}", e.0))
            }
            _ => match want {
                // A literal or a constant takes the float type of where it is read.
                Some(t) if t.is_float() && matches!(op, Operand::Lit(_) | Operand::Ext(_)) => {
                    Ok(())
                }
                Some(t) if &self.f.operand_ty(op) != t => {
                    Err(format!("{at} reads {op:?} of type {:?}, not {t:?}", self.f.operand_ty(op)))
                }
                _ => Ok(()),
            },
        }
    }

    fn block(&mut self, block: &Block, yields: &[Operand], at: &str) -> Result<(), String> {
        for (i, s) in block.iter().enumerate() {
            self.stmt(s, &format!("{at}, statement {i}"))?;
        }
        for y in yields {
            self.read(*y, None, &format!("{at}, a result"))?;
        }
        Ok(())
    }

    fn nested(
        &mut self,
        params: &[Var],
        block: &Block,
        yields: &[Operand],
        at: &str,
    ) -> Result<(), String> {
        self.scopes.push(HashSet::new());
        self.tapes.push(Vec::new());
        for p in params {
            self.define(*p, at)?;
        }
        let result = self.block(block, yields, at);
        self.scopes.pop();
        self.tapes.pop();
        result
    }

    fn stmt(&mut self, s: &Stmt, at: &str) -> Result<(), String> {
        let f = self.f;
        match s {
            Stmt::Op { out, prim, args } => {
                if args.len() != prim.arity() {
                    return Err(format!("{at} ({prim:?}) has {} operands", args.len()));
                }
                // The result is a float of either type; the operands have its type (the other
                // one for a conversion), the compared pair of a select either.
                let Some(ty) = f.types.get(out.index()).cloned() else {
                    return Err(format!("{at} defines unknown variable %{}", out.0));
                };
                let read_ty = match prim {
                    Prim::Convert => ty.flipped(),
                    _ => Some(ty.clone()),
                };
                for (i, a) in args.iter().enumerate() {
                    if prim.int_operand() == Some(i) && !matches!(a, Operand::Ext(_)) {
                        return Err(format!("{at} ({prim:?}) reads {a:?} as an integer constant"));
                    }
                    let want = match (prim, a) {
                        (Prim::Select(_), _) if i < 2 => None,
                        (_, Operand::Var(_)) => read_ty.as_ref(),
                        _ => None,
                    };
                    self.read(*a, want, at)?;
                    if !f.operand_ty(*a).is_float() {
                        return Err(format!("{at} ({prim:?}) reads {a:?}, not a float"));
                    }
                }
                if !ty.is_float() {
                    return Err(format!("{at} defines %{} of type {ty:?}, not a float", out.0));
                }
                self.typed(*out, &ty, at)?;
            }
            Stmt::Test { out, cond } => {
                let mut ops = Vec::new();
                cond_reads(cond, &mut ops);
                for op in ops {
                    self.read(op, None, at)?;
                }
                self.typed(*out, &Ty::Bool, at)?;
            }
            Stmt::Load { out, array, index } => {
                self.read(Operand::Var(*array), None, at)?;
                let ty = f.ty(*array).indexed(index.len());
                let ty = ty.ok_or_else(|| format!("{at} indexes %{} too deep", array.0))?;
                self.typed(*out, &ty, at)?;
            }
            Stmt::Store { out, array, index, value } => {
                self.read(Operand::Var(*array), None, at)?;
                let ty = f.ty(*array).indexed(index.len());
                let ty = ty.ok_or_else(|| format!("{at} indexes %{} too deep", array.0))?;
                self.read(*value, Some(&ty), at)?;
                self.typed(*out, f.ty(*array), at)?;
            }
            Stmt::Fill { out, value } => {
                self.known(*out, at)?;
                let elem = f.ty(*out).shape().map(|s| s.elem.scalar());
                let elem = elem.ok_or_else(|| format!("{at} fills a non-array"))?;
                // Residuals have no literal: their storage starts from the zero rustc makes.
                let want = (elem != Ty::Residuals).then_some(&elem);
                self.read(*value, want, at)?;
                self.define(*out, at)?;
            }
            Stmt::Array { out, elems } => {
                self.known(*out, at)?;
                let elem = f.ty(*out).indexed(1).ok_or_else(|| format!("{at}: not an array"))?;
                for e in elems {
                    self.read(*e, Some(&elem), at)?;
                }
                self.define(*out, at)?;
            }
            Stmt::For(l) => {
                if l.index.0 as usize >= f.loops.len() {
                    return Err(format!("{at}: unknown loop index"));
                }
                let n = l.carried.len();
                if l.yields.len() != n || l.outs.len() != n {
                    return Err(format!(
                        "{at}: a loop with {n} carried values yields {} and has {} results",
                        l.yields.len(),
                        l.outs.len()
                    ));
                }
                for c in &l.carried {
                    self.read(c.init, Some(f.ty(c.param)), at)?;
                }
                let params: Vec<Var> = l.carried.iter().map(|c| c.param).collect();
                self.nested(&params, &l.body, &l.yields, &format!("{at} (loop body)"))?;
                for o in &l.outs {
                    self.known(*o, at)?;
                }
                for (c, (y, o)) in l.carried.iter().zip(l.yields.iter().zip(&l.outs)) {
                    let ty = f.ty(c.param);
                    if &f.operand_ty(*y) != ty || f.ty(*o) != ty {
                        return Err(format!("{at}: carried %{} changes type", c.param.0));
                    }
                    self.define(*o, at)?;
                }
            }
            Stmt::While(w) => self.while_loop(w, at)?,
            Stmt::If(b) => {
                self.read(Operand::Var(b.cond), Some(&Ty::Bool), at)?;
                let n = b.outs.len();
                if b.then_yields.len() != n || b.else_yields.len() != n {
                    return Err(format!(
                        "{at}: a branch with {n} results yields a different number"
                    ));
                }
                self.nested(&[], &b.then, &b.then_yields, &format!("{at} (then)"))?;
                self.nested(&[], &b.otherwise, &b.else_yields, &format!("{at} (else)"))?;
                for o in &b.outs {
                    self.known(*o, at)?;
                }
                for ((t, e), o) in b.then_yields.iter().zip(&b.else_yields).zip(&b.outs) {
                    let ty = f.ty(*o);
                    // A literal or a constant takes the float type of the result.
                    let fits = |op: &Operand| {
                        &f.operand_ty(*op) == ty || (ty.is_float() && op.var().is_none())
                    };
                    if !fits(t) || !fits(e) {
                        return Err(format!("{at}: branch result %{} has mismatched types", o.0));
                    }
                    self.define(*o, at)?;
                }
            }
            Stmt::Checkpoint(c) => self.checkpoint(c, at)?,
            Stmt::Call(c) => self.call(c, at)?,
        }
        Ok(())
    }

    fn call(&mut self, c: &crate::ir::Call, at: &str) -> Result<(), String> {
        use crate::ir::CallKind;
        let f = self.f;
        let values = c.values();
        let (m, k) = (values.len(), c.ret.len());
        if matches!(c.kind, CallKind::Grad | CallKind::Hvp) && !c.ret.is_scalar() {
            return Err(format!("{at}: a {:?} call of a callee with {k} values", c.kind));
        }
        let (dirs, outs) = match c.kind {
            CallKind::Value => (0, k),
            CallKind::Grad => (0, 1 + m),
            CallKind::Jvp => (m, 2 * k),
            CallKind::Hvp => (m, 1 + 2 * m),
            CallKind::Vjp => (k, k + m),
            CallKind::VjpJvp => (2 * k + m, 2 * (k + m)),
            CallKind::Fwd => (0, k + 1),
            CallKind::Rev => (1 + k, m),
        };
        if c.dirs.len() != dirs || c.outs.len() != outs {
            return Err(format!(
                "{at}: a {:?} call of {m} values returning {k} has {} directions and {} results",
                c.kind,
                c.dirs.len(),
                c.outs.len()
            ));
        }
        if c.outs.iter().any(|o| o.index() >= f.types.len()) {
            return Err(format!("{at} defines an unknown variable"));
        }
        // The values first (their types are the results'), then the partials (their arguments').
        let value_tys: Vec<Ty> =
            c.outs[..c.value_count()].iter().map(|o| f.ty(*o).clone()).collect();
        if c.ret.is_scalar() && value_tys.first() != Some(&Ty::F64) {
            return Err(format!("{at}: a scalar callee's value is not an `f64`"));
        }
        if value_tys.iter().any(|t| !t.is_real()) {
            return Err(format!("{at}: a callee's value is not an `f64` or an array of them"));
        }
        let arg_tys: Vec<Ty> = values.iter().map(|(v, _)| f.operand_ty(*v)).collect();
        for (d, ty) in c.arg_dirs().iter().zip(&arg_tys) {
            self.read(*d, Some(ty), at)?;
        }
        for (d, ty) in c.bars().iter().chain(c.bar_dots()).zip(value_tys.iter().cycle()) {
            self.read(*d, Some(ty), at)?;
        }
        for (v, _) in &values {
            self.read(*v, None, at)?;
        }
        if let Some(r) = c.residuals() {
            self.read(r, Some(&Ty::Residuals), at)?;
        }
        let residuals = [Ty::Residuals];
        let results: Vec<&Ty> = match c.kind {
            CallKind::Fwd => value_tys.iter().chain(&residuals).collect(),
            CallKind::Rev => arg_tys.iter().collect(),
            CallKind::Value => value_tys.iter().collect(),
            CallKind::Jvp => value_tys.iter().chain(&value_tys).collect(),
            CallKind::Grad => value_tys.iter().chain(&arg_tys).collect(),
            CallKind::Hvp => value_tys.iter().chain(&arg_tys).chain(&arg_tys).collect(),
            CallKind::Vjp => value_tys.iter().chain(&arg_tys).collect(),
            CallKind::VjpJvp => {
                let once = value_tys.iter().chain(&arg_tys);
                once.clone().chain(once).collect()
            }
        };
        for (o, ty) in c.outs.iter().zip(results) {
            self.typed(*o, ty, at)?;
        }
        Ok(())
    }

    fn while_loop(&mut self, w: &crate::ir::While, at: &str) -> Result<(), String> {
        let f = self.f;
        if w.index.0 as usize >= f.loops.len() {
            return Err(format!("{at}: unknown loop index"));
        }
        let n = w.carried.len();
        if w.yields.len() != n || w.outs.len() != n {
            return Err(format!("{at}: a while loop's carried values have mismatched lengths"));
        }
        self.read(w.first, Some(&Ty::Bool), at)?;
        for c in &w.carried {
            self.read(c.init, Some(f.ty(c.param)), at)?;
        }
        let params: Vec<Var> = w.carried.iter().map(|c| c.param).collect();
        let mut yields = w.yields.clone();
        yields.push(w.cond);
        self.nested(&params, &w.body, &yields, &format!("{at} (while body)"))?;
        if f.operand_ty(w.cond) != Ty::Bool {
            return Err(format!("{at}: a while loop's condition is not a boolean"));
        }
        for (c, (y, o)) in w.carried.iter().zip(w.yields.iter().zip(&w.outs)) {
            self.known(*o, at)?;
            let ty = f.ty(c.param);
            if &f.operand_ty(*y) != ty || f.ty(*o) != ty {
                return Err(format!("{at}: carried %{} changes type", c.param.0));
            }
            self.define(*o, at)?;
        }
        if w.tape.is_some()
            && let Some(tapes) = self.tapes.last_mut()
        {
            tapes.push((w.index, n));
        }
        Ok(())
    }

    fn checkpoint(&mut self, c: &crate::ir::Checkpoint, at: &str) -> Result<(), String> {
        let f = self.f;
        let n = c.step_params.len();
        let taped = matches!(c.source, crate::ir::Source::Tape(_));
        if taped && !c.state.is_empty() {
            return Err(format!("{at}: a sweep from a tape has an initial state"));
        }
        let state = if taped { n } else { c.state.len() };
        if taped && !self.tapes.iter().flatten().any(|t| *t == (c.index, n)) {
            return Err(format!("{at}: a sweep reads a tape that no loop before it fills"));
        }
        if state != n || c.step_yields.len() != n || c.back_params.len() != n {
            return Err(format!("{at}: a checkpointed loop's state has mismatched lengths"));
        }
        if c.back_yields.len() != c.adjoint.len() || c.outs.len() != c.adjoint.len() {
            return Err(format!("{at}: a checkpointed loop's adjoint has mismatched lengths"));
        }
        for (j, (s, b)) in c.step_params.iter().zip(&c.back_params).enumerate() {
            self.known(*s, at)?;
            self.known(*b, at)?;
            if f.ty(*s) != f.ty(*b) {
                return Err(format!("{at}: the state %{} has two types", s.0));
            }
            if let Some(x) = c.state.get(j) {
                self.read(*x, Some(f.ty(*s)), at)?;
            }
        }
        for a in &c.adjoint {
            self.known(a.param, at)?;
            self.read(a.init, Some(f.ty(a.param)), at)?;
        }
        self.nested(&c.step_params, &c.step, &c.step_yields, &format!("{at} (step)"))?;
        let mut back = c.back_params.clone();
        back.extend(c.adjoint.iter().map(|a| a.param));
        self.nested(&back, &c.back, &c.back_yields, &format!("{at} (back)"))?;
        for (s, y) in c.step_params.iter().zip(&c.step_yields) {
            if &f.operand_ty(*y) != f.ty(*s) {
                return Err(format!("{at}: the state %{} changes type", s.0));
            }
        }
        for ((a, y), o) in c.adjoint.iter().zip(&c.back_yields).zip(&c.outs) {
            self.known(*o, at)?;
            if &f.operand_ty(*y) != f.ty(a.param) || f.ty(*o) != f.ty(a.param) {
                return Err(format!("{at}: the adjoint %{} changes type", a.param.0));
            }
            self.define(*o, at)?;
        }
        Ok(())
    }

    fn typed(&mut self, out: Var, ty: &Ty, at: &str) -> Result<(), String> {
        if out.index() >= self.f.types.len() {
            return Err(format!("{at} defines unknown variable %{}", out.0));
        }
        if self.f.ty(out) != ty {
            return Err(format!(
                "{at} defines %{} of type {:?}, not {ty:?}",
                out.0,
                self.f.ty(out)
            ));
        }
        self.define(out, at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Builder, Ext, ExtId, Name, Prec, Prim};

    #[test]
    fn accepts_built_code_and_rejects_use_before_definition() {
        let mut b = Builder::literal();
        let x = Operand::Var(b.input(Name::user("x"), Ty::F64));
        let y = b.push(Prim::Sin, &[x]);
        let mut f = b.finish(vec![y]);
        assert_eq!(verify(&f), Ok(()));
        f.body.push(Stmt::Op { out: Var(5), prim: Prim::Cos, args: vec![x] });
        assert!(verify(&f).is_err());
        f.body.pop();
        f.outputs.push(Operand::Var(Var(1_000)));
        assert!(verify(&f).is_err());
    }

    #[test]
    fn the_exponent_of_powi_int_is_a_constant() {
        let mut b = Builder::literal();
        let x = Operand::Var(b.input(Name::user("x"), Ty::F64));
        let tokens = quote::quote!(n);
        let n =
            Ext { tokens, prec: Prec::Atom, params: Vec::new(), loops: Vec::new(), other: false };
        b.func_mut().exts.push(n);
        let y = b.push(Prim::PowiInt(0), &[x, Operand::Ext(ExtId(0))]);
        assert_eq!(verify(&b.finish(vec![y])), Ok(()));
        let mut b = Builder::literal();
        let x = Operand::Var(b.input(Name::user("x"), Ty::F64));
        let y = b.push(Prim::PowiInt(0), &[x, x]);
        assert!(verify(&b.finish(vec![y])).is_err());
    }
}
