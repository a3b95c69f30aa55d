//! The namer: every variable of the generated code gets a readable name derived from the user's
//! (`p`, `p_bar`, `p_bar_dot`) or a temporary name (`t0`, `t1`, ...), never one that collides with
//! an identifier the user wrote.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, Span, TokenStream, TokenTree};

use super::layout::{Layout, Repr};
use crate::ir::{Block, Func, Name, Stmt, Var, stmt_defs};
use crate::symbol;

/// Hands out unique names.
pub struct Namer {
    /// Every identifier in the user's function.
    seed: HashSet<String>,
    /// Names already given out.
    claimed: HashSet<String>,
    next_temp: usize,
}

impl Namer {
    /// A namer that avoids every identifier in `tokens` (the user's whole function).
    pub fn new(tokens: TokenStream) -> Self {
        let mut seed = HashSet::new();
        collect(tokens, &mut seed);
        Namer { seed, claimed: HashSet::new(), next_temp: 0 }
    }

    /// Claims `name` itself (a user's parameter).
    pub fn claim(&mut self, name: &str) {
        self.claimed.insert(name.to_owned());
    }

    fn free(&self, name: &str) -> bool {
        !self.seed.contains(name) && !self.claimed.contains(name)
    }

    /// `want` if it is free (or the user's own variable name, used once), else `want_1`, `want_2`...
    pub fn fresh(&mut self, want: &str, users_own: bool) -> String {
        let mut name = want.to_owned();
        let mut k = 0;
        while !(self.free(&name) || (users_own && k == 0 && !self.claimed.contains(&name))) {
            k += 1;
            name = format!("{want}_{k}");
        }
        self.claimed.insert(name.clone());
        name
    }

    /// `base_k` for the first free `k >= first` (`s_2` for the third assignment of `s`).
    pub fn numbered(&mut self, base: &str, first: u32) -> String {
        let mut k = first;
        loop {
            let name = format!("{base}_{k}");
            if self.free(&name) {
                self.claimed.insert(name.clone());
                return name;
            }
            k += 1;
        }
    }

    /// The next free temporary name.
    pub fn temp(&mut self) -> String {
        loop {
            let name = format!("{}{}", symbol::TEMP_PREFIX, self.next_temp);
            self.next_temp += 1;
            if self.free(&name) {
                self.claimed.insert(name.clone());
                return name;
            }
        }
    }

    /// A parameter named after the user's `want` (itself unless that name is claimed), with a
    /// mixed-site span.
    pub fn local_param(&mut self, want: &Ident) -> Ident {
        ident(&self.fresh(&symbol::unraw(want), true), Span::mixed_site())
    }

    /// The first free name of `wants` (or a numbered one), as a local of the generated code.
    pub fn local_from(&mut self, wants: &[&str]) -> Ident {
        let text = match wants.iter().find(|w| self.free(w)) {
            Some(w) => self.fresh(w, false),
            None => self.fresh(wants.first().copied().unwrap_or("i"), false),
        };
        Ident::new(&text, Span::mixed_site())
    }

    /// The next free type parameter `T0`, `T1`, ... of a generated function.
    pub fn type_param(&mut self) -> Ident {
        let mut k = 0;
        loop {
            let name = format!("T{k}");
            if self.free(&name) {
                self.claimed.insert(name.clone());
                return Ident::new(&name, Span::call_site());
            }
            k += 1;
        }
    }

    /// A fresh local of the generated code, with a mixed-site span for hygiene.
    pub fn local(&mut self, want: &str) -> Ident {
        Ident::new(&self.fresh(want, false), Span::mixed_site())
    }
}

fn collect(tokens: TokenStream, out: &mut HashSet<String>) {
    for t in tokens {
        match t {
            TokenTree::Ident(id) => {
                out.insert(symbol::unraw(&id));
            }
            TokenTree::Group(g) => collect(g.stream(), out),
            _ => {}
        }
    }
}

/// An identifier for `text`, raw (`r#in`) if `text` is a keyword.
pub fn ident(text: &str, span: Span) -> Ident {
    match syn::parse_str::<Ident>(text) {
        Ok(_) => Ident::new(text, span),
        Err(_) => Ident::new_raw(text, span),
    }
}

/// Chooses the names of one function's variables.
struct Assigner<'a> {
    namer: &'a mut Namer,
    f: &'a Func,
    /// The chosen spelling of each named variable, once chosen.
    chosen: Vec<Option<String>>,
}

impl Assigner<'_> {
    /// The spelling of the named variable `v`, choosing it (and its origin's) on first use, so
    /// that `p_1_bar` is always the adjoint of the variable printed as `p_1`.
    fn spelling(&mut self, v: Var) -> Option<String> {
        if let Some(done) = &self.chosen[v.index()] {
            return Some(done.clone());
        }
        let text = match self.f.name(v) {
            Name::Temp => return None,
            Name::User { ident, version: 0 } => self.namer.fresh(ident, true),
            Name::User { ident, version } => self.namer.numbered(ident, *version),
            Name::Derived { of, suffix } => {
                let base = self.spelling(*of)?;
                self.namer.fresh(&format!("{base}_{}", Name::suffix_str(*suffix)), false)
            }
            Name::Hint(h) => self.namer.fresh(h, false),
            Name::Partial { of, callee, wrt, index } => {
                let of = self.spelling(*of).unwrap_or_else(|| callee.clone());
                let wrt = wrt.and_then(|w| self.spelling(w)).unwrap_or_else(|| index.to_string());
                self.namer.fresh(&format!("d{of}_d{wrt}"), false)
            }
        };
        self.chosen[v.index()] = Some(text.clone());
        Some(text)
    }
}

/// The name `v` wants without assignment numbers (`s` for `s_2`, `s_bar` for `s_1_bar`): the name
/// of a variable that holds every version.
pub fn unnumbered(f: &Func, v: Var) -> Option<(String, bool)> {
    match f.name(v) {
        Name::Temp => None,
        Name::User { ident, .. } => Some((ident.clone(), true)),
        Name::Derived { of, suffix } => {
            let (base, _) = unnumbered(f, *of)?;
            Some((format!("{base}_{}", Name::suffix_str(*suffix)), false))
        }
        Name::Hint(h) => Some(((*h).to_owned(), false)),
        Name::Partial { .. } => None,
    }
}

/// The functions that `f` calls by their bare name (`g`, `g_grad`, `g_jvp`, `g_hvp`).
fn called(f: &Func) -> HashSet<String> {
    fn walk(block: &Block, out: &mut HashSet<String>) {
        for s in block {
            match s {
                Stmt::Call(c) if c.callee.prefix.is_empty() && !c.callee.method => {
                    out.insert(super::call::called_name(c).to_string());
                }
                Stmt::For(l) => walk(&l.body, out),
                // A loop of unknown length too (bug 38: its calls were missed).
                Stmt::While(w) => walk(&w.body, out),
                Stmt::If(b) => {
                    walk(&b.then, out);
                    walk(&b.otherwise, out);
                }
                Stmt::Checkpoint(c) => {
                    walk(&c.step, out);
                    walk(&c.back, out);
                }
                _ => {}
            }
        }
    }
    let mut out = HashSet::new();
    walk(&f.body, &mut out);
    out
}

/// Claims the functions that `f` calls by their bare name (`g_grad` for a call of `g`), which
/// no generated local may shadow.
pub fn claim_called(namer: &mut Namer, f: &Func) {
    called(f).iter().for_each(|c| namer.claim(c));
}

/// The parameters passed through as constants (`names`: integers, data, other types, which are
/// no variables of `f`) named like a function the generated code calls by its bare name
/// (`g_grad: usize` with a call of `g`), which they would shadow there: each named apart, by its
/// own name. (Run after [`assign`], which claims the called names.)
pub fn constants_apart<'a>(
    namer: &mut Namer,
    f: &Func,
    names: impl Iterator<Item = &'a Ident>,
) -> HashMap<String, Ident> {
    let called = called(f);
    names
        .map(symbol::unraw)
        .filter(|n| called.contains(n))
        .map(|n| {
            let fresh = namer.fresh(&n, false);
            (n, ident(&fresh, Span::mixed_site()))
        })
        .collect()
}

/// Every variable of `f` in order of definition: inputs, then each statement's (loop-carried
/// values at their loop).
fn in_order(f: &Func) -> Vec<Var> {
    fn walk(block: &Block, out: &mut Vec<Var>) {
        for s in block {
            match s {
                Stmt::For(l) => {
                    out.extend(l.carried.iter().map(|c| c.param));
                    walk(&l.body, out);
                }
                Stmt::While(w) => {
                    out.extend(w.carried.iter().map(|c| c.param));
                    walk(&w.body, out);
                }
                Stmt::If(b) => {
                    walk(&b.then, out);
                    walk(&b.otherwise, out);
                }
                Stmt::Checkpoint(c) => {
                    out.extend(c.step_params.iter().copied());
                    walk(&c.step, out);
                    out.extend(c.back_params.iter().copied());
                    out.extend(c.adjoint.iter().map(|a| a.param));
                    walk(&c.back, out);
                }
                _ => {}
            }
            out.extend(stmt_defs(s));
        }
    }
    let mut out = f.inputs.clone();
    walk(&f.body, &mut out);
    out
}

/// The identifier of every variable of `f` (indexed by [`Var`]; `None` for inlined values; the
/// members of a slot share its identifier), and of every loop index. The user's parameters and
/// loop indices keep their own identifiers (and spans).
pub fn assign(
    namer: &mut Namer,
    f: &Func,
    params: &HashMap<Var, Ident>,
    layout: &Layout,
) -> (Vec<Option<Ident>>, Vec<Ident>) {
    let mut idents: Vec<Option<Ident>> = vec![None; f.names.len()];
    let mut chosen = vec![None; f.names.len()];
    // A user's variable named like a function the generated code calls by its bare name
    // (`g_grad` for a call of `g`) would shadow it there: it is named apart.
    let called = called(f);
    called.iter().for_each(|c| namer.claim(c));
    let mut params: Vec<(&Var, &Ident)> = params.iter().collect();
    params.sort_by_key(|(v, _)| v.index());
    for (v, id) in params {
        let mut text = symbol::unraw(id);
        let id = match called.contains(&text) {
            true => {
                text = namer.fresh(&text, false);
                ident(&text, Span::mixed_site())
            }
            false => id.clone(),
        };
        namer.claim(&text);
        chosen[v.index()] = Some(text);
        idents[v.index()] = Some(id);
    }
    let mut loops: Vec<Ident> = f
        .loops
        .iter()
        .map(|l| match &l.ident {
            Some(id) if called.contains(&symbol::unraw(id)) => namer.local(&symbol::unraw(id)),
            Some(id) => id.clone(),
            None => namer.local_from(symbol::INDEX_NAMES),
        })
        .collect();
    let mut slot_names: HashMap<usize, Ident> = HashMap::new();
    let mut assigner = Assigner { namer, f, chosen };
    for v in in_order(f) {
        if idents[v.index()].is_some() {
            continue;
        }
        let id = match layout.repr[v.index()] {
            Repr::Inline => continue,
            Repr::Slot(s) => match slot_names.get(&s) {
                Some(id) => id.clone(),
                None => {
                    let want = layout.slots[s].iter().find_map(|m| unnumbered(f, *m));
                    let text = match want {
                        Some((text, users)) => assigner.namer.fresh(&text, users),
                        None => assigner.namer.temp(),
                    };
                    let id = ident(&text, Span::mixed_site());
                    slot_names.insert(s, id.clone());
                    id
                }
            },
            Repr::Let => {
                let text = match assigner.spelling(v) {
                    Some(text) => text,
                    None => assigner.namer.temp(),
                };
                ident(&text, Span::mixed_site())
            }
        };
        idents[v.index()] = Some(id);
    }
    super::indices::separate(assigner.namer, f, &idents, &mut loops);
    (idents, loops)
}

/// A name for the tape of every loop of `f` that fills one (in nested blocks too).
pub fn tapes(namer: &mut Namer, f: &Func) -> HashMap<crate::ir::LoopId, Ident> {
    fn walk(block: &Block, namer: &mut Namer, out: &mut HashMap<crate::ir::LoopId, Ident>) {
        for s in block {
            match s {
                Stmt::While(w) => {
                    if w.tape.is_some() && !out.contains_key(&w.index) {
                        out.insert(w.index, namer.local(symbol::TAPE));
                    }
                    walk(&w.body, namer, out);
                }
                Stmt::For(l) => walk(&l.body, namer, out),
                Stmt::If(b) => {
                    walk(&b.then, namer, out);
                    walk(&b.otherwise, namer, out);
                }
                Stmt::Checkpoint(c) => {
                    walk(&c.step, namer, out);
                    walk(&c.back, namer, out);
                }
                _ => {}
            }
        }
    }
    let mut out = HashMap::new();
    walk(&f.body, namer, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn names_avoid_the_users_identifiers() {
        let mut namer = Namer::new(quote!(
            fn f(x: f64, t0: f64) {
                let p_bar = x;
                let p = p_bar;
            }
        ));
        assert_eq!(namer.fresh("p", true), "p");
        assert_eq!(namer.fresh("p", true), "p_1");
        assert_eq!(namer.fresh("p_bar", false), "p_bar_1");
        assert_eq!(namer.temp(), "t1");
        assert_eq!(namer.fresh("x_dot", false), "x_dot");
    }
}
