// Checks that a `loop` with no `break` (and no `return`), which never ends, is rejected at the
// `loop`.
use autodiff_runtime::grad;

#[grad]
fn halve_forever(x: f64) -> f64 {
    let mut y = x;
    loop {
        y *= 0.5;
    }
}

fn main() {}
