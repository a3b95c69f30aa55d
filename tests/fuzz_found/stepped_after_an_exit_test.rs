// Macro bug 69 (fuzz seed 1): a counter that a `loop` advances by a literal in one statement of
// its body (`i += 1`, the form `guide/subset.rs` says is read from the iteration's index), the
// loop's exit test first, read as an index: it was refused as a held counter ("holds the
// integer counter `i` as a number ... not reading it as an index"), though the same loop as
// `while i < 3 { ..; i += 1; }` was accepted. The exits sugar put the rest of the body, the step
// included, under the exit's flag, so the step was no longer a statement of the body; such a
// `loop` is now read as the `while !(i >= 3)` loop it is (`lower/sugar/leading.rs`).
use autodiff_runtime::grad;

#[grad]
fn f(x: [f64; 3]) -> f64 {
    let mut s = 0.0;
    let mut i = 0;
    loop {
        if i >= 3 {
            break;
        }
        s += x[i] * x[i];
        i += 1;
    }
    s
}

fn main() {
    let (y, g) = f_grad([1.0, 2.0, 3.0]);
    assert_eq!(y, 14.0);
    assert_eq!(g, [2.0, 4.0, 6.0]);
}
