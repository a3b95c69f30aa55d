// `jacobian` takes `forward` or `reverse` to force a mode, nothing else.
use autodiff_runtime::grad;

#[grad(jacobian(sideways))]
fn polar(r: f64, t: f64) -> [f64; 2] {
    [r * t.cos(), r * t.sin()]
}

fn main() {}
