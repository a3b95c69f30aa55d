//! The transforms, each IR to IR: reverse mode, forward mode, and the clean-up between them.
//! Hessian-vector products are `forward(reverse(f))`: nothing is special-cased.

mod activity;
mod additive;
mod arrays;
mod budget;
mod calls;
mod carry;
mod cleanup;
mod cse;
mod first_touch;
mod first_write;
mod fission;
mod forward;
mod fuse;
mod hoist;
mod join;
mod loops;
mod plan;
mod promote;
mod residual;
mod reverse;
mod sink;
mod split;
mod storage_hoist;
mod stores;
mod widen;
mod wrap;

pub use budget::{capacities, has_run_time_loop, storage, total};
pub use calls::{grad_calls, has_vector_calls};
pub use carry::carry_elements;
pub use cleanup::{dead_code, select_outputs};
pub use first_touch::first_touch;
pub use first_write::{Written, written_first};
pub use fission::fission;
pub use forward::forward;
pub use fuse::fuse;
pub use hoist::hoist;
pub use join::join_branches;
pub use plan::{Options, plan};
pub use promote::promote;
pub use reverse::{Seed, reverse, reverse_marked};
pub use sink::sink;
pub use split::{halves, keep_residuals};
pub use storage_hoist::hoist_storage;
pub use stores::forward_stores;
pub use widen::widen;
pub use wrap::split_wraps;

use crate::ir::{Builder, Elem, Name, Operand, Prim, Ty};

/// Sums `terms` into one operand, naming the final sum `name`; `None` for an empty sum (an exact
/// zero). A single term that is a temporary of the transform takes the name instead.
fn sum(b: &mut Builder, terms: Vec<Operand>, name: Name) -> Option<Operand> {
    let mut terms = terms.into_iter();
    let mut acc = terms.next()?;
    let mut rest = terms.peekable();
    while let Some(t) = rest.next() {
        acc = if rest.peek().is_none() {
            b.push_named(name.clone(), Prim::Add, &[acc, t])
        } else {
            b.push(Prim::Add, &[acc, t])
        };
    }
    // Name the sum after the variable, unless it is a value of the primal pass (where a name
    // like `p_bar` would mislead).
    if !b.is_copied(acc) {
        b.name_temp(acc, name);
    }
    Some(acc)
}

/// The zero of type `ty`: `0.0`, `false`, or an array of them (emitted into `b`).
fn zero(b: &mut Builder, ty: &Ty) -> Operand {
    match ty {
        Ty::F64 | Ty::Other => Operand::Lit(0.0),
        Ty::Bool => Operand::Bool(false),
        // Never an adjoint's type; as a storage's element, codegen writes rustc's zero.
        Ty::Residuals => Operand::Lit(0.0),
        Ty::Array(s) => {
            let value = match s.elem {
                Elem::F64 | Elem::Other | Elem::Residuals => Operand::Lit(0.0),
                Elem::Bool => Operand::Bool(false),
            };
            b.fill(Name::temp(), ty.clone(), value)
        }
    }
}
