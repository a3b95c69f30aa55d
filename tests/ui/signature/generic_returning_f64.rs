// Checks that a generic function over `T: Float` returning another float type is refused at the
// return type, which must be `T` (or arrays or tuples of it).
use autodiff_runtime::{Float, grad};

#[grad]
fn value<T: Float>(x: T) -> f64 {
    x.to_f64().unwrap_or(0.0)
}

fn main() {}
