//! The tangent of a call, from the callee's forward mode: `g` runs as `g_jvp` (the values'
//! tangents), `g_grad` as `g_hvp` (the partials' tangents, H·v; the value's is the partials
//! times the directions), and `g_vjp` as a vector callee's `g_hvp`, the forward mode of its VJP
//! (the cotangents' tangents, along the arguments' directions and the cotangents' own). The
//! directions of constant arguments are zeros, passed by codegen.

use super::Tangent;
use crate::ir::{Call, CallKind, Name, Operand, Stmt, Var};
use crate::transform::arrays::dot;
use crate::transform::sum;

impl Tangent<'_> {
    /// A call, with its tangent from the callee's forward mode.
    pub(super) fn call(&mut self, c: &Call) {
        let values = c.values();
        let moving = |t: &Self, ops: &[Operand]| ops.iter().any(|op| t.dot(*op).is_some());
        let args: Vec<Operand> = values.iter().map(|(op, _)| *op).collect();
        if !moving(self, &args) && !moving(self, c.bars()) {
            self.b.emit(Stmt::Call(Box::new(c.clone())));
            return;
        }
        let dirs: Vec<Operand> = args.iter().map(|op| self.dot_or_zero(*op)).collect();
        match c.kind {
            CallKind::Value => self.value_call(c, dirs),
            CallKind::Grad => self.grad_call(c, &args, dirs),
            CallKind::Vjp => self.vjp_call(c, dirs),
            // Never met: forward mode runs over a primal (values) and a reverse sweep (`g_grad`,
            // `g_vjp`); the reverse sweep it runs over (for H·v) calls vector callees through
            // `g_vjp`, not through `g_fwd` and `g_rev`.
            CallKind::Jvp | CallKind::Hvp | CallKind::VjpJvp | CallKind::Fwd | CallKind::Rev => {
                self.b.emit(Stmt::Call(Box::new(c.clone())));
            }
        }
    }

    /// A fresh tangent for each of `vars`, registered as its tangent.
    fn tangents_of(&mut self, vars: &[Var]) -> Vec<Var> {
        let mut out = Vec::new();
        for v in vars {
            let d = self.b.fresh(self.name(*v), self.f.ty(*v).clone());
            self.dots.insert(*v, Operand::Var(d));
            out.push(d);
        }
        out
    }

    /// `ys = g(a)`: `(ys, ẏs) = g_jvp(a, ȧ)`.
    fn value_call(&mut self, c: &Call, dirs: Vec<Operand>) {
        let mut outs = c.outs.clone();
        outs.extend(self.tangents_of(&c.outs));
        let call = Call { kind: CallKind::Jvp, dirs, outs, ..c.clone() };
        self.b.emit(Stmt::Call(Box::new(call)));
    }

    /// `(y, ∂y/∂a) = g_grad(a)`: `g_hvp` gives the partials and their tangents; the value's
    /// tangent is `ẏ = Σ ∂y/∂aᵢ · ȧᵢ`.
    fn grad_call(&mut self, c: &Call, args: &[Operand], dirs: Vec<Operand>) {
        let y = c.outs[0];
        let mut outs = c.outs.clone();
        outs.extend(self.tangents_of(&c.outs[1..]));
        let call = Call { kind: CallKind::Hvp, dirs: dirs.clone(), outs, ..c.clone() };
        self.b.emit(Stmt::Call(Box::new(call)));
        let terms: Vec<Operand> = c.outs[1..]
            .iter()
            .zip(args)
            .zip(&dirs)
            .map(|((g, op), d)| {
                let ty = self.f.operand_ty(*op);
                dot(&mut self.b, &ty, Operand::Var(*g), *d, Name::temp())
            })
            .collect();
        let name = self.name(y);
        if let Some(t) = sum(&mut self.b, terms, name) {
            self.dots.insert(y, t);
        }
    }

    /// `(ys, ā) = g_vjp(a, ȳ)`: `(ys, ā, ẏs, ā̇) = g_hvp(a, ȳ, ȧ, ȳ̇)`.
    fn vjp_call(&mut self, c: &Call, arg_dirs: Vec<Operand>) {
        let bars = c.bars().to_vec();
        let bar_dots: Vec<Operand> = bars.iter().map(|b| self.dot_or_zero(*b)).collect();
        let mut dirs = bars;
        dirs.extend(arg_dirs);
        dirs.extend(bar_dots);
        let mut outs = c.outs.clone();
        outs.extend(self.tangents_of(&c.outs));
        let call = Call { kind: CallKind::VjpJvp, dirs, outs, ..c.clone() };
        self.b.emit(Stmt::Call(Box::new(call)));
    }
}
