//! The generator's own syntax tree of one random program: small enough to print two ways, as
//! the `f64` function given to `#[grad]` and as the same body over hyper-dual numbers.

/// How a parameter is passed, and whether it is differentiated.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// `x: f64` or `x: [f64; N]`: differentiated.
    Value,
    /// `x: &[f64; N]`: differentiated, its direction a reference too.
    Ref,
    /// `x: f64` or `x: &[f64; N]` left out of `wrt(...)`: a constant.
    Constant,
    /// `data: &[f64]`: constant data of any length.
    Data,
    /// `steps: usize`: a trip count known only at run time (in a callee, an integer parameter,
    /// with no partial and no direction).
    Steps,
}

/// A length as written in a type or a range: a literal or a `const` item.
#[derive(Clone, PartialEq, Eq)]
pub struct Size {
    /// The length.
    pub n: usize,
    /// The `const` item naming it, if the program writes it so.
    pub name: Option<String>,
}

/// A parameter of the program.
#[derive(Clone)]
pub struct Param {
    pub name: String,
    /// Empty for a scalar (and for `&[f64]` data), else the array's lengths, outermost first.
    pub dims: Vec<Size>,
    pub pass: Pass,
}

/// An integer expression: an index, a loop bound, the value of an integer `let`.
#[derive(Clone, PartialEq)]
pub enum Int {
    Lit(usize),
    /// A loop variable, an integer `let` or a `const` item.
    Var(String),
    /// `data.len()`.
    Len(String),
    Bin(IntOp, Box<Int>, Box<Int>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum IntOp {
    Add,
    Sub,
    /// `i * 2`: an index that `step_by` visits.
    Mul,
    Rem,
}

/// Arithmetic on `f64`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

/// A comparison, on `f64` values or on integers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// An `f64`-valued expression (or an array or tuple one, where a program builds its output or a
/// local array).
#[derive(Clone, PartialEq)]
pub enum Expr {
    /// A non-negative literal (negative ones are `Neg(Lit)`).
    Lit(f64),
    /// A scalar variable or parameter, or a whole array variable.
    Var(String),
    /// `y[i]`, `m[i][j]`, or a row `m[i]`.
    Elem(String, Vec<Int>),
    /// `data[i]`: constant data.
    Data(String, Int),
    /// `i as f64`.
    Cast(Int),
    Neg(Box<Expr>),
    Bin(Op, Box<Expr>, Box<Expr>),
    /// `receiver.method(args)`, or `f64::method(receiver, args)` when `ufcs`.
    Method {
        name: &'static str,
        recv: Box<Expr>,
        args: Vec<Expr>,
        ufcs: bool,
    },
    /// `e.powi(n)`.
    Powi(Box<Expr>, i32),
    /// `if c { block } else if ... else { block }` as a value.
    If(Vec<(Cond, Block)>, Box<Block>),
    /// `[a, b, c]`.
    Array(Vec<Expr>),
    /// `[0.0; N]`, `[[0.0; K]; M]`: zeros of the given lengths, outermost first.
    Zeros(Vec<Size>),
    /// `(a, b)`: a tuple output.
    Tuple(Vec<Expr>),
    /// `g0(a, &y)`: a call of one of the program's callees (`g0_dual(..)` in the oracle).
    Call(String, Vec<Expr>),
    /// `&y`: an array passed by reference to a callee.
    Ref(Box<Expr>),
    /// `chain.sum::<f64>()` or `chain.fold(init, |acc, item| ..)` (iterator form only).
    Reduce(Box<Iter>, Box<Consumer>),
    /// `match k { 3 => a, _ if c => b, _ => d }` as a value (iterator form only); the last arm
    /// is `_`.
    Match(Int, Vec<Arm<Block>>),
    /// A condition as a value: the body of a `filter`'s closure (iterator form only).
    Test(Box<Cond>),
    /// `*c`: a constant array parameter (taken by reference) passed by value to a callee.
    Deref(String),
    /// An integer argument of a call (`3`, `i`, `steps`).
    IntArg(Int),
}

/// A block that gives a value: statements, then a final expression.
#[derive(Clone, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub tail: Expr,
}

/// A condition of an `if`.
#[derive(Clone, PartialEq)]
pub enum Cond {
    Real(Cmp, Expr, Expr),
    Int(Cmp, Int, Int),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
    Not(Box<Cond>),
}

/// Where an assignment writes.
#[derive(Clone, PartialEq)]
pub enum Place {
    Var(String),
    Elem(String, Vec<Int>),
}

/// `=`, `+=`, `-=`, `*=`, `/=`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Assign {
    Set,
    Add,
    Sub,
    Mul,
    Div,
}

/// A `for` loop's range: `lo..hi`, `lo..=hi`, `(lo..hi).rev()`.
#[derive(Clone, PartialEq)]
pub struct Range {
    pub lo: Int,
    pub hi: Int,
    pub inclusive: bool,
    pub rev: bool,
}

#[derive(Clone, PartialEq)]
pub enum Stmt {
    /// `let name = init;` (`let mut` when the program assigns to `name`), with the type written
    /// out (`f64` or the array's lengths) when the initial value alone would not fix it.
    Let(String, Option<Vec<Size>>, Expr),
    /// `let name = value;` of an integer.
    LetInt(String, Int),
    Assign(Place, Assign, Expr),
    /// `for var in range { body }` (`for _` when the body does not read `var`).
    For(String, Range, Vec<Stmt>),
    /// `if c { .. } else if c2 { .. } else { .. }` as a statement.
    If(Vec<(Cond, Vec<Stmt>)>, Option<Vec<Stmt>>),
    /// `for pat in chain { body }` (iterator form only).
    ForIn(Pat, Iter, Vec<Stmt>),
    /// `let name = |a: f64, b: f64| e;` (iterator form only), called as `Expr::Call`.
    Closure(String, Vec<String>, Expr),
    /// `let (a, b) = e;` of fresh names (iterator form only).
    LetTuple(Vec<String>, Expr),
    /// `match k { .. }` as a statement (iterator form only); the last arm is `_`.
    Match(Int, Vec<Arm<Vec<Stmt>>>),
}

/// A pattern binding an iterator's element or a closure's parameter (iterator form only).
#[derive(Clone, PartialEq)]
pub enum Pat {
    Name(String),
    /// `mut name`.
    Mut(String),
    /// `&p`.
    Ref(Box<Pat>),
    Tuple(Vec<Pat>),
    Wild,
}

/// A closure written in place, `|p, q| body` (iterator form only).
#[derive(Clone, PartialEq)]
pub struct Closure {
    pub params: Vec<Pat>,
    pub body: Block,
}

/// An iterator (iterator form only).
#[derive(Clone, PartialEq)]
pub enum Iter {
    /// The elements of an array, a row of one, or data.
    Source(String, Source),
    /// `lo..hi`, or `lo..=hi` when inclusive.
    Range(Int, Int, bool),
    /// `iter.adaptor(..)`.
    Adapt(Box<Iter>, Adaptor),
}

/// How an iterator over an array or data starts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `x.iter()`: references.
    Iter,
    /// `x.into_iter()` of an array: values.
    IntoIter,
    /// `&x` (as `zip`'s argument or a loop's collection): references.
    Borrow,
    /// `x`: values of an array, references of a reference or of data.
    Plain,
    /// `x.windows(k)`: slices.
    Windows(usize),
}

/// An adaptor of an iterator.
#[derive(Clone, PartialEq)]
pub enum Adaptor {
    Copied,
    Cloned,
    Enumerate,
    Zip(Box<Iter>),
    Rev,
    Skip(Int),
    Take(Int),
    StepBy(usize),
    Map(Closure),
    Filter(Closure),
}

/// What consumes an iterator in an expression.
#[derive(Clone, PartialEq)]
pub enum Consumer {
    /// `.sum::<f64>()`.
    Sum,
    /// `.fold(init, |acc, item| ..)`.
    Fold(Expr, Closure),
}

/// A pattern of a `match` on an integer.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum IntPat {
    Lit(usize),
    /// `lo..`, `..hi`, `..=hi`.
    From(usize),
    Below(usize),
    UpTo(usize),
    Wild,
}

/// An arm of a `match`: a pattern, a guard, and what it gives or does.
#[derive(Clone, PartialEq)]
pub struct Arm<B> {
    pub pat: IntPat,
    pub guard: Option<Cond>,
    pub body: B,
}

/// What the program returns.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Output {
    Scalar,
    /// `[f64; n]`.
    Array(usize),
    /// `(f64, f64, ...)` of `n` elements.
    Tuple(usize),
}

/// The options of the attribute, besides `wrt`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Modes {
    /// `jvp, hvp`, and `hessian` when the flag is set.
    Scalar { hessian: bool },
    /// `jvp, jacobian`, with `jacobian(forward)` or `jacobian(reverse)` when forced.
    Vector { forced: Option<&'static str> },
}

/// A closed form with hand-written derivatives (`g`, `g_grad`, `g_jvp`, `g_hvp` in plain Rust),
/// to exercise custom derivatives.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Formula {
    /// `g(a, b) = a sin b + a²/2`.
    Wave,
    /// `g(v) = Σ ln(1 + e^vᵢ)` over `[f64; n]`, or `&[f64; n]` when `by_ref`.
    Softplus { n: usize, by_ref: bool },
    /// `g(x, c) = tanh(c x)`.
    Tanh,
    /// `g(x, k) = sin((k + 1) x) / (k + 1)` for an integer `k: usize` (no partial, no
    /// direction).
    Ripple,
}

/// What a callee is.
pub enum Def {
    /// A `#[grad(jvp, hvp)]` function, differentiating all its `f64` and array parameters (no
    /// `wrt`: its derivative functions then fit every call).
    Grad(Box<Program>),
    /// A function whose derivatives the generator writes by hand.
    Manual(Formula),
}

/// A function the program calls.
pub struct Callee {
    pub name: String,
    pub def: Def,
}

/// A twin of the program with `#[grad(checkpoint)]` (`checkpoint(s = n)` when `snapshots`),
/// whose derivatives must equal the program's to the bit.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Checkpoint {
    pub snapshots: Option<usize>,
}

/// The iterator form of a program's body and output.
pub struct Body {
    pub stmts: Vec<Stmt>,
    pub tail: Expr,
    /// Whether its derivatives are the program's to the bit (else to rounding: a chain's item
    /// loads an element where the index loop did not, see `idiom/reads.rs`).
    pub exact: bool,
}

/// One random program.
pub struct Program {
    pub seed: u64,
    /// `const` items the program reads: name and value.
    pub consts: Vec<(String, usize)>,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    pub tail: Expr,
    pub output: Output,
    pub modes: Modes,
    /// Whether the attribute lists the differentiated parameters in `wrt(...)`.
    pub wrt: bool,
    /// The functions it calls, defined before it.
    pub callees: Vec<Callee>,
    /// Its checkpointed twin, if it has one.
    pub checkpoint: Option<Checkpoint>,
    /// The same program with some of its loops in iterator form (`f_it`), if the rewrite
    /// changed anything.
    pub idiomatic: Option<Body>,
    /// How its printed functions vary in names and signature.
    pub vary: super::vary::Vary,
}
