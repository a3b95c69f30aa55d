//! The types of IR values: `f64` scalars, booleans, and fixed-size arrays of either.

use super::Int;

/// The element type of an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    /// `f64`
    F64,
    /// `bool`
    Bool,
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
    /// An `f64` scalar.
    F64,
    /// A boolean.
    Bool,
    /// A fixed-size array.
    Array(Shape),
}

impl Ty {
    /// An array of `dims` elements of type `elem`.
    pub fn array(elem: Elem, dims: Vec<Int>) -> Self {
        Ty::Array(Shape { elem, dims })
    }

    /// The bytes a value of this type takes on the stack (a scalar counts 8, as a slot).
    pub fn bytes(&self) -> Int {
        match self.shape() {
            None => Int::lit(8),
            Some(s) => {
                let each = Int::lit(match s.elem {
                    Elem::F64 => 8,
                    Elem::Bool => 1,
                });
                s.dims.iter().fold(each, |acc, d| acc.times(d))
            }
        }
    }

    /// Whether values of this type have derivatives (`f64` and arrays of `f64`).
    pub fn is_real(&self) -> bool {
        match self {
            Ty::F64 => true,
            Ty::Bool => false,
            Ty::Array(s) => s.elem == Elem::F64,
        }
    }

    /// The shape, for an array.
    pub fn shape(&self) -> Option<&Shape> {
        match self {
            Ty::Array(s) => Some(s),
            _ => None,
        }
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
            Ty::Bool => Ty::array(Elem::Bool, vec![len]),
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
            Elem::Bool => Ty::Bool,
        }
    }
}
