//! Statements: `let`s of scalars, arrays and integers, assignments to variables and elements
//! (state that loops carry, updated nonlinearly), and the output, which reads every value still
//! unread so that rustc has nothing to warn about.

use super::super::ast::{Assign, Expr, Int, IntOp, Op, Output, Place, Size, Stmt};
use super::int::size_int;
use super::loops::MAX_TRIPS;
use super::tree::{ambiguous, bin, distinct, drop_unread_int, not_assign_op, not_misrefactored};
use super::{Gen, Kind};

impl Gen {
    /// The assignable variables in scope of the given sort (scalars or arrays) that may be
    /// written here, with their kind and whether they are declared outside the innermost scope.
    pub(super) fn targets(&self, arrays: bool) -> Vec<(String, Kind, bool)> {
        let inner = self.scopes.len() - 1;
        let mut out = Vec::new();
        for (depth, scope) in self.scopes.iter().enumerate() {
            for v in scope.iter().filter(|v| v.assignable) {
                let fits = match (&v.kind, &self.reduction) {
                    (Kind::Real, Some(accs)) => accs.contains(&v.name),
                    (_, Some(_)) => false,
                    (Kind::Real, None) => !arrays,
                    (Kind::Array(_), None) => arrays,
                    _ => false,
                };
                if fits {
                    out.push((v.name.clone(), v.kind.clone(), depth < inner));
                }
            }
        }
        out
    }

    /// An expression that reads all of `name` that matters: the variable, or an element.
    pub(super) fn consume(&mut self, name: &str, kind: &Kind) -> Expr {
        self.read(name);
        match kind {
            Kind::Array(dims) => {
                let ix = dims.iter().map(|d| self.index(d)).collect();
                Expr::Elem(name.to_string(), ix)
            }
            Kind::Int { .. } => {
                bin(Op::Mul, Expr::Cast(Int::Var(name.to_string())), Expr::Lit(0.5))
            }
            _ => Expr::Var(name.to_string()),
        }
    }

    /// Ends the innermost scope: each of its variables not read since written is added to a
    /// variable declared outside.
    pub(super) fn close_scope(&mut self, out: &mut Vec<Stmt>) {
        let Some(scope) = self.scopes.last().cloned() else { return };
        // Latest first: dropping a `let` may leave an earlier variable unread.
        for name in scope.iter().rev().map(|v| v.name.clone()) {
            let Some(v) = self.var_mut(&name).map(|v| v.clone()) else { continue };
            if !v.pending || v.kind == Kind::Data || v.int_let {
                continue;
            }
            let term = self.consume(&v.name, &v.kind);
            let outer: Vec<String> = self
                .targets(false)
                .into_iter()
                .filter(|(_, _, outside)| *outside)
                .map(|(n, ..)| n)
                .collect();
            if let Some(t) = outer.first().cloned() {
                let t =
                    if outer.len() > 1 { outer[self.rng.below(outer.len())].clone() } else { t };
                let term = not_misrefactored(Assign::Add, &Expr::Var(t.clone()), term);
                self.flows(&t, &term);
                out.push(Stmt::Assign(Place::Var(t.clone()), Assign::Add, term));
                self.wrote(&t);
            }
        }
        for v in scope.iter().filter(|v| v.int_let) {
            drop_unread_int(out, &v.name);
        }
        self.scopes.pop();
    }

    /// The body: a first accumulator, then statements while the budget lasts.
    pub(super) fn body(&mut self, out: &mut Vec<Stmt>, output: Output) {
        let first = self.fresh("s");
        let init = self.nonconst(2);
        self.declare(&first, Kind::Real, true);
        self.flows(&first, &init);
        out.push(Stmt::Let(first.clone(), None, init));
        if output != Output::Scalar && self.rng.chance(40) {
            let m = match output {
                Output::Array(m) | Output::Tuple(m) => m,
                Output::Scalar => 1,
            };
            let y = self.fresh("y");
            let dims = vec![Size { n: m, name: None }];
            out.push(Stmt::Let(y.clone(), Some(dims.clone()), Expr::Zeros(dims.clone())));
            self.declare(&y, Kind::Array(dims), true);
        }
        if self.has_steps() {
            self.steps_loop(out);
        } else if self.rng.chance(70) {
            self.for_loop(out);
        }
        while self.budget > 0 {
            self.stmt(out, false);
        }
        if self.visible().any(|v| v.kind == Kind::Data && v.pending) {
            self.data_loop(out);
        }
    }

    /// One statement (or a few: a loop over data may declare its accumulator first).
    pub(super) fn stmt(&mut self, out: &mut Vec<Stmt>, first_in_branch: bool) {
        self.budget -= 1;
        if self.reduction.is_some() {
            return self.reduce(out);
        }
        let in_loop = self.loops > 0;
        let can_loop = self.loops < 3 && self.trips * 2 <= MAX_TRIPS && self.budget > 1;
        let can_if = self.branches < 2 && !first_in_branch && self.budget > 1;
        let has_data = self.visible().any(|v| v.kind == Kind::Data);
        let steps = self.has_steps();
        let w = [
            14,
            if self.loops < 2 { 6 } else { 2 },
            if in_loop { 3 } else { 0 },
            16,
            10,
            if can_loop { 10 } else { 0 },
            if can_if { 8 } else { 0 },
            if has_data && can_loop { 4 } else { 0 },
            if steps && can_loop { 5 } else { 0 },
        ];
        match self.rng.weighted(&w) {
            0 => self.let_real(out),
            1 => self.let_array(out),
            2 => self.let_int(out),
            3 => self.assign_real(out),
            4 => self.assign_elem(out),
            5 => self.for_loop(out),
            6 => self.if_stmt(out),
            7 => self.data_loop(out),
            _ => self.steps_loop(out),
        }
    }

    /// Whether the program takes a `steps: usize` trip count.
    pub(super) fn has_steps(&self) -> bool {
        self.visible().any(|v| v.param && v.name == "steps")
    }

    pub(super) fn let_real(&mut self, out: &mut Vec<Stmt>) {
        let name = self.fresh("s");
        let init = if self.rng.chance(15) { Expr::Lit(0.0) } else { self.expr(2) };
        let ty = ambiguous(&init).then(Vec::new);
        let assignable = self.rng.chance(60);
        self.declare(&name, Kind::Real, assignable);
        self.flows(&name, &init);
        out.push(Stmt::Let(name, ty, init));
    }

    pub(super) fn let_array(&mut self, out: &mut Vec<Stmt>) {
        let arrays: Vec<(String, Vec<Size>)> = self
            .visible()
            .filter(|v| !v.by_ref && self.readable(&v.name))
            .filter_map(|v| match &v.kind {
                Kind::Array(d) => Some((v.name.clone(), d.clone())),
                _ => None,
            })
            .collect();
        let name = self.fresh("y");
        let (init, dims) = match self.rng.below(5) {
            0 | 1 => {
                let lens = if self.rng.chance(75) {
                    vec![self.rng.between(1, 5)]
                } else {
                    vec![self.rng.between(1, 3), self.rng.between(1, 3)]
                };
                let dims: Vec<Size> = lens.into_iter().map(|n| self.size(n)).collect();
                (Expr::Zeros(dims.clone()), dims)
            }
            2 => {
                let n = self.rng.between(2, 4);
                let xs: Vec<Expr> = (0..n).map(|_| self.expr(1)).collect();
                (Expr::Array(xs), vec![Size { n, name: None }])
            }
            _ if arrays.is_empty() => return self.let_real(out),
            k => {
                let (a, d) = arrays[self.rng.below(arrays.len())].clone();
                if k == 3 && d.len() == 2 {
                    self.read(&a);
                    let i = self.index(&d[0]);
                    (Expr::Elem(a, vec![i]), d[1..].to_vec())
                } else {
                    self.read(&a);
                    (Expr::Var(a), d)
                }
            }
        };
        let ty = ambiguous(&init).then(|| dims.clone());
        let assignable = self.rng.chance(70);
        self.declare(&name, Kind::Array(dims), assignable);
        self.flows(&name, &init);
        out.push(Stmt::Let(name, ty, init));
    }

    /// `let n = (i + c) % L;` over a loop variable (not another integer `let`, which a removal of
    /// this one, if unread, would leave unread).
    pub(super) fn let_int(&mut self, out: &mut Vec<Stmt>) {
        let loops: Vec<String> = self
            .visible()
            .filter(|v| matches!(v.kind, Kind::Int { .. }) && !v.int_let)
            .map(|v| v.name.clone())
            .collect();
        if loops.is_empty() {
            return self.let_real(out);
        }
        let n = self.rng.between(2, 5);
        let len = self.size(n);
        let v = loops[self.rng.below(loops.len())].clone();
        self.read(&v);
        let sum = Int::Bin(
            IntOp::Add,
            Box::new(Int::Var(v)),
            Box::new(Int::Lit(self.rng.between(1, n - 1))),
        );
        let value = Int::Bin(IntOp::Rem, Box::new(sum), Box::new(size_int(&len)));
        let name = self.fresh("n");
        out.push(Stmt::LetInt(name.clone(), value));
        self.declare(&name, Kind::Int { lo: 0, hi: Some(n - 1) }, false);
        if let Some(v) = self.var_mut(&name) {
            v.int_let = true;
        }
    }

    /// A factor between about -1.5 and 1.5, for `*=`.
    pub(super) fn factor(&mut self) -> Expr {
        let k = self.rng.below(4);
        if k == 3 {
            return Expr::Lit(self.rng.pick(&[0.5, 0.75, 1.25]));
        }
        let e = self.nonconst(1);
        let s = self.squash(e);
        match k {
            0 => s,
            1 => bin(Op::Add, Expr::Lit(0.5), bin(Op::Mul, Expr::Lit(0.5), s)),
            _ => bin(Op::Add, Expr::Lit(1.0), bin(Op::Mul, Expr::Lit(0.25), s)),
        }
    }

    /// The new value of carried state `t`: a nonlinear function of it, so the macro must store
    /// it per iteration.
    pub(super) fn update(&mut self, t: &str) -> Expr {
        let var = Expr::Var(t.to_string());
        let e = self.expr(1);
        match self.rng.below(7) {
            0 => {
                let inner = bin(Op::Add, bin(Op::Mul, var, e), self.lit());
                self.squash(inner)
            }
            1 => {
                let s = self.squash(e);
                bin(Op::Add, bin(Op::Mul, var, s), self.expr(1))
            }
            2 => bin(Op::Add, bin(Op::Mul, Expr::Lit(0.5), var), e),
            3 => self.method("hypot", var, vec![e]),
            4 => {
                let name = if self.rng.chance(50) { "max" } else { "min" };
                self.method(name, var, vec![e])
            }
            5 => {
                let c = self.cond(0);
                let mut then = bin(Op::Mul, var.clone(), Expr::Lit(0.5));
                let mut els = self.squash(bin(Op::Add, var, e));
                distinct(&mut [&mut then, &mut els]);
                let block = |tail| super::super::ast::Block { stmts: vec![], tail };
                Expr::If(vec![(c, block(then))], Box::new(block(els)))
            }
            _ => {
                let sq = self.squash(var.clone());
                bin(Op::Add, bin(Op::Mul, sq, Expr::Lit(1.5)), bin(Op::Mul, e, Expr::Lit(0.5)))
            }
        }
    }

    pub(super) fn assign_real(&mut self, out: &mut Vec<Stmt>) {
        let targets = self.targets(false);
        if targets.is_empty() {
            return self.let_real(out);
        }
        let (t, ..) = targets[self.rng.below(targets.len())].clone();
        let (op, rhs) = match self.rng.weighted(&[5, 2, 2, 1, 5]) {
            0 => (Assign::Add, self.expr(2)),
            1 => (Assign::Sub, self.expr(2)),
            2 => (Assign::Mul, self.factor()),
            3 => (Assign::Div, self.positive(1)),
            _ => (Assign::Set, self.update(&t)),
        };
        // `t -= t` is no test of anything, and clippy flags `t += t + e`, `t *= e * t`.
        let rhs = if op == Assign::Sub && rhs == Expr::Var(t.clone()) { self.lit() } else { rhs };
        let rhs = not_misrefactored(op, &Expr::Var(t.clone()), rhs);
        let rhs = if op == Assign::Set { not_assign_op(&Expr::Var(t.clone()), rhs) } else { rhs };
        self.read(&t);
        self.flows(&t, &rhs);
        out.push(Stmt::Assign(Place::Var(t.clone()), op, rhs));
        self.wrote(&t);
    }

    pub(super) fn assign_elem(&mut self, out: &mut Vec<Stmt>) {
        let targets = self.targets(true);
        if targets.is_empty() {
            return self.let_array(out);
        }
        let (t, kind, _) = targets[self.rng.below(targets.len())].clone();
        let Kind::Array(dims) = kind else { return };
        let ix: Vec<Int> = dims.iter().map(|d| self.index(d)).collect();
        let (op, rhs) = match self.rng.weighted(&[8, 6, 2, 3, 1]) {
            0 => (Assign::Set, self.expr(2)),
            1 => (Assign::Add, self.expr(2)),
            2 => (Assign::Sub, self.expr(1)),
            3 => (Assign::Mul, self.factor()),
            _ => (Assign::Div, self.positive(1)),
        };
        let target = Expr::Elem(t.clone(), ix.clone());
        let rhs = not_misrefactored(op, &target, rhs);
        let rhs = if op == Assign::Set { not_assign_op(&target, rhs) } else { rhs };
        self.flows(&t, &rhs);
        out.push(Stmt::Assign(Place::Elem(t.clone(), ix), op, rhs));
        self.wrote(&t);
    }

    /// The output: every value still unread is added into it, so that nothing is unused.
    pub(super) fn tail(&mut self, out: &mut Vec<Stmt>, output: Output) -> Expr {
        for v in self.visible().filter(|v| v.int_let) {
            drop_unread_int(out, &v.name);
        }
        let pending: Vec<(String, Kind)> = self
            .visible()
            .filter(|v| v.pending && v.kind != Kind::Data && !v.int_let)
            .map(|v| (v.name.clone(), v.kind.clone()))
            .collect();
        let terms: Vec<Expr> = pending.iter().map(|(n, k)| self.consume(n, k)).collect();
        let m = match output {
            Output::Scalar => 1,
            Output::Array(m) | Output::Tuple(m) => m,
        };
        let mut parts: Vec<Expr> = (0..m).map(|_| self.nonconst(2)).collect();
        for (k, t) in terms.into_iter().enumerate() {
            let at = k % m;
            let old = std::mem::replace(&mut parts[at], Expr::Lit(0.0));
            parts[at] = bin(Op::Add, old, t);
        }
        match output {
            Output::Scalar => parts.pop().unwrap_or(Expr::Lit(0.0)),
            Output::Array(_) => Expr::Array(parts),
            Output::Tuple(_) => Expr::Tuple(parts),
        }
    }
}
