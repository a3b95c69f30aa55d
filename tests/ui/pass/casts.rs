// Checks that values cast between `f32` and `f64` compile in every mode: a piece of an `f64`
// function computed in `f32`, a piece of an `f32` function computed in `f64` (once refused:
// `expr/as_f32` and `expr/f32_value_as_f64`), a literal of the other type carried by a loop,
// and an array of the other type.
use autodiff_runtime::grad;

#[grad(jvp, hvp, hessian)]
fn narrow(x: f64) -> f64 {
    let single = x as f32;
    (single * single) as f64 + x
}

#[grad(jvp, hvp, hessian)]
fn widened(x: f32) -> f32 {
    let wide = (x as f64).sin();
    wide as f32
}

#[grad(hvp, checkpoint(s = 2))]
fn carried(x: f32) -> f32 {
    let mut s = 1.0_f64;
    for _ in 0..10 {
        s = (s * x as f64).cos();
    }
    s as f32
}

#[grad(hvp)]
fn array(x: f32) -> f32 {
    let a = [x as f64, 0.5];
    (a[0] * a[1]) as f32
}

fn main() {
    let _ = (narrow_hvp(1.0, 1.0), widened_hessian(0.5), carried_hvp(0.3, 1.0), array_grad(2.0));
}
