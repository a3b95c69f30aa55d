// Checks the uses of a struct generic over its length (`Model<N>`) that would hold it, or a
// field of it, as its scalars laid flat, whose count in a type (`[f64; <Model<N> as
// Differentiable>::LEN]`, `field_len::<Model<N>>("w")`) stable Rust does not compute from a
// generic parameter: a field passed whole to a call or copied whole into the returned struct,
// never indexed, and the value of a call returning the struct (and the struct passed whole to
// it). Each is refused at the field, the `let`'s type or the argument, saying what to write.
use autodiff_runtime::{Differentiable, grad};

#[derive(Clone, Copy, Differentiable)]
pub struct Model<const N: usize> {
    pub w: [f64; N],
    pub b: f64,
}

#[grad]
pub fn squares<const N: usize>(w: [f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += w[i] * w[i];
    }
    s
}

#[grad]
pub fn passed<const N: usize>(m: &Model<N>) -> f64 {
    squares(m.w) * m.b
}

#[grad]
pub fn copied<const N: usize>(m: &Model<N>) -> Model<N> {
    Model { w: m.w, b: m.b * 2.0 }
}

#[grad]
pub fn via_call<const N: usize>(m: &Model<N>) -> f64 {
    let r: Model<N> = copied(m);
    r.w[0] * r.b
}

fn main() {}
