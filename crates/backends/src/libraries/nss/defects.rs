//! NSS's known defects (data: crate::known_defects says what each field
//! means), of the algorithms cryptobench drives through its PK11 API.

use crate::known_defects::KnownDefect;

pub static KNOWN_DEFECTS: &[KnownDefect] = &[];
