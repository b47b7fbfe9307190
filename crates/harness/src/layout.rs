//! Where a cell's message buffer and the library's context land in memory,
//! for the experiment that tells a layout effect from a neighbour
//! (bench/layout, docs/METHOD.md "Replicates"). Normally nothing is placed:
//! the buffer is 64-byte aligned wherever the allocator puts it, and its
//! offset within its 4 KiB page is recorded with every measurement.
//!
//! `CRYPTOBENCH_LAYOUT` places them deliberately, for one worker:
//! `page-offset=N` starts the buffer N bytes after a page boundary (a
//! multiple of 64 below 4096); `heap-pad=N` allocates N bytes just before
//! the library's context is prepared and keeps them for the cell, so that
//! the context, its tag and whatever the library allocates move N bytes on
//! against the buffer. Stores to one address and loads from another that
//! agree modulo 4096 can be mistaken for each other by the CPU's memory
//! disambiguation ("4K aliasing", Intel 64 and IA-32 Architectures
//! Optimization Reference Manual, §3.6.8 in the 2023 edition).

/// The variable of the experiment's knobs.
pub const LAYOUT_ENV: &str = "CRYPTOBENCH_LAYOUT";

/// A page, as the aliasing the knobs probe counts it.
pub const PAGE: usize = 4096;

/// The knobs, parsed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Layout {
    pub page_offset: Option<usize>,
    pub heap_pad: usize,
}

impl Layout {
    /// The knobs of this process's environment (none when the variable is unset).
    pub fn from_env() -> Result<Layout, String> {
        match std::env::var(LAYOUT_ENV) {
            Ok(text) => Layout::parse(&text),
            Err(_) => Ok(Layout::default()),
        }
    }

    /// `page-offset=N,heap-pad=N`, either or both.
    pub fn parse(text: &str) -> Result<Layout, String> {
        let mut layout = Layout::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("{LAYOUT_ENV}: '{part}' is not KEY=N; valid keys: page-offset, heap-pad"))?;
            let n: usize = value
                .trim()
                .parse()
                .map_err(|_| format!("{LAYOUT_ENV}: '{value}' in '{part}' is not a number of bytes"))?;
            match key.trim() {
                "page-offset" if n < PAGE && n.is_multiple_of(64) => layout.page_offset = Some(n),
                "page-offset" => return Err(format!("{LAYOUT_ENV}: page-offset={n} must be a multiple of 64 below {PAGE}")),
                "heap-pad" => layout.heap_pad = n,
                other => return Err(format!("{LAYOUT_ENV}: unknown key '{other}'; valid keys: page-offset, heap-pad")),
            }
        }
        Ok(layout)
    }
}

/// Where `ptr` lies within its page.
pub fn page_offset_of(ptr: *const u8) -> u32 {
    (ptr as usize % PAGE) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knobs_parse_and_bad_ones_say_what_is_valid() {
        assert_eq!(Layout::parse("").unwrap(), Layout::default());
        assert_eq!(
            Layout::parse("page-offset=2048, heap-pad=96").unwrap(),
            Layout {
                page_offset: Some(2048),
                heap_pad: 96
            }
        );
        assert!(Layout::parse("page-offset=100").unwrap_err().contains("multiple of 64"));
        assert!(Layout::parse("offset=64").unwrap_err().contains("valid keys"));
        assert!(Layout::parse("heap-pad=x").unwrap_err().contains("not a number"));
    }
}
