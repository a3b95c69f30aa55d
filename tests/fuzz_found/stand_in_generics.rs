// Macro bug 29: the stand-ins of `f_jvp` and `f_hvp` (emitted by `#[grad]` without `jvp` or
// `hvp`) take type parameters `T0`, `T1`, ...; a function with a const generic parameter named
// `T0` got E0403 "the name `T0` is already used for a generic parameter" at the attribute
// (found by the fuzzer's names for `const` items). They are now named apart from the
// function's own generic parameters.
use autodiff_runtime::grad;

#[grad]
fn total<const T0: usize, const T1: usize>(x: [f64; T0], y: [f64; T1]) -> f64 {
    x[0] * y[0] + x[T0 - 1]
}

fn main() {
    let (v, g) = total_grad([2.0, 3.0], [5.0]);
    assert_eq!(v, 13.0);
    assert_eq!(g, ([5.0, 1.0], [2.0]));
}
