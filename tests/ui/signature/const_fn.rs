// Checks that a `const fn` is rejected at `const`.
use autodiff_runtime::grad;

#[grad]
const fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
