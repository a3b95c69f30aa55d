// Macro bug 39 (open): a slice read in a loop over a run-time count nested, under two `if`s, in
// another such loop (both checkpointed): `_grad` stops at an internal error ("a value of
// run-time length outside a buffer"). Found by the fuzzer's slice twin (`f_sl`, seed 300243).
use autodiff_runtime::grad;

#[grad(wrt(a, x))]
fn f(a: f64, x: &[f64], steps: usize) -> f64 {
    let mut s = a;
    for i in 0..steps {
        if x[i] >= 0.1 {
            if s > 2.0 {
                for _ in 0..steps {
                    s = s.hypot(x[steps]);
                }
            }
        }
    }
    s
}

fn main() {
    // Taken nowhere: the value is `a`, its derivative 1.
    let mut g = [f64::NAN; 3];
    assert_eq!(f_grad(1.0, &[0.0, 0.0, 0.0], 2, &mut g), (1.0, 1.0));
    assert_eq!(g, [0.0; 3]);
}
