//! Integer expressions: loop bounds, array lengths and indices. They are never differentiated, so
//! the IR keeps them as the user wrote them (tokens), with what the transforms need to know.

use std::fmt;

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote};

use super::LoopId;

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
    /// The loop indices it reads.
    pub loops: Vec<LoopId>,
    /// The non-differentiated parameters it reads.
    pub params: Vec<String>,
    /// Whether it reads a const generic parameter of the function.
    pub generic: bool,
}

impl Int {
    /// The literal `n`.
    pub fn lit(n: u64) -> Self {
        let tokens = Literal::u64_unsuffixed(n).into_token_stream();
        Int {
            form: Form::Tokens { tokens, atom: true },
            value: Some(n),
            affine: None,
            loops: Vec::new(),
            params: Vec::new(),
            generic: false,
        }
    }

    /// The index variable of `l`.
    pub fn index(l: LoopId) -> Self {
        Int {
            form: Form::Index(l),
            value: None,
            affine: Some(Affine { index: l, offset: 0 }),
            loops: vec![l],
            params: Vec::new(),
            generic: false,
        }
    }

    /// An expression the user wrote (already checked to be an integer expression).
    pub fn tokens(tokens: TokenStream, atom: bool) -> Self {
        Int {
            form: Form::Tokens { tokens, atom },
            value: None,
            affine: None,
            loops: Vec::new(),
            params: Vec::new(),
            generic: false,
        }
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
    #[cfg(test)]
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
        out.value = self.value.and_then(|v| v.checked_add(k));
        out.affine = self.affine.and_then(|a| a.shifted(i64::try_from(k).ok()?));
        out
    }

    /// `self + other`.
    pub fn add(&self, other: &Int) -> Int {
        match (self.value, other.value) {
            (Some(0), _) => return other.clone(),
            (_, Some(0)) => return self.clone(),
            _ => {}
        }
        let (a, b) = (self.operand(&|_| quote!(_)), other.operand(&|_| quote!(_)));
        let mut out = self.combine(other, quote!(#a + #b));
        out.value = self.value.zip(other.value).and_then(|(a, b)| a.checked_add(b));
        out.affine = match (self.affine, other.affine) {
            (Some(a), None) => other.value.and_then(|v| a.shifted(i64::try_from(v).ok()?)),
            (None, Some(b)) => self.value.and_then(|v| b.shifted(i64::try_from(v).ok()?)),
            _ => None,
        };
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
        let mut out = self.combine(other, quote!(#a * #b));
        out.value = self.value.zip(other.value).and_then(|(a, b)| a.checked_mul(b));
        out.folded()
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
            loops,
            params,
            generic: self.generic || other.generic,
        }
    }

    /// The expression as tokens, naming loop indices with `index`.
    pub fn render(&self, index: &dyn Fn(LoopId) -> TokenStream) -> TokenStream {
        match &self.form {
            Form::Index(l) => index(*l),
            Form::Tokens { tokens, .. } => tokens.clone(),
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
