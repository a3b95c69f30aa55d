// Checks that a function declared without a body (in a trait) is rejected at its signature, with
// a message that says the body is what is needed.
use autodiff_runtime::grad;

trait Model {
    /// The loss.
    #[grad]
    fn loss(x: f64) -> f64;
}

fn main() {}
