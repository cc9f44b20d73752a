//! Precompression: brotli (quality 11) at build time, and gzip (level 9, no timestamp or name in
//! the header) when the server first sends a file as gzip, both deterministic so the same input
//! gives the same bytes; and the brotli decoder, which gives back the identity bytes of a file
//! the binary embeds only as brotli.
//!
//! A crate of its own because the encoders are generic: instantiated here, beside their
//! dependencies, they are not compiled again as part of the gtms crate.

use std::io::{Read, Write};

pub fn gzip(data: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut enc = flate2::GzBuilder::new().mtime(0).write(Vec::new(), flate2::Compression::best());
    enc.write_all(data)?;
    enc.finish()
}

/// The bytes a brotli stream holds (what `brotli` wrote): the binary embeds its files only as
/// brotli.
pub fn unbrotli(data: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len() * 6);
    unbrotli_reader(data).read_to_end(&mut out)?;
    Ok(out)
}

/// A brotli stream's bytes as they are read, for a file parsed as a stream (its whole bytes at
/// once would be one large buffer, freed at once).
pub fn unbrotli_reader<R: Read>(compressed: R) -> impl Read {
    brotli::Decompressor::new(compressed, 4096)
}

/// Brotli, quality 11, with the smallest window that holds the whole file (1 kB to 4 MB): its
/// decoder's buffer is then no larger than the file. A 4 MB window on a 100 kB file had the
/// decoder allocate 4 MB once at start-up, and glibc, once that buffer was freed, raised its
/// mmap threshold to match and kept later allocations of up to that size in the heap: 4.5 MB
/// more idle RSS (measured in session 31).
pub fn brotli(data: &[u8]) -> std::io::Result<Vec<u8>> {
    brotli_window(data, fitting_window(data.len()))
}

/// Brotli, quality 11, whose decoder keeps at most a 64 kB window: for a file the server reads
/// as a stream at start-up (`unbrotli_reader`) instead of decoding it whole.
pub fn brotli_streamed(data: &[u8]) -> std::io::Result<Vec<u8>> {
    brotli_window(data, fitting_window(data.len()).min(16))
}

/// The base-2 logarithm of the smallest brotli window that holds `len` bytes (10 to 22).
fn fitting_window(len: usize) -> u32 {
    len.max(1).next_power_of_two().trailing_zeros().clamp(10, 22)
}

fn brotli_window(data: &[u8], lgwin: u32) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut enc = brotli::CompressorWriter::new(&mut out, 4096, 11, lgwin);
        enc.write_all(data)?;
        enc.flush()?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_encodings_round_trip_and_are_deterministic() {
        let data = b"{\"hello\":\"world\"}".repeat(50);
        let gz = gzip(&data).unwrap_or_default();
        assert_eq!(gz, gzip(&data).unwrap_or_default());
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(&gz[..]).read_to_end(&mut back).unwrap_or_default();
        assert_eq!(back, data);
        let br = brotli(&data).unwrap_or_default();
        assert_eq!(br, brotli(&data).unwrap_or_default());
        assert_eq!(unbrotli(&br).unwrap_or_default(), data);
        assert!(unbrotli(b"not brotli").is_err());
        let streamed = brotli_streamed(&data).unwrap_or_default();
        let mut back = Vec::new();
        unbrotli_reader(&streamed[..]).read_to_end(&mut back).unwrap_or_default();
        assert_eq!(back, data);
    }

    #[test]
    fn the_window_is_the_smallest_that_holds_the_file() {
        assert_eq!(fitting_window(0), 10);
        assert_eq!(fitting_window(1024), 10);
        assert_eq!(fitting_window(1025), 11);
        assert_eq!(fitting_window(100_000), 17);
        assert_eq!(fitting_window(50 << 20), 22);
    }
}
