// Checks what stays refused of a `loop` used as a value: inside an expression (at the `loop`,
// saying to bind it first), giving an integer (at the `loop`, saying to write the type), and
// giving an array the macro cannot type (at the `break`'s value, with the type to write).
use autodiff_runtime::grad;

#[grad]
fn in_an_expression(x: f64) -> f64 {
    let mut y = x;
    2.0 * loop {
        y *= 0.5;
        if y < 1.0 {
            break y;
        }
    }
}

#[grad]
fn an_integer(x: f64) -> f64 {
    let n = loop {
        if x > 1.0 {
            break 3;
        }
    };
    x * n as f64
}

#[grad]
fn an_array_of_the_body(x: f64) -> f64 {
    let mut y = x;
    let z = loop {
        y *= 0.5;
        let t = [y, 2.0 * y];
        if y < 1.0 {
            break t;
        }
    };
    z[0] * z[1]
}

fn main() {}
