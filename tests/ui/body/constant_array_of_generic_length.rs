// Checks that a constant copied into a variable typed as an array whose length is not a literal is
// refused at the constant, with what to write instead (the copy is built element by element).
use autodiff_runtime::grad;

#[grad]
fn first_row<const N: usize>(a: f64, data: &[[f64; N]]) -> f64 {
    let mut y: [f64; N] = data[0];
    y[0] *= a;
    y[0]
}

fn main() {}
