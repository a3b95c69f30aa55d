// Checks that several unsupported forms of control flow in one function (an iterator chain that
// collects, a `while let` loop and an integer counter set inside a loop) are all reported.
use autodiff_runtime::grad;

#[grad]
fn several(x: [f64; 4], data: &[f64]) -> f64 {
    let mut s = data.iter().copied().collect::<Vec<f64>>()[0];
    let mut k = 0;
    while let Some(f) = data.first() {
        s *= f;
    }
    for i in 0..4 {
        s += x[i] * x[k];
        k = i;
    }
    s
}

fn main() {}
