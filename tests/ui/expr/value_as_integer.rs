// Checks that a differentiated value cast to an integer is refused at the cast, pointing to
// `floor`, `round` and `trunc` (zero derivative) and to the casts that are supported.
use autodiff_runtime::grad;

#[grad]
fn stepped(x: f64) -> f64 {
    x * (x as i32) as f64
}

fn main() {}
