// Checks that `implicit('label)` naming a label no `loop` or `while` loop has is refused at the
// label, saying how to label the loop.
use autodiff_runtime::grad;

#[grad(implicit('solve))]
fn kepler(m: f64, e: f64) -> f64 {
    let mut big_e = m;
    'newton: loop {
        let step = (big_e - e * big_e.sin() - m) / (1.0 - e * big_e.cos());
        big_e -= step;
        if step.abs() < 1e-14 {
            break;
        }
    }
    big_e
}

fn main() {}
