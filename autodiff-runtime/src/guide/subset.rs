//! The supported subset of Rust: what a differentiated function may take, return and do.
//!
//! # Signature
//!
//! Parameters: `f64`, `[f64; N]`, `&[f64; N]` and nested arrays, and structs deriving
//! `Differentiable` (by value, by `&`, `self`, `&self`), differentiated; slices named in
//! `wrt(...)`, differentiated into buffers; anything else (and `_: T`) a constant (see
//! [`conventions`](super::conventions)). `N` may be a literal, a `const` item or a const generic
//! parameter of the function (`fn f<const N: usize>(x: [f64; N])`). The return type is `f64`,
//! an array of `f64`, a tuple of `f64`s or a struct deriving `Differentiable`. In a function
//! over `f32` or `T: Float`, read that type for `f64` throughout (see
//! [`numbers`](super::numbers)); const generics and that one type parameter are the generic
//! parameters accepted. Structs hold `f64`s: a function with struct parameters or values
//! computes in `f64`.
//!
//! # Body
//!
//! - `let` bindings (with or without a type: `f64`, arrays of `f64`, integers), `let mut` with
//!   reassignment and `+= -= *= /=`, shadowing, parentheses, a final expression or one final
//!   `return` (a `return` in tail position, in the last `if`'s or `match`'s arms,
//!   `if c { return a } else { b }`, is that arm's value);
//! - destructuring assignment, `(a, b) = (b, a + b);`, `[y[0], y[1]] = [c * y[0] - s * y[1],
//!   s * y[0] + c * y[1]];`, nested, with `_`: the `let` of fresh names it means, then one
//!   assignment per place (the whole right side first, as in Rust);
//! - float and integer literals, unary minus, `+ - * /` on `f64` values;
//! - constants: paths such as `std::f64::consts::PI` or a `const` of yours, integer expressions
//!   cast with `as f64`, and expressions over non-differentiated parameters such as `data[i]`,
//!   `*r`, `p.k`;
//! - the `f64` methods, as `x.sin()`, `f64::sin(x)` or `std::primitive::f64::sin(x)`: `sin cos
//!   tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh exp exp2 exp_m1 ln ln_1p log log2
//!   log10 sqrt cbrt powi powf hypot recip mul_add abs min max clamp`, and the
//!   piecewise-constant `signum floor ceil round trunc` (their derivatives where they are not
//!   differentiable: [`nondiff`](super::nondiff));
//! - patterns: tuples `let (a, b) = (x + y, x - y);` (all of the right side is evaluated first,
//!   so `let (a, b) = (b, a);` swaps), arrays `let [a, b, c] = x;` (`..` too), references `&v`,
//!   `_`, nested; tuples from `x.sin_cos()`, from an `if`, a `match`, a block or a closure, and
//!   their fields `t.0`; a constant tuple parameter destructured; block expressions
//!   `{ let t = ..; t * t }`;
//! - closures bound in the body and called, `let sq = |t: f64| t * t; sq(x)`, capturing locals
//!   (a closure reads what it captured as it was where it was written, even if a name is
//!   shadowed later), returning tuples, passed to iterator adaptors. A closure is inlined where
//!   it is called; one that assigns to what it captures (an `FnMut`), or is used other than by
//!   calling it, is refused;
//! - `match` on integers, floats and `bool`s, as an expression or a statement: literals, ranges
//!   `3..=5` or `-0.5..=0.5`, `|`, `_`, names and `n @ pat`, constants, guards (comparing
//!   `f64`s too: `match x * y { v if v > 1.0 => v.ln(), v => v }`). It means the `if` chain it
//!   is rewritten to (the scrutinee evaluated once); a `match` on an array is refused;
//! - the exponent of `powi` is an integer literal or an integer constant: an `i32` parameter, a
//!   `const`, a loop variable or a `usize` parameter cast with `as i32`, and integer arithmetic
//!   on them (`x.powi(n)`, `x.powi(K - 1)`, `x.powi(i as i32 + 1)`, `x.powi(-k)`). The
//!   derivative is written `n as f64 * x.powi(n - 1)`, behind a test that the factor `n as f64`
//!   is not 0 (see [`nondiff`](super::nondiff)). An exponent computed from `f64` values is
//!   refused: use `powf`;
//! - arrays: `[v; N]` (`[[0.0; K]; M]` nested), array literals `[a, b, c]`, element reads and
//!   writes `y[i]`, `y[i][j] += …`, whole-array assignment `u = next`, and `x.len()`. An index
//!   is an integer expression: literals, loop variables, integer parameters and constants,
//!   `+ - * / %`, and the integer methods `min max saturating_sub abs_diff pow div_ceil`;
//!   indices that read `f64` values are refused. A constant array (a parameter left out of
//!   `wrt`, a `const` item, a row of constant data) copied into a variable can be updated like
//!   any array; a `const` item or data must be given its type there, with literal lengths
//!   (`let mut x: [f64; 2] = INIT;`), as the macro sees no types;
//! - iterator chains and `for` over collections, over arrays (differentiated or not),
//!   `&[f64; N]`, array literals (`[a, b * c, 0.5].iter()`, `[v; 3].iter()`), slices of
//!   constant data and views `&x[a..b]`: `for v in x`, `for &v in data`,
//!   `.iter()`, `.into_iter()`, `.copied()`, `.cloned()`, `.enumerate()`, `.zip(..)` (nested
//!   too), `.rev()`, `.skip(k)`, `.take(k)`, `.step_by(k)`, `.windows(k)`, `.chunks(k)`,
//!   `.chunks_exact(k)`, `.map(f)`, `.filter(p)` (a branch, as `if` is), ending in `.sum()`,
//!   `.product()`, `.fold(init, f)` (a tuple accumulator too;
//!   `fold(f64::NEG_INFINITY, f64::max)`), `.reduce(f)` unwrapped at once
//!   (`.reduce(f64::max).unwrap()`, `.expect(..)`: a fold from the first element, which a flag
//!   tells; on no element at all `f` panics and its derivatives read 0) or `.for_each(f)`, and
//!   ranges `(a..b).map(..)`; a float method on a consumer's value (`.sum::<f64>().sqrt()`,
//!   `.fold(..).ln()`) too. Each
//!   is rewritten in front of the IR into the `for` loop over an integer range it means (`sum`
//!   starting from `-0.0` and `product` from `1.0`, as the standard library's, so the values
//!   are the same to the bit), so the expansion is a loop, as fast as the index form
//!   (`BENCHMARKS.md`, "Iterator forms"). A local array is updated through `.iter_mut()` or
//!   `&mut y` in a `for` loop or a `for_each`, with `enumerate`, `zip`, `rev`, `skip`, `take`,
//!   `step_by`, nested for rows (`for (i, v) in y.iter_mut().enumerate() { *v += x[i]; }`,
//!   `y.iter_mut().for_each(|v| *v *= s)`): `*v` (and `v`, as in `v.sin()`) is `y[i]` in the
//!   index loop it means; `map`, `filter` or a consumer after `iter_mut`, and a binding in the
//!   body that shadows `v`, `y` or the index, are refused. An adaptor that needs positions after `filter`
//!   (`enumerate`, `zip`, `skip`, ...), and `collect` or any consumer other than those, are
//!   refused with what to write; `x.map(f)` and `std::array::from_fn(f)` build arrays
//!   (`from_fn` needs the array's type where its value goes: a typed `let`, the return type, or
//!   `from_fn::<f64, N, _>`);
//! - `for` loops over `a..b`, `a..=b` and `(a..b).rev()`, nested to any depth, with `_` or a
//!   name as the pattern (which may shadow a parameter, a variable or an enclosing loop's
//!   variable; the generated code renames the index, `i_1`, where its loop also reads another
//!   `i`). A bound is an integer expression fixed before the loop starts: literals, `const`s,
//!   const generics, integer parameters, `data.len()`, calls of functions on constants (a
//!   `const fn`), and arithmetic on these and on outer loop variables (`for j in i + 1..N`). How
//!   loops are differentiated: [`loops`](super::loops);
//! - loops that stop when they are done: `while cond { … }`, `loop { … }` with a `break`, and
//!   `break`, `continue` and `return` inside `for` and `while` loops (under `if`s, in nested
//!   loops, leaving the innermost loop), and `break 'outer` / `continue 'outer` naming a loop
//!   around the innermost (`'rows: for i in 0..n { for j in 0..n { if c { continue 'rows; } } }`:
//!   a flag of `'rows` set, the loops inside left, `'rows` left or continued). They are rewritten in front of the IR into flags tested
//!   where the exit is, so the derivatives are those of the iterations that actually ran, in
//!   every mode (`hvp` is `forward(reverse(f))` through them as through any loop). A loop whose
//!   length is decided while it runs is checkpointed online, in bounded stack memory (see
//!   [`memory`](super::memory#loops-of-unknown-length-online-checkpointing)). Its carried values
//!   are the variables declared before it that it assigns, as for a `for` loop;
//! - a `loop` used as a value, its `break v`s giving it: `let r = loop { … break v; … };`,
//!   `r = loop { … };`, or the value of the function or of a block. It is rewritten in front of
//!   the IR into a variable assigned before each `break` (`let mut r = 0.0; loop { … r = v;
//!   break; … }`), started from a zero of the value's type: the type written on the `let`, the
//!   function's return type, or else the shape of a `break`'s value (`0.0`, `[0.0; 2]` for
//!   `[a, b]`, an array variable's type, a tuple of these; a value whose type the macro cannot
//!   see, such as a variable of the loop's body, is taken as an `f64`). A `let r;` declared
//!   without a value and assigned in a `loop` after it (Rust checks that it is assigned before it
//!   is read) starts from the same zero;
//! - integer counters, as code ported from C keeps them: `let mut idx = 0;` advanced with
//!   `idx += 1`, `idx += k` or `idx -= k` in loops (nested ones too, and triangular nests such as
//!   ADBench's GMM, `for j in 0..d { for i in j + 1..d { ... l[idx] ...; idx += 1; } }`), set
//!   with `=` outside loops, and read wherever an integer is (indices, bounds, conditions,
//!   `as f64`). A counter never reaches the derivatives: each use reads its closed form in the
//!   loop variables (`l[d + d * j + i - 2 * j - j * j.saturating_sub(1) / 2 - 1]` above), written
//!   so that `usize` arithmetic cannot underflow. Refused, each with what to write instead: a
//!   counter set or multiplied inside a `for` loop it is declared outside of, advanced by an
//!   amount that reads `f64` values or variables the loop changes, or by one of the second
//!   degree in the loop variable; and read after a loop whose range may run backwards (`1..n`)
//!   when the amount depends on the loop variable;
//! - iteration counters and counts, as solvers keep them: a counter updated inside an `if` or a
//!   `match`, or in a loop that may end early, has no closed form there, and is held from there
//!   on as a number (exact up to 2⁵³), carried by the loops and branches around it like any
//!   variable, with zero derivative. It may be compared and read as `n as f64`, with `+ - *` on
//!   it: `while (x * x - a).abs() > 1e-12 && it < max_iter { …; it += 1; }`, a `for` with
//!   `break` counting the steps that ran, `if v > 0.0 { n += 1; }` then `s / n as f64`. One that
//!   a `while` or a `loop` advances by a literal in one statement of its body and nowhere else
//!   (`k += 1`) is an integer inside the loop, its value read from the iteration's index, so it
//!   may be an index there too: `while i < data.len() && data[i] > 0.0 { …; i += 1; }`, or
//!   `loop { if i >= n { break; } …; i += 1; }` (a `loop` whose body begins with its exit test,
//!   as written or through a `bool`, `let stop = i >= n; if stop { break; }`, is the `while`
//!   loop it is). The step must come before any other exit of the body: one that an exit may
//!   skip (`if c { break; } i += 1;` in the middle of the body) is held.
//!   Refused, with a message at the use: reading a held counter as an index, a bound or an
//!   integer `let`, dividing it, calling a method on it; and, in a function over `f32` or
//!   `T: Float` (whose scalar does not hold every count), updating a counter there at all;
//! - `if` / `else if` / `else`, as an expression or a statement, inside and outside loops, with
//!   both sides giving the same type. Conditions compare `f64` values or integers
//!   (`< <= > >= == !=`), combined with `&&`, `||` and `!` (how branches are differentiated:
//!   [`nondiff`](super::nondiff));
//! - `bool` variables of the body, holding a condition evaluated where it is assigned (so a
//!   later assignment to what it compared does not change it), read as conditions or in them:
//!   `let done = err < tol; if done { break; }`, `let inside = x > 0.0 && x < 1.0;` (with or
//!   without `: bool`), `let mut converged = false;` set in a branch or a loop and read after
//!   it (`while !converged && it < 100 { … }`). `bool` parameters are constants passed
//!   through, not read as conditions, and `bool`s are not compared with `==` or `!=` (write
//!   `if done` or `if !done`);
//! - calls of other functions returning an `f64`, an array or a tuple, by a plain path (`g(x)`,
//!   `module::g(x)`, `Self::g(x)` in an `impl`), inside loops and branches too, with `f64`s,
//!   arrays and structs (by value or by `&`), values or constants, and constants of other types
//!   as arguments; and calls of methods by method syntax (`self.energy(x)`, `q.norm2()`,
//!   `a.dot(&b)`). See [`calls`](super::calls);
//! - struct literals (`Quat { w, x: -q.x, ..q }`, the base a struct value of the body), field
//!   reads and writes (`q.w`, `q.v[i] += e`, `q = Quat { .. }`), struct values carried by loops
//!   and yielded by branches, and a struct returned. See [`structs`](super::structs).
//!
//! Many of these at once, checked against finite differences:
//!
//! ```
//! use autodiff_runtime::{Tolerance, check_gradient, grad};
//!
//! const SCALE: f64 = 0.5;
//!
//! #[grad(jvp, hvp)]
//! fn mixed(x: [f64; 4], a: f64, data: &[f64], mode: u8) -> f64 {
//!     let sq = |t: f64| t * t;
//!     let (s, c) = a.sin_cos();
//!     let weight = match mode {
//!         0 => 1.0,
//!         1..=3 => 2.0,
//!         _ => SCALE,
//!     };
//!     let [x0, .., x3] = x;
//!     let mut t = x0;
//!     while t < 10.0 {
//!         t *= 2.0 + c;
//!     }
//!     let norm2: f64 = x.iter().map(|&v| sq(v)).sum();
//!     let mut acc = 0.0;
//!     for (i, &d) in data.iter().enumerate() {
//!         acc += if x[i % 4] > d { x[i % 4] - d } else { (d - x[i % 4]).powi(2) };
//!     }
//!     weight * (norm2.sqrt() * s + acc) + x3.hypot(a).ln() + t
//! }
//!
//! let p = [0.3, -1.2, 2.0, 0.7, 0.4];
//! let data = [0.1, 0.5, -0.5, 1.5, 2.5];
//! let f = |q: &[f64]| mixed([q[0], q[1], q[2], q[3]], q[4], &data, 2);
//! let (value, (g, ga)) = mixed_grad([p[0], p[1], p[2], p[3]], p[4], &data, 2);
//! assert_eq!(value, f(&p));
//! let grad = [g[0], g[1], g[2], g[3], ga];
//! assert_eq!(check_gradient(f, &p, &grad, Tolerance::default()), Ok(()));
//! ```
//!
//! Elements written through `iter_mut`, a `loop`'s value and a labelled `break`, each the
//! index loop or the flags it is rewritten into:
//!
//! ```
//! use autodiff_runtime::{Tolerance, check_gradient, grad};
//!
//! #[grad]
//! fn flow(x: [f64; 3]) -> f64 {
//!     let mut y = x;
//!     for (i, v) in y.iter_mut().enumerate() {
//!         *v = v.sin() * (i as f64 + 1.0);
//!     }
//!     let mut t = 1.0;
//!     let r = loop {
//!         t *= 1.5 + y[0] * y[0];
//!         if t > 5.0 {
//!             break t * y[1];
//!         }
//!     };
//!     let mut s = 0.0;
//!     'rows: for i in 0..3 {
//!         for j in 0..3 {
//!             if y[i] * y[j] > 2.0 {
//!                 break 'rows;
//!             }
//!             s += y[i] * y[j];
//!         }
//!     }
//!     r + s
//! }
//!
//! let p = [0.3, -0.5, 0.8];
//! let f = |q: &[f64]| flow([q[0], q[1], q[2]]);
//! let (value, grad) = flow_grad([p[0], p[1], p[2]]);
//! assert_eq!(value, f(&p));
//! assert_eq!(check_gradient(f, &p, &grad, Tolerance::default()), Ok(()));
//! ```
//!
//! # Refused
//!
//! Everything else is a compile error at the offending construct that says what is supported
//! and, where there is one, what to write instead: `match` on `f64`s or on tuples (use `if`),
//! `while let` (a `while` with a comparison), a `loop` used as a value inside an expression
//! (`2.0 * loop { … }`: bind it with `let` first), or giving an integer, or an array whose type
//! the macro cannot see (a variable of the loop's body: write the type on the `let`,
//! `let r: [f64; 3] = loop { … };`), labelled blocks (`'b: { … }`),
//! `break`/`continue` inside an expression (write it as a statement,
//! `if done { break; }`), a `loop` without `break`, an integer counter held as a number read as
//! an index (see above), iterator adaptors and consumers other than the ones above (`collect`,
//! `flat_map`, ...), comparisons of `bool`s and `bool` parameters read as conditions,
//! assignments to integer variables not declared `mut`,
//! closures that assign to what they capture or are passed on, macros in the body, `unsafe`,
//! `async`, lifetime generics and type parameters other than one `T: Float`, `&mut`
//! parameters, `return` inside a closure or an expression, unknown methods, unknown options,
//! `wrt` naming a missing or non-differentiable parameter, a constant whose type the macro
//! cannot see (an outer `const`, a field of a struct) passed to a call with values.
//!
//! All such errors in a function are reported at once, and the function itself is still
//! emitted, so its callers do not drown in knock-on errors. The workspace's `tests/ui/` has one
//! case per construct, with the message.
//!
//! ```compile_fail
//! use autodiff_runtime::grad;
//!
//! #[grad]
//! fn f(x: f64) -> f64 {
//!     let y = match x { // error: `match` on an `f64`; compare with `if`
//!         0.0 => 1.0,
//!         _ => x,
//!     };
//!     println!("{y}"); // error: no macros in the body
//!     y
//! }
//! ```
