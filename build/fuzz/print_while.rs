//! The loop-exit twin `f_wh` (issue 17): the program printed once more with its loops in forms
//! that stop when they are done, each running the same iterations on the same values, so that
//! its value and derivatives must be `f`'s to the bit:
//! - `for i in lo..hi { body }` as `for i in lo..hi + k { if i >= hi { break; } body }` (`k` of
//!   0, 2 or 3: with 0, a `break` never taken; `i > hi` for `..=`; a reversed range keeps its
//!   bounds, its `break` never taken);
//! - a loop whose body does not read its index as `while w < hi as f64 { w += 1.0; body }` or
//!   `loop { if w >= hi as f64 { break; } w += 1.0; body }`, on a float counter `w` from
//!   `lo as f64` (integer counters in such loops are refused: `tests/ui/control_flow/`);
//! - the last statement of a loop's body, `if c { a } else if d { b } else { e }`, as
//!   `if c { a; continue; } if d { b; continue; } e`, or without `else` as
//!   `if !c { continue; } a` (recursively, in the statements then at the end of the body).
//!
//! The macro reads a `for` with `break` and every `while` and `loop` as a loop of unknown length,
//! checkpointed online; half the twins are under `checkpoint(s = 1..=4)`, so that the online
//! tape moves its few snapshots, where `f` is stored (or offline-checkpointed, `f_ck`).

use std::collections::HashSet;

use super::ast::{Checkpoint, Cmp, Cond, Int, IntOp, Program, Range, Stmt};
use super::print::{Flavor, Printer, UNARY, int, range_text, reads_int_stmt};
use super::rng::Rng;

/// The loop-exit twin of a program: its attribute's checkpointing, if it adds one.
pub struct Exits {
    pub checkpoint: Option<Checkpoint>,
}

/// The loop-exit twin of `prog`, if it has loops.
pub fn exits(prog: &Program) -> Option<Exits> {
    if !has_loop(&prog.body) {
        return None;
    }
    let mut rng = Rng::new(prog.seed ^ 0x7768_696c_6521);
    let checkpoint = rng.chance(50).then(|| Checkpoint { snapshots: Some(rng.between(1, 4)) });
    Some(Exits { checkpoint })
}

pub(super) fn has_loop(ss: &[Stmt]) -> bool {
    ss.iter().any(|s| match s {
        Stmt::For(..) => true,
        Stmt::If(arms, els) => {
            arms.iter().any(|(_, b)| has_loop(b)) || els.as_deref().is_some_and(has_loop)
        }
        _ => false,
    })
}

/// Prints `body` (the program's statements) into `p` at indentation 1, its loops in exit forms
/// chosen from the program's `seed`.
pub fn print(p: &mut Printer, seed: u64, body: &[Stmt]) {
    let mut plain = Printer::new(Flavor::Macro, p.mutated.clone());
    plain.stmts(body, 1);
    let words = plain.out.split(|c: char| !c.is_alphanumeric() && c != '_');
    let taken = words.map(str::to_string).collect();
    let mut e = Exit { p, rng: Rng::new(seed ^ 0x6578_6974), taken, next: 0 };
    e.stmts(body, 1, false);
}

/// The printer of the twin's statements.
struct Exit<'a> {
    p: &'a mut Printer,
    rng: Rng,
    /// The words of the program's body, which a counter's name must not be.
    taken: HashSet<String>,
    next: usize,
}

/// `i` as an `f64` expression: `3.0`, `n as f64`, `(i + 1) as f64`.
fn float(i: &Int) -> String {
    match i {
        Int::Lit(n) => format!("{n}.0"),
        _ => format!("{} as f64", int(i, UNARY)),
    }
}

/// The condition that is true where `c` is false, with no `!!` and no `!` on an integer
/// comparison (a `!` on an `f64` comparison stays: the flipped one differs on NaN).
fn negate(c: &Cond) -> Cond {
    let flip = |op| match op {
        Cmp::Lt => Cmp::Ge,
        Cmp::Le => Cmp::Gt,
        Cmp::Gt => Cmp::Le,
        Cmp::Ge => Cmp::Lt,
        Cmp::Eq => Cmp::Ne,
        Cmp::Ne => Cmp::Eq,
    };
    match c {
        Cond::Not(x) => (**x).clone(),
        Cond::Int(op, l, r) => Cond::Int(flip(*op), l.clone(), r.clone()),
        _ => Cond::Not(Box::new(c.clone())),
    }
}

impl Exit<'_> {
    fn line(&mut self, depth: usize, text: &str) {
        self.p.line(depth, text);
    }

    /// A fresh name for a float counter.
    fn counter(&mut self) -> String {
        loop {
            let name = format!("w{}", self.next);
            self.next += 1;
            if !self.taken.contains(&name) {
                return name;
            }
        }
    }

    /// Statements at `depth`; `at_end` when nothing of the loop's iteration follows them.
    fn stmts(&mut self, ss: &[Stmt], depth: usize, at_end: bool) {
        for (k, s) in ss.iter().enumerate() {
            let last = at_end && k + 1 == ss.len();
            match s {
                Stmt::For(var, range, body) => self.for_loop(var, range, body, depth),
                Stmt::If(arms, els) if last && self.rng.chance(60) => {
                    self.continued(arms, els.as_deref(), depth)
                }
                Stmt::If(arms, els) => self.branch(arms, els.as_deref(), depth, last),
                _ => self.p.stmt(s, depth),
            }
        }
    }

    /// `if .. else ..` as written, its blocks' loops in exit forms.
    fn branch(
        &mut self,
        arms: &[(Cond, Vec<Stmt>)],
        els: Option<&[Stmt]>,
        depth: usize,
        at_end: bool,
    ) {
        for (k, (c, body)) in arms.iter().enumerate() {
            let head = if k == 0 { "if" } else { "} else if" };
            self.p.depth = depth;
            let text = format!("{head} {} {{", self.p.cond(c, 0));
            self.line(depth, &text);
            self.stmts(body, depth + 1, at_end);
        }
        if let Some(body) = els {
            self.line(depth, "} else {");
            self.stmts(body, depth + 1, at_end);
        }
        self.line(depth, "}");
    }

    /// The last statement of a loop's iteration, `if c { a } else ..`, as `if c { a; continue; }`
    /// and what follows.
    fn continued(&mut self, arms: &[(Cond, Vec<Stmt>)], els: Option<&[Stmt]>, depth: usize) {
        for (k, (c, body)) in arms.iter().enumerate() {
            self.p.depth = depth;
            if k + 1 == arms.len() && els.is_none() {
                let text = format!("if {} {{", self.p.cond(&negate(c), 0));
                self.line(depth, &text);
                self.line(depth + 1, "continue;");
                self.line(depth, "}");
                self.stmts(body, depth, true);
                return;
            }
            let text = format!("if {} {{", self.p.cond(c, 0));
            self.line(depth, &text);
            self.stmts(body, depth + 1, true);
            self.line(depth + 1, "continue;");
            self.line(depth, "}");
        }
        if let Some(body) = els {
            self.stmts(body, depth, true);
        }
    }

    /// A `for` loop in one of the exit forms.
    fn for_loop(&mut self, var: &str, range: &Range, body: &[Stmt], depth: usize) {
        let reads = body.iter().any(|s| reads_int_stmt(s, var));
        match if reads { 0 } else { self.rng.below(3) } {
            0 => self.broken(var, range, body, depth),
            form => self.counted(range, body, depth, form == 1),
        }
    }

    /// `for i in lo..hi + k { if i >= hi { break; } body }`.
    fn broken(&mut self, var: &str, range: &Range, body: &[Stmt], depth: usize) {
        // `i >= 0` is always true (a lint): `0..0` runs nothing, as it was.
        let empty = range.hi == Int::Lit(0) && !range.inclusive;
        let k = if range.rev || empty { 0 } else { [0, 2, 3][self.rng.below(3)] };
        let hi = match (k, &range.hi) {
            (0, hi) => hi.clone(),
            // `0 + 3` is an identity (a lint).
            (_, Int::Lit(n)) => Int::Lit(n + k),
            (_, hi) => Int::Bin(IntOp::Add, Box::new(hi.clone()), Box::new(Int::Lit(k))),
        };
        let longer = Range { hi, ..range.clone() };
        self.line(depth, &format!("for {var} in {} {{", range_text(&longer)));
        if !empty {
            let op = if range.inclusive { Cmp::Gt } else { Cmp::Ge };
            let stop = Cond::Int(op, Int::Var(var.to_string()), range.hi.clone());
            let text = format!("if {} {{", self.p.cond(&stop, 0));
            self.line(depth + 1, &text);
            self.line(depth + 2, "break;");
            self.line(depth + 1, "}");
        }
        self.stmts(body, depth + 1, true);
        self.line(depth, "}");
    }

    /// A loop whose body does not read its index, on a float counter: as `while` when `ahead`,
    /// else as `loop` with a `break` first.
    fn counted(&mut self, range: &Range, body: &[Stmt], depth: usize, ahead: bool) {
        let w = self.counter();
        let (lo, hi) = (float(&range.lo), float(&range.hi));
        self.line(depth, &format!("let mut {w} = {lo};"));
        let (go, stop) = if range.inclusive { ("<=", ">") } else { ("<", ">=") };
        if ahead {
            self.line(depth, &format!("while {w} {go} {hi} {{"));
        } else {
            self.line(depth, "loop {");
            self.line(depth + 1, &format!("if {w} {stop} {hi} {{"));
            self.line(depth + 2, "break;");
            self.line(depth + 1, "}");
        }
        self.line(depth + 1, &format!("{w} += 1.0;"));
        self.stmts(body, depth + 1, true);
        self.line(depth, "}");
    }
}
