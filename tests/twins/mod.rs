//! What the twin tests share (`tests/idioms.rs`, `tests/control_sugar.rs`): a function of one
//! `[f64; M]` and its generated `_grad`, `_jvp` and `_hvp` as closures ([`Fns`], built by
//! `fns!`), checked at a few points against its twin written in the form the macro's rewrite
//! means (value, gradient and H·v bit for bit) and against finite differences.

use autodiff_runtime::{Tolerance, check_close, numeric_gradient, numeric_hvp};

/// Panics, naming `what`, unless `values` are within `tol` of `reference`.
pub fn close(what: &str, values: &[f64], reference: &[f64], tol: f64) {
    let tol = Tolerance { epsilon: tol, max_relative: tol };
    if let Err(e) = check_close(values, reference, tol) {
        panic!("{what}: {e}");
    }
}

/// Value and gradient.
pub type Grad<const M: usize> = (f64, [f64; M]);
/// Value, gradient and H·v.
pub type Hvp<const M: usize> = (f64, [f64; M], [f64; M]);
/// A function of a point (and a direction).
pub type Of<'a, const M: usize, R> = Box<dyn Fn([f64; M]) -> R + 'a>;
/// A function of a point and a direction.
pub type Along<'a, const M: usize, R> = Box<dyn Fn([f64; M], [f64; M]) -> R + 'a>;

/// The functions `#[grad(jvp, hvp)]` generates for a function of one `[f64; M]`, as closures
/// over its other arguments.
pub struct Fns<'a, const M: usize> {
    pub f: Of<'a, M, f64>,
    pub grad: Of<'a, M, Grad<M>>,
    pub jvp: Along<'a, M, (f64, f64)>,
    pub hvp: Along<'a, M, Hvp<M>>,
}

/// [`Fns`] of the function `$f` and its `_grad`, `_jvp` and `_hvp`, its other arguments `$arg`
/// passed after the array.
#[macro_export]
macro_rules! fns {
    ($f:ident, $grad:ident, $jvp:ident, $hvp:ident $(; $($arg:expr),*)?) => {
        $crate::twins::Fns {
            f: Box::new(move |x| $f(x $($(, $arg)*)?)),
            grad: Box::new(move |x| $grad(x $($(, $arg)*)?)),
            jvp: Box::new(move |x, v| $jvp(x $($(, $arg)*)?, v)),
            hvp: Box::new(move |x, v| $hvp(x $($(, $arg)*)?, v)),
        }
    };
}

/// A point with distinct, moderate coordinates.
pub fn point<const M: usize>(seed: f64) -> [f64; M] {
    std::array::from_fn(|i| (seed + 0.73 * i as f64).sin() * 1.3 + 0.1)
}

/// `idiom` (the form under test) at a few points: its values are `f`'s to the bit; its gradient and H·v are the
/// twin's to the bit, and agree with finite differences; its JVP is `∇f·v`.
pub fn check<const M: usize>(name: &str, idiom: Fns<M>, twin: Fns<M>, seeds: &[f64]) {
    for &seed in seeds {
        let (x, v) = (point::<M>(seed), point::<M>(seed + 1.7));
        let (value, grad) = (idiom.grad)(x);
        assert_eq!(value.to_bits(), (idiom.f)(x).to_bits(), "{name}: value at {x:?}");
        let (twin_value, twin_grad) = (twin.grad)(x);
        assert_eq!(value.to_bits(), twin_value.to_bits(), "{name}: value = twin's at {x:?}");
        assert_eq!(grad, twin_grad, "{name}: gradient = twin's at {x:?}");
        let numeric = numeric_gradient(|xs: &[f64]| (idiom.f)(xs.try_into().unwrap()), &x);
        close(&format!("{name}: gradient at {x:?}"), &grad, &numeric, 1e-6);
        let (jvp_value, slope) = (idiom.jvp)(x, v);
        assert_eq!(jvp_value.to_bits(), value.to_bits(), "{name}: jvp's value");
        let dot: f64 = grad.iter().zip(&v).map(|(a, b)| a * b).sum();
        close(&format!("{name}: jvp"), &[slope], &[dot], 1e-12);
        let (hvp_value, hvp_grad, hv) = (idiom.hvp)(x, v);
        assert_eq!((hvp_value.to_bits(), hvp_grad), (value.to_bits(), grad), "{name}: hvp");
        let (_, _, twin_hv) = (twin.hvp)(x, v);
        assert_eq!(hv, twin_hv, "{name}: H·v = twin's at {x:?}");
        let g = |xs: &[f64]| (idiom.grad)(xs.try_into().unwrap()).1.to_vec();
        close(&format!("{name}: H·v at {x:?}"), &hv, &numeric_hvp(g, &x, &v), 1e-5);
    }
}
