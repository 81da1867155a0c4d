//! Reading columns back into typed values: a text column parsed (`FromStr`), a JSON column
//! deserialized. A value that does not read is a SQLite conversion error, which the caller types
//! with `ledger::SqlContext` like any other.

pub(crate) fn parse<T: std::str::FromStr>(s: &str) -> rusqlite::Result<T> {
    s.parse().map_err(|_| {
        rusqlite::Error::InvalidColumnType(0, s.to_owned(), rusqlite::types::Type::Text)
    })
}

pub(crate) fn from_json<T: serde::de::DeserializeOwned>(s: &str) -> rusqlite::Result<T> {
    serde_json::from_str(s).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(e))
    })
}

/// A row folded into JSON text. Events and records are plain data: serializing them cannot
/// fail.
pub(crate) fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}
