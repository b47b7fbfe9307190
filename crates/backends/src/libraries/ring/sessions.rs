//! ring's sessions (crate::libraries::provider, shared with aws-lc-rs):
//! AEADs as `aead::LessSafeKey` (`seal_in_place_separate_tag` per message,
//! `UnboundKey::new` for `--rekey`, which allocates nothing in ring), ring
//! opening only in place; `digest::digest` / `digest::Context`; HMAC.

crate::libraries::provider::provider_sessions!(
    ring_crate,
    "ring",
    open: in_place,
    rekey_allocates: None,
    digest_allocates: |_| None
);
