//! The types of IR values: scalars, booleans, and fixed-size arrays of either; and the scalar
//! type of a function ([`Scalar`]), which every "`f64`" of the IR means. A value cast with `as` to
//! the other primitive float (`f64` in an `f32` function, `f32` in an `f64` one) has the type
//! [`Ty::Other`]; a generic scalar has no other type.

use super::Int;

/// The scalar type of a whole function: `f64`, `f32`, or a type parameter bounded by
/// `num_traits::Float`. The IR's [`Ty::F64`] and literals mean "the scalar": a literal is kept as
/// an `f64` holding the value the scalar type gives it, and arithmetic on literals is evaluated at
/// compile time only where that gives the scalar's own result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scalar {
    /// `f64`.
    #[default]
    F64,
    /// `f32`: literals are `f32` values (held exactly in an `f64`).
    F32,
    /// A type parameter `T: Float`: a literal `c` is `T::from(c)`, so it is exactly `c` at `f64`
    /// and `c` rounded at `f32`; arithmetic on literals is evaluated only where the result is the
    /// same at both.
    Generic,
}

impl Scalar {
    /// The literal `x` as this scalar type holds it: `x` rounded to `f32` for `f32`.
    pub fn round(self, x: f64) -> f64 {
        match self {
            Scalar::F32 => f64::from(x as f32),
            Scalar::F64 | Scalar::Generic => x,
        }
    }

    /// Whether `x` means the same value at every width this scalar can have.
    fn exact(self, x: f64) -> bool {
        match self {
            Scalar::F64 | Scalar::F32 => true,
            Scalar::Generic => x.is_nan() || f64::from(x as f32) == x,
        }
    }

    /// The literal that `op` gives on the literals `args`, as the scalar type computes it at run
    /// time, or `None` when the result cannot be written as one literal (for a generic scalar, a
    /// value that differs between `f32` and `f64`). For `f32`, the operation on two `f32` values
    /// computed in `f64` and rounded to `f32` is the `f32` operation itself: `+ - * /` in `f64`
    /// are exact enough that rounding twice gives the correctly rounded `f32` result.
    pub fn fold(self, args: &[f64], op: impl Fn(&[f64]) -> f64) -> Option<f64> {
        let args: Vec<f64> = args.iter().map(|a| self.round(*a)).collect();
        if !args.iter().all(|a| self.exact(*a)) {
            return None;
        }
        let value = self.round(op(&args));
        // An `f64` result that is an `f32` value is the `f32` result too: it is the nearest `f64`
        // to the exact result, so no `f32` is nearer.
        self.exact(value).then_some(value)
    }

    /// Whether `x` is a normal number of this scalar type (of `f32` and `f64`, for a generic
    /// scalar): scaling by a power of two is then exact.
    pub fn is_normal(self, x: f64) -> bool {
        match self {
            Scalar::F64 => x.is_normal(),
            Scalar::F32 | Scalar::Generic => x.is_normal() && (x as f32).is_normal(),
        }
    }
}

/// The element type of an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    /// `f64`
    F64,
    /// The other float ([`Ty::Other`]): storage for values of the other type.
    Other,
    /// `bool`
    Bool,
    /// What a call's `g_fwd` keeps for its `g_rev` (see [`Ty::Residuals`]).
    Residuals,
}

/// The shape of an array: its element type and its lengths, outermost first.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    /// The scalar type of the elements.
    pub elem: Elem,
    /// The lengths, outermost first (`[[f64; K]; M]` is `[M, K]`).
    pub dims: Vec<Int>,
}

/// The type of an IR value.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    /// An `f64` scalar (the function's scalar type).
    F64,
    /// A scalar of the other primitive float type: `f64` in an `f32` function, `f32` in an `f64`
    /// one (a value cast with `as`). Its derivatives have its type too.
    Other,
    /// A boolean.
    Bool,
    /// A fixed-size array.
    Array(Shape),
    /// The residuals of a call of a vector callee: what its `g_fwd` returned for its `g_rev`.
    /// Only rustc knows the type (a tuple of the callee's values, `Copy`), so the generated code
    /// never writes it, and the macro does not know its size: it counts 0 bytes against the
    /// stack budget.
    Residuals,
}

impl Ty {
    /// An array of `dims` elements of type `elem`.
    pub fn array(elem: Elem, dims: Vec<Int>) -> Self {
        Ty::Array(Shape { elem, dims })
    }

    /// The bytes a value of this type takes on the stack (a scalar counts 8, as a slot).
    pub fn bytes(&self) -> Int {
        match self.shape() {
            None if *self == Ty::Residuals => Int::lit(0),
            None => Int::lit(8),
            Some(s) => {
                let each = Int::lit(match s.elem {
                    Elem::F64 | Elem::Other => 8,
                    Elem::Bool => 1,
                    Elem::Residuals => 0,
                });
                s.dims.iter().fold(each, |acc, d| acc.times(d))
            }
        }
    }

    /// Whether this is an array whose length is known only at run time: a slice parameter's, the
    /// only array length that reads a parameter (`x.len()`; a struct's array field, whose length
    /// rustc infers, is not one). Its values live in the caller's buffers.
    pub fn run_time_length(&self) -> bool {
        self.shape().is_some_and(|s| s.dims.iter().any(|d| !d.params.is_empty() && !d.inferred))
    }

    /// Whether values of this type have derivatives (`f64` and arrays of `f64`).
    pub fn is_real(&self) -> bool {
        match self {
            Ty::F64 | Ty::Other => true,
            Ty::Bool | Ty::Residuals => false,
            Ty::Array(s) => matches!(s.elem, Elem::F64 | Elem::Other),
        }
    }

    /// Whether this is a scalar float: [`Ty::F64`] or [`Ty::Other`].
    pub fn is_float(&self) -> bool {
        matches!(self, Ty::F64 | Ty::Other)
    }

    /// The other float type of a scalar float (`None` for any other type).
    pub fn flipped(&self) -> Option<Ty> {
        match self {
            Ty::F64 => Some(Ty::Other),
            Ty::Other => Some(Ty::F64),
            _ => None,
        }
    }

    /// The shape, for an array.
    pub fn shape(&self) -> Option<&Shape> {
        match self {
            Ty::Array(s) => Some(s),
            _ => None,
        }
    }

    /// Whether it holds a field's scalars laid flat, whatever the field's type (see
    /// [`super::Int::flat`]).
    pub fn is_flat_field(&self) -> bool {
        matches!(self, Ty::Array(a) if a.dims.len() == 1 && a.dims[0].flat)
    }

    /// The type of `self[index]` for an index of `depth` dimensions; `None` if it has fewer.
    pub fn indexed(&self, depth: usize) -> Option<Ty> {
        let s = self.shape()?;
        match depth {
            0 => Some(self.clone()),
            d if d < s.dims.len() => Some(Ty::array(s.elem, s.dims[d..].to_vec())),
            d if d == s.dims.len() => Some(s.elem.scalar()),
            _ => None,
        }
    }

    /// The array of `len` values of this type.
    pub fn repeated(&self, len: Int) -> Ty {
        match self {
            Ty::F64 => Ty::array(Elem::F64, vec![len]),
            Ty::Other => Ty::array(Elem::Other, vec![len]),
            Ty::Bool => Ty::array(Elem::Bool, vec![len]),
            Ty::Residuals => Ty::array(Elem::Residuals, vec![len]),
            Ty::Array(s) => {
                let mut dims = vec![len];
                dims.extend(s.dims.iter().cloned());
                Ty::array(s.elem, dims)
            }
        }
    }
}

impl Elem {
    /// The scalar type of one element.
    pub fn scalar(self) -> Ty {
        match self {
            Elem::F64 => Ty::F64,
            Elem::Other => Ty::Other,
            Elem::Bool => Ty::Bool,
            Elem::Residuals => Ty::Residuals,
        }
    }
}
