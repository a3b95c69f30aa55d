//! The storage of a stored loop, as the forward pass fills it and the sweep reads it: one array
//! per value its plan saves (a slot per iteration), and, for each inner loop whose storage it
//! nests, one array per array of that loop's storage (each slot one run's whole storage).

use super::Rev;
use crate::ir::{Int, LoopId, Operand, Ty, Var};

/// One run's storage of a loop.
#[derive(Clone, Debug, Default)]
pub(super) struct Stored {
    /// Each saved value, with the array that holds it.
    pub values: Vec<(Var, Var)>,
    /// The storage of each inner loop it nests, held in arrays of this loop's.
    pub nested: Vec<(LoopId, Stored)>,
}

impl Stored {
    /// Every array, in the order of [`Rev::storage_types`].
    pub fn arrays(&self) -> Vec<Var> {
        let mut out: Vec<Var> = self.values.iter().map(|(_, a)| *a).collect();
        for (_, inner) in &self.nested {
            out.extend(inner.arrays());
        }
        out
    }

    /// The values held, in the same order (a nested array holds the inner loop's value).
    pub fn held(&self) -> Vec<Var> {
        let mut out: Vec<Var> = self.values.iter().map(|(v, _)| *v).collect();
        for (_, inner) in &self.nested {
            out.extend(inner.held());
        }
        out
    }
}

impl Rev<'_> {
    /// The arrays of one run's storage of loop `l` (what [`Stored::arrays`] lists), each with
    /// the value it holds and its type: one slot per index of `l`, each a value its plan saves,
    /// then, for each loop it nests, that loop's arrays.
    pub(super) fn storage_types(&self, l: LoopId) -> Vec<(Var, Ty)> {
        let Some(plan) = self.plans.loops.get(&l) else { return Vec::new() };
        let size = plan.size.clone().unwrap_or_else(|| Int::lit(0));
        let mut out: Vec<(Var, Ty)> =
            plan.saved.iter().map(|v| (*v, self.f.ty(*v).repeated(size.clone()))).collect();
        for j in &plan.nested {
            for (v, ty) in self.storage_types(*j) {
                out.push((v, ty.repeated(size.clone())));
            }
        }
        out
    }

    /// The storage of loop `l` from its arrays, in the order of [`Rev::storage_types`].
    pub(super) fn assemble(&self, l: LoopId, arrays: &mut impl Iterator<Item = Var>) -> Stored {
        let Some(plan) = self.plans.loops.get(&l) else { return Stored::default() };
        let values = plan.saved.iter().filter_map(|v| Some((*v, arrays.next()?))).collect();
        let nested = plan.nested.iter().map(|j| (*j, self.assemble(*j, arrays))).collect();
        Stored { values, nested }
    }

    /// `stored` at slot `slot` of the loop that holds it: the inner loop's storage of that
    /// iteration, loaded.
    pub(super) fn load_slot(&mut self, stored: &Stored, slot: &[Int]) -> Stored {
        let mut values = Vec::new();
        for (v, array) in &stored.values {
            let loaded = self.b.load(self.saved_name(*v), Operand::Var(*array), slot.to_vec());
            values.extend(loaded.var().map(|a| (*v, a)));
        }
        let nested =
            stored.nested.iter().map(|(j, inner)| (*j, self.load_slot(inner, slot))).collect();
        Stored { values, nested }
    }
}
