//! ADBench's problems (Srajer, Kukelova and Fitzgibbon, 2018): the Gaussian mixture model with a
//! Wishart prior, the reprojection error of bundle adjustment, the LSTM, and a dense `tanh`
//! layer, each written naturally under `#[grad]` and next to a hand-written derivative ported
//! from ADBench's `manual` module (`src/cpp/modules/manual/` of `microsoft/ADBench`).
//!
//! The objectives follow ADBench's C++ references (`src/cpp/shared/gmm.h`, `ba.h`, `lstm.h`):
//! same operations in the same order, with sizes as const generics so that the benchmark's sizes
//! can be instantiated. Where the macro's subset made a different spelling necessary, the item's
//! documentation says so. `tests/adbench.rs` checks every generated derivative against its
//! hand-written one and against central differences; `benches/interleaved_adbench.rs` times them.

pub mod ba;
pub mod data;
pub mod gmm;
pub mod layer;
pub mod lstm;
