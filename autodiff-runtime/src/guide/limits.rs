//! The known limits, and very long functions.
//!
//! # Known limits
//!
//! - A struct's fields are typed from their uses in the body (the macro cannot read the
//!   struct's definition): an array field copied whole into a literal that the function does
//!   not return (a literal passed to a call, `g(&Model { w: m.w, .. })`) and never indexed,
//!   iterated or asked its `len()` is taken for an `f64` (copied into the returned struct, it is
//!   rebuilt in its type), and an integer field copied into a
//!   literal (`steps: m.steps`) for an `f64` value; rustc then reports a mismatched type. Index
//!   the array (`[m.w[0], m.w[1]]`), bind it with its type (`let w: [f64; 8] = m.w;`), or write
//!   the integer where an integer goes (`steps: m.steps as usize`). A field read only whole, by
//!   calls and as a receiver (`g(&m.w)`, `g(m.a.inner)`, `m.a.inner.norm()`), and a local bound
//!   to one (`let w = m.w; g(&w)`), is passed as itself whatever its type and however deep, and
//!   a row passed whole (`g(m.x[0])`, `g(&m.x[i])`) as its scalars, rebuilt in the callee's
//!   type; but such a row of a generic struct's field (`s: &S<N>`, see below) is typed from its
//!   uses as any other read (the row an `f64`, the field an array of one dimension), and a row
//!   of a field whose other rows are passed to calls, read as an argument of a closure
//!   (`h(m.x[1])`), is taken for an `f64`: bind it with its type first
//!   (`let r: [f64; 3] = m.x[0];`), as rustc says at the read. A row of an untyped local bound
//!   to an array field of a call's struct value (`let y = r.m; g(y[0])`) is taken for an `f64`
//!   too (rustc reports a mismatched type at the call): pass `r.m[0]`, or bind the row with its
//!   type. A field of a
//!   nested struct of a call's value read in place (`g(q.mul(&p).inner.x[0])`) is refused at
//!   the read: bind the value first (`let r = q.mul(&p);`). A field of a nested struct written
//!   by hand (`impl Differentiable` leaving `TREE` empty) passed whole is a build error that
//!   says to derive it. An integer field
//!   passed to a call is taken for a value. `..base` takes a struct value of the body, not a
//!   parameter. A struct generic over a length (`Model<const N: usize>`, in a function generic
//!   over `N`) is differentiated field by field: its fields indexed, bound with their types
//!   (`let w: [f64; N] = m.w;`, then passed whole or copied into the returned struct), and a
//!   generic function returning it, work in every mode; what would hold it or a field of it as
//!   its scalars laid flat is refused at the field, the `let`'s type or the argument (a field
//!   read only whole and never indexed, the struct passed whole to a call, the value of a call
//!   returning it): that count in a type (`[f64; <Model<N> as Differentiable>::LEN]`) needs
//!   `generic_const_exprs`, not stable Rust. Nor is it computed in a method of a generic `impl`,
//!   where the struct is `Self` and the macro cannot see the `impl`'s parameters (rustc then
//!   reports generic `Self` in a constant: bind the field with its type). A struct generic over
//!   a type (`P<T>`) is refused in a function over `T: Float` (structs are differentiated in
//!   `f64` functions), and `P<f64>`, a type with type arguments, is taken for data: write the
//!   struct over `f64`. A struct parameter is read through its fields and methods, not copied
//!   whole: `let mut s = p;` is refused at `p`, saying to write a struct literal of its fields
//!   (`let mut s = P { x: p.x, v: p.v };`) or to start from a method's value
//!   (`let mut s = p.step(0.0);`). See [`structs`](super::structs).
//! - An array of structs (`ps: &[P; N]`, `[P; N]`) is read through its elements' fields (`ps[i].x`,
//!   `p.x` in `for p in ps.iter()`; see [`structs`](super::structs)). Refused, each with what to
//!   write: a method called on an element (`ps[i].energy(k)`: write its computation with the
//!   fields), an element or the array taken whole (an argument of a call, `let mut q = ps[i];`), an
//!   element matched by another pattern than a name or a struct pattern of names (`ref x`), an
//!   iterator adaptor over the elements other than `iter`, `enumerate`, `zip`, `rev`, `skip`,
//!   `take`, `step_by`, `map`, `filter`, `fold`, `for_each` and `sum`, a field read where an
//!   integer goes, `hessian` and `jacobian` for a const generic length (use `hvp`). A slice of
//!   structs (`&[P]`) is not differentiated: constant data, and refused when `wrt(...)` names it
//!   (its fields would be arrays of a run-time length, held without the heap); take `&[P; N]` or
//!   the fields as slices `&[f64]`. An array of arrays of structs (`[[P; K]; N]`) is still a
//!   constant, like any parameter of a type the macro does not differentiate. A name bound to an
//!   element is rewritten where it is read, by its text: a `macro_rules!` macro's own name of the
//!   same text would be taken for it.
//! - Functions with lifetime parameters, type parameters other than one bounded by `Float`,
//!   `where` clauses on anything but that parameter, or attributes on parameters are refused. A
//!   generic scalar is recognised by its `Float` bound only (not `Real`, `RealField`, ...).
//! - Names are compared by their text (`r#x` and `x` are one name). Inside a `macro_rules!`
//!   macro, a name the macro's caller passes in and a name written in the macro's own body with
//!   the same text are therefore taken for one variable, although Rust's hygiene keeps them
//!   apart: give them different names.
//! - A macro sees tokens, not types: a type alias of `f64` (`type Real = f64;`) is not
//!   recognised. A parameter of that type is a constant (and so missing from the gradient;
//!   passed to a call, it fills none of the callee's partials), and that return type is
//!   refused; write `f64`. Likewise the value of a `const` item is not known to the macro (see
//!   [`memory`](super::memory)), nor its type (see [`calls`](super::calls)).
//! - The derivatives of `x.powi(n)` compute `n - 1` in `i32` (and `n - 2` for `H·v`): an
//!   exponent within two of `i32::MIN` overflows there (a panic in a debug build).
//! - The generated functions' locals (`x_bar`, `t0`, `row`, ...) avoid every name in your
//!   function, but not lower-case `const` or `static` items elsewhere in scope, which Rust would
//!   read as patterns.
//! - The Jacobian is computed in one pass only over at most 8 rows (by rows) or columns (by
//!   columns) that the macro knows, and not for a function returning a struct, with a `while`
//!   loop, whose loops' storage is chosen when it runs, or (by columns) with a struct
//!   parameter: then `f_vjp` runs once per row, or `f_jvp` once per column (see
//!   [`generated`](super::generated)). In one pass no product by a unit vector's zero is
//!   computed: where `f_vjp` (`f_jvp`) seeded with that unit vector would give NaN from
//!   `0 · inf`, the Jacobian's entry is a number. The type of a call's value read as a struct without a
//!   typed `let` is inferred for a method (its receiver's type, as for methods returning
//!   `Self`), for `Type::f(..)` (`Type`) and for a free function `make(..)` (`make_value`,
//!   which `#[grad]` writes for a free, non-generic function returning a struct): bind the
//!   value of a generic function's call with its type (`let a: Quat = make(x);`), of a free
//!   function lent with `&` as it is made (`g(&make(x))`, which could be an array) too, and of
//!   a method returning another type (rustc reports the guess at the call); a call's value
//!   passed by value (`g(q.conj())`) is one `f64` unless bound with its type. The
//!   fields of a struct returned by a call that are nested structs, and the lengths of its array
//!   fields read whole or by rows, are found through `Differentiable::TREE`, which a hand-written `Differentiable` leaves empty; and an
//!   array field bound to a local that the body never indexes (`let w = r.v; g(w)`) is taken for
//!   an `f64` (rustc then reports the call): bind it with its type, `let w: [f64; 3] = r.v;`
//!   (see [`structs`](super::structs)).
//! - A function in an `impl` block is known to be one when it has a receiver or names `Self`
//!   (`-> Self`, `Self { .. }`): the generated functions that call each other then write
//!   `Self::f_vjp`. An associated function that does neither (`fn from_angle(a: f64) -> Quat`)
//!   is taken for a free function, and a generated function calling another is rustc's "cannot
//!   find function" at its name: write `Self` in its signature.
//! - The value of a call bound without its type is an array only where the body reads it as
//!   one (indexed, iterated, lent with `&`) or assigns it to an array variable; its lengths are
//!   the callee's `g_shape` constant, which `#[grad]` does not write for a function generic over
//!   its value's lengths, nor a hand-written rule unless its author does; a value only passed on
//!   whole (`let p = polar(..); norm(p)`) and a tuple read by field (`let p = pair(..); p.0`)
//!   need the type or the pattern (see [`calls`](super::calls)).
//!
//! ```compile_fail
//! use autodiff_runtime::grad;
//!
//! type Real = f64;
//!
//! #[grad]
//! fn square(x: f64) -> Real { // error: `Real` is taken for a struct; write `f64`
//!     x * x
//! }
//! ```
//!
//! # Very long functions
//!
//! Very long functions, such as kernels written by computer-algebra systems, read differently:
//! a generated function with more than 1,000 named values declares them about 128 at a time,
//! `let [a, b, …]: [f64; 128];`, each declaration followed by the assignments `a = …;`, and a
//! sum with one term per read of a value is cut into partial sums of 16. Each `let` opens a
//! scope nested in the previous one, and a debug build with full debug info crashes rustc (a
//! stack overflow while writing the debug info) past about 2,900 nested `let`s (rustc 1.95 on
//! x86-64 Linux). That limit holds for your own `f` too, which is re-emitted unchanged: give a
//! body of thousands of statements a few `let mut` variables that it reassigns, as the
//! workspace's `tests/long_function.rs` does (4,000 statements), or build with
//! `debug = "line-tables-only"`.
//!
//! The macro itself runs unoptimised in a debug build or `cargo check`, like every proc macro.
//! For crates with functions of thousands of statements, optimising it in your workspace's
//! `Cargo.toml` cuts the check time (10,000 statements with `hvp`: 7.7 s to 4.7 s in
//! `BENCHMARKS.md`):
//!
//! ```toml
//! [profile.dev.package.autodiff-macros]
//! opt-level = 3
//! ```
