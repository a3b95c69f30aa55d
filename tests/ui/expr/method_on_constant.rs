// Checks that a method call on a constant (non-differentiated) parameter is rejected with a
// message about the constant, not as a method that cannot be differentiated.
use autodiff_runtime::grad;

pub struct Params {
    pub k: f64,
}

impl Params {
    pub fn scale(&self) -> f64 {
        self.k
    }
}

#[grad]
fn mean_scaled(x: f64, p: &Params) -> f64 {
    x * p.scale()
}

fn main() {}
