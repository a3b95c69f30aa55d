//! Random statements: `let`s of scalars, arrays and integers, assignments to variables and
//! elements (carried state that loops update nonlinearly), `for` loops (literal and `const`
//! bounds, `..=`, `.rev()`, nested, triangular, over `data.len()` as reductions), `if`s, and the
//! output that reads every value still unread.

use super::super::ast::{Assign, Cond, Expr, Int, IntOp, Op, Output, Place, Range, Size, Stmt};
use super::super::print::{mutated, reads_int_stmt};
use super::expr::{ambiguous, distinct, fresh, not_assign_op, size_int, stmt_names};
use super::{Gen, Kind};

fn bin(op: Op, l: Expr, r: Expr) -> Expr {
    Expr::Bin(op, Box::new(l), Box::new(r))
}

/// `rhs` for `target op= rhs`, changed when clippy would read it as a misrefactored
/// `target op= target op e` (or `e op target` for `+` and `*`).
fn not_misrefactored(op: Assign, target: &Expr, rhs: Expr) -> Expr {
    let suspicious = match (op, &rhs) {
        (Assign::Add, Expr::Bin(Op::Add, l, r)) | (Assign::Mul, Expr::Bin(Op::Mul, l, r)) => {
            **l == *target || **r == *target
        }
        (Assign::Sub, Expr::Bin(Op::Sub, l, _)) | (Assign::Div, Expr::Bin(Op::Div, l, _)) => {
            **l == *target
        }
        _ => false,
    };
    if suspicious { bin(Op::Mul, Expr::Lit(0.5), rhs) } else { rhs }
}

/// Makes each value that a loop body assigns to a variable declared outside it (the values the
/// loop carries) one computed nowhere else (see `fresh`).
fn carried_fresh(body: &mut [Stmt]) {
    let locals: Vec<String> = body
        .iter()
        .filter_map(|s| match s {
            Stmt::Let(n, ..) => Some(n.clone()),
            _ => None,
        })
        .collect();
    for st in body.iter_mut() {
        if let Stmt::Assign(Place::Var(v), op, rhs) = st
            && !locals.contains(v)
        {
            let mut new = fresh(true, rhs.clone());
            if *op == Assign::Set {
                new = not_assign_op(&Expr::Var(v.clone()), new);
            }
            *rhs = new;
        }
    }
}

/// Removes `let name = ..;` if nothing else in `block` reads or writes `name`; whether it did.
fn drop_unused_let(block: &mut Vec<Stmt>, name: &str) -> bool {
    let is_let = |s: &Stmt| matches!(s, Stmt::Let(n, ..) if n == name);
    let used = block.iter().filter(|s| !is_let(s)).any(|s| {
        let mut names = Vec::new();
        stmt_names(s, &mut names);
        names.iter().any(|n| n == name)
    });
    if !used {
        block.retain(|s| !is_let(s));
    }
    !used
}

/// Removes `let name = ..;` (an integer) from `block` if nothing in it reads `name`.
fn drop_unread_int(block: &mut Vec<Stmt>, name: &str) {
    if !block.iter().any(|s| reads_int_stmt(s, name)) {
        block.retain(|s| !matches!(s, Stmt::LetInt(n, _) if n == name));
    }
}

/// The most iterations of the loops around one statement.
const MAX_TRIPS: usize = 64;

impl Gen {
    /// The assignable variables in scope of the given sort (scalars or arrays) that may be
    /// written here, with their kind and whether they are declared outside the innermost scope.
    /// Frozen variables may only be added to (`linear`).
    fn targets(&self, arrays: bool, linear: bool) -> Vec<(String, Kind, bool)> {
        let inner = self.scopes.len() - 1;
        let mut out = Vec::new();
        for (depth, scope) in self.scopes.iter().enumerate() {
            let frozen = |v: &&super::Var| {
                self.frozen.iter().any(|(f, at)| *f == v.name && (!linear || *at != self.loops))
            };
            for v in scope.iter().filter(|v| v.assignable).filter(|v| !frozen(v)) {
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
    fn consume(&mut self, name: &str, kind: &Kind) -> Expr {
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
    fn close_scope(&mut self, out: &mut Vec<Stmt>) {
        let Some(scope) = self.scopes.last().cloned() else { return };
        for v in scope.iter().filter(|v| v.pending && v.kind != Kind::Data && !v.int_let) {
            // A constant the program never used is dropped: folded, the macro leaves it unused
            // in its expansion (macro bug 9).
            if self.dodge && !v.active && drop_unused_let(out, &v.name) {
                continue;
            }
            let mut term = self.consume(&v.name, &v.kind);
            if self.dodge && !v.active {
                // The macro folds a constant, and adding zero would leave a branch's value
                // unchanged (macro bug 6).
                term = bin(Op::Add, term, self.active_leaf());
            }
            let outer: Vec<String> = self
                .targets(false, true)
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
        out.push(Stmt::Let(first.clone(), None, init));
        self.declare(&first, Kind::Real, true);
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
        if self.rng.chance(70) {
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
        let w = [
            14,
            if self.loops < 2 { 6 } else { 2 },
            if in_loop { 3 } else { 0 },
            16,
            10,
            if can_loop { 10 } else { 0 },
            if can_if { 8 } else { 0 },
            if has_data && can_loop { 4 } else { 0 },
        ];
        match self.rng.weighted(&w) {
            0 => self.let_real(out),
            1 => self.let_array(out),
            2 => self.let_int(out),
            3 => self.assign_real(out),
            4 => self.assign_elem(out),
            5 => self.for_loop(out),
            6 => self.if_stmt(out),
            _ => self.data_loop(out),
        }
    }

    fn let_real(&mut self, out: &mut Vec<Stmt>) {
        let name = self.fresh("s");
        let mut init = if self.rng.chance(15) { Expr::Lit(0.0) } else { self.expr(2) };
        if self.dodge && !self.is_active(&init) {
            init = match init {
                Expr::Lit(_) => self.active_leaf(),
                e => bin(Op::Add, e, self.active_leaf()),
            };
        }
        let ty = ambiguous(&init).then(Vec::new);
        let assignable = self.rng.chance(60);
        self.declare(&name, Kind::Real, assignable);
        self.flows(&name, &init);
        out.push(Stmt::Let(name, ty, init));
    }

    fn let_array(&mut self, out: &mut Vec<Stmt>) {
        let arrays: Vec<(String, Vec<Size>)> = self
            .visible()
            .filter(|v| !v.by_ref && self.readable(&v.name))
            .filter(|v| !(self.dodge && !v.param && !v.active))
            // Macro bug 8 of `tests/fuzz_found.rs`: a copy of an array parameter in a loop.
            .filter(|v| !(self.dodge && v.param && self.loops > 0))
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
                self.read(&a);
                if k == 3 && d.len() == 2 {
                    let i = self.index(&d[0]);
                    (Expr::Elem(a, vec![i]), d[1..].to_vec())
                } else {
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
    fn let_int(&mut self, out: &mut Vec<Stmt>) {
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
    fn factor(&mut self) -> Expr {
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
    fn update(&mut self, t: &str) -> Expr {
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
                let then = bin(Op::Mul, var.clone(), Expr::Lit(0.5));
                let els = self.squash(bin(Op::Add, var, e));
                let (mut then, mut els) = (fresh(self.dodge, then), fresh(self.dodge, els));
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

    fn assign_real(&mut self, out: &mut Vec<Stmt>) {
        let targets = self.targets(false, false);
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

    fn assign_elem(&mut self, out: &mut Vec<Stmt>) {
        let targets = self.targets(true, false);
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

    /// The range of a new loop, its variable's smallest and largest values, its largest trip
    /// count, and whether its end moves with an outer loop (the macro then stores nothing for
    /// it, so its body must be a reduction); `None` when the loops around leave no room.
    fn range(&mut self) -> Option<(Range, usize, usize, usize, bool)> {
        let room = (MAX_TRIPS / self.trips).min(8);
        if room < 2 {
            return None;
        }
        let sizes: Vec<Size> = self
            .visible()
            .filter_map(|v| match &v.kind {
                Kind::Array(d) => Some(d.clone()),
                _ => None,
            })
            .flatten()
            .filter(|s| s.n >= 2 && s.n <= room)
            .collect();
        let outer: Vec<(String, usize, usize)> = self
            .ints()
            .into_iter()
            .filter(|(v, ..)| !self.visible().any(|x| x.name == *v && x.int_let))
            .filter_map(|(v, lo, hi)| hi.map(|h| (v, lo, h)))
            .collect();
        let rev = self.rng.chance(25);
        let lit = Int::Lit;
        let range = |lo, hi, inclusive| Range { lo, hi, inclusive, rev };
        let (range, lo, hi, moves) =
            match self.rng.weighted(&[5, 3, 2, if outer.is_empty() { 0 } else { 4 }]) {
                0 if !sizes.is_empty() => {
                    let s = sizes[self.rng.below(sizes.len())].clone();
                    (range(lit(0), size_int(&s), false), 0, s.n - 1, false)
                }
                0 | 1 => {
                    let lo = self.rng.below(3);
                    let n = self.rng.between(1, room);
                    (range(lit(lo), lit(lo + n), false), lo, lo + n - 1, false)
                }
                2 => {
                    let lo = self.rng.below(2);
                    let n = self.rng.between(1, room);
                    (range(lit(lo), lit(lo + n - 1), true), lo, lo + n - 1, false)
                }
                _ => {
                    let (v, vlo, vhi) = outer[self.rng.below(outer.len())].clone();
                    let var = Int::Var(v.clone());
                    let n = self.rng.between(vhi + 1, vhi + room.min(5));
                    let r = match self.rng.below(4) {
                        0 if vlo + 2 <= n => {
                            let start = Int::Bin(IntOp::Add, Box::new(var), Box::new(lit(1)));
                            (range(start, lit(n), false), vlo + 1, n - 1, false)
                        }
                        1 if vlo < n => (range(var, lit(n), false), vlo, n - 1, false),
                        2 if vhi >= 1 && vhi <= room => {
                            (range(lit(0), var, false), 0, vhi - 1, true)
                        }
                        _ if vhi < room => (range(lit(0), var, true), 0, vhi, true),
                        _ => return None,
                    };
                    self.read(&v);
                    r
                }
            };
        let trips = hi + 1 - lo;
        (trips <= room).then_some((range, lo, hi, trips, moves))
    }

    /// Runs `body` in a new scope inside a loop of `trips` iterations over `var`.
    fn in_loop(
        &mut self,
        var: &str,
        lo: usize,
        hi: Option<usize>,
        trips: usize,
        stmts: usize,
    ) -> Vec<Stmt> {
        let mut body = Vec::new();
        self.scopes.push(Vec::new());
        self.declare(var, Kind::Int { lo, hi }, false);
        self.read(var);
        self.loops += 1;
        self.trips *= trips;
        let frozen = self.frozen.len();
        self.carried_update(&mut body);
        for _ in 1..stmts {
            if self.budget <= 0 {
                break;
            }
            self.stmt(&mut body, false);
        }
        self.close_scope(&mut body);
        self.frozen.truncate(frozen);
        self.loops -= 1;
        self.trips /= trips;
        self.freeze(&body);
        if self.dodge {
            carried_fresh(&mut body);
        }
        body
    }

    /// With `dodge`, inside a loop: the variables the loop just written updates are frozen
    /// until the end of the enclosing loop's body.
    fn freeze(&mut self, body: &[Stmt]) {
        if self.dodge && self.loops > 0 {
            let mut set = std::collections::HashSet::new();
            super::super::print::mutated(body, &mut set);
            let at = self.loops;
            self.frozen.extend(set.into_iter().map(|name| (name, at)));
        }
    }

    /// An update of a variable declared outside the innermost scope, so that a loop carries
    /// state.
    fn carried_update(&mut self, out: &mut Vec<Stmt>) {
        if self.reduction.is_some() {
            return self.reduce(out);
        }
        let arrays = self.targets(true, false).into_iter().any(|(_, _, outside)| outside);
        if arrays && self.rng.chance(40) {
            self.assign_elem(out);
        } else {
            self.assign_real(out);
        }
    }

    fn for_loop(&mut self, out: &mut Vec<Stmt>) {
        let Some((range, lo, hi, trips, moves)) = self.range() else {
            return self.assign_real(out);
        };
        self.ensure_target(out);
        if moves {
            return self.reduction_loop(out, range, lo, Some(hi), trips);
        }
        let var = ["i", "j", "k", "l"][self.loops].to_string();
        let stmts = self.rng.between(1, 4);
        let body = self.in_loop(&var, lo, Some(hi), trips, stmts);
        out.push(Stmt::For(var, range, body));
    }

    /// With `dodge`, declares a scalar before a loop when every one in scope is frozen, so that
    /// the loop's body has a variable to add its unread values to.
    fn ensure_target(&mut self, out: &mut Vec<Stmt>) {
        if self.dodge && self.targets(false, false).is_empty() {
            let name = self.fresh("s");
            let init = self.active_leaf();
            self.declare(&name, Kind::Real, true);
            self.flows(&name, &init);
            out.push(Stmt::Let(name, None, init));
        }
    }

    /// `for i in 0..data.len() { acc += ...; }`: a reduction, which is all the macro accepts
    /// over a length known only at run time.
    fn data_loop(&mut self, out: &mut Vec<Stmt>) {
        let Some(data) = self.visible().find(|v| v.kind == Kind::Data).map(|v| v.name.clone())
        else {
            return self.assign_real(out);
        };
        let range = Range {
            lo: Int::Lit(0),
            hi: Int::Len(data),
            inclusive: false,
            rev: self.rng.chance(20),
        };
        self.reduction_loop(out, range, 0, None, 1);
    }

    /// A loop whose body only adds to accumulators declared outside (new or existing ones) and
    /// reads none of them.
    fn reduction_loop(
        &mut self,
        out: &mut Vec<Stmt>,
        range: Range,
        lo: usize,
        hi: Option<usize>,
        trips: usize,
    ) {
        let mut accs: Vec<String> =
            self.targets(false, false).into_iter().map(|(n, ..)| n).collect();
        if accs.is_empty() || self.rng.chance(50) {
            let acc = self.fresh("s");
            out.push(Stmt::Let(acc.clone(), Some(vec![]), Expr::Lit(0.0)));
            self.declare(&acc, Kind::Real, true);
            accs = vec![acc];
        } else {
            let keep = self.rng.between(1, accs.len().min(2));
            let start = self.rng.below(accs.len() + 1 - keep);
            accs = accs[start..start + keep].to_vec();
        }
        let var = ["i", "j", "k", "l"][self.loops].to_string();
        let outer = self.reduction.replace(accs.clone());
        let stmts = self.rng.between(1, 3);
        let body = self.in_loop(&var, lo, hi, trips, stmts);
        self.reduction = outer;
        for a in &accs {
            self.wrote(a);
        }
        out.push(Stmt::For(var, range, body));
    }

    /// A statement of a reduction: a `let` read only inside, or `acc += e` / `acc -= e`.
    fn reduce(&mut self, out: &mut Vec<Stmt>) {
        if self.rng.chance(30) {
            return self.let_real(out);
        }
        let accs = self.reduction.clone().unwrap_or_default();
        let acc = accs[self.rng.below(accs.len())].clone();
        let op = if self.rng.chance(75) { Assign::Add } else { Assign::Sub };
        let data =
            self.visible().find(|v| v.kind == Kind::Data).map(|v| (v.name.clone(), v.pending));
        let index = self.ints().into_iter().find(|(_, _, hi)| hi.is_none()).map(|(i, ..)| i);
        let rhs = match (data, index) {
            (Some((d, pending)), Some(i)) if pending || self.rng.chance(40) => {
                self.read(&d);
                self.read(&i);
                bin(Op::Mul, Expr::Data(d, Int::Var(i)), self.expr(1))
            }
            _ => self.expr(2),
        };
        self.flows(&acc, &rhs);
        out.push(Stmt::Assign(Place::Var(acc), op, rhs));
    }

    fn branch_body(&mut self) -> Vec<Stmt> {
        let mut body = Vec::new();
        self.scopes.push(Vec::new());
        let n = self.rng.between(1, 3);
        for k in 0..n {
            if k > 0 && self.budget <= 0 {
                break;
            }
            self.stmt(&mut body, k == 0);
        }
        self.close_scope(&mut body);
        if body.is_empty() {
            // Everything it declared went unused and was dropped: an empty branch is no test.
            self.scopes.push(Vec::new());
            self.assign_real(&mut body);
            self.close_scope(&mut body);
        }
        body
    }

    /// Whether each variable in scope is unread since written, and whether it depends on a
    /// differentiated parameter.
    fn pending_state(&self) -> Vec<(bool, bool)> {
        self.visible().map(|v| (v.pending, v.active)).collect()
    }

    /// Adds the flags at the end of a branch to `after`, and restores `before` for the next
    /// branch.
    fn merge_pending(&mut self, after: &mut [(bool, bool)], before: &[(bool, bool)]) {
        let end = self.pending_state();
        after.iter_mut().zip(end).for_each(|(a, e)| *a = (a.0 | e.0, a.1 | e.1));
        self.set_pending(before);
    }

    /// Sets the flags of the variables in scope (those of `pending_state`).
    fn set_pending(&mut self, state: &[(bool, bool)]) {
        for (v, p) in self.scopes.iter_mut().flatten().zip(state) {
            (v.pending, v.active) = *p;
        }
    }

    /// An `if` statement. Each branch starts from the unread flags before it; after it, a
    /// variable is unread if some path left it so (rustc warns when no path reads a value).
    fn if_stmt(&mut self, out: &mut Vec<Stmt>) {
        self.branches += 1;
        let before = self.pending_state();
        let mut after = vec![(false, false); before.len()];
        let mut arms = Vec::new();
        let count = if self.rng.chance(30) { 2 } else { 1 };
        // One list for all the conditions: clippy flags an `else if` repeating a condition.
        let mut used = Vec::new();
        for _ in 0..count {
            let c = self.cond_in(2, &mut used);
            let body = self.branch_body();
            arms.push((c, body));
            self.merge_pending(&mut after, &before);
        }
        let els = self.rng.chance(60).then(|| self.branch_body());
        if els.is_some() {
            self.merge_pending(&mut after, &before);
        } else {
            after.iter_mut().zip(&before).for_each(|(a, b)| *a = (a.0 | b.0, a.1 | b.1));
        }
        self.set_pending(&after);
        self.branches -= 1;
        let (arms, els) =
            if self.dodge { self.every_branch_computes(arms, els) } else { (arms, els) };
        out.push(Stmt::If(arms, els));
    }

    /// With `dodge`: an `else` always, each scalar that a branch assigns assigned in every
    /// branch, and each value a branch assigns computed nowhere else (macro bugs 5 and 6 of
    /// `tests/fuzz_found.rs`: a branch yielding a value that exists before it).
    #[allow(clippy::type_complexity)]
    fn every_branch_computes(
        &mut self,
        arms: Vec<(Cond, Vec<Stmt>)>,
        els: Option<Vec<Stmt>>,
    ) -> (Vec<(Cond, Vec<Stmt>)>, Option<Vec<Stmt>>) {
        let mut bodies: Vec<Vec<Stmt>> = arms.iter().map(|(_, b)| b.clone()).collect();
        bodies.push(els.unwrap_or_default());
        let mut assigned = std::collections::HashSet::new();
        bodies.iter().for_each(|b| mutated(b, &mut assigned));
        let scalars: Vec<String> = self
            .visible()
            .filter(|v| v.kind == Kind::Real && assigned.contains(&v.name))
            .map(|v| v.name.clone())
            .collect();
        for (arm, body) in bodies.iter_mut().enumerate() {
            for st in body.iter_mut() {
                if let Stmt::Assign(Place::Var(v), op, rhs) = st {
                    // A factor per branch too: clippy flags branches that differ only in the
                    // names of their locals.
                    let scaled = match arm {
                        0 => rhs.clone(),
                        _ => bin(Op::Mul, Expr::Lit(1.0 + arm as f64 / 64.0), rhs.clone()),
                    };
                    let mut new = fresh(true, scaled);
                    if *op == Assign::Set {
                        new = not_assign_op(&Expr::Var(v.clone()), new);
                    }
                    *rhs = new;
                }
            }
            let mut here = std::collections::HashSet::new();
            mutated(body, &mut here);
            // A distinct constant per variable: two variables given one value break it too.
            for (k, t) in scalars.iter().enumerate().filter(|(_, t)| !here.contains(*t)) {
                // Distinct per branch too: clippy flags branches with the same body.
                let c = 0.0625 + k as f64 / 512.0 + arm as f64 / 64.0;
                body.push(Stmt::Assign(Place::Var(t.clone()), Assign::Add, Expr::Lit(c)));
            }
        }
        for t in &scalars {
            self.wrote(t);
        }
        let els = bodies.pop().filter(|b| !b.is_empty());
        let arms = arms.into_iter().zip(bodies).map(|((c, _), b)| (c, b)).collect();
        (arms, els)
    }

    /// The output: every value still unread is added into it, so that nothing is unused.
    pub(super) fn tail(&mut self, out: &mut Vec<Stmt>, output: Output) -> Expr {
        for v in self.visible().filter(|v| v.int_let) {
            drop_unread_int(out, &v.name);
        }
        let unused: Vec<String> = self
            .visible()
            .filter(|v| self.dodge && v.pending && !v.param && !v.active && v.kind != Kind::Data)
            .map(|v| v.name.clone())
            .collect();
        let dropped: Vec<String> =
            unused.into_iter().filter(|name| drop_unused_let(out, name)).collect();
        let pending: Vec<(String, Kind)> = self
            .visible()
            .filter(|v| v.pending && v.kind != Kind::Data && !v.int_let)
            .filter(|v| !dropped.contains(&v.name))
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
