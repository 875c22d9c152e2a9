//! What goes into the store's queries and comes out of them, the same for SQLite and
//! PostgreSQL: a [`Value`] per parameter and column (NULL, integer, real, text; a bool is
//! an integer, as SQLite keeps it), and a [`Row`] that reads one back as a Rust type. Each
//! backend's conversion lives here, so a query is written once.

use postgres::types::{FromSql, IsNull, ToSql, Type};
use std::error::Error;

/// A parameter of a query, or a column of its result.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<u32> for Value {
    fn from(v: u32) -> Value {
        Value::Int(v.into())
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Int(v.into())
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_string())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// One row of a query's result, its columns in the order selected.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row(pub(crate) Vec<Value>);

impl Row {
    /// Column `k` as a `T`; an error names the column and what it held.
    pub(crate) fn get<T: FromValue>(&self, k: usize) -> anyhow::Result<T> {
        let value = self.0.get(k).unwrap_or(&Value::Null);
        T::from_value(value).ok_or_else(|| {
            anyhow::anyhow!(
                "column {k} of a query holds {value:?}, not {}",
                std::any::type_name::<T>()
            )
        })
    }
}

/// A Rust type a column reads as; `None` where the value is not one.
pub(crate) trait FromValue: Sized {
    fn from_value(value: &Value) -> Option<Self>;
}

impl FromValue for i64 {
    fn from_value(value: &Value) -> Option<i64> {
        match value {
            Value::Int(v) => Some(*v),
            _ => None,
        }
    }
}

impl FromValue for u32 {
    fn from_value(value: &Value) -> Option<u32> {
        i64::from_value(value).and_then(|v| v.try_into().ok())
    }
}

impl FromValue for bool {
    fn from_value(value: &Value) -> Option<bool> {
        i64::from_value(value).map(|v| v != 0)
    }
}

impl FromValue for f64 {
    fn from_value(value: &Value) -> Option<f64> {
        match value {
            Value::Real(v) => Some(*v),
            // SQLite may hand back a whole REAL as an integer.
            Value::Int(v) => Some(*v as f64),
            _ => None,
        }
    }
}

impl FromValue for String {
    fn from_value(value: &Value) -> Option<String> {
        match value {
            Value::Text(v) => Some(v.clone()),
            _ => None,
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: &Value) -> Option<Option<T>> {
        match value {
            Value::Null => Some(None),
            value => T::from_value(value).map(Some),
        }
    }
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(match self {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(v) => ToSqlOutput::Borrowed(ValueRef::Integer(*v)),
            Value::Real(v) => ToSqlOutput::Borrowed(ValueRef::Real(*v)),
            Value::Text(v) => ToSqlOutput::Borrowed(ValueRef::Text(v.as_bytes())),
        })
    }
}

impl Value {
    /// A SQLite column as read.
    pub(super) fn from_sqlite(value: rusqlite::types::ValueRef) -> anyhow::Result<Value> {
        use rusqlite::types::ValueRef;
        Ok(match value {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(v) => Value::Int(v),
            ValueRef::Real(v) => Value::Real(v),
            ValueRef::Text(v) => Value::Text(String::from_utf8(v.to_vec())?),
            ValueRef::Blob(_) => anyhow::bail!("the store holds a blob where none is written"),
        })
    }
}

type BoxError = Box<dyn Error + Sync + Send>;

/// A parameter goes as the type PostgreSQL inferred for it: an integer to an `int4`
/// parameter as an `int4` (refused if it does not fit), to a `double precision` one as a
/// double, and so on; a value of another kind is refused by the inner type's check.
impl ToSql for Value {
    fn to_sql(&self, ty: &Type, out: &mut bytes::BytesMut) -> Result<IsNull, BoxError> {
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(v) => match *ty {
                Type::INT2 => i16::try_from(*v)?.to_sql_checked(ty, out),
                Type::INT4 => i32::try_from(*v)?.to_sql_checked(ty, out),
                Type::BOOL => (*v != 0).to_sql_checked(ty, out),
                Type::FLOAT8 => (*v as f64).to_sql_checked(ty, out),
                _ => v.to_sql_checked(ty, out),
            },
            Value::Real(v) => v.to_sql_checked(ty, out),
            Value::Text(v) => v.to_sql_checked(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

/// PostgreSQL's integer, float, text and bool columns, as the same few values.
impl<'a> FromSql<'a> for Value {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Value, BoxError> {
        Ok(match *ty {
            Type::BOOL => Value::Int(bool::from_sql(ty, raw)?.into()),
            Type::INT2 => Value::Int(i16::from_sql(ty, raw)?.into()),
            Type::INT4 => Value::Int(i32::from_sql(ty, raw)?.into()),
            Type::INT8 => Value::Int(i64::from_sql(ty, raw)?),
            Type::FLOAT4 => Value::Real(f32::from_sql(ty, raw)?.into()),
            Type::FLOAT8 => Value::Real(f64::from_sql(ty, raw)?),
            _ => Value::Text(String::from_sql(ty, raw)?),
        })
    }

    fn from_sql_null(_: &Type) -> Result<Value, BoxError> {
        Ok(Value::Null)
    }

    fn accepts(ty: &Type) -> bool {
        matches!(
            *ty,
            Type::BOOL | Type::INT2 | Type::INT4 | Type::INT8 | Type::FLOAT4 | Type::FLOAT8
        ) || <String as FromSql>::accepts(ty)
    }
}
