//! ADBench's LSTM: `L` layers of `B` elementwise LSTM cells (ADBench's "diagonal" LSTM, each
//! gate of cell `i` reading only element `i` of its input and of its hidden state) run over a
//! sequence of `c` characters of `B` bits; the loss is the average cross-entropy of each
//! prediction, softmax-normalised by ADBench's `log(Σ exp + 2)`, against the next character
//! (`lstm_objective` of `src/cpp/shared/lstm.h`). The gradient is with respect to the
//! `8 L B` main parameters and the `3 B` extra parameters; the initial state is a constant.
//!
//! ADBench's instances: `l = 2` or `4` layers, `c = 1024` (or 4096) characters of `b = 14`
//! bits. Layouts, as ADBench's flat arrays: `main_params[layer][g][i]` with `g` = weight of the
//! forget, input, output gates and of the change, then their biases; `extra_params[0]` the input
//! weights, `[1]` the output weights, `[2]` the output biases; `state[layer][0]` the hidden state,
//! `[1]` the cell state.
//!
//! Two spellings of the same objective, as a user would write them: [`objective`], with the
//! sequence's length a const generic (the sweep stores every step's state on the stack), and
//! [`objective_dyn`], with the sequence a slice of run-time length (the sweep is checkpointed).
//! [`manual`] ports ADBench's hand-written derivative (forward propagation of the state's
//! Jacobian in the parameters, `src/cpp/modules/manual/lstm_d.cpp`); [`adjoint`] is a
//! hand-written reverse sweep, the derivative a person writing backpropagation by hand would
//! give, for a second reference.
//!
//! Differences from the C++: ADBench's helper structures (`MainParams`, `State`, ...) are the
//! nested arrays above; its `lstm_model` and `lstm_predict` write into arrays, which calls under
//! the macro cannot, so they are inline in the loop over the sequence.
// Index loops are the macro's subset, and ADBench's C++ loops ported as written.
#![allow(clippy::needless_range_loop)]

use autodiff_runtime::grad;

pub mod adjoint;
pub mod manual;

/// The logistic function `1 / (1 + e⁻ˣ)` (ADBench's `sigmoid`).
#[grad]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// ADBench's LSTM `logsumexp`: `ln(Σᵢ exp(xᵢ) + 2)`.
#[grad]
pub fn logsumexp<const B: usize>(x: &[f64; B]) -> f64 {
    let mut sum = 0.0;
    for i in 0..B {
        sum += x[i].exp();
    }
    (sum + 2.0).ln()
}

/// ADBench's `lstm_objective` over `C` characters (so `C − 1` predictions), the length a const
/// generic: the reverse sweep stores what each step's sweep reads (the gates and their
/// partials, the cells' `tanh`, each layer's input, the prediction), about `8 C (11 L B + 3 B)`
/// bytes on the stack (5 167 008 bytes at ADBench's largest instance, `L = 4`, `B = 14`,
/// `C = 1024`, over the macro's default budget of 512 KiB, hence `stack = 8_000_000`).
#[grad(wrt(main_params, extra_params), stack = 8_000_000)]
pub fn objective<const L: usize, const B: usize, const C: usize>(
    main_params: &[[[f64; B]; 8]; L],
    extra_params: &[[f64; B]; 3],
    state: &[[[f64; B]; 2]; L],
    sequence: &[[f64; B]; C],
) -> f64 {
    let mut hidden = [[0.0; B]; L];
    let mut cell = [[0.0; B]; L];
    for l in 0..L {
        for i in 0..B {
            hidden[l][i] = state[l][0][i];
            cell[l][i] = state[l][1][i];
        }
    }
    let mut total = 0.0;
    for t in 1..C {
        // lstm_predict: the input weights, the layers, the output weights and biases.
        let mut layer_output = [0.0; B];
        for i in 0..B {
            layer_output[i] = sequence[t - 1][i] * extra_params[0][i];
        }
        for l in 0..L {
            // lstm_model.
            for i in 0..B {
                let forget = sigmoid(layer_output[i] * main_params[l][0][i] + main_params[l][4][i]);
                let ingate = sigmoid(hidden[l][i] * main_params[l][1][i] + main_params[l][5][i]);
                let outgate =
                    sigmoid(layer_output[i] * main_params[l][2][i] + main_params[l][6][i]);
                let change = (hidden[l][i] * main_params[l][3][i] + main_params[l][7][i]).tanh();
                cell[l][i] = cell[l][i] * forget + ingate * change;
                hidden[l][i] = outgate * cell[l][i].tanh();
            }
            layer_output = hidden[l];
        }
        let mut ypred = [0.0; B];
        for i in 0..B {
            ypred[i] = layer_output[i] * extra_params[1][i] + extra_params[2][i];
        }
        let lse = logsumexp(&ypred);
        for i in 0..B {
            total += sequence[t][i] * (ypred[i] - lse);
        }
    }
    -total / ((C - 1) * B) as f64
}

/// [`objective`] over a sequence whose length is known at run time (`sequence.len()`
/// characters, at least 2), with [`objective`]'s stack budget: the reverse sweep stores every
/// step in the smallest capacity tier (64, 1024, 16384 or 262144 steps) that holds the sequence
/// and fits the budget, and is checkpointed past them (32 snapshots of the state, the macro's
/// default, and a binomial recomputation schedule).
#[grad(wrt(main_params, extra_params), stack = 8_000_000)]
pub fn objective_dyn<const L: usize, const B: usize>(
    main_params: &[[[f64; B]; 8]; L],
    extra_params: &[[f64; B]; 3],
    state: &[[[f64; B]; 2]; L],
    sequence: &[[f64; B]],
) -> f64 {
    let mut hidden = [[0.0; B]; L];
    let mut cell = [[0.0; B]; L];
    for l in 0..L {
        for i in 0..B {
            hidden[l][i] = state[l][0][i];
            cell[l][i] = state[l][1][i];
        }
    }
    let mut total = 0.0;
    for t in 1..sequence.len() {
        let mut layer_output = [0.0; B];
        for i in 0..B {
            layer_output[i] = sequence[t - 1][i] * extra_params[0][i];
        }
        for l in 0..L {
            for i in 0..B {
                let forget = sigmoid(layer_output[i] * main_params[l][0][i] + main_params[l][4][i]);
                let ingate = sigmoid(hidden[l][i] * main_params[l][1][i] + main_params[l][5][i]);
                let outgate =
                    sigmoid(layer_output[i] * main_params[l][2][i] + main_params[l][6][i]);
                let change = (hidden[l][i] * main_params[l][3][i] + main_params[l][7][i]).tanh();
                cell[l][i] = cell[l][i] * forget + ingate * change;
                hidden[l][i] = outgate * cell[l][i].tanh();
            }
            layer_output = hidden[l];
        }
        let mut ypred = [0.0; B];
        for i in 0..B {
            ypred[i] = layer_output[i] * extra_params[1][i] + extra_params[2][i];
        }
        let lse = logsumexp(&ypred);
        for i in 0..B {
            total += sequence[t][i] * (ypred[i] - lse);
        }
    }
    -total / ((sequence.len() - 1) * B) as f64
}

/// [`objective_dyn`] with the default stack budget (512 KiB), whose loop over 1023 steps is
/// checkpointed (32 snapshots; its inner loops stored) as every run-time length was before it
/// was stored when it fits: its 1024-step tier, 0.9 MB at l = 2, does not fit that budget (the
/// 64-step one does, for sequences of at most 64 characters).
#[grad(wrt(main_params, extra_params))]
pub fn objective_dyn_checkpointed<const L: usize, const B: usize>(
    main_params: &[[[f64; B]; 8]; L],
    extra_params: &[[f64; B]; 3],
    state: &[[[f64; B]; 2]; L],
    sequence: &[[f64; B]],
) -> f64 {
    let mut hidden = [[0.0; B]; L];
    let mut cell = [[0.0; B]; L];
    for l in 0..L {
        for i in 0..B {
            hidden[l][i] = state[l][0][i];
            cell[l][i] = state[l][1][i];
        }
    }
    let mut total = 0.0;
    for t in 1..sequence.len() {
        let mut layer_output = [0.0; B];
        for i in 0..B {
            layer_output[i] = sequence[t - 1][i] * extra_params[0][i];
        }
        for l in 0..L {
            for i in 0..B {
                let forget = sigmoid(layer_output[i] * main_params[l][0][i] + main_params[l][4][i]);
                let ingate = sigmoid(hidden[l][i] * main_params[l][1][i] + main_params[l][5][i]);
                let outgate =
                    sigmoid(layer_output[i] * main_params[l][2][i] + main_params[l][6][i]);
                let change = (hidden[l][i] * main_params[l][3][i] + main_params[l][7][i]).tanh();
                cell[l][i] = cell[l][i] * forget + ingate * change;
                hidden[l][i] = outgate * cell[l][i].tanh();
            }
            layer_output = hidden[l];
        }
        let mut ypred = [0.0; B];
        for i in 0..B {
            ypred[i] = layer_output[i] * extra_params[1][i] + extra_params[2][i];
        }
        let lse = logsumexp(&ypred);
        for i in 0..B {
            total += sequence[t][i] * (ypred[i] - lse);
        }
    }
    -total / ((sequence.len() - 1) * B) as f64
}
