//! Loop indices named apart from what their loops use: an index keeps the user's name unless the
//! generated body of its loop uses another value of that name (the user's `f64` parameter `i`
//! read in the sweep of a `for i` loop, a `let i` inside it, or an enclosing `for i` whose index
//! the body reads), in which case it becomes `i_1`. The user's tokens kept in the IR (indices,
//! bounds, constants) name loop indices by the user's identifiers: [`user_tokens`] renames them.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, Span, TokenStream, TokenTree};

use super::names::Namer;
use crate::ir::{Arg, Block, Cond, Func, Int, LoopId, Operand, Stmt, Var, reads, stmt_defs};
use crate::symbol;

/// What a region's blocks use: every variable read or defined, and every loop index read.
#[derive(Default)]
struct Uses {
    vars: HashSet<Var>,
    loops: HashSet<LoopId>,
}

impl Uses {
    fn int(&mut self, i: &Int) {
        self.loops.extend(i.loops.iter().copied());
    }

    fn operand(&mut self, f: &Func, op: Operand) {
        match op {
            Operand::Var(v) => {
                self.vars.insert(v);
            }
            Operand::Ext(e) => self.loops.extend(f.exts[e.0 as usize].loops.iter().copied()),
            Operand::Lit(_) | Operand::Bool(_) => {}
        }
    }

    fn cond(&mut self, c: &Cond) {
        match c {
            Cond::Int(_, a, b) => {
                self.int(a);
                self.int(b);
            }
            Cond::Not(c) => self.cond(c),
            Cond::And(a, b) | Cond::Or(a, b) => {
                self.cond(a);
                self.cond(b);
            }
            Cond::F64(..) | Cond::Var(_) => {}
        }
    }

    fn block(&mut self, f: &Func, block: &Block, yields: &[Operand]) {
        for y in yields {
            self.operand(f, *y);
        }
        for s in block {
            self.stmt(f, s);
        }
    }

    fn stmt(&mut self, f: &Func, s: &Stmt) {
        for op in reads(s) {
            self.operand(f, op);
        }
        self.vars.extend(stmt_defs(s));
        match s {
            Stmt::Test { cond, .. } => self.cond(cond),
            Stmt::Load { index, .. } | Stmt::Store { index, .. } => {
                index.iter().for_each(|i| self.int(i));
            }
            Stmt::For(l) => {
                self.int(&l.range.lo);
                self.int(&l.range.hi);
                self.vars.extend(l.carried.iter().map(|c| c.param));
                self.block(f, &l.body, &l.yields);
            }
            Stmt::If(b) => {
                self.block(f, &b.then, &b.then_yields);
                self.block(f, &b.otherwise, &b.else_yields);
            }
            Stmt::While(w) => {
                if let Some(r) = &w.range {
                    self.int(&r.lo);
                    self.int(&r.hi);
                }
                self.vars.extend(w.carried.iter().map(|c| c.param));
                self.block(f, &w.body, &w.yields);
                self.operand(f, w.cond);
            }
            Stmt::Checkpoint(c) => {
                if let Some(r) = c.source.range() {
                    self.int(&r.lo);
                    self.int(&r.hi);
                }
                self.vars.extend(c.step_params.iter().chain(&c.back_params).copied());
                self.vars.extend(c.adjoint.iter().map(|a| a.param));
                self.block(f, &c.step, &c.step_yields);
                self.block(f, &c.back, &c.back_yields);
            }
            Stmt::Call(c) => {
                for a in &c.args {
                    if let Arg::Const(e) = a {
                        self.operand(f, Operand::Ext(*e));
                    }
                }
            }
            Stmt::Op { .. } | Stmt::Fill { .. } | Stmt::Array { .. } => {}
        }
    }
}

/// One loop region (a `for` or `while` loop, or the closures of a checkpointed sweep): its index, the
/// indices of the loops around it, and what its blocks use.
struct Region {
    index: LoopId,
    outer: Vec<LoopId>,
    uses: Uses,
}

fn regions(f: &Func, block: &Block, outer: &mut Vec<LoopId>, out: &mut Vec<Region>) {
    for s in block {
        let (index, blocks): (LoopId, Vec<(&Block, &[Operand])>) = match s {
            Stmt::For(l) => (l.index, vec![(&l.body, &l.yields)]),
            Stmt::While(w) => (w.index, vec![(&w.body, &w.yields)]),
            Stmt::Checkpoint(c) => {
                (c.index, vec![(&c.step, &c.step_yields), (&c.back, &c.back_yields)])
            }
            Stmt::If(b) => {
                regions(f, &b.then, outer, out);
                regions(f, &b.otherwise, outer, out);
                continue;
            }
            _ => continue,
        };
        let mut uses = Uses::default();
        uses.stmt(f, s);
        out.push(Region { index, outer: outer.clone(), uses });
        outer.push(index);
        for (b, _) in blocks {
            regions(f, b, outer, out);
        }
        outer.pop();
    }
}

/// The names the code reads for `v`: its identifier, or for an inlined value those its
/// definition reads.
fn names_of(v: Var, idents: &[Option<Ident>], defs: &HashMap<Var, &Stmt>, out: &mut Vec<String>) {
    if let Some(id) = &idents[v.index()] {
        out.push(symbol::unraw(id));
        return;
    }
    if let Some(s) = defs.get(&v) {
        for op in reads(s) {
            if let Operand::Var(w) = op {
                names_of(w, idents, defs, out);
            }
        }
    }
}

fn collect_defs<'a>(block: &'a Block, defs: &mut HashMap<Var, &'a Stmt>) {
    for s in block {
        match s {
            Stmt::For(l) => collect_defs(&l.body, defs),
            Stmt::While(w) => collect_defs(&w.body, defs),
            Stmt::If(b) => {
                collect_defs(&b.then, defs);
                collect_defs(&b.otherwise, defs);
            }
            Stmt::Checkpoint(c) => {
                collect_defs(&c.step, defs);
                collect_defs(&c.back, defs);
            }
            _ => stmt_defs(s).into_iter().for_each(|v| {
                defs.insert(v, s);
            }),
        }
    }
}

/// Renames, in `loops`, each index whose name a value used in its loop's generated body has, or
/// an enclosing loop's index that the body reads has; outer loops first, so that an inner loop
/// is compared with the names its enclosing loops end up with.
pub fn separate(namer: &mut Namer, f: &Func, idents: &[Option<Ident>], loops: &mut [Ident]) {
    let mut found = Vec::new();
    regions(f, &f.body, &mut Vec::new(), &mut found);
    let mut defs = HashMap::new();
    collect_defs(&f.body, &mut defs);
    let mut order: Vec<LoopId> = Vec::new();
    for r in &found {
        if !order.contains(&r.index) {
            order.push(r.index);
        }
    }
    for id in order {
        let Some(user) = &f.loops[id.0 as usize].ident else { continue };
        let name = symbol::unraw(user);
        let clash = found.iter().filter(|r| r.index == id).any(|r| {
            let mut names = Vec::new();
            r.uses.vars.iter().for_each(|v| names_of(*v, idents, &defs, &mut names));
            let outer = r.outer.iter().filter(|o| **o != id && r.uses.loops.contains(o));
            names.contains(&name)
                || outer.into_iter().any(|o| symbol::unraw(&loops[o.0 as usize]) == name)
        });
        if clash {
            loops[id.0 as usize] = Ident::new(&namer.fresh(&name, false), Span::mixed_site());
        }
    }
}

/// The user's `tokens`, which read the indices of `read`, with the indices that codegen renamed
/// and the parameters it named apart (`params`, by the user's names) written by their new names.
pub fn user_tokens(
    f: &Func,
    loops: &[Ident],
    read: &[LoopId],
    params: &HashMap<String, Ident>,
    tokens: &TokenStream,
) -> TokenStream {
    let mut renamed: Vec<(String, &Ident)> = read
        .iter()
        .filter_map(|l| {
            let user = f.loops[l.0 as usize].ident.as_ref()?;
            let now = &loops[l.0 as usize];
            (symbol::unraw(user) != symbol::unraw(now)).then(|| (symbol::unraw(user), now))
        })
        .collect();
    renamed.extend(params.iter().map(|(user, now)| (user.clone(), now)));
    match renamed.is_empty() {
        true => tokens.clone(),
        false => rename(tokens, &renamed),
    }
}

/// `tokens` with each name in `renamed` that stands as a path of its own (not a field, a method,
/// a segment of a longer path, or a type after `as`) replaced.
fn rename(tokens: &TokenStream, renamed: &[(String, &Ident)]) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let punct =
        |t: Option<&TokenTree>, c: char| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c);
    let mut out = Vec::with_capacity(trees.len());
    for (k, t) in trees.iter().enumerate() {
        let before = k.checked_sub(1).and_then(|j| trees.get(j));
        let after = trees.get(k + 1);
        let replaced = match t {
            TokenTree::Group(g) => {
                let mut group =
                    proc_macro2::Group::new(g.delimiter(), rename(&g.stream(), renamed));
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            TokenTree::Ident(id)
                if !punct(before, '.')
                    && !punct(before, ':')
                    && !punct(after, ':')
                    && !matches!(before, Some(TokenTree::Ident(a)) if a == "as") =>
            {
                match renamed.iter().find(|(old, _)| *old == symbol::unraw(id)) {
                    Some((_, now)) => TokenTree::Ident((*now).clone()),
                    None => t.clone(),
                }
            }
            other => other.clone(),
        };
        out.push(replaced);
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::rename;
    use proc_macro2::{Ident, Span};
    use quote::quote;

    #[test]
    fn renames_the_index_not_fields_methods_paths_or_types() {
        let now = Ident::new("i_1", Span::call_site());
        let tokens = quote!(data[i] * (i as f64) + p.i + i.min(2) + m::i + i::K + (i + 1) as i);
        let out = rename(&tokens, &[("i".to_owned(), &now)]);
        let want =
            quote!(data[i_1] * (i_1 as f64) + p.i + i_1.min(2) + m::i + i::K + (i_1 + 1) as i);
        assert_eq!(out.to_string(), want.to_string());
    }
}
