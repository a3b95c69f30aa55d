//! The stack a generated function uses for what its reverse sweeps store: the arrays its loops
//! carry to save values per iteration (and their tangents, in a Hessian-vector product). Checked
//! against a budget, so that a sweep never overflows the stack at run time.

use proc_macro2::Span;

use super::plan::run_time_end;
use crate::ir::{Block, Func, Int, Name, Source, Stmt, Suffix, Var};

/// The bookkeeping of a tape of online checkpoints, per snapshot: three words for its step, level
/// and link (`revolve::Online`), and four while its sweep runs (the schedule's plan).
const TAPE_SLOT: u64 = 56;
/// And once: the tape's six words of counters.
const TAPE_FIXED: u64 = 48;

/// The stack the storage of one loop takes.
pub struct Storage {
    /// In bytes (known to the macro, or an expression of the user's constants).
    pub bytes: Int,
    /// The loop (its `for`).
    pub span: Span,
    /// Whether the loop stores its values (not snapshots of a checkpointed sweep).
    pub stored: bool,
}

/// Every storage array of `f`, one entry per loop that carries some.
pub fn storage(f: &Func) -> Vec<Storage> {
    let mut out = Vec::new();
    walk(f, &f.body, &mut out);
    out
}

/// The total of `parts`, in bytes.
pub fn total(parts: &[Storage]) -> Int {
    parts.iter().fold(Int::lit(0), |acc, s| acc.add(&s.bytes))
}

fn walk(f: &Func, block: &Block, out: &mut Vec<Storage>) {
    for s in block {
        match s {
            Stmt::For(l) => {
                let bytes = l
                    .carried
                    .iter()
                    .filter(|c| saved(f, c.param))
                    .map(|c| f.ty(c.param).bytes())
                    .fold(Int::lit(0), |acc, b| acc.add(&b));
                if bytes.value != Some(0) {
                    let span =
                        f.loops.get(l.index.0 as usize).map_or(Span::call_site(), |i| i.span);
                    out.push(Storage { bytes, span, stored: true });
                }
                walk(f, &l.body, out);
            }
            Stmt::While(w) => walk(f, &w.body, out),
            Stmt::If(b) => {
                walk(f, &b.then, out);
                walk(f, &b.otherwise, out);
            }
            Stmt::Checkpoint(c) => {
                // The snapshots: `slots` copies of the state; a tape keeps, besides, the steps
                // and levels of its snapshots (and the sweep's plan), at most 56 bytes a
                // snapshot and 48 more (a 64-bit target's words).
                let state = c
                    .step_params
                    .iter()
                    .map(|p| f.ty(*p).bytes())
                    .fold(Int::lit(0), |acc, b| acc.add(&b));
                let per_slot = match c.source {
                    Source::Range(_) => state,
                    Source::Tape(_) => state.add(&Int::lit(TAPE_SLOT)),
                };
                let bytes = per_slot.times(&Int::lit(c.slots));
                let bytes = match c.source {
                    Source::Range(_) => bytes,
                    Source::Tape(_) => bytes.add(&Int::lit(TAPE_FIXED)),
                };
                let span = f.loops.get(c.index.0 as usize).map_or(Span::call_site(), |i| i.span);
                out.push(Storage { bytes, span, stored: false });
                walk(f, &c.step, out);
                walk(f, &c.back, out);
            }
            _ => {}
        }
    }
}

/// What a function storing the values of loops of run-time length requires of their lengths:
/// each loop's end (an expression of the parameters) and the capacity of its storage, which the
/// end must not exceed. Empty when no loop's storage has a capacity.
pub fn capacities(f: &Func) -> Vec<(Int, u64)> {
    let mut out: Vec<(Int, u64)> = Vec::new();
    guards(f, &f.body, &mut out);
    out
}

/// Whether `block` has a loop of run-time length (`0..n`, `0..xs.len()`), one that may be
/// stored up to a capacity.
pub fn has_run_time_loop(block: &Block) -> bool {
    block.iter().any(|s| match s {
        Stmt::For(l) => run_time_end(&l.range).is_some() || has_run_time_loop(&l.body),
        Stmt::While(w) => has_run_time_loop(&w.body),
        Stmt::If(b) => has_run_time_loop(&b.then) || has_run_time_loop(&b.otherwise),
        Stmt::Checkpoint(c) => has_run_time_loop(&c.step) || has_run_time_loop(&c.back),
        _ => false,
    })
}

fn guards(f: &Func, block: &Block, out: &mut Vec<(Int, u64)>) {
    for s in block {
        match s {
            Stmt::For(l) => {
                let cap = l.carried.iter().filter(|c| saved(f, c.param)).find_map(|c| {
                    f.ty(c.param).shape().and_then(|s| s.dims.first()).and_then(|d| d.value)
                });
                if let (Some(end), Some(cap)) = (run_time_end(&l.range), cap)
                    && !out.iter().any(|(e, c)| e.key() == end.key() && *c == cap)
                {
                    out.push((end, cap));
                }
                guards(f, &l.body, out);
            }
            Stmt::While(w) => guards(f, &w.body, out),
            Stmt::If(b) => {
                guards(f, &b.then, out);
                guards(f, &b.otherwise, out);
            }
            Stmt::Checkpoint(c) => {
                guards(f, &c.step, out);
                guards(f, &c.back, out);
            }
            _ => {}
        }
    }
}

/// Whether `v` is storage: named `…_saved` (or the tangent of such).
fn saved(f: &Func, v: Var) -> bool {
    match f.name(v) {
        Name::Hint(h) => *h == crate::symbol::SAVED,
        Name::Derived { suffix: Suffix::Saved, .. } => true,
        Name::Derived { of, suffix: Suffix::Dot } => saved(f, *of),
        _ => false,
    }
}
