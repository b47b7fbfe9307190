//! The sessions of rustls's two crypto providers, ring and aws-lc-rs, whose
//! APIs have one shape (aws-lc-rs mirrors ring's `aead`, `digest` and `hmac`
//! modules): one definition, instantiated per crate in its folder's
//! sessions.rs.
//!
//! - AEADs: a key kept as `aead::LessSafeKey`; a message is
//!   `seal_in_place_separate_tag`, `--rekey` is `UnboundKey::new` with
//!   `LessSafeKey::new`. Decryption differs between the crates, and is
//!   named per crate: ring opens only in place (`open_in_place_separate_tag`,
//!   so the ciphertext is copied into the output first: verification only,
//!   ring's timed decryption is refused), aws-lc-rs also into a separate
//!   buffer (`open_separate_gather`).
//! - Digests: `digest::digest` per message, one `digest::Context` for a
//!   stream, its value read from a clone.
//! - HMAC, both crates' only MAC, over SHA-1 and SHA-2 (no MD5): a message
//!   is `hmac::sign` on the kept key (it starts from a copy of the keyed
//!   inner and outer states, as OpenSSL's `HMAC_Init_ex` with a NULL key
//!   does), a stream updates one `hmac::Context`, its tag read from a clone.

/// Defines, for the crate `$krate` (named `$name` in texts): `failed`,
/// `whole_messages_only`, `Aead` (decrypting with `open: in_place` or
/// `open: separate_gather`; `rekey_allocates` names what the key setup
/// allocates, if it does), `Hash` (`digest_allocates`: what
/// `digest::digest` allocates for an algorithm, if it does), `hmac_of`
/// and `Hmac`.
macro_rules! provider_sessions {
    (
        $krate:ident,
        $name:literal,
        open: $open:ident,
        rekey_allocates: $allocates:expr,
        digest_allocates: $digest_allocates:expr
    ) => {
        /// A call that returned `Unspecified`.
        pub fn failed(call: &'static str) -> crate::error::BackendError {
            crate::error::BackendError::Call {
                call,
                detail: concat!($name, " returned Unspecified").into(),
            }
        }

        /// Why an AEAD has no `stream` cells.
        pub fn whole_messages_only(id: &str) -> String {
            format!(
                concat!("{} in stream mode (", $name, "'s AEAD API seals whole messages only; use --mode message)"),
                id
            )
        }

        /// An AEAD key kept as `LessSafeKey`.
        pub struct Aead {
            algorithm: &'static $krate::aead::Algorithm,
            key: $krate::aead::LessSafeKey,
        }

        impl Aead {
            pub fn new(algorithm: &'static $krate::aead::Algorithm, key: &[u8]) -> Result<Aead, crate::error::BackendError> {
                let unbound = $krate::aead::UnboundKey::new(algorithm, key).map_err(|_| failed("UnboundKey::new"))?;
                Ok(Aead {
                    algorithm,
                    key: $krate::aead::LessSafeKey::new(unbound),
                })
            }
        }

        fn nonce(iv: &[u8]) -> Result<$krate::aead::Nonce, crate::error::BackendError> {
            $krate::aead::Nonce::try_assume_unique_for_key(iv)
                .map_err(|_| crate::error::BackendError::Invalid(concat!($name, " takes 96-bit nonces only").into()))
        }

        impl crate::sessions::CipherSession for Aead {
            /// `UnboundKey::new` and `LessSafeKey::new`: the key set up anew.
            fn rekey(&mut self, key: &[u8]) -> Result<(), crate::error::BackendError> {
                *self = Aead::new(self.algorithm, key)?;
                Ok(())
            }

            fn update(&mut self, _buf: &mut [u8]) -> Result<(), crate::error::BackendError> {
                Err(crate::sessions::unsupported(concat!(
                    "streaming AEAD updates (",
                    $name,
                    " seals whole messages only)"
                )))
            }

            fn seal(&mut self, iv: &[u8], aad: &[u8], buf: &mut [u8], tag: &mut [u8]) -> Result<(), crate::error::BackendError> {
                let t = self
                    .key
                    .seal_in_place_separate_tag(nonce(iv)?, $krate::aead::Aad::from(aad), buf)
                    .map_err(|_| failed("LessSafeKey::seal_in_place_separate_tag"))?;
                if tag.len() != t.as_ref().len() {
                    return Err(crate::error::BackendError::Invalid(format!(
                        concat!($name, "'s tags are {} bytes"),
                        t.as_ref().len()
                    )));
                }
                tag.copy_from_slice(t.as_ref());
                Ok(())
            }

            fn open(&mut self, iv: &[u8], aad: &[u8], input: &[u8], out: &mut [u8], tag: &[u8]) -> Result<(), crate::error::BackendError> {
                let nonce = nonce(iv)?;
                crate::libraries::provider::provider_sessions!(@open $open, $krate, self.key, nonce, aad, input, out, tag)
                    .map_err(|_| crate::error::BackendError::AuthenticationFailed)
            }

            fn allocates(&self, _mode: cryptobench_core::Mode, rekey: bool) -> Option<crate::named::Allocation> {
                if rekey {
                    $allocates
                } else {
                    None
                }
            }
        }

        /// A digest: the one-shot call per message, a kept context for a stream.
        pub struct Hash {
            algorithm: &'static $krate::digest::Algorithm,
            context: $krate::digest::Context,
        }

        impl Hash {
            pub fn new(algorithm: &'static $krate::digest::Algorithm) -> Hash {
                Hash {
                    algorithm,
                    context: $krate::digest::Context::new(algorithm),
                }
            }
        }

        impl crate::sessions::DigestSession for Hash {
            fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), crate::error::BackendError> {
                out.copy_from_slice($krate::digest::digest(self.algorithm, msg).as_ref());
                Ok(())
            }
            fn update(&mut self, msg: &[u8]) -> Result<(), crate::error::BackendError> {
                self.context.update(msg);
                Ok(())
            }
            fn peek(&mut self) -> Result<Vec<u8>, crate::error::BackendError> {
                Ok(self.context.clone().finish().as_ref().to_vec())
            }
            fn allocates(&self, message: bool) -> Option<crate::named::Allocation> {
                let one_shot: fn(&'static $krate::digest::Algorithm) -> Option<crate::named::Allocation> = $digest_allocates;
                message.then(|| one_shot(self.algorithm)).flatten()
            }
        }

        /// The HMAC a catalog id names, or why the crate has none.
        pub fn hmac_of(alg: &cryptobench_core::AlgorithmSpec) -> Result<$krate::hmac::Algorithm, crate::error::BackendError> {
            use $krate::hmac;
            match alg.id {
                "hmac-sha1" => Ok(hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY),
                "hmac-sha256" => Ok(hmac::HMAC_SHA256),
                "hmac-sha512" => Ok(hmac::HMAC_SHA512),
                "hmac-md5" => Err(crate::sessions::unsupported(concat!("hmac-md5 (", $name, " has no MD5)"))),
                id => Err(crate::sessions::unsupported(format!(
                    concat!("{} (", $name, " offers HMAC as its only MAC)"),
                    id
                ))),
            }
        }

        /// A keyed HMAC: the key for messages, one context for a stream.
        pub struct Hmac {
            key: $krate::hmac::Key,
            context: $krate::hmac::Context,
        }

        impl Hmac {
            pub fn new(algorithm: $krate::hmac::Algorithm, key: &[u8]) -> Hmac {
                let key = $krate::hmac::Key::new(algorithm, key);
                Hmac {
                    context: $krate::hmac::Context::with_key(&key),
                    key,
                }
            }
        }

        impl crate::sessions::DigestSession for Hmac {
            fn digest(&mut self, msg: &[u8], out: &mut [u8]) -> Result<(), crate::error::BackendError> {
                out.copy_from_slice($krate::hmac::sign(&self.key, msg).as_ref());
                Ok(())
            }
            fn update(&mut self, msg: &[u8]) -> Result<(), crate::error::BackendError> {
                self.context.update(msg);
                Ok(())
            }
            fn peek(&mut self) -> Result<Vec<u8>, crate::error::BackendError> {
                Ok(self.context.clone().sign().as_ref().to_vec())
            }
        }
    };
    // Decryption in place: the ciphertext is copied into `out` first (verification only).
    (@open in_place, $krate:ident, $key:expr, $nonce:expr, $aad:expr, $input:expr, $out:expr, $tag:expr) => {{
        $out.copy_from_slice($input);
        $krate::aead::Tag::try_from($tag).and_then(|tag| {
            $key.open_in_place_separate_tag($nonce, $krate::aead::Aad::from($aad), tag, $out, 0..)
                .map(drop)
        })
    }};
    // Decryption from the prepared ciphertext into `out`.
    (@open separate_gather, $krate:ident, $key:expr, $nonce:expr, $aad:expr, $input:expr, $out:expr, $tag:expr) => {
        $key.open_separate_gather($nonce, $krate::aead::Aad::from($aad), $input, $tag, $out)
    };
}

pub(crate) use provider_sessions;
