// A loop whose storage the macro cannot size (its state, an array of a `const` length it cannot
// read), over the budget whether stored or checkpointed (32 snapshots of 80 000 bytes): rustc
// evaluates the budget check of the checkpointed sweep it chose and reports both numbers.
use autodiff_runtime::grad;

const CELLS: usize = 10_000;

#[grad]
fn diffuse(u0: [f64; CELLS], k: f64) -> f64 {
    let mut u = u0;
    for _ in 0..100 {
        for i in 1..CELLS - 1 {
            u[i] += k * (u[i - 1] - 2.0 * u[i] + u[i + 1]) * u[i];
        }
    }
    u[CELLS / 2]
}

fn main() {
    let _ = diffuse_grad([0.5; CELLS], 0.1);
}
