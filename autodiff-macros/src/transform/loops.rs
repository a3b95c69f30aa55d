//! The walk shared by the transforms that rewrite `for` loops where they stand (scalar
//! promotion, storage hoisting, carried elements): every block of a function, innermost loops
//! first, through branches and checkpoints, each `for` loop handed to a rewrite that may put
//! statements before and after it, or replace it.

use crate::ir::{Block, Branch, Checkpoint, Func, Loop, Operand, Stmt, Var, reads};

/// What a rewrite of one loop gives back: statements to run before it, the loop, statements
/// to run after it.
pub struct Rewritten {
    /// Statements placed before the loop.
    pub before: Vec<Stmt>,
    /// The loop itself.
    pub the_loop: Loop,
    /// Statements placed after the loop.
    pub after: Vec<Stmt>,
}

/// Whether `s` reads any of `versions` (the versions of an array a loop carries).
pub fn reads_any(s: &Stmt, versions: &[Var]) -> bool {
    reads(s).iter().any(|op| op.var().is_some_and(|v| versions.contains(&v)))
}

/// Whether `l` yields `last`, the last of the `versions` of the array it carries at `k`, as that
/// array, and none of them as another.
pub fn yields_last(l: &Loop, k: usize, versions: &[Var], last: Var) -> bool {
    l.yields.iter().enumerate().all(|(j, y)| {
        let version = y.var().is_some_and(|v| versions.contains(&v));
        (j == k) == (*y == Operand::Var(last)) && !(j != k && version)
    })
}

/// `f`'s body with every `for` loop (its body rewritten first) passed through `rewrite`. The
/// bodies of `while` loops are left as they are.
pub fn rewrite_loops(f: &Func, rewrite: &mut dyn FnMut(&mut Func, Loop) -> Rewritten) -> Func {
    replace_loops(f, &mut |f, l| {
        let done = rewrite(f, l);
        let mut out = done.before;
        out.push(Stmt::For(Box::new(done.the_loop)));
        out.extend(done.after);
        out
    })
}

/// `f`'s body with every `for` loop (its body rewritten first) replaced by the statements
/// `rewrite` makes of it. The bodies of `while` loops are left as they are.
pub fn replace_loops(f: &Func, rewrite: &mut dyn FnMut(&mut Func, Loop) -> Block) -> Func {
    let mut f = f.clone();
    let body = std::mem::take(&mut f.body);
    f.body = block(&mut f, body, rewrite);
    f
}

fn block(f: &mut Func, stmts: Block, rewrite: &mut dyn FnMut(&mut Func, Loop) -> Block) -> Block {
    let mut out = Vec::with_capacity(stmts.len());
    for s in stmts {
        match s {
            Stmt::For(l) => {
                let mut l = *l;
                l.body = block(f, std::mem::take(&mut l.body), rewrite);
                out.extend(rewrite(f, l));
            }
            Stmt::If(b) => {
                let b = *b;
                let then = block(f, b.then, rewrite);
                let otherwise = block(f, b.otherwise, rewrite);
                out.push(Stmt::If(Box::new(Branch { then, otherwise, ..b })));
            }
            Stmt::Checkpoint(c) => {
                let c = *c;
                let step = block(f, c.step, rewrite);
                let back = block(f, c.back, rewrite);
                out.push(Stmt::Checkpoint(Box::new(Checkpoint { step, back, ..c })));
            }
            other => out.push(other),
        }
    }
    out
}
