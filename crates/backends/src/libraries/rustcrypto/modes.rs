//! The plain cipher modes over RustCrypto's block ciphers, each behind one
//! small trait so that the timed loops are generic (no allocation or
//! dynamic dispatch per call). Semantics follow OpenSSL's EVP update:
//! CBC, CFB and CTR carry their state from one update to the next; every
//! XTS update is one data unit under the IV as tweak (IEEE 1619-2007 §5.3).

use aes::cipher::array::Array;
use aes::cipher::consts::U16;
use aes::cipher::{
    BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, BlockSizeUser, InnerIvInit, KeyInit, StreamCipher,
    StreamCipherCoreWrapper,
};

use crate::error::BackendError;

/// A keyed mode of operation: `update` processes bytes in place, keeping the chaining state.
pub trait Crypt: Sized {
    fn new(key: &[u8], iv: &[u8], encrypt: bool) -> Result<Self, BackendError>;
    /// Restarts at `iv` under the kept key schedule (copied, not recomputed).
    fn set_iv(&mut self, iv: &[u8]) -> Result<(), BackendError>;
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError>;
    /// One whole message under `iv`, read from `input` and written to `out`
    /// (same length), without copying `input` first: what message
    /// decryption does with its prepared ciphertext, as the C libraries'
    /// update calls with separate input and output do.
    fn message_into(&mut self, iv: &[u8], input: &[u8], out: &mut [u8]) -> Result<(), BackendError>;
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

/// ECB: every block on its own (NIST SP 800-38A §6.1).
pub struct Ecb<C> {
    cipher: C,
    encrypt: bool,
}

impl<C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt> Crypt for Ecb<C> {
    fn new(key: &[u8], _iv: &[u8], encrypt: bool) -> Result<Self, BackendError> {
        Ok(Ecb {
            cipher: key_init(key)?,
            encrypt,
        })
    }
    fn set_iv(&mut self, _iv: &[u8]) -> Result<(), BackendError> {
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
    fn message_into(&mut self, _iv: &[u8], input: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        let (inb, outb) = block_pairs::<C>(input, out)?;
        if self.encrypt {
            self.cipher.encrypt_blocks_b2b(inb, outb)
        } else {
            self.cipher.decrypt_blocks_b2b(inb, outb)
        }
        .map_err(|_| BackendError::Invalid("input and output differ in length".into()))
    }
}

/// CBC (cbc crate): the chaining value carries over between updates.
pub struct Cbc<C: BlockCipherEncrypt + BlockCipherDecrypt> {
    cipher: C,
    state: CbcState<C>,
}

enum CbcState<C: BlockCipherEncrypt + BlockCipherDecrypt> {
    Enc(cbc::Encryptor<C>),
    Dec(cbc::Decryptor<C>),
}

impl<C: KeyInit + Clone + BlockCipherEncrypt + BlockCipherDecrypt> Cbc<C> {
    fn start(cipher: &C, iv: &[u8], encrypt: bool) -> Result<CbcState<C>, BackendError> {
        Ok(if encrypt {
            CbcState::Enc(cbc::Encryptor::inner_iv_slice_init(cipher.clone(), iv).map_err(|_| bad_length("IV"))?)
        } else {
            CbcState::Dec(cbc::Decryptor::inner_iv_slice_init(cipher.clone(), iv).map_err(|_| bad_length("IV"))?)
        })
    }
}

impl<C: KeyInit + Clone + BlockCipherEncrypt + BlockCipherDecrypt> Crypt for Cbc<C> {
    fn new(key: &[u8], iv: &[u8], encrypt: bool) -> Result<Self, BackendError> {
        let cipher: C = key_init(key)?;
        let state = Self::start(&cipher, iv, encrypt)?;
        Ok(Cbc { cipher, state })
    }
    fn set_iv(&mut self, iv: &[u8]) -> Result<(), BackendError> {
        let encrypt = matches!(self.state, CbcState::Enc(_));
        self.state = Self::start(&self.cipher, iv, encrypt)?;
        Ok(())
    }
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        let blocks = whole_blocks::<C>(buf)?;
        match &mut self.state {
            CbcState::Enc(e) => e.encrypt_blocks(blocks),
            CbcState::Dec(d) => d.decrypt_blocks(blocks),
        }
        Ok(())
    }
    fn message_into(&mut self, iv: &[u8], input: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        self.set_iv(iv)?;
        let (inb, outb) = block_pairs::<C>(input, out)?;
        match &mut self.state {
            CbcState::Enc(e) => e.encrypt_blocks_b2b(inb, outb),
            CbcState::Dec(d) => d.decrypt_blocks_b2b(inb, outb),
        }
        .map_err(|_| BackendError::Invalid("input and output differ in length".into()))
    }
}

/// CFB-128 (cfb-mode's buffered variant, which takes any length per update).
pub struct Cfb<C: BlockCipherEncrypt> {
    cipher: C,
    state: CfbState<C>,
}

enum CfbState<C: BlockCipherEncrypt> {
    Enc(cfb_mode::BufEncryptor<C>),
    Dec(cfb_mode::BufDecryptor<C>),
}

impl<C: KeyInit + Clone + BlockCipherEncrypt> Cfb<C> {
    fn start(cipher: &C, iv: &[u8], encrypt: bool) -> Result<CfbState<C>, BackendError> {
        Ok(if encrypt {
            CfbState::Enc(cfb_mode::BufEncryptor::inner_iv_slice_init(cipher.clone(), iv).map_err(|_| bad_length("IV"))?)
        } else {
            CfbState::Dec(cfb_mode::BufDecryptor::inner_iv_slice_init(cipher.clone(), iv).map_err(|_| bad_length("IV"))?)
        })
    }
}

impl<C: KeyInit + Clone + BlockCipherEncrypt> Crypt for Cfb<C> {
    fn new(key: &[u8], iv: &[u8], encrypt: bool) -> Result<Self, BackendError> {
        let cipher: C = key_init(key)?;
        let state = Self::start(&cipher, iv, encrypt)?;
        Ok(Cfb { cipher, state })
    }
    fn set_iv(&mut self, iv: &[u8]) -> Result<(), BackendError> {
        let encrypt = matches!(self.state, CfbState::Enc(_));
        self.state = Self::start(&self.cipher, iv, encrypt)?;
        Ok(())
    }
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        match &mut self.state {
            CfbState::Enc(e) => e.encrypt(buf),
            CfbState::Dec(d) => d.decrypt(buf),
        }
        Ok(())
    }
    /// A whole message needs no buffering between updates: cfb-mode's
    /// one-shot (un-buffered) encryptor or decryptor reads `input` and writes `out`.
    fn message_into(&mut self, iv: &[u8], input: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        let uneven = |_| BackendError::Invalid("input and output differ in length".into());
        match self.state {
            CfbState::Enc(_) => cfb_mode::Encryptor::inner_iv_slice_init(self.cipher.clone(), iv)
                .map_err(|_| bad_length("IV"))?
                .encrypt_b2b(input, out)
                .map_err(uneven),
            CfbState::Dec(_) => cfb_mode::Decryptor::inner_iv_slice_init(self.cipher.clone(), iv)
                .map_err(|_| bad_length("IV"))?
                .decrypt_b2b(input, out)
                .map_err(uneven),
        }
    }
}

/// CTR with a 128-bit big-endian counter block, as OpenSSL's aes-*-ctr.
pub struct Ctr<C: BlockCipherEncrypt + BlockSizeUser<BlockSize = U16>> {
    cipher: C,
    state: ctr::Ctr128BE<C>,
}

impl<C: KeyInit + Clone + BlockCipherEncrypt + BlockSizeUser<BlockSize = U16>> Ctr<C> {
    fn start(cipher: &C, iv: &[u8]) -> Result<ctr::Ctr128BE<C>, BackendError> {
        let core = ctr::CtrCore::<C, ctr::flavors::Ctr128BE>::inner_iv_slice_init(cipher.clone(), iv).map_err(|_| bad_length("IV"))?;
        Ok(StreamCipherCoreWrapper::from_core(core))
    }
}

impl<C: KeyInit + Clone + BlockCipherEncrypt + BlockSizeUser<BlockSize = U16>> Crypt for Ctr<C> {
    fn new(key: &[u8], iv: &[u8], _encrypt: bool) -> Result<Self, BackendError> {
        let cipher: C = key_init(key)?;
        let state = Self::start(&cipher, iv)?;
        Ok(Ctr { cipher, state })
    }
    fn set_iv(&mut self, iv: &[u8]) -> Result<(), BackendError> {
        self.state = Self::start(&self.cipher, iv)?;
        Ok(())
    }
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        self.state
            .try_apply_keystream(buf)
            .map_err(|_| BackendError::Invalid("the CTR keystream is exhausted".into()))
    }
    fn message_into(&mut self, iv: &[u8], input: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        self.set_iv(iv)?;
        same_length(input, out)?;
        self.state
            .try_apply_keystream_b2b(input, out)
            .map_err(|_| BackendError::Invalid("the CTR keystream is exhausted".into()))
    }
}

/// XTS (xts-mode): the key is Key1 || Key2; each update is one data unit
/// with ciphertext stealing for a partial last block.
pub struct Xts<C: BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16>> {
    xts: xts_mode::Xts128<C>,
    tweak: Array<u8, U16>,
    encrypt: bool,
}

impl<C: KeyInit + BlockCipherEncrypt + BlockCipherDecrypt + BlockSizeUser<BlockSize = U16>> Crypt for Xts<C> {
    fn new(key: &[u8], iv: &[u8], encrypt: bool) -> Result<Self, BackendError> {
        if !key.len().is_multiple_of(2) {
            return Err(bad_length("key"));
        }
        let (k1, k2) = key.split_at(key.len() / 2);
        let mut x = Xts {
            xts: xts_mode::Xts128::new(key_init(k1)?, key_init(k2)?),
            tweak: Array::default(),
            encrypt,
        };
        x.set_iv(iv)?;
        Ok(x)
    }
    fn set_iv(&mut self, iv: &[u8]) -> Result<(), BackendError> {
        self.tweak = Array::try_from(iv).map_err(|_| bad_length("tweak"))?;
        Ok(())
    }
    fn update(&mut self, buf: &mut [u8]) -> Result<(), BackendError> {
        if buf.len() < 16 {
            return Err(BackendError::Invalid("XTS needs at least 16 bytes per data unit".into()));
        }
        if self.encrypt {
            self.xts.encrypt_sector(buf, self.tweak);
        } else {
            self.xts.decrypt_sector(buf, self.tweak);
        }
        Ok(())
    }
    /// xts-mode 0.6 works only in place (`encrypt_sector`/`decrypt_sector`
    /// take one buffer), so the message is copied into `out` first: the one
    /// copy left in a timed loop, named in docs/METHOD.md.
    fn message_into(&mut self, iv: &[u8], input: &[u8], out: &mut [u8]) -> Result<(), BackendError> {
        same_length(input, out)?;
        self.set_iv(iv)?;
        out.copy_from_slice(input);
        self.update(out)
    }
}
