//! Ingest is deterministic, and the committed assets are exactly what the committed seed gives.

use std::collections::BTreeMap;
use std::path::Path;

fn tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(root).expect("prefix").to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&path).expect("read"));
            }
        }
    }
    out
}

fn ingest_into(dir: &Path) {
    gtms::companies::ingest::run(Path::new("seed"), dir, "http://127.0.0.1:3000").expect("ingest");
}

#[test]
fn the_same_seed_gives_byte_identical_files() {
    let (a, b) = (tempfile::tempdir().expect("dir"), tempfile::tempdir().expect("dir"));
    ingest_into(&a.path().join("out"));
    ingest_into(&b.path().join("out"));
    let (ta, tb) = (tree(&a.path().join("out")), tree(&b.path().join("out")));
    assert!(!ta.is_empty());
    assert_eq!(ta.keys().collect::<Vec<_>>(), tb.keys().collect::<Vec<_>>());
    for (name, bytes) in &ta {
        assert!(tb[name] == *bytes, "{name} differs between two runs");
    }
}

#[test]
fn the_committed_assets_are_what_the_committed_seed_gives() {
    let dir = tempfile::tempdir().expect("dir");
    ingest_into(&dir.path().join("out"));
    let fresh = tree(&dir.path().join("out"));
    let committed = tree(Path::new("assets/company"));
    let stale: Vec<&String> = fresh.keys().filter(|k| committed.get(*k) != fresh.get(*k)).collect();
    let extra: Vec<&String> = committed.keys().filter(|k| !fresh.contains_key(*k)).collect();
    assert!(stale.is_empty() && extra.is_empty(), "run `make ingest`: stale {stale:?}, extra {extra:?}");
}

#[test]
fn the_committed_demo_workspace_is_what_the_generator_gives() {
    use gtms::companies::{assets, directory::Directory};
    let table = assets::AssetTable::embedded();
    let dir = Directory::over_embedded(&table).expect("directory");
    let out = tempfile::tempdir().expect("dir");
    let path = out.path().join("demo-workspace.json");
    gtms::demo::write_generated(&dir, &path).expect("generate");
    let fresh = std::fs::read(&path).expect("read");
    let committed = std::fs::read("seed/demo-workspace.json").expect("committed");
    assert!(fresh == committed, "run `gtms demo-generate`: seed/demo-workspace.json is stale");
    let data = gtms::demo::embedded().expect("embedded parses");
    assert_eq!(data.workers.len(), 8);
    assert!(
        data.deals.iter().all(|d| d.company_slug.as_ref().is_some_and(|s| dir.by_slug(s).is_some())),
        "deals name real companies"
    );
}
