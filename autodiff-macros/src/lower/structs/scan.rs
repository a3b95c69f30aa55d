//! The pre-pass over a body with differentiated struct parameters: which of their fields it reads
//! (`m.w`, `self.inner.c`), and how. A macro sees tokens, not types, so a field's type is read
//! from its uses: read as a value, it is an `f64`, or an array of as many dimensions as the body
//! indexes it with (at least one where it is iterated over, lent with `&` or asked its `len()`);
//! read only where an integer goes (an index, a range's bound, a cast, a typed integer `let`), it
//! is a constant. A local bound to a field read (`let y = m.x;`, `let r = m.x[0];`) passes its
//! uses on to the field (`y[i][j]` makes `m.x` two-dimensional), and a typed `let`
//! (`let r: [f64; 2] = m.x[0];`) tells the dimensions its type has.
//!
//! A field read as a value only whole, as an argument of calls (`g(m.c)`, `g(&m.inner)`) or the
//! receiver of a method that is not an `f64` method (`m.inner.norm()`), is marked so
//! ([`FieldUse::only_whole`]): nothing tells its type, and lowering holds it laid flat.
//!
//! A field copied into the struct literal that the function returns (`Model { w: m.w, .. }`, or
//! a literal bound to a local that is returned) is passed whole too. A struct literal bound to a
//! local passes the uses of its fields on (`let n = Model { w: m.w, .. };` then `n.w[i]` indexes
//! `m.w`); the local read whole otherwise (passed to a call) reads them as values of unknown use.
//! A field bound to an untyped local (`let w = r.v;`) is not read by the binding: its uses are
//! the local's ([`FieldUse::passed_only`]).
//!
//! A local that is a copy of a field of a parameter (`let c = m.c;`) is read as the field before
//! this runs (see `copies.rs`).
//!
//! A row of a field passed to a call (`g(m.x[i])`, `g(&m.x[i])`, any number of indices) is
//! marked so ([`FieldUse::rows`]): an `f64` or an array, as the callee takes it. A field read as
//! a value only so (and maybe whole) is held laid flat, each row copied out at its call (see
//! `rows.rs`).
//!
//! What this does not know: the callee's signature. Where a field read by rows passed to calls
//! is read otherwise too, its type is read from those other reads (`m.x[1][0]` makes it a
//! matrix, and `m.x[0]` a row); if none tells, a row is read as an `f64` (and by `&`, as an
//! array of one dimension more than its indices), and if it is an array, rustc reports it at
//! the read with how to say so (see `autodiff_runtime::__private::ArrayField`).

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{Block, Expr, Member, Pat, Stmt};

use crate::symbol;

/// How the body uses one field path of a struct parameter.
#[derive(Clone)]
pub(in crate::lower) struct FieldUse {
    /// The parameter's name (`self` for the receiver).
    pub root: String,
    /// The fields from the parameter down (`[inner, c]` for `m.inner.c`).
    pub path: Vec<Member>,
    /// Whether it is read as a value somewhere (else only where an integer goes).
    pub value: bool,
    /// The most dimensions it is indexed with, or known to have.
    pub depth: usize,
    /// Its first use, for messages and for the spans of the generated code's reads.
    pub first: TokenStream,
    /// Whether it is passed whole to a call (itself, or a local bound to it), where an array
    /// could go as well as an `f64`.
    pub passed: bool,
    /// Whether it is itself (not a local bound to it) passed whole to a call, by value or by
    /// `&`, or the receiver of a method that is not an `f64` method.
    pub whole: bool,
    /// Whether it is read as a value otherwise (indexed, iterated, in arithmetic, bound, ...).
    pub other: bool,
    /// Whether it is the receiver of a method that is not an `f64` method (a struct, then).
    pub receiver: bool,
    /// Whether it is bound to a local without a type (`let w = r.v;`), whose uses are its own.
    pub bound: bool,
    /// Whether a row of it (`m.x[i]`, `&m.x[i]`, any number of indices) is an argument of a
    /// call, where an array goes as well as an `f64`.
    pub rows: bool,
}

impl FieldUse {
    /// Whether the body reads it as a value only whole, as an argument of calls and the
    /// receiver of methods: then nothing tells its type (an `f64`, an array of any dimensions,
    /// a nested struct), and it is held as its differentiated scalars laid flat.
    pub fn only_whole(&self) -> bool {
        self.value && self.whole && !self.rows && !self.other && !self.bound
    }

    /// Whether the body reads it as a value only by rows passed to calls (`g(m.x[i])`,
    /// `g(&m.x[i])`), and maybe whole too: then nothing tells the type of a row, and it is
    /// held as its differentiated scalars laid flat, a row copied out of them at each call.
    pub fn rows_only(&self) -> bool {
        self.value && self.rows && !self.other && !self.bound
    }

    /// Whether the body reads it as a value only whole, itself or through locals bound to it
    /// without a type (`let w = r.v; g(w)`): passed to calls, or copied into the struct the
    /// function returns, never indexed nor read otherwise.
    pub fn passed_only(&self) -> bool {
        self.value && (self.whole || self.rows) && !self.other
    }
}

/// Where an expression is read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// As a value (an `f64`, or an array).
    Value,
    /// As an integer.
    Int,
}

/// The field paths of `roots` that `body` uses, in order of first use.
pub(in crate::lower) fn uses(body: &Block, roots: &[String]) -> Vec<FieldUse> {
    let mut s = Scan {
        roots,
        hidden: Vec::new(),
        uses: Vec::new(),
        aliases: Vec::new(),
        passing: false,
        whole: false,
        receiver: false,
        binding: false,
        placed: false,
        row: false,
    };
    // The block's value is what the function returns (a field copied into a returned struct
    // literal is passed whole).
    let outer = s.aliases.clone();
    if let Some((Stmt::Expr(tail, None), init)) = body.stmts.split_last() {
        let head = Block { brace_token: body.brace_token, stmts: init.to_vec() };
        s.stmts(&head);
        s.returned(tail);
    } else {
        s.stmts(body);
    }
    s.aliases = outer;
    s.uses
}

/// `e` as a path of fields from a name: `m.w` is `("m", [w])`.
pub(in crate::lower) fn field_path(e: &Expr) -> Option<(String, Vec<Member>)> {
    match e {
        Expr::Field(f) => {
            let (root, mut path) = match peel(&f.base) {
                Expr::Path(p) if p.qself.is_none() => {
                    (symbol::unraw(p.path.get_ident()?), Vec::new())
                }
                inner @ Expr::Field(_) => field_path(inner)?,
                _ => return None,
            };
            path.push(f.member.clone());
            Some((root, path))
        }
        Expr::Paren(p) => field_path(&p.expr),
        Expr::Group(g) => field_path(&g.expr),
        _ => None,
    }
}

/// `read` indexed as `e` indexes its base: `m.x[0][j]` for `read` `m.x[0]` and `e` `y[j]`.
fn reindex(read: &Expr, e: &Expr) -> Expr {
    match peel(e) {
        Expr::Index(i) => {
            let mut out = i.clone();
            out.expr = Box::new(reindex(read, &i.expr));
            Expr::Index(out)
        }
        _ => read.clone(),
    }
}

fn peel(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => peel(&p.expr),
        Expr::Group(g) => peel(&g.expr),
        other => other,
    }
}

/// `x[i][j]` as its base and the number of indices.
fn indexed(e: &Expr) -> (&Expr, usize) {
    match peel(e) {
        Expr::Index(i) => {
            let (base, n) = indexed(&i.expr);
            (base, n + 1)
        }
        other => (other, 0),
    }
}

struct Scan<'a> {
    roots: &'a [String],
    /// The roots that a binding of the body shadows here (`let m = 2.0;`): a field of such a
    /// name is no field of the root's.
    hidden: Vec<String>,
    uses: Vec<FieldUse>,
    /// Locals bound to a field read: the local's name, the field read (`m.x[0]`), and how many
    /// times it is indexed.
    aliases: Vec<(String, Expr)>,
    /// Whether the expression being read is an argument of a call.
    passing: bool,
    /// Whether the expression being read is itself an argument of a call (or `&` of one), or a
    /// method's receiver.
    whole: bool,
    /// Whether the expression being read is a method's receiver.
    receiver: bool,
    /// Whether the expression being read is bound to a local without a type.
    binding: bool,
    /// Whether the expression being read is a field of a struct literal (whose uses are those
    /// of the literal's field).
    placed: bool,
    /// Whether the expression being read is a row of a field (`m.x[i]`) that is an argument of
    /// a call (or `&` of one).
    row: bool,
}

/// The number of array dimensions of the type `ty` (`[[f64; 2]; 3]` has 2), looking through a
/// reference.
fn array_depth(ty: &syn::Type) -> usize {
    match ty {
        syn::Type::Array(a) => 1 + array_depth(&a.elem),
        syn::Type::Reference(r) => array_depth(&r.elem),
        syn::Type::Paren(p) => array_depth(&p.elem),
        syn::Type::Group(g) => array_depth(&g.elem),
        _ => 0,
    }
}

/// Whether `name` is a method of `f64` (`atan2`, `mul_add`, `sin_cos`): its receiver and
/// arguments are `f64` values, not passed whole to a function of the user's.
fn float_method(name: &syn::Ident) -> bool {
    let name = name.to_string();
    symbol::method_prim(&name).is_some() || name == symbol::SIN_COS
}

/// The name a pattern binds, if it binds one name (`y`, `mut y`, `y: [f64; 2]`).
fn bound_name(pat: &Pat) -> Option<String> {
    match pat {
        Pat::Ident(p) if p.subpat.is_none() => Some(symbol::unraw(&p.ident)),
        Pat::Type(t) => bound_name(&t.pat),
        _ => None,
    }
}

impl Scan<'_> {
    /// Whether `name` is a root here (not shadowed).
    fn is_root(&self, name: &str) -> bool {
        self.roots.iter().any(|r| r == name) && !self.hidden.iter().any(|h| h == name)
    }

    /// The roots that `pat` binds are shadowed from here (until `hidden` is restored).
    fn bind(&mut self, pat: &Pat) {
        let names = super::scope::bound_names(pat).into_iter();
        let roots: Vec<String> = names.filter(|n| self.roots.contains(n)).collect();
        self.hidden.extend(roots);
    }

    /// Records a use of `e` (a field path of a root, or a local bound to one, indexed `n` times)
    /// if it is one, whose value has at least `extra` more dimensions.
    fn record(&mut self, e: &Expr, ctx: Ctx, extra: usize) -> bool {
        let (base, n) = indexed(e);
        let alias = self
            .alias_key(base)
            .and_then(|key| self.aliases.iter().rev().find(|(a, _)| *a == key))
            .map(|(_, e)| e.clone());
        // Only the read itself is passed, not its indices.
        let passing = std::mem::take(&mut self.passing);
        let whole = std::mem::take(&mut self.whole) && n == 0;
        let receiver = std::mem::take(&mut self.receiver) && whole;
        let binding = std::mem::take(&mut self.binding);
        let placed = std::mem::take(&mut self.placed);
        let row = std::mem::take(&mut self.row) && n > 0;
        if let Some(read) = alias {
            // `y[i]` for `let y = m.x[0];`: a use of `m.x` with one more index.
            (self.passing, self.whole, self.binding) = (passing, whole, binding);
            self.placed = placed;
            self.record(&read, ctx, n + extra);
            if let Expr::Index(i) = peel(e) {
                self.indices(i);
            }
            return true;
        }
        let Some((root, path)) = field_path(base) else { return false };
        if !self.is_root(&root) {
            return false;
        }
        let value = ctx == Ctx::Value;
        // A field passed whole is not known to have the dimensions a `&` gives it.
        let depth = if whole { 0 } else { n + extra };
        let other = value && !whole && !binding && !placed && !row;
        let bound = value && binding;
        let rows = value && row;
        let same = |u: &&mut FieldUse| u.root == root && u.path == path;
        match self.uses.iter_mut().find(same) {
            Some(u) => {
                u.value |= value;
                u.depth = u.depth.max(depth);
                u.passed |= passing;
                u.whole |= whole;
                u.other |= other;
                u.receiver |= receiver;
                u.bound |= bound;
                u.rows |= rows;
            }
            None => {
                let (first, passed) = (base.to_token_stream(), passing);
                let u = FieldUse {
                    root,
                    path,
                    value,
                    depth,
                    first,
                    passed,
                    whole,
                    other,
                    receiver,
                    bound,
                    rows,
                };
                self.uses.push(u);
            }
        }
        if let Expr::Index(i) = peel(e) {
            self.indices(i);
        }
        true
    }

    /// `let pat = init;`: reads `init`, then binds the local `pat` names to it when `init` is a
    /// field read (or a local bound to one), and forgets any earlier local of that name.
    fn local(&mut self, l: &syn::Local) {
        let (int, typed) = match &l.pat {
            Pat::Type(t) => (crate::lower::types::is_int(&t.ty), array_depth(&t.ty)),
            _ => (false, 0),
        };
        if let Some(init) = &l.init {
            let ctx = if int { Ctx::Int } else { Ctx::Value };
            self.binding = !matches!(l.pat, Pat::Type(_)) && init.diverge.is_none();
            let recorded = self.record(&init.expr, ctx, typed);
            self.binding = false;
            if !recorded {
                self.expr(&init.expr, ctx);
            }
            if let Some((_, e)) = &init.diverge {
                self.expr(e, Ctx::Value);
            }
        }
        self.bind(&l.pat);
        let Some(name) = bound_name(&l.pat) else { return };
        self.forget(&name);
        if let Some(init) = l.init.as_ref().filter(|i| i.diverge.is_none() && !int) {
            let aliased = self.alias_of(&init.expr);
            if let Some(read) = aliased {
                self.aliases.push((name.clone(), read));
            }
            // `let n = Model { w: m.w, .. };`: `n.w` is a use of `m.w`.
            if let Expr::Struct(lit) = peel(&init.expr) {
                for f in &lit.fields {
                    if let Some(read) = self.alias_of(&f.expr) {
                        let member = f.member.to_token_stream().to_string();
                        self.aliases.push((format!("{name}.{member}"), read));
                    }
                }
            }
        }
    }

    /// The field reads copied into the struct literal bound to the local `name`.
    fn literal_fields(&self, name: &str) -> Vec<Expr> {
        let prefix = format!("{name}.");
        let fields = self.aliases.iter().filter(|(a, _)| a.starts_with(&prefix));
        fields.map(|(_, read)| read.clone()).collect()
    }

    /// Forgets the locals named `name`, and the fields of a struct literal bound to it.
    fn forget(&mut self, name: &str) {
        let prefix = format!("{name}.");
        self.aliases.retain(|(a, _)| a != name && !a.starts_with(&prefix));
    }

    /// The name under which a local that `e` reads is an alias: `y` for `y`, `n.w` for the
    /// field of a struct literal bound to `n`.
    fn alias_key(&self, e: &Expr) -> Option<String> {
        match peel(e) {
            Expr::Path(p) if p.qself.is_none() => Some(symbol::unraw(p.path.get_ident()?)),
            f @ Expr::Field(_) => {
                let (root, path) = field_path(f)?;
                let names: Vec<String> =
                    path.iter().map(|m| m.to_token_stream().to_string()).collect();
                Some(format!("{root}.{}", names.join(".")))
            }
            _ => None,
        }
    }

    /// `e`, the function's value: a struct literal's fields (and those of one bound to a local
    /// named there) are passed whole, to the struct the function returns.
    fn returned(&mut self, e: &Expr) {
        match peel(e) {
            Expr::Struct(lit) => {
                lit.fields.iter().for_each(|f| self.argument(&f.expr, Ctx::Value, true));
                if let Some(rest) = &lit.rest {
                    self.expr(rest, Ctx::Value);
                }
            }
            Expr::Path(p) if p.qself.is_none() && p.path.get_ident().is_some() => {
                let name = p.path.get_ident().map(symbol::unraw).unwrap_or_default();
                for read in self.literal_fields(&name) {
                    (self.passing, self.whole) = (true, true);
                    self.record(&read, Ctx::Value, 0);
                    (self.passing, self.whole) = (false, false);
                }
            }
            other => self.expr(other, Ctx::Value),
        }
    }

    /// The field read that `e` is, with locals bound to field reads replaced by them: `m.x[0]`
    /// for `m.x[0]`, and for `y[0]` after `let y = m.x;`.
    fn alias_of(&self, e: &Expr) -> Option<Expr> {
        let (base, _) = indexed(e);
        if field_path(base).is_some_and(|(root, _)| self.is_root(&root)) {
            return Some(peel(e).clone());
        }
        let name = self.alias_key(base)?;
        let (_, read) = self.aliases.iter().rev().find(|(a, _)| *a == name)?;
        Some(reindex(read, e))
    }

    /// The indices of `x[i][j]`, read as integers.
    fn indices(&mut self, i: &syn::ExprIndex) {
        self.expr(&i.index, Ctx::Int);
        if let Expr::Index(inner) = peel(&i.expr) {
            self.indices(inner);
        }
    }

    fn block(&mut self, b: &Block) {
        // A local bound inside the block is gone after it.
        let (outer, hidden) = (self.aliases.clone(), self.hidden.len());
        self.stmts(b);
        self.aliases = outer;
        self.hidden.truncate(hidden);
    }

    fn stmts(&mut self, b: &Block) {
        for stmt in &b.stmts {
            match stmt {
                Stmt::Local(l) => self.local(l),
                Stmt::Expr(e, _) => self.expr(e, Ctx::Value),
                Stmt::Item(_) | Stmt::Macro(_) => {}
            }
        }
    }

    fn expr(&mut self, e: &Expr, ctx: Ctx) {
        if self.record(e, ctx, 0) {
            return;
        }
        match e {
            Expr::Index(i) => {
                self.expr(&i.expr, ctx);
                self.expr(&i.index, Ctx::Int);
            }
            Expr::MethodCall(m) => self.method(m, ctx),
            Expr::Cast(c) => self.expr(&c.expr, Ctx::Int),
            Expr::Range(r) => {
                r.start.iter().chain(r.end.iter()).for_each(|x| self.expr(x, Ctx::Int));
            }
            Expr::Reference(r) if !self.record(&r.expr, ctx, 1) => self.expr(&r.expr, ctx),
            Expr::ForLoop(f) => {
                let iterated = if matches!(peel(&f.expr), Expr::Range(_)) { Ctx::Int } else { ctx };
                if !self.record(&f.expr, iterated, 1) {
                    self.expr(&f.expr, iterated);
                }
                let (outer, hidden) = (self.aliases.clone(), self.hidden.len());
                self.bind(&f.pat);
                if let Some(name) = bound_name(&f.pat) {
                    self.forget(&name);
                }
                self.block(&f.body);
                self.aliases = outer;
                self.hidden.truncate(hidden);
            }
            Expr::Match(m) => {
                self.expr(&m.expr, Ctx::Int);
                for arm in &m.arms {
                    let hidden = self.hidden.len();
                    self.bind(&arm.pat);
                    if let Pat::Guard(g) = &arm.pat {
                        self.expr(&g.guard, Ctx::Value);
                    }
                    self.expr(&arm.body, ctx);
                    self.hidden.truncate(hidden);
                }
            }
            Expr::Binary(b) => {
                self.expr(&b.left, ctx);
                self.expr(&b.right, ctx);
            }
            Expr::Unary(u) => self.expr(&u.expr, ctx),
            Expr::Paren(p) => self.expr(&p.expr, ctx),
            Expr::Group(g) => self.expr(&g.expr, ctx),
            // A field of a local (`n.b`, for a struct literal bound to `n`) is no use of the
            // local's other fields.
            Expr::Field(f) if matches!(peel(&f.base), Expr::Path(_)) => {}
            Expr::Field(f) => self.expr(&f.base, ctx),
            // A struct literal bound to a local read whole (passed, a receiver): its fields
            // copied from field reads are read there, as values of unknown use.
            Expr::Path(p) if p.qself.is_none() => {
                if let Some(name) = p.path.get_ident().map(symbol::unraw) {
                    for read in self.literal_fields(&name) {
                        self.record(&read, Ctx::Value, 0);
                    }
                }
            }
            Expr::Block(b) => self.block(&b.block),
            Expr::Unsafe(b) => self.block(&b.block),
            // An `if let` or `while let` shadows in its block (its condition's other reads are
            // taken as outside it).
            Expr::If(i) => {
                self.expr(&i.cond, Ctx::Value);
                let hidden = self.hidden.len();
                super::scope::condition_lets(&i.cond).into_iter().for_each(|p| self.bind(p));
                self.block(&i.then_branch);
                self.hidden.truncate(hidden);
                if let Some((_, els)) = &i.else_branch {
                    self.expr(els, ctx);
                }
            }
            Expr::While(w) => {
                self.expr(&w.cond, Ctx::Value);
                let hidden = self.hidden.len();
                super::scope::condition_lets(&w.cond).into_iter().for_each(|p| self.bind(p));
                self.block(&w.body);
                self.hidden.truncate(hidden);
            }
            Expr::Loop(l) => self.block(&l.body),
            Expr::Closure(c) => {
                let (outer, hidden) = (self.aliases.clone(), self.hidden.len());
                c.inputs.iter().for_each(|p| self.bind(p));
                let names: Vec<String> = c.inputs.iter().filter_map(bound_name).collect();
                names.iter().for_each(|n| self.forget(n));
                self.expr(&c.body, Ctx::Value);
                self.aliases = outer;
                self.hidden.truncate(hidden);
            }
            Expr::Call(c) => {
                self.expr(&c.func, Ctx::Value);
                // `f64::mul_add(a, b, c)`, `T::max(a, b)`: a float method's arguments are values.
                let float = match peel(&c.func) {
                    Expr::Path(p) => p.path.segments.last().is_some_and(|s| float_method(&s.ident)),
                    _ => false,
                };
                c.args.iter().for_each(|a| self.argument(a, ctx, !float));
            }
            Expr::Assign(a) => {
                self.expr(&a.left, Ctx::Value);
                self.expr(&a.right, Ctx::Value);
            }
            Expr::Array(a) => a.elems.iter().for_each(|x| self.expr(x, Ctx::Value)),
            Expr::Tuple(t) => t.elems.iter().for_each(|x| self.expr(x, ctx)),
            Expr::Repeat(r) => {
                self.expr(&r.expr, Ctx::Value);
                self.expr(&r.len, Ctx::Int);
            }
            Expr::Struct(s) => {
                // A field read copied into a literal is read where the literal's field is.
                for f in &s.fields {
                    self.placed = true;
                    let recorded = self.record(&f.expr, Ctx::Value, 0);
                    self.placed = false;
                    if !recorded {
                        self.expr(&f.expr, Ctx::Value);
                    }
                }
                if let Some(rest) = &s.rest {
                    self.expr(rest, Ctx::Value);
                }
            }
            Expr::Return(r) => r.expr.iter().for_each(|x| self.returned(x)),
            Expr::Let(l) => self.expr(&l.expr, Ctx::Value),
            _ => {}
        }
    }

    /// `recv.method(args)`: `len()` tells that the receiver is an array, an iterator method that
    /// it is one read as a value, an `f64` method that it is an `f64` (or, among integers, an
    /// integer).
    fn method(&mut self, m: &syn::ExprMethodCall, ctx: Ctx) {
        let name = m.method.to_string();
        let recorded = if name == symbol::LEN {
            self.record(&m.receiver, Ctx::Int, 1)
        } else if symbol::ITER_METHODS.contains(&name.as_str()) {
            self.record(&m.receiver, Ctx::Value, 1)
        } else if symbol::method_prim(&name).is_some() || name == symbol::SIN_COS {
            let int = ctx == Ctx::Int && symbol::INT_METHODS.contains(&name.as_str());
            self.record(&m.receiver, if int { Ctx::Int } else { Ctx::Value }, 0)
        } else if ctx == Ctx::Value {
            // A method of the user's: its receiver is passed whole.
            self.whole = field_path(peel(&m.receiver)).is_some();
            self.receiver = self.whole;
            let recorded = self.record(&m.receiver, ctx, 0);
            (self.whole, self.receiver) = (false, false);
            recorded
        } else {
            false
        };
        if !recorded {
            self.expr(&m.receiver, ctx);
        }
        let args = if symbol::INT_METHODS.contains(&name.as_str()) { ctx } else { Ctx::Value };
        let float = float_method(&m.method);
        m.args.iter().for_each(|a| self.argument(a, args, !float));
    }

    /// An argument `a` of a call: a field read whole there is marked passed, and, read itself
    /// (`g(m.w)`, `g(&m.w)`), whole.
    fn argument(&mut self, a: &Expr, ctx: Ctx, call: bool) {
        if !call {
            if !self.record(a, ctx, 0) {
                self.expr(a, ctx);
            }
            return;
        }
        let lent = match peel(a) {
            Expr::Reference(r) if r.mutability.is_none() => Some(&*r.expr),
            _ => None,
        };
        // A row of a field (`g(m.x[i])`, `g(&m.x[i])`): an `f64` or an array, as the callee
        // takes it.
        let row = lent.unwrap_or(a);
        let (base, n) = indexed(row);
        if n > 0 && field_path(base).is_some_and(|(root, _)| self.is_root(&root)) {
            (self.passing, self.row) = (true, true);
            self.record(row, ctx, usize::from(lent.is_some()));
            (self.passing, self.row) = (false, false);
            return;
        }
        if let Some(inner) = lent.filter(|e| self.alias_key(e).is_some()) {
            self.whole = true;
            let recorded = self.record(inner, ctx, 1);
            self.whole = false;
            if recorded {
                return;
            }
        }
        self.passing = true;
        self.whole = self.alias_key(a).is_some();
        let recorded = self.record(a, ctx, 0);
        (self.passing, self.whole) = (false, false);
        if !recorded {
            self.expr(a, ctx);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::uses;

    fn scan(body: &str) -> Vec<(String, bool, usize)> {
        let block: syn::Block = syn::parse_str(body).expect("a block");
        uses(&block, &["m".to_owned(), "self".to_owned()])
            .into_iter()
            .map(|u| {
                let path: Vec<String> = u
                    .path
                    .iter()
                    .map(|m| quote::ToTokens::to_token_stream(m).to_string())
                    .collect();
                (format!("{}.{}", u.root, path.join(".")), u.value, u.depth)
            })
            .collect()
    }

    #[test]
    fn a_fields_type_is_read_from_its_uses() {
        let found = scan(
            "{ let mut s = m.b; for k in 0..m.n { s += m.w[k] * m.x[k][m.n - 1]; } \
               let t: usize = m.k; s + self.inner.c.sin() + m.v.iter().sum::<f64>() + m.u.len() as f64 }",
        );
        assert_eq!(
            found,
            vec![
                ("m.b".into(), true, 0),
                ("m.n".into(), false, 0),
                ("m.w".into(), true, 1),
                ("m.x".into(), true, 2),
                ("m.k".into(), false, 0),
                ("self.inner.c".into(), true, 0),
                ("m.v".into(), true, 1),
                ("m.u".into(), false, 1),
            ]
        );
    }

    #[test]
    fn a_local_bound_to_a_field_passes_its_uses_on() {
        let found = scan(
            "{ let y = m.x; let r = m.w[0]; let t: [f64; 3] = m.c; let q: [f64; 2] = m.a[1]; \
               let z = y[1]; ({ let r = 2.0; r }) + z[0] + r[1][2] + m.u[0].len() as f64 + m.b }",
        );
        assert_eq!(
            found,
            vec![
                ("m.x".into(), true, 2),
                ("m.w".into(), true, 3),
                ("m.c".into(), true, 1),
                ("m.a".into(), true, 2),
                ("m.u".into(), false, 2),
                ("m.b".into(), true, 0),
            ]
        );
    }

    #[test]
    fn a_root_bound_again_has_no_fields_in_that_scope() {
        let found = scan(
            "{ let s = m.b; let t = { let m = (1.0, 2.0); m.0 }; \
               let u = (|m: Pair| m.c)(p) + match k { m => m.d }; \
               for m in qs.iter() { u += m.e; } \
               if let Some(m) = o { u += m.f; } \
               s + t + u + m.g }",
        );
        assert_eq!(found, vec![("m.b".into(), true, 0), ("m.g".into(), true, 0)]);
    }

    #[test]
    fn a_field_read_only_whole_by_calls_and_receivers_is_told_apart() {
        let block: syn::Block = syn::parse_str(
            "{ g(&m.w) + h(m.v, m.b) + m.inner.norm() + m.b.atan2(m.c) + f64::max(m.d, 1.0) \
               + k(&m.x) * m.x[0][1] + { let y = m.u; g(y) } }",
        )
        .expect("a block");
        let found: Vec<(String, bool)> = uses(&block, &["m".to_owned()])
            .into_iter()
            .map(|u| (quote::ToTokens::to_token_stream(&u.path[0]).to_string(), u.only_whole()))
            .collect();
        let want = [("w", true), ("v", true), ("b", false), ("inner", true), ("c", false)];
        let more = [("d", false), ("x", false), ("u", false)];
        let want: Vec<(String, bool)> =
            want.iter().chain(&more).map(|(n, w)| ((*n).to_owned(), *w)).collect();
        assert_eq!(found, want);
    }
}
