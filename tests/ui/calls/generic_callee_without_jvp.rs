// A generic callee's stand-in keeps its generic parameters, so the caller's error is still the one
// at the call that says how to get the missing `_jvp`.
use autodiff_runtime::grad;

#[grad]
fn total<const N: usize>(x: [f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += x[i] * x[i];
    }
    s
}

#[grad(jvp)]
fn caller(x: [f64; 3]) -> f64 {
    total(x).sqrt()
}

fn main() {
    let _ = caller_jvp([1.0; 3], [1.0; 3]);
}
