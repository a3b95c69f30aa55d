// Checks that a variable started from an unsuffixed literal (of the function's scalar type)
// and then assigned a value of the other float type is refused at the assignment, saying to
// give the literal its type (`0.0_f64`).
use autodiff_runtime::grad;

#[grad]
fn f(x: f32) -> f32 {
    let mut s = 0.0;
    s += x as f64;
    s as f32
}

fn main() {}
