// Checks that a function using every supported body construct compiles warning-free with every
// derivative requested, that the generated functions keep the original's visibility and have the
// documented signatures, and that the one-parameter shapes are right (bare `f64`, `[[f64; 1]; 1]`).
#![deny(warnings)]

mod corpus {
    use autodiff_runtime::grad;

    const SCALE: f64 = 2.0;

    /// A non-differentiated parameter read through a field.
    pub struct Params {
        pub offset: f64,
    }

    #[grad(wrt(a, b), jvp, hvp, hessian)]
    pub fn everything(a: f64, b: f64, c: f64, n: i32, data: &[f64], r: &f64, p: &Params) -> f64 {
        let u = a * b;
        let v: f64 = (u + 1.0) / b;
        let mut w = -v;
        w = w + a;
        w += u;
        w -= b;
        w *= 2.0;
        w /= 3.0;
        let u = u * u;
        let k = n as f64 + 3 as f64;
        let consts = std::f64::consts::PI * SCALE;
        let passive = data[0] + *r + p.offset;
        let s = f64::sin(a) - 4.0 * c;
        return w + u * k + consts * passive * s;
    }

    #[grad(hessian)]
    pub fn cube(x: f64) -> f64 {
        x * x * x
    }
}

use corpus::{
    Params, cube, cube_grad, cube_hessian, cube_hvp, everything, everything_grad,
    everything_hessian, everything_hvp, everything_jvp,
};

fn main() {
    let data = [0.5, 7.0];
    let p = Params { offset: 0.25 };
    let args = (1.5, 2.5, 0.75, 3, &data[..], &1.25, &p);
    let value: f64 = everything(args.0, args.1, args.2, args.3, args.4, args.5, args.6);
    let grad: (f64, (f64, f64)) =
        everything_grad(args.0, args.1, args.2, args.3, args.4, args.5, args.6);
    let jvp: (f64, f64) =
        everything_jvp(args.0, args.1, args.2, args.3, args.4, args.5, args.6, 1.0, -1.0);
    let hvp: (f64, (f64, f64), (f64, f64)) =
        everything_hvp(args.0, args.1, args.2, args.3, args.4, args.5, args.6, 1.0, -1.0);
    let hessian: [[f64; 2]; 2] =
        everything_hessian(args.0, args.1, args.2, args.3, args.4, args.5, args.6);
    assert!(value.is_finite() && grad.0.is_finite() && jvp.1.is_finite());
    assert!(hvp.2.0.is_finite() && hessian[0][1].is_finite());

    // x^3 at 2: value 8, derivative 3x^2 = 12, second derivative 6x = 12 (exact in f64).
    assert_eq!(cube(2.0), 8.0);
    let one_grad: (f64, f64) = cube_grad(2.0);
    let one_hvp: (f64, f64, f64) = cube_hvp(2.0, 1.0);
    let one_hessian: [[f64; 1]; 1] = cube_hessian(2.0);
    assert_eq!(one_grad, (8.0, 12.0));
    assert_eq!(one_hvp, (8.0, 12.0, 12.0));
    assert_eq!(one_hessian, [[12.0]]);
}
