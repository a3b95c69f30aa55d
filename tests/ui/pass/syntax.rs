// Checks that a function using every supported body construct compiles warning-free with every
// derivative requested, that the generated functions keep the original's visibility and have the
// documented signatures, and that the one-parameter shapes are right (bare `f64`, `[[f64; 1]; 1]`);
// with a struct deriving `Differentiable` and its methods (`&self`, `self`, a struct literal, a
// field write, a method call, a struct returned), in every mode.
#![deny(warnings)]

mod corpus {
    use autodiff_runtime::{Differentiable, grad};

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

    /// A differentiated struct: an array, a scalar, and a field kept out.
    #[derive(Clone, Copy, Differentiable)]
    pub struct Affine {
        pub w: [f64; 2],
        pub b: f64,
        #[no_grad]
        pub scale: f64,
        pub steps: usize,
    }

    impl Affine {
        #[grad(jvp, hvp, hessian)]
        pub fn apply(&self, x: [f64; 2]) -> f64 {
            (self.w[0] * x[0] + self.w[1] * x[1] + self.b) * self.scale
        }

        #[grad(jvp, hvp, hessian)]
        pub fn twice(&self, x: [f64; 2]) -> f64 {
            let y = self.apply(x);
            y * y + self.steps as f64
        }

        #[grad(jvp, jacobian)]
        pub fn shifted(self, d: f64) -> Affine {
            let w = [self.w[0], self.w[1]];
            let mut a = Affine { w, b: self.b + d, scale: self.scale, steps: self.steps as usize };
            a.w[0] *= d;
            a.b += a.w[0];
            a
        }
    }
}

use corpus::{
    Affine, Params, cube, cube_grad, cube_hessian, cube_hvp, everything, everything_grad,
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

    let a = Affine { w: [1.0, -2.0], b: 0.5, scale: 2.0, steps: 3 };
    let x = [0.25, 1.0];
    let grad: (f64, (Affine, [f64; 2])) = a.twice_grad(x);
    let jvp: (f64, f64) = a.twice_jvp(x, &a, [1.0, 0.0]);
    let hvp: (f64, (Affine, [f64; 2]), (Affine, [f64; 2])) = a.twice_hvp(x, &a, [1.0, 0.0]);
    let hessian: [[f64; 5]; 5] = a.twice_hessian(x);
    let shifted: (Affine, (Affine, f64)) = a.shifted_vjp(1.5, a);
    let jacobian: (Affine, [[f64; 4]; 3]) = a.shifted_jacobian(1.5);
    assert!(grad.1.0.b.is_finite() && jvp.1.is_finite() && hvp.2.1[0].is_finite());
    assert!(hessian[0][4].is_finite() && shifted.0.b == 3.5 && jacobian.1[2][3] == 2.0);
    assert_eq!((grad.1.0.scale, grad.1.0.steps), (0.0, 0));
}
