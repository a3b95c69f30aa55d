// Checks that a method taking `&self` is rejected at the receiver.
use autodiff_runtime::grad;

struct Model {
    weight: f64,
}

impl Model {
    #[grad]
    fn predict(&self, x: f64) -> f64 {
        self.weight * x
    }
}

fn main() {}
