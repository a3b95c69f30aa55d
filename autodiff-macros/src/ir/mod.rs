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
pub enum Name {
    /// A temporary: codegen names it `t0`, `t1`, ... or inlines it.
    #[default]
    Temp,
    /// The `version`-th assignment (from 0) of the user's variable `ident`: `p`, then `p_1`, ...
    User {
        /// The user's identifier, without any `r#`.
        ident: String,
        /// 0 for the first assignment.
        version: u32,
    },
    /// The adjoint or tangent of another variable: `p_bar`, `p_1_dot`, `p_bar_dot`.
    Derived {
        /// The variable this one is the adjoint or tangent of.
        of: Var,
        /// Which.
        suffix: Suffix,
    },
}

impl Name {
    /// A temporary.
    pub fn temp() -> Self {
        Name::Temp
    }

    /// The first assignment of the user's variable `ident`.
    pub fn user(ident: &str) -> Self {
        Name::version(ident, 0)
    }

    /// The `version`-th assignment of the user's variable `ident`.
    pub fn version(ident: &str, version: u32) -> Self {
        Name::User { ident: ident.trim_start_matches("r#").to_owned(), version }
    }

    /// Whether this is a temporary (no user name).
    pub fn is_temp(&self) -> bool {
        matches!(self, Name::Temp)
    }

    /// The suffix's spelling.
    pub fn suffix_str(suffix: Suffix) -> &'static str {
        match suffix {
            Suffix::Bar => crate::symbol::SUFFIX_BAR,
            Suffix::Dot => crate::symbol::SUFFIX_DOT,
        }
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

    /// The name of the adjoint or tangent of `v`: derived from `v`'s, or a temporary for a
    /// temporary.
    pub fn derived_name(&self, v: Var, suffix: Suffix) -> Name {
        match self.name(v) {
            Name::Temp => Name::Temp,
            _ => Name::Derived { of: v, suffix },
        }
    }
}
