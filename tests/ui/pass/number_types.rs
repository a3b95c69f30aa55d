// Checks that the example of number types in `autodiff_runtime::guide::numbers` (an `f32` loss,
// a generic `softplus` at `f32` and `f64`, Rosenbrock over a slice with its gradient in a
// buffer) compiles and runs as shown.
use autodiff_runtime::{Float, grad};

#[grad(hvp)]
fn loss(x: f32, w: [f32; 3]) -> f32 {
    (w[0] * x + w[1]).tanh() * w[2] + 1e-3 * std::f32::consts::PI
}

// Not in the guide: the constants of another float type it mentions, cast to `f32`.
#[grad(wrt(x))]
fn scaled(x: f32, data: &[f64]) -> f32 {
    x * data[0] as f32 + x * std::f64::consts::E as f32
}

#[grad(jvp, hvp, hessian)]
fn softplus<T: Float>(x: T, y: [T; 2]) -> T {
    (T::one() + (x * y[0]).exp()).ln() + T::from(0.5).unwrap() * y[1] * y[1]
}

#[grad(wrt(x), jvp, hvp)]
fn rosenbrock(x: &[f64], c: f64) -> f64 {
    let mut f = 0.0;
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        f += c * a * a + b * b;
    }
    f
}

fn main() {
    let (value, (x_bar, w_bar)) = loss_grad(0.5, [1.0, 2.0, 3.0]); // f32 throughout
    let _: (f32, f32, [f32; 3]) = (value, x_bar, w_bar);
    let (v32, g32) = softplus_grad(0.5_f32, [1.0, 2.0]); // generic, at f32
    let _: (f32, (f32, [f32; 2])) = (v32, g32);
    let h: [[f64; 3]; 3] = softplus_hessian(0.5, [1.0, 2.0]); // and at f64
    assert_eq!(h[0][1], h[1][0]);
    assert_eq!(scaled_grad(2.0, &[0.5]).1, 0.5 + std::f64::consts::E as f32);
    let x = vec![-1.2, 1.0, -1.2, 1.0];
    let mut x_bar = vec![0.0; x.len()];
    let value = rosenbrock_grad(&x, 100.0, &mut x_bar); // gradient into x_bar
    assert_eq!(value, rosenbrock(&x, 100.0));
    assert_eq!(x_bar[3], 200.0 * (x[3] - x[2] * x[2]));
}
