//! The runtime side of `#[grad(argmin)]`: the conversions between argmin's `Vec<f64>` and the
//! arrays of a function over `[f64; N]`, and the gate that makes the generated problem a compile
//! error naming the `argmin` feature when it is off.

/// Passes the problem type and its impls through with the `argmin` feature.
#[cfg(feature = "argmin")]
#[doc(hidden)]
#[macro_export]
macro_rules! __argmin_problem {
    ($($item:tt)*) => { $($item)* };
}

/// Without the `argmin` feature: one error, at the `argmin` option, naming the feature.
#[cfg(not(feature = "argmin"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __argmin_problem {
    ($($item:tt)*) => {
        ::core::compile_error!(
            "`#[grad(argmin)]` needs the `argmin` feature of `autodiff-runtime`: `autodiff-runtime = { version = \"0.1\", features = [\"argmin\"] }` in Cargo.toml"
        );
    };
}

/// argmin's parameter vector as the array `f` takes, or argmin's error if its length is not `N`.
///
/// # Errors
/// When `param.len() != N`, an error that names `f` and both lengths.
#[cfg(feature = "argmin")]
pub fn argmin_array<const N: usize>(
    param: &[f64],
    f: &str,
) -> Result<[f64; N], argmin::core::Error> {
    <[f64; N]>::try_from(param).map_err(|_| {
        argmin::core::Error::msg(format!(
            "the argmin problem of `{f}` takes a parameter vector of length {N}, not {}",
            param.len()
        ))
    })
}

/// A Hessian as argmin's `vec` backend takes it: a vector of rows.
#[cfg(feature = "argmin")]
#[must_use]
pub fn argmin_matrix<const N: usize>(h: &[[f64; N]; N]) -> Vec<Vec<f64>> {
    h.iter().map(|row| row.to_vec()).collect()
}
