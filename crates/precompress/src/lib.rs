//! Precompression at build time: gzip (level 9, no timestamp or name in the header) and
//! brotli (quality 11), both deterministic so the same input gives the same bytes; and gunzip,
//! which gives back the identity bytes of a file the binary embeds only compressed.
//!
//! A crate of its own because the encoders are generic: instantiated here, beside their
//! dependencies, they are not compiled again as part of the gtms crate.

use std::io::{Read, Write};

pub fn gzip(data: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut enc = flate2::GzBuilder::new().mtime(0).write(Vec::new(), flate2::Compression::best());
    enc.write_all(data)?;
    enc.finish()
}

/// The bytes a gzip stream holds (what `gzip` wrote), for the embedded files that are kept
/// only compressed.
pub fn gunzip(data: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len() * 4);
    flate2::read::GzDecoder::new(data).read_to_end(&mut out)?;
    Ok(out)
}

pub fn brotli(data: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut enc = brotli::CompressorWriter::new(&mut out, 4096, 11, 22);
        enc.write_all(data)?;
        enc.flush()?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn both_encodings_round_trip_and_are_deterministic() {
        let data = b"{\"hello\":\"world\"}".repeat(50);
        let gz = gzip(&data).unwrap_or_default();
        assert_eq!(gz, gzip(&data).unwrap_or_default());
        assert_eq!(gunzip(&gz).unwrap_or_default(), data);
        let br = brotli(&data).unwrap_or_default();
        let mut back = Vec::new();
        brotli::Decompressor::new(&br[..], 4096).read_to_end(&mut back).unwrap_or_default();
        assert_eq!(back, data);
    }
}
