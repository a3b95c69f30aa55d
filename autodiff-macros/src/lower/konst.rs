//! Constant expressions: ones that read no value of the IR, such as `n as f64`, `data[i]`, a
//! `const` from outside, an index `(i + N - 1) % N` or a bound `data.len()`. They are kept as the
//! user's tokens, re-rendered so that integer `let`s are replaced by their definitions and
//! integer counters by their closed forms (`counter`).

use std::rc::Rc;

use proc_macro2::{TokenStream, TokenTree};
use quote::{ToTokens, quote};
use syn::{BinOp, Expr, Lit, UnOp};

use super::counter::{Closed, poly_of};
use super::{Binding, Kind, Lower};
use crate::ir::{Affine, Ext, ExtId, Int, Linear, LoopId, Operand, Poly, Prec, Ty, Wrap};
use crate::symbol;

/// A constant expression, re-rendered, with what the IR needs to know about it.
#[derive(Clone, Debug)]
pub(super) struct Konst {
    /// The tokens, with the user's spans.
    pub tokens: TokenStream,
    /// How tightly it binds.
    pub prec: Prec,
    /// Its value as an integer, when known.
    pub value: Option<u64>,
    /// The loop indices it reads.
    pub loops: Vec<LoopId>,
    /// The parameters it reads.
    pub params: Vec<String>,
    /// Whether it reads a const generic parameter.
    pub generic: bool,
    /// The loop index it is, if it is exactly one.
    pub index: Option<LoopId>,
    /// The expression as `i + c` of a loop index `i`, if it is one.
    pub affine: Option<Affine>,
    /// The expression as a linear form of a loop index, names and a constant, if it is one.
    pub linear: Option<Linear>,
    /// The expression as a wrap-around index `(i + m - k) % m`, if it is one.
    pub wrap: Option<Wrap>,
    /// The expression as a polynomial in names and loop indices, if it is one: what the IR's
    /// indices carry ([`Int::poly`]).
    pub ipoly: Option<Poly>,
    /// The names it reads, with the serial number of the binding each had (`None`: unbound).
    pub deps: Vec<(String, Option<u32>)>,
    /// How many `&` were taken of the value the tokens write (`&data[i]` is `data[i]` with one):
    /// a reference to a constant is the constant, until a `*` undoes the `&`.
    pub refs: u32,
    /// The integer expression as a polynomial over what it reads, when it is made of `+ - *`
    /// (`None`: a literal's value, or the expression itself as one atom): what the closed forms
    /// of counters are computed on.
    pub poly: Option<Rc<Closed>>,
}

/// How an expression is read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// As an `f64` constant: anything constant.
    Real,
    /// As an integer: reading `f64` data is an error.
    Int,
    /// As the receiver of `.len()`: any array or slice.
    Container,
}

/// Why an expression is not a constant of the mode asked for.
pub(super) enum Bad {
    /// It reads an `f64` value (of the IR, or `f64` data where an integer is needed).
    Real(TokenStream),
    /// It uses syntax that constants do not allow here.
    Syntax(TokenStream),
    /// An error was already reported.
    Reported,
}

impl Konst {
    fn atom(tokens: TokenStream) -> Self {
        Konst {
            tokens,
            prec: Prec::Atom,
            value: None,
            loops: Vec::new(),
            params: Vec::new(),
            generic: false,
            index: None,
            affine: None,
            linear: None,
            wrap: None,
            ipoly: None,
            deps: Vec::new(),
            refs: 0,
            poly: None,
        }
    }

    /// The integer literal `n`, spelled as written.
    pub(super) fn int_lit(tokens: TokenStream, n: Option<u64>) -> Self {
        let (linear, ipoly) = (n.and_then(Linear::constant), n.and_then(Poly::constant));
        Konst { value: n, linear, ipoly, ..Konst::atom(tokens) }
    }

    /// From an integer of the IR (an array length).
    pub(super) fn from_int(int: &Int) -> Self {
        let tokens = int.operand(&|_| quote!(_));
        let (linear, ipoly) = (int.linear.clone(), int.poly.clone());
        let params = int.params.clone();
        Konst {
            value: int.value,
            generic: int.generic,
            linear,
            ipoly,
            params,
            ..Konst::atom(tokens)
        }
    }

    /// The loop variable `ident` of loop `l`.
    pub(super) fn index(ident: &proc_macro2::Ident, l: LoopId) -> Self {
        Konst {
            loops: vec![l],
            index: Some(l),
            affine: Some(Affine { index: l, offset: 0 }),
            linear: Some(Linear::index(l)),
            ipoly: Some(Poly::index(l)),
            ..Konst::atom(ident.to_token_stream())
        }
    }

    /// The tokens as an operand of an operator binding at `prec`: parenthesised if needed.
    pub(super) fn operand(&self, prec: Prec) -> TokenStream {
        let t = &self.tokens;
        if self.prec < prec { quote!((#t)) } else { t.clone() }
    }

    /// Merges what `other` reads into `self`.
    fn absorb(&mut self, other: &Konst) {
        for l in &other.loops {
            if !self.loops.contains(l) {
                self.loops.push(*l);
            }
        }
        for p in &other.params {
            if !self.params.contains(p) {
                self.params.push(p.clone());
            }
        }
        for d in &other.deps {
            if !self.deps.contains(d) {
                self.deps.push(d.clone());
            }
        }
        self.generic |= other.generic;
    }

    /// `tokens` at `prec`, reading what `parts` read.
    pub(super) fn combine(tokens: TokenStream, prec: Prec, parts: &[&Konst]) -> Self {
        let mut k = Konst { prec, ..Konst::atom(tokens) };
        for p in parts {
            k.absorb(p);
        }
        k
    }

    /// As an integer of the IR.
    pub(super) fn to_int(&self) -> Int {
        if let Some(l) = self.index {
            return Int::index(l);
        }
        // A literal (`3`, `3usize`) as the IR writes it, so that lengths compare equal.
        let mut tokens = self.tokens.clone().into_iter();
        if let (Some(v), Some(TokenTree::Literal(_)), None) =
            (self.value, tokens.next(), tokens.next())
        {
            return Int::lit(v);
        }
        let mut int = Int::tokens(self.tokens.clone(), self.prec == Prec::Atom);
        int.value = self.value;
        int.affine = self.affine;
        int.linear = self.linear.clone();
        int.wrap = self.wrap.clone().map(Box::new);
        int.poly = self.ipoly.clone();
        int.loops = self.loops.clone();
        int.params = self.params.clone();
        int.generic = self.generic;
        int
    }
}

/// `l op r` as `i + c`, when one side is `i + c` and the other a known integer added to it (or
/// subtracted from it).
fn shift(op: &BinOp, l: &Konst, r: &Konst) -> Option<Affine> {
    let known = |k: &Konst| k.value.and_then(|v| i64::try_from(v).ok());
    match (op, l.affine, r.affine) {
        (BinOp::Add(_), Some(a), None) => a.shifted(known(r)?),
        (BinOp::Add(_), None, Some(a)) => a.shifted(known(l)?),
        (BinOp::Sub(_), Some(a), None) => a.shifted(known(r)?.checked_neg()?),
        _ => None,
    }
}

/// `l op r` for an arithmetic operator binding at `prec`, what it reads and what is known of it;
/// as a polynomial too when `int` (an integer expression).
pub(super) fn binary(op: &BinOp, prec: Prec, l: &Konst, r: &Konst, int: bool) -> Konst {
    let (lt, rt) = (l.operand(prec), r.operand(next(prec)));
    let mut k = Konst::combine(quote!(#lt #op #rt), prec, &[l, r]);
    k.value = fold(op, l.value, r.value);
    k.affine = shift(op, l, r);
    let (ll, rl) = (l.linear.as_ref(), r.linear.as_ref());
    (k.linear, k.wrap) = match op {
        BinOp::Add(_) => (ll.zip(rl).and_then(|(a, b)| a.add(b)), None),
        BinOp::Sub(_) => (ll.zip(rl).and_then(|(a, b)| a.sub(b)), None),
        BinOp::Rem(_) => (None, ll.zip(rl).and_then(|(a, b)| Wrap::of(a, b))),
        _ => (None, None),
    };
    let (lp, rp) = (l.ipoly.as_ref(), r.ipoly.as_ref());
    k.ipoly = match op {
        BinOp::Add(_) => lp.zip(rp).and_then(|(a, b)| a.add(b)),
        BinOp::Sub(_) => lp.zip(rp).and_then(|(a, b)| a.sub(b)),
        BinOp::Mul(_) => lp.zip(rp).and_then(|(a, b)| a.mul(b)),
        _ => None,
    };
    if int && k.value.is_none() {
        let (lp, rp) = (poly_of(l), poly_of(r));
        k.poly = match op {
            BinOp::Add(_) => lp.add(&rp),
            BinOp::Sub(_) => lp.sub(&rp),
            BinOp::Mul(_) => lp.mul(&rp),
            _ => None,
        }
        .map(Rc::new);
    }
    k
}

/// The binding strength of an arithmetic operator, `None` for other operators.
pub(super) fn bin_prec(op: &BinOp) -> Option<Prec> {
    Some(match op {
        BinOp::Add(_) | BinOp::Sub(_) => Prec::Sum,
        BinOp::Mul(_) | BinOp::Div(_) | BinOp::Rem(_) => Prec::Product,
        _ => return None,
    })
}

fn fold(op: &BinOp, a: Option<u64>, b: Option<u64>) -> Option<u64> {
    let (a, b) = (a?, b?);
    match op {
        BinOp::Add(_) => a.checked_add(b),
        BinOp::Sub(_) => a.checked_sub(b),
        BinOp::Mul(_) => a.checked_mul(b),
        BinOp::Div(_) => a.checked_div(b),
        BinOp::Rem(_) => a.checked_rem(b),
        _ => None,
    }
}

impl Lower<'_> {
    /// `e` as a constant read in `mode`, or why it is not one.
    pub(super) fn konst(&mut self, e: &Expr, mode: Mode) -> Result<Konst, Bad> {
        if let Some(k) = self.generic_konst(e, mode) {
            return k;
        }
        match e {
            Expr::Lit(l) => match &l.lit {
                Lit::Int(i) if mode != Mode::Int || !matches!(i.suffix(), "f64" | "f32") => {
                    Ok(Konst::int_lit(e.to_token_stream(), i.base10_parse().ok()))
                }
                Lit::Float(_) | Lit::Int(_) if mode != Mode::Int => {
                    Ok(Konst::atom(e.to_token_stream()))
                }
                Lit::Float(_) | Lit::Int(_) => Err(Bad::Real(e.to_token_stream())),
                _ => Err(Bad::Syntax(e.to_token_stream())),
            },
            Expr::Path(p) => match p.path.get_ident() {
                Some(id) if p.qself.is_none() => self.konst_name(e, id, mode),
                _ => Ok(Konst::atom(e.to_token_stream())),
            },
            Expr::Paren(p) => {
                let inner = self.konst(&p.expr, mode)?;
                let t = &inner.tokens;
                Ok(Konst { tokens: quote!((#t)), prec: Prec::Atom, index: None, ..inner })
            }
            Expr::Group(g) => self.konst(&g.expr, mode),
            Expr::Reference(r) if r.mutability.is_none() => {
                let inner = self.konst(&r.expr, mode)?;
                Ok(Konst { refs: inner.refs + 1, index: None, ..inner })
            }
            Expr::Unary(u) => match u.op {
                UnOp::Neg(_) if mode != Mode::Int => self.konst_unary(&u.op, &u.expr, mode),
                UnOp::Deref(_) => {
                    let inner = self.konst(&u.expr, mode)?;
                    if inner.refs > 0 {
                        return Ok(Konst { refs: inner.refs - 1, ..inner });
                    }
                    self.konst_unary(&u.op, &u.expr, mode)
                }
                _ => Err(Bad::Syntax(e.to_token_stream())),
            },
            Expr::Binary(b) => {
                let Some(prec) = bin_prec(&b.op) else {
                    return Err(Bad::Syntax(e.to_token_stream()));
                };
                let l = self.konst(&b.left, mode)?;
                let r = self.konst(&b.right, mode)?;
                Ok(binary(&b.op, prec, &l, &r, mode == Mode::Int))
            }
            Expr::Index(_) | Expr::MethodCall(_) if self.view_of_read(e) => match self.unview(e) {
                Some(plain) => self.konst(&plain, mode),
                None => Err(Bad::Reported),
            },
            Expr::Index(i) => {
                let base = self
                    .konst(&i.expr, if mode == Mode::Int { Mode::Int } else { Mode::Container })?;
                let index = self.konst(&i.index, Mode::Int)?;
                let (bt, it) = (base.operand(Prec::Atom), &index.tokens);
                Ok(Konst::combine(quote!(#bt[#it]), Prec::Atom, &[&base, &index]))
            }
            Expr::Field(_) if self.tuple_component(e).is_some() => match self.tuple_component(e) {
                Some(Binding::Int(k)) => Ok((*k).clone()),
                Some(Binding::Slot(s)) => {
                    match (mode, &self.slots[s].int_alias, &self.slots[s].alias) {
                        (Mode::Int, Some(alias), _)
                        | (Mode::Real | Mode::Container, _, Some(alias)) => Ok((**alias).clone()),
                        _ => Err(Bad::Real(e.to_token_stream())),
                    }
                }
                Some(Binding::Poison) => Err(Bad::Reported),
                _ => Err(Bad::Syntax(e.to_token_stream())),
            },
            // A field of a differentiated struct that the body reads as a value is one.
            Expr::Field(_) if mode != Mode::Int && self.field_input(e).is_some() => {
                Err(Bad::Real(e.to_token_stream()))
            }
            Expr::Field(f) => {
                let base = match self.struct_base(&f.base) {
                    Some(base) => base,
                    None => self.konst(&f.base, Mode::Container)?,
                };
                let (bt, dot, member) = (base.operand(Prec::Atom), &f.dot_token, &f.member);
                Ok(Konst::combine(quote!(#bt #dot #member), Prec::Atom, &[&base]))
            }
            Expr::Cast(c) => {
                let to_float = !super::types::is_int(&c.ty);
                if mode == Mode::Int && to_float {
                    return Err(Bad::Real(e.to_token_stream()));
                }
                // An integer cast to `f64` reads integer variables as integers (`m as f64` for
                // `let m = N - 1;` is `(N - 1) as f64`).
                let inner = match self.probe(|l| l.konst(&c.expr, Mode::Int)) {
                    Ok(k) => k,
                    Err(_) if to_float => self.konst(&c.expr, Mode::Real)?,
                    Err(_) => self.konst(&c.expr, Mode::Int)?,
                };
                let (it, as_token, ty) = (inner.operand(Prec::Cast), &c.as_token, &c.ty);
                // An integer `let` substituted into a cast to a float is a float literal
                // (`3 as f64` would be clippy's `unnecessary_cast`).
                if let (Some(n), true) = (inner.value, to_float)
                    && let Some(lit) = float_literal(n, &c.ty)
                {
                    return Ok(Konst::combine(lit, Prec::Atom, &[&inner]));
                }
                let mut k = Konst::combine(quote!(#it #as_token #ty), Prec::Cast, &[&inner]);
                k.value = if to_float { None } else { inner.value };
                Ok(k)
            }
            Expr::MethodCall(m) => self.konst_method(e, m, mode),
            // A call of a function (a `const fn`, say) on constants, as an integer.
            Expr::Call(c)
                if mode == Mode::Int
                    && matches!(&*c.func, Expr::Path(_))
                    && !self.is_closure(&c.func) =>
            {
                let mut parts = Vec::new();
                for a in &c.args {
                    let k = match self.probe(|l| l.konst(a, Mode::Int)) {
                        Ok(k) => k,
                        Err(_) => self.konst(a, Mode::Real)?,
                    };
                    parts.push(k);
                }
                let (func, args) = (&c.func, parts.iter().map(|k| &k.tokens));
                let refs: Vec<&Konst> = parts.iter().collect();
                Ok(Konst::combine(quote!(#func(#(#args),*)), Prec::Atom, &refs))
            }
            _ => Err(Bad::Syntax(e.to_token_stream())),
        }
    }

    /// `e`, the base of a field access, as a constant when it is a differentiated struct
    /// parameter (`m` in `m.n`, whose fields read only as integers are constants).
    fn struct_base(&self, e: &Expr) -> Option<Konst> {
        let Expr::Path(p) = super::value::peel(e) else { return None };
        let id = p.path.get_ident()?;
        let name = symbol::unraw(id);
        let bound = self.env.get(&name)?;
        let Binding::Struct(_) = bound.binding else { return None };
        let mut k = Konst::atom(e.to_token_stream());
        k.params.push(name.clone());
        k.deps.push((name, Some(bound.serial)));
        Some(k)
    }

    fn konst_unary(&mut self, op: &UnOp, inner: &Expr, mode: Mode) -> Result<Konst, Bad> {
        let inner = self.konst(inner, if mode == Mode::Container { Mode::Real } else { mode })?;
        let it = inner.operand(Prec::Unary);
        Ok(Konst::combine(quote!(#op #it), Prec::Unary, &[&inner]))
    }

    /// A name read as a constant: an integer binding (substituted), a parameter passed through,
    /// or a name from outside the function (a `const`, a const generic parameter).
    fn konst_name(&mut self, e: &Expr, id: &proc_macro2::Ident, mode: Mode) -> Result<Konst, Bad> {
        let name = symbol::unraw(id);
        let Some(bound) = self.env.get(&name).cloned() else {
            let mut k = Konst::atom(e.to_token_stream());
            k.generic = self.generics.contains(&name);
            k.linear = (mode == Mode::Int).then(|| Linear::name(name.clone()));
            k.ipoly = (mode == Mode::Int).then(|| Poly::name(name.clone()));
            k.deps.push((name, None));
            return Ok(k);
        };
        let dep = (name.clone(), Some(bound.serial));
        let substituted = match bound.binding {
            Binding::Slot(s) => {
                let slot = &self.slots[s];
                match (mode, &slot.int_alias, &slot.alias) {
                    (Mode::Int, Some(alias), _)
                    | (Mode::Real | Mode::Container, _, Some(alias)) => Rc::clone(alias),
                    // A parameter left out of `wrt` is a value of the IR (so that it can be
                    // copied and updated), and a constant where constant data is read, by its own
                    // name: the base of `x0[i]`, or an argument of a call (a copy, `let c2 = c;`,
                    // is not in the derivatives, whose code reads the parameter's value as `c`).
                    (Mode::Real | Mode::Container, _, None)
                        if (self.call_args || mode == Mode::Container)
                            && self.constant_input(slot.value)
                            && self.own_name(slot) =>
                    {
                        let mut k = Konst::atom(e.to_token_stream());
                        k.params.push(name.clone());
                        k.deps.push(dep);
                        return Ok(k);
                    }
                    _ => return Err(Bad::Real(e.to_token_stream())),
                }
            }
            Binding::Int(k) => k,
            Binding::Counter(c) => return self.read_counter(c, id),
            Binding::Param(Kind::Real) if mode == Mode::Int => {
                return Err(Bad::Real(e.to_token_stream()));
            }
            Binding::Param(_) => {
                let mut k = Konst::atom(e.to_token_stream());
                k.linear = (mode == Mode::Int).then(|| Linear::name(name.clone()));
                k.ipoly = (mode == Mode::Int).then(|| Poly::name(name.clone()));
                k.params.push(name.clone());
                k.deps.push(dep);
                return Ok(k);
            }
            Binding::Poison => return Err(Bad::Reported),
            // A differentiated struct is not a constant (its fields that are read only as
            // integers are: see the field access).
            Binding::Struct(_) => return Err(Bad::Real(e.to_token_stream())),
            Binding::Tuple(_) | Binding::Record(..) | Binding::Closure(_) | Binding::View(_) => {
                return Err(Bad::Syntax(e.to_token_stream()));
            }
        };
        self.check_deps(id, &substituted)?;
        // Kept at its own precedence: an operator around it adds the parentheses it needs.
        let mut k = (*substituted).clone();
        if k.index.is_some() && *id == k.tokens.to_string() {
            // The loop variable itself: its own name, with the span of this use.
            k.tokens = id.to_token_stream();
        }
        k.deps.push(dep);
        Ok(k)
    }

    /// Reports the use `id` of an integer binding whose definition reads a name that means
    /// something else here (a loop variable shadowed by an inner loop's).
    pub(super) fn check_deps(&mut self, id: &proc_macro2::Ident, k: &Konst) -> Result<(), Bad> {
        let stale = k.deps.iter().find(|(name, serial)| {
            let now = self.env.get(name);
            // A name bound again to what it was (`let (i, v) = (i, x[i]);`, as `enumerate`'s
            // pattern is bound) still means the same.
            let same = now.is_some_and(|b| match &b.binding {
                Binding::Int(k) => {
                    k.tokens.to_string() == *name && k.deps.contains(&(name.clone(), *serial))
                }
                _ => false,
            });
            now.map(|b| b.serial) != *serial && name != &symbol::unraw(id) && !same
        });
        let Some((name, _)) = stale else { return Ok(()) };
        let text = k.tokens.to_string();
        self.cx.error_spanned(
            id,
            format!(
                "`#[grad]` cannot use `{id}` here: it stands for `{text}`, which reads `{name}`, and `{name}` means something else here; rename one of the two"
            ),
        );
        Err(Bad::Reported)
    }

    /// `recv.len()`, and the integer methods (`min`, `max`, ...) in integer expressions.
    fn konst_method(
        &mut self,
        e: &Expr,
        m: &syn::ExprMethodCall,
        mode: Mode,
    ) -> Result<Konst, Bad> {
        let method = m.method.to_string();
        if method == symbol::LEN && m.args.is_empty() && m.turbofish.is_none() {
            if let Some(Ty::Array(s)) = self.array_ty(&m.receiver)
                && let Some(first) = s.dims.first()
            {
                return Ok(Konst::from_int(first));
            }
            let recv = self.konst(&m.receiver, Mode::Container)?;
            let (rt, dot, name) = (recv.operand(Prec::Atom), &m.dot_token, &m.method);
            return Ok(Konst::combine(quote!(#rt #dot #name()), Prec::Atom, &[&recv]));
        }
        if mode != Mode::Int || !symbol::INT_METHODS.contains(&method.as_str()) {
            return Err(Bad::Syntax(e.to_token_stream()));
        }
        let recv = self.konst(&m.receiver, Mode::Int)?;
        let mut parts = vec![recv];
        for a in &m.args {
            parts.push(self.konst(a, Mode::Int)?);
        }
        let value = match (method.as_str(), parts[0].value, parts.get(1).and_then(|p| p.value)) {
            ("min", Some(a), Some(b)) => Some(a.min(b)),
            ("max", Some(a), Some(b)) => Some(a.max(b)),
            ("saturating_sub", Some(a), Some(b)) => Some(a.saturating_sub(b)),
            ("abs_diff", Some(a), Some(b)) => Some(a.abs_diff(b)),
            ("div_ceil", Some(a), Some(b)) if b > 0 => Some(a.div_ceil(b)),
            _ => None,
        };
        let refs: Vec<&Konst> = parts.iter().collect();
        if let Some(v) = value {
            // Known: the literal (`4.min(4)` would not type-check, its receiver's type unknown).
            let lit = proc_macro2::Literal::u64_unsuffixed(v).into_token_stream();
            let mut k = Konst::combine(lit.clone(), Prec::Atom, &refs);
            k.value = Some(v);
            k.linear = Linear::constant(v);
            k.ipoly = Poly::constant(v);
            return Ok(k);
        }
        let same = parts.len() == 2 && parts[0].tokens.to_string() == parts[1].tokens.to_string();
        if same && matches!(method.as_str(), "min" | "max") {
            return Ok(parts.swap_remove(0));
        }
        if let ("min" | "max", [a, b]) = (method.as_str(), parts.as_slice()) {
            // `Ord::min` cannot be called in a constant, and a loop's trip count is one where it
            // sizes what the sweep stores (`x.iter().zip(y)` has `N.min(M)` elements).
            let (a, b) = (a.operand(Prec::Sum), b.operand(Prec::Sum));
            let op = if method == "min" { quote!(<=) } else { quote!(>=) };
            let tokens = quote!(if #a #op #b { #a } else { #b });
            return Ok(Konst::combine(tokens, Prec::If, &refs));
        }
        // A literal receiver (a length the macro knows, `4.saturating_sub(k)`) gets its type.
        let rt = match parts[0].value {
            Some(v) => {
                proc_macro2::Literal::usize_suffixed(usize::try_from(v).unwrap_or(usize::MAX))
                    .into_token_stream()
            }
            None => parts[0].operand(Prec::Atom),
        };
        let args: Vec<&TokenStream> = parts[1..].iter().map(|p| &p.tokens).collect();
        let (dot, name) = (&m.dot_token, &m.method);
        Ok(Konst::combine(quote!(#rt #dot #name(#(#args),*)), Prec::Atom, &refs))
    }

    /// `k` as an `f64` constant operand.
    pub(super) fn ext(&mut self, k: Konst) -> Operand {
        Operand::Ext(self.ext_id(k))
    }

    /// `k` as a constant operand, shared with an earlier constant written the same way and
    /// reading the same loops (the exponent `n` of two `powi(n)`, so that their derivatives
    /// compute `n as f64` once).
    pub(super) fn shared_ext(&mut self, k: Konst) -> Operand {
        let text = k.tokens.to_string();
        let same = |e: &Ext| e.loops == k.loops && e.tokens.to_string() == text;
        match self.b.func().exts.iter().position(same) {
            Some(i) => Operand::Ext(ExtId(u32::try_from(i).unwrap_or(u32::MAX))),
            None => self.ext(k),
        }
    }

    /// `k` as a constant of the function.
    pub(super) fn ext_id(&mut self, k: Konst) -> ExtId {
        let id = ExtId(u32::try_from(self.b.func().exts.len()).unwrap_or(u32::MAX));
        let ext =
            Ext { tokens: k.tokens, prec: k.prec, params: k.params, loops: k.loops, other: false };
        self.b.func_mut().exts.push(ext);
        id
    }

    /// Whether `slot` has the name of the first variable holding its value (a parameter's slot,
    /// or a `let` shadowing it under the same name).
    fn own_name(&self, slot: &super::Slot) -> bool {
        let first = self.slots.iter().find(|s| s.value == slot.value);
        first.is_some_and(|first| first.name == slot.name)
    }

    /// Whether `value` is the own value of an `f64` or array parameter, not differentiated.
    fn constant_input(&self, value: Option<Operand>) -> bool {
        let f = self.b.func();
        value
            .and_then(|v| v.var())
            .is_some_and(|v| f.inputs[..f.user_inputs].contains(&v) && !f.active.contains(&v))
    }

    /// `a`, an argument of a call, as a constant, if it is one: as elsewhere, and also when it
    /// reads `f64` or array parameters left out of `wrt`, or lends constant data (`&x0`): passed
    /// through to the callee, with no partial.
    pub(super) fn call_arg_konst(&mut self, a: &Expr) -> Option<Konst> {
        self.call_args = true;
        let k = match a {
            // `&x0` for constant data `x0`, lent as written.
            Expr::Reference(r) if r.mutability.is_none() => {
                self.probe(|l| l.konst(&r.expr, Mode::Container)).ok().map(|inner| {
                    let t = inner.operand(Prec::Unary);
                    Konst::combine(quote!(&#t), Prec::Unary, &[&inner])
                })
            }
            _ => self.probe(|l| l.konst(a, Mode::Real)).ok(),
        };
        self.call_args = false;
        k
    }

    /// Whether `e` is constant data, to be indexed (a parameter passed through, a parameter
    /// left out of `wrt`, or a name bound to a constant expression).
    pub(super) fn is_constant_data(&mut self, e: &Expr) -> bool {
        self.probe(|l| l.konst(e, Mode::Container).is_ok())
    }

    /// Whether `e` reads no value of the IR (it can be kept as a constant).
    pub(super) fn is_constant(&mut self, e: &Expr) -> bool {
        self.probe(|l| l.konst(e, Mode::Real).is_ok())
    }

    /// Runs `f` with errors going to a scratch list: what it reports is not the user's error.
    pub(super) fn probe<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let mut scratch = crate::ctxt::Ctxt::new();
        std::mem::swap(self.cx, &mut scratch);
        let r = f(self);
        std::mem::swap(self.cx, &mut scratch);
        r
    }
}

/// The integer `n` as a literal of the float type `ty`, when it is `f64` or `f32` and holds `n`
/// exactly.
fn float_literal(n: u64, ty: &syn::Type) -> Option<TokenStream> {
    let syn::Type::Path(p) = ty else { return None };
    let id = p.path.get_ident()?;
    let exact = n < 1 << 24;
    match id.to_string().as_str() {
        symbol::F64 if exact => {
            Some(proc_macro2::Literal::f64_suffixed(n as f64).into_token_stream())
        }
        symbol::F32 if exact => {
            Some(proc_macro2::Literal::f32_suffixed(n as f32).into_token_stream())
        }
        _ => None,
    }
}

/// The binding strength of a binary operator's right operand: one tighter, because `-` and `/`
/// are left-associative (`a - (b - c)` keeps its parentheses).
fn next(prec: Prec) -> Prec {
    match prec {
        Prec::Sum => Prec::Product,
        Prec::Product => Prec::Cast,
        other => other,
    }
}
