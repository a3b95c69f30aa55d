// Checks that functions over `f32`, over `T: Float` (bounded in the list or in a `where` clause)
// and over a differentiated slice compile in every mode, and run; and that an `f64` parameter of
// an `f32` function left out of `wrt(...)` is a constant, as the refusal without it says, and a
// slice `&[f64]` constant data; and that a `Vec<f64>` taken by value is constant data when
// `wrt(...)` leaves it out, and a `&Vec<f64>` constant data as a slice is.
use autodiff_runtime::{Float, grad};

#[grad(jvp, hvp, hessian)]
fn single(x: f32, y: [f32; 2]) -> f32 {
    (x * y[0]).sin() + 0.5 * y[1] * y[1]
}

#[grad(jvp, hvp, hessian)]
fn generic<T>(x: T, y: [T; 2]) -> T
where
    T: Float,
{
    (x * y[0]).sin() + T::from(0.5).unwrap() * y[1] * y[1]
}

#[grad(wrt(x))]
fn weighted(x: f32, w: f64) -> f32 {
    x * x * w as f32
}

#[grad]
fn weighted_data(v: &[f64], x: f32) -> f32 {
    v[0] as f32 * x * x
}

#[grad(wrt(x))]
fn owned_data(data: Vec<f64>, x: f64) -> f64 {
    data[0] * x * x
}

#[grad]
fn vec_data(x: f64, data: &Vec<f64>) -> f64 {
    data[0] * x * x + data[1]
}

#[grad(wrt(x), jvp, hvp)]
fn sliced(x: &[f64], scale: f64) -> f64 {
    let mut s = 0.0;
    for v in x.iter() {
        s += scale * v * v;
    }
    s
}

fn main() {
    let _ = single_hessian(0.5, [1.0, 2.0]);
    let _: [[f64; 3]; 3] = generic_hessian(0.5, [1.0, 2.0]);
    assert_eq!(weighted_grad(3.0, 0.5), (4.5, 3.0));
    assert_eq!(weighted_data(&[0.5], 3.0), 4.5);
    assert_eq!(weighted_data_grad(&[0.5], 3.0), (4.5, 3.0));
    assert_eq!(owned_data_grad(vec![0.5], 3.0), (4.5, 3.0));
    assert_eq!(vec_data_grad(3.0, &vec![0.5, 1.0]), (5.5, 3.0));
    let mut g = vec![0.0; 3];
    let _ = sliced_grad(&[1.0, 2.0, 3.0], 2.0, &mut g);
    assert_eq!(g, [4.0, 8.0, 12.0]);
}
