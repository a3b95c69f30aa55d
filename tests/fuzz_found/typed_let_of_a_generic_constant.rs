// Macro bug 40: in a function over `T: Float`, `let a: T = T::from(1.5).unwrap();` (a constant
// bound with its type written) was refused as a method called on the value of a call returning
// a struct: the check for struct calls read the type parameter `T` as a struct's name. Found by
// the fuzzer's generic twin (`f_gen`) once struct calls landed.
use autodiff_runtime::{Float, grad};

#[grad(hvp)]
fn f<T: Float>(x: T) -> T {
    let a: T = T::from(1.5).unwrap();
    a * x * x
}

fn main() {
    let (y, g) = f_grad(2.0_f64);
    assert_eq!((y, g), (6.0, 6.0));
    let (y, g) = f_grad(2.0_f32);
    assert_eq!((y, g), (6.0, 6.0));
}
