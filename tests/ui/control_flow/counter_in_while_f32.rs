// Checks that an integer counter advanced in a `while` loop of a function over `f32` is refused
// at the loop: it has no closed form there, and `f32` does not hold every count.
use autodiff_runtime::grad;

#[grad]
fn newton_sqrt(a: f32) -> f32 {
    let mut x = a;
    let mut it = 0;
    while (x * x - a).abs() > 1e-6 && it < 50 {
        x = 0.5 * (x + a / x);
        it += 1;
    }
    x
}

fn main() {}
