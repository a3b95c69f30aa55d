//! The adjoint of a call. A scalar callee ran as `g_grad` in the forward pass, so its sweep only
//! multiplies: `āᵢ += ȳ · ∂y/∂aᵢ`. A vector callee ran as `g` (its cotangent is not known before
//! the sweep), and its sweep calls `g_vjp(a, ȳ)` with the cotangents of its values (zero for a
//! part with none), which returns the arguments' cotangents: `āᵢ += (∂y/∂aᵢ)ᵀ ȳ`. A vector
//! callee that ran as `g_fwd` (see `transform/calls.rs`) kept its residuals, and its sweep calls
//! `g_rev(a, residuals, ȳ)` instead, which does not run the callee's forward pass again.

use super::Rev;
use super::adjoint::Adj;
use crate::ir::{Call, CallKind, Name, Operand, Stmt, Suffix, Var};
use crate::transform::arrays::scale;
use crate::transform::zero;

impl Rev<'_> {
    /// The sweep of a call.
    pub(super) fn call(&mut self, c: &Call, adj: &mut Adj) {
        match c.kind {
            CallKind::Grad => self.grad_call(c, adj),
            CallKind::Value | CallKind::Fwd if !c.ret.is_scalar() => self.vjp_call(c, adj),
            // A scalar callee whose arguments are constants: no adjoint.
            _ => {}
        }
    }

    /// `(y, ∂y/∂a…) = g_grad(a…)`: `āᵢ += ȳ · ∂y/∂aᵢ`, the partials from the forward pass.
    fn grad_call(&mut self, c: &Call, adj: &mut Adj) {
        let Some(bar) = self.take(adj, c.outs[0]) else { return };
        for ((op, _), g) in c.values().iter().zip(&c.outs[1..]) {
            let Some(v) = op.var().filter(|v| self.varied[v.index()]) else { continue };
            let ty = self.f.ty(v).clone();
            let contribution = scale(&mut self.b, &ty, bar, Operand::Var(*g), Name::temp());
            self.contribute(adj, v, contribution);
        }
    }

    /// `ys = g(a…)`: `(_, ā…) = g_vjp(a…, ȳs)`, and each `āᵢ` added to its argument's adjoint;
    /// `(ys, r) = g_fwd(a…)`: `ā… = g_rev(a…, r, ȳs)`.
    fn vjp_call(&mut self, c: &Call, adj: &mut Adj) {
        let (ys, residuals) = match c.kind {
            CallKind::Fwd => c.outs.split_at(c.ret.len()),
            _ => (&c.outs[..], &[][..]),
        };
        let bars: Vec<Option<Operand>> = ys.iter().map(|y| self.take(adj, *y)).collect();
        if bars.iter().all(Option::is_none) {
            return;
        }
        let bars: Vec<Operand> = bars
            .into_iter()
            .zip(ys)
            .map(|(b, y)| b.unwrap_or_else(|| zero(&mut self.b, self.f.ty(*y))))
            .collect();
        let args = c.values();
        let cotangents: Vec<Var> = args
            .iter()
            .map(|(op, _)| {
                let name = match op.var() {
                    Some(v) => self.f.derived_name(v, Suffix::Bar),
                    None => Name::temp(),
                };
                self.b.fresh(name, self.f.operand_ty(*op))
            })
            .collect();
        let call = match residuals.first() {
            Some(r) => {
                let mut dirs = vec![Operand::Var(*r)];
                dirs.extend(bars);
                Call { kind: CallKind::Rev, dirs, outs: cotangents.clone(), ..c.clone() }
            }
            None => {
                let mut outs: Vec<Var> =
                    ys.iter().map(|y| self.b.fresh(Name::temp(), self.f.ty(*y).clone())).collect();
                outs.extend(&cotangents);
                Call { kind: CallKind::Vjp, dirs: bars, outs, ..c.clone() }
            }
        };
        self.b.emit(Stmt::Call(Box::new(call)));
        for ((op, _), a) in args.iter().zip(cotangents) {
            if let Some(v) = op.var().filter(|v| self.varied[v.index()]) {
                self.contribute(adj, v, Operand::Var(a));
            }
        }
    }
}
