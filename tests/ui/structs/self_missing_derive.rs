// Checks that a method taking `&self` whose type does not derive `Differentiable` is reported at
// the receiver, saying to add the derive.
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
