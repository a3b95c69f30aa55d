// Checks that `implicit` without the labels of the loops to differentiate at their fixed point
// is refused, with an example of what to write.
use autodiff_runtime::grad;

#[grad(implicit)]
fn kepler(m: f64, e: f64) -> f64 {
    let mut big_e = m;
    loop {
        let step = (big_e - e * big_e.sin() - m) / (1.0 - e * big_e.cos());
        big_e -= step;
        if step.abs() < 1e-14 {
            break;
        }
    }
    big_e
}

fn main() {}
