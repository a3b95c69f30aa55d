// Checks that `std::array::from_fn` whose array type the macro cannot see is refused at the call,
// saying to bind it with a type.
use autodiff_runtime::grad;

#[grad]
fn ramp(x: f64) -> f64 {
    let y = std::array::from_fn(|i| x * i as f64);
    let z: [f64; 3] = y;
    z[2]
}

fn main() {}
