//! The one way IR is built: by lowering and by every rule and transform.
//!
//! In folding mode (used by the transforms) the builder simplifies what a careful person would
//! simplify by hand, and only where IEEE arithmetic gives the same value (up to the sign of a
//! zero): `x * 1`, `x + 0`, `-(-x)`, `x + -y` as `x - y`, `x + x` as `2 * x`, selects with
//! equal branches, `2 * (100 * b)` as `200 * b` (the one exception: if `100 * b` overflows or
//! underflows, the folded form is the more accurate); and it reuses an earlier statement that
//! computes the same thing (common subexpressions). Statements copied from the
//! primal are never simplified, so the value a generated function returns is bit for bit the
//! original function's.
//!
//! In every mode, `+ - * /` and negation of literals are evaluated at once: IEEE arithmetic gives
//! the same value at compile time as at run time, and an untyped float expression such as
//! `2.0 + 1.0` must not reach the generated code (rustc cannot call methods on `{float}`).

use std::collections::{HashMap, HashSet};

use super::{
    Block, Branch, Cond, Func, Int, Loop, LoopId, LoopInfo, Name, Operand, Prim, Stmt, Ty, Var,
};

/// Hashable identity of an operand, for common-subexpression lookup.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    Var(Var),
    Lit(u64),
    Ext(u32),
    Bool(bool),
    Int(String),
}

fn key(op: Operand) -> Key {
    match op {
        Operand::Var(v) => Key::Var(v),
        Operand::Lit(x) => Key::Lit(x.to_bits()),
        Operand::Ext(e) => Key::Ext(e.0),
        Operand::Bool(b) => Key::Bool(b),
    }
}

/// What a statement computes, for common-subexpression lookup.
#[derive(Clone, PartialEq, Eq, Hash)]
enum What {
    Op(Prim),
    Load,
}

/// The lookups of one open block: what its statements compute and which variables they replaced.
#[derive(Default)]
struct Scope {
    stmts: Block,
    seen: HashMap<(What, Vec<Key>), Var>,
    subst: HashMap<Var, Operand>,
}

/// Builds a [`Func`] statement by statement, block by block.
pub struct Builder {
    func: Func,
    fold: bool,
    /// The open blocks, innermost last; the first is the function's body.
    scopes: Vec<Scope>,
    /// The primitive and operands of every `Op` statement emitted, for folding.
    defs: HashMap<Var, (Prim, Vec<Operand>)>,
    /// Variables defined by copied statements (the primal, in a transform).
    copied: HashSet<Var>,
    /// The element of every array made by `Fill`, and the array, index and value of every
    /// `Store`, for reading an element back without a load.
    fills: HashMap<Var, Operand>,
    stores: HashMap<Var, (Vec<Int>, Operand)>,
}

impl Builder {
    /// A builder that records statements exactly as given (used by lowering).
    pub fn literal() -> Self {
        let func = Func {
            names: Vec::new(),
            types: Vec::new(),
            inputs: Vec::new(),
            user_inputs: 0,
            active: Vec::new(),
            exts: Vec::new(),
            loops: Vec::new(),
            body: Vec::new(),
            outputs: Vec::new(),
            accumulators: Vec::new(),
            scalar: super::Scalar::F64,
            accumulate: false,
            mixed: false,
        };
        Builder::new(func, false)
    }

    /// A folding builder that starts from `f`'s variables, inputs and constants, with no
    /// statements (used by the transforms, which copy `f`'s statements with [`Builder::copy`]).
    pub fn derive_from(f: &Func) -> Self {
        let func = Func { body: Vec::new(), outputs: Vec::new(), ..f.clone() };
        Builder::new(func, true)
    }

    fn new(func: Func, fold: bool) -> Self {
        Builder {
            func,
            fold,
            scopes: vec![Scope::default()],
            defs: HashMap::new(),
            copied: HashSet::new(),
            fills: HashMap::new(),
            stores: HashMap::new(),
        }
    }

    /// The number of statements of the function's own body emitted so far.
    pub fn top_len(&self) -> usize {
        self.scopes.first().map_or(0, |s| s.stmts.len())
    }

    /// The function built so far (without the statements of the open blocks).
    pub fn func(&self) -> &Func {
        &self.func
    }

    /// Mutable access, for lowering's bookkeeping (inputs, active set, constants).
    pub fn func_mut(&mut self) -> &mut Func {
        &mut self.func
    }

    /// A fresh variable with the given name and type, not yet defined.
    pub fn fresh(&mut self, name: Name, ty: Ty) -> Var {
        let v = Var(u32::try_from(self.func.names.len()).unwrap_or(u32::MAX));
        self.func.names.push(name);
        self.func.types.push(ty);
        v
    }

    /// A new input variable.
    pub fn input(&mut self, name: Name, ty: Ty) -> Var {
        let v = self.fresh(name, ty);
        self.func.inputs.push(v);
        v
    }

    /// A new loop index.
    pub fn new_loop(&mut self, info: LoopInfo) -> LoopId {
        let id = LoopId(u32::try_from(self.func.loops.len()).unwrap_or(u32::MAX));
        self.func.loops.push(info);
        id
    }

    /// The type of an operand.
    pub fn ty(&self, op: Operand) -> Ty {
        self.func.operand_ty(op)
    }

    /// The type of the value that `a` or `b` gives (two sides of a branch): a variable's, as a
    /// literal takes the type of where it is used.
    pub fn ty_either(&self, a: Operand, b: Operand) -> Ty {
        match (a, b) {
            (Operand::Lit(_) | Operand::Ext(_), Operand::Var(_)) => self.ty(b),
            _ => self.ty(a),
        }
    }

    /// The literal or constant `c` as a value of the other float type ([`Ty::Other`]), where
    /// a variable needs its type (`let mut s = 0.0_f64;` or `i as f64` in an `f32` function): a
    /// conversion of it, which codegen writes as the literal with its type's suffix, or as the
    /// constant's own tokens (which cast it).
    pub fn typed_other(&mut self, c: Operand) -> Operand {
        if let Operand::Ext(e) = c {
            self.func.exts[e.0 as usize].other = true;
        }
        let out = self.fresh(Name::temp(), Ty::Other);
        self.record_op(out, Prim::Convert, vec![c]);
        Operand::Var(out)
    }

    /// Opens a block: statements go into it until [`Builder::end`].
    pub fn begin(&mut self) {
        self.scopes.push(Scope::default());
    }

    /// Closes the innermost open block and returns its statements.
    pub fn end(&mut self) -> Block {
        match self.scopes.len() {
            0 | 1 => Vec::new(),
            _ => self.scopes.pop().map(|s| s.stmts).unwrap_or_default(),
        }
    }

    /// Closes the innermost open block, which yields `yields` (a loop body, a side of a branch):
    /// returns its statements and the yields resolved. Resolving must come first: a yield may be
    /// the result of a copied statement merged into an earlier one, and that record is the
    /// block's own, gone once the block is closed.
    pub fn end_yielding(&mut self, yields: &[Operand]) -> (Block, Vec<Operand>) {
        let yields = yields.iter().map(|y| self.resolve(*y)).collect();
        (self.end(), yields)
    }

    /// Reads `v` as `op` from here to the end of the innermost open block.
    pub fn map(&mut self, v: Var, op: Operand) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.subst.insert(v, op);
        }
    }

    /// Records that `prim(args)` is `v` from here to the end of the innermost open block, as if
    /// computed here: a later equal statement reads `v` instead (a value computed in a closed
    /// block and carried out of it).
    pub fn remember(&mut self, prim: Prim, args: &[Operand], v: Var) {
        let args: Vec<Operand> = args.iter().map(|a| self.resolve(*a)).collect();
        let k = Self::cse_key(prim, &args);
        self.scopes.last_mut().map(|s| s.seen.entry(k).or_insert(v));
    }

    /// Whether `v` is read as something else here ([`Builder::map`], or a merged statement).
    pub fn is_mapped(&self, v: Var) -> bool {
        self.scopes.iter().any(|s| s.subst.contains_key(&v))
    }

    /// `op`, or what replaced it (a statement merged into an earlier equal one, or a value
    /// mapped with [`Builder::map`]).
    pub fn resolve(&self, op: Operand) -> Operand {
        match op {
            Operand::Var(v) => {
                self.scopes.iter().rev().find_map(|s| s.subst.get(&v).copied()).unwrap_or(op)
            }
            other => other,
        }
    }

    /// Gives `op` the name `name` if it is a temporary defined by a statement (and says whether
    /// it did); otherwise leaves it.
    pub fn name_temp(&mut self, op: Operand, name: Name) -> bool {
        if let Operand::Var(v) = self.resolve(op)
            && self.defs.contains_key(&v)
            && self.func.names[v.index()].is_temp()
        {
            self.func.names[v.index()] = name;
            return true;
        }
        false
    }

    /// Renames the variable `v`, whatever its name.
    pub fn rename(&mut self, v: Var, name: Name) {
        self.func.names[v.index()] = name;
    }

    /// Appends a copy of an `Op` statement (its variable keeps its identity), unless an equal
    /// statement was already emitted: then the variable is read as that one's result.
    pub fn copy(&mut self, out: Var, prim: Prim, args: &[Operand]) {
        let args: Vec<Operand> = args.iter().map(|a| self.resolve(*a)).collect();
        if self.fold
            && let Some(v) = self.lookup(&Self::cse_key(prim, &args))
        {
            self.map(out, Operand::Var(v));
            self.name_temp(Operand::Var(v), self.func.names[out.index()].clone());
            return;
        }
        self.copied.insert(out);
        self.record_op(out, prim, args);
    }

    /// Appends a statement as it is, with its operands resolved (for statements other than
    /// `Op` that keep their variables, and for loops and branches built by a transform).
    pub fn emit(&mut self, stmt: Stmt) {
        let stmt = self.resolved(stmt);
        if let Stmt::Op { out, prim, args } = stmt {
            self.record_op(out, prim, args);
            return;
        }
        match &stmt {
            Stmt::Load { out, array, index } => {
                let k = Self::load_key(*array, index);
                self.scopes.last_mut().map(|s| s.seen.entry(k).or_insert(*out));
            }
            Stmt::Fill { out, value } if self.func.known_fill(*out) => {
                self.fills.insert(*out, *value);
            }
            Stmt::Store { out, index, value, .. } => {
                self.stores.insert(*out, (index.clone(), *value));
            }
            _ => {}
        }
        self.push_stmt(stmt);
    }

    /// `stmt` with its operands resolved (not those of its blocks), not yet emitted.
    pub fn resolved_copy(&self, stmt: Stmt) -> Stmt {
        self.resolved(stmt)
    }

    /// Whether `op` is a variable defined by a copied statement.
    pub fn is_copied(&self, op: Operand) -> bool {
        self.resolve(op).var().is_some_and(|v| self.copied.contains(&v))
    }

    /// Emits `prim(args)` as a temporary, or returns an equal operand that already exists.
    pub fn push(&mut self, prim: Prim, args: &[Operand]) -> Operand {
        self.push_named(Name::temp(), prim, args)
    }

    /// Emits `prim(args)` into a variable named `name`, or returns an equal existing operand.
    pub fn push_named(&mut self, name: Name, prim: Prim, args: &[Operand]) -> Operand {
        let args: &[Operand] = &args.iter().map(|a| self.resolve(*a)).collect::<Vec<_>>();
        if let Some(value) = literal_arithmetic(self.func.fold_scalar(), prim, args) {
            return Operand::Lit(value);
        }
        if self.fold {
            if let Some(done) = self.simplify(prim, args) {
                return done;
            }
            if let Some(v) = self.lookup(&Self::cse_key(prim, args)) {
                return Operand::Var(v);
            }
        }
        let out = self.fresh(name, self.op_ty(prim, args));
        self.record_op(out, prim, args.to_vec());
        Operand::Var(out)
    }

    /// The type of `prim(args)`: the float type of its variable operands (of its values, for a
    /// select), the function's scalar type when it reads none, the other one for a
    /// [`Prim::Convert`] from the scalar.
    pub fn op_ty(&self, prim: Prim, args: &[Operand]) -> Ty {
        let of = |ops: &[Operand]| {
            ops.iter()
                .filter_map(|a| a.var())
                .map(|v| self.func.ty(v))
                .find(|t| t.is_float())
                .cloned()
        };
        let own = match prim {
            Prim::Select(_) => of(&args[2..]).or_else(|| of(&args[..2])),
            Prim::PowiInt(_) => of(&args[..1]),
            Prim::IntAsF64(_) => None,
            _ => of(args),
        };
        let own = own.unwrap_or(Ty::F64);
        match prim {
            Prim::Convert => own.flipped().unwrap_or(Ty::Other),
            _ => own,
        }
    }

    /// Emits `prim(args)` for a value recomputed in the sweep: exactly as the primal computes it
    /// (no simplification, so the value is the same to the bit), reusing an equal statement.
    pub fn recompute(&mut self, name: Name, prim: Prim, args: &[Operand]) -> Operand {
        let args: Vec<Operand> = args.iter().map(|a| self.resolve(*a)).collect();
        if let Some(value) = literal_arithmetic(self.func.fold_scalar(), prim, &args) {
            return Operand::Lit(value);
        }
        if let Some(v) = self.lookup(&Self::cse_key(prim, &args)) {
            return Operand::Var(v);
        }
        let out = self.fresh(name, self.op_ty(prim, &args));
        self.record_op(out, prim, args);
        Operand::Var(out)
    }

    /// Emits `cond` as a boolean named `name`.
    pub fn test(&mut self, name: Name, cond: Cond) -> Var {
        let out = self.fresh(name, Ty::Bool);
        self.emit(Stmt::Test { out, cond });
        out
    }

    /// Emits `array[index]`, or returns an equal earlier load (arrays are values: the same
    /// array read at the same index gives the same value).
    pub fn load(&mut self, name: Name, array: Operand, index: Vec<Int>) -> Operand {
        self.load_into(None, name, array, index)
    }

    /// A copy of the load `out = array[index]` that keeps its variable, unless an equal load (or
    /// the stored or filled element itself) is already there: then that is returned.
    pub fn load_as(&mut self, out: Var, array: Operand, index: Vec<Int>) -> Operand {
        let name = self.func.names[out.index()].clone();
        self.load_into(Some(out), name, array, index)
    }

    fn load_into(
        &mut self,
        out: Option<Var>,
        name: Name,
        array: Operand,
        index: Vec<Int>,
    ) -> Operand {
        let Some(array) = self.resolve(array).var() else { return Operand::Lit(0.0) };
        if let Some(v) = self.lookup(&Self::load_key(array, &index)) {
            return Operand::Var(v);
        }
        let scalar = self.func.ty(array).shape().is_some_and(|s| s.dims.len() == index.len());
        if self.fold && scalar {
            if let Some(value) = self.fills.get(&array) {
                return *value;
            }
            if let Some((ix, value)) = self.stores.get(&array)
                && *ix == index
            {
                return *value;
            }
        }
        let ty = self.func.ty(array).indexed(index.len()).unwrap_or(Ty::F64);
        let out = out.unwrap_or_else(|| self.fresh(name, ty));
        self.emit(Stmt::Load { out, array, index });
        Operand::Var(out)
    }

    /// Emits `array` with `array[index] = value`, named `name`.
    pub fn store(
        &mut self,
        name: Name,
        array: Operand,
        index: Vec<Int>,
        value: Operand,
    ) -> Operand {
        let Some(array) = self.resolve(array).var() else { return array };
        let out = self.fresh(name, self.func.ty(array).clone());
        self.emit(Stmt::Store { out, array, index, value });
        Operand::Var(out)
    }

    /// Emits an array of type `ty` with every element `value`.
    pub fn fill(&mut self, name: Name, ty: Ty, value: Operand) -> Operand {
        let out = self.fresh(name, ty);
        self.emit(Stmt::Fill { out, value });
        Operand::Var(out)
    }

    /// Emits the array literal `[elems...]` of type `ty`.
    pub fn array(&mut self, name: Name, ty: Ty, elems: Vec<Operand>) -> Operand {
        let out = self.fresh(name, ty);
        self.emit(Stmt::Array { out, elems });
        Operand::Var(out)
    }

    /// Emits a loop (its blocks built with [`Builder::begin`] and [`Builder::end`]).
    pub fn emit_loop(&mut self, l: Loop) {
        self.emit(Stmt::For(Box::new(l)));
    }

    /// Emits a loop whose length is decided while it runs.
    pub fn emit_while(&mut self, w: super::While) {
        self.emit(Stmt::While(Box::new(w)));
    }

    /// Emits a branch (its blocks built with [`Builder::begin`] and [`Builder::end`]).
    pub fn emit_if(&mut self, b: Branch) {
        self.emit(Stmt::If(Box::new(b)));
    }

    /// Finishes the function with the given outputs.
    pub fn finish(mut self, outputs: Vec<Operand>) -> Func {
        self.func.outputs = outputs.into_iter().map(|o| self.resolve(o)).collect();
        while self.scopes.len() > 1 {
            self.end();
        }
        self.func.body = self.scopes.pop().map(|s| s.stmts).unwrap_or_default();
        self.func
    }

    /// The number of statements in the innermost open block.
    #[cfg(test)]
    pub fn open_len(&self) -> usize {
        self.scopes.last().map_or(0, |s| s.stmts.len())
    }

    /// The last statement of the innermost open block, if it is an `Op`.
    #[cfg(test)]
    pub fn last_op(&self) -> Option<(Var, Prim, Vec<Operand>)> {
        match self.scopes.last()?.stmts.last()? {
            Stmt::Op { out, prim, args } => Some((*out, *prim, args.clone())),
            _ => None,
        }
    }

    fn push_stmt(&mut self, stmt: Stmt) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.stmts.push(stmt);
        }
    }

    fn record_op(&mut self, out: Var, prim: Prim, args: Vec<Operand>) {
        let k = Self::cse_key(prim, &args);
        self.scopes.last_mut().map(|s| s.seen.entry(k).or_insert(out));
        self.defs.insert(out, (prim, args.clone()));
        self.push_stmt(Stmt::Op { out, prim, args });
    }

    /// `stmt` with its operands (not those of its blocks) resolved.
    fn resolved(&self, stmt: Stmt) -> Stmt {
        let r = |op: Operand| self.resolve(op);
        let rv = |v: Var| self.resolve(Operand::Var(v)).var().unwrap_or(v);
        match stmt {
            Stmt::Op { out, prim, args } => {
                Stmt::Op { out, prim, args: args.into_iter().map(r).collect() }
            }
            Stmt::Test { out, cond } => Stmt::Test { out, cond: self.resolve_cond(cond) },
            Stmt::Load { out, array, index } => Stmt::Load { out, array: rv(array), index },
            Stmt::Store { out, array, index, value } => {
                Stmt::Store { out, array: rv(array), index, value: r(value) }
            }
            Stmt::Fill { out, value } => Stmt::Fill { out, value: r(value) },
            Stmt::Array { out, elems } => {
                Stmt::Array { out, elems: elems.into_iter().map(r).collect() }
            }
            Stmt::For(mut l) => {
                for c in &mut l.carried {
                    c.init = r(c.init);
                }
                Stmt::For(l)
            }
            Stmt::While(mut w) => {
                w.first = r(w.first);
                for c in &mut w.carried {
                    c.init = r(c.init);
                }
                Stmt::While(w)
            }
            Stmt::If(mut b) => {
                b.cond = rv(b.cond);
                Stmt::If(b)
            }
            Stmt::Call(mut c) => {
                for a in &mut c.args {
                    if let crate::ir::Arg::Value { op, .. } = a {
                        *op = r(*op);
                    }
                }
                c.dirs = c.dirs.into_iter().map(r).collect();
                Stmt::Call(c)
            }
            Stmt::Checkpoint(mut c) => {
                c.state = c.state.into_iter().map(r).collect();
                for a in &mut c.adjoint {
                    a.init = r(a.init);
                }
                Stmt::Checkpoint(c)
            }
        }
    }

    fn resolve_cond(&self, c: Cond) -> Cond {
        match c {
            Cond::F64(cmp, a, b) => Cond::F64(cmp, self.resolve(a), self.resolve(b)),
            Cond::Int(..) => c,
            Cond::Var(v) => Cond::Var(self.resolve(Operand::Var(v)).var().unwrap_or(v)),
            Cond::Not(c) => Cond::Not(Box::new(self.resolve_cond(*c))),
            Cond::And(a, b) => {
                Cond::And(Box::new(self.resolve_cond(*a)), Box::new(self.resolve_cond(*b)))
            }
            Cond::Or(a, b) => {
                Cond::Or(Box::new(self.resolve_cond(*a)), Box::new(self.resolve_cond(*b)))
            }
        }
    }

    fn lookup(&self, k: &(What, Vec<Key>)) -> Option<Var> {
        self.scopes.iter().rev().find_map(|s| s.seen.get(k).copied())
    }

    fn cse_key(prim: Prim, args: &[Operand]) -> (What, Vec<Key>) {
        let mut keys: Vec<Key> = args.iter().map(|a| key(*a)).collect();
        if matches!(prim, Prim::Add | Prim::Mul) && keys.len() == 2 {
            let (a, b) = (&keys[0], &keys[1]);
            if format_key(b) < format_key(a) {
                keys.swap(0, 1);
            }
        }
        (What::Op(prim), keys)
    }

    fn load_key(array: Var, index: &[Int]) -> (What, Vec<Key>) {
        let mut keys = vec![Key::Var(array)];
        keys.extend(index.iter().map(|i| Key::Int(i.key())));
        (What::Load, keys)
    }

    /// The statement defining `op`, if it is a variable defined in this builder.
    fn def(&self, op: Operand) -> Option<Def> {
        let v = op.var()?;
        self.defs.get(&v).map(|(prim, args)| Def { prim: *prim, args: args.clone() })
    }

    /// The operand `-x` would fold to without a new statement, if any.
    fn negated(&self, x: Operand) -> Option<Operand> {
        if let Some(c) = x.lit() {
            return Some(Operand::Lit(-c));
        }
        self.def(x).filter(|s| s.prim == Prim::Neg).map(|s| s.args[0])
    }

    /// `b` when `op` is `-b` for a variable `b`, a negative literal, or a product by a negative
    /// literal (`b = 2 y` for `op = -2 y`), so that `x + op` can be written `x - b` (and `x - op`
    /// as `x + b`).
    fn flipped(&mut self, op: Operand) -> Option<Operand> {
        match op.lit() {
            Some(c) if c < 0.0 => Some(Operand::Lit(-c)),
            Some(_) => None,
            None => self.negated(op).or_else(|| {
                let s = self.def(op).filter(|s| s.prim == Prim::Mul)?;
                let (c, y) = match (s.args[0].lit(), s.args[1].lit()) {
                    (Some(c), _) => (c, s.args[1]),
                    (_, Some(c)) => (c, s.args[0]),
                    _ => return None,
                };
                (c < 0.0).then(|| self.push(Prim::Mul, &[Operand::Lit(-c), y]))
            }),
        }
    }

    /// Exact algebraic simplifications; `None` when the statement must be emitted.
    fn simplify(&mut self, prim: Prim, args: &[Operand]) -> Option<Operand> {
        let lit = |i: usize| args.get(i).and_then(|a| a.lit());
        let is = |i: usize, c: f64| lit(i) == Some(c);
        let is_zero = |i: usize| lit(i) == Some(0.0);
        match prim {
            Prim::Neg => self.negated(args[0]),
            Prim::Add if is_zero(1) => Some(args[0]),
            Prim::Add if is_zero(0) => Some(args[1]),
            Prim::Add if args[0] == args[1] => {
                Some(self.push(Prim::Mul, &[Operand::Lit(2.0), args[0]]))
            }
            Prim::Add => self.add_or_sub(args[0], args[1]),
            Prim::Sub if is_zero(1) => Some(args[0]),
            Prim::Sub if is_zero(0) => Some(self.push(Prim::Neg, &args[1..])),
            Prim::Sub => {
                let y = self.flipped(args[1])?;
                Some(self.push(Prim::Add, &[args[0], y]))
            }
            Prim::Mul if is(1, 1.0) => Some(args[0]),
            Prim::Mul if is(0, 1.0) => Some(args[1]),
            Prim::Mul if is(1, -1.0) => Some(self.push(Prim::Neg, &args[..1])),
            Prim::Mul if is(0, -1.0) => Some(self.push(Prim::Neg, &args[1..])),
            Prim::Div if is(1, 1.0) => Some(args[0]),
            Prim::Div if is(1, -1.0) => Some(self.push(Prim::Neg, &args[..1])),
            Prim::Mul | Prim::Div => {
                let folded = match (prim, lit(0), lit(1)) {
                    (Prim::Mul, Some(c), _) => self.scaled(args[1], c),
                    (Prim::Mul, _, Some(c)) => self.scaled(args[0], c),
                    _ => None,
                };
                folded.or_else(|| self.sign_out(prim, args[0], args[1]))
            }
            Prim::Powi(1) => Some(args[0]),
            Prim::Powi(0) => Some(Operand::Lit(1.0)),
            Prim::Powf if is(1, 1.0) => Some(args[0]),
            Prim::Select(_) if args[2] == args[3] => Some(args[2]),
            _ => None,
        }
    }

    /// `c · (d · y)` as `(c d) · y` for literals `c`, `d`, when one of them is a power of two and
    /// `c d` is a normal number (so that `c d` is exact, and the result the same unless `d · y`
    /// overflows or underflows, where the folded form is the more accurate); `None` otherwise.
    fn scaled(&mut self, y: Operand, c: f64) -> Option<Operand> {
        const MANTISSA: u64 = (1 << 52) - 1;
        let scalar = self.func.fold_scalar();
        let exact = |k: f64| scalar.is_normal(k) && k.to_bits() & MANTISSA == 0;
        let s = self.def(y).filter(|s| s.prim == Prim::Mul)?;
        let (d, z) = match (s.args[0].lit(), s.args[1].lit()) {
            (Some(d), _) => (d, s.args[1]),
            (_, Some(d)) => (d, s.args[0]),
            _ => return None,
        };
        if !(exact(c) || exact(d)) || !scalar.is_normal(c * d) {
            return None;
        }
        Some(self.push(Prim::Mul, &[Operand::Lit(c * d), z]))
    }

    /// `(-a) * b` as `-(a * b)`, and likewise for `a * (-b)` and division, so that the sign can
    /// fold into a surrounding sum; `None` when neither operand is a negated variable.
    fn sign_out(&mut self, prim: Prim, x: Operand, y: Operand) -> Option<Operand> {
        let unneg = |b: &Self, op: Operand| b.negated(op).filter(|_| op.lit().is_none());
        let (a, c) = match (unneg(self, x), unneg(self, y)) {
            (Some(a), _) => (a, y),
            (None, Some(c)) => (x, c),
            (None, None) => return None,
        };
        let inner = self.push(prim, &[a, c]);
        Some(self.push(Prim::Neg, &[inner]))
    }

    /// `x + y` rewritten without a negation (`x - b` for `y = -b`), or two complementary selects
    /// merged; `None` to emit the addition as it is.
    fn add_or_sub(&mut self, x: Operand, y: Operand) -> Option<Operand> {
        if let Some(b) = self.flipped(y) {
            return Some(self.push(Prim::Sub, &[x, b]));
        }
        if let Some(a) = self.flipped(x) {
            return Some(self.push(Prim::Sub, &[y, a]));
        }
        self.merge_selects(x, y)
    }

    /// `select(c, a, b) + select(c, d, e)` is `select(c, a + d, b + e)`: one branch instead of two.
    fn merge_selects(&mut self, x: Operand, y: Operand) -> Option<Operand> {
        let (sx, sy) = (self.def(x)?, self.def(y)?);
        let (Prim::Select(cx), Prim::Select(cy)) = (sx.prim, sy.prim) else { return None };
        if cx != cy || sx.args[..2] != sy.args[..2] {
            return None;
        }
        let (p, q, a, b, d, e) =
            (sx.args[0], sx.args[1], sx.args[2], sx.args[3], sy.args[2], sy.args[3]);
        let then = self.push(Prim::Add, &[a, d]);
        let otherwise = self.push(Prim::Add, &[b, e]);
        Some(self.push(Prim::Select(cx), &[p, q, then, otherwise]))
    }
}

/// A total order on keys, so that `a + b` and `b + a` share one lookup entry.
fn format_key(k: &Key) -> (u8, u64) {
    match k {
        Key::Var(v) => (0, u64::from(v.0)),
        Key::Lit(bits) => (1, *bits),
        Key::Ext(e) => (2, u64::from(*e)),
        Key::Bool(b) => (3, u64::from(*b)),
        Key::Int(_) => (4, 0),
    }
}

/// The primitive and operands that define a variable.
struct Def {
    prim: Prim,
    args: Vec<Operand>,
}

/// The value of `prim(args)` when it is `+ - * /` or negation of literals only, as the scalar
/// type computes it (see [`super::Scalar::fold`]).
fn literal_arithmetic(scalar: super::Scalar, prim: Prim, args: &[Operand]) -> Option<f64> {
    let lits: Vec<f64> = args.iter().map(|a| a.lit()).collect::<Option<_>>()?;
    let op: fn(&[f64]) -> f64 = match (prim, lits.as_slice()) {
        // Exact in every scalar type.
        (Prim::Neg, [a]) => return Some(-a),
        (Prim::Add, [_, _]) => |a| a[0] + a[1],
        (Prim::Sub, [_, _]) => |a| a[0] - a[1],
        (Prim::Mul, [_, _]) => |a| a[0] * a[1],
        (Prim::Div, [_, _]) => |a| a[0] / a[1],
        // A literal that both float types hold exactly is the same literal in either; another
        // is cast where it is used (whose type a literal does not know).
        (Prim::Convert, [a]) => return (f64::from(*a as f32) == *a || a.is_nan()).then_some(*a),
        _ => return None,
    };
    scalar.fold(&lits, op)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Cmp;

    fn folding() -> (Builder, Operand, Operand) {
        let mut b = Builder::derive_from(&Builder::literal().finish(Vec::new()));
        let x = Operand::Var(b.input(Name::user("x"), Ty::F64));
        let y = Operand::Var(b.input(Name::user("y"), Ty::F64));
        (b, x, y)
    }

    #[test]
    fn identities_fold_without_statements() {
        let (mut b, x, _) = folding();
        assert_eq!(b.push(Prim::Mul, &[x, Operand::Lit(1.0)]), x);
        assert_eq!(b.push(Prim::Add, &[Operand::Lit(0.0), x]), x);
        assert_eq!(b.push(Prim::Mul, &[Operand::Lit(2.0), Operand::Lit(3.0)]), Operand::Lit(6.0));
        let n = b.push(Prim::Neg, &[x]);
        assert_eq!(b.push(Prim::Neg, &[n]), x);
        assert_eq!(b.open_len(), 1);
    }

    #[test]
    fn plus_a_negation_is_a_subtraction_and_repeats_are_shared() {
        let (mut b, x, y) = folding();
        let ny = b.push(Prim::Neg, &[y]);
        let s = b.push(Prim::Add, &[x, ny]);
        let last = b.last_op().map(|s| s.1);
        assert_eq!(last, Some(Prim::Sub));
        assert_eq!(b.push(Prim::Sub, &[x, y]), s);
        let p = b.push(Prim::Mul, &[x, y]);
        assert_eq!(b.push(Prim::Mul, &[y, x]), p);
    }

    #[test]
    fn literal_scalings_fold_only_through_exact_powers_of_two() {
        let (mut b, x, _) = folding();
        let inner = b.push(Prim::Mul, &[Operand::Lit(100.0), x]);
        let folded = b.push(Prim::Mul, &[Operand::Lit(2.0), inner]);
        let last = b.last_op().map(|s| s.2);
        assert_eq!(last, Some(vec![Operand::Lit(200.0), x]));
        assert_ne!(folded, inner);
        // 16.000000000000004 is one ulp off 16: folding would round twice.
        let near = b.push(Prim::Mul, &[Operand::Lit(16.000000000000004), x]);
        let kept = b.push(Prim::Mul, &[Operand::Lit(3.0), near]);
        let args = b.last_op().map(|s| s.2);
        assert_eq!(args, Some(vec![Operand::Lit(3.0), near]));
        assert!(kept.var().is_some());
        // A product that underflows to zero is not folded either.
        let tiny = b.push(Prim::Mul, &[Operand::Lit(2.409919865102884e-181), x]);
        b.push(Prim::Mul, &[Operand::Lit(1e-200), tiny]);
        let args = b.last_op().map(|s| s.2);
        assert_eq!(args, Some(vec![Operand::Lit(1e-200), tiny]));
    }

    #[test]
    fn complementary_selects_merge() {
        let (mut b, x, y) = folding();
        let (zero, c) = (Operand::Lit(0.0), Prim::Select(Cmp::Gt));
        let a = b.push(c, &[x, zero, x, zero]);
        let d = b.push(c, &[x, zero, zero, y]);
        let sum = b.push(Prim::Add, &[a, d]);
        let def = b.last_op();
        assert_eq!(def.map(|s| (Operand::Var(s.0), s.2)), Some((sum, vec![x, zero, x, y])));
    }
}
