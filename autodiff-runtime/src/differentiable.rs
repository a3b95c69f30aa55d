//! Structs in `#[grad]` functions: the [`Differentiable`] trait that `#[derive(Differentiable)]`
//! implements, and [`Tangent`], the same operations on what a struct's fields hold (`f64`,
//! arrays of them, nested structs). A macro sees tokens, not types: `#[grad]` cannot read a
//! struct's definition, so the code it generates asks the struct, through these traits, for
//! what needs the definition (a zero of the struct, its scalars in order, which fields are not
//! differentiated).

/// A struct whose `f64` fields (and arrays of them, and nested structs deriving it) `#[grad]`
/// differentiates: implemented by `#[derive(Differentiable)]`.
///
/// The differentiated scalars are numbered in declaration order, each array in row-major order
/// and each nested struct in its own order; a field marked `#[no_grad]`, and a field of another
/// type (an integer, a `bool`, a `Vec` of data, ...), is not among them: it is a constant of the
/// derivatives, and a gradient leaves it at its `Default`.
///
/// ```
/// use autodiff_runtime::Differentiable;
///
/// #[derive(Differentiable)]
/// struct Model {
///     w: [f64; 2],
///     b: f64,
///     #[no_grad]
///     rate: f64,
///     steps: usize,
/// }
///
/// let m = Model { w: [1.0, 2.0], b: 3.0, rate: 0.1, steps: 10 };
/// assert_eq!(<Model as Differentiable>::LEN, 3);
/// assert_eq!((m.get(0), m.get(1), m.get(2)), (1.0, 2.0, 3.0));
/// let z = m.zero_like();
/// assert_eq!((z.w, z.b, z.rate, z.steps), ([0.0; 2], 0.0, 0.0, 0));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not `Differentiable`: `#[grad]` differentiates a struct through the trait that `#[derive(Differentiable)]` implements",
    label = "a struct that `#[grad]` differentiates",
    note = "add `#[derive(Differentiable)]` to the definition of `{Self}` (`use autodiff_runtime::Differentiable;`), or leave it out of the derivatives with `wrt(...)` listing the parameters to differentiate"
)]
pub trait Differentiable: Sized {
    /// How many differentiated scalars it holds.
    const LEN: usize;

    /// Each differentiated field (by name, or position for a tuple struct) with the number of
    /// its first scalar: how the generated code reads `r.w` from the scalars of a struct
    /// returned by a call, which it holds laid flat.
    const FIELDS: &'static [(&'static str, usize)] = &[];

    /// Each differentiated field with the number of its first scalar and, for a nested struct,
    /// its own fields: how the generated code reads `r.inner.c` from the scalars of a struct
    /// returned by a call.
    const TREE: &'static [FieldTree] = &[];

    /// Whether every field is differentiated (nested structs too): then the struct is rebuilt
    /// whole from its scalars, which the generated code does to pass a struct returned by a
    /// call to another call.
    const ALL_DIFFERENTIATED: bool = false;

    /// The zero of its derivatives: every differentiated scalar `0.0`, every other field
    /// `Default::default()` (no heap data is cloned).
    fn zero_like(&self) -> Self;

    /// The zero of [`Differentiable::zero_like`], made without a value to take array lengths
    /// from.
    fn zero() -> Self;

    /// The `k`-th differentiated scalar (NaN past the end).
    fn get(&self, k: usize) -> f64;

    /// Sets the `k`-th differentiated scalar (nothing past the end).
    fn set(&mut self, k: usize, value: f64);

    /// A copy of the differentiated scalars, every other field `Default::default()`: the part of
    /// a direction that the derivatives read.
    fn tangent(&self) -> Self;

    /// Sets every field that is not differentiated to `Default::default()`: a gradient that the
    /// generated code wrote field by field has no component there.
    fn clear_constants(&mut self);
}

/// A differentiated field of a struct (see [`Differentiable::TREE`]): its name (or position),
/// the number of its first scalar among the struct's, and the fields of a nested struct (none
/// for an `f64` or an array).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct FieldTree {
    /// The field's name, or its position in a tuple struct.
    pub name: &'static str,
    /// The number of its first scalar.
    pub at: usize,
    /// A nested struct's fields, numbered from its own first scalar.
    pub fields: &'static [FieldTree],
    /// What it holds: an `f64`, an array (its lengths), or a struct.
    pub dims: Dims,
}

/// The most dimensions of an array field that `#[grad]` reads whole, or by rows, from a struct
/// returned by a call.
#[doc(hidden)]
pub const MAX_RANK: usize = 4;

/// What a differentiated field holds (see [`Tangent::DIMS`]): an `f64`, an array of them (its
/// lengths, outermost first), or a struct (or an array of structs). The generated code reads an
/// array field of a struct returned by a call whole (`let y = r.w;`) with these lengths, which
/// the macro cannot read from the struct's definition.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    /// How many dimensions (0 for an `f64`), `MAX_RANK + 1` past [`MAX_RANK`].
    pub rank: usize,
    /// Their lengths, outermost first.
    pub lens: [usize; MAX_RANK],
    /// Whether it is a struct, or an array of structs.
    pub of_struct: bool,
}

impl Dims {
    /// An `f64`.
    pub const SCALAR: Dims = Dims { rank: 0, lens: [0; MAX_RANK], of_struct: false };
    /// A struct.
    pub const STRUCT: Dims = Dims { rank: 0, lens: [0; MAX_RANK], of_struct: true };

    /// An array of `n` of these.
    pub const fn outer(self, n: usize) -> Dims {
        if self.rank >= MAX_RANK {
            return Dims { rank: MAX_RANK + 1, ..self };
        }
        let mut lens = [0; MAX_RANK];
        lens[0] = n;
        let mut k = 0;
        while k < self.rank {
            lens[k + 1] = self.lens[k];
            k += 1;
        }
        Dims { rank: self.rank + 1, lens, of_struct: self.of_struct }
    }
}

/// What a differentiated field holds: an `f64`, an array of them (nested), or a struct deriving
/// [`Differentiable`]. The derive and the generated code use it; it is not for users.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an `f64`, an array of `f64` or a `Differentiable` struct",
    label = "a field that `#[derive(Differentiable)]` differentiates",
    note = "derive `Differentiable` for the field's type, or mark the field `#[no_grad]` to keep it out of the derivatives (write `f64` itself, not an alias of it)"
)]
pub trait Tangent: Sized {
    /// How many differentiated scalars it holds.
    const LEN: usize;

    /// See [`Differentiable::ALL_DIFFERENTIATED`].
    const ALL_DIFFERENTIATED: bool;

    /// See [`Differentiable::TREE`] (none for an `f64` or an array).
    const TREE: &'static [FieldTree];

    /// What it holds: an `f64`, an array and its lengths, or a struct.
    const DIMS: Dims;

    /// Its zero (see [`Differentiable::zero_like`]).
    fn zero_like(&self) -> Self;

    /// Its zero, made from its type alone.
    fn zero() -> Self;

    /// The `k`-th scalar.
    fn get(&self, k: usize) -> f64;

    /// Sets the `k`-th scalar.
    fn set(&mut self, k: usize, value: f64);

    /// See [`Differentiable::tangent`].
    fn tangent(&self) -> Self;

    /// See [`Differentiable::clear_constants`].
    fn clear_constants(&mut self);
}

impl Tangent for f64 {
    const LEN: usize = 1;
    const ALL_DIFFERENTIATED: bool = true;
    const TREE: &'static [FieldTree] = &[];
    const DIMS: Dims = Dims::SCALAR;

    fn zero_like(&self) -> Self {
        0.0
    }

    fn zero() -> Self {
        0.0
    }

    fn get(&self, k: usize) -> f64 {
        if k == 0 { *self } else { f64::NAN }
    }

    fn set(&mut self, k: usize, value: f64) {
        if k == 0 {
            *self = value;
        }
    }

    fn tangent(&self) -> Self {
        *self
    }

    fn clear_constants(&mut self) {}
}

impl<T: Tangent, const N: usize> Tangent for [T; N] {
    const LEN: usize = N * T::LEN;
    const ALL_DIFFERENTIATED: bool = T::ALL_DIFFERENTIATED;
    const TREE: &'static [FieldTree] = &[];
    const DIMS: Dims = T::DIMS.outer(N);

    fn zero_like(&self) -> Self {
        core::array::from_fn(|i| self[i].zero_like())
    }

    fn zero() -> Self {
        core::array::from_fn(|_| T::zero())
    }

    fn get(&self, k: usize) -> f64 {
        match T::LEN {
            0 => f64::NAN,
            len => <[T]>::get(self, k / len).map_or(f64::NAN, |e| e.get(k % len)),
        }
    }

    fn set(&mut self, k: usize, value: f64) {
        if let Some(len) = core::num::NonZeroUsize::new(T::LEN)
            && let Some(e) = <[T]>::get_mut(self, k / len.get())
        {
            e.set(k % len.get(), value);
        }
    }

    fn tangent(&self) -> Self {
        core::array::from_fn(|i| self[i].tangent())
    }

    fn clear_constants(&mut self) {
        self.iter_mut().for_each(T::clear_constants);
    }
}

impl<T: Differentiable> Tangent for T {
    const LEN: usize = <T as Differentiable>::LEN;
    const ALL_DIFFERENTIATED: bool = <T as Differentiable>::ALL_DIFFERENTIATED;
    const TREE: &'static [FieldTree] = <T as Differentiable>::TREE;
    const DIMS: Dims = Dims::STRUCT;

    fn zero_like(&self) -> Self {
        Differentiable::zero_like(self)
    }

    fn zero() -> Self {
        <T as Differentiable>::zero()
    }

    fn get(&self, k: usize) -> f64 {
        Differentiable::get(self, k)
    }

    fn set(&mut self, k: usize, value: f64) {
        Differentiable::set(self, k, value);
    }

    fn tangent(&self) -> Self {
        Differentiable::tangent(self)
    }

    fn clear_constants(&mut self) {
        Differentiable::clear_constants(self);
    }
}

/// The zero of a value's derivatives, by method syntax under a name of its own (no other trait
/// in scope has it): the zero direction the generated code passes for a constant argument of a
/// call, a struct, an array or an `f64`, `(&m.w).zero_like_of()`.
#[doc(hidden)]
pub trait ZeroLike: Sized {
    /// See [`Tangent::zero_like`].
    fn zero_like_of(&self) -> Self;
}

impl<T: Tangent> ZeroLike for T {
    fn zero_like_of(&self) -> Self {
        Tangent::zero_like(self)
    }
}

/// The differentiated scalars of `x` laid flat: what the generated code passes for a struct
/// parameter that is passed whole to a call, and makes of the partial of a struct (or of a
/// field of one, an array or a nested struct) that a call returns. `N` is `T::LEN` (the caller
/// writes it).
#[doc(hidden)]
pub fn flat<T: Tangent, const N: usize>(x: &T) -> [f64; N] {
    core::array::from_fn(|k| x.get(k))
}

/// The `N` differentiated scalars of `x` from its `at`-th laid flat: a field of a struct
/// parameter passed whole to a call, read as its scalars (`at` is [`field_at`]).
#[doc(hidden)]
pub fn flat_at<T: Differentiable, const N: usize>(x: &T, at: usize) -> [f64; N] {
    core::array::from_fn(|k| x.get(at + k))
}

/// The struct whose differentiated scalars are `v`, laid flat (its other fields
/// `Default::default()`): what the generated code passes for a struct returned by a call, which
/// it holds laid flat.
#[doc(hidden)]
pub fn unflat<T: Differentiable>(v: &[f64]) -> T {
    let mut x = T::zero();
    for (k, e) in v.iter().enumerate() {
        x.set(k, *e);
    }
    x
}

/// The struct whose scalars are `v`, laid flat, rebuilt whole to be passed as a value; `checked`
/// is [`rebuildable`], evaluated by rustc where the generated code calls it.
#[doc(hidden)]
pub fn rebuilt<T: Differentiable>(v: &[f64], checked: ()) -> T {
    let () = checked;
    unflat(v)
}

/// Whether a struct returned by a call can be rebuilt from its scalars: a compile error, in a
/// `const` block, for a struct with fields that are not differentiated, whose values its scalars
/// do not hold.
#[doc(hidden)]
pub const fn rebuildable<T: Differentiable>() {
    assert!(
        T::ALL_DIFFERENTIATED,
        "`#[grad]` holds a struct returned by a call as its differentiated scalars, and passes it on (to another call, or as the function's value) rebuilt from them, which a struct with a `#[no_grad]` field, or a field of another type, cannot be: the field's value is not among them; read its fields instead (`r.x`), or call the function in the one that made the struct"
    );
}

/// The number of the first scalar of the differentiated field `name` of `T` (see
/// [`field_index`]): `field::<Quat>("x")`, in a `const` block.
#[doc(hidden)]
pub const fn field<T: Differentiable>(name: &str) -> usize {
    field_index(T::FIELDS, name)
}

/// The number of the first scalar of the differentiated field `name` among `fields` (a struct's
/// [`Differentiable::FIELDS`]), evaluated at compile time: a field that is not differentiated,
/// or not there, is a compile error at the read.
#[doc(hidden)]
pub const fn field_index(fields: &[(&str, usize)], name: &str) -> usize {
    let mut k = 0;
    while k < fields.len() {
        let (field, at) = fields[k];
        if same(field.as_bytes(), name.as_bytes()) {
            return at;
        }
        k += 1;
    }
    panic!(
        "`#[grad]` reads this field of a struct returned by a call from the struct's differentiated scalars, and the struct has no differentiated field of this name: a field marked `#[no_grad]`, or of another type than `f64`, an array of `f64` or a struct deriving `Differentiable`, is not among them; read such a field in the function that makes the struct"
    )
}

/// The number of the first scalar of the field `path` (`["inner", "c"]` for `r.inner.c`) of
/// `T`, a field of a nested struct, through [`Differentiable::TREE`], in a `const` block: a
/// field that is not differentiated, or not there, is a compile error at the read.
#[doc(hidden)]
pub const fn field_path<T: Differentiable>(path: &[&str]) -> usize {
    walk::<T>(path).0
}

/// The number of the first scalar of the field `path` of `T` and what it holds, walked down
/// [`Differentiable::TREE`]; a path that is not there is a compile error at the read.
const fn walk<T: Differentiable>(path: &[&str]) -> (usize, Dims) {
    let (mut fields, mut at, mut k, mut dims) = (T::TREE, 0, 0, Dims::STRUCT);
    while k < path.len() {
        let mut j = 0;
        while j < fields.len() && !same(fields[j].name.as_bytes(), path[k].as_bytes()) {
            j += 1;
        }
        if j == fields.len() {
            panic!(
                "`#[grad]` reads this field of a struct returned by a call from the struct's differentiated scalars, and the struct has no differentiated field of this path: a field marked `#[no_grad]`, or of another type than `f64`, an array of `f64` or a struct deriving `Differentiable` (by the derive, not by hand), is not among them; read such a field in the function that makes the struct"
            );
        }
        at += fields[j].at;
        dims = fields[j].dims;
        fields = fields[j].fields;
        k += 1;
    }
    (at, dims)
}

/// The number of the first scalar of the field `path` of `T` and what it holds, through
/// [`Differentiable::TREE`]; `None` when the tree is empty (a hand-written `Differentiable`) and
/// `path` is one field, whose place [`Differentiable::FIELDS`] gives.
const fn field_entry<T: Differentiable>(path: &[&str]) -> Option<(usize, Dims)> {
    if T::TREE.is_empty() && path.len() == 1 {
        return None;
    }
    Some(walk::<T>(path))
}

/// The number of the first scalar of the `f64` field `path` of `T` (`r.w`, `r.inner.c` for a
/// struct `r` returned by a call), in a `const` block: a compile error at the read when the field
/// is an array or a struct, which `#[grad]` took for an `f64` (nothing in the body told it more).
#[doc(hidden)]
pub const fn field_scalar<T: Differentiable>(path: &[&str]) -> usize {
    match field_entry::<T>(path) {
        None => field_index(T::FIELDS, path[0]),
        Some((at, dims)) if dims.rank == 0 && !dims.of_struct => at,
        Some(_) => panic!(
            "`#[grad]` reads this field of a struct returned by a call as an `f64` (a macro sees tokens, not types, and nothing in the body indexes it), and it is an array or a struct: bind it with its type, as in `let w: [f64; 3] = r.w;`, or read its elements (`r.w[i]`)"
        ),
    }
}

/// The number of the first scalar of the array field `path` of `T`, in a `const` block: a
/// compile error at the read unless it is an array of `f64` of `rank` dimensions, as many as
/// the body indexes it (or a local bound to it) with.
#[doc(hidden)]
pub const fn field_array<T: Differentiable>(path: &[&str], rank: usize) -> usize {
    match field_entry::<T>(path) {
        // A hand-written `Differentiable` (no tree): a field of one dimension is trusted.
        None if rank == 1 => field_index(T::FIELDS, path[0]),
        None => panic!(
            "`#[grad]` reads the lengths of an array field of a struct returned by a call from `Differentiable::TREE`, which a hand-written `Differentiable` leaves empty: derive it, or read the field by its elements (`r.w[i]`, one dimension)"
        ),
        Some((at, dims)) if dims.rank == rank && !dims.of_struct => at,
        Some(_) => panic!(
            "`#[grad]` reads this field of a struct returned by a call as an array of as many dimensions as the body indexes it (or a local bound to it) with, and the field has another number of them, or holds structs: bind it with its type, as in `let w: [[f64; 3]; 2] = r.w;`"
        ),
    }
}

/// The number of the first scalar of the field `path` of `T`, in a `const` block: a compile
/// error at the read unless it is an array of `f64` of the lengths `lens`, the type written
/// where it is bound (`let w: [f64; 3] = r.w;`) or of the variable it is assigned to.
#[doc(hidden)]
pub const fn field_shaped<T: Differentiable>(path: &[&str], lens: &[usize]) -> usize {
    let at = field_array::<T>(path, lens.len());
    let Some((_, dims)) = field_entry::<T>(path) else { return at };
    let mut k = 0;
    while k < lens.len() {
        if dims.lens[k] != lens[k] {
            panic!(
                "`#[grad]` reads this array field of a struct returned by a call as the type of where it goes (the type written on the `let`, or of the variable assigned), and the field's lengths are not those"
            );
        }
        k += 1;
    }
    at
}

/// The length of dimension `k` of the array field `path` of `T`, in a `const` block (see
/// [`field_array`], which checks the field first).
#[doc(hidden)]
pub const fn field_dim<T: Differentiable>(path: &[&str], k: usize) -> usize {
    match field_entry::<T>(path) {
        Some((_, dims)) if k < dims.rank && k < MAX_RANK => dims.lens[k],
        _ => 0,
    }
}

/// The number of the first scalar of the field `path` of `T` (`r.v`, `r.inner.w`), in a
/// `const` block: a field of a struct returned by a call that the body passes only whole (to
/// calls, or into the struct it returns) and never indexes, copied out as its scalars laid flat
/// ([`field_flat_len`] of them) whatever its type; a compile error at the read when it is not
/// differentiated.
#[doc(hidden)]
pub const fn field_flat_at<T: Differentiable>(path: &[&str]) -> usize {
    match field_entry::<T>(path) {
        None => field_index(T::FIELDS, path[0]),
        Some((at, _)) => at,
    }
}

/// How many differentiated scalars the field `path` of `T` holds (see [`field_flat_at`]).
#[doc(hidden)]
pub const fn field_flat_len<T: Differentiable>(path: &[&str]) -> usize {
    match path {
        [name] if T::TREE.is_empty() => field_len::<T>(name),
        _ => field_path_len::<T>(path),
    }
}

/// An `f64`, or an array of them: a field that `#[grad]` holds as its scalars laid flat (a
/// field copied whole into the returned struct, or passed whole to a call, that the body never
/// indexes) and rebuilds, in the type of where it goes, with [`shaped`].
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`#[grad]` holds this field as its scalars laid flat and rebuilds it as `{Self}`, which is not an `f64` or an array of them",
    label = "a field passed whole, or copied whole into a struct literal, and never indexed",
    note = "a struct's fields that are not differentiated are not among its scalars, so `#[grad]` does not rebuild a struct from them: read the nested struct's fields one by one (`m.inner.c`)"
)]
pub trait FlatField: Tangent {}

impl FlatField for f64 {}

impl<T: FlatField, const N: usize> FlatField for [T; N] {}

/// The `f64` or array whose scalars are `v`, laid flat, its type that of where it goes (a field
/// of a struct literal, a parameter of a call): see [`FlatField`].
#[doc(hidden)]
pub fn shaped<T: FlatField>(v: &[f64]) -> T {
    let mut x = T::zero();
    for (k, e) in v.iter().enumerate() {
        x.set(k, *e);
    }
    x
}

/// Whether `a` and `b` are the same bytes (in a `const fn`).
const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut k = 0;
    while k < a.len() {
        if a[k] != b[k] {
            return false;
        }
        k += 1;
    }
    true
}

/// Adds `v`, scalars laid flat, to those of `x`.
#[doc(hidden)]
pub fn add_flat<T: Differentiable>(x: &mut T, v: &[f64]) {
    add_flat_at(x, 0, v);
}

/// Adds `v`, scalars laid flat, to those of `x` from its `at`-th: the gradient of a field passed
/// whole to a call (`at` is [`field_at`]).
#[doc(hidden)]
pub fn add_flat_at<T: Differentiable>(x: &mut T, at: usize, v: &[f64]) {
    for (k, e) in v.iter().enumerate() {
        x.set(at + k, x.get(at + k) + e);
    }
}

/// The number of the first scalar of the field `name` of `T` among its differentiated scalars,
/// and how many it has: `(0, 0)` for a field that is not differentiated (`#[no_grad]`, or of
/// another type), whose scalars a gradient does not hold.
const fn field_span(fields: &[(&str, usize)], len: usize, name: &str) -> (usize, usize) {
    let mut k = 0;
    while k < fields.len() {
        let (field, at) = fields[k];
        if same(field.as_bytes(), name.as_bytes()) {
            let end = if k + 1 < fields.len() { fields[k + 1].1 } else { len };
            return (at, end - at);
        }
        k += 1;
    }
    (0, 0)
}

/// The number of the first differentiated scalar of the field `name` of `T` (0 for a field
/// that is not differentiated): where the generated code writes the gradient of a field passed
/// whole to a call, `field_at::<Model>("inner")`.
#[doc(hidden)]
pub const fn field_at<T: Differentiable>(name: &str) -> usize {
    field_span(T::FIELDS, T::LEN, name).0
}

/// How many differentiated scalars the field `name` of `T` holds (0 for a field that is not
/// differentiated): the length of the generated code's array of them,
/// `[f64; field_len::<Model>("inner")]`, for a field passed whole to a call whose type the macro
/// cannot name.
#[doc(hidden)]
pub const fn field_len<T: Differentiable>(name: &str) -> usize {
    field_span(T::FIELDS, T::LEN, name).1
}

/// The number of the first differentiated scalar of the field `path` of `T` (a field of a
/// nested struct, `["a", "w"]` for `m.a.w`) and how many it has, through
/// [`Differentiable::TREE`]: `(0, 0)` for a field that is not differentiated; a compile error
/// (in a `const`) for a struct whose `TREE` is left empty (a hand-written `Differentiable`).
const fn field_path_span<T: Differentiable>(path: &[&str]) -> (usize, usize) {
    let (mut fields, mut start, mut end, mut k) = (T::TREE, 0, T::LEN, 0);
    while k < path.len() {
        if fields.is_empty() && end > start {
            panic!(
                "`#[grad]` passes this field of a nested struct whole to a call, held as its differentiated scalars, which it finds through `Differentiable::TREE`, and the struct's `Differentiable` (written by hand) leaves `TREE` empty: derive `Differentiable`, or copy the field into a struct value of the body"
            );
        }
        let mut j = 0;
        while j < fields.len() && !same(fields[j].name.as_bytes(), path[k].as_bytes()) {
            j += 1;
        }
        if j == fields.len() {
            return (0, 0);
        }
        let base = start;
        start = base + fields[j].at;
        if j + 1 < fields.len() {
            end = base + fields[j + 1].at;
        }
        fields = fields[j].fields;
        k += 1;
    }
    (start, end - start)
}

/// The number of the first differentiated scalar of the field `path` of `T`, a field of a
/// nested struct (0 for a field that is not differentiated): where the generated code writes
/// the gradient of such a field passed whole to a call, `field_path_at::<Model>(&["a", "w"])`.
#[doc(hidden)]
pub const fn field_path_at<T: Differentiable>(path: &[&str]) -> usize {
    field_path_span::<T>(path).0
}

/// How many differentiated scalars the field `path` of `T` holds, a field of a nested struct
/// (0 for a field that is not differentiated): the length of the generated code's array of
/// them, `[f64; field_path_len::<Model>(&["a", "w"])]`.
#[doc(hidden)]
pub const fn field_path_len<T: Differentiable>(path: &[&str]) -> usize {
    field_path_span::<T>(path).1
}

/// The lengths of an array's dimensions (nested arrays), for the generated code's loops over an
/// array field of a struct, whose lengths the macro cannot read.
#[doc(hidden)]
pub trait Shape {
    /// The length of dimension `depth` (0 past the last).
    fn dim(depth: usize) -> usize;
}

impl Shape for f64 {
    fn dim(_: usize) -> usize {
        0
    }
}

impl<T: Shape, const N: usize> Shape for [T; N] {
    fn dim(depth: usize) -> usize {
        match depth {
            0 => N,
            d => T::dim(d - 1),
        }
    }
}

/// The length of dimension `depth` of `array` (`len_at(&m.w, 1)` is `m.w[0].len()`, even when
/// `m.w` is empty).
#[doc(hidden)]
pub fn len_at<T: Shape>(_: &T, depth: usize) -> usize {
    T::dim(depth)
}

/// An `f64`, or an array of them, every scalar one value: the generated code's arrays of the
/// type of a struct's array field (or of a row of it), whose lengths the macro cannot write.
#[doc(hidden)]
pub trait Filled: Sized {
    /// Every scalar `value`.
    fn filled(value: f64) -> Self;
}

impl Filled for f64 {
    fn filled(value: f64) -> Self {
        value
    }
}

impl<T: Filled, const N: usize> Filled for [T; N] {
    fn filled(value: f64) -> Self {
        core::array::from_fn(|_| T::filled(value))
    }
}

/// The type of an array's elements `K` dimensions down (`Rows<1>` of `[[f64; 2]; 3]` is
/// `[f64; 2]`).
#[doc(hidden)]
pub trait Rows<const K: usize> {
    /// The elements' type.
    type Row;
}

impl<A> Rows<0> for A {
    type Row = A;
}

/// `Rows<K>` for `[T; N]` from `Rows<K - 1>` for `T`.
macro_rules! rows {
    ($($k:literal => $prev:literal),*) => {$(
        impl<T: Rows<$prev>, const N: usize> Rows<$k> for [T; N] {
            type Row = <T as Rows<$prev>>::Row;
        }
    )*};
}

rows!(1 => 0, 2 => 1, 3 => 2, 4 => 3, 5 => 4, 6 => 5, 7 => 6, 8 => 7);

/// The array of the type of `array`'s elements `K` dimensions down, every scalar `value`
/// (`filled_at::<1, _>(&m.x, 0.0)` is a zero row of the field `m.x`).
#[doc(hidden)]
pub fn filled_at<const K: usize, A: Rows<K>>(array: &A, value: f64) -> A::Row
where
    A::Row: Filled,
{
    let _ = array;
    <A::Row as Filled>::filled(value)
}

/// How many scalars the field that `field` reads holds (`field_value_len(|s: &S| &s.m)`), in a
/// `const` block: a field whose rows `#[grad]` passes to calls (`g(s.m[i])`), held as its
/// scalars laid flat. The closure names the field's type for rustc, which the macro cannot.
#[doc(hidden)]
pub const fn field_value_len<S, F: Tangent>(field: fn(&S) -> &F) -> usize {
    let _ = field;
    F::LEN
}

/// How many scalars a row of the field that `field` reads holds, the field indexed `k` times
/// (`g(s.m[i])` is `k = 1`), in a `const` block: `#[grad]` copies a row passed to a call out of
/// the field's scalars laid flat, and rebuilds it in the type of the callee's parameter
/// ([`shaped`]). A compile error at the row for a field that is not an array of `f64` of at
/// least `k` dimensions.
#[doc(hidden)]
pub const fn field_row_len<S, F: Tangent>(field: fn(&S) -> &F, k: usize) -> usize {
    let _ = field;
    let dims = F::DIMS;
    if dims.of_struct || dims.rank > MAX_RANK || k > dims.rank || k == 0 {
        panic!(
            "`#[grad]` passes this row of an array field to a call as its scalars laid flat, rebuilt in the type of the callee's parameter, which it does for a field that is an array of `f64` (of at most four dimensions) indexed at most as many times as it has dimensions: bind the row with its type first, as in `let r: [f64; 2] = s.m[0];`"
        );
    }
    let (mut n, mut j) = (1, k);
    while j < dims.rank {
        n *= dims.lens[j];
        j += 1;
    }
    n
}

/// The length of dimension `k` of the array field that `field` reads, in a `const` block (see
/// [`field_row_len`], which checks the field first).
#[doc(hidden)]
pub const fn field_row_dim<S, F: Tangent>(field: fn(&S) -> &F, k: usize) -> usize {
    let _ = field;
    let dims = F::DIMS;
    if k < dims.rank && k < MAX_RANK { dims.lens[k] } else { 0 }
}

/// 1, in a `const` block, when the field that `field` reads indexed `k` times is one `f64`: a
/// field whose rows `#[grad]` passes to calls, read elsewhere as an `f64` (an argument of a
/// closure, of a function that is not differentiated); a compile error at the read for a row.
#[doc(hidden)]
pub const fn field_element<S, F: Tangent>(field: fn(&S) -> &F, k: usize) -> usize {
    let _ = field;
    let dims = F::DIMS;
    if dims.of_struct || k != dims.rank {
        panic!(
            "`#[grad]` reads this row of an array field as an `f64` here (it passes rows of the field to calls elsewhere, rebuilt in the type of the callee's parameter, but not here): index it as deep as its elements, or bind the row with its type first, as in `let r: [f64; 2] = s.m[0];`"
        );
    }
    1
}

/// Adds `v`, scalars laid flat, to those of `x` from its `at`-th when the field they are the
/// partial of is differentiated (holds `len` of them, as many as `v`; a field that is not
/// differentiated holds none): the gradient of a field whose rows are passed to calls.
#[doc(hidden)]
pub fn add_field_flat<T: Differentiable>(x: &mut T, at: usize, len: usize, v: &[f64]) {
    if len == v.len() {
        add_flat_at(x, at, v);
    }
}

/// An `f64` read from a field of a struct parameter that the body passes whole to a call and
/// never indexes, which `#[grad]` takes for an `f64`: a field that is an array is reported here,
/// with how to tell the macro its type.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`#[grad]` takes this field for an `f64`, and it is `{Self}`",
    label = "passed whole to a call, and never indexed in the body",
    note = "a macro sees no types: it reads a field's type from its uses; bind an array field with its type before passing it, as in `let c: [f64; 3] = s.c;` then `g(c)` (a row: `let r: [f64; 2] = s.m[0];`)"
)]
pub trait ScalarField {
    /// The value.
    fn value(self) -> f64;
}

impl ScalarField for f64 {
    fn value(self) -> f64 {
        self
    }
}

/// An array field of a struct parameter whose row (or itself) the body passes whole to a call,
/// of as many dimensions (`D`) as the body indexes it with: a field with more (a row of a
/// generic struct's matrix passed whole, `g(s.m[0])`, the matrix never indexed twice; a row of
/// a concrete struct's is held laid flat) is reported here, with how to tell the macro the
/// row's type.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`#[grad]` takes this field for an array of fewer dimensions than `{Self}`",
    label = "a row of it passed whole to a call, and never indexed as deep as its elements",
    note = "a macro sees no types: it reads a field's type from its uses; a row passed whole to a call is held as the field's scalars and rebuilt in the callee's type, but not a row of a generic struct's field (stable Rust does not compute its length in a type) nor one read elsewhere as an `f64`; bind the row with its type before passing it, as in `let r: [f64; 2] = s.m[0];` then `g(r)`, or pass the field itself (`g(&s.m)`)"
)]
pub trait ArrayField<const D: usize> {}

impl<const N: usize> ArrayField<1> for [f64; N] {}

impl<const N: usize, const M: usize> ArrayField<2> for [[f64; N]; M] {}

impl<const N: usize, const M: usize, const L: usize> ArrayField<3> for [[[f64; N]; M]; L] {}

/// Checks that the array field `x` has `D` dimensions (see [`ArrayField`]).
#[doc(hidden)]
pub fn array_field<A: ArrayField<D>, const D: usize>(x: &A) {
    let _ = x;
}

/// The field `x`, an `f64` (see [`ScalarField`]).
#[doc(hidden)]
pub fn scalar_field<T: ScalarField>(x: T) -> f64 {
    x.value()
}

/// The field that `field` reads of each element of `elements`, as one array: an array of structs
/// (`ps: &[P; N]`) is read as a struct of arrays, each field of the elements an array
/// (`gather(ps, |e| e.x)` is `[ps[0].x, ps[1].x, ...]`).
#[doc(hidden)]
pub fn gather<P, T, const N: usize>(elements: &[P; N], field: impl Fn(&P) -> T) -> [T; N] {
    core::array::from_fn(|i| field(&elements[i]))
}

/// Writes `values[i]` into the field that `field` reaches of each element `i` of `elements`:
/// the gradient of an array of structs, written field by field from the arrays its fields are
/// ([`gather`]'s reverse).
#[doc(hidden)]
pub fn scatter<P, T: Copy, const N: usize>(
    elements: &mut [P; N],
    values: &[T; N],
    field: impl Fn(&mut P) -> &mut T,
) {
    for (e, v) in elements.iter_mut().zip(values) {
        *field(e) = *v;
    }
}

/// The zero of the derivatives of an array of structs, element by element (see
/// [`Differentiable::zero_like`]); the bound names the element, where a struct that does not
/// derive `Differentiable` is reported.
#[doc(hidden)]
pub fn zero_elements<P: Differentiable, const N: usize>(elements: &[P; N]) -> [P; N] {
    core::array::from_fn(|i| elements[i].zero_like())
}

/// The part of a direction of an array of structs that the derivatives read (see
/// [`Differentiable::tangent`]).
#[doc(hidden)]
pub fn tangent_elements<P: Differentiable, const N: usize>(elements: &[P; N]) -> [P; N] {
    core::array::from_fn(|i| elements[i].tangent())
}

/// Clears the fields that are not differentiated of every element (see
/// [`Differentiable::clear_constants`]).
#[doc(hidden)]
pub fn clear_elements<P: Differentiable, const N: usize>(elements: &mut [P; N]) {
    elements.iter_mut().for_each(Differentiable::clear_constants);
}

/// How many differentiated scalars an array of `n` structs `P` holds.
#[doc(hidden)]
pub const fn elements_len<P: Differentiable>(n: usize) -> usize {
    n * P::LEN
}

/// Adds `v`, scalars laid flat element by element, to those of the array of structs `x`.
#[doc(hidden)]
pub fn add_flat_elements<P: Differentiable, const N: usize>(x: &mut [P; N], v: &[f64]) {
    let Some(len) = core::num::NonZeroUsize::new(P::LEN) else { return };
    for (k, e) in v.iter().enumerate() {
        if let Some(p) = x.get_mut(k / len.get()) {
            let j = k % len.get();
            p.set(j, p.get(j) + e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Differentiable, Dims, FieldTree, Tangent};

    /// A struct `{ k: f64, a: { b: f64, w: [f64; 3] }, z: f64 }` as its `TREE` numbers it.
    struct Deep;

    const fn leaf(name: &'static str, at: usize, dims: Dims) -> FieldTree {
        FieldTree { name, at, fields: &[], dims }
    }

    impl Differentiable for Deep {
        const LEN: usize = 6;
        const TREE: &'static [FieldTree] = &[
            leaf("k", 0, Dims::SCALAR),
            FieldTree {
                name: "a",
                at: 1,
                fields: &[leaf("b", 0, Dims::SCALAR), leaf("w", 1, Dims::SCALAR.outer(3))],
                dims: Dims::STRUCT,
            },
            leaf("z", 5, Dims::SCALAR),
        ];
        fn zero_like(&self) -> Self {
            Deep
        }
        fn zero() -> Self {
            Deep
        }
        fn get(&self, _: usize) -> f64 {
            0.0
        }
        fn set(&mut self, _: usize, _: f64) {}
        fn tangent(&self) -> Self {
            Deep
        }
        fn clear_constants(&mut self) {}
    }

    #[test]
    fn a_field_of_a_nested_struct_is_found_with_its_length() {
        let span = |path: &[&str]| super::field_path_span::<Deep>(path);
        assert_eq!(span(&["a", "w"]), (2, 3));
        assert_eq!(span(&["a", "b"]), (1, 1));
        assert_eq!(span(&["a"]), (1, 4));
        assert_eq!((span(&["z"]), span(&["k"])), ((5, 1), (0, 1)));
        // Not differentiated (not in `TREE`): no scalars.
        assert_eq!((span(&["a", "rate"]), span(&["n"])), ((0, 0), (0, 0)));
        assert_eq!(super::field_path_at::<Deep>(&["a", "w"]), 2);
        assert_eq!(super::field_path_len::<Deep>(&["a", "w"]), 3);
    }

    #[test]
    fn arrays_number_their_scalars_in_row_major_order() {
        let mut a = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
        assert_eq!(<[[f64; 3]; 2] as Tangent>::LEN, 6);
        let read: Vec<f64> = (0..6).map(|k| Tangent::get(&a, k)).collect();
        assert_eq!(read, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert!(Tangent::get(&a, 6).is_nan());
        Tangent::set(&mut a, 4, -5.0);
        Tangent::set(&mut a, 9, 7.0);
        assert_eq!(a, [[1.0, 2.0, 3.0], [4.0, -5.0, 6.0]]);
        assert_eq!(Tangent::zero_like(&a), [[0.0; 3]; 2]);
        assert_eq!(Tangent::tangent(&a), a);
        assert_eq!((super::len_at(&a, 0), super::len_at(&a, 1)), (2, 3));
        let empty: [[f64; 0]; 2] = [[], []];
        assert!(Tangent::get(&empty, 0).is_nan());
    }
}
