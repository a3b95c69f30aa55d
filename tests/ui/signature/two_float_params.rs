// Checks that a second type parameter bounded by `Float` is refused at it: a function has one
// scalar type.
use autodiff_runtime::{Float, grad};

#[grad]
fn mixed<T: Float, U: Float>(x: T, y: U) -> T {
    x * T::from(y).unwrap()
}

fn main() {}
