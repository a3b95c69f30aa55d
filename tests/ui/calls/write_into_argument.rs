// A call that writes into an array of the caller's (`&mut y`, the C style) is refused at the
// argument, saying to return the array instead.
use autodiff_runtime::grad;

fn qtimesx(q: &[f64; 3], x: &[f64; 3], out: &mut [f64; 3]) {
    for i in 0..3 {
        out[i] = q[i] * x[i];
    }
}

#[grad]
fn caller(q: [f64; 3], x: [f64; 3]) -> f64 {
    let mut y = [0.0; 3];
    qtimesx(&q, &x, &mut y);
    y[0] + y[1] + y[2]
}

fn main() {}
