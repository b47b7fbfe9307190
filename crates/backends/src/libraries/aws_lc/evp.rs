//! AWS-LC's EVP_PKEY calls (crates/backends/src/libraries/evp_pk.rs, one
//! definition with BoringSSL's), through aws-lc-sys: the AWS-LC build that
//! aws-lc-rs links.

crate::libraries::evp_pk::evp_pk!(aws_lc_sys);
