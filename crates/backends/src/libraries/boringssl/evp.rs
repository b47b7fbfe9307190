//! BoringSSL's EVP_PKEY calls (crates/backends/src/libraries/evp_pk.rs,
//! one definition with AWS-LC's), through boring-sys.

crate::libraries::evp_pk::evp_pk!(boring_sys);
