use std::path::PathBuf;

use crate::StoreError;

/// Where runs are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A SQLite file (created when missing).
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://user[:password]@host[:port]/dbname`).
    Postgres(String),
}

impl Location {
    /// `postgres://…` or `postgresql://…` is PostgreSQL; anything else a file path.
    pub fn parse(text: &str) -> Result<Location, StoreError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(StoreError::BadLocation { text: text.into() });
        }
        if t.starts_with("postgres://") || t.starts_with("postgresql://") {
            return Ok(Location::Postgres(t.into()));
        }
        if t.contains("://") {
            return Err(StoreError::BadLocation { text: text.into() });
        }
        Ok(Location::Sqlite(PathBuf::from(t)))
    }

    /// `runs.sqlite` in cryptobench's folder of the user's data directory
    /// (Linux: `$XDG_DATA_HOME/cryptobench`, usually `~/.local/share/cryptobench`).
    pub fn default_sqlite() -> Option<Location> {
        dirs::data_dir().map(|d| Location::Sqlite(d.join("cryptobench").join("runs.sqlite")))
    }

    /// How to show it to the user, without a password.
    pub fn display(&self) -> String {
        match self {
            Location::Sqlite(p) => p.display().to_string(),
            Location::Postgres(url) => redact(url),
        }
    }
}

/// `postgres://user:secret@host/db` → `postgres://user:***@host/db`.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.into();
    };
    match rest.split_once('@') {
        Some((auth, host)) => match auth.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
            None => url.into(),
        },
        None => url.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_paths() {
        assert_eq!(
            Location::parse("postgres://u@h/db").unwrap(),
            Location::Postgres("postgres://u@h/db".into())
        );
        assert_eq!(Location::parse("runs.db").unwrap(), Location::Sqlite("runs.db".into()));
        assert!(Location::parse("mysql://h/db").is_err());
        assert!(Location::parse(" ").is_err());
        assert_eq!(redact("postgres://u:pw@h:5432/db"), "postgres://u:***@h:5432/db");
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
    }
}
