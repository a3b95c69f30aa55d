//! Calls: the functions a program calls (small `#[grad(jvp, hvp)]` programs of their own, or
//! closed forms with hand-written derivatives), and their calls. A callee's derivative functions
//! have one partial and one direction per `f64` or array parameter (its `#[grad]` has no `wrt`),
//! whatever a call passes: each such parameter gets a value that reads a differentiated variable
//! or a constant (a literal, a constant parameter or an element of one, an integer cast, data; a
//! constant array parameter whole), in any position, and an integer parameter an integer.

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
        let formula = match self.rng.below(4) {
            0 => Formula::Wave,
            1 => Formula::Softplus { n: self.rng.between(1, 4), by_ref: self.rng.chance(40) },
            2 => Formula::Tanh,
            _ => Formula::Ripple,
        };
        let params = match formula {
            Formula::Wave => vec![scalar("a", Pass::Value), scalar("b", Pass::Value)],
            Formula::Softplus { n, by_ref } => {
                let pass = if by_ref { Pass::Ref } else { Pass::Value };
                vec![Param { name: "v".into(), dims: vec![Size { n, name: None }], pass }]
            }
            Formula::Tanh => vec![scalar("x", Pass::Value), scalar("c", Pass::Value)],
            Formula::Ripple => vec![scalar("x", Pass::Value), scalar("k", Pass::Steps)],
        };
        (params, Def::Manual(formula))
    }

    /// A small scalar program over one to three `f64` and array parameters, and sometimes a
    /// trip count `steps: usize`, which may call the callees before it. Its `const` items join
    /// the caller's.
    fn callee(&mut self, seed: u64) -> Program {
        let mut g = Gen::new(seed);
        g.consts = std::mem::take(&mut self.consts);
        g.callees = self.callees.clone();
        let count = g.rng.between(1, 3);
        let mut params: Vec<Param> = (0..count)
            .map(|k| {
                let (prefix, dims, pass) = match g.rng.weighted(&[55, 25, 20]) {
                    0 => ("a", vec![], Pass::Value),
                    1 => ("x", vec![g.rng.between(1, 4)], Pass::Value),
                    _ => ("r", vec![g.rng.between(1, 4)], Pass::Ref),
                };
                let dims = dims.into_iter().map(|n| g.size(n)).collect();
                Param { name: format!("{prefix}{k}"), dims, pass }
            })
            .collect();
        if g.rng.chance(15) {
            let at = g.rng.below(params.len() + 1);
            params.insert(at, Param { name: "steps".into(), dims: vec![], pass: Pass::Steps });
        }
        g.declare_params(&params);
        g.budget = g.rng.between(2, 6) as i32;
        let mut body = Vec::new();
        g.body(&mut body, Output::Scalar);
        let tail = g.tail(&mut body, Output::Scalar);
        self.consts = std::mem::take(&mut g.consts);
        Program {
            seed,
            consts: Vec::new(),
            params,
            body,
            tail,
            output: Output::Scalar,
            modes: Modes::Scalar { hessian: false },
            wrt: false,
            callees: Vec::new(),
            checkpoint: None,
            idiomatic: None,
            vary: super::super::vary::Vary::new(seed),
        }
    }

    /// A call of one of the callees, its arguments at most `depth` deep; `None` if there are
    /// none. Each `f64` or array parameter gets a constant or a value, in any position;
    /// sometimes every argument is a constant (the call is then a constant).
    pub(super) fn call(&mut self, depth: u32) -> Option<Expr> {
        if self.callees.is_empty() {
            return None;
        }
        let (name, params) = self.callees[self.rng.below(self.callees.len())].clone();
        let all_const = self.rng.chance(10);
        let mut constant: Vec<bool> = params
            .iter()
            .map(|p| p.pass != Pass::Steps && (all_const || self.rng.chance(35)))
            .collect();
        let differentiated: Vec<usize> =
            (0..params.len()).filter(|k| params[*k].pass != Pass::Steps).collect();
        if !all_const && differentiated.iter().all(|k| constant[*k]) {
            constant[differentiated[self.rng.below(differentiated.len())]] = false;
        }
        let mut args = Vec::new();
        for (p, constant) in params.iter().zip(constant) {
            let arg = match p.pass {
                Pass::Steps => Expr::IntArg(self.int_arg()),
                _ if p.dims.is_empty() && constant => self.konst(),
                _ if p.dims.is_empty() => self.active_arg(depth),
                pass => {
                    let by_ref = pass == Pass::Ref;
                    match constant.then(|| self.const_array(&p.dims, by_ref)).flatten() {
                        Some(a) => a,
                        None => {
                            let a = self.array_arg(&p.dims, depth);
                            if by_ref { Expr::Ref(Box::new(a)) } else { a }
                        }
                    }
                }
            };
            args.push(arg);
        }
        Some(Expr::Call(name, args))
    }

    /// An integer argument in `0..=MAX_STEPS` (a callee's trip count): a literal, or an integer
    /// variable in that range.
    fn int_arg(&mut self) -> Int {
        let max = super::loops::MAX_STEPS;
        let fit: Vec<String> = self
            .ints()
            .into_iter()
            .filter(|(_, _, hi)| hi.is_some_and(|h| h <= max))
            .map(|(name, _, _)| name)
            .collect();
        if fit.is_empty() || self.rng.chance(40) {
            return Int::Lit(self.rng.below(max + 1));
        }
        let name = fit[self.rng.below(fit.len())].clone();
        self.read(&name);
        Int::Var(name)
    }

    /// A constant array parameter of lengths `dims`, passed whole: `c` to a parameter taken by
    /// reference, `*c` to one taken by value; `None` if there is none.
    fn const_array(&mut self, dims: &[Size], by_ref: bool) -> Option<Expr> {
        let lengths: Vec<usize> = dims.iter().map(|d| d.n).collect();
        let found: Vec<String> = self
            .visible()
            .filter(|v| v.param && !v.active && v.by_ref)
            .filter(|v| match &v.kind {
                Kind::Array(d) => d.iter().map(|s| s.n).eq(lengths.iter().copied()),
                _ => false,
            })
            .map(|v| v.name.clone())
            .collect();
        if found.is_empty() {
            return None;
        }
        let name = found[self.rng.below(found.len())].clone();
        self.read(&name);
        Some(if by_ref { Expr::Var(name) } else { Expr::Deref(name) })
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
