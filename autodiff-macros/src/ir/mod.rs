//! The intermediate representation: structured code in A-normal form over `f64` values, booleans
//! and fixed-size arrays of them.
//!
//! Every statement defines fresh variables (single assignment), so lowering, the reverse transform
//! and the forward transform all read and write the same plain data, and codegen is the only place
//! that makes tokens. Control flow is structured: a loop or a branch is one statement holding its
//! own statement lists ([`Block`]s), with the values it carries or yields made explicit (as in
//! MLIR's `scf.for` and `scf.if`). Arrays are values too: a store makes a new array, and codegen
//! turns that back into an update in place.

mod builder;
mod int;
mod linear;
mod poly;
mod prim;
#[cfg(test)]
mod print;
mod types;
mod verify;
mod walk;

pub use builder::Builder;
pub use int::{Affine, Int, without_inline_const};
pub use linear::{Linear, Wrap};
pub use poly::{Bounds, Poly};
pub use prim::{Cmp, Prim};
#[cfg(test)]
pub use print::print;
pub use types::{Elem, Scalar, Ty};
pub use verify::verify;
pub use walk::{free_vars, has_while, reads, stmt_defs, substitute, substitute_operand};

use proc_macro2::{Ident, Span, TokenStream};

/// A variable: an index into [`Func::names`] and [`Func::types`]. Defined once, by an input or by
/// one statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub u32);

impl Var {
    /// The index of this variable in [`Func::names`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A loop's index variable: an index into [`Func::loops`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LoopId(pub u32);

/// A suffix added to a variable's name by a transform, in the order the transforms ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// The adjoint (cotangent) of a value: `p_bar`.
    Bar,
    /// The tangent of a value: `p_dot`.
    Dot,
    /// The per-iteration storage of a value, kept for the reverse sweep: `p_saved`.
    Saved,
    /// The residuals of the call whose value this is, from its `g_fwd` for its `g_rev`: `h_res`.
    Res,
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
    /// The adjoint, tangent or storage of another variable: `p_bar`, `p_1_dot`, `p_saved`.
    Derived {
        /// The variable this one is derived from.
        of: Var,
        /// How.
        suffix: Suffix,
    },
    /// A name chosen by the macro for a value with no user name (`took_then`, `saved`).
    Hint(&'static str),
    /// The partial derivative of a call's value with respect to one of its argument values:
    /// `dy_dx` (`dg_dx` when the value has no name, `dy_d2` when the argument has none).
    Partial {
        /// The call's value.
        of: Var,
        /// The callee's name.
        callee: String,
        /// The argument value, if a variable.
        wrt: Option<Var>,
        /// Its position among the callee's differentiated parameters.
        index: usize,
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

    /// Whether this is a temporary (no name wanted).
    pub fn is_temp(&self) -> bool {
        matches!(self, Name::Temp)
    }

    /// The suffix's spelling.
    pub fn suffix_str(suffix: Suffix) -> &'static str {
        match suffix {
            Suffix::Bar => crate::symbol::SUFFIX_BAR,
            Suffix::Dot => crate::symbol::SUFFIX_DOT,
            Suffix::Saved => crate::symbol::SUFFIX_SAVED,
            Suffix::Res => crate::symbol::SUFFIX_RES,
        }
    }
}

/// An index into [`Func::exts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExtId(pub u32);

/// What an operand reads: a variable, a literal, or an opaque constant expression.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    /// A variable of the function (of any type).
    Var(Var),
    /// A finite or non-finite `f64` literal.
    Lit(f64),
    /// A constant `f64` expression of the user's (a `const`, `n as f64`, `data[i]`), with zero
    /// derivative; or, as the integer operand of [`Prim::PowiInt`] and [`Prim::IntAsF64`] (see
    /// [`Prim::int_operand`]), an `i32` expression of the user's, such as `n` or `i as i32`.
    Ext(ExtId),
    /// A boolean literal.
    Bool(bool),
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
    /// `a || b`
    Or,
    /// `a && b`
    And,
    /// `a < b`
    Compare,
    /// `a + b`, `a - b`.
    Sum,
    /// `a * b`, `a / b`.
    Product,
    /// `a as f64`.
    Cast,
    /// `-a`, `*a`, `!a`.
    Unary,
    /// Paths, literals, calls, method calls, indexing, field access, parenthesised expressions.
    Atom,
}

/// A constant expression copied verbatim from the user's function: an `f64` value, an argument
/// passed as written to a call, or an integer exponent of `powi`.
#[derive(Clone, Debug)]
pub struct Ext {
    /// The user's tokens, with their spans.
    pub tokens: TokenStream,
    /// How tightly the expression binds, to parenthesise it correctly.
    pub prec: Prec,
    /// The non-`f64` parameters it reads (so codegen knows which parameters are used).
    pub params: Vec<String>,
    /// The loop indices it reads.
    pub loops: Vec<LoopId>,
    /// Whether its tokens compute a value of the other float type, a cast the user wrote
    /// (`i as f64` in an `f32` function, read through [`Builder::typed_other`]): a
    /// [`Prim::Convert`] of it is its tokens. Otherwise it is of the function's scalar type, and
    /// a conversion of it (the adjoint of a cast, when the cotangent is this constant) casts it.
    pub other: bool,
}

/// A loop's index variable.
#[derive(Clone, Debug)]
pub struct LoopInfo {
    /// The user's name for it; `None` for `_`, which codegen names if the index is read.
    pub ident: Option<Ident>,
    /// Where the loop is (its `for` keyword), for messages about it.
    pub span: Span,
}

/// A boolean condition, as written in an `if`.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    /// A comparison of two `f64` operands.
    F64(Cmp, Operand, Operand),
    /// A comparison of two integers (boxed: an [`Int`] is large, and conditions are many).
    Int(Cmp, Box<Int>, Box<Int>),
    /// A boolean variable.
    Var(Var),
    /// `!c`
    Not(Box<Cond>),
    /// `a && b`
    And(Box<Cond>, Box<Cond>),
    /// `a || b`
    Or(Box<Cond>, Box<Cond>),
}

/// The range of a `for` loop: `lo..hi`, `lo..=hi`, or either reversed.
#[derive(Clone, Debug, PartialEq)]
pub struct Range {
    /// The first index (of the ascending order).
    pub lo: Int,
    /// The end: excluded, or included when [`Range::inclusive`].
    pub hi: Int,
    /// `lo..=hi`.
    pub inclusive: bool,
    /// `(lo..hi).rev()`: the indices in descending order.
    pub rev: bool,
}

/// A value carried from one iteration of a loop to the next.
#[derive(Clone, Debug, PartialEq)]
pub struct Carry {
    /// The variable that holds it inside the body (a block argument).
    pub param: Var,
    /// Its value before the first iteration.
    pub init: Operand,
}

/// `outs = for index in range carry(params = inits) { body; yield yields }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Loop {
    /// The index variable.
    pub index: LoopId,
    /// The indices it takes.
    pub range: Range,
    /// The carried values.
    pub carried: Vec<Carry>,
    /// The body.
    pub body: Block,
    /// The carried values at the end of an iteration, one per [`Loop::carried`].
    pub yields: Vec<Operand>,
    /// The carried values after the last iteration (the initial values if there is none).
    pub outs: Vec<Var>,
}

/// `outs = if cond { then; yield then_yields } else { otherwise; yield else_yields }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Branch {
    /// The condition (a boolean variable).
    pub cond: Var,
    /// The statements run when it holds.
    pub then: Block,
    /// The results when it holds.
    pub then_yields: Vec<Operand>,
    /// The statements run otherwise.
    pub otherwise: Block,
    /// The results otherwise.
    pub else_yields: Vec<Operand>,
    /// The results.
    pub outs: Vec<Var>,
}

/// `outs = while first carry(params = inits) { body; yield yields } again cond`: a loop whose
/// length is decided while it runs (`while`, `loop` with `break`, a `for` with `break`). With
/// `x = inits`: when `first` holds, the body runs on `x` and `x = yields`, and it runs again
/// while `cond` (a boolean of the body, read after it) holds; `outs` are the last `x` (the initial
/// values if the body never ran). Every iteration runs the whole body: an early exit is a flag
/// that the body's branches read, so that one iteration is one step of the loop's state.
#[derive(Clone, Debug, PartialEq)]
pub struct While {
    /// The index variable: it takes the values of `range` in order when there is one (the loop
    /// then also ends with the range), and counts the iterations from 0 otherwise.
    pub index: LoopId,
    /// The range of a `for` loop that may end early.
    pub range: Option<Range>,
    /// Whether the first iteration runs (a boolean, or a literal).
    pub first: Operand,
    /// The carried values.
    pub carried: Vec<Carry>,
    /// The body.
    pub body: Block,
    /// The carried values at the end of an iteration, one per [`While::carried`].
    pub yields: Vec<Operand>,
    /// Whether another iteration runs: a boolean of the body (or a literal), read after it.
    pub cond: Operand,
    /// The carried values after the last iteration.
    pub outs: Vec<Var>,
    /// For a reverse sweep: the loop records its carried values (all of them, in order) at the
    /// start of every iteration on a tape of this many snapshots (online checkpointing), which
    /// the [`Checkpoint`] with the same index and a [`Source::Tape`] reverses, in the same block.
    pub tape: Option<u64>,
    /// Differentiated implicitly (the user's promise): the carried values converge to a fixed
    /// point of the body, whose derivatives the sweep computes there, by an adjoint fixed-point
    /// iteration, instead of through the iterations that ran.
    pub implicit: bool,
}

impl While {
    /// The loop as a [`Loop`] over no range: its carried values, body and yields, for what
    /// reads only those (which carried values are additive, the sweep of one iteration).
    pub fn as_loop(&self) -> Loop {
        let none = Range { lo: Int::lit(0), hi: Int::lit(0), inclusive: false, rev: false };
        Loop {
            index: self.index,
            range: self.range.clone().unwrap_or(none),
            carried: self.carried.clone(),
            body: self.body.clone(),
            yields: self.yields.clone(),
            outs: self.outs.clone(),
        }
    }
}

/// Where a checkpointed sweep's steps and their states come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// A `for` loop's range: the number of steps is known when the sweep starts, and revolve
    /// places the snapshots, starting from [`Checkpoint::state`].
    Range(Range),
    /// The tape of the [`While`] with the same index, filled while it ran: the snapshots were
    /// placed online, and [`Checkpoint::state`] is empty. The steps' indices take the values of
    /// the range when the loop had one, and count from 0 otherwise.
    Tape(Option<Range>),
}

impl Source {
    /// The range the steps' indices come from, if any.
    pub fn range(&self) -> Option<&Range> {
        match self {
            Source::Range(r) => Some(r),
            Source::Tape(r) => r.as_ref(),
        }
    }
}

/// The reverse sweep of a loop by binomial checkpointing: the loop's state (its carried values)
/// is kept in `slots` snapshots and recomputed between them by `step`, and `back` is the sweep of
/// one iteration, given the state before it. Semantics: with `x₀ = state` and
/// `xₖ₊₁ = step(index(k), xₖ)`, the adjoint runs through `back(index(k), xₖ, ·)` for the last
/// iteration first; `outs` are the adjoint after the first. Any schedule gives the same values.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The loop's index variable.
    pub index: LoopId,
    /// The loop's indices (offline), or its tape (online).
    pub source: Source,
    /// How many snapshots of the state, the first holding `state`.
    pub slots: u64,
    /// The state before the first iteration.
    pub state: Vec<Operand>,
    /// The state inside `step` (block arguments).
    pub step_params: Vec<Var>,
    /// One iteration of the loop.
    pub step: Block,
    /// The state after it, one per `step_params`.
    pub step_yields: Vec<Operand>,
    /// The adjoint carried through the sweep, with its value after the last iteration.
    pub adjoint: Vec<Carry>,
    /// The state inside `back` (block arguments).
    pub back_params: Vec<Var>,
    /// The sweep of one iteration, from the state before it and the adjoint after it.
    pub back: Block,
    /// The adjoint before the iteration, one per `adjoint`.
    pub back_yields: Vec<Operand>,
    /// The adjoint before the first iteration.
    pub outs: Vec<Var>,
}

/// Which function of a callee `g` a call runs. A callee returning one `f64` (a scalar callee)
/// is differentiated through `g_grad`, `g_jvp` and `g_hvp`; one returning an array or a tuple (a
/// vector callee) through `g_vjp`, `g_jvp` and its own `g_hvp` (see [`CallKind::VjpJvp`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallKind {
    /// `g(args)`: the value.
    Value,
    /// `g_grad(args)`: the value and its partial derivatives with respect to the argument values
    /// (a scalar callee).
    Grad,
    /// `g_jvp(args, dirs)`: the value and its derivative along the directions.
    Jvp,
    /// `g_hvp(args, dirs)`: the value, the partials, and their derivatives along the directions
    /// (a scalar callee).
    Hvp,
    /// `g_vjp(args, bars)`: the value and the cotangents of the argument values, given the
    /// cotangent of the value (a vector callee).
    Vjp,
    /// `g_hvp(args, bars, dirs, bar_dots)`: forward mode of `g_vjp`, for a vector callee: the
    /// value, the cotangents, and their derivatives along the directions of the arguments and
    /// of the value's cotangent.
    VjpJvp,
    /// `g_fwd(args)`: the forward half of `g_vjp`, for a vector callee: the value and the
    /// residuals its sweep reads (one value of type [`Ty::Residuals`]).
    Fwd,
    /// `g_rev(args, residuals, bars)`: the reverse half of `g_vjp`: the cotangents of the
    /// argument values, given the residuals of the call's `g_fwd` and the value's cotangent.
    Rev,
}

/// What the callee returns, as the caller's tokens tell (a typed `let`, a pattern, the place the
/// value goes): one `f64`, one array, or a tuple of `f64`s and arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ret {
    /// One `f64`: a scalar callee.
    Scalar,
    /// One array of `f64`.
    Array,
    /// A tuple of this many `f64`s and arrays.
    Tuple(usize),
    /// A struct deriving `Differentiable` (its type in [`Call::returns`]), held laid flat: one
    /// array of its differentiated scalars.
    Struct,
}

impl Ret {
    /// How many values of the IR hold the callee's value.
    pub fn len(self) -> usize {
        match self {
            Ret::Scalar | Ret::Array | Ret::Struct => 1,
            Ret::Tuple(n) => n,
        }
    }

    /// Whether the callee returns one `f64`.
    pub fn is_scalar(self) -> bool {
        self == Ret::Scalar
    }
}

/// A function called by path: `g`, `module::g`, `Self::g`; or a method, `recv.g(...)`.
#[derive(Clone)]
pub struct Callee {
    /// What precedes the name (`module::`, `Self::`, or nothing), as the user wrote it.
    pub prefix: TokenStream,
    /// The function's name, with the span of the call.
    pub name: Ident,
    /// Called by method syntax: the first argument is the receiver (`q.norm2()`, so that
    /// rustc finds the method through the receiver's type, which the macro does not know).
    pub method: bool,
}

impl std::fmt::Debug for Callee {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let dot = if self.method { "." } else { "" };
        write!(f, "{dot}{}{}", self.prefix.to_string().replace(' ', ""), self.name)
    }
}

impl PartialEq for Callee {
    fn eq(&self, other: &Self) -> bool {
        self.prefix.to_string() == other.prefix.to_string()
            && self.name == other.name
            && self.method == other.method
    }
}

/// A struct value of the caller's body passed to a call: consecutive arguments of the call are
/// its fields, which codegen writes as a struct literal (`Quat { w: a, x: b, .. }`); the
/// callee's one partial and one direction for it are that struct too, destructured field by
/// field.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The index of the argument of the user's call that the struct is.
    pub at: usize,
    /// Passed as `&Quat { .. }`.
    pub by_ref: bool,
    /// Its shape: the struct's path and fields.
    pub shape: GroupShape,
}

/// The fields of a struct argument, each an argument of the call or a nested struct.
#[derive(Clone, Debug)]
pub struct GroupShape {
    /// The struct's path, as the literal was written (its type, for a struct laid flat).
    pub path: TokenStream,
    /// Its fields, in order (one unnamed, for a struct laid flat).
    pub fields: Vec<(TokenStream, GroupField)>,
    /// A struct the caller holds laid flat (the value of a call returning it): one argument of
    /// the call, an array of its differentiated scalars, which codegen passes as the struct.
    pub flat: bool,
}

impl PartialEq for GroupShape {
    fn eq(&self, other: &Self) -> bool {
        self.flat == other.flat
            && self.path.to_string() == other.path.to_string()
            && self.fields.len() == other.fields.len()
            && self
                .fields
                .iter()
                .zip(&other.fields)
                .all(|((a, x), (b, y))| a.to_string() == b.to_string() && x == y)
    }
}

/// One field of a struct argument.
#[derive(Clone, Debug, PartialEq)]
pub enum GroupField {
    /// The `k`-th argument of the call (in [`Call::args`]).
    Arg(usize),
    /// A nested struct.
    Nested(GroupShape),
}

/// An argument of a call. The callee's derivative functions have one partial and one direction
/// per parameter that is an `f64` or an array of `f64` (its differentiated parameters); a call
/// keeps the partials of its values and passes their tangents, drops the partials of its
/// constants and passes zero for their directions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg {
    /// A value of the IR (an `f64` or an array), differentiated through the callee; `by_ref` when
    /// passed as `&x`.
    Value {
        /// The value.
        op: Operand,
        /// Passed by reference.
        by_ref: bool,
    },
    /// A constant passed to a parameter the callee differentiates (an `f64` or an array of
    /// `f64`, such as `2.0`, `sigma` left out of `wrt`, `y[j]` of `f64` data): passed as written,
    /// its partial dropped and its direction zero.
    Fixed {
        /// The constant.
        ext: ExtId,
        /// Its zero direction.
        zero: Zero,
    },
    /// A constant passed to a parameter the callee does not differentiate (an integer, a
    /// `bool`, a slice, ...): passed as written, with no partial and no direction.
    Const(ExtId),
}

impl Arg {
    /// The constant, for a constant argument.
    pub fn ext(&self) -> Option<ExtId> {
        match self {
            Arg::Value { .. } => None,
            Arg::Fixed { ext, .. } | Arg::Const(ext) => Some(*ext),
        }
    }
}

/// The zero direction of a constant argument of a differentiated parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zero {
    /// `0.0`: the constant is an `f64`.
    Scalar,
    /// `zero()`, of the type the callee's signature gives (an array whose length the macro may
    /// not know); `&zero()` when the parameter is a reference.
    Inferred {
        /// Passed by reference.
        by_ref: bool,
    },
    /// The zero of a struct, `Differentiable::zero_like` of the constant passed (borrowed when
    /// the parameter is a reference).
    Like {
        /// Passed by reference.
        by_ref: bool,
    },
}

/// `outs = g…(args, dirs)`: a call of another function, differentiated through its derivative
/// functions (`g_grad`, `g_jvp`, `g_hvp`, `g_vjp`, generated by `#[grad]` or written by hand).
/// With `k` values (one, or a tuple's parts: [`Ret::len`]) and `m` argument values, the results
/// are, by kind:
///
/// | kind | `dirs` | `outs` |
/// | --- | --- | --- |
/// | `Value` | none | the `k` values |
/// | `Grad` | none | the value, the `m` partials (each of its argument's type) |
/// | `Jvp` | `m` directions | the `k` values, their `k` derivatives along the directions |
/// | `Hvp` | `m` directions | the value, the `m` partials, their `m` derivatives (H·v) |
/// | `Vjp` | `k` cotangents of the values | the `k` values, the `m` cotangents of the arguments |
/// | `VjpJvp` | `k` cotangents, `m` directions, `k` tangents of the cotangents | `Vjp`'s, then the derivative of each |
/// | `Fwd` | none | the `k` values, the residuals |
/// | `Rev` | the residuals, `k` cotangents of the values | the `m` cotangents of the arguments |
///
/// The [`Arg::Fixed`] constants' partials and directions are not in `outs` and `dirs`: codegen
/// drops the partials and passes zeros.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The callee.
    pub callee: Callee,
    /// Which of its functions.
    pub kind: CallKind,
    /// What it returns.
    pub ret: Ret,
    /// The arguments, in order.
    pub args: Vec<Arg>,
    /// The operands passed after the arguments, as the table above says: directions and
    /// cotangents (see [`Call::bars`], [`Call::arg_dirs`], [`Call::bar_dots`]).
    pub dirs: Vec<Operand>,
    /// The results.
    pub outs: Vec<Var>,
    /// The struct values of the caller's body among the arguments (each several of them).
    pub groups: Vec<Group>,
    /// The struct type of the callee's value, for [`Ret::Struct`].
    pub returns: Option<TypeTokens>,
}

/// A type as the user wrote it, compared by its text.
#[derive(Clone, Debug)]
pub struct TypeTokens(pub TokenStream);

impl PartialEq for TypeTokens {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_string() == other.0.to_string()
    }
}

impl Call {
    /// The argument values (the differentiated arguments), in order.
    pub fn values(&self) -> Vec<(Operand, bool)> {
        self.args
            .iter()
            .filter_map(|a| match a {
                Arg::Value { op, by_ref } => Some((*op, *by_ref)),
                Arg::Fixed { .. } | Arg::Const(_) => None,
            })
            .collect()
    }

    /// The operands after the arguments, split: the cotangents of the values, the directions
    /// of the argument values, and the tangents of the cotangents (each empty where the kind
    /// has none).
    fn split_dirs(&self) -> (&[Operand], &[Operand], &[Operand]) {
        let k = self.ret.len().min(self.dirs.len());
        match self.kind {
            CallKind::Value | CallKind::Grad => (&[], &[], &[]),
            CallKind::Jvp | CallKind::Hvp => (&[], &self.dirs, &[]),
            CallKind::Vjp => (&self.dirs, &[], &[]),
            CallKind::Rev => (self.dirs.get(1..).unwrap_or(&[]), &[], &[]),
            CallKind::Fwd => (&[], &[], &[]),
            CallKind::VjpJvp => {
                let (bars, rest) = self.dirs.split_at(k);
                let (dirs, bar_dots) = rest.split_at(rest.len().saturating_sub(k));
                (bars, dirs, bar_dots)
            }
        }
    }

    /// The residuals that a `Rev` call reads (what the call's `Fwd` returned).
    pub fn residuals(&self) -> Option<Operand> {
        (self.kind == CallKind::Rev).then(|| self.dirs.first().copied()).flatten()
    }

    /// The cotangents of the callee's values, for `Vjp`, `VjpJvp` and `Rev`.
    pub fn bars(&self) -> &[Operand] {
        self.split_dirs().0
    }

    /// The directions of the argument values, for `Jvp`, `Hvp` and `VjpJvp`.
    pub fn arg_dirs(&self) -> &[Operand] {
        self.split_dirs().1
    }

    /// The tangents of the cotangents of the callee's values, for `VjpJvp`.
    pub fn bar_dots(&self) -> &[Operand] {
        self.split_dirs().2
    }

    /// How many values the callee's value is held in (1, or a tuple's length).
    pub fn value_count(&self) -> usize {
        match self.kind {
            CallKind::Grad | CallKind::Hvp => 1,
            CallKind::Rev => 0,
            _ => self.ret.len(),
        }
    }
}

/// One statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `out = prim(args)` on `f64` operands.
    Op {
        /// The variable defined.
        out: Var,
        /// The primitive applied.
        prim: Prim,
        /// Its operands, as many as [`Prim::arity`].
        args: Vec<Operand>,
    },
    /// `out = cond`, a boolean.
    Test {
        /// The boolean defined.
        out: Var,
        /// The condition.
        cond: Cond,
    },
    /// `out = array[index]`: an element, or a sub-array when the index is shorter than the shape.
    Load {
        /// The value read.
        out: Var,
        /// The array.
        array: Var,
        /// One index per dimension read, outermost first.
        index: Vec<Int>,
    },
    /// `out = array` with `array[index]` replaced by `value`.
    Store {
        /// The new array.
        out: Var,
        /// The array before.
        array: Var,
        /// One index per dimension, outermost first.
        index: Vec<Int>,
        /// The value written: an element, or a sub-array.
        value: Operand,
    },
    /// `out = [value; dims...]`: every element equal to `value`.
    Fill {
        /// The array defined.
        out: Var,
        /// The element (a scalar).
        value: Operand,
    },
    /// `out = [elems...]`: an array literal, whose elements are scalars or arrays.
    Array {
        /// The array defined.
        out: Var,
        /// The elements in order.
        elems: Vec<Operand>,
    },
    /// A `for` loop.
    For(Box<Loop>),
    /// A loop whose length is decided while it runs.
    While(Box<While>),
    /// An `if`.
    If(Box<Branch>),
    /// The reverse sweep of a loop by checkpointing.
    Checkpoint(Box<Checkpoint>),
    /// A call of another function.
    Call(Box<Call>),
}

/// A list of statements, run in order.
pub type Block = Vec<Stmt>;

/// A function over `f64` values, booleans and arrays.
#[derive(Clone, Debug)]
pub struct Func {
    /// The wanted name of every variable, indexed by [`Var`].
    pub names: Vec<Name>,
    /// The type of every variable, indexed by [`Var`].
    pub types: Vec<Ty>,
    /// Input variables: the user's differentiable parameters in order, then any added by
    /// transforms (tangent directions, output cotangents).
    pub inputs: Vec<Var>,
    /// How many of [`Func::inputs`] are the user's own parameters.
    pub user_inputs: usize,
    /// The differentiated inputs, in parameter order.
    pub active: Vec<Var>,
    /// Opaque constant expressions, indexed by [`ExtId`].
    pub exts: Vec<Ext>,
    /// Loop index variables, indexed by [`LoopId`].
    pub loops: Vec<LoopInfo>,
    /// The body, in evaluation order.
    pub body: Block,
    /// The results, in order.
    pub outputs: Vec<Operand>,
    /// The zero arrays that the reverse transform fills for adjoints (each defined by a
    /// [`Stmt::Fill`]), to add contributions into: the sign of a zero in them does not matter,
    /// so `0 + e` read from one can be `e`.
    pub accumulators: Vec<Var>,
    /// The function's scalar type, which its `f64` values and literals are.
    pub scalar: Scalar,
    /// Whether the function casts values to the other float type ([`Ty::Other`]): its literals
    /// are then kept as written (codegen gives each the type of where it is used), and folded
    /// only where both float types give the same result.
    pub mixed: bool,
    /// Whether the zero arrays of run-time length (the caller's buffers, `#[grad(accumulate)]`)
    /// start from what the caller put in them: their elements are then unknown, and no pass
    /// reads a `Fill` of one as its value (codegen does not zero them).
    pub accumulate: bool,
}

impl Func {
    /// The wanted name of `v`.
    pub fn name(&self, v: Var) -> &Name {
        &self.names[v.index()]
    }

    /// The scalar type whose rules fold literals: one that folds only what `f32` and `f64` agree
    /// on when the function mixes them.
    pub fn fold_scalar(&self) -> Scalar {
        if self.mixed { Scalar::Generic } else { self.scalar }
    }

    /// The type of `v`.
    pub fn ty(&self, v: Var) -> &Ty {
        &self.types[v.index()]
    }

    /// The type of an operand: literals and constants are `f64`.
    pub fn operand_ty(&self, op: Operand) -> Ty {
        match op {
            Operand::Var(v) => self.ty(v).clone(),
            Operand::Bool(_) => Ty::Bool,
            Operand::Lit(_) | Operand::Ext(_) => Ty::F64,
        }
    }

    /// Whether `v` is a zero array whose elements are known: not a buffer that the caller's
    /// values start (see [`Func::accumulate`]).
    pub fn known_fill(&self, v: Var) -> bool {
        !(self.accumulate && self.ty(v).run_time_length())
    }

    /// The name of the adjoint, tangent or storage of `v`: derived from `v`'s, or a temporary
    /// for a temporary.
    pub fn derived_name(&self, v: Var, suffix: Suffix) -> Name {
        match self.name(v) {
            Name::Temp => Name::Temp,
            _ => Name::Derived { of: v, suffix },
        }
    }
}
