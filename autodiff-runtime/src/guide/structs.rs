//! Structs: `#[derive(Differentiable)]`, struct parameters and values, methods.
//!
//! A macro sees tokens, not types: `#[grad]` on a function cannot read the definition of a
//! struct it takes. `#[derive(Differentiable)]` (re-exported by `autodiff-runtime` next to
//! `grad`) gives the generated code what it needs through the trait
//! [`Differentiable`](crate::Differentiable): a zero of the struct, its differentiated scalars
//! in order (for `f_hessian` and `f_jacobian`), and which fields are not differentiated.
//!
//! ```
//! use autodiff_runtime::{Differentiable, grad};
//!
//! #[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
//! pub struct Model {
//!     pub w: [f64; 2],
//!     pub b: f64,
//!     #[no_grad]
//!     pub l2: f64, // a hyperparameter: not differentiated
//! }
//!
//! /// Least squares with a penalty: Σₖ (w·xₖ + b − yₖ)² + l2 |w|².
//! #[grad(jvp, hvp, hessian)]
//! pub fn loss(m: &Model, x: &[[f64; 2]], y: &[f64]) -> f64 {
//!     let mut s = 0.0;
//!     for k in 0..y.len() {
//!         let r = m.w[0] * x[k][0] + m.w[1] * x[k][1] + m.b - y[k];
//!         s += r * r;
//!     }
//!     s + m.l2 * (m.w[0] * m.w[0] + m.w[1] * m.w[1])
//! }
//!
//! let m = Model { w: [0.5, -1.0], b: 0.25, l2: 0.1 };
//! let (x, y) = ([[1.0, 2.0], [3.0, -1.0]], [0.5, 1.0]);
//! let r = [0.5 - 2.0 + 0.25 - 0.5, 1.5 + 1.0 + 0.25 - 1.0]; // the residuals
//!
//! let (_, g): (f64, Model) = loss_grad(&m, &x, &y); // the gradient is a Model
//! let want_w0 = 2.0 * (r[0] * 1.0 + r[1] * 3.0) + 2.0 * 0.1 * 0.5;
//! assert!((g.w[0] - want_w0).abs() < 1e-14);
//! assert_eq!((g.b, g.l2), (2.0 * (r[0] + r[1]), 0.0)); // l2 is left at its Default
//!
//! let direction = Model { w: [0.0, 0.0], b: 1.0, l2: 123.0 }; // l2 is not read
//! let (_, slope) = loss_jvp(&m, &x, &y, &direction); // the direction is a &Model
//! assert_eq!(slope, g.b);
//!
//! let h: [[f64; 3]; 3] = loss_hessian(&m, &x, &y); // numbers w[0], w[1], then b
//! assert_eq!(h[2], [2.0 * (1.0 + 3.0), 2.0 * (2.0 - 1.0), 4.0]);
//! ```
//!
//! - **Fields.** `f64`, arrays of `f64` (nested) and structs deriving `Differentiable` are
//!   differentiated, in declaration order. A field marked `#[no_grad]`, and a field of any other
//!   type (integers, `bool`, a `Vec` of data, references), is a constant: a gradient, an H·v and
//!   a zero leave it at its `Default`, and a direction's value there is not read. `f32` fields
//!   and tuples holding floats are refused at the field (mark them `#[no_grad]`, or use an
//!   array). Forgetting the derive is a compile error at the parameter's type that says to add
//!   it.
//! - **Selection.** A struct left out of `wrt(...)` is a constant. `wrt(m.w)` (or
//!   `wrt(m.inner.c)`) differentiates those fields only: the gradient is still a `Model`, its
//!   other fields zero, and `f_hessian` numbers all of the struct's differentiated scalars (rows
//!   and columns of those left out are zero).
//! - **The generated code** binds each field the body reads as a value
//!   (`let m_w: &[f64; _] = &m.w;`) and writes the gradient back field by field into the
//!   struct's zero:
//!
//!   ```text
//!   let mut m_bar = <Model as ::autodiff_runtime::Differentiable>::zero_like(m);
//!   m_bar.w = m_w_bar;
//!   m_bar.b = m_b_bar;
//!   m_bar.l2 = t2;
//!   <Model as ::autodiff_runtime::Differentiable>::clear_constants(&mut m_bar);
//!   ```
//!
//!   A field's type is read from its uses: an `f64` if read as a value, an array of as many
//!   dimensions as the body indexes it with (its lengths read at run time, `m.w.len()`), an
//!   integer constant if read only where an integer goes (an index, a loop bound, `m.n as f64`).
//!   A local bound to a field passes its uses on (`let y = m.x; y[i][j]` makes `m.x` a matrix,
//!   `let r = m.x[0]; r[1]` too, and `r` a row), and so does a typed `let`
//!   (`let r: [f64; 2] = m.x[0];`).
//! - **A field passed whole.** A field that the body reads only whole, as an argument of calls
//!   (`g(m.w)`, `g(&m.w)`, `g(&m.inner)`) or as the receiver of methods (`m.inner.norm()`),
//!   whatever its type (an `f64`, an array of any dimensions, a nested struct deriving
//!   `Differentiable`) and however deep (`g(&m.a.w)`, `m.a.inner.norm()`, `g(m.a.inner.d)`), is
//!   passed as itself, and held in the derivatives as its differentiated scalars laid flat
//!   (`[f64; field_len::<Model>("inner")]`, `[f64; field_path_len::<Model>(&["a", "w"])]`, a
//!   length rustc evaluates from the struct's `Differentiable::FIELDS` and `TREE`): the callee's
//!   partial of it is laid flat, and the gradient adds it into the struct's at the field's first
//!   scalar, with what the body's reads of its own fields (`m.inner.c`) give. Its direction is
//!   the direction's field (`m_dot.inner`). Left out of `wrt`, it is a constant of the call, with
//!   a zero direction made from it. A local bound to a field and never changed
//!   (`let w = m.w; g(&w)`, `let inner = self.inner; inner.norm()`) is read as the field
//!   itself. A field read otherwise too is typed from those reads: one indexed as a matrix is
//!   passed whole as one (`g(&m.x)` with `m.x[i][j]`).
//!   `tests/struct_fields.rs` checks each against finite differences in every mode, and the
//!   copies and fields two levels down against the same functions written with typed `let`s.
//!   (What that cannot tell: [`limits`](super::limits).)
//! - **A row passed whole.** A row of an array field passed to a call (`g(m.x[0])`,
//!   `g(&m.x[i])` in a loop, `g(self.x[0])`, `g(r.x[1])` for a struct `r` returned by a call,
//!   `g(q.mul(&p).x[0])`, `let y = m.x; g(y[1])`), where the body does not index the field as
//!   deep as its elements elsewhere, is an `f64` or an array, as the callee takes it: the field
//!   is held as its scalars laid flat (`[f64; field_value_len(|s: &Model| &s.x)]`, a length
//!   rustc evaluates from the field's type), and a row is its scalars from `i · (len / dim₀)`
//!   on, copied out and rebuilt in the type of the callee's parameter; the callee's partial of
//!   it is added back at the same place. The field may be passed whole too (`g(&m.x)`), and be
//!   `#[no_grad]` (its rows are its values, and its gradient stays zero). Where the body also
//!   indexes the field as deep as its elements (`m.x[1][0]`), its type is known and the row is
//!   read as one. `tests/struct_rows.rs` checks each bit for bit against the same function with
//!   the rows bound with their types (`let r: [f64; 2] = m.x[0];`), in every mode.
//! - **Struct values in the body.** A literal `Quat { w, x, y, z }` (with `..base`, `base` a
//!   struct value of the body) is a value whose fields are read and written (`q.w`,
//!   `q.x = -q.x`, `q.v[i] += e`, `q = Quat { .. }`), carried by loops and yielded by branches.
//!   It never exists as a struct in the derivatives, only its fields do.
//! - **Fields copied whole into the returned struct**, `Model { w: m.w, b: m.b * 2.0 }` (or
//!   `let w = m.w; let out = Model { w, b }; out`, or from a call's struct value, `w: r.w`), of a
//!   field that the body never indexes: held as the field's scalars laid flat and rebuilt in the
//!   field's type in the returned literal (`f_vjp` and `f_jvp` read and write the field whole),
//!   whatever its type, an `f64` or an array of any dimensions; a nested struct so copied is a
//!   compile error at the field (its `#[no_grad]` fields are not among its scalars): copy its
//!   fields.
//! - **A function returning a struct** is a vector function whose outputs are its
//!   differentiated fields: `f_vjp(params…, out_bar: Quat)` takes a cotangent of the struct's
//!   type (its `#[no_grad]` fields are not read), `f_jvp` returns the tangent as a `Quat`,
//!   `f_hvp(params…, out_bar: Quat, directions…, out_bar_dot: Quat)` returns
//!   `(Quat, cotangents, Quat, cotangents_dot)` as for an array, and `f_jacobian` numbers the
//!   rows through `Differentiable`.
//! - **Calls of a function returning a struct** are written as in Rust:
//!   `q.mul(&p).mul(&q.conj())`, `let r = q.mul(&p); r.w`, `q.mul(&p).w`, `q.mul(&p).v[i]`
//!   (read as `let r = q.mul(&p); r.v[i]` is, bit for bit), `p.dot(&u.conj())`,
//!   `Quat::mul(&u, &p)`, `let mut acc = q.normalized();` then `acc = acc.mul(q);`, and a
//!   variable made from a struct literal assigned a call's value
//!   (`let mut s = P { x: p.x, v: p.v };` then `s = s.step(dt);`, each field read from the
//!   call's value). The macro
//!   sees tokens, not types, and needs the struct's name to hold its value; where a call's value
//!   is read as a struct (a field read, a method called on it, lent with `&` to a call, or the
//!   value of a function returning a struct) it takes, in order: the type of a typed `let`
//!   (`let qp: Quat = q.mul(&p);`, always possible); for a method, the type of its receiver (a
//!   struct parameter, `Self` for `self`, a struct value of the body, or a call's value so
//!   typed: chains), as for methods returning `Self`, the common idiom; for `Type::f(..)` or
//!   `Self::f(..)`, `Type` or `Self`; for a free function `make(..)` read by a field or a
//!   method (`let r = make(x); r.w`, `make(x).mul(&q)`), `make_value`, the alias of its return
//!   type that `#[grad]` writes next to a free function returning a struct (not a generic one,
//!   nor one in an `impl`, where an associated type is not stable Rust); for a variable
//!   assigned, its type. A method returning another type is then rustc's mismatched-type error
//!   at the call ("expected `Quat`, found `Polar`"): bind its value with its type. A free
//!   function's value lent with `&` as it is made (`q.mul(&make(x))`) could be a struct or an
//!   array, and is refused at the call, saying to bind it first; a call's value used only as a
//!   number (`q.norm2()`, or passed by value, `g(q.conj())`) stays
//!   one `f64` as before. They go through the callee's `_vjp`, `_jvp` and
//!   `_hvp` as calls returning arrays do (see [`calls`](super::calls)), in loops too. The value
//!   is held laid flat (`[f64; <Quat as Differentiable>::LEN]`): it is read by its fields (`r.x`,
//!   `r.v[i]`, `r.m[i][j]`, at the place `Differentiable::FIELDS` gives) and by the fields of its
//!   nested structs (`r.inner.c`, `r.inner.d[i]`, through `Differentiable::TREE`), and passed to
//!   calls, used as a receiver (`r.mul(&c)`) or returned as the struct, rebuilt from its scalars.
//!   An array field read whole or by rows (`let y = r.v;` then `y[i]`, `y = r.v;` for an array
//!   `y`, `let w: [f64; 3] = r.v;`, a row `r.m[i]`) is its scalars copied out, in the shape of
//!   where it goes (the variable assigned, the `let`'s or the return type) or else of how the
//!   body indexes it (through the locals bound to it), with the lengths from the struct's
//!   `Differentiable::TREE`; rustc checks the shape at the read. A field read only whole and
//!   never indexed (`let w = r.v; g(w)`, `g(&r.m)`, an `f64` too) is its scalars copied out laid
//!   flat and rebuilt in the type of the callee's parameter. Not supported: a write to a field,
//!   an error that says what to write; reading a `#[no_grad]` (or
//!   constant) field, which the scalars do not hold, is a compile error at the read, and passing
//!   on a struct that has one a build error at the call. `src/struct_calls.rs` has the rotation
//!   `q p q*` so, with typed `let`s, and `src/struct_chains.rs` the same functions written
//!   without them (`q.mul(&p).mul(&q.conj())`), which `tests/struct_calls.rs` checks against the
//!   rotation matrix and finite differences in every mode, the untyped forms to the bit against
//!   the typed ones.
//! - **Methods.** `#[grad]` goes on `fn loss(&self, x: f64) -> f64` or
//!   `fn step(self, h: f64) -> Self` in an `impl` block: `self` is differentiated like any
//!   struct parameter (`s.energy_grad(x)` returns `(value, (Spring, f64))`), and its direction is
//!   `&Self` whether `self` is taken by value or by reference. `hessian` and `jacobian` work
//!   inside `impl` blocks (they call `Self::f_hvp`, `Self::f_jvp`).
//! - **Calls of methods** by method syntax, `self.energy(x)`, `q.norm2()`, `a.dot(&b)`, go
//!   through the callee's generated functions by method syntax (`q.norm2_grad()`,
//!   `self.energy_hvp(x, self_dot, x_dot)`), so rustc finds them through the receiver's type. A
//!   struct passed to a call (a struct parameter, or a struct value of the body) gets one partial
//!   of its type and one direction, as an array does (see [`calls`](super::calls)). A method
//!   returning an array or a tuple is called as such a function is, its value bound where its
//!   type shows (`let r: [f64; 4] = qp.times(&c);`, `let [w, x, y, z] = self.times(&p);`). A
//!   method call whose arguments are all constants (`p.scale()` on a struct left out of `wrt`)
//!   is a constant, and needs no derivative functions.
//! - **Arrays of structs** (`ps: &[Particle; N]`, or `[Particle; N]` by value, `N` a literal, a
//!   `const` or a const generic) are differentiated as struct parameters are: the gradient is a
//!   `[Particle; N]`, a direction (`f_jvp`, `f_hvp`) a `&[Particle; N]` (`[Particle; N]` for one
//!   taken by value), and `f_hessian` and `f_jacobian` number the scalars element by element, each
//!   in its struct's order. The body reads an element through its fields: `ps[i].x`, `ps[i].w[j]`,
//!   `ps[i].inner.c`, an element bound to a name (`let p = &ps[i];`, `for p in ps.iter()`,
//!   `for p in ps`, `for (i, p) in ps.iter().enumerate()`, `for &Particle { x, v, .. } in ps`,
//!   `xs.iter().zip(&ps)`, `.rev()`, `.skip(k)`, and the closures of `map`, `filter`, `fold` and
//!   `for_each`), `ps.len()`. The macro reads the array as a struct of arrays: each field of the
//!   elements that the body reads is one array, `ps[i].x` a read of its `i`-th value (the generated
//!   code gathers it, `let ps_x: &[f64; 3] = &gather(ps, |e| e.x);`, and writes the gradient back
//!   field by field, `scatter(&mut ps_bar, &ps_x_bar, |e| &mut e.x);`); a loop over the elements
//!   runs over their indices. Not supported, each a compile error that says what to write: a method
//!   called on an element (`ps[i].energy(k)`, `p.energy(k)`), an element taken whole (an argument
//!   of a call, `let mut q = ps[i];`), the array passed whole, an element matched by another
//!   pattern than a name or a struct pattern of names (`&P { ref x, .. }`), an adaptor other than
//!   those above over the elements (`skip_while`), a field read where an integer goes, and
//!   `hessian` or `jacobian` for a const generic length. A slice of structs `&[Particle]` is
//!   constant data (as a slice of `f64` is until `wrt(...)` names it); named in `wrt(...)`, it is
//!   refused. `tests/struct_arrays.rs` checks a particle system, a Gaussian mixture and a force
//!   field in every mode against the same functions over separate field arrays (bit for bit) and
//!   against finite differences.
//!
//!   ```
//!   use autodiff_runtime::{Differentiable, grad};
//!
//!   #[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
//!   pub struct Particle {
//!       pub x: f64,
//!       pub v: f64,
//!       #[no_grad]
//!       pub m: f64,
//!   }
//!
//!   /// Kinetic energy plus a spring between every pair.
//!   #[grad(jvp, hvp, hessian)]
//!   pub fn energy(ps: &[Particle; 3], k: f64) -> f64 {
//!       let kinetic = ps.iter().map(|p| 0.5 * p.m * p.v * p.v).sum::<f64>();
//!       let mut springs = 0.0;
//!       for i in 0..ps.len() {
//!           for j in i + 1..ps.len() {
//!               let d = ps[i].x - ps[j].x;
//!               springs += 0.5 * k * d * d;
//!           }
//!       }
//!       kinetic + springs
//!   }
//!
//!   let ps = [
//!       Particle { x: 0.0, v: 1.0, m: 2.0 },
//!       Particle { x: 1.0, v: -0.5, m: 1.0 },
//!       Particle { x: 3.0, v: 0.0, m: 1.0 },
//!   ];
//!   let (_, (g, gk)): (f64, ([Particle; 3], f64)) = energy_grad(&ps, 2.0);
//!   assert_eq!(g[0].v, 2.0); // m v
//!   assert_eq!(g[0].x, 2.0 * ((0.0 - 1.0) + (0.0 - 3.0))); // k Σⱼ (x₀ − xⱼ)
//!   assert_eq!(g[0].m, 0.0); // #[no_grad]: left at its Default
//!   assert_eq!(gk, 0.5 * (1.0 + 9.0 + 4.0)); // Σ d² / 2
//!
//!   // Numbered ps[0].x, ps[0].v, ps[1].x, ps[1].v, ps[2].x, ps[2].v, then k.
//!   let h: [[f64; 7]; 7] = energy_hessian(&ps, 2.0);
//!   assert_eq!((h[0][0], h[0][2], h[1][1]), (4.0, -2.0, 2.0));
//!   ```
//! - **Operators on structs** (`a * b` with `impl Mul for Quat`) are refused with a message to
//!   call the method (`a.mul(&b)`): the macro sees no types, so it cannot find the operator's
//!   `impl`.
//!
//! ```
//! use autodiff_runtime::{Differentiable, grad};
//!
//! #[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
//! pub struct Spring {
//!     pub k: f64,
//!     pub rest: f64,
//! }
//!
//! impl Spring {
//!     /// k (x − rest)² / 2.
//!     #[grad(jvp, hvp, hessian)]
//!     pub fn energy(&self, x: f64) -> f64 {
//!         let d = x - self.rest;
//!         0.5 * self.k * d * d
//!     }
//!
//!     /// Two calls of `energy` by method syntax.
//!     #[grad(jvp, hvp, hessian)]
//!     pub fn work(&self, x0: f64, x1: f64) -> f64 {
//!         self.energy(x1) - self.energy(x0)
//!     }
//! }
//!
//! #[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
//! pub struct Quat {
//!     pub w: f64,
//!     pub x: f64,
//!     pub y: f64,
//!     pub z: f64,
//! }
//!
//! /// The conjugate scaled by s: a function returning a struct.
//! #[grad(jvp, hvp, jacobian)]
//! fn scaled_conj(q: Quat, s: f64) -> Quat {
//!     let mut c = Quat { w: q.w, x: -q.x, y: -q.y, z: -q.z };
//!     c.w *= s;
//!     Quat { x: s * c.x, ..c }
//! }
//!
//! /// A call of a function returning a struct, bound with its type and read by its fields.
//! #[grad(hvp)]
//! fn through_call(q: Quat, s: f64) -> f64 {
//!     let c: Quat = scaled_conj(q, s);
//!     q.w * c.w - q.x * c.x
//! }
//!
//! impl Quat {
//!     /// The conjugate scaled by s, as a method returning `Self`.
//!     #[grad(jvp, hvp)]
//!     fn scaled(&self, s: f64) -> Quat {
//!         Quat { w: s * self.w, x: -s * self.x, y: -s * self.y, z: -s * self.z }
//!     }
//! }
//!
//! /// Calls written without a typed `let`: each value is taken to be of its receiver's type.
//! #[grad(hvp)]
//! fn chained(q: Quat, s: f64) -> f64 {
//!     let c = q.scaled(s);
//!     c.w + q.scaled(s).scaled(s).x
//! }
//!
//! let spring = Spring { k: 2.0, rest: 1.0 };
//! let (value, (s_bar, x_bar)) = spring.energy_grad(3.0); // (Spring, f64)
//! assert_eq!((value, s_bar, x_bar), (4.0, Spring { k: 2.0, rest: -4.0 }, 4.0));
//! // work = k/2 ((x₁ − rest)² − (x₀ − rest)²): ∂/∂rest = −k (x₁ − x₀)
//! let (_, (s_bar, _, _)) = spring.work_grad(2.0, 3.0);
//! assert_eq!(s_bar, Spring { k: 1.5, rest: -2.0 });
//! let (_, _, (h_self, h0, h1)) = spring.work_hvp(2.0, 3.0, &Spring { k: 1.0, rest: 0.0 }, 0.0, 0.0);
//! assert_eq!((h_self, h0, h1), (Spring { k: 0.0, rest: -1.0 }, -1.0, 2.0));
//!
//! let q = Quat { w: 1.0, x: 2.0, y: 3.0, z: 4.0 };
//! let (value, q_bar) = scaled_conj_vjp(q, 2.0, Quat { w: 1.0, x: 1.0, y: 1.0, z: 1.0 });
//! assert_eq!(value, Quat { w: 2.0, x: -4.0, y: -3.0, z: -4.0 });
//! assert_eq!(q_bar, (Quat { w: 2.0, x: -2.0, y: -1.0, z: -1.0 }, 1.0 - 2.0));
//! let (_, tangent) = scaled_conj_jvp(q, 2.0, Quat { w: 0.0, x: 0.0, y: 0.0, z: 0.0 }, 1.0);
//! assert_eq!(tangent, Quat { w: 1.0, x: -2.0, y: 0.0, z: 0.0 }); // the tangent is a Quat
//! // s w² + s x²: ∂/∂w = 2 s w, ∂/∂x = 2 s x, ∂/∂s = w² + x²
//! let (value, (q_bar, s_bar)) = through_call_grad(q, 2.0);
//! assert_eq!((value, q_bar.w, q_bar.x, s_bar), (10.0, 4.0, 8.0, 5.0));
//! // s w + s² x: ∂/∂w = s, ∂/∂x = s², ∂/∂s = w + 2 s x
//! let (value, (q_bar, s_bar)) = chained_grad(q, 2.0);
//! assert_eq!((value, q_bar.w, q_bar.x, s_bar), (10.0, 2.0, 4.0, 9.0));
//! ```
//!
//! Fields passed whole, a nested struct and a matrix that the body never indexes:
//!
//! ```
//! use autodiff_runtime::{Differentiable, grad};
//!
//! #[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
//! pub struct Inner {
//!     pub c: f64,
//! }
//!
//! impl Inner {
//!     #[grad(jvp, hvp)]
//!     pub fn cube(&self) -> f64 {
//!         self.c * self.c * self.c
//!     }
//! }
//!
//! #[derive(Clone, Copy, Debug, PartialEq, Differentiable)]
//! pub struct Model {
//!     pub inner: Inner,
//!     pub w: [[f64; 2]; 2],
//! }
//!
//! /// The determinant.
//! #[grad(jvp, hvp)]
//! pub fn det(w: &[[f64; 2]; 2]) -> f64 {
//!     w[0][0] * w[1][1] - w[0][1] * w[1][0]
//! }
//!
//! /// c³ det(w): `m.inner` and `m.w` only passed whole.
//! #[grad(jvp, hvp)]
//! pub fn energy(m: &Model) -> f64 {
//!     m.inner.cube() * det(&m.w)
//! }
//!
//! let m = Model { inner: Inner { c: 2.0 }, w: [[1.0, 2.0], [3.0, 4.0]] };
//! let (value, g) = energy_grad(&m); // 8 · (4 − 6)
//! assert_eq!(value, -16.0);
//! assert_eq!(g.inner.c, 3.0 * 4.0 * -2.0); // 3c² det(w)
//! assert_eq!(g.w, [[8.0 * 4.0, 8.0 * -3.0], [8.0 * -2.0, 8.0 * 1.0]]); // c³ cof(w)
//! ```
//!
//! ```compile_fail
//! use autodiff_runtime::grad;
//!
//! pub struct Point { pub x: f64, pub y: f64 } // no #[derive(Differentiable)]
//!
//! #[grad]
//! fn norm2(p: &Point) -> f64 { // error: `Point` is not `Differentiable`
//!     p.x * p.x + p.y * p.y
//! }
//! ```
