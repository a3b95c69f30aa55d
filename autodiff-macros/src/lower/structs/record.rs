//! Struct values in the body: a literal `Quat { w, x: -q.x, ..base }` is a record, a tuple whose
//! parts have names, never a value of the IR: its fields are bound as variables are (`q.w` reads
//! one, `q.w = e` and `q.v[i] += e` update one), loops and branches carry them, and a function
//! returning a struct returns its fields (a vector function). The macro does not know the
//! struct's definition: a literal names every field (rustc checks it), so a record knows all of
//! its fields, kept in the order of their names (two literals of one type have the same parts).

use std::rc::Rc;

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{Expr, ExprStruct, Member};

use super::super::value::Value;
use super::super::{Binding, Lower};
use crate::ir::Operand;

/// The shape of a struct value: its type as written, and its fields in order.
pub(in crate::lower) struct Record {
    /// The struct's path (`Quat`, `Self`, `geometry::Quat`).
    pub path: syn::Path,
    /// Its fields, ordered by name.
    pub members: Vec<Member>,
}

impl PartialEq for Record {
    fn eq(&self, other: &Self) -> bool {
        self.members == other.members
            && self.path.to_token_stream().to_string() == other.path.to_token_stream().to_string()
    }
}

/// A field's name as text, for ordering and messages.
pub(in crate::lower) fn member_text(m: &Member) -> String {
    m.to_token_stream().to_string()
}

impl Lower<'_> {
    /// The value of the struct literal `s`: its fields evaluated in the order written.
    pub(in crate::lower) fn struct_literal(&mut self, s: &ExprStruct) -> Value {
        if let Some(q) = &s.qself {
            self.cx.error_spanned(&q.ty, "`#[grad]` supports struct literals named by a plain path, such as `Quat { w, x, y, z }`");
            return Value::Int(None);
        }
        let mut fields: Vec<(Member, Value)> = Vec::new();
        for f in &s.fields {
            let v = self.value(&f.expr);
            fields.push((f.member.clone(), v));
        }
        if let Some(rest) = &s.rest {
            match self.value(rest) {
                Value::Record(shape, parts) => {
                    for (m, v) in shape.members.iter().zip(parts) {
                        if !fields.iter().any(|(f, _)| f == m) {
                            fields.push((m.clone(), v));
                        }
                    }
                }
                Value::Int(None) => {}
                _ => self.cx.error_spanned(
                    rest,
                    "`#[grad]` supports `..base` in a struct literal only for a struct value of the body (a literal, or a variable bound to one), whose fields it knows",
                ),
            }
        }
        fields.sort_by_key(|(m, _)| member_text(m));
        let (members, parts) = fields.into_iter().unzip();
        Value::Record(Rc::new(Record { path: s.path.clone(), members }), parts)
    }

    /// The binding of `base.member` for a record `base` (a name, or a field of a record).
    pub(in crate::lower) fn record_field(
        &self,
        base: &Binding,
        member: &Member,
    ) -> Option<Binding> {
        let Binding::Record(shape, parts) = base else { return None };
        let k = shape.members.iter().position(|m| m == member)?;
        parts.get(k).cloned()
    }

    /// The shape of the struct value whose field `e` reads, when the base is one and has no
    /// such field.
    pub(in crate::lower) fn missing_field(&self, e: &Expr) -> Option<Rc<Record>> {
        let Expr::Field(f) = e else { return None };
        let base = match super::super::value::peel(&f.base) {
            Expr::Path(p) => self.lookup(&crate::symbol::unraw(p.path.get_ident()?))?.clone(),
            inner @ Expr::Field(_) => self.tuple_component(inner)?,
            _ => return None,
        };
        match &base {
            Binding::Record(shape, _) if self.record_field(&base, &f.member).is_none() => {
                Some(Rc::clone(shape))
            }
            _ => None,
        }
    }

    /// Reports a field of a struct value that the struct has not.
    pub(in crate::lower) fn no_such_field(&mut self, e: &Expr, shape: &Record) {
        let fields: Vec<String> = shape.members.iter().map(member_text).collect();
        let ty = shape.path.to_token_stream().to_string().replace(' ', "");
        self.cx.error_spanned(
            e,
            format!(
                "this reads a field that the `{ty}` value has not; its fields are {}",
                fields.join(", ")
            ),
        );
    }

    /// The binding of the record named `name` with the values `parts`: a variable per field,
    /// named after the record and the field (`q_w`).
    pub(in crate::lower) fn record_binding(
        &mut self,
        name: &str,
        shape: &Rc<Record>,
        parts: Vec<Value>,
    ) -> Binding {
        let bound = shape
            .members
            .iter()
            .zip(parts)
            .map(|(m, v)| {
                let field = format!("{name}_{}", member_text(m));
                self.part_binding(&field, v)
            })
            .collect();
        Binding::Record(Rc::clone(shape), bound)
    }

    /// The operands of a record's value that are values of the IR, in order, with the tokens of
    /// its constant fields: what a function returning the struct returns.
    pub(in crate::lower) fn record_output(
        &mut self,
        e: &Expr,
        shape: &Record,
        parts: Vec<Value>,
        ops: &mut Vec<Operand>,
    ) -> super::super::RecordOut {
        let mut fields = Vec::new();
        for (m, v) in shape.members.iter().zip(parts) {
            let out = match v {
                Value::Real { op, .. } => {
                    let flat = self.b.func().operand_ty(op).is_flat_field();
                    ops.push(op);
                    match flat {
                        true => super::super::FieldOut::Flat(ops.len() - 1),
                        false => super::super::FieldOut::Output(ops.len() - 1),
                    }
                }
                Value::Int(Some(k)) => super::super::FieldOut::Const(k.tokens.clone()),
                Value::Record(inner, parts) => {
                    super::super::FieldOut::Record(self.record_output(e, &inner, parts, ops))
                }
                Value::Int(None) => super::super::FieldOut::Const(TokenStream::new()),
                Value::Tuple(_) | Value::Closure(_) | Value::View(_) => {
                    self.cx.error_spanned(e, format!("`#[grad]` returns struct fields that are `f64` values, arrays, integers or structs, not the field `{}` here", member_text(m)));
                    super::super::FieldOut::Const(TokenStream::new())
                }
            };
            fields.push((m.clone(), out));
        }
        super::super::RecordOut { path: shape.path.clone(), fields, flat: None }
    }
}
