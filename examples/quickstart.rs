//! Quickstart: a value, its gradient and a Hessian-vector product, all generated at compile time.
//!
//! Run with `cargo run --example quickstart`.

use autodiff_runtime::grad;

/// The lesson's function `g(x1, x2) = ln x1 + x1 x2 - sin x2`.
#[grad(jvp, hvp, hessian)]
fn g(x1: f64, x2: f64) -> f64 {
    x1.ln() + x1 * x2 - x2.sin()
}

fn main() {
    let (x1, x2) = (2.0, 5.0);
    println!("g(x1, x2) = ln x1 + x1 x2 - sin x2   at (x1, x2) = ({x1}, {x2})");
    println!("  value     g        = {}", g(x1, x2));

    let (value, (d1, d2)) = g_grad(x1, x2);
    println!("  g_grad:   value    = {value}");
    println!("            gradient = ({d1}, {d2})");
    println!(
        "            expected = (x2 + 1/x1, x1 - cos x2) = ({}, {})",
        x2 + 1.0 / x1,
        x1 - x2.cos()
    );

    let (v1, v2) = (1.0, 0.0);
    let (_, _, (h1, h2)) = g_hvp(x1, x2, v1, v2);
    println!("  g_hvp:    H·v      = ({h1}, {h2})   for v = ({v1}, {v2})");
    println!("            expected = (-1/x1², 1) = ({}, 1)", -1.0 / (x1 * x1));

    let (_, slope) = g_jvp(x1, x2, 0.0, 1.0);
    println!("  g_jvp:    ∇g·v     = {slope}   for v = (0, 1)");

    let h = g_hessian(x1, x2);
    println!("  g_hessian          = {h:?}");
    println!(
        "            expected = [[-1/x1², 1], [1, sin x2]] = [[{}, 1], [1, {}]]",
        -1.0 / (x1 * x1),
        x2.sin()
    );
}
