// Checks that an iterator adaptor the macro does not rewrite (`flat_map`) is refused at the
// adaptor's name, with the adaptors that are supported.
use autodiff_runtime::grad;

#[grad]
fn pairs(x: [f64; 3]) -> f64 {
    x.iter().flat_map(|a| x.iter().map(move |b| a * b)).sum()
}

fn main() {}
