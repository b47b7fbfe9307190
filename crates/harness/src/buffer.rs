use rand::RngCore;

/// Cache-line alignment, so that no size straddles lines differently from one run to the next.
const ALIGN: usize = 64;

/// A 64-byte aligned message buffer filled with random bytes.
pub struct AlignedBuffer {
    storage: Vec<u8>,
    offset: usize,
    len: usize,
}

impl AlignedBuffer {
    pub fn random(len: usize) -> AlignedBuffer {
        AlignedBuffer::random_at(len, None)
    }

    /// As [`AlignedBuffer::random`], starting `page_offset` bytes after a
    /// 4 KiB page boundary where one is given (a multiple of 64; layout.rs).
    pub fn random_at(len: usize, page_offset: Option<usize>) -> AlignedBuffer {
        let page = crate::layout::PAGE;
        let extra = page_offset.map_or(ALIGN, |o| page + o);
        let mut storage = vec![0u8; len + extra];
        let offset = match page_offset {
            Some(o) => storage.as_ptr().align_offset(page) + o,
            None => storage.as_ptr().align_offset(ALIGN),
        };
        rand::rng().fill_bytes(&mut storage[offset..offset + len]);
        AlignedBuffer { storage, offset, len }
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.storage[self.offset..self.offset + self.len]
    }

    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.storage[self.offset..self.offset + self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_aligned_and_sized() {
        for len in [1, 16, 1000, 16384] {
            let b = AlignedBuffer::random(len);
            assert_eq!(b.as_slice().as_ptr() as usize % ALIGN, 0);
            assert_eq!(b.as_slice().len(), len);
            let placed = AlignedBuffer::random_at(len, Some(1024 + 64));
            assert_eq!(placed.as_slice().as_ptr() as usize % 4096, 1088);
            assert_eq!(placed.as_slice().len(), len);
        }
    }
}
