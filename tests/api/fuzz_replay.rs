//! The fuzz targets' properties (`fuzz/properties.rs`) on every `make test`: each target's
//! committed seeds, any local corpus `make fuzz` grew, and a fixed set of mutations of them
//! (byte flips, insertions of bytes parsers care about, deletions, repeats, splices,
//! truncations) from a seeded generator, so a run is the same every time. Coverage-guided
//! fuzzing is `make fuzz` (docs/testing.md); this keeps its findings from coming back.

use std::path::Path;

#[allow(dead_code)]
#[path = "../../fuzz/properties.rs"]
mod properties;

/// Mutations tried per target (a fraction of a second in the test build).
const MUTATIONS: usize = 3_000;

/// Bytes parsers treat specially, and a few that break UTF-8.
const INTERESTING: &[u8] = b"\0 ./:-_%@#?&=;,\"\\{}[]\t\n\x7f\xc3\xa9\xe2\x80\xae\xff";

/// splitmix64: a fixed stream of numbers for a fixed seed.
struct Stream(u64);

impl Stream {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(input: &[u8], other: &[u8], rng: &mut Stream) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..=rng.below(3) {
        let at = rng.below(out.len() + 1);
        match rng.below(6) {
            0 if !out.is_empty() => {
                let i = at.min(out.len() - 1);
                out[i] ^= 1 << rng.below(8);
            }
            1 => out.insert(at, INTERESTING[rng.below(INTERESTING.len())]),
            2 if at < out.len() => {
                out.remove(at);
            }
            3 => {
                let end = (at + rng.below(8)).min(out.len());
                let piece = out[at..end].to_vec();
                out.splice(at..at, piece.iter().cycle().take(piece.len() * rng.below(4)).copied());
            }
            4 => {
                let start = rng.below(other.len() + 1);
                out.splice(at..at, other[start..].iter().take(rng.below(16)).copied());
            }
            _ => out.truncate(at),
        }
    }
    out
}

fn inputs(dir: &Path) -> Vec<Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_file()).collect();
    files.sort();
    files.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

#[test]
fn every_fuzz_target_holds_on_its_seeds_corpus_and_their_mutations() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    for (name, check) in properties::TARGETS {
        let mut corpus = inputs(&fuzz.join("seeds").join(name));
        assert!(!corpus.is_empty(), "fuzz/seeds/{name} has no seed");
        corpus.extend(inputs(&fuzz.join("corpus").join(name)));
        for input in &corpus {
            check(input);
        }
        let mut rng = Stream(name.len() as u64);
        for i in 0..MUTATIONS {
            let (a, b) = (&corpus[i % corpus.len()], &corpus[rng.below(corpus.len())]);
            let mutated = mutate(a, b, &mut rng);
            let outcome = std::panic::catch_unwind(|| check(&mutated));
            assert!(
                outcome.is_ok(),
                "{name} failed on {:?} (a mutation of {:?})",
                String::from_utf8_lossy(&mutated),
                String::from_utf8_lossy(a)
            );
        }
    }
}
