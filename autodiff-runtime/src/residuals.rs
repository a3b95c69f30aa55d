//! The zero of a call's residuals (what a vector callee's `g_fwd` returns for its `g_rev`): the
//! first value of the storage that a caller's loop keeps them in, one slot per iteration, whose
//! type rustc infers from the store. `#[grad]` packs a callee's residuals into tuples of at most
//! twelve parts (nested when there are more), of `f64`, `f32`, `bool` and arrays of them.

/// A value with a zero that a loop's storage starts from: scalars, `bool`, `()`, fixed-size
/// arrays and tuples (up to twelve parts) of them.
pub trait Residuals: Copy {
    /// Every scalar zero, every `bool` false.
    fn zeroed() -> Self;
}

impl Residuals for f64 {
    fn zeroed() -> Self {
        0.0
    }
}

impl Residuals for f32 {
    fn zeroed() -> Self {
        0.0
    }
}

impl Residuals for bool {
    fn zeroed() -> Self {
        false
    }
}

impl Residuals for () {
    fn zeroed() -> Self {}
}

impl<T: Residuals, const N: usize> Residuals for [T; N] {
    fn zeroed() -> Self {
        [T::zeroed(); N]
    }
}

macro_rules! tuples {
    ($(($($t:ident),+))*) => {$(
        impl<$($t: Residuals),+> Residuals for ($($t,)+) {
            fn zeroed() -> Self {
                ($($t::zeroed(),)+)
            }
        }
    )*};
}

tuples! {
    (A)
    (A, B)
    (A, B, C)
    (A, B, C, D)
    (A, B, C, D, E)
    (A, B, C, D, E, F)
    (A, B, C, D, E, F, G)
    (A, B, C, D, E, F, G, H)
    (A, B, C, D, E, F, G, H, I)
    (A, B, C, D, E, F, G, H, I, J)
    (A, B, C, D, E, F, G, H, I, J, K)
    (A, B, C, D, E, F, G, H, I, J, K, L)
}

#[cfg(test)]
mod tests {
    use super::Residuals;

    #[test]
    fn storage_of_inferred_residuals_starts_from_zeros() {
        let mut saved = [Residuals::zeroed(); 3];
        assert_eq!(saved[2], (0.0, [false; 40], (0.0_f32, [[0.0; 2]; 1])));
        saved[1] = (1.0, [true; 40], (2.0, [[3.0, 4.0]]));
        assert_eq!(saved[1].2.1[0][1], 4.0);
    }
}
