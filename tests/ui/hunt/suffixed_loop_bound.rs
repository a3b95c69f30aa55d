// Bug: the type suffix of a loop bound is dropped: `for i in 0..3_usize` is emitted as
// `for i in 0..3`, so an integer method called on the index before anything fixes its type
// (`i.abs_diff(1)`) is ambiguous in the generated code (E0689) though `f` compiles.
use autodiff_runtime::grad;

#[grad]
fn suffixed_bound(x: [f64; 3]) -> f64 {
    let mut s = 0.0;
    for i in 0..3_usize {
        s += x[i.abs_diff(1)] * (i as f64);
    }
    s
}

fn main() {
    // f = 0·x1 + 1·x0 + 2·x1
    let x = [0.3, 0.5, 0.7];
    assert_eq!(suffixed_bound_grad(x), (suffixed_bound(x), [1.0, 2.0, 0.0]));
}
