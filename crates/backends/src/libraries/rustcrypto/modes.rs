//! The plain cipher modes over RustCrypto's block ciphers, and ChaCha20, as
//! cipher sessions (crates/backends/src/sessions.rs). Semantics follow
//! OpenSSL's EVP update: CBC, CFB and CTR carry their state from one
//! `stream` update to the next; every XTS update is one data unit under the
//! IV as tweak (IEEE 1619-2007 §5.3).
//!
//! A session keeps one key schedule. `stream` runs an owned mode made over a
//! copy of it once, when the session is made. A `message` sets its IV on the
//! kept key schedule without copying it: the mode is built over a reference
//! to the kept cipher (`cbc::Encryptor::<&C>`, which the `cipher` crate
//! allows: `BlockCipherEncrypt`/`BlockCipherDecrypt` are implemented for
//! `&C`), so that setting an IV costs what it costs in OpenSSL, the IV's copy.

use aes::cipher::array::Array;
use aes::cipher::consts::U16;
use aes::cipher::{
    BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, BlockSizeUser, InnerIvInit, KeyInit, KeyIvInit,
    StreamCipher, StreamCipherCoreWrapper, StreamCipherSeek,
};

use crate::error::BackendError;
use crate::sessions::CipherSession;

/// A cipher session made from a cell's key and IV, for one direction.
pub trait Keyed: CipherSession + Sized {
    fn new(key: &[u8], iv: &[u8], encrypt: bool) -> Result<Self, BackendError>;
}

fn same_length(input: &[u8], out: &[u8]) -> Result<(), BackendError> {
    if input.len() != out.len() {
        return Err(BackendError::Invalid(format!(
            "input of {} bytes and output of {} bytes differ",
            input.len(),
            out.len()
        )));
    }
    Ok(())
}

fn uneven<E>(_: E) -> BackendError {
    BackendError::Invalid("input and output differ in length".into())
}

/// One block of `C`.
type BlockOf<C> = Array<u8, <C as BlockSizeUser>::BlockSize>;
/// A message read as blocks and the output written as blocks.
type BlockPairs<'a, 'b, C> = (&'a [BlockOf<C>], &'b mut [BlockOf<C>]);

/// Input and output as whole blocks of `C`.
fn block_pairs<'a, 'b, C: BlockSizeUser>(input: &'a [u8], out: &'b mut [u8]) -> Result<BlockPairs<'a, 'b, C>, BackendError> {
    same_length(input, out)?;
    let (inb, rest) = Array::<u8, C::BlockSize>::slice_as_chunks(input);
    if !rest.is_empty() {
        return Err(BackendError::Invalid("the input is not a whole number of blocks".into()));
    }
    Ok((inb, whole_blocks::<C>(out)?))
}

fn bad_length(what: &str) -> BackendError {
    BackendError::Invalid(format!("wrong {what} length for this cipher"))
}

fn key_init<C: KeyInit>(key: &[u8]) -> Result<C, BackendError> {
    C::new_from_slice(key).map_err(|_| bad_length("key"))
}

fn whole_blocks<C: BlockSizeUser>(buf: &mut [u8]) -> Result<&mut [Array<u8, C::BlockSize>], BackendError> {
    let (blocks, rest) = Array::<u8, C::BlockSize>::slice_as_chunks_mut(buf);
    if !rest.is_empty() {
        return Err(BackendError::Invalid("the input is not a whole number of blocks".into()));
    }
    Ok(blocks)
}

/// A mode of `C` at `iv` over the kept key schedule (a reference, not a copy).
fn at_iv<'c, M: InnerIvInit<Inner = &'c C>, C: 'c>(cipher: &'c C, iv: &[u8]) -> Result<M, BackendError> {
    M::inner_iv_slice_init(cipher, iv).map_err(|_| bad_length("IV"))
}

/// ECB: every block on its own (NIST SP 800-38A §6.1).
pub struct Ecb<C> {
    cipher: C,
    encrypt: bool,
}

impl<C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt> Keyed for Ecb<C> {
    fn new(key: &[u8], _iv: &[u8], encrypt: bool) -> Result<Self, BackendError> {
        Ok(Ecb {
            cipher: key_init(key)?,
            encrypt,
        })
    }
}

impl<C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt> CipherSession for Ecb<C> {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.cipher = key_init(key)?;
        Ok(())
    }
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        let blocks = whole_blocks::<C>(buf)?;
        if self.encrypt {
            self.cipher.encrypt_blocks(blocks);
        } else {
            self.cipher.decrypt_blocks(blocks);
        }
        Ok(())
    }
    fn seal(&mut self, _iv: &[u8], _aad: &[u8], buf: &mut [u8], _tag: &mut [u8]) -> Result<(), BackendError> {
        self.cipher.encrypt_blocks(whole_blocks::<C>(buf)?);
        Ok(())
    }
    fn open(&mut self, _iv: &[u8], _aad: &[u8], input: &[u8], out: &mut [u8], _tag: &[u8]) -> Result<(), BackendError> {
        let (inb, outb) = block_pairs::<C>(input, out)?;
        self.cipher.decrypt_blocks_b2b(inb, outb).map_err(uneven)
    }
}

/// CBC (cbc crate): the chaining value carries over between updates.
pub struct Cbc<C: BlockCipherEncrypt + BlockCipherDecrypt> {
    cipher: C,
    stream: CbcStream<C>,
}

enum CbcStream<C: BlockCipherEncrypt + BlockCipherDecrypt> {
    Enc(cbc::Encryptor<C>),
    Dec(cbc::Decryptor<C>),
}

impl<C: KeyInit + Clone + BlockCipherEncrypt + BlockCipherDecrypt> Keyed for Cbc<C> {
    fn new(key: &[u8], iv: &[u8], encrypt: bool) -> Result<Self, BackendError> {
        let cipher: C = key_init(key)?;
        let copy = cipher.clone();
        let stream = if encrypt {
            CbcStream::Enc(cbc::Encryptor::inner_iv_slice_init(copy, iv).map_err(|_| bad_length("IV"))?)
        } else {
            CbcStream::Dec(cbc::Decryptor::inner_iv_slice_init(copy, iv).map_err(|_| bad_length("IV"))?)
        };
        Ok(Cbc { cipher, stream })
    }
}

impl<C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt> CipherSession for Cbc<C> {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.cipher = key_init(key)?;
        Ok(())
    }
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        let blocks = whole_blocks::<C>(buf)?;
        match &mut self.stream {
            CbcStream::Enc(e) => e.encrypt_blocks(blocks),
            CbcStream::Dec(d) => d.decrypt_blocks(blocks),
        }
        Ok(())
    }
    fn seal(&mut self, iv: &[u8], _aad: &[u8], buf: &mut [u8], _tag: &mut [u8]) -> Result<(), BackendError> {
        let blocks = whole_blocks::<C>(buf)?;
        at_iv::<cbc::Encryptor<&C>, C>(&self.cipher, iv)?.encrypt_blocks(blocks);
        Ok(())
    }
    fn open(&mut self, iv: &[u8], _aad: &[u8], input: &[u8], out: &mut [u8], _tag: &[u8]) -> Result<(), BackendError> {
        let (inb, outb) = block_pairs::<C>(input, out)?;
        at_iv::<cbc::Decryptor<&C>, C>(&self.cipher, iv)?
            .decrypt_blocks_b2b(inb, outb)
            .map_err(uneven)
    }
}

/// CFB-128 (cfb-mode's buffered variant, which takes any length per update).
pub struct Cfb<C: BlockCipherEncrypt> {
    cipher: C,
    stream: CfbStream<C>,
}

enum CfbStream<C: BlockCipherEncrypt> {
    Enc(cfb_mode::BufEncryptor<C>),
    Dec(cfb_mode::BufDecryptor<C>),
}

impl<C: KeyInit + Clone + BlockCipherEncrypt> Keyed for Cfb<C> {
    fn new(key: &[u8], iv: &[u8], encrypt: bool) -> Result<Self, BackendError> {
        let cipher: C = key_init(key)?;
        let copy = cipher.clone();
        let stream = if encrypt {
            CfbStream::Enc(cfb_mode::BufEncryptor::inner_iv_slice_init(copy, iv).map_err(|_| bad_length("IV"))?)
        } else {
            CfbStream::Dec(cfb_mode::BufDecryptor::inner_iv_slice_init(copy, iv).map_err(|_| bad_length("IV"))?)
        };
        Ok(Cfb { cipher, stream })
    }
}

impl<C: KeyInit + BlockCipherEncrypt> CipherSession for Cfb<C> {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.cipher = key_init(key)?;
        Ok(())
    }
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        match &mut self.stream {
            CfbStream::Enc(e) => e.encrypt(buf),
            CfbStream::Dec(d) => d.decrypt(buf),
        }
        Ok(())
    }
    fn seal(&mut self, iv: &[u8], _aad: &[u8], buf: &mut [u8], _tag: &mut [u8]) -> Result<(), BackendError> {
        at_iv::<cfb_mode::BufEncryptor<&C>, C>(&self.cipher, iv)?.encrypt(buf);
        Ok(())
    }
    /// A whole message needs no buffering between updates: cfb-mode's
    /// one-shot (un-buffered) decryptor reads `input` and writes `out`.
    fn open(&mut self, iv: &[u8], _aad: &[u8], input: &[u8], out: &mut [u8], _tag: &[u8]) -> Result<(), BackendError> {
        at_iv::<cfb_mode::Decryptor<&C>, C>(&self.cipher, iv)?
            .decrypt_b2b(input, out)
            .map_err(uneven)
    }
}

/// CTR with a 128-bit big-endian counter block, as OpenSSL's aes-*-ctr.
pub struct Ctr<C: BlockCipherEncrypt + BlockSizeUser<BlockSize = U16>> {
    cipher: C,
    stream: ctr::Ctr128BE<C>,
}

/// The CTR keystream of `C` (or of `&C`, the kept key schedule) from `iv`.
fn ctr_at<C: BlockCipherEncrypt + BlockSizeUser<BlockSize = U16>>(cipher: C, iv: &[u8]) -> Result<ctr::Ctr128BE<C>, BackendError> {
    let core = ctr::CtrCore::<C, ctr::flavors::Ctr128BE>::inner_iv_slice_init(cipher, iv).map_err(|_| bad_length("IV"))?;
    Ok(StreamCipherCoreWrapper::from_core(core))
}

fn exhausted<E>(_: E) -> BackendError {
    BackendError::Invalid("the CTR keystream is exhausted, or input and output differ in length".into())
}

impl<C: KeyInit + Clone + BlockCipherEncrypt + BlockSizeUser<BlockSize = U16>> Keyed for Ctr<C> {
    fn new(key: &[u8], iv: &[u8], _encrypt: bool) -> Result<Self, BackendError> {
        let cipher: C = key_init(key)?;
        let stream = ctr_at(cipher.clone(), iv)?;
        Ok(Ctr { cipher, stream })
    }
}

impl<C: KeyInit + BlockCipherEncrypt + BlockSizeUser<BlockSize = U16>> CipherSession for Ctr<C> {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.cipher = key_init(key)?;
        Ok(())
    }
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        self.stream.try_apply_keystream(buf).map_err(exhausted)
    }
    fn seal(&mut self, iv: &[u8], _aad: &[u8], buf: &mut [u8], _tag: &mut [u8]) -> Result<(), BackendError> {
        ctr_at(&self.cipher, iv)?.try_apply_keystream(buf).map_err(exhausted)
    }
    fn open(&mut self, iv: &[u8], _aad: &[u8], input: &[u8], out: &mut [u8], _tag: &[u8]) -> Result<(), BackendError> {
        same_length(input, out)?;
        ctr_at(&self.cipher, iv)?.try_apply_keystream_b2b(input, out).map_err(exhausted)
    }
}

/// XTS (xts-mode): the key is Key1 || Key2; each update is one data unit
/// with ciphertext stealing for a partial last block. The IV is the tweak,
/// which the crate takes per call: nothing of the key schedule is copied.
pub struct Xts<C: BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16>> {
    xts: xts_mode::Xts128<C>,
    tweak: Array<u8, U16>,
    encrypt: bool,
}

fn xts_keys<C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16>>(
    key: &[u8],
) -> Result<xts_mode::Xts128<C>, BackendError> {
    if !key.len().is_multiple_of(2) {
        return Err(bad_length("key"));
    }
    let (k1, k2) = key.split_at(key.len() / 2);
    Ok(xts_mode::Xts128::new(key_init(k1)?, key_init(k2)?))
}

fn tweak(iv: &[u8]) -> Result<Array<u8, U16>, BackendError> {
    Array::try_from(iv).map_err(|_| bad_length("tweak"))
}

fn data_unit(buf: &[u8]) -> Result<(), BackendError> {
    if buf.len() < 16 {
        return Err(BackendError::Invalid("XTS needs at least 16 bytes per data unit".into()));
    }
    Ok(())
}

impl<C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16>> Keyed for Xts<C> {
    fn new(key: &[u8], iv: &[u8], encrypt: bool) -> Result<Self, BackendError> {
        Ok(Xts {
            xts: xts_keys(key)?,
            tweak: tweak(iv)?,
            encrypt,
        })
    }
}

impl<C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16>> CipherSession for Xts<C> {
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.xts = xts_keys(key)?;
        Ok(())
    }
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        data_unit(buf)?;
        if self.encrypt {
            self.xts.encrypt_sector(buf, self.tweak);
        } else {
            self.xts.decrypt_sector(buf, self.tweak);
        }
        Ok(())
    }
    fn seal(&mut self, iv: &[u8], _aad: &[u8], buf: &mut [u8], _tag: &mut [u8]) -> Result<(), BackendError> {
        self.tweak = tweak(iv)?;
        data_unit(buf)?;
        self.xts.encrypt_sector(buf, self.tweak);
        Ok(())
    }
    /// xts-mode 0.6 works only in place (`encrypt_sector`/`decrypt_sector`
    /// take one buffer), so the message is copied into `out` first.
    fn open(&mut self, iv: &[u8], _aad: &[u8], input: &[u8], out: &mut [u8], _tag: &[u8]) -> Result<(), BackendError> {
        same_length(input, out)?;
        self.tweak = tweak(iv)?;
        out.copy_from_slice(input);
        data_unit(out)?;
        self.xts.decrypt_sector(out, self.tweak);
        Ok(())
    }
    /// Decryption only: encryption works in place on the cell's buffer, as every library's.
    fn extra_work(&self) -> Option<&'static str> {
        (!self.encrypt).then_some(
            "xts-mode works in place only (encrypt_sector/decrypt_sector take one buffer): message decryption copies the ciphertext into the output buffer first",
        )
    }
}

/// ChaCha20 (RFC 8439 §2.4) with OpenSSL's 16-byte IV: the 32-bit
/// little-endian block counter, then the 96-bit nonce. It has no key
/// schedule: a message starts a new state from the key and its IV.
pub struct ChaCha {
    key: [u8; 32],
    /// The IV the session was made with (where `rekey` starts the state).
    iv: [u8; 16],
    state: chacha20::ChaCha20,
}

fn chacha_at(key: &[u8; 32], iv: &[u8]) -> Result<chacha20::ChaCha20, BackendError> {
    let (counter, nonce) = iv
        .split_first_chunk::<4>()
        .filter(|(_, n)| n.len() == 12)
        .ok_or_else(|| BackendError::Invalid("chacha20 takes a 16-byte IV (counter and nonce)".into()))?;
    let nonce: [u8; 12] = nonce.try_into().expect("checked above");
    let mut c = chacha20::ChaCha20::new(key.into(), &nonce.into());
    c.seek(u64::from(u32::from_le_bytes(*counter)) * 64);
    Ok(c)
}

fn chacha_key(key: &[u8]) -> Result<[u8; 32], BackendError> {
    key.try_into()
        .map_err(|_| BackendError::Invalid("chacha20 takes a 32-byte key".into()))
}

impl Keyed for ChaCha {
    fn new(key: &[u8], iv: &[u8], _encrypt: bool) -> Result<Self, BackendError> {
        let key = chacha_key(key)?;
        Ok(ChaCha {
            state: chacha_at(&key, iv)?,
            iv: iv.try_into().map_err(|_| bad_length("IV"))?,
            key,
        })
    }
}

impl CipherSession for ChaCha {
    /// A new key and the state started from it (`ChaCha20::new`), as the
    /// session was made.
    fn rekey(&mut self, key: &[u8]) -> Result<(), BackendError> {
        self.key = chacha_key(key)?;
        self.state = chacha_at(&self.key, &self.iv)?;
        Ok(())
    }
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        self.state
            .try_apply_keystream(buf)
            .map_err(|_| BackendError::Invalid("the ChaCha20 keystream is exhausted".into()))
    }
    fn seal(&mut self, iv: &[u8], _aad: &[u8], buf: &mut [u8], _tag: &mut [u8]) -> Result<(), BackendError> {
        self.state = chacha_at(&self.key, iv)?;
        self.update(buf)
    }
    fn open(&mut self, iv: &[u8], _aad: &[u8], input: &[u8], out: &mut [u8], _tag: &[u8]) -> Result<(), BackendError> {
        self.state = chacha_at(&self.key, iv)?;
        self.state
            .try_apply_keystream_b2b(input, out)
            .map_err(|_| BackendError::Invalid("input and output differ in length, or the keystream is exhausted".into()))
    }
}
