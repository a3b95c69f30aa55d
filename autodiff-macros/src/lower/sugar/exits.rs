//! Early exits: `break` and `continue` in a loop, and `return` before the end of the function,
//! rewritten into flags and the `if`s that read them, so that every iteration of a loop runs its
//! whole body (one step of its state) and the function ends with its value:
//!
//! ```text
//! loop { a; if d { break; } b; }          for i in 0..n { if c { continue; } a; }
//! ```
//! become
//! ```text
//! loop { let mut done = false;            for i in 0..n { let mut skip = false;
//!        a; if d { done = true; }                         if c { skip = true; }
//!        if !done { b; } }  // exit: done                 if !skip { a; } }
//! ```
//! A statement that may exit is followed by the rest of its block under an `if` on the flags it
//! may set (so each flag is read only where it may hold), and the loop's exit test is `done`,
//! or the user's own final `if d { break; }`. A `return e` inside a loop is `ret = e;
//! returned = true;` and a `break` (and a `break` of each loop around it, once it ends); before
//! the end of the function it is `ret = e; returned = true;`, and the rest of the function is the
//! `else` of `if returned { ret }` (a guard clause `if c { …; return e; }` becomes
//! `if c { …; e } else { rest }`). `ret` and `returned` are declared at the top of the function.
//!
//! Exits are rewritten where they are statements: directly in a loop's body, or in the blocks
//! of `if`, `else`, `match` arms and plain blocks there (and `return` inside nested loops too).
//! A `break` with a label or a value has been rewritten before (`labels`, `values`); an exit
//! inside an expression (`let x = if c { break } else { 1.0 };`) is left as it is, and reported
//! by lowering.

use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, quote};
use syn::{Block, Expr, Stmt};

use crate::lower::Lower;
use crate::lower::value::peel;

/// The exits some code may take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::lower) struct Exits {
    /// A `break` of the loop around it (or a `return`, which leaves it too).
    pub(in crate::lower) brk: bool,
    /// A `continue` of the loop around it.
    pub(in crate::lower) cont: bool,
    /// A `return`.
    pub(in crate::lower) ret: bool,
}

impl Exits {
    /// Whether it may exit at all.
    pub(in crate::lower) fn any(self) -> bool {
        self.brk || self.cont || self.ret
    }

    fn or(self, o: Exits) -> Exits {
        Exits { brk: self.brk || o.brk, cont: self.cont || o.cont, ret: self.ret || o.ret }
    }
}

/// `break;` with neither label nor value.
fn plain_break(e: &Expr) -> bool {
    matches!(e, Expr::Break(b) if b.label.is_none() && b.expr.is_none())
}

/// `continue;` without a label.
fn plain_continue(e: &Expr) -> bool {
    matches!(e, Expr::Continue(c) if c.label.is_none())
}

/// The exits of the statements of `block`, for the loop around them.
pub(in crate::lower) fn of_block(block: &Block) -> Exits {
    of_stmts(&block.stmts)
}

fn of_stmts(stmts: &[Stmt]) -> Exits {
    stmts.iter().fold(Exits::default(), |acc, s| acc.or(of_stmt(s)))
}

fn of_stmt(s: &Stmt) -> Exits {
    match s {
        Stmt::Expr(e, _) => of_expr(e),
        _ => Exits::default(),
    }
}

/// The exits of `e` in statement position: its own, those of the blocks of an `if`, a `match`
/// or a plain block, and the `return`s inside the loops in it.
fn of_expr(e: &Expr) -> Exits {
    match e {
        _ if plain_break(e) => Exits { brk: true, ..Exits::default() },
        _ if plain_continue(e) => Exits { cont: true, ..Exits::default() },
        Expr::Return(_) => Exits { ret: true, ..Exits::default() },
        Expr::If(i) => {
            let then = of_block(&i.then_branch);
            match &i.else_branch {
                Some((_, e)) => then.or(of_expr(e)),
                None => then,
            }
        }
        Expr::Block(b) if b.label.is_none() => of_block(&b.block),
        Expr::Match(m) => m.arms.iter().fold(Exits::default(), |acc, a| acc.or(of_expr(&a.body))),
        Expr::ForLoop(_) | Expr::While(_) | Expr::Loop(_) => {
            Exits { ret: returns_in(e), ..Exits::default() }
        }
        Expr::Paren(p) => of_expr(&p.expr),
        _ => Exits::default(),
    }
}

/// Whether a loop `e` has a `return` in statement position in its body (nested loops too).
fn returns_in(e: &Expr) -> bool {
    let body = match e {
        Expr::ForLoop(f) => &f.body,
        Expr::While(w) => &w.body,
        Expr::Loop(l) => &l.body,
        _ => return false,
    };
    of_block(body).ret
}

/// Whether the function body `block` has a `return` that is not its last statement.
pub(in crate::lower) fn returns_early(block: &Block) -> bool {
    let Some((last, rest)) = block.stmts.split_last() else { return false };
    let last_ret = match last {
        Stmt::Expr(Expr::Return(_), _) => false,
        other => of_stmt(other).ret,
    };
    last_ret || of_stmts(rest).ret
}

/// The function body `block` with each `return e` in tail position (the body's last
/// expression, through the tails of its `if`s, `match` arms and blocks) written `e`, which is
/// what it means there: `if c { return a } else { b }` is `if c { a } else { b }`. `None` when
/// there is none.
pub(in crate::lower) fn tail_returns(block: &Block) -> Option<Block> {
    let mut out = block.clone();
    let last = out.stmts.last_mut()?;
    let Stmt::Expr(e, None) = last else { return None };
    if matches!(e, Expr::Return(_)) {
        return None; // the body's one final `return`, lowered as such
    }
    tail_expr(e).then_some(out)
}

/// Rewrites the `return`s in tail position of `e`; whether there was one.
fn tail_expr(e: &mut Expr) -> bool {
    match e {
        Expr::Return(r) => match r.expr.take() {
            Some(v) => {
                *e = *v;
                true
            }
            None => false,
        },
        Expr::If(i) => {
            let then = tail_stmts(&mut i.then_branch.stmts);
            let els = i.else_branch.as_mut().is_some_and(|(_, e)| tail_expr(e));
            then || els
        }
        Expr::Block(b) if b.label.is_none() => tail_stmts(&mut b.block.stmts),
        Expr::Match(m) => {
            // Every arm is rewritten (no short circuit).
            let mut any = false;
            for a in &mut m.arms {
                any |= tail_expr(&mut a.body);
            }
            any
        }
        Expr::Paren(p) => tail_expr(&mut p.expr),
        _ => false,
    }
}

/// Rewrites the `return`s in tail position of a block: its last expression, or its last
/// statement `return e;` (a block of a function's value ending in a statement diverges).
fn tail_stmts(stmts: &mut [Stmt]) -> bool {
    let Some(Stmt::Expr(e, semi)) = stmts.last_mut() else { return false };
    match e {
        Expr::Return(_) if semi.is_some() => {
            *semi = None;
            tail_expr(e)
        }
        _ if semi.is_none() => tail_expr(e),
        _ => false,
    }
}

/// The names of the flags of a function whose `return`s are rewritten.
struct Returns {
    /// Set when the function has its value.
    returned: Ident,
    /// The value.
    value: Ident,
}

/// What a loop's body became.
pub(in crate::lower) struct LoopBody {
    /// The statements, the flags declared first.
    pub(in crate::lower) stmts: Vec<Stmt>,
    /// The exit test read after them, if the loop may end early (the flag `done`, or the user's
    /// own final `if d { break; }` test).
    pub(in crate::lower) exit: Option<Expr>,
}

/// The flags of one loop body.
struct Flags {
    done: Ident,
    skip: Ident,
}

impl Flags {
    /// `if !(flags) { rest }`, reading the flags that `exits` may have set (`rest` itself when
    /// it sets none).
    fn guard(&self, exits: Exits, rest: Vec<Stmt>) -> Vec<Stmt> {
        if rest.is_empty() {
            return rest;
        }
        let (done, skip) = (&self.done, &self.skip);
        let test = match (exits.brk, exits.cont) {
            (true, true) => quote!(!(#done || #skip)),
            (true, false) => quote!(!#done),
            (false, true) => quote!(!#skip),
            (false, false) => return rest,
        };
        syn::parse2(quote!(if #test { #(#rest)* })).map_or(rest, |s| vec![s])
    }

    /// `stmts` with their exits rewritten, and the exits they may take.
    fn stmts(&self, stmts: &[Stmt]) -> (Vec<Stmt>, Exits) {
        let mut out = Vec::new();
        let mut taken = Exits::default();
        for (i, s) in stmts.iter().enumerate() {
            let exits = of_stmt(s);
            if !exits.any() {
                out.push(s.clone());
                continue;
            }
            let (mut rewritten, exits) = self.stmt(s);
            out.append(&mut rewritten);
            taken = taken.or(exits);
            let (rest, more) = self.stmts(&stmts[i + 1..]);
            if exits_always(s) {
                // What follows an unconditional exit never runs.
                return (out, taken);
            }
            out.extend(self.guard(exits, rest));
            return (out, taken.or(more));
        }
        (out, taken)
    }

    /// One statement that may exit, rewritten, with the exits it may take.
    fn stmt(&self, s: &Stmt) -> (Vec<Stmt>, Exits) {
        let Stmt::Expr(e, semi) = s else { return (vec![s.clone()], Exits::default()) };
        let (done, skip) = (&self.done, &self.skip);
        let parse = |t: TokenStream| -> Vec<Stmt> {
            syn::parse2::<Block>(quote!({ #t })).map(|b| b.stmts).unwrap_or_default()
        };
        match e {
            _ if plain_break(e) => (parse(quote!(#done = true;)), of_expr(e)),
            _ if plain_continue(e) => (parse(quote!(#skip = true;)), of_expr(e)),
            Expr::If(_) | Expr::Block(_) | Expr::Match(_) | Expr::Paren(_) => {
                let e = self.expr(e);
                (vec![Stmt::Expr(e, *semi)], of_expr(&peel_stmt(s)))
            }
            _ => (vec![s.clone()], Exits::default()),
        }
    }

    /// An `if`, `match` or block in statement position with the exits in its blocks rewritten.
    fn expr(&self, e: &Expr) -> Expr {
        let mut e = e.clone();
        match &mut e {
            Expr::If(i) => {
                i.then_branch.stmts = self.stmts(&i.then_branch.stmts).0;
                if let Some((_, els)) = &mut i.else_branch {
                    **els = self.expr(els);
                }
            }
            Expr::Block(b) => b.block.stmts = self.stmts(&b.block.stmts).0,
            Expr::Match(m) => {
                for arm in &mut m.arms {
                    let body = match &*arm.body {
                        Expr::Block(_) => self.expr(&arm.body),
                        other if of_expr(other).any() => {
                            let block: Option<Expr> =
                                syn::parse2(quote!({ #other; })).ok().map(|b| self.expr(&b));
                            block.unwrap_or_else(|| other.clone())
                        }
                        other => other.clone(),
                    };
                    *arm.body = body;
                }
            }
            Expr::Paren(p) => *p.expr = self.expr(&p.expr),
            _ => {}
        }
        e
    }
}

/// `s` itself, as an expression, for its exits.
fn peel_stmt(s: &Stmt) -> Expr {
    match s {
        Stmt::Expr(e, _) => e.clone(),
        _ => Expr::Verbatim(TokenStream::new()),
    }
}

/// Whether `s` exits on every path: a plain `break`, `continue` or `return`.
fn exits_always(s: &Stmt) -> bool {
    match s {
        Stmt::Expr(e, _) => {
            plain_break(e) || plain_continue(e) || matches!(peel(e), Expr::Return(_))
        }
        _ => false,
    }
}

/// `if d { break; }`, the exit test that ends a loop body as the user wrote it: `d`.
fn final_exit(s: &Stmt) -> Option<&Expr> {
    let Stmt::Expr(Expr::If(i), _) = s else { return None };
    match (i.then_branch.stmts.as_slice(), &i.else_branch) {
        ([Stmt::Expr(b, _)], None) if plain_break(b) => Some(&i.cond),
        _ => None,
    }
}

impl Lower<'_> {
    /// The body of a loop with its early exits rewritten.
    pub(in crate::lower) fn loop_body(&mut self, body: &Block) -> LoopBody {
        // The loop's own exit test at its end, and no other exit: kept as written.
        if let Some((last, rest)) = body.stmts.split_last()
            && let Some(exit) = final_exit(last)
            && !of_stmts(rest).any()
        {
            return LoopBody { stmts: rest.to_vec(), exit: Some(exit.clone()) };
        }
        let flags = Flags {
            done: self.names.fresh(crate::symbol::FLAG_DONE),
            skip: self.names.fresh(crate::symbol::FLAG_SKIP),
        };
        let (stmts, taken) = flags.stmts(&body.stmts);
        let mut declared: Vec<Stmt> = Vec::new();
        let (done, skip) = (&flags.done, &flags.skip);
        if taken.brk {
            declared.extend(syn::parse2::<Stmt>(quote!(let mut #done = false;)));
        }
        if taken.cont {
            declared.extend(syn::parse2::<Stmt>(quote!(let mut #skip = false;)));
        }
        let exit = taken.brk.then(|| syn::parse2::<Expr>(quote!(#done)).ok());
        declared.extend(stmts);
        LoopBody { stmts: declared, exit: exit.flatten() }
    }

    /// The function body `block` with its early `return`s rewritten (`None` when it has none):
    /// the flag and the value are declared first, and the function's value is the `else` of
    /// `if returned { ret }` after the first statement that may return.
    pub(in crate::lower) fn early_returns(
        &mut self,
        block: &Block,
        zero: TokenStream,
    ) -> Option<Block> {
        if !returns_early(block) {
            return None;
        }
        let returns = Returns {
            returned: self.names.fresh(crate::symbol::FLAG_RETURNED),
            value: self.names.fresh(crate::symbol::RETURN_VALUE),
        };
        let (returned, value) = (&returns.returned, &returns.value);
        let stmts = function_stmts(&block.stmts, &returns);
        let tokens = quote!({ let mut #value = #zero; let mut #returned = false; #(#stmts)* });
        syn::parse2(tokens).ok()
    }
}

/// The statements of the function's body from some point on, ending with its value.
fn function_stmts(stmts: &[Stmt], returns: &Returns) -> Vec<Stmt> {
    let (returned, value) = (&returns.returned, &returns.value);
    let mut out = Vec::new();
    for (i, s) in stmts.iter().enumerate() {
        if let Stmt::Expr(Expr::Return(r), _) = s {
            // The function's value; what follows never runs.
            let v = r.expr.as_ref().map(|v| v.to_token_stream()).unwrap_or_default();
            out.extend(syn::parse2::<Stmt>(quote!(#v)));
            return out;
        }
        if !of_stmt(s).ret {
            out.push(s.clone());
            continue;
        }
        let tail = function_stmts(&stmts[i + 1..], returns);
        // A guard clause: `if c { …; return e; }` is `if c { …; e } else { rest }`.
        if let Some(clause) = guard_clause(s, &tail) {
            out.push(clause);
            return out;
        }
        out.extend(lift_stmt(s, false, returns));
        out.extend(syn::parse2::<Stmt>(quote!(if #returned { #value } else { #(#tail)* })));
        return out;
    }
    out
}

/// `stmts` with each `return e` as `ret = e; returned = true;` (and `break;` in a loop, where a
/// loop ended by one is followed by `if returned { break; }`); outside loops, the rest of a
/// block after a statement that may return is guarded by `!returned`.
fn lift_block(stmts: &[Stmt], in_loop: bool, returns: &Returns) -> Vec<Stmt> {
    let mut out = Vec::new();
    for (i, s) in stmts.iter().enumerate() {
        if !of_stmt(s).ret {
            out.push(s.clone());
            continue;
        }
        out.extend(lift_stmt(s, in_loop, returns));
        if in_loop || matches!(s, Stmt::Expr(Expr::Return(_), _)) {
            if matches!(s, Stmt::Expr(Expr::Return(_), _)) {
                return out;
            }
            continue;
        }
        let rest = lift_block(&stmts[i + 1..], false, returns);
        if !rest.is_empty() {
            let returned = &returns.returned;
            out.extend(syn::parse2::<Stmt>(quote!(if !#returned { #(#rest)* })));
        }
        return out;
    }
    out
}

/// One statement that may return, lifted (see [`lift_block`]).
fn lift_stmt(s: &Stmt, in_loop: bool, returns: &Returns) -> Vec<Stmt> {
    let Stmt::Expr(e, semi) = s else { return vec![s.clone()] };
    let (returned, value) = (&returns.returned, &returns.value);
    let stmts = |t: TokenStream| -> Vec<Stmt> {
        syn::parse2::<Block>(quote!({ #t })).map(|b| b.stmts).unwrap_or_default()
    };
    match e {
        Expr::Return(r) => {
            let v = r.expr.as_ref().map(|v| v.to_token_stream()).unwrap_or_default();
            let exit = if in_loop { quote!(break;) } else { TokenStream::new() };
            stmts(quote!(#value = #v; #returned = true; #exit))
        }
        Expr::ForLoop(_) | Expr::While(_) | Expr::Loop(_) => {
            let mut l = e.clone();
            match &mut l {
                Expr::ForLoop(f) => f.body.stmts = lift_block(&f.body.stmts, true, returns),
                Expr::While(w) => w.body.stmts = lift_block(&w.body.stmts, true, returns),
                Expr::Loop(lp) => lp.body.stmts = lift_block(&lp.body.stmts, true, returns),
                _ => {}
            }
            let mut out = vec![Stmt::Expr(l, *semi)];
            if in_loop {
                out.extend(stmts(quote!(if #returned { break; })));
            }
            out
        }
        Expr::If(_) | Expr::Block(_) | Expr::Match(_) => {
            vec![Stmt::Expr(lift_expr(e, in_loop, returns), *semi)]
        }
        _ => vec![s.clone()],
    }
}

/// An `if`, `match` or block with the `return`s in its blocks lifted.
fn lift_expr(e: &Expr, in_loop: bool, returns: &Returns) -> Expr {
    let mut e = e.clone();
    match &mut e {
        Expr::If(i) => {
            i.then_branch.stmts = lift_block(&i.then_branch.stmts, in_loop, returns);
            if let Some((_, els)) = &mut i.else_branch {
                **els = lift_expr(els, in_loop, returns);
            }
        }
        Expr::Block(b) => b.block.stmts = lift_block(&b.block.stmts, in_loop, returns),
        Expr::Match(m) => {
            for arm in &mut m.arms {
                let body = (*arm.body).clone();
                let block: Expr = match body {
                    Expr::Block(_) => body,
                    other => syn::parse2(quote!({ #other; })).unwrap_or(other),
                };
                *arm.body = lift_expr(&block, in_loop, returns);
            }
        }
        _ => {}
    }
    e
}

/// `if c { …; e } else { tail }` for `s` = `if c { …; return e; }` (no `else`, no other exit).
fn guard_clause(s: &Stmt, tail: &[Stmt]) -> Option<Stmt> {
    let Stmt::Expr(Expr::If(i), _) = s else { return None };
    if i.else_branch.is_some() {
        return None;
    }
    let (last, body) = i.then_branch.stmts.split_last()?;
    let Stmt::Expr(Expr::Return(r), _) = last else { return None };
    if of_stmts(body).any() {
        return None;
    }
    let v = r.expr.as_ref()?;
    let c = &i.cond;
    syn::parse2(quote!(if #c { #(#body)* #v } else { #(#tail)* })).ok()
}
