//! The call twin `f_call` (issue 15): the program with a piece of its body, a run of its
//! top-level `let`s and assignments or the body of one of its top-level loops, moved into a
//! `#[grad(jvp, hvp)]` helper `g90` that returns what the rest of the program reads of it: an
//! array (`[f64; 2]`, or the one array it updates), or a tuple (of `f64`s, or of `f64`s and
//! arrays). The twin calls it, binds the result (`let (t9000, t9001) = g90(s1, &y2, i);`, `let
//! [t9000, t9001]: [f64; 2] = ..`, `y2 = g90(..);`, or `let y2 = g90(..);` without the type
//! when the program indexes `y2`) and assigns the parts to its variables. The
//! helper takes what the piece reads from before it (`f64`s and arrays by value, some arrays by
//! `&`, the parameters taken by reference as they are, loop variables and integer `let`s as
//! `usize`, data as `&[f64]`) and starts with `let mut v = v;` for what it updates. Some helpers
//! return a `#[derive(Differentiable)]` struct `G90Out` instead, a field per output (`out0`,
//! `out1`, ...), which the twin binds with its type (`let t9000: G90Out = g90(..);`), or without
//! it when the helper is `G90Out`'s associated function (`let t9000 = G90Out::g90(..);`) or,
//! half the time, a free one (`let t9000 = g90(..);`, typed by `g90_value`), and reads
//! by field (`v = t9000.out0;`, `let v = t9000.out0;`, or `let v: [f64; 2] = t9000.out0;` for
//! an array the program never indexes, which `#[grad]` would take for an `f64`); that choice
//! comes from a generator of its own, so that the pieces do not change.
//!
//! The helper does the piece's arithmetic in the piece's order, so the values, `_jvp` (forward
//! mode: each operation's tangent, with zero directions for the constants the helper takes as
//! parameters) and a Jacobian computed in forward mode are `f`'s to the bit. Reverse mode goes
//! through `g90_vjp`, whose contract sums the cotangent of each of its inputs over the piece's
//! reads before the caller adds it to the rest: where the piece reads an input more than once (or
//! in an inner loop), that is another order of summation than `f`'s sweep, so the gradient, H·w,
//! the Hessian and a Jacobian in reverse mode are compared to rounding (the generator says
//! which); where it reads each once, to the bit. Which programs have a twin and which piece it
//! moves come from a generator of its own (seeded from the program's seed), so that the programs
//! themselves do not change.
//!
//! A piece that calls a function is exact in reverse mode but not in second order: `f_hvp`'s
//! forward sweep gives a call's value the tangent `∂g/∂x · ẋ`, from the partials `g_hvp` returns
//! (the scalar call contract), where `f_call_hvp`'s runs the helper's forward mode,
//! `g90_jvp`, which gives it `g_jvp`'s tangent, `g`'s own forward mode: the same derivative,
//! rounded otherwise (seed 300354: one ulp, in H·w of a loop that scales the call's value).
//! `f_call_hvp` must take `g90_jvp`'s tangents before its sweep, which alone gives the
//! cotangents `g90_hvp` needs; `f_hvp` gets its partials from the one `g_hvp` call it makes
//! anyway. So H·w and the Hessian of such a twin are compared to rounding.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use super::ast::{Assign, Expr, Int, Pass, Place, Program, Size, Stmt};
use super::idiom::walk::{
    assigned, cond_names, declared, expr_names, map_cond, map_expr, map_stmts, stmt_names,
};
use super::print::{Flavor, Printer, array_type, mutated, output_type, range_text};
use super::rng::Rng;
use super::vary::Vary;

/// The helper's name: a callee's name to `vary.rs` (`g` and digits), none of the program's.
pub const HELPER: &str = "g90";

/// The struct a helper returns, when it returns one.
const OUT_STRUCT: &str = "G90Out";

/// The name of `G90Out`'s field for the helper's `k`-th output (not a name of the program's,
/// which `vary.rs` may rename).
fn field(k: usize) -> String {
    format!("out{k}")
}

/// The type of a name the piece reads or writes.
#[derive(Clone, PartialEq)]
enum Ty {
    /// An `f64` (no lengths) or an owned array.
    Float(Vec<Size>),
    /// A parameter taken by reference, `&[f64; N]`.
    Ref(Vec<Size>),
    Int,
    Data,
}

/// The piece moved into the helper, and its interface.
pub struct Piece {
    /// The top-level statements `lo..hi`, or, when `in_loop`, the body of the loop at `lo`.
    lo: usize,
    hi: usize,
    in_loop: bool,
    /// What it reads from before it, in order, and the arrays of those it takes by `&`.
    inputs: Vec<(String, Ty)>,
    by_ref: HashSet<String>,
    /// The inputs it updates (`let mut v = v;`), and the names from before it that it writes
    /// whole before reading (declared by the helper at that write).
    carried: Vec<String>,
    fresh: Vec<String>,
    /// What it gives the rest of the program, and those of them it declares.
    outputs: Vec<(String, Vec<Size>)>,
    declared: HashSet<String>,
    /// The arrays among those it declares that the program never reads by every index: bound
    /// from `G90Out` with their type (`let y: [f64; 2] = t9000.out0;`), since `#[grad]` types a
    /// field of a call's struct read whole from how the rest indexes it (`let y = t9000.out0;`
    /// then `y[i]`), and takes one that is never indexed for an `f64` (bug 48).
    typed: HashSet<String>,
    /// Whether the helper returns a tuple (else an array, or its one array output).
    tuple: bool,
    /// Whether its value is bound without its type: its one array output, declared by it and
    /// read by every index in the program (`let y = g90(..);`: `#[grad]` reads its lengths from
    /// `g90_shape`), or the array of its `f64` outputs (`let [t9000, t9001] = g90(..);`).
    untyped: bool,
    /// Whether the helper returns the struct `G90Out` (then `tuple` is not read).
    strukt: bool,
    /// Whether that helper is an associated function of `G90Out`, called `G90Out::g90(..)` and
    /// bound without its type (`#[grad]` takes the value of `Type::f(..)` read as a struct to
    /// be a `Type`).
    assoc: bool,
    /// Whether a free helper returning `G90Out` is bound without its type too
    /// (`let t9000 = g90(..);`: `#[grad]` names `g90_value`, the alias it writes next to `g90`).
    free_untyped: bool,
    /// Whether its reverse-mode derivatives are `f`'s to the bit.
    pub exact: bool,
    /// Whether its H·w and Hessian are `f`'s to the bit: `exact`, and the piece calls no
    /// function (see the module's doc).
    pub exact_second: bool,
}

/// The types of the program's parameters and of every name its body declares (the generator's
/// names are unique in a program).
fn types(prog: &Program) -> HashMap<String, Ty> {
    let mut env = HashMap::new();
    for p in &prog.params {
        let ty = match p.pass {
            Pass::Data => Ty::Data,
            Pass::Steps => Ty::Int,
            Pass::Ref => Ty::Ref(p.dims.clone()),
            Pass::Constant if !p.dims.is_empty() => Ty::Ref(p.dims.clone()),
            _ => Ty::Float(p.dims.clone()),
        };
        env.insert(p.name.clone(), ty);
    }
    declare(&prog.body, &mut env);
    env
}

fn declare(stmts: &[Stmt], env: &mut HashMap<String, Ty>) {
    for s in stmts {
        match s {
            Stmt::Let(n, ty, e) => {
                let t = match ty {
                    Some(dims) => Ty::Float(dims.clone()),
                    None => infer(e, env),
                };
                env.insert(n.clone(), t);
                declare_expr(e, env);
            }
            Stmt::LetInt(n, _) => {
                env.insert(n.clone(), Ty::Int);
            }
            Stmt::For(v, _, body) => {
                env.insert(v.clone(), Ty::Int);
                declare(body, env);
            }
            Stmt::If(arms, els) => {
                arms.iter().for_each(|(_, b)| declare(b, env));
                els.iter().for_each(|b| declare(b, env));
            }
            Stmt::Assign(_, _, e) => declare_expr(e, env),
            _ => {}
        }
    }
}

/// The `let`s in the blocks of `if` values.
fn declare_expr(e: &Expr, env: &mut HashMap<String, Ty>) {
    let found = std::cell::RefCell::new(Vec::new());
    let visit = |x: &Expr| {
        if let Expr::If(arms, els) = x {
            for b in arms.iter().map(|(_, b)| b).chain(std::iter::once(&**els)) {
                found.borrow_mut().push(b.stmts.clone());
            }
        }
        None
    };
    map_expr(e, &visit);
    for stmts in found.into_inner() {
        declare(&stmts, env);
    }
}

/// The type of a `let`'s initial value.
fn infer(e: &Expr, env: &HashMap<String, Ty>) -> Ty {
    let dims = |t: &Ty| match t {
        Ty::Float(d) | Ty::Ref(d) => d.clone(),
        _ => Vec::new(),
    };
    match e {
        Expr::Var(x) | Expr::Deref(x) => Ty::Float(env.get(x).map(dims).unwrap_or_default()),
        Expr::Elem(a, ix) => {
            let d = env.get(a).map(dims).unwrap_or_default();
            Ty::Float(d.get(ix.len()..).unwrap_or_default().to_vec())
        }
        Expr::Array(xs) => {
            let mut d = vec![Size { n: xs.len(), name: None }];
            if let Some(Ty::Float(inner)) = xs.first().map(|x| infer(x, env)) {
                d.extend(inner);
            }
            Ty::Float(d)
        }
        Expr::Zeros(d) => Ty::Float(d.clone()),
        Expr::If(_, els) => infer(&els.tail, env),
        _ => Ty::Float(Vec::new()),
    }
}

/// Whether `s` reads or writes `v`.
fn mentions(s: &Stmt, v: &str) -> bool {
    let mut names = HashSet::new();
    stmt_names(s, &mut names);
    names.contains(v) || assigned(std::slice::from_ref(s)).iter().any(|a| a == v)
}

fn reads(s: &Stmt, v: &str) -> bool {
    let mut names = HashSet::new();
    stmt_names(s, &mut names);
    names.contains(v)
}

/// Running `stmts`: `Some(true)` if `v` may be read before it is written whole, `Some(false)` if
/// it is written whole first on every path, `None` if neither.
fn upward(stmts: &[Stmt], v: &str) -> Option<bool> {
    for s in stmts {
        let found = match s {
            Stmt::Assign(Place::Var(x), Assign::Set, rhs) if x == v => {
                let mut names = HashSet::new();
                expr_names(rhs, &mut names);
                Some(names.contains(v))
            }
            Stmt::For(_, _, body) => match reads(s, v) {
                true => upward(body, v).filter(|r| *r).or(Some(true)),
                false => None,
            },
            Stmt::If(arms, els) => {
                let mut conds = HashSet::new();
                arms.iter().for_each(|(c, _)| cond_names(c, &mut conds));
                let sides: Vec<Option<bool>> = arms
                    .iter()
                    .map(|(_, b)| upward(b, v))
                    .chain(std::iter::once(els.as_deref().and_then(|b| upward(b, v))))
                    .collect();
                if conds.contains(v) || sides.contains(&Some(true)) {
                    Some(true)
                } else if els.is_some() && sides.iter().all(|r| *r == Some(false)) {
                    Some(false)
                } else {
                    None
                }
            }
            _ => reads(s, v).then_some(true),
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Whether `v`'s value after the statements before `rest` is read.
fn live(rest: &[Stmt], tail: &Expr, v: &str) -> bool {
    upward(rest, v).unwrap_or_else(|| {
        let mut names = HashSet::new();
        expr_names(tail, &mut names);
        names.contains(v)
    })
}

/// A read of a name: an element at literal indices, or anything else (`None`).
type Read = Option<Vec<usize>>;

/// What `stmts` read of each name, and the names read inside their inner loops.
fn counts(stmts: &[Stmt], out: &mut HashMap<String, Vec<Read>>, looped: &mut HashSet<String>) {
    let found = std::cell::RefCell::new(Vec::new());
    let visit = |x: &Expr| {
        let read = match x {
            Expr::Var(n) | Expr::Deref(n) => (n.clone(), None),
            Expr::Elem(n, ix) => {
                let lits: Option<Vec<usize>> =
                    ix.iter().map(|i| if let Int::Lit(k) = i { Some(*k) } else { None }).collect();
                (n.clone(), lits)
            }
            _ => return None,
        };
        found.borrow_mut().push(read);
        None
    };
    for s in stmts {
        match s {
            Stmt::For(_, _, body) => {
                let mut names = HashSet::new();
                stmt_names(s, &mut names);
                looped.extend(names);
                counts(body, out, looped);
            }
            Stmt::If(arms, els) => {
                arms.iter().for_each(|(c, _)| {
                    map_cond(c, &visit);
                });
                arms.iter().for_each(|(_, b)| counts(b, out, looped));
                els.iter().for_each(|b| counts(b, out, looped));
            }
            Stmt::Assign(place, op, _) => {
                match (place, *op != Assign::Set) {
                    (Place::Var(n), true) => found.borrow_mut().push((n.clone(), None)),
                    (Place::Elem(n, ix), true) => {
                        visit(&Expr::Elem(n.clone(), ix.clone()));
                    }
                    _ => {}
                }
                map_stmts(std::slice::from_ref(s), &visit);
            }
            _ => {
                map_stmts(std::slice::from_ref(s), &visit);
            }
        }
    }
    for (n, read) in found.into_inner() {
        out.entry(n).or_default().push(read);
    }
}

/// Whether `reads` may read one element (or a scalar) more than once.
fn repeated(reads: &[Read]) -> bool {
    let mut seen = HashSet::new();
    reads.len() > 1 && !reads.iter().all(|r| r.as_ref().is_some_and(|ix| seen.insert(ix.clone())))
}

/// The call twin of `prog`, if it has one (a quarter of the programs, where a piece fits: the
/// default run's build time is CI's budget).
pub fn piece(prog: &Program) -> Option<Piece> {
    let mut rng = Rng::new(prog.seed ^ 0x6361_6c6c_7477);
    if !rng.chance(25) {
        return None;
    }
    let body = &prog.body;
    let mut candidates: Vec<(usize, usize, bool)> = Vec::new();
    for (k, s) in body.iter().enumerate() {
        match s {
            // A loop over `data.len()` must stay a reduction to the macro.
            Stmt::For(_, r, b) if !b.is_empty() && !has_len(&r.lo) && !has_len(&r.hi) => {
                candidates.push((k, k + 1, true))
            }
            Stmt::Let(..) | Stmt::Assign(..) => {
                let run = body[k..]
                    .iter()
                    .take_while(|s| matches!(s, Stmt::Let(..) | Stmt::Assign(..)))
                    .count();
                candidates.push((k, k + rng.between(1, run.min(4)), false));
            }
            _ => {}
        }
    }
    // Some candidates in a random order; an exact one, if any, for most twins, so that most are
    // compared to the bit.
    let mut found = Vec::new();
    while !candidates.is_empty() && found.len() < 4 {
        let (lo, hi, in_loop) = candidates.swap_remove(rng.below(candidates.len()));
        found.extend(interface(prog, lo, hi, in_loop, &mut rng));
    }
    let exact = found.iter().position(|p| p.exact).filter(|_| rng.chance(70));
    match exact {
        Some(k) => Some(found.swap_remove(k)),
        None => found.into_iter().next(),
    }
}

/// The names that may hold a value computed from a differentiated parameter (flow-insensitive).
fn active_names(prog: &Program) -> HashSet<String> {
    let mut active: HashSet<String> = prog
        .params
        .iter()
        .filter(|p| matches!(p.pass, Pass::Value | Pass::Ref))
        .map(|p| p.name.clone())
        .collect();
    let writes: Vec<&Stmt> = simple(&prog.body);
    loop {
        let before = active.len();
        for s in &writes {
            let (name, e) = match s {
                Stmt::Let(n, _, e) => (n, e),
                Stmt::Assign(Place::Var(n) | Place::Elem(n, _), _, e) => (n, e),
                _ => continue,
            };
            let mut read = HashSet::new();
            expr_names(e, &mut read);
            if read.iter().any(|r| active.contains(r)) {
                active.insert(name.clone());
            }
        }
        if active.len() == before {
            return active;
        }
    }
}

/// Whether `i` reads a length (`data.len()`).
fn has_len(i: &Int) -> bool {
    match i {
        Int::Len(_) => true,
        Int::Bin(_, l, r) => has_len(l) || has_len(r),
        _ => false,
    }
}

/// The interface of the piece at `lo..hi`, if the helper can take it.
fn interface(prog: &Program, lo: usize, hi: usize, in_loop: bool, rng: &mut Rng) -> Option<Piece> {
    let env = types(prog);
    let stmts: &[Stmt] = match (&prog.body[lo], in_loop) {
        (Stmt::For(_, _, b), true) => b,
        _ => &prog.body[lo..hi],
    };
    let rest = &prog.body[hi..];
    let mut inside = HashSet::new();
    declared(stmts, &mut inside);
    // And the `let`s in the blocks of its `if` values.
    let mut local = HashMap::new();
    declare(stmts, &mut local);
    inside.extend(local.into_keys());
    let mut read = HashSet::new();
    stmts.iter().for_each(|s| stmt_names(s, &mut read));
    let written: Vec<String> =
        assigned(stmts).into_iter().filter(|v| !inside.contains(v)).collect();
    // In order of first mention.
    let mut order: Vec<String> = Vec::new();
    let mut all = HashSet::new();
    for s in stmts {
        let mut names = HashSet::new();
        stmt_names(s, &mut names);
        let mut names: Vec<String> = names.into_iter().collect();
        names.sort();
        names.extend(assigned(std::slice::from_ref(s)));
        for n in names {
            if all.insert(n.clone()) {
                order.push(n);
            }
        }
    }
    let mut inputs = Vec::new();
    let mut carried = Vec::new();
    let mut fresh = Vec::new();
    for n in order.iter().filter(|n| !inside.contains(*n)) {
        let Some(ty) = env.get(n) else { continue };
        let writes = written.contains(n);
        // Written whole before it is read: the helper declares it there.
        let first = stmts.iter().find(|s| mentions(s, n));
        let killed = matches!(first, Some(Stmt::Assign(Place::Var(x), Assign::Set, rhs))
            if x == n && !{ let mut r = HashSet::new(); expr_names(rhs, &mut r); r.contains(n) });
        if writes && killed {
            fresh.push(n.clone());
            continue;
        }
        if !read.contains(n) && !writes {
            continue;
        }
        if writes {
            carried.push(n.clone());
        }
        inputs.push((n.clone(), ty.clone()));
    }
    let mut outputs = Vec::new();
    let mut declared_out = HashSet::new();
    for v in &written {
        let carried_on = in_loop && upward(stmts, v) == Some(true);
        if carried_on || live(rest, &prog.tail, v) {
            outputs.push((v.clone(), float_dims(env.get(v))?));
        }
    }
    if !in_loop {
        for s in stmts {
            if let Stmt::Let(n, _, _) = s
                && live(rest, &prog.tail, n)
            {
                outputs.push((n.clone(), float_dims(env.get(n))?));
                declared_out.insert(n.clone());
            }
        }
    }
    // A call whose arguments are all constants is a constant to the macro, its value untyped
    // (open macro bug 33, `tests/fuzz_found.rs`): the helper takes a differentiated value.
    let active = active_names(prog);
    if outputs.is_empty() || !inputs.iter().any(|(n, _)| active.contains(n)) {
        return None;
    }
    // By `&` only an array the piece reads by element (a copy of a reference is a reference).
    let whole = std::cell::RefCell::new(HashSet::new());
    map_stmts(stmts, &|x: &Expr| {
        if let Expr::Var(n) | Expr::Deref(n) = x {
            whole.borrow_mut().insert(n.clone());
        }
        None
    });
    let whole = whole.into_inner();
    let by_ref = inputs
        .iter()
        .filter(|(n, t)| matches!(t, Ty::Float(d) if !d.is_empty()) && !carried.contains(n))
        .filter(|(n, _)| !whole.contains(n))
        .filter(|_| rng.chance(50))
        .map(|(n, _)| n.clone())
        .collect();
    let scalars = outputs.iter().all(|(_, d)| d.is_empty());
    let tuple = match outputs.len() {
        1 => false,
        _ => !scalars || rng.chance(50),
    };
    let (mut count, mut looped) = (HashMap::new(), HashSet::new());
    counts(stmts, &mut count, &mut looped);
    let floats: HashSet<&String> = inputs
        .iter()
        .filter(|(_, t)| matches!(t, Ty::Float(_) | Ty::Ref(_)))
        .map(|(n, _)| n)
        .collect();
    // A value the piece reads several times: the helper sums those cotangents first, so `f`'s
    // sweep must reach them first too (in a segment, nothing after it reads the value; in a
    // loop's body, each iteration reads its own value, carried from the one before).
    let mut outside = HashSet::new();
    prog.body[..lo].iter().chain(rest).for_each(|s| stmt_names(s, &mut outside));
    expr_names(&prog.tail, &mut outside);
    let mut after = HashSet::new();
    rest.iter().for_each(|s| stmt_names(s, &mut after));
    expr_names(&prog.tail, &mut after);
    // A scalar the piece assigns whole at its top level: what is read after it is another value.
    let fresh_after =
        |n: &str| stmts.iter().any(|s| matches!(s, Stmt::Assign(Place::Var(v), ..) if v == n));
    // A copy made before the piece (`let mut s = x;`) is `x` itself to the macro: the cotangents
    // of what reads `x` after the piece reach it first in `f`'s sweep (seed 7118, bug 52), and
    // in `f_call`'s they may not, even when the piece reads the copy once: the sweep adds the
    // call's cotangent where the call is, and sums the later scalar reads' with the earlier
    // ones (seed 9930, bug 60).
    // A copy of an array's element (`let mut s1 = m0[0][0];`) is that element to the macro,
    // and the array's later reads reach it first in `f`'s sweep as well (seed 1168, bug 71).
    let copies: HashMap<&str, &str> = prog.body[..lo]
        .iter()
        .filter_map(|s| match s {
            Stmt::Let(n, _, Expr::Var(src) | Expr::Elem(src, _)) => {
                Some((n.as_str(), src.as_str()))
            }
            _ => None,
        })
        .collect();
    let source_read_after = |n: &str| {
        let mut at = n;
        for _ in 0..copies.len() {
            match copies.get(at) {
                Some(src) if after.contains(*src) => return true,
                Some(src) => at = src,
                None => return false,
            }
        }
        false
    };
    // And the other way (seed 4411 × 1, bug 68): the piece reads `x` and a copy of it made
    // before the piece (`let s3 = s1;`) is read after it: to the macro those are reads of `x`,
    // which `f`'s sweep sums with the piece's own reads of `x`.
    let copy_read_after = |n: &str| {
        copies.keys().any(|c| {
            let mut at = *c;
            for _ in 0..copies.len() {
                match copies.get(at) {
                    Some(src) if *src == n => return after.contains(*c),
                    Some(src) => at = src,
                    None => return false,
                }
            }
            false
        })
    };
    // An array the piece reads by element and code after it reads again (seed 438, bug 72): the
    // macro loads an element of an array it does not write once, so the piece's read and a later
    // one (`let y4 = x0; s1 += y4[0];`) are one value whose cotangents `f`'s sweep sums before
    // adding them into the array's adjoint, where `f_call`'s adds the call's by itself.
    let array_read_after = |n: &str| {
        after.contains(n)
            && inputs
                .iter()
                .any(|(m, t)| m == n && matches!(t, Ty::Float(d) | Ty::Ref(d) if !d.is_empty()))
    };
    let once = floats.iter().all(|n| {
        let many = count.get(*n).is_some_and(|r| repeated(r)) || looped.contains(*n);
        let fresh = match in_loop {
            true => carried.contains(*n),
            false => (!after.contains(*n) || fresh_after(n)) && !copy_read_after(n),
        };
        // A loop's sweep sums the cotangent of a value it does not update in an accumulator of
        // its own, added to the value's after the loop; through the call, each iteration adds.
        let invariant = in_loop && !carried.contains(*n) && outside.contains(*n);
        (!many || fresh) && !source_read_after(n) && !invariant && !array_read_after(n)
    });
    let exact = once && !shared(prog, stmts, lo, hi, &floats);
    let exact_second = exact && !calls(stmts);
    // A generator of its own: the pieces, and their other choices, stay what they were.
    let strukt = Rng::new(prog.seed ^ 0x7374_7275_6374).chance(40);
    let assoc = strukt && Rng::new(prog.seed ^ 0x0061_7373_6f63).chance(50);
    let bare = Rng::new(prog.seed ^ 0x0073_6861_7065).chance(50);
    let free_untyped = strukt && !assoc && bare;
    let untyped = bare
        && (matches!(outputs.as_slice(), [(v, d)] if !d.is_empty() && indexed(prog, v, d.len()))
            || !tuple);
    let typed = outputs
        .iter()
        .filter(|(v, d)| !d.is_empty() && declared_out.contains(v) && !indexed(prog, v, d.len()))
        .map(|(v, _)| v.clone())
        .collect();
    let piece = Piece {
        lo,
        hi,
        in_loop,
        inputs,
        by_ref,
        carried,
        fresh,
        outputs,
        declared: declared_out,
        typed,
        tuple,
        untyped,
        strukt,
        assoc,
        free_untyped,
        exact,
        exact_second,
    };
    Some(piece)
}

/// Whether the program reads `v` by `rank` indices somewhere (`v[i][j]` for a matrix).
fn indexed(prog: &Program, v: &str, rank: usize) -> bool {
    let found = std::cell::Cell::new(false);
    let check = |e: &Expr| {
        if let Expr::Elem(n, ix) = e
            && n == v
            && ix.len() == rank
        {
            found.set(true);
        }
        None
    };
    map_stmts(&prog.body, &check);
    map_expr(&prog.tail, &check);
    found.get()
}

/// Whether `stmts` call a function (the program's callees: no closure is in a call twin's
/// program, which is printed in index form).
fn calls(stmts: &[Stmt]) -> bool {
    subexpressions(stmts, None).iter().any(|e| matches!(e, Expr::Call(..)))
}

/// The subexpressions of `stmts` (and of `tail`).
fn subexpressions(stmts: &[Stmt], tail: Option<&Expr>) -> Vec<Expr> {
    let found = std::cell::RefCell::new(Vec::new());
    let visit = |x: &Expr| {
        found.borrow_mut().push(x.clone());
        None
    };
    map_stmts(stmts, &visit);
    if let Some(t) = tail {
        map_expr(t, &visit);
    }
    found.into_inner()
}

/// The `let`s and assignments of `stmts`, in their loops and branches too.
fn simple(stmts: &[Stmt]) -> Vec<&Stmt> {
    stmts
        .iter()
        .flat_map(|s| match s {
            Stmt::For(_, _, b) => simple(b),
            Stmt::If(arms, els) => {
                let mut all: Vec<&Stmt> = arms.iter().flat_map(|(_, b)| simple(b)).collect();
                all.extend(els.iter().flat_map(|b| simple(b)));
                all
            }
            _ => vec![s],
        })
        .collect()
}

/// Whether an expression of the piece that reads one of `floats` is also an expression of the
/// program outside it: the macro reads such an expression once (`x[k]` loaded once, `a.sin()`
/// computed once), so `f`'s sweep sums its cotangents over both places before it adds them to
/// the input's, where the helper's `_vjp` adds the piece's share on its own.
fn shared(prog: &Program, stmts: &[Stmt], lo: usize, hi: usize, floats: &HashSet<&String>) -> bool {
    let mut outside: Vec<Stmt> = prog.body[..lo].to_vec();
    outside.extend(prog.body[hi..].iter().cloned());
    // A copy (`let y = x;`) is `x` itself to the macro: reads of `y` after the piece are reads
    // of `x`, summed with its other reads first; so when `x` is read after the piece too, an
    // input or a value the piece makes and returns beside its copy (seed 7118 again, bug 61:
    // `let s = a.asinh().powi(2); let c = s;` both returned, `f`'s sweep sums the reads of both
    // in one adjoint, the helper's adds the two outputs' cotangents at the end).
    let mut read_outside = HashSet::new();
    outside.iter().for_each(|s| stmt_names(s, &mut read_outside));
    expr_names(&prog.tail, &mut read_outside);
    let copied = simple(stmts).into_iter().any(|s| match s {
        Stmt::Let(y, _, Expr::Var(n)) | Stmt::Assign(Place::Var(y), Assign::Set, Expr::Var(n)) => {
            read_outside.contains(n) && (floats.contains(n) || read_outside.contains(y))
        }
        Stmt::Assign(_, Assign::Set, Expr::Var(n)) => {
            floats.contains(n) && read_outside.contains(n)
        }
        _ => false,
    });
    if copied {
        return true;
    }
    let others = subexpressions(&outside, Some(&prog.tail));
    subexpressions(stmts, None).iter().any(|e| {
        // A name is its value: no computation to share.
        if matches!(e, Expr::Var(_) | Expr::Deref(_) | Expr::Ref(_)) {
            return false;
        }
        let mut names = HashSet::new();
        expr_names(e, &mut names);
        names.iter().any(|n| floats.contains(n)) && others.contains(e)
    })
}

/// The lengths of a float's type (`None` for an integer or data, which a helper does not return).
fn float_dims(t: Option<&Ty>) -> Option<Vec<Size>> {
    match t? {
        Ty::Float(d) => Some(d.clone()),
        _ => None,
    }
}

/// The `#[allow]` of every printed function.
const ALLOW: &str = "#[allow(clippy::needless_range_loop, clippy::manual_memcpy, clippy::if_same_then_else, clippy::too_many_arguments, clippy::neg_cmp_op_on_partial_ord)]";

impl Piece {
    fn ret_type(&self) -> String {
        let types: Vec<String> = self.outputs.iter().map(|(_, d)| array_type("f64", d)).collect();
        match (self.tuple, self.outputs.as_slice()) {
            // An associated function names `Self`, which tells `#[grad]` it is in an `impl`.
            _ if self.assoc => "Self".to_string(),
            _ if self.strukt => OUT_STRUCT.to_string(),
            (true, _) => format!("({})", types.join(", ")),
            (false, [(_, d)]) if !d.is_empty() => types[0].clone(),
            (false, _) => format!("[f64; {}]", types.len()),
        }
    }

    /// The helper `g90`.
    fn helper(&self, prog: &Program) -> String {
        let stmts: Vec<Stmt> = match (&prog.body[self.lo], self.in_loop) {
            (Stmt::For(_, _, b), true) => b.clone(),
            _ => prog.body[self.lo..self.hi].to_vec(),
        };
        // The first write of a name it does not take is its declaration.
        let env = types(prog);
        let mut declared_here: HashSet<String> = HashSet::new();
        let stmts: Vec<Stmt> = stmts
            .into_iter()
            .map(|s| match s {
                Stmt::Assign(Place::Var(v), Assign::Set, rhs)
                    if self.fresh.contains(&v) && !declared_here.contains(&v) =>
                {
                    declared_here.insert(v.clone());
                    let dims = float_dims(env.get(&v)).unwrap_or_default();
                    Stmt::Let(v, Some(dims), rhs)
                }
                s => s,
            })
            .collect();
        let mut set = HashSet::new();
        mutated(&stmts, &mut set);
        set.extend(self.carried.iter().cloned());
        let mut p = Printer::new(Flavor::Macro, set);
        let _ = writeln!(p.out, "#[grad(jvp, hvp)]\n{ALLOW}");
        let params: Vec<String> = self
            .inputs
            .iter()
            .map(|(n, t)| {
                let ty = match t {
                    Ty::Float(d) if self.by_ref.contains(n) => format!("&{}", array_type("f64", d)),
                    Ty::Float(d) => array_type("f64", d),
                    Ty::Ref(d) => format!("&{}", array_type("f64", d)),
                    Ty::Int => "usize".to_string(),
                    Ty::Data => "&[f64]".to_string(),
                };
                format!("{n}: {ty}")
            })
            .collect();
        let _ = writeln!(p.out, "pub fn {HELPER}({}) -> {} {{", params.join(", "), self.ret_type());
        for v in &self.carried {
            p.line(1, &format!("let mut {v} = {v};"));
        }
        p.stmts(&stmts, 1);
        let names: Vec<&str> = self.outputs.iter().map(|(n, _)| n.as_str()).collect();
        let tail = match (self.tuple, names.as_slice()) {
            _ if self.strukt => {
                let fields: Vec<String> =
                    names.iter().enumerate().map(|(k, n)| format!("{}: {n}", field(k))).collect();
                let ty = if self.assoc { "Self" } else { OUT_STRUCT };
                format!("{ty} {{ {} }}", fields.join(", "))
            }
            (true, _) => format!("({})", names.join(", ")),
            (false, [n]) if !self.outputs[0].1.is_empty() => n.to_string(),
            (false, _) => format!("[{}]", names.join(", ")),
        };
        p.line(1, &tail);
        p.line(0, "}");
        let consts: Vec<String> = prog.consts.iter().map(|(c, _)| c.clone()).collect();
        let helper = Vary { generic: false, ..prog.vary }.apply(&p.out, HELPER, &consts);
        match self.assoc {
            true => format!("{}impl {OUT_STRUCT} {{\n{helper}}}\n", self.out_struct()),
            false => self.out_struct() + &helper,
        }
    }

    /// The definition of `G90Out`, if the helper returns it.
    fn out_struct(&self) -> String {
        if !self.strukt {
            return String::new();
        }
        let fields = self.outputs.iter().enumerate();
        let fields: Vec<String> = fields
            .map(|(k, (_, d))| format!("pub {}: {}", field(k), array_type("f64", d)))
            .collect();
        format!(
            "#[derive(Clone, Copy, autodiff_runtime::Differentiable)]\npub struct {OUT_STRUCT} {{ {} }}\n",
            fields.join(", ")
        )
    }

    /// The call and the bindings of its result, at `depth`.
    fn call(&self, p: &mut Printer, depth: usize) {
        let args: Vec<String> = self
            .inputs
            .iter()
            .map(|(n, _)| if self.by_ref.contains(n) { format!("&{n}") } else { n.clone() })
            .collect();
        let path = if self.assoc { format!("{OUT_STRUCT}::{HELPER}") } else { HELPER.to_string() };
        let call = format!("{path}({})", args.join(", "));
        let mutated = p.mutated.clone();
        let let_ = |v: &str| if mutated.contains(v) { "let mut" } else { "let" };
        if self.strukt {
            let t = "t9000";
            match self.assoc || self.free_untyped {
                true => p.line(depth, &format!("let {t} = {call};")),
                false => p.line(depth, &format!("let {t}: {OUT_STRUCT} = {call};")),
            }
            for (k, (v, d)) in self.outputs.iter().enumerate() {
                let f = field(k);
                let text = match self.declared.contains(v) {
                    true if self.typed.contains(v) => {
                        format!("{} {v}: {} = {t}.{f};", let_(v), array_type("f64", d))
                    }
                    true => format!("{} {v} = {t}.{f};", let_(v)),
                    false => format!("{v} = {t}.{f};"),
                };
                p.line(depth, &text);
            }
            return;
        }
        if let (false, [(v, d)]) = (self.tuple, self.outputs.as_slice())
            && !d.is_empty()
        {
            let text = match self.declared.contains(v) {
                true if self.untyped => format!("{} {v} = {call};", let_(v)),
                true => format!("{} {v}: {} = {call};", let_(v), array_type("f64", d)),
                false => format!("{v} = {call};"),
            };
            p.line(depth, &text);
            return;
        }
        let temps: Vec<String> =
            (0..self.outputs.len()).map(|k| format!("t{}", 9000 + k)).collect();
        // A tuple's parts are `f64`s to the macro unless its type is written.
        let arrays = self.outputs.iter().any(|(_, d)| !d.is_empty());
        let head = match self.tuple {
            true if arrays => format!("let ({}): {}", temps.join(", "), self.ret_type()),
            true => format!("let ({})", temps.join(", ")),
            false if self.untyped => format!("let [{}]", temps.join(", ")),
            false => format!("let [{}]: [f64; {}]", temps.join(", "), temps.len()),
        };
        p.line(depth, &format!("{head} = {call};"));
        for ((v, _), t) in self.outputs.iter().zip(&temps) {
            let text = match self.declared.contains(v) {
                true => format!("{} {v} = {t};", let_(v)),
                false => format!("{v} = {t};"),
            };
            p.line(depth, &text);
        }
    }
}

/// `f_call`'s attribute: `f`'s.
fn attribute(prog: &Program) -> String {
    let mut opts = Vec::new();
    if prog.wrt {
        let names: Vec<&str> = prog
            .params
            .iter()
            .filter(|p| matches!(p.pass, Pass::Value | Pass::Ref))
            .map(|p| p.name.as_str())
            .collect();
        opts.push(format!("wrt({})", names.join(", ")));
    }
    opts.extend(super::emit::mode_options(prog.modes));
    format!("#[grad({})]", opts.join(", "))
}

/// The call twin `f_call` of `prog` and its helper, if it has one.
pub fn twin(prog: &Program) -> Option<String> {
    let piece = piece(prog)?;
    let helper = piece.helper(prog);
    // What `f_call` assigns: the program's statements but the piece's, and the piece's outputs.
    let kept: Vec<Stmt> = prog
        .body
        .iter()
        .enumerate()
        .filter(|(k, _)| !(piece.lo..piece.hi).contains(k))
        .map(|(_, s)| s.clone())
        .collect();
    let mut set = HashSet::new();
    mutated(&kept, &mut set);
    set.extend(
        piece.outputs.iter().filter(|(v, _)| !piece.declared.contains(v)).map(|(v, _)| v.clone()),
    );
    let mut p = Printer::new(Flavor::Macro, set);
    let _ = writeln!(p.out, "{}\n{ALLOW}", attribute(prog));
    let params: Vec<String> = prog
        .params
        .iter()
        .map(|q| {
            let t = array_type("f64", &q.dims);
            let t = match q.pass {
                Pass::Data => "&[f64]".to_string(),
                Pass::Steps => "usize".to_string(),
                Pass::Ref => format!("&{t}"),
                Pass::Constant if !q.dims.is_empty() => format!("&{t}"),
                _ => t,
            };
            format!("{}: {t}", q.name)
        })
        .collect();
    let out = output_type(prog.output, Flavor::Macro);
    let _ = writeln!(p.out, "pub fn f_call({}) -> {out} {{", params.join(", "));
    for (k, s) in prog.body.iter().enumerate() {
        match s {
            Stmt::For(var, range, _) if k == piece.lo && piece.in_loop => {
                let reads = piece.inputs.iter().any(|(n, _)| n == var);
                let var = if reads { var.as_str() } else { "_" };
                p.line(1, &format!("for {var} in {} {{", range_text(range)));
                piece.call(&mut p, 2);
                p.line(1, "}");
            }
            _ if k == piece.lo => piece.call(&mut p, 1),
            _ if k > piece.lo && k < piece.hi => {}
            _ => p.stmt(s, 1),
        }
    }
    p.depth = 1;
    let tail = p.expr(&prog.tail, 0);
    let _ = writeln!(p.out, "    {tail}\n}}");
    let consts: Vec<String> = prog.consts.iter().map(|(c, _)| c.clone()).collect();
    let text = Vary { generic: false, ..prog.vary }.apply(&p.out, "f_call", &consts);
    Some(helper + &text)
}
