//! Branch joining: two branches on the same condition, with nothing between them that reads the
//! first one's results, become one branch. After loop fusion the body of a reduction holds the
//! forward branch and the sweep's branch on one condition; joined, the generated code tests the
//! condition once and keeps each side's value and adjoint together, as a hand-written gradient
//! does.

use std::collections::HashMap;

use crate::ir::{
    Block, Branch, Checkpoint, Func, Loop, Operand, Stmt, Var, While, reads, substitute,
};

/// `f` with every joinable pair of branches joined, nested ones included.
pub fn join_branches(f: &Func) -> Func {
    Func { body: join_block(&f.body), ..f.clone() }
}

fn join_block(block: &Block) -> Block {
    let mut stmts: Vec<Stmt> = block.iter().map(join_inside).collect();
    let mut i = 0;
    while i < stmts.len() {
        let Some(j) = partner(&stmts, i) else {
            i += 1;
            continue;
        };
        let (Stmt::If(a), Stmt::If(b)) = (&stmts[i], &stmts[j]) else { break };
        let merged = Stmt::If(Box::new(merge(a, b)));
        // What lies between reads nothing of the first branch: it moves before the pair.
        let mut out: Vec<Stmt> = stmts[..i].to_vec();
        out.extend(stmts[i + 1..j].iter().cloned());
        let at = out.len();
        out.push(merged);
        out.extend(stmts[j + 1..].iter().cloned());
        stmts = out;
        // The joined branch may join the next one on the same condition too.
        i = at;
    }
    stmts
}

/// `s` with the branches inside its blocks joined.
fn join_inside(s: &Stmt) -> Stmt {
    match s {
        Stmt::For(l) => Stmt::For(Box::new(Loop { body: join_block(&l.body), ..(**l).clone() })),
        Stmt::While(w) => {
            Stmt::While(Box::new(While { body: join_block(&w.body), ..(**w).clone() }))
        }
        Stmt::If(b) => Stmt::If(Box::new(Branch {
            then: join_block(&b.then),
            otherwise: join_block(&b.otherwise),
            ..(**b).clone()
        })),
        Stmt::Checkpoint(c) => Stmt::Checkpoint(Box::new(Checkpoint {
            step: join_block(&c.step),
            back: join_block(&c.back),
            ..(**c).clone()
        })),
        other => other.clone(),
    }
}

/// The position of the next branch on the condition of the branch at `i`, when nothing before
/// it reads the results of the branch at `i`.
fn partner(stmts: &[Stmt], i: usize) -> Option<usize> {
    let Stmt::If(a) = &stmts[i] else { return None };
    let reads_a =
        |s: &Stmt| reads(s).iter().any(|op| op.var().is_some_and(|v| a.outs.contains(&v)));
    for (j, s) in stmts.iter().enumerate().skip(i + 1) {
        if let Stmt::If(b) = s
            && b.cond == a.cond
        {
            return Some(j);
        }
        if reads_a(s) {
            return None;
        }
    }
    None
}

/// One branch doing what `a` then `b` do: `b`'s reads of `a`'s results become reads of what
/// `a`'s side yields.
fn merge(a: &Branch, b: &Branch) -> Branch {
    let side = |yields: &[Operand], block: &Block, b_yields: &[Operand]| {
        let map: HashMap<Var, Operand> =
            a.outs.iter().copied().zip(yields.iter().copied()).collect();
        let block = substitute(block, &map);
        let ys: Vec<Operand> = b_yields
            .iter()
            .map(|y| y.var().and_then(|v| map.get(&v).copied()).unwrap_or(*y))
            .collect();
        (block, ys)
    };
    let (b_then, b_then_yields) = side(&a.then_yields, &b.then, &b.then_yields);
    let (b_else, b_else_yields) = side(&a.else_yields, &b.otherwise, &b.else_yields);
    let mut then = a.then.clone();
    then.extend(b_then);
    let mut otherwise = a.otherwise.clone();
    otherwise.extend(b_else);
    Branch {
        cond: a.cond,
        then,
        then_yields: a.then_yields.iter().copied().chain(b_then_yields).collect(),
        otherwise,
        else_yields: a.else_yields.iter().copied().chain(b_else_yields).collect(),
        outs: a.outs.iter().copied().chain(b.outs.iter().copied()).collect(),
    }
}
