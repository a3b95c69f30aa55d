// A loop that carries nonlinear state for a number of iterations known only at run time: its
// reverse sweep would need storage the macro cannot size, so it is refused, saying why.
use autodiff_runtime::grad;

#[grad(wrt(x0, r))]
fn logistic(x0: f64, r: f64, steps: usize) -> f64 {
    let mut x = x0;
    for _ in 0..steps {
        x = r * x * (1.0 - x);
    }
    x
}

fn main() {}
