//! What a checkpointed loop costs, for the doc comment of the function that holds its sweep: the
//! stack its snapshots take and how many steps its sweep recomputes (and, for a loop
//! differentiated at its fixed point, how its sweep runs).

use std::collections::HashMap;

use proc_macro2::Ident;
use quote::quote;

use crate::ir::{Block, Checkpoint, Func, Int, Source, Stmt};

/// One paragraph per checkpointed loop of `f`.
/// `loops` names each loop's index, as the generated code does.
pub fn notes(f: &Func, loops: &[Ident]) -> Vec<String> {
    let mut out = Vec::new();
    walk(f, loops, &f.body, &mut out);
    out
}

fn walk(f: &Func, loops: &[Ident], block: &Block, out: &mut Vec<String>) {
    for s in block {
        match s {
            Stmt::Checkpoint(c) => out.push(note(f, loops, c)),
            Stmt::For(l) => walk(f, loops, &l.body, out),
            Stmt::While(w) if w.implicit && w.tape.is_none() => {
                out.push(implicit());
                walk(f, loops, &w.body, out);
            }
            Stmt::While(w) => walk(f, loops, &w.body, out),
            Stmt::If(b) => {
                walk(f, loops, &b.then, out);
                walk(f, loops, &b.otherwise, out);
            }
            _ => {}
        }
    }
}

fn text(f: &Func, i: &Int, loops: &[Ident]) -> String {
    let name = |l: crate::ir::LoopId| loops.get(l.0 as usize).map_or(quote!(_), |id| quote!(#id));
    let none = HashMap::new();
    let t = super::indices::user_tokens(f, loops, &i.loops, &none, &i.render(&name));
    t.to_string().replace(' ', "")
}

fn note(f: &Func, loops: &[Ident], c: &Checkpoint) -> String {
    let r = match &c.source {
        Source::Range(r) => r,
        Source::Tape(_) => return online(f, c),
    };
    let dots = if r.inclusive { "..=" } else { ".." };
    let range = format!("{}{dots}{}", text(f, &r.lo, loops), text(f, &r.hi, loops));
    let range = if r.rev { format!("({range}).rev()") } else { range };
    let bytes: u64 = c.step_params.iter().map(|p| f.ty(*p).bytes().value.unwrap_or(0)).sum();
    let s = c.slots;
    let steps = match (r.lo.value, r.hi.value) {
        (Some(lo), Some(hi)) => Some((hi + u64::from(r.inclusive)).saturating_sub(lo)),
        _ => None,
    };
    let cost = match steps {
        Some(n) => {
            let total = recomputed(n, s);
            format!(
                "recomputes {total} steps of the loop in all ({:.1} per step)",
                total as f64 / n.max(1) as f64
            )
        }
        None => format!(
            "recomputes, for n steps, r·n − C({s} + r, r − 1) of them in all, r the least with C({s} + r, {s}) ≥ n"
        ),
    };
    let memory = match bytes {
        0 => format!("{s} snapshots of its state"),
        b => format!("{s} snapshots of its state, {} bytes", b * s),
    };
    format!(
        " The loop over `{range}` is checkpointed (binomial checkpointing, Griewank & Walther's revolve): its\n reverse sweep keeps {memory} on the stack instead of every step's values, and {cost}."
    )
}

/// The paragraph of a loop checkpointed online, from its tape.
fn online(f: &Func, c: &Checkpoint) -> String {
    let bytes: u64 = c.step_params.iter().map(|p| f.ty(*p).bytes().value.unwrap_or(0)).sum();
    let s = c.slots;
    let memory = match bytes {
        0 => format!("{s} snapshots of its state"),
        b => format!("{s} snapshots of its state, {} bytes", b * s),
    };
    format!(
        " A loop whose length is decided while it runs (`while`, `loop`, or `for` with `break`) is\n checkpointed online (Wang, Moin & Iaccarino's dynamic checkpointing): as it runs it keeps {memory}\n on the stack (and {} bytes of bookkeeping) instead of every step's values, whatever its length.\n For a run of n steps, its reverse sweep recomputes `autodiff_runtime::revolve::online_steps(n, {s})`\n steps in all: none while n ≤ {s}; past that, no step more than r times and no more in all than\n offline revolve's optimum for the same n, `schedule_steps(n, {s})` = r·n − C({s} + r, r − 1), r the\n least with C({s} + r, {s}) ≥ n (which offline revolve would spend after a run to count n; checked for every n ≤ 10⁶\n with 2 to 16, 32 and 64 snapshots). The sweep of each step reruns that step once more.",
        56 * s + 48
    )
}

/// The paragraph of a loop differentiated at its fixed point (`implicit('label)`).
fn implicit() -> String {
    format!(
        " A loop named by `implicit` is differentiated at its fixed point `x* = g(x*, p)` (Christianson's\n two-phase method): its reverse sweep iterates `ā ← x̄ + (∂g/∂x)ᵀ ā` with the sweep of one\n iteration at the loop's result until `ā` repeats (at most {} times), then sweeps one iteration\n once more for `p̄ = (∂g/∂p)ᵀ ā`. Memory: one iteration; cost: independent of how many\n iterations the loop ran. Exact when the body is a contraction in what the loop carries and the\n loop ran to convergence.",
        crate::symbol::IMPLICIT_ITERATIONS
    )
}

/// `C(n, k)`, saturating.
fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u64, |c, i| c.checked_mul(n - i).map_or(u64::MAX, |p| p / (i + 1)))
}

/// The steps binomial checkpointing recomputes to reverse `n` steps with `s` snapshots (the
/// optimum, which the runtime's schedule attains): `r n − C(s + r, r − 1)`.
fn recomputed(n: u64, s: u64) -> u64 {
    let mut r = 0;
    while binomial(s + r, s) < n {
        r += 1;
    }
    if r == 0 { 0 } else { (r * n).saturating_sub(binomial(s + r, r - 1)) }
}
