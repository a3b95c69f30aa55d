//! Integer expressions: loop bounds, array lengths and indices. They are never differentiated, so
//! the IR keeps them as the user wrote them (tokens), with what the transforms need to know.

use std::fmt;

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote};

use super::{Linear, LoopId, Poly, Wrap};

/// How an integer expression is written.
#[derive(Clone, Debug)]
enum Form {
    /// A loop's index variable, named by codegen.
    Index(LoopId),
    /// The user's tokens (loop indices in them are the user's own identifiers).
    Tokens {
        /// The expression.
        tokens: TokenStream,
        /// Whether it needs no parentheses as an operand (a literal or a path).
        atom: bool,
    },
}

/// An index `i + offset` of one loop, as the macro reads it from an integer expression: what
/// lets a transform tell which iterations can write or read the same element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Affine {
    /// The loop whose index it reads.
    pub index: LoopId,
    /// The constant added to the index (negative for `i - 1`).
    pub offset: i64,
}

/// An integer expression (`usize`), pure and cheap, re-emitted wherever it is used.
#[derive(Clone, Debug)]
pub struct Int {
    form: Form,
    /// Its value, when the macro knows it (literals and arithmetic on them).
    pub value: Option<u64>,
    /// The expression as `i + c` of a loop index `i`, when it is one (`i`, `i + 1`, `i - 1`).
    pub affine: Option<Affine>,
    /// The expression as a linear form, when it is one (`N - 1`, `i + N - 1`).
    pub linear: Option<Linear>,
    /// The expression as a wrap-around index `(i + m - k) % m`, when it is one.
    pub wrap: Option<Box<Wrap>>,
    /// The expression as a polynomial in names and loop indices, when it is one (`j * M + k`).
    pub poly: Option<Poly>,
    /// A bound it never exceeds, when the macro knows one but not the value (`min(n, 1)`).
    pub at_most: Option<u64>,
    /// The loop indices it reads.
    pub loops: Vec<LoopId>,
    /// The non-differentiated parameters it reads.
    pub params: Vec<String>,
    /// Whether it reads a const generic parameter of the function.
    pub generic: bool,
    /// Whether it is a length the macro cannot write as a constant (an array field's of a
    /// struct, `m.w.len()`): the tokens are an expression evaluated at run time, and a type
    /// writes `_` for it, which rustc infers.
    pub inferred: bool,
    /// For an inferred length, the array field (`m.w`) whose dimension `k` it is: an array of
    /// that field's type from dimension `k` down is made from it (`filled_at::<k, _>(&m.w, 0.0)`).
    pub witness: Option<(TokenStream, usize)>,
    /// Whether it is the length of a field held as its scalars laid flat whatever its type (an
    /// `f64`, an array of any dimensions): an array of this length is rebuilt in the type of
    /// where it goes (a call's parameter, a returned struct's field) by rustc's inference
    /// (`shaped`), and a partial of that type laid flat again.
    pub flat: bool,
    /// For an expression reading an [`Int::inferred`] length, the same expression with each such
    /// length as a constant rustc evaluates from the struct's `Differentiable::TREE`
    /// (`field_dim::<Model>(&["w"], 0)`), for a `const` block; `None` where one has no such form.
    pub konst: Option<TokenStream>,
}

impl Int {
    /// The literal `n`.
    pub fn lit(n: u64) -> Self {
        let tokens = Literal::u64_unsuffixed(n).into_token_stream();
        Int {
            form: Form::Tokens { tokens, atom: true },
            value: Some(n),
            affine: None,
            linear: Linear::constant(n),
            wrap: None,
            poly: Poly::constant(n),
            at_most: None,
            loops: Vec::new(),
            params: Vec::new(),
            generic: false,
            inferred: false,
            witness: None,
            flat: false,
            konst: None,
        }
    }

    /// The index variable of `l`.
    pub fn index(l: LoopId) -> Self {
        Int {
            form: Form::Index(l),
            value: None,
            affine: Some(Affine { index: l, offset: 0 }),
            linear: Some(Linear::index(l)),
            wrap: None,
            poly: Some(Poly::index(l)),
            at_most: None,
            loops: vec![l],
            params: Vec::new(),
            generic: false,
            inferred: false,
            witness: None,
            flat: false,
            konst: None,
        }
    }

    /// An expression the user wrote (already checked to be an integer expression).
    pub fn tokens(tokens: TokenStream, atom: bool) -> Self {
        Int {
            form: Form::Tokens { tokens, atom },
            value: None,
            affine: None,
            linear: None,
            wrap: None,
            poly: None,
            at_most: None,
            loops: Vec::new(),
            params: Vec::new(),
            generic: false,
            inferred: false,
            witness: None,
            flat: false,
            konst: None,
        }
    }

    /// A length read at run time from `tokens` (`m.w.len()`), written `_` in types, and `konst`
    /// in a `const` block.
    pub fn inferred(tokens: TokenStream, params: Vec<String>, konst: TokenStream) -> Self {
        Int { inferred: true, params, konst: Some(konst), ..Int::tokens(tokens, true) }
    }

    /// The expression as an operand in a `const` block: [`Int::konst`] for one reading an
    /// inferred length, parenthesised.
    fn const_operand(&self) -> Option<TokenStream> {
        match (&self.konst, self.inferred) {
            (Some(k), true) => Some(quote!((#k))),
            (None, true) => None,
            (_, false) => Some(self.operand(&|_| quote!(_))),
        }
    }

    /// The expression in a `const` block (`None` where a length read in it has no constant
    /// form).
    pub fn render_konst(&self) -> Option<TokenStream> {
        match self.inferred {
            true => self.konst.clone(),
            false => Some(self.render(&|_| quote!(_))),
        }
    }

    /// `out`, made from `self` and `other` as `op` joins them, with its constant form.
    fn with_konst(mut out: Int, a: &Int, b: &Int, op: TokenStream) -> Int {
        if out.inferred {
            out.konst = a.const_operand().zip(b.const_operand()).map(|(x, y)| quote!(#x #op #y));
        }
        out
    }

    /// Whether this is one name (a path of one identifier), such as a const generic parameter:
    /// stable Rust takes a const generic as an array length only so.
    pub fn is_name(&self) -> bool {
        match &self.form {
            Form::Index(_) => false,
            Form::Tokens { tokens, .. } => {
                let mut trees = tokens.clone().into_iter();
                matches!(
                    (trees.next(), trees.next()),
                    (Some(proc_macro2::TokenTree::Ident(_)), None)
                )
            }
        }
    }

    /// The loop index this is, if it is one.
    pub fn as_index(&self) -> Option<LoopId> {
        match self.form {
            Form::Index(l) => Some(l),
            Form::Tokens { .. } => None,
        }
    }

    /// `self + k`.
    pub fn plus(&self, k: u64) -> Int {
        if k == 0 {
            return self.clone();
        }
        let lhs = self.operand(&|_| quote!(_));
        let k_tok = Literal::u64_unsuffixed(k);
        let mut out = self.combine(self, quote!(#lhs + #k_tok));
        out = Int::with_konst(out, self, &Int::lit(k), quote!(+));
        out.value = self.value.and_then(|v| v.checked_add(k));
        out.affine = self.affine.and_then(|a| a.shifted(i64::try_from(k).ok()?));
        out.linear = self.linear.as_ref().zip(Linear::constant(k)).and_then(|(a, b)| a.add(&b));
        out.poly = self.poly.as_ref().zip(Poly::constant(k)).and_then(|(a, b)| a.add(&b));
        out
    }

    /// `self + k`, or `self - |k|` for a negative `k` (a `usize` expression, as the user's
    /// `i - 1`: it panics, or wraps in a release build, where it would go below zero).
    pub fn shift(&self, k: i64) -> Int {
        if k >= 0 {
            return self.plus(k.unsigned_abs());
        }
        let k = k.unsigned_abs();
        let lhs = self.operand(&|_| quote!(_));
        let k_tok = Literal::u64_unsuffixed(k);
        let mut out = self.combine(self, quote!(#lhs - #k_tok));
        out = Int::with_konst(out, self, &Int::lit(k), quote!(-));
        out.value = self.value.and_then(|v| v.checked_sub(k));
        out.affine = self.affine.and_then(|a| a.shifted(i64::try_from(k).ok()?.checked_neg()?));
        out.linear = self.linear.as_ref().zip(Linear::constant(k)).and_then(|(a, b)| a.sub(&b));
        out.poly = self.poly.as_ref().zip(Poly::constant(k)).and_then(|(a, b)| a.sub(&b));
        out.folded()
    }

    /// `self + other`.
    pub fn add(&self, other: &Int) -> Int {
        match (self.value, other.value) {
            (Some(0), _) => return other.clone(),
            (_, Some(0)) => return self.clone(),
            _ => {}
        }
        let (a, b) = (self.operand(&|_| quote!(_)), other.operand(&|_| quote!(_)));
        let mut out = Int::with_konst(self.combine(other, quote!(#a + #b)), self, other, quote!(+));
        out.value = self.value.zip(other.value).and_then(|(a, b)| a.checked_add(b));
        out.affine = match (self.affine, other.affine) {
            (Some(a), None) => other.value.and_then(|v| a.shifted(i64::try_from(v).ok()?)),
            (None, Some(b)) => self.value.and_then(|v| b.shifted(i64::try_from(v).ok()?)),
            _ => None,
        };
        out.linear = self.linear.as_ref().zip(other.linear.as_ref()).and_then(|(a, b)| a.add(b));
        out.poly = self.poly.as_ref().zip(other.poly.as_ref()).and_then(|(a, b)| a.add(b));
        out.folded()
    }

    /// `self * other`.
    pub fn times(&self, other: &Int) -> Int {
        match (self.value, other.value) {
            (Some(1), _) => return other.clone(),
            (_, Some(1)) => return self.clone(),
            _ => {}
        }
        let (a, b) = (self.operand(&|_| quote!(_)), other.operand(&|_| quote!(_)));
        let mut out = Int::with_konst(self.combine(other, quote!(#a * #b)), self, other, quote!(*));
        out.value = self.value.zip(other.value).and_then(|(a, b)| a.checked_mul(b));
        out.poly = self.poly.as_ref().zip(other.poly.as_ref()).and_then(|(a, b)| a.mul(b));
        out.folded()
    }

    /// The smaller of `self` and `k`: the literal when the value is known, otherwise
    /// `::core::cmp::min(self, k)` (a method `self.min(k)` could meet another trait's `min`).
    pub fn min_lit(&self, k: u64) -> Int {
        if let Some(v) = self.value {
            return Int::lit(v.min(k));
        }
        let (a, k_tok) = (self.render(&|_| quote!(_)), Literal::u64_unsuffixed(k));
        let mut out = self.combine(self, quote!(::core::cmp::min(#a, #k_tok)));
        if let (true, Some(x)) = (out.inferred, self.render_konst()) {
            out.konst = Some(quote!(if #x < #k_tok { #x } else { #k_tok }));
        }
        out.form = Form::Tokens { tokens: out.render(&|_| quote!(_)), atom: true };
        out.at_most = Some(k);
        out
    }

    /// `i - k` for the index `i` of loop `l`, named `ident` (as the user's tokens name it).
    pub fn index_minus(l: LoopId, ident: &proc_macro2::Ident, k: u64) -> Int {
        let offset = i64::try_from(k).ok().and_then(i64::checked_neg);
        let k_tok = Literal::u64_unsuffixed(k);
        Int {
            affine: offset.map(|offset| Affine { index: l, offset }),
            linear: Linear::constant(k).and_then(|k| Linear::index(l).sub(&k)),
            poly: Poly::constant(k).and_then(|k| Poly::index(l).sub(&k)),
            loops: vec![l],
            ..Int::tokens(quote!(#ident - #k_tok), false)
        }
    }

    /// `self` with the index of loop `from` read as that of loop `to` (a copy of `from`'s body
    /// in a new loop).
    pub fn relabel(&self, from: LoopId, to: LoopId) -> Int {
        let swap = |l: LoopId| if l == from { to } else { l };
        let form = match &self.form {
            Form::Index(l) => Form::Index(swap(*l)),
            other => other.clone(),
        };
        let wrap = self.wrap.as_ref().map(|w| {
            Box::new(Wrap { index: swap(w.index), back: w.back, modulus: w.modulus.clone() })
        });
        Int {
            form,
            affine: self.affine.map(|a| Affine { index: swap(a.index), ..a }),
            linear: self.linear.as_ref().map(|x| x.relabel(from, to)),
            poly: self.poly.as_ref().map(|x| x.relabel(from, to)),
            wrap,
            loops: self.loops.iter().map(|l| swap(*l)).collect(),
            ..self.clone()
        }
    }

    /// `self` as a literal when its value is known, keeping what it reads.
    fn folded(self) -> Int {
        match self.value {
            Some(v) => {
                Int { loops: self.loops, params: self.params, generic: self.generic, ..Int::lit(v) }
            }
            None => self,
        }
    }

    fn combine(&self, other: &Int, tokens: TokenStream) -> Int {
        let mut loops = self.loops.clone();
        loops.extend(other.loops.iter().copied().filter(|l| !self.loops.contains(l)));
        let mut params = self.params.clone();
        params.extend(other.params.iter().filter(|p| !self.params.contains(p)).cloned());
        Int {
            form: Form::Tokens { tokens, atom: false },
            value: None,
            affine: None,
            linear: None,
            wrap: None,
            poly: None,
            at_most: None,
            loops,
            params,
            generic: self.generic || other.generic,
            inferred: self.inferred || other.inferred,
            witness: None,
            flat: false,
            konst: None,
        }
    }

    /// The expression as tokens, naming loop indices with `index`.
    pub fn render(&self, index: &dyn Fn(LoopId) -> TokenStream) -> TokenStream {
        match &self.form {
            Form::Index(l) => index(*l),
            Form::Tokens { tokens, .. } => tokens.clone(),
        }
    }

    /// The expression where a type or a constant needs it: `_` for an [`Int::inferred`] length.
    pub fn render_const(&self, index: &dyn Fn(LoopId) -> TokenStream) -> TokenStream {
        match self.inferred {
            true => quote!(_),
            false => self.render(index),
        }
    }

    /// The expression as an operand of `+` or `*`: parenthesised unless it is an atom.
    pub fn operand(&self, index: &dyn Fn(LoopId) -> TokenStream) -> TokenStream {
        match &self.form {
            Form::Index(l) => index(*l),
            Form::Tokens { tokens, atom: true } => tokens.clone(),
            Form::Tokens { tokens, atom: false } => quote!((#tokens)),
        }
    }

    /// A text that identifies the expression (equal texts, equal values).
    pub fn key(&self) -> String {
        match &self.form {
            Form::Index(l) => format!("@{}", l.0),
            // The loops read tell apart equal tokens naming different (shadowed) indices.
            Form::Tokens { tokens, .. } => format!("{tokens} {:?}", self.loops),
        }
    }
}

impl Affine {
    /// `self + k`, unless the offset overflows.
    pub fn shifted(self, k: i64) -> Option<Affine> {
        Some(Affine { offset: self.offset.checked_add(k)?, ..self })
    }
}

impl PartialEq for Int {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.form {
            Form::Index(l) => write!(f, "@{}", l.0),
            Form::Tokens { tokens, .. } => write!(f, "{}", tokens.to_string().replace(' ', "")),
        }
    }
}

/// `tokens` with every inline `const { e }` block written `{ e }`, inside groups too: for the
/// length of a repeat expression (`[0.0; n]`), a constant already, where an inline `const`
/// block inside a closure (a stored or checkpointed loop's) is taken to depend on the closure's
/// generic parameters (`const_evaluatable_unchecked`, rust-lang/rust#76200).
pub fn without_inline_const(tokens: TokenStream) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    let mut out = Vec::new();
    let mut it = tokens.into_iter().peekable();
    while let Some(t) = it.next() {
        match t {
            TokenTree::Ident(i)
                if i == "const"
                    && matches!(it.peek(), Some(TokenTree::Group(g)) if g.delimiter() == proc_macro2::Delimiter::Brace) =>
                {}
            TokenTree::Group(g) => {
                let mut inner = Group::new(g.delimiter(), without_inline_const(g.stream()));
                inner.set_span(g.span());
                out.push(TokenTree::Group(inner));
            }
            other => out.push(other),
        }
    }
    out.into_iter().collect()
}
