// Checks that a value of a generic scalar `T: Float` cast to `f64` is refused at the cast: a
// generic function computes in `T`; casts between `f32` and `f64` need the function written
// for one of them.
use autodiff_runtime::{Float, grad};

#[grad]
fn widened<T: Float>(x: T) -> T {
    let wide = (x as f64).sin();
    T::from(wide).unwrap()
}

fn main() {}
