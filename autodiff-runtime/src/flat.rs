//! Flattening of derivative values: a float, an array of them (nested to any depth) or a tuple
//! of such, read and written as one list of scalars in row-major order. The generated
//! `f_jacobian` and `f_hessian` lay one sweep's result out as a row or a column with [`scalar`]
//! (or [`write_parts`], a whole row) and [`set_unit`], over the parts of the result (a tuple's
//! components, which the macro names one by one, each seen as a slice), so that no trait on
//! tuples, and no limit on their length, is involved, and so that they serve every scalar type
//! (`f64`, `f32`, a generic `T: Float`).

use num_traits::Float;

/// The zero of `T`: the direction a caller's `_jvp` and `_hvp` pass for a constant argument of a
/// differentiated parameter whose type the macro cannot read from the tokens (the callee's
/// signature gives it).
pub fn zero<T: Flat>() -> T {
    T::zero()
}

/// The zero array of `S`s of type `A` (`[S; N]`, nested up to four deep): the direction a caller
/// generic over `S: Float` passes for a constant array argument whose type the macro cannot read.
pub fn zeros<S: Float, A: Zeros<S>>() -> A {
    A::zeros()
}

/// Arrays of a scalar type `S`, nested to four levels: what [`zeros`] makes. (The levels are
/// separate impls, which cannot overlap since `S` would have to be an array of itself; a blanket
/// impl over `S: Float` and its arrays would overlap, `Float` being a foreign trait.)
pub trait Zeros<S>: Sized {
    /// Every element zero.
    fn zeros() -> Self;
}

impl<S: Float, const N: usize> Zeros<S> for [S; N] {
    fn zeros() -> Self {
        [S::zero(); N]
    }
}

impl<S: Float, const N: usize, const K: usize> Zeros<S> for [[S; K]; N] {
    fn zeros() -> Self {
        [[S::zero(); K]; N]
    }
}

impl<S: Float, const N: usize, const K: usize, const J: usize> Zeros<S> for [[[S; J]; K]; N] {
    fn zeros() -> Self {
        [[[S::zero(); J]; K]; N]
    }
}

impl<S: Float, const N: usize, const K: usize, const J: usize, const I: usize> Zeros<S>
    for [[[[S; I]; J]; K]; N]
{
    fn zeros() -> Self {
        [[[[S::zero(); I]; J]; K]; N]
    }
}

/// A value made of `f64`s (or `f32`s, read and written through `f64`, which holds every `f32`
/// exactly): scalars, fixed-size arrays of them, tuples of those.
pub trait Flat: Copy {
    /// How many `f64`s it holds.
    const LEN: usize;

    /// The value with every `f64` zero.
    fn zero() -> Self;

    /// The `k`-th `f64`, in row-major order (tuples in field order).
    fn get(&self, k: usize) -> f64;

    /// Sets the `k`-th `f64`.
    fn set(&mut self, k: usize, value: f64);

    /// Writes its `f64`s, in row-major order, into `out` (as many as both hold).
    fn write(&self, out: &mut [f64]);

    /// The value with every `f64` zero except the `k`-th, which is one.
    fn unit(k: usize) -> Self {
        let mut u = Self::zero();
        u.set(k, 1.0);
        u
    }
}

impl Flat for f64 {
    const LEN: usize = 1;

    fn zero() -> Self {
        0.0
    }

    fn get(&self, _: usize) -> f64 {
        *self
    }

    fn set(&mut self, _: usize, value: f64) {
        *self = value;
    }

    fn write(&self, out: &mut [f64]) {
        if let Some(o) = out.first_mut() {
            *o = *self;
        }
    }
}

impl Flat for f32 {
    const LEN: usize = 1;

    fn zero() -> Self {
        0.0
    }

    fn get(&self, _: usize) -> f64 {
        f64::from(*self)
    }

    fn set(&mut self, _: usize, value: f64) {
        *self = value as f32;
    }

    fn write(&self, out: &mut [f64]) {
        if let Some(o) = out.first_mut() {
            *o = f64::from(*self);
        }
    }
}

impl<T: Flat, const N: usize> Flat for [T; N] {
    const LEN: usize = N * T::LEN;

    fn zero() -> Self {
        [T::zero(); N]
    }

    fn get(&self, k: usize) -> f64 {
        self[k / T::LEN].get(k % T::LEN)
    }

    fn set(&mut self, k: usize, value: f64) {
        self[k / T::LEN].set(k % T::LEN, value);
    }

    fn write(&self, out: &mut [f64]) {
        if T::LEN == 0 {
            return;
        }
        for (t, chunk) in self.iter().zip(out.chunks_mut(T::LEN)) {
            t.write(chunk);
        }
    }
}

/// Writes the scalars of `parts` laid end to end into `out`, as many as it holds: a sweep's
/// result as one row, with one copy per part (not one call per scalar, as [`scalar`] takes).
#[inline]
pub fn write_parts<S: Copy>(parts: &[&[S]], out: &mut [S]) {
    let mut rest = out;
    for p in parts {
        let n = p.len().min(rest.len());
        let (head, tail) = rest.split_at_mut(n);
        head.copy_from_slice(&p[..n]);
        rest = tail;
    }
}

/// The `k`-th scalar of `parts` laid end to end (NaN past the end, which the generated code never
/// reads). Each part is a value of the result seen as a flat slice in row-major order
/// (`core::slice::from_ref(&hv.0)` for a scalar, `&hv.1` for an array, `hv.2.as_flattened()` for
/// a matrix), so that no trait on the parts, and no limit on their number, is involved.
#[inline]
pub fn scalar<S: Float>(parts: &[&[S]], k: usize) -> S {
    let mut k = k;
    for p in parts {
        if k < p.len() {
            return p[k];
        }
        k -= p.len();
    }
    S::nan()
}

/// Sets the `k`-th scalar of `parts` laid end to end to one: with every part zero before, they
/// are then the `k`-th unit vector.
#[inline]
pub fn set_unit<S: Float>(parts: &mut [&mut [S]], k: usize) {
    let mut k = k;
    for p in parts.iter_mut() {
        if k < p.len() {
            p[k] = S::one();
            return;
        }
        k -= p.len();
    }
}

macro_rules! tuples {
    ($(($($t:ident $i:tt),+))*) => {$(
        impl<$($t: Flat),+> Flat for ($($t,)+) {
            const LEN: usize = 0 $(+ $t::LEN)+;

            fn zero() -> Self {
                ($($t::zero(),)+)
            }

            fn get(&self, k: usize) -> f64 {
                let mut k = k;
                $(
                    if k < $t::LEN {
                        return self.$i.get(k);
                    }
                    k -= $t::LEN;
                )+
                let _ = k;
                f64::NAN
            }

            fn set(&mut self, k: usize, value: f64) {
                let mut k = k;
                $(
                    if k < $t::LEN {
                        return self.$i.set(k, value);
                    }
                    k -= $t::LEN;
                )+
                let _ = k;
            }

            fn write(&self, out: &mut [f64]) {
                let mut rest = out;
                $(
                    let (head, tail) = rest.split_at_mut($t::LEN.min(rest.len()));
                    self.$i.write(head);
                    rest = tail;
                )+
                let _ = rest;
            }
        }
    )*};
}

tuples! {
    (A 0)
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11)
}

#[cfg(test)]
mod tests {
    use super::Flat;

    #[test]
    fn row_major_through_arrays_and_tuples() {
        let mut v = <(f64, [[f64; 3]; 2], [f64; 2])>::zero();
        assert_eq!(<(f64, [[f64; 3]; 2], [f64; 2])>::LEN, 9);
        for k in 0..9 {
            v.set(k, k as f64);
        }
        assert_eq!(v, (0.0, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [7.0, 8.0]));
        assert_eq!(
            (0..9).map(|k| v.get(k)).collect::<Vec<_>>(),
            (0..9).map(|k| k as f64).collect::<Vec<_>>()
        );
        assert_eq!(<[[f64; 2]; 2]>::unit(2), [[0.0, 0.0], [1.0, 0.0]]);
    }

    #[test]
    fn parts_laid_end_to_end_past_twelve() {
        // Thirteen parts of mixed shapes: no trait on the tuple, so no limit on its length.
        let (a, b, c) = (1.0, [2.0, 3.0], [[4.0], [5.0]]);
        let rest = [6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0];
        let mut parts: Vec<&[f64]> = vec![core::slice::from_ref(&a), &b, c.as_flattened()];
        parts.extend(rest.iter().map(core::slice::from_ref));
        assert_eq!(parts.len(), 13);
        let read: Vec<f64> = (0..15).map(|k| super::scalar(&parts, k)).collect();
        assert_eq!(read, (1..=15).map(f64::from).collect::<Vec<_>>());
        assert!(super::scalar(&parts, 15).is_nan());
        let (mut x, mut y, mut z) = (0.0_f32, [0.0_f32; 2], [[0.0_f32; 1]; 2]);
        let mut parts = [core::slice::from_mut(&mut x), &mut y, z.as_flattened_mut()];
        super::set_unit(&mut parts, 3);
        super::set_unit(&mut parts, 5);
        assert_eq!((x, y, z), (0.0, [0.0, 0.0], [[1.0], [0.0]]));
    }

    #[test]
    fn parts_written_as_one_row_read_as_scalar_reads_them() {
        let (a, b, c) = (1.0, [[2.0, 3.0, 4.0], [5.0, 6.0, 7.0]], (8.0, [9.0, 10.0]));
        let (e, f) = ([0.0f64; 0], [[0.0f64; 0]; 3]);
        let parts: [&[f64]; 6] = [
            core::slice::from_ref(&a),
            &e,
            b.as_flattened(),
            f.as_flattened(),
            core::slice::from_ref(&c.0),
            &c.1,
        ];
        let mut row = [f64::NAN; 10];
        super::write_parts(&parts, &mut row);
        let read: Vec<f64> = (0..10).map(|k| super::scalar(&parts, k)).collect();
        assert_eq!(row.to_vec(), read);
        assert_eq!(row.to_vec(), (1..=10).map(f64::from).collect::<Vec<_>>());
        // A shorter row takes what fits; a longer one keeps its tail.
        let mut short = [0.0; 4];
        super::write_parts(&parts, &mut short);
        assert_eq!(short, [1.0, 2.0, 3.0, 4.0]);
        let mut long = [-1.0; 12];
        super::write_parts(&parts, &mut long);
        assert_eq!(long[9..], [10.0, -1.0, -1.0]);
    }
}
