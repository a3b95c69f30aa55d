// Checks that a view of constant data (`windows` over a `&[f64]` parameter) read after a `let`
// has shadowed the parameter is refused at the read: the generated code reads the data by the
// parameter's name, which now means the local.
use autodiff_runtime::grad;

#[grad]
fn pairs(x: f64, data: &[f64]) -> f64 {
    let mut s = x;
    for w in data.windows(2) {
        let data = s * 2.0;
        s += w[1] * data;
    }
    s
}

fn main() {}
