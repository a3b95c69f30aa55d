// Macro bug 6: `f_vjp` of a function returning a tuple, with a differentiated `&[f64; N]`
// parameter, dereferences the cotangent: `let mut s_bar = *out_bar;` (E0614, "type `f64`
// cannot be dereferenced"). With an array output, or the array by value, it compiles.
use autodiff_runtime::grad;

#[grad]
fn f(q: &[f64; 1], a: f64) -> (f64, f64) {
    let mut s = a;
    for _ in 0..2 {
        s = s.sin();
    }
    (s, q[0])
}

fn main() {
    let _ = f_vjp(&[1.0], 0.5, (1.0, 1.0));
}
