//! The data-building commands: `edgar-extract` (EDGAR documents → `seed/companies.jsonl`),
//! `ingest` (seed → the keyless files embedded at the next build), `export-static` (the
//! embedded files for a web server or CDN) and `demo-generate` (the demo workspace).

use std::path::Path;

use crate::companies;
use crate::companies::assets::{AssetTable, registry_json};
use crate::companies::directory::Directory;

pub(super) fn edgar_extract(from: &Path, out: &Path) -> Result<(), String> {
    let report = companies::extract::run(from, out, true).map_err(|e| e.to_string())?;
    println!("{report}");
    Ok(())
}

pub(super) fn ingest(seed: &Path, out: &Path, base_url: &str) -> Result<(), String> {
    let started = std::time::Instant::now();
    let r = companies::ingest::run(seed, out, base_url).map_err(|e| e.to_string())?;
    println!(
        "ingest: {} tracked, {} with a page, {} statements, {} executives, {} subsidiaries, {} domains; {} files in {} ({:.1}s)",
        r.tracked,
        r.with_page,
        r.statements,
        r.executives,
        r.subsidiaries,
        r.domains,
        r.files,
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

pub(super) fn export_static(dir: &Path) -> Result<(), String> {
    let n = companies::export::export_static(dir).map_err(|e| e.to_string())?;
    println!("export-static: {n} files (each with .gz and .br) in {}", dir.display());
    Ok(())
}

pub(super) fn demo_generate(out: &Path) -> Result<(), String> {
    let assets = AssetTable::embedded();
    let dir = Directory::build(&registry_json().unwrap_or_default(), &assets).map_err(|e| e.to_string())?;
    let n = crate::demo::write_generated(&dir, out).map_err(|e| e.to_string())?;
    println!("demo-generate: {n} deals in {}", out.display());
    Ok(())
}
