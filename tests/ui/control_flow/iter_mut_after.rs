// Checks that `iter_mut` followed by an adaptor or a consumer (here `map` and `sum`) is refused
// at that adaptor, saying to write each element in a `for` loop's body; and that a binding that
// shadows the array an element of `iter_mut` is written into is refused at the binding.
use autodiff_runtime::grad;

#[grad]
fn mapped(x: [f64; 3]) -> f64 {
    let mut y = x;
    y.iter_mut().map(|v| *v * 2.0).sum::<f64>()
}

#[grad]
fn shadowed(x: [f64; 3]) -> f64 {
    let mut y = x;
    for v in y.iter_mut() {
        let y = 2.0;
        *v *= y;
    }
    y[0]
}

fn main() {}
