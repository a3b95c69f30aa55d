//! The loop-exit twin `f_wh` (issue 17): the program printed once more with its loops in forms
//! that stop when they are done, each running the same iterations on the same values, so that
//! its value and derivatives must be `f`'s to the bit:
//! - `for i in lo..hi { body }` as `for i in lo..hi + k { if i >= hi { break; } body }` (`k` of
//!   0, 2 or 3: with 0, a `break` never taken; `i > hi` for `..=`; a reversed range keeps its
//!   bounds, its `break` never taken);
//! - a loop over a range up whose body reads its index (`hi` not `0`), sometimes as
//!   `let mut i = lo; while i < hi { body i += 1; }` or
//!   `let mut i = lo; loop { if i >= hi { break; } body i += 1; }` (`let mut i: usize` half the
//!   time; `<=` and `>` for `..=`): an integer counter stepped once per iteration, which the
//!   macro reads from the iteration's index (in the `loop`, since bug 69). The body has no
//!   `continue` then (it would skip the step), and the counter keeps the loop variable's name:
//!   the generator names loops by their depth (`i`, `j`, `k`, `l`), so nothing after the loop
//!   in its block reads an outer `i`;
//! - a loop whose body does not read its index as `while w < hi as f64 { w += 1.0; body }`,
//!   `loop { if w >= hi as f64 { break; } w += 1.0; body }` (which the macro reads as the
//!   `while`) or `loop { w += 1.0; if w > hi as f64 { break; } body }` (its last iteration one
//!   that only exits, the body under the `break`'s flag), on a float counter `w` from
//!   `lo as f64` (integer counters in such loops are refused: `tests/ui/control_flow/`);
//! - the last statement of a loop's body, `if c { a } else if d { b } else { e }`, as
//!   `if c { a; continue; } if d { b; continue; } e`, or without `else` as
//!   `if !c { continue; } a` (recursively, in the statements then at the end of the body);
//! - each exit test at the top of an iteration (`i >= hi`, `w >= hi as f64`) as written, or
//!   through a `bool`: `let stop = i >= hi; if stop { break; }` or
//!   `let more = i < hi; if !more { break; }` (not `i <= 0`, a lint on a `usize`);
//! - a third of the loops labelled (`'l3: for ..`, `'l3: while ..`, `'l3: loop`), and half of
//!   each one's own exits naming it, `break 'l3;` and `continue 'l3;` (an exit never names an
//!   outer loop, so each stays the exit it was); a label no exit names is taken off again
//!   (`unused_labels`).
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
    let rng = Rng::new(seed ^ 0x6578_6974);
    let mut e = Exit { p, rng, taken, next: 0, label: None, used: HashSet::new() };
    e.stmts(body, 1, false);
}

/// The printer of the twin's statements.
struct Exit<'a> {
    p: &'a mut Printer,
    rng: Rng,
    /// The words of the program's body, which a counter's name must not be.
    taken: HashSet<String>,
    next: usize,
    /// The label of the innermost loop around, if it has one: its `continue`s may name it.
    label: Option<String>,
    /// The labels an exit named (a label nothing names is taken off: `unused_labels`).
    used: HashSet<String>,
}

/// `i` as an `f64` expression: `3.0`, `n as f64`, `(i + 1) as f64`.
fn float(i: &Int) -> String {
    match i {
        Int::Lit(n) => format!("{n}.0"),
        _ => format!("{} as f64", int(i, UNARY)),
    }
}

/// `i + 1` as an `f64` expression: `4.0`, `n as f64 + 1.0`.
fn plus_one(i: &Int) -> String {
    match i {
        Int::Lit(n) => format!("{}.0", n + 1),
        _ => format!("{} + 1.0", float(i)),
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
        self.fresh("w")
    }

    /// A fresh name, `prefix` and a number, that the program does not use.
    fn fresh(&mut self, prefix: &str) -> String {
        loop {
            let name = format!("{prefix}{}", self.next);
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
                let go_on = self.exit("continue");
                self.line(depth + 1, &go_on);
                self.line(depth, "}");
                self.stmts(body, depth, true);
                return;
            }
            let text = format!("if {} {{", self.p.cond(c, 0));
            self.line(depth, &text);
            self.stmts(body, depth + 1, true);
            let go_on = self.exit("continue");
            self.line(depth + 1, &go_on);
            self.line(depth, "}");
        }
        if let Some(body) = els {
            self.stmts(body, depth, true);
        }
    }

    /// `break;` or `continue;` (`word`) of the innermost loop, naming its label sometimes.
    fn exit(&mut self, word: &str) -> String {
        match self.label.clone() {
            Some(l) if self.rng.chance(50) => {
                self.used.insert(l.clone());
                format!("{word} {l};")
            }
            _ => format!("{word};"),
        }
    }

    /// Opens a loop whose head is `head` (`for .. {`, `while .. {`, `loop {`), labelled
    /// sometimes: the position of its text and the label, for `close`.
    fn open(&mut self, depth: usize, head: &str) -> (usize, Option<String>) {
        let start = self.p.out.len();
        let label = self.rng.chance(30).then(|| format!("'{}", self.fresh("l")));
        match &label {
            Some(l) => self.line(depth, &format!("{l}: {head}")),
            None => self.line(depth, head),
        }
        (start, std::mem::replace(&mut self.label, label))
    }

    /// Closes the loop `open` opened, taking its label off if no exit named it.
    fn close(&mut self, depth: usize, (start, outer): (usize, Option<String>)) {
        self.line(depth, "}");
        if let Some(l) = std::mem::replace(&mut self.label, outer)
            && !self.used.contains(&l)
        {
            let at = start + self.p.out[start..].find(&format!("{l}: ")).expect("the label");
            self.p.out.replace_range(at..at + l.len() + 2, "");
        }
    }

    /// The exit test at the start of a loop's iteration: `stop` is its condition, `go` its
    /// negation; as `if stop { break; }`, or through a `bool`, `let b = stop; if b { break; }`
    /// or `let b = go; if !b { break; }`.
    fn exit_test(&mut self, depth: usize, stop: &str, go: Option<&str>) {
        let brk = self.exit("break");
        let test = match (self.rng.below(3), go) {
            (0, _) => stop.to_string(),
            (1, _) | (_, None) => {
                let b = self.fresh("stop");
                self.line(depth, &format!("let {b} = {stop};"));
                b
            }
            (_, Some(go)) => {
                let b = self.fresh("more");
                self.line(depth, &format!("let {b} = {go};"));
                format!("!{b}")
            }
        };
        self.line(depth, &format!("if {test} {{"));
        self.line(depth + 1, &brk);
        self.line(depth, "}");
    }

    /// A `for` loop in one of the exit forms.
    fn for_loop(&mut self, var: &str, range: &Range, body: &[Stmt], depth: usize) {
        let reads = body.iter().any(|s| reads_int_stmt(s, var));
        // `i < 0` and `i <= 0` are lints on a `usize`.
        let steps = !range.rev && range.hi != Int::Lit(0);
        match if reads { 0 } else { self.rng.below(3) } {
            0 if reads && steps && self.rng.chance(40) => self.stepped(var, range, body, depth),
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
        let head = self.open(depth, &format!("for {var} in {} {{", range_text(&longer)));
        if !empty {
            let (op, go) = if range.inclusive { (Cmp::Gt, Cmp::Le) } else { (Cmp::Ge, Cmp::Lt) };
            let test =
                |op| self.p.cond(&Cond::Int(op, Int::Var(var.to_string()), range.hi.clone()), 0);
            let (stop, go) = (test(op), test(go));
            // `i <= 0` is a lint on a `usize`.
            let go = (range.hi != Int::Lit(0)).then_some(go.as_str());
            self.exit_test(depth + 1, &stop, go);
        }
        self.stmts(body, depth + 1, true);
        self.close(depth, head);
    }

    /// A loop reading its index over a range up, on an integer counter stepped at the end of
    /// its iteration: `let mut i = lo; while i < hi { body i += 1; }`, or as `loop` with the
    /// exit test first, `loop { if i >= hi { break; } body i += 1; }`. Its body is printed with
    /// no `continue`, which would skip the step.
    fn stepped(&mut self, var: &str, range: &Range, body: &[Stmt], depth: usize) {
        let ty = if self.rng.chance(50) { ": usize" } else { "" };
        self.line(depth, &format!("let mut {var}{ty} = {};", int(&range.lo, 0)));
        let (go, stop) = if range.inclusive { (Cmp::Le, Cmp::Gt) } else { (Cmp::Lt, Cmp::Ge) };
        let test = |op| Cond::Int(op, Int::Var(var.to_string()), range.hi.clone());
        let (go, stop) = (self.p.cond(&test(go), 0), self.p.cond(&test(stop), 0));
        let head = if self.rng.chance(50) {
            self.open(depth, &format!("while {go} {{"))
        } else {
            let head = self.open(depth, "loop {");
            self.exit_test(depth + 1, &stop, Some(&go));
            head
        };
        self.stmts(body, depth + 1, false);
        self.line(depth + 1, &format!("{var} += 1;"));
        self.close(depth, head);
    }

    /// A loop whose body does not read its index, on a float counter: as `while` when `ahead`,
    /// else as `loop` with a `break` first or (`w += 1.0; if w > hi as f64 { break; } ..`) after
    /// the step, its last iteration then one that only exits.
    fn counted(&mut self, range: &Range, body: &[Stmt], depth: usize, ahead: bool) {
        let w = self.counter();
        let (lo, hi) = (float(&range.lo), float(&range.hi));
        self.line(depth, &format!("let mut {w} = {lo};"));
        let (go, stop) = if range.inclusive { ("<=", ">") } else { ("<", ">=") };
        let (go, stop) = (format!("{w} {go} {hi}"), format!("{w} {stop} {hi}"));
        let step = format!("{w} += 1.0;");
        if ahead {
            let head = self.open(depth, &format!("while {go} {{"));
            self.line(depth + 1, &step);
            self.stmts(body, depth + 1, true);
            return self.close(depth, head);
        }
        let head = self.open(depth, "loop {");
        if self.rng.chance(50) {
            self.exit_test(depth + 1, &stop, Some(&go));
            self.line(depth + 1, &step);
        } else {
            // After the step `w` is one more: past `hi` (past `hi + 1` for `..=`).
            let last = if range.inclusive { plus_one(&range.hi) } else { hi };
            self.line(depth + 1, &step);
            self.exit_test(depth + 1, &format!("{w} > {last}"), Some(&format!("{w} <= {last}")));
        }
        self.stmts(body, depth + 1, true);
        self.close(depth, head);
    }
}
