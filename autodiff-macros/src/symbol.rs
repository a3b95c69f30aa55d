//! The recognised names: `f64` methods, attribute options, generated-name suffixes.
//!
//! This is the only file with string literals for names the macro recognises or emits.

use proc_macro2::Ident;

use crate::ir::Prim;

/// The `f64` methods `#[grad]` differentiates, with the primitive each lowers to.
/// `powi` is listed with exponent 0; lowering fills in the literal exponent, or makes a
/// [`Prim::PowiInt`] for an exponent that is not a literal. (`sin_cos` gives two values and is
/// lowered apart: [`SIN_COS`].)
pub const METHODS: &[(&str, Prim)] = &[
    ("sin", Prim::Sin),
    ("cos", Prim::Cos),
    ("tan", Prim::Tan),
    ("asin", Prim::Asin),
    ("acos", Prim::Acos),
    ("atan", Prim::Atan),
    ("atan2", Prim::Atan2),
    ("sinh", Prim::Sinh),
    ("cosh", Prim::Cosh),
    ("tanh", Prim::Tanh),
    ("asinh", Prim::Asinh),
    ("acosh", Prim::Acosh),
    ("atanh", Prim::Atanh),
    ("exp", Prim::Exp),
    ("exp2", Prim::Exp2),
    ("exp_m1", Prim::ExpM1),
    ("ln", Prim::Ln),
    ("ln_1p", Prim::Ln1p),
    ("log", Prim::Log),
    ("log2", Prim::Log2),
    ("log10", Prim::Log10),
    ("sqrt", Prim::Sqrt),
    ("cbrt", Prim::Cbrt),
    ("powi", Prim::Powi(0)),
    ("powf", Prim::Powf),
    ("hypot", Prim::Hypot),
    ("recip", Prim::Recip),
    ("mul_add", Prim::MulAdd),
    ("abs", Prim::Abs),
    ("min", Prim::Min),
    ("max", Prim::Max),
    ("clamp", Prim::Clamp),
    ("signum", Prim::Signum),
    ("floor", Prim::Floor),
    ("ceil", Prim::Ceil),
    ("round", Prim::Round),
    ("trunc", Prim::Trunc),
];

/// The primitive of the method `name`, if `#[grad]` knows it.
pub fn method_prim(name: &str) -> Option<Prim> {
    METHODS.iter().find(|(n, _)| *n == name).map(|(_, p)| *p)
}

/// The method name of a method-call primitive (`None` for operators and `Select`).
pub fn prim_method(prim: Prim) -> Option<&'static str> {
    let key = match prim {
        Prim::Powi(_) | Prim::PowiInt(_) => Prim::Powi(0),
        other => other,
    };
    METHODS.iter().find(|(_, p)| *p == key).map(|(n, _)| *n)
}

/// A comma-separated list of the supported methods, for error messages.
pub fn method_list() -> String {
    let mut names: Vec<&str> = METHODS.iter().map(|(n, _)| *n).collect();
    let after_cos = names.iter().position(|n| *n == "cos").map_or(0, |i| i + 1);
    names.insert(after_cos, SIN_COS_FORM);
    names.join(", ")
}

/// Clippy's lint against indexing arrays with a loop index, which sweeps do by design.
pub const RANGE_LOOP_LINT: &str = "needless_range_loop";
/// The keyword of a loop, found in generated code to allow clippy's `needless_range_loop` there.
pub const FOR: &str = "for";
/// The scalar type `#[grad]` differentiates by default.
pub const F64: &str = "f64";
/// The boolean type.
pub const BOOL: &str = "bool";
/// The other primitive scalar type `#[grad]` differentiates (a function's one scalar type).
pub const F32: &str = "f32";
/// The primitive float types: a parameter of one that is not the function's scalar type is not
/// differentiated.
pub const FLOATS: &[&str] = &["f64", "f32", "f16", "f128"];
/// The float types other than `f64`.
pub const OTHER_FLOATS: &[&str] = &["f32", "f16", "f128"];
/// The bound that makes a type parameter the function's scalar type: `T: Float`.
pub const FLOAT: &str = "Float";
/// `T::from(c)`, how generic code converts a constant to its scalar type...
pub const FROM: &str = "from";
/// ... and `.unwrap()` or `.expect(..)`, how it takes the converted value.
pub const UNWRAP: &str = "unwrap";
/// See [`UNWRAP`].
pub const EXPECT: &str = "expect";
/// The method whose exponent is an integer (a literal or an integer constant).
pub const POWI: &str = "powi";
/// The method that gives a tuple `(sin, cos)`, supported only as the value of a tuple `let`.
pub const SIN_COS: &str = "sin_cos";
/// The one way `sin_cos` is supported, for messages.
pub const SIN_COS_FORM: &str = "sin_cos (as `let (s, c) = x.sin_cos();`)";

/// The primitive integer types: parameters and bindings of these types are integers (indices,
/// lengths, loop bounds).
pub const INT_TYPES: &[&str] =
    &["usize", "isize", "u8", "u16", "u32", "u64", "u128", "i8", "i16", "i32", "i64", "i128"];
/// The length of an array or a slice: an integer expression.
pub const LEN: &str = "len";
/// Reverses a range: `(0..n).rev()`.
pub const REV: &str = "rev";
/// `n.saturating_sub(1)`, in the closed forms of counters (a triangular number `n (n − 1) / 2`).
pub const SATURATING_SUB: &str = "saturating_sub";
/// Integer methods allowed in integer expressions (`(i + 1).min(N - 1)`).
pub const INT_METHODS: &[&str] = &["min", "max", "saturating_sub", "abs_diff", "pow", "div_ceil"];
/// `x.iter()`, `x.into_iter()`: the elements of an array or a slice, by reference.
pub const ITER_BY_REF: &[&str] = &["iter", "into_iter"];
/// `y.iter_mut()`: the elements of an array, written through.
pub const ITER_MUT: &str = "iter_mut";
/// The variable that holds a `loop`'s value (`let r = loop { .. break v; }`) when it is not the
/// user's own.
pub const LOOP_VALUE: &str = "value";
/// `.copied()`, `.cloned()`: the elements by value.
pub const ITER_BY_VALUE: &[&str] = &["copied", "cloned"];
/// The adaptors rewritten into a loop's index arithmetic.
pub const ENUMERATE: &str = "enumerate";
/// See [`ENUMERATE`].
pub const ZIP: &str = "zip";
/// See [`ENUMERATE`].
pub const SKIP: &str = "skip";
/// See [`ENUMERATE`].
pub const TAKE: &str = "take";
/// See [`ENUMERATE`].
pub const STEP_BY: &str = "step_by";
/// `.windows(k)`, `.chunks(k)`, `.chunks_exact(k)`: views of `k` elements.
pub const WINDOWS: &str = "windows";
/// See [`WINDOWS`].
pub const CHUNKS: &str = "chunks";
/// See [`WINDOWS`].
pub const CHUNKS_EXACT: &str = "chunks_exact";
/// The per-element adaptors.
pub const MAP: &str = "map";
/// See [`MAP`].
pub const FILTER: &str = "filter";
/// The consumers rewritten into a loop with an accumulator.
pub const SUM: &str = "sum";
/// See [`SUM`].
pub const PRODUCT: &str = "product";
/// See [`SUM`].
pub const FOLD: &str = "fold";
/// See [`SUM`].
pub const FOR_EACH: &str = "for_each";
/// `reduce(f)`, a fold from the first element, rewritten when its `Option` is unwrapped.
pub const REDUCE: &str = "reduce";
/// The flag of a rewritten `reduce`: whether the next element is the first.
pub const FIRST: &str = "first";
/// `std::array::from_fn`, an array built from a closure of the index.
pub const FROM_FN: &str = "from_fn";
/// The accumulator of a rewritten reduction, and the element bound by a rewritten `filter`.
pub const ACC: &str = "acc";
/// See [`ACC`].
pub const ELEM: &str = "elem";
/// The growable vector type, named in the message for a function with only `Vec<f64>` inputs.
pub const VEC: &str = "Vec";
/// Methods that make or consume iterators: a chain of them is reported once, as a whole.
pub const ITER_METHODS: &[&str] = &[
    "iter",
    "iter_mut",
    "into_iter",
    "map",
    "sum",
    "product",
    "fold",
    "zip",
    "enumerate",
    "filter",
    "filter_map",
    "copied",
    "cloned",
    "collect",
    "chain",
    "skip",
    "take",
    "step_by",
    "windows",
    "chunks",
    "chunks_exact",
    "for_each",
    "reduce",
    "all",
    "any",
    "count",
    "rev",
    "max_by",
    "min_by",
    "flat_map",
    "scan",
    "last",
    "nth",
    "position",
];

/// The attribute's name, for messages.
pub const ATTR: &str = "#[grad]";
/// Option: the differentiated parameters.
pub const OPT_WRT: &str = "wrt";
/// Option: emit the forward-mode directional derivative.
pub const OPT_JVP: &str = "jvp";
/// Option: emit the Hessian-vector product.
pub const OPT_HVP: &str = "hvp";
/// Option: emit the dense Hessian.
pub const OPT_HESSIAN: &str = "hessian";
/// Option: emit the Jacobian of a vector function.
pub const OPT_JACOBIAN: &str = "jacobian";
/// `jacobian(forward)`: one forward sweep per column.
pub const MODE_FORWARD: &str = "forward";
/// `jacobian(reverse)`: one reverse sweep per row.
pub const MODE_REVERSE: &str = "reverse";
/// `jacobian(row_by_row)` (hidden, for tests and the fuzzer): reverse mode, one `f_vjp` per row,
/// never the one-pass kernel.
pub const MODE_ROW_BY_ROW: &str = "row_by_row";
/// `jacobian(column_by_column)` (hidden, for tests and the fuzzer): forward mode, one `f_jvp`
/// per column, never the one-pass kernel.
pub const MODE_COLUMN_BY_COLUMN: &str = "column_by_column";
/// Option: the stack budget for stored values, in bytes.
pub const OPT_STACK: &str = "stack";
/// The stack budget without `stack = N`: 512 KiB, a quarter of the 2 MiB that Rust gives a
/// spawned thread (and a test), so that a sweep fits with room for its caller.
pub const STACK_BUDGET: u64 = 512 * 1024;
/// The capacities, in iterations, that a loop of run-time length is stored in besides the one
/// the budget holds: the generated function takes the smallest its length does not exceed, so
/// that the zero-fill of the storage is at most 16 times what the run needs (past the first
/// tier). Ratio 16: see `BENCHMARKS.md` ("Run-time trip counts").
pub const CAPACITY_TIERS: [u64; 4] = [64, 1024, 16_384, 262_144];
/// The fewest bytes an iteration that stores anything takes (one `f32`): a tier whose
/// iterations would not fit the budget even so is not planned.
pub const LEAST_ITERATION_BYTES: u64 = 4;
/// Option: checkpoint the loops that would store values.
pub const OPT_CHECKPOINT: &str = "checkpoint";
/// Differentiate the loops with these labels implicitly, at their fixed point.
pub const OPT_IMPLICIT: &str = "implicit";
/// The most iterations of the adjoint fixed-point iteration of a loop differentiated implicitly.
pub const IMPLICIT_ITERATIONS: u64 = 1000;
/// `checkpoint(s = N)`: the number of snapshots.
pub const OPT_SNAPSHOTS: &str = "s";
/// Snapshots of a checkpointed loop when the attribute does not say.
pub const DEFAULT_SNAPSHOTS: u64 = 32;
/// Option: emit the argmin problem type (`FProblem`), with the runtime's `argmin` feature.
pub const OPT_ARGMIN: &str = "argmin";
/// Option: the slices' buffers are added into, not overwritten.
pub const OPT_ACCUMULATE: &str = "accumulate";
/// Option: also emit `f_grad_into`, which writes the gradient of array parameters into the
/// caller's arrays.
pub const OPT_INTO: &str = "into";
/// Hidden option (for tests, not in [`OPTIONS`]): no loop fusion, so that the fuzzer can
/// compare the fused derivatives with the unfused ones (`build/fuzz/unfused.rs`).
pub const OPT_UNFUSED: &str = "__unfused";
/// Suffix of the argmin problem type: `ext_rosenbrock` -> `ExtRosenbrockProblem`.
pub const PROBLEM_SUFFIX: &str = "Problem";
/// The lifetime of the references an argmin problem holds.
pub const PROBLEM_LIFETIME: &str = "'data";
/// The private field of an argmin problem that carries its const generics.
pub const PROBLEM_PHANTOM: &str = "sizes";
/// The lint-level attribute, which the argmin problem carries from `f`.
pub const ALLOW: &str = "allow";
/// Every option, for messages.
pub const OPTIONS: &[&str] = &[
    OPT_WRT,
    OPT_JVP,
    OPT_HVP,
    OPT_HESSIAN,
    OPT_JACOBIAN,
    OPT_STACK,
    OPT_CHECKPOINT,
    OPT_IMPLICIT,
    OPT_ARGMIN,
    OPT_ACCUMULATE,
    OPT_INTO,
];

/// The name given to the value of a call whose field is read (`q.mul(&p).w`) when the call
/// names no method or function to call it after.
pub const CALL_VALUE: &str = "value";

/// Suffix of the adjoint of a value.
pub const SUFFIX_BAR: &str = "bar";
/// Suffix of the tangent of a value.
pub const SUFFIX_DOT: &str = "dot";
/// Suffix of the per-iteration storage of a value.
pub const SUFFIX_SAVED: &str = "saved";
/// Suffix of the residuals of a call, what its callee's `g_fwd` keeps for its `g_rev`.
pub const SUFFIX_RES: &str = "res";
/// The pattern `_`, as a parameter's name.
pub const WILD: &str = "_";
/// What `f_hessian` and `f_jacobian` call a parameter written `_`, which they pass on (so it is
/// read, and has no leading underscore).
pub const WILD_PARAM: &str = "unnamed";
/// The name of the cotangent of a vector function's value (`f_vjp`'s last parameter).
pub const OUT_BAR: &str = "out_bar";
/// The storage of a temporary's value, per iteration of a loop.
pub const SAVED: &str = "saved";
/// Names for the indices of loops the macro writes (or whose index the user wrote as `_`).
pub const INDEX_NAMES: &[&str] = &["i", "j", "k", "l", "m", "n"];
/// Prefix of temporaries (`t0`, `t1`, ...).
pub const TEMP_PREFIX: &str = "t";
/// Suffixes of the generated functions.
pub const FN_GRAD: &str = "grad";
/// Suffix of the gradient written into the caller's arrays (`#[grad(into)]`).
pub const FN_GRAD_INTO: &str = "grad_into";
/// Suffix of the forward-mode function.
pub const FN_JVP: &str = "jvp";
/// Suffix of the Hessian-vector product function.
pub const FN_HVP: &str = "hvp";
/// Suffix of the dense Hessian function.
pub const FN_HESSIAN: &str = "hessian";
/// Suffix of the vector-Jacobian product function (the reverse sweep of a vector function).
pub const FN_VJP: &str = "vjp";
/// Suffix of the forward half of a vector function's VJP: the value and the residuals.
pub const FN_FWD: &str = "fwd";
/// Suffix of the reverse half of a vector function's VJP: the cotangents, from the residuals.
pub const FN_REV: &str = "rev";
/// Suffix of the kernel of a Jacobian by rows: `f_vjp` over every row's cotangent at once.
pub const FN_VJP_ROWS: &str = "vjp_rows";
/// Suffix of the kernel of a Jacobian by columns: `f_jvp` along every unit direction at once.
pub const FN_JVP_COLS: &str = "jvp_cols";
/// Suffix of the Jacobian function.
pub const FN_JACOBIAN: &str = "jacobian";
/// Suffix of the function that says which mode `f_jacobian` uses.
pub const FN_JACOBIAN_MODE: &str = "jacobian_mode";
/// Suffix of the constant that gives the dimensions of a function's array value (`f_shape`).
pub const FN_SHAPE: &str = "shape";
/// Suffix of the type alias of a free function's struct value (`f_value`).
pub const FN_VALUE: &str = "value";
/// The value of a branch, computed before the branch assigns variables it updates in place.
pub const BRANCH_VALUE: &str = "value";
/// The step counter of a checkpointed sweep (which step, from 0, the runtime asks for).
pub const STEP_COUNTER: &str = "step";
/// The flag of a loop body whose iteration left early by `break` (or `return`): the loop ends.
pub const FLAG_DONE: &str = "done";
/// The flag of a loop body whose iteration left early by `continue`.
pub const FLAG_SKIP: &str = "skip";
/// The flag of a function that has its value before its end (an early `return`).
pub const FLAG_RETURNED: &str = "returned";
/// The value of a function given by an early `return`.
pub const RETURN_VALUE: &str = "ret";
/// The closure of a derivative function that stores its loops' values, when rustc chooses.
pub const STORED_VARIANT: &str = "stored";
/// The closure of a derivative function that checkpoints them, when rustc chooses.
pub const CHECKPOINTED_VARIANT: &str = "checkpointed";
/// The most reference parameters a variant's closure takes as its own (the largest tuple that
/// `__private::Sweep` is implemented for); the others are captured.
pub const PASSED_MAX: usize = 12;
/// The most bytes of storage of a stored variant that runs in line (a page): the frame it would
/// keep apart is small, and a call out of line costs in a variant called in a loop.
pub const INLINE_VARIANT_BYTES: u64 = 4096;
/// A loop's exit test, computed before the loop's variables take their next values.
pub const LOOP_EXIT: &str = "stop";
/// The tape of online checkpoints that a loop of unknown length fills for its sweep.
pub const TAPE: &str = "tape";
/// Locals of the generated Hessian function.
pub const HESSIAN_LOCALS: [&str; 5] = ["hessian", "row", "i", "j", "h"];
/// Locals of the generated Jacobian function.
pub const JACOBIAN_LOCALS: [&str; 7] = ["value", "jacobian", "row", "i", "j", "x", "sweep"];
/// The const generic parameter that `f_hessian` takes for its size when that is an expression of
/// the function's const generics (`N + 1`).
pub const SIZE_HESSIAN: &str = "M";
/// The same for `f_jacobian`'s rows and columns.
pub const SIZES_JACOBIAN: [&str; 2] = ["ROWS", "COLS"];
/// The generated Hessian's check that its constant parameters are `Copy`.
pub const HESSIAN_COPY_CHECK: &str = "assert_copy";

/// Attributes of the user's function that the generated functions carry too, as they are: lint
/// levels that only relax (`allow`), conditional compilation, and what the user says about how
/// the function is used or compiled. (`#[doc(hidden)]` is carried too; doc comments are not.)
pub const INHERITED_ATTRS: &[&str] = &["allow", "cfg", "inline", "cold", DEPRECATED, "must_use"];
/// Conditional compilation, which a stand-in shares with `f`.
pub const CFG: &str = "cfg";
/// The attribute that marks `f` (and so its derivatives) deprecated.
pub const DEPRECATED: &str = "deprecated";
/// The `doc` attribute and the one argument of it that the generated functions carry.
pub const DOC_HIDDEN: (&str, &str) = ("doc", "hidden");
/// The user's `expect(lint)`, which the generated functions carry as `allow(lint)`: the lint may
/// fire in their copy of the signature, or not, and an `expect` would then go unfulfilled.
pub const EXPECT_AS: (&str, &str) = ("expect", "allow");

/// Named constants of `core::f64::consts`, so that a literal equal to one is printed by name.
pub const CONSTS: &[(&str, f64)] = &[
    ("PI", std::f64::consts::PI),
    ("TAU", std::f64::consts::TAU),
    ("E", std::f64::consts::E),
    ("LN_2", std::f64::consts::LN_2),
    ("LN_10", std::f64::consts::LN_10),
    ("LOG2_E", std::f64::consts::LOG2_E),
    ("LOG10_E", std::f64::consts::LOG10_E),
    ("LOG2_10", std::f64::consts::LOG2_10),
    ("LOG10_2", std::f64::consts::LOG10_2),
    ("SQRT_2", std::f64::consts::SQRT_2),
    ("FRAC_1_SQRT_2", std::f64::consts::FRAC_1_SQRT_2),
    ("FRAC_PI_2", std::f64::consts::FRAC_PI_2),
    ("FRAC_PI_3", std::f64::consts::FRAC_PI_3),
    ("FRAC_PI_4", std::f64::consts::FRAC_PI_4),
    ("FRAC_PI_6", std::f64::consts::FRAC_PI_6),
    ("FRAC_PI_8", std::f64::consts::FRAC_PI_8),
    ("FRAC_1_PI", std::f64::consts::FRAC_1_PI),
    ("FRAC_2_PI", std::f64::consts::FRAC_2_PI),
    ("FRAC_2_SQRT_PI", std::f64::consts::FRAC_2_SQRT_PI),
];

/// The identifier's text without `r#`: the name that `r#x` and `x` both refer to.
pub fn unraw(id: &Ident) -> String {
    id.to_string().trim_start_matches("r#").to_owned()
}

/// The roots of the standard library's paths: a type named through one is not a struct of the
/// user's.
pub const STD_ROOTS: &[&str] = &["std", "core", "alloc"];
/// Types of the standard library (and primitives other than numbers) that a signature or a
/// struct's field may name without a path: constants, never differentiated.
pub const CONSTANT_TYPES: &[&str] = &[
    "bool",
    "char",
    "str",
    "String",
    "Vec",
    "VecDeque",
    "Option",
    "Result",
    "Box",
    "Rc",
    "Arc",
    "Cow",
    "HashMap",
    "HashSet",
    "BTreeMap",
    "BTreeSet",
    "PhantomData",
    "Cell",
    "RefCell",
    "Duration",
    "Instant",
];
/// The derive that makes a struct differentiable, and its trait.
pub const DIFFERENTIABLE: &str = "Differentiable";
/// The field attribute that keeps a field of a `Differentiable` struct out of the derivatives.
pub const NO_GRAD: &str = "no_grad";
/// The value of a function returning a struct, where its tangent is written from it.
pub const OUT: &str = "out";
/// The suffix of a struct parameter's scalars laid flat, where it is passed whole to a call.
pub const FLAT: &str = "flat";
/// The receiver of a method.
pub const SELF_VALUE: &str = "self";
/// The type of the receiver.
pub const SELF_TYPE: &str = "Self";
/// The test of a loop's trip count before a split loop (`transform/fission.rs`).
pub const HINT_LONG: &str = "long";
