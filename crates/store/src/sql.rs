//! The little SQL both databases are asked to run, so that what is stored
//! and how it is read back is written once ([`crate::records`]).

use crate::StoreError;

/// A typed parameter or column value (typed even when NULL, as PostgreSQL
/// checks parameter types).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(Option<i64>),
    Real(Option<f64>),
    Text(Option<String>),
}

impl Value {
    pub fn int(v: impl TryInto<i64>) -> Value {
        Value::Int(v.try_into().ok())
    }
    pub fn text(v: impl Into<String>) -> Value {
        Value::Text(Some(v.into()))
    }
    pub fn opt_text(v: Option<&String>) -> Value {
        Value::Text(v.cloned())
    }
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(v) => *v,
            _ => None,
        }
    }
    pub fn as_text(&self) -> Option<String> {
        match self {
            Value::Text(v) => v.clone(),
            _ => None,
        }
    }
}

/// One open transaction. Statements use `?` placeholders; the PostgreSQL
/// side numbers them.
pub trait Transaction {
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError>;
    /// Runs an `INSERT … RETURNING id`.
    fn insert(&mut self, sql: &str, params: &[Value]) -> Result<i64, StoreError>;
    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Vec<Value>>, StoreError>;
}

/// `?` → `$1`, `$2`, … (no statement here has a `?` inside a string literal).
pub fn number_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut n = 0;
    for ch in sql.chars() {
        if ch == '?' {
            n += 1;
            out.push_str(&format!("${n}"));
        } else {
            out.push(ch);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn placeholders_are_numbered() {
        assert_eq!(super::number_placeholders("a = ? AND b = ?"), "a = $1 AND b = $2");
    }
}
