// Checks what stays refused of labels: a labelled block (at its label), and a `break` naming an
// outer loop inside an expression (at the `break`, saying to write it as a statement).
use autodiff_runtime::grad;

#[grad]
fn block_value(x: f64) -> f64 {
    let y = 'b: {
        if x > 1.0 {
            break 'b 1.0;
        }
        x
    };
    y * x
}

#[grad]
fn first_pair(x: [f64; 4]) -> f64 {
    let mut s = 0.0;
    'rows: for i in 0..4 {
        for j in 0..4 {
            let p = if x[i] * x[j] > 1.0 { break 'rows } else { x[i] * x[j] };
            s += p;
        }
    }
    s
}

fn main() {}
