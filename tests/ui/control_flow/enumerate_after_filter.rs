// Checks that an adaptor that needs positions (`enumerate`) after `filter` is refused at the
// adaptor, saying why and what to write instead.
use autodiff_runtime::grad;

#[grad]
fn positive_weighted(x: [f64; 4]) -> f64 {
    let mut s = 0.0;
    for (i, v) in x.iter().filter(|v| **v > 0.0).enumerate() {
        s += v * i as f64;
    }
    s
}

fn main() {}
