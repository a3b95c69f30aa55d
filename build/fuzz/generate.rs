//! Random programs over the subset `#[grad]` supports: parameters, then a body of `let`s,
//! assignments, `for` loops and `if`s, then an output. The generator tracks what is in scope so
//! that every program compiles, indexes in bounds, keeps loops short, and leaves no variable or
//! assignment unread (rustc would warn).

mod branch;
mod call;
mod cond;
mod expr;
mod guard;
mod int;
mod loops;
mod stmt;
mod tree;

use super::ast::{Checkpoint, Expr, Modes, Output, Param, Pass, Program, Size, Stmt};
use super::rng::Rng;

/// What a name in scope holds.
#[derive(Clone, PartialEq)]
enum Kind {
    /// An `f64`.
    Real,
    /// An array of `f64` with these lengths, outermost first.
    Array(Vec<Size>),
    /// An integer in `lo..=hi` (`hi` unknown for the variable of a loop over `data.len()`).
    Int { lo: usize, hi: Option<usize> },
    /// `&[f64]` data.
    Data,
}

/// A name in scope.
#[derive(Clone)]
struct Var {
    name: String,
    kind: Kind,
    /// A local the program may assign to (parameters are never assigned).
    assignable: bool,
    /// Written (declared or assigned) and not read since: must be read before it goes out of
    /// scope, or rustc would warn.
    pending: bool,
    /// A parameter taken by reference (`&[f64; N]`): read by element only.
    by_ref: bool,
    /// Depends on a differentiated parameter.
    active: bool,
    /// A parameter (not a local).
    param: bool,
    /// An integer `let` (not a loop variable).
    int_let: bool,
}

/// The state of the generator while it writes one program.
pub struct Gen {
    rng: Rng,
    /// Names in scope, innermost scope last.
    scopes: Vec<Vec<Var>>,
    /// A counter for fresh names.
    next: usize,
    /// `const` items the program declares.
    consts: Vec<(String, usize)>,
    /// Statements still to write.
    budget: i32,
    /// Enclosing loops, and the product of their largest trip counts.
    loops: usize,
    trips: usize,
    /// Enclosing `if`s.
    branches: usize,
    /// Inside a loop over `data.len()`: the accumulators it updates. The macro needs such a
    /// loop to be a reduction, so nothing in it may read them.
    reduction: Option<Vec<String>>,
    /// Inside a reduction over a ring `0..N`: its variable and `N`.
    ring: Option<(String, Size)>,
    /// The functions the program may call: name and parameters.
    callees: Vec<(String, Vec<Param>)>,
    /// A wide signature: 13 to 20 parameters, mostly `f64`s (past the 12 of tuples' traits).
    wide: bool,
}

/// How many `f64`s an array of these lengths holds (one for a scalar).
fn numel(dims: &[Size]) -> usize {
    dims.iter().map(|d| d.n).product()
}

impl Gen {
    fn new(seed: u64) -> Self {
        Gen {
            rng: Rng::new(seed),
            scopes: vec![Vec::new()],
            next: 0,
            consts: Vec::new(),
            budget: 0,
            loops: 0,
            trips: 1,
            branches: 0,
            reduction: None,
            ring: None,
            callees: Vec::new(),
            wide: false,
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    fn declare(&mut self, name: &str, kind: Kind, assignable: bool) {
        let var = Var {
            name: name.to_string(),
            kind,
            assignable,
            pending: true,
            by_ref: false,
            active: false,
            param: false,
            int_let: false,
        };
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(var);
        }
    }

    fn var_mut(&mut self, name: &str) -> Option<&mut Var> {
        self.scopes.iter_mut().rev().flat_map(|s| s.iter_mut()).find(|v| v.name == name)
    }

    /// Records a read of `name`.
    fn read(&mut self, name: &str) {
        if let Some(v) = self.var_mut(name) {
            v.pending = false;
        }
    }

    /// Records a write to `name`.
    fn wrote(&mut self, name: &str) {
        if let Some(v) = self.var_mut(name) {
            v.pending = true;
        }
    }

    /// The variables in scope, innermost last.
    fn visible(&self) -> impl Iterator<Item = &Var> {
        self.scopes.iter().flatten()
    }

    /// Whether `name` may be read here (not an accumulator of the enclosing reduction).
    fn readable(&self, name: &str) -> bool {
        self.reduction.as_ref().is_none_or(|accs| !accs.iter().any(|a| a == name))
    }

    /// Whether `e` reads a variable that depends on a differentiated parameter.
    fn is_active(&self, e: &Expr) -> bool {
        let mut names = Vec::new();
        tree::names(e, &mut names);
        self.visible().any(|v| v.active && names.contains(&v.name))
    }

    /// Marks `name` as depending on a differentiated parameter if `e` does.
    fn flows(&mut self, name: &str, e: &Expr) {
        let active = self.is_active(e);
        if let Some(v) = self.var_mut(name) {
            v.active |= active;
        }
    }

    /// A length `n`, written as a literal or, sometimes, as a `const` item.
    fn size(&mut self, n: usize) -> Size {
        if !self.rng.chance(30) {
            return Size { n, name: None };
        }
        if let Some((name, _)) = self.consts.iter().find(|(_, v)| *v == n) {
            return Size { n, name: Some(name.clone()) };
        }
        let name = format!("N{}", self.consts.len());
        self.consts.push((name.clone(), n));
        Size { n, name: Some(name) }
    }

    fn param(&mut self, k: usize) -> Param {
        let kind = self.rng.weighted(&[35, 30, 12, 10, 4, 9]);
        let (prefix, dims, pass) = match kind {
            0 => ("a", vec![], Pass::Value),
            1 => ("x", vec![self.rng.between(1, 5)], Pass::Value),
            2 => ("m", vec![self.rng.between(1, 3), self.rng.between(1, 3)], Pass::Value),
            3 => ("r", vec![self.rng.between(1, 5)], Pass::Ref),
            4 => ("q", vec![self.rng.between(1, 3), self.rng.between(1, 3)], Pass::Ref),
            _ if self.rng.chance(50) => ("c", vec![], Pass::Constant),
            _ => ("c", vec![self.rng.between(1, 5)], Pass::Constant),
        };
        let dims = dims.into_iter().map(|n| self.size(n)).collect();
        Param { name: format!("{prefix}{k}"), dims, pass }
    }

    fn params(&mut self) -> Vec<Param> {
        let count = match self.wide {
            true => self.rng.between(13, 20),
            false => 1 + self.rng.weighted(&[3, 4, 3, 2]),
        };
        let cap = if self.wide { 32 } else { 24 };
        let mut params: Vec<Param> = Vec::new();
        let mut active = 0;
        for k in 0..count {
            let p = match self.wide && self.rng.chance(75) {
                true => Param { name: format!("a{k}"), dims: vec![], pass: Pass::Value },
                false => self.param(k),
            };
            let n = numel(&p.dims);
            if p.pass != Pass::Constant && active + n > cap {
                continue;
            }
            if p.pass != Pass::Constant {
                active += n;
            }
            params.push(p);
        }
        if active == 0 {
            params.insert(0, Param { name: "a99".into(), dims: vec![], pass: Pass::Value });
        }
        // A constant array as long as an array parameter of a callee, which calls may pass whole.
        let lengths: Vec<usize> = self
            .callees
            .iter()
            .flat_map(|(_, ps)| ps.iter().filter(|p| p.dims.len() == 1).map(|p| p.dims[0].n))
            .collect();
        if !lengths.is_empty() && self.rng.chance(40) {
            let n = lengths[self.rng.below(lengths.len())];
            let at = self.rng.below(params.len() + 1);
            let dims = vec![self.size(n)];
            params.insert(at, Param { name: "c98".into(), dims, pass: Pass::Constant });
        }
        if self.rng.chance(30) {
            let at = self.rng.below(params.len() + 1);
            params.insert(at, Param { name: "data".into(), dims: vec![], pass: Pass::Data });
        }
        if self.rng.chance(15) {
            let at = self.rng.below(params.len() + 1);
            params.insert(at, Param { name: "steps".into(), dims: vec![], pass: Pass::Steps });
        }
        self.declare_params(&params);
        params
    }

    /// Brings `params` into scope.
    fn declare_params(&mut self, params: &[Param]) {
        for p in params {
            let kind = match (p.pass, p.dims.is_empty()) {
                (Pass::Data, _) => Kind::Data,
                (Pass::Steps, _) => Kind::Int { lo: 0, hi: Some(loops::MAX_STEPS) },
                (_, true) => Kind::Real,
                (_, false) => Kind::Array(p.dims.clone()),
            };
            self.declare(&p.name, kind, false);
            if let Some(v) = self.var_mut(&p.name) {
                v.by_ref = matches!(p.pass, Pass::Ref | Pass::Constant);
                v.active = matches!(p.pass, Pass::Value | Pass::Ref);
                v.param = true;
            }
        }
    }

    fn output(&mut self) -> Output {
        match self.rng.weighted(&[75, 18, 7]) {
            0 => Output::Scalar,
            1 => Output::Array(self.rng.between(2, 3)),
            _ => Output::Tuple(self.rng.between(2, 3)),
        }
    }
}

/// The program of `seed`.
pub fn program(seed: u64) -> Program {
    let mut g = Gen::new(seed);
    let callees = g.callees(seed);
    // Decided by a generator of its own, so that the other programs of a seed stay as they were.
    g.wide = Rng::new(seed ^ 0x7769_6465).chance(12);
    let params = g.params();
    let output = g.output();
    let modes = match output {
        Output::Scalar => Modes::Scalar { hessian: g.rng.chance(25) },
        _ => {
            Modes::Vector { forced: [None, None, Some("forward"), Some("reverse")][g.rng.below(4)] }
        }
    };
    let wrt = params.iter().any(|p| p.pass == Pass::Constant) || g.rng.chance(10);
    g.budget = g.rng.between(5, 14) as i32;
    let mut body: Vec<Stmt> = Vec::new();
    g.body(&mut body, output);
    let tail: Expr = g.tail(&mut body, output);
    let steps = params.iter().any(|p| p.pass == Pass::Steps);
    let loops = body.iter().any(|s| matches!(s, Stmt::For(..)));
    let checkpoint = (steps || (loops && g.rng.chance(25))).then(|| Checkpoint {
        snapshots: if steps || g.rng.chance(50) { Some(g.rng.between(1, 3)) } else { None },
    });
    let mut prog = Program {
        seed,
        consts: g.consts,
        params,
        body,
        tail,
        output,
        modes,
        wrt,
        callees,
        checkpoint,
        idiomatic: None,
        vary: super::vary::Vary::new(seed),
    };
    prog.idiomatic = super::idiom::program(&prog);
    prog
}
