//! Callees with hand-written derivatives: `g`, `g_grad`, `g_jvp` and `g_hvp` in plain Rust with
//! the signatures of `autodiff_runtime::guide::calls` (one partial and one direction per
//! `f64` or array parameter, none for an integer one), and the oracle's twin `g_dual`.

use super::ast::Formula;

/// `g` and its derivative functions for `formula`.
pub fn plain(g: &str, formula: Formula) -> String {
    // A caller uses some of the derivatives only, depending on its own modes.
    let derivative = "#[allow(dead_code)]\npub fn";
    match formula {
        Formula::Wave => format!(
            "pub fn {g}(a: f64, b: f64) -> f64 {{\n    a * b.sin() + 0.5 * a * a\n}}\n\
             {derivative} {g}_grad(a: f64, b: f64) -> (f64, (f64, f64)) {{\n    ({g}(a, b), (b.sin() + a, a * b.cos()))\n}}\n\
             {derivative} {g}_jvp(a: f64, b: f64, da: f64, db: f64) -> (f64, f64) {{\n    ({g}(a, b), (b.sin() + a) * da + a * b.cos() * db)\n}}\n\
             {derivative} {g}_hvp(a: f64, b: f64, da: f64, db: f64) -> (f64, (f64, f64), (f64, f64)) {{\n    \
             let (y, g) = {g}_grad(a, b);\n    (y, g, (da + b.cos() * db, b.cos() * da - a * b.sin() * db))\n}}\n"
        ),
        Formula::Softplus { n, by_ref } => {
            let r = if by_ref { "&" } else { "" };
            format!(
                "pub fn {g}(v: {r}[f64; {n}]) -> f64 {{\n    v.iter().map(|x| x.exp().ln_1p()).sum()\n}}\n\
                 /// The logistic function, the derivative of `ln(1 + eˣ)`.\n\
                 fn {g}_logistic(x: f64) -> f64 {{\n    1.0 / (1.0 + (-x).exp())\n}}\n\
                 {derivative} {g}_grad(v: {r}[f64; {n}]) -> (f64, [f64; {n}]) {{\n    \
                 ({g}(v), std::array::from_fn(|i| {g}_logistic(v[i])))\n}}\n\
                 {derivative} {g}_jvp(v: {r}[f64; {n}], dv: {r}[f64; {n}]) -> (f64, f64) {{\n    \
                 ({g}(v), v.iter().zip(dv.iter()).map(|(x, d)| {g}_logistic(*x) * d).sum())\n}}\n\
                 {derivative} {g}_hvp(v: {r}[f64; {n}], dv: {r}[f64; {n}]) -> (f64, [f64; {n}], [f64; {n}]) {{\n    \
                 let (y, g) = {g}_grad(v);\n    (y, g, std::array::from_fn(|i| g[i] * (1.0 - g[i]) * dv[i]))\n}}\n"
            )
        }
        Formula::Tanh => format!(
            "pub fn {g}(x: f64, c: f64) -> f64 {{\n    (c * x).tanh()\n}}\n\
             {derivative} {g}_grad(x: f64, c: f64) -> (f64, (f64, f64)) {{\n    let t = (c * x).tanh();\n    let s = 1.0 - t * t;\n    (t, (c * s, x * s))\n}}\n\
             {derivative} {g}_jvp(x: f64, c: f64, dx: f64, dc: f64) -> (f64, f64) {{\n    let (y, (gx, gc)) = {g}_grad(x, c);\n    (y, gx * dx + gc * dc)\n}}\n\
             {derivative} {g}_hvp(x: f64, c: f64, dx: f64, dc: f64) -> (f64, (f64, f64), (f64, f64)) {{\n    \
             let t = (c * x).tanh();\n    let s = 1.0 - t * t;\n    let k = -2.0 * t * s;\n    \
             let (hxx, hxc, hcc) = (k * c * c, s + k * c * x, k * x * x);\n    \
             (t, (c * s, x * s), (hxx * dx + hxc * dc, hxc * dx + hcc * dc))\n}}\n"
        ),
        Formula::Ripple => format!(
            "pub fn {g}(x: f64, k: usize) -> f64 {{\n    let w = k as f64 + 1.0;\n    (w * x).sin() / w\n}}\n\
             {derivative} {g}_grad(x: f64, k: usize) -> (f64, f64) {{\n    let w = k as f64 + 1.0;\n    ({g}(x, k), (w * x).cos())\n}}\n\
             {derivative} {g}_jvp(x: f64, k: usize, dx: f64) -> (f64, f64) {{\n    let (y, g) = {g}_grad(x, k);\n    (y, g * dx)\n}}\n\
             {derivative} {g}_hvp(x: f64, k: usize, dx: f64) -> (f64, f64, f64) {{\n    \
             let w = k as f64 + 1.0;\n    let (y, g) = {g}_grad(x, k);\n    (y, g, -w * (w * x).sin() * dx)\n}}\n"
        ),
    }
}

/// The hyper-dual twin `g_dual` of `formula`.
pub fn dual(g: &str, formula: Formula) -> String {
    match formula {
        Formula::Wave => {
            format!(
                "pub fn {g}_dual(a: Hd, b: Hd) -> Hd {{\n    a * b.sin() + lit(0.5) * a * a\n}}\n"
            )
        }
        Formula::Softplus { n, by_ref } => {
            let r = if by_ref { "&" } else { "" };
            format!(
                "pub fn {g}_dual(v: {r}[Hd; {n}]) -> Hd {{\n    v.iter().fold(lit(0.0), |s, x| s + x.exp().ln_1p())\n}}\n"
            )
        }
        Formula::Tanh => {
            format!("pub fn {g}_dual(x: Hd, c: Hd) -> Hd {{\n    (c * x).tanh()\n}}\n")
        }
        Formula::Ripple => format!(
            "pub fn {g}_dual(x: Hd, k: usize) -> Hd {{\n    let w = lit(k as f64 + 1.0);\n    (w * x).sin() / w\n}}\n"
        ),
    }
}
