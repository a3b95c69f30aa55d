// Bug: the stack budget is not monotonic. With `stack = 176` this function compiles; with
// `stack = 200` (more room) it is refused: "need 240 bytes ... raise the budget with
// `#[grad(stack = 240)]`", and likewise 400 is refused while 240 passes. The snapshot count is
// chosen from the budget for the gradient's state, then the H·v sweep (whose snapshots also
// carry the tangents) needs more than the budget. The errors' suggestions mislead the same way:
// at `stack = 64` the gradient's error says 88, and 88 is then refused for H·v (176).
use autodiff_runtime::grad;

#[grad(hvp, stack = 200)]
fn budgeted(x: [f64; 3]) -> f64 {
    let mut s = 0.1;
    let mut y = x;
    for t in 0..20 {
        for i in 0..3 {
            y[i] = (y[i] + s * 0.1).sin();
        }
        s = s * 0.9 + y[t % 3];
    }
    s
}

#[grad(hvp)]
fn unbudgeted(x: [f64; 3]) -> f64 {
    let mut s = 0.1;
    let mut y = x;
    for t in 0..20 {
        for i in 0..3 {
            y[i] = (y[i] + s * 0.1).sin();
        }
        s = s * 0.9 + y[t % 3];
    }
    s
}

fn main() {
    let x = [0.3, 0.5, 0.7];
    assert_eq!(budgeted_grad(x), unbudgeted_grad(x));
    let v = [1.0, -0.5, 0.25];
    assert_eq!(budgeted_hvp(x, v), unbudgeted_hvp(x, v));
}
