//! HMAC through the `hmac` module of ring and of aws-lc-rs, which mirrors
//! ring's API (`hmac::Key`, `hmac::sign`, `hmac::Context`): one definition,
//! instantiated per crate. A `message` is `hmac::sign` on the kept key (it
//! starts from a copy of the keyed inner and outer states, as OpenSSL's
//! `HMAC_Init_ex` with a NULL key does), a `stream` updates one
//! `hmac::Context`, its tag read from a clone. Both crates offer HMAC as
//! their only MAC, over SHA-1 and SHA-2 (no MD5).

macro_rules! provider_hmac {
    ($krate:ident, $name:literal) => {
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
}

pub(crate) use provider_hmac;
