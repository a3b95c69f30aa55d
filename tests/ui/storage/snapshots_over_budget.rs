// A checkpointed loop whose snapshots alone exceed the stack budget (64 snapshots of a state of
// 10 000 values): refused at the loop, with both numbers and what to change.
use autodiff_runtime::grad;

#[grad(checkpoint(s = 64))]
fn diffuse(u0: [f64; 10_000], k: f64) -> f64 {
    let mut u = u0;
    for _ in 0..100 {
        for i in 1..9_999 {
            u[i] += k * (u[i - 1] - 2.0 * u[i] + u[i + 1]) * u[i];
        }
    }
    u[5_000]
}

fn main() {}
