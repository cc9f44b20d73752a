//! `gtms export-static DIR`: writes the embedded keyless files exactly as the binary serves
//! them, each with its `.gz` and `.br` siblings, so nginx (`gzip_static`, `brotli_static`) or a
//! CDN can serve the same bytes at internet scale. A page is written as its file
//! (`company/apple.html`, `company/index.html`): nginx serves it for `/company/apple` with
//! `try_files $uri $uri.html $uri/index.html`.

use std::path::Path;

use super::assets::AssetTable;

pub fn export_static(dir: &Path) -> std::io::Result<usize> {
    let table = AssetTable::embedded();
    for url_path in table.paths() {
        let Some(file) = table.get(url_path) else { continue };
        let target = dir.join(&file.file);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&target, file.read()?)?;
        let sibling = |ext: &str| format!("{}.{ext}", target.display());
        std::fs::write(sibling("gz"), file.gzip()?)?;
        std::fs::write(sibling("br"), &file.brotli)?;
    }
    Ok(table.len())
}
