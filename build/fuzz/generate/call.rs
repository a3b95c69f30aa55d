//! Calls: the functions a program calls (small `#[grad(jvp, hvp)]` programs of their own, or
//! closed forms with hand-written derivatives), and their calls. The macro gives a call one
//! partial per argument that is not a constant (a literal, a constant parameter, a loop variable,
//! data, and arithmetic on these), so a callee's differentiated parameters get values that read a
//! differentiated variable, and its constant ones get constants.

use super::super::ast::{Def, Expr, Formula, Int, Modes, Op, Output, Param, Pass, Program, Size};
use super::tree::{bin, same};
use super::{Gen, Kind};

impl Gen {
    /// Up to two functions for the program to call, each of which may call the ones before it.
    pub(super) fn callees(&mut self, seed: u64) -> Vec<super::super::ast::Callee> {
        let count = self.rng.weighted(&[55, 30, 15]);
        let mut out = Vec::new();
        for k in 0..count {
            let name = format!("g{k}");
            let (params, def) = if self.rng.chance(40) {
                self.manual()
            } else {
                let prog = self.callee(seed.wrapping_mul(31).wrapping_add(k as u64));
                (prog.params.clone(), Def::Grad(Box::new(prog)))
            };
            self.callees.push((name.clone(), params));
            out.push(super::super::ast::Callee { name, def });
        }
        out
    }

    /// A closed form with hand-written derivatives, and its parameters.
    fn manual(&mut self) -> (Vec<Param>, Def) {
        let scalar = |name: &str, pass| Param { name: name.into(), dims: vec![], pass };
        let formula = match self.rng.below(3) {
            0 => Formula::Wave,
            1 => Formula::Softplus { n: self.rng.between(1, 4), by_ref: self.rng.chance(40) },
            _ => Formula::Tanh,
        };
        let params = match formula {
            Formula::Wave => vec![scalar("a", Pass::Value), scalar("b", Pass::Value)],
            Formula::Softplus { n, by_ref } => {
                let pass = if by_ref { Pass::Ref } else { Pass::Value };
                vec![Param { name: "v".into(), dims: vec![Size { n, name: None }], pass }]
            }
            Formula::Tanh => vec![scalar("x", Pass::Value), scalar("c", Pass::Constant)],
        };
        (params, Def::Manual(formula))
    }

    /// A small scalar program over one to three parameters (one differentiated at least), which
    /// may call the callees before it. Its `const` items join the caller's.
    fn callee(&mut self, seed: u64) -> Program {
        let mut g = Gen::new(seed);
        g.consts = std::mem::take(&mut self.consts);
        g.callees = self.callees.clone();
        let count = g.rng.between(1, 3);
        let mut params: Vec<Param> = (0..count)
            .map(|k| {
                let (prefix, dims, pass) = match g.rng.weighted(&[45, 20, 12, 23]) {
                    0 => ("a", vec![], Pass::Value),
                    1 => ("x", vec![g.rng.between(1, 4)], Pass::Value),
                    2 => ("r", vec![g.rng.between(1, 4)], Pass::Ref),
                    _ => ("c", vec![], Pass::Constant),
                };
                let dims = dims.into_iter().map(|n| g.size(n)).collect();
                Param { name: format!("{prefix}{k}"), dims, pass }
            })
            .collect();
        if params.iter().all(|p| p.pass == Pass::Constant) {
            params[0] = Param { name: "a0".into(), dims: vec![], pass: Pass::Value };
        }
        g.declare_params(&params);
        g.budget = g.rng.between(2, 6) as i32;
        let mut body = Vec::new();
        g.body(&mut body, Output::Scalar);
        let tail = g.tail(&mut body, Output::Scalar);
        self.consts = std::mem::take(&mut g.consts);
        let wrt = params.iter().any(|p| p.pass == Pass::Constant);
        Program {
            seed,
            consts: Vec::new(),
            params,
            body,
            tail,
            output: Output::Scalar,
            modes: Modes::Scalar { hessian: false },
            wrt,
            callees: Vec::new(),
            checkpoint: None,
            idiomatic: None,
        }
    }

    /// A call of one of the callees, its arguments at most `depth` deep; `None` if there are
    /// none. Sometimes every argument is a constant (the call is then a constant).
    pub(super) fn call(&mut self, depth: u32) -> Option<Expr> {
        if self.callees.is_empty() {
            return None;
        }
        let (name, params) = self.callees[self.rng.below(self.callees.len())].clone();
        let all_const = params.iter().all(|p| p.dims.is_empty()) && self.rng.chance(10);
        let mut args = Vec::new();
        for p in &params {
            let arg = match p.pass {
                _ if p.dims.is_empty() && (all_const || p.pass == Pass::Constant) => self.konst(),
                _ if p.dims.is_empty() => self.active_arg(depth),
                pass => {
                    let a = self.array_arg(&p.dims, depth);
                    if pass == Pass::Ref { Expr::Ref(Box::new(a)) } else { a }
                }
            };
            args.push(arg);
        }
        Some(Expr::Call(name, args))
    }

    /// A value that reads a differentiated variable: never a constant to the macro.
    fn active_arg(&mut self, depth: u32) -> Expr {
        let e = self.expr(depth.saturating_sub(1));
        if self.is_active(&e) {
            return e;
        }
        let leaf = self.active_leaf();
        if same(&e, &leaf) { leaf } else { bin(Op::Add, e, leaf) }
    }

    /// A constant: a literal, a constant parameter or an element of one, an integer variable cast,
    /// data, or a literal times one of those.
    pub(super) fn konst(&mut self) -> Expr {
        let mut leaves: Vec<(String, Kind)> = self
            .visible()
            .filter(|v| v.param && !v.active)
            .filter(|v| matches!(v.kind, Kind::Real | Kind::Array(_)))
            .map(|v| (v.name.clone(), v.kind.clone()))
            .collect();
        leaves.extend(self.ints().into_iter().map(|(i, lo, hi)| (i, Kind::Int { lo, hi })));
        let data = self.visible().find(|v| v.kind == Kind::Data).map(|v| v.name.clone());
        if leaves.is_empty() || self.rng.chance(40) {
            return self.lit();
        }
        let (name, kind) = leaves[self.rng.below(leaves.len())].clone();
        self.read(&name);
        let leaf = match kind {
            Kind::Int { lo, hi: None } if data.is_some() && self.rng.chance(50) => {
                let d = data.unwrap_or_default();
                self.data_read(&d, &name, lo)
            }
            Kind::Int { .. } | Kind::Data => Expr::Cast(Int::Var(name)),
            Kind::Array(dims) => {
                let ix = dims.iter().map(|d| self.index(d)).collect();
                Expr::Elem(name, ix)
            }
            Kind::Real => Expr::Var(name),
        };
        if self.rng.chance(30) { bin(Op::Mul, self.lit(), leaf) } else { leaf }
    }

    /// An array of lengths `dims` (one dimension): a variable, a row of a matrix, or a literal
    /// of values that read differentiated variables.
    fn array_arg(&mut self, dims: &[Size], depth: u32) -> Expr {
        let n = dims[0].n;
        let mut found: Vec<(String, bool)> = self
            .visible()
            .filter(|v| !v.by_ref && self.readable(&v.name))
            .filter_map(|v| match &v.kind {
                Kind::Array(d) if d.len() == 1 && d[0].n == n => Some((v.name.clone(), false)),
                Kind::Array(d) if d.len() == 2 && d[1].n == n => Some((v.name.clone(), true)),
                _ => None,
            })
            .collect();
        if found.is_empty() || self.rng.chance(25) {
            found.clear();
            let xs = (0..n).map(|_| self.active_arg(depth.min(1))).collect();
            return Expr::Array(xs);
        }
        let (name, row) = found.swap_remove(self.rng.below(found.len()));
        self.read(&name);
        if !row {
            return Expr::Var(name);
        }
        let Some(Kind::Array(d)) = self.visible().find(|v| v.name == name).map(|v| v.kind.clone())
        else {
            return Expr::Var(name);
        };
        let i = self.index(&d[0]);
        Expr::Elem(name, vec![i])
    }
}
