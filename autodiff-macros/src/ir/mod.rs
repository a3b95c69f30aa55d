//! The intermediate representation: straight-line code in A-normal form over `f64` values.
//!
//! Every statement applies one [`Prim`] to operands and defines a fresh variable (single
//! assignment), so lowering, the reverse transform and the forward transform all read and write
//! the same plain data, and codegen is the only place that makes tokens.

mod builder;
mod prim;
#[cfg(test)]
mod print;
mod verify;

pub use builder::Builder;
pub use prim::{Cmp, Prim};
#[cfg(test)]
pub use print::print;
pub use verify::verify;

use proc_macro2::TokenStream;

/// A variable: an index into [`Func::names`]. Defined once, by an input or by one statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub u32);

impl Var {
    /// The index of this variable in [`Func::names`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A suffix added to a variable's name by a transform, in the order the transforms ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// The adjoint (cotangent) of a value: `p_bar`.
    Bar,
    /// The tangent of a value: `p_dot`.
    Dot,
}

/// The name a variable wants in the generated code. Codegen's namer makes it unique.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Name {
    /// The user's identifier this variable derives from; `None` for a temporary.
    pub base: Option<String>,
    /// Which assignment of the user's variable this is: 0 for the first, then 1, 2, ...
    pub version: u32,
    /// Transform suffixes, outermost last.
    pub suffixes: Vec<Suffix>,
}

impl Name {
    /// A temporary: codegen names it `t0`, `t1`, ... or inlines it.
    pub fn temp() -> Self {
        Name::default()
    }

    /// A name taken from the user's code.
    pub fn user(ident: &str) -> Self {
        Name::version(ident, 0)
    }

    /// The `version`-th assignment of the user's variable `ident`.
    pub fn version(ident: &str, version: u32) -> Self {
        Name { base: Some(ident.to_owned()), version, suffixes: Vec::new() }
    }

    /// The name as written: `p`, `p_2`, `p_bar`, `p_2_bar_dot`; `None` for a temporary.
    pub fn spelled(&self) -> Option<String> {
        let mut s = self.base.clone()?;
        if self.version > 0 {
            s.push_str(&format!("_{}", self.version));
        }
        for suffix in &self.suffixes {
            s.push('_');
            s.push_str(match suffix {
                Suffix::Bar => crate::symbol::SUFFIX_BAR,
                Suffix::Dot => crate::symbol::SUFFIX_DOT,
            });
        }
        Some(s)
    }

    /// Whether this is the user's own name, unchanged (first assignment, no suffix).
    pub fn is_users_own(&self) -> bool {
        self.base.is_some() && self.version == 0 && self.suffixes.is_empty()
    }

    /// This name with one more suffix; a temporary stays a temporary.
    pub fn with(&self, suffix: Suffix) -> Self {
        match &self.base {
            None => Name::temp(),
            Some(_) => {
                let mut name = self.clone();
                name.suffixes.push(suffix);
                name
            }
        }
    }

    /// Whether this is a temporary (no user name).
    pub fn is_temp(&self) -> bool {
        self.base.is_none()
    }
}

/// An index into [`Func::exts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExtId(pub u32);

/// What an operand reads: a variable, a literal, or an opaque constant expression.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    /// A variable of the function.
    Var(Var),
    /// A finite or non-finite `f64` literal.
    Lit(f64),
    /// A constant expression of the user's (a `const`, `n as f64`, `data[0]`), with zero derivative.
    Ext(ExtId),
}

impl Operand {
    /// The variable read, if this operand is one.
    pub fn var(self) -> Option<Var> {
        match self {
            Operand::Var(v) => Some(v),
            _ => None,
        }
    }

    /// The literal value, if this operand is one.
    pub fn lit(self) -> Option<f64> {
        match self {
            Operand::Lit(x) => Some(x),
            _ => None,
        }
    }
}

/// Binding strength of an expression, used to parenthesise it where it is re-emitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Prec {
    /// `if c { a } else { b }`.
    If,
    /// `a + b`, `a - b`.
    Sum,
    /// `a * b`, `a / b`.
    Product,
    /// `a as f64`.
    Cast,
    /// `-a`, `*a`.
    Unary,
    /// Paths, literals, calls, method calls, indexing, field access, parenthesised expressions.
    Atom,
}

/// A constant expression copied verbatim from the user's function.
#[derive(Clone, Debug)]
pub struct Ext {
    /// The user's tokens, with their spans.
    pub tokens: TokenStream,
    /// How tightly the expression binds, to parenthesise it correctly.
    pub prec: Prec,
    /// The non-`f64` parameters it reads (so codegen knows which parameters are used).
    pub params: Vec<String>,
}

/// One statement: `out = prim(args)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// The variable defined.
    pub out: Var,
    /// The primitive applied.
    pub prim: Prim,
    /// Its operands, as many as [`Prim::arity`].
    pub args: Vec<Operand>,
}

/// A straight-line function over `f64` values.
#[derive(Clone, Debug)]
pub struct Func {
    /// The wanted name of every variable, indexed by [`Var`].
    pub names: Vec<Name>,
    /// Input variables: the user's `f64` parameters in order, then any added by transforms
    /// (tangent directions).
    pub inputs: Vec<Var>,
    /// How many of [`Func::inputs`] are the user's own parameters.
    pub user_inputs: usize,
    /// The differentiated inputs, in parameter order.
    pub active: Vec<Var>,
    /// Opaque constant expressions, indexed by [`ExtId`].
    pub exts: Vec<Ext>,
    /// The body, in evaluation order.
    pub stmts: Vec<Stmt>,
    /// The results, in order.
    pub outputs: Vec<Operand>,
}

impl Func {
    /// The wanted name of `v`.
    pub fn name(&self, v: Var) -> &Name {
        &self.names[v.index()]
    }
}
