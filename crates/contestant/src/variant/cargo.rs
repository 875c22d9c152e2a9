//! Variants of a Rust contestant, for runtime authors: `tokio@1.38.0` is the same code built
//! against another release of its runtime crate, and `tokio@patch` against a local checkout
//! (`--patch tokio=PATH`). Each is a workspace of its own under the build cache — the
//! contestant's sources by absolute path, its manifest with the runtime pinned or patched,
//! the lock file seeded from the repository's so that nothing else moves — with its own
//! target folder, so the plain contestant's build is never touched.

use super::{Built, Contestant, Places, Spec};
use crate::VersionSource;
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};
use toml::{Table, Value};

/// `--patch CRATE=PATH`: a crate replaced by a local checkout.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Patch {
    pub(crate) krate: String,
    pub(crate) path: PathBuf,
}

/// `CRATE=PATH`, the path an existing folder.
pub fn parse_patch(text: &str) -> Result<Patch, String> {
    let Some((krate, path)) = text.split_once('=') else {
        return Err(format!(
            "'{text}' is not CRATE=PATH (example: tokio=../tokio)"
        ));
    };
    let path = Path::new(path);
    if krate.is_empty() || !path.join("Cargo.toml").is_file() {
        return Err(format!(
            "'{text}': {} holds no Cargo.toml (example: tokio=../tokio)",
            path.display()
        ));
    }
    let path = path.canonicalize().map_err(|e| format!("'{text}': {e}"))?;
    Ok(Patch {
        krate: krate.to_string(),
        path,
    })
}

/// `tokio@1.38.0` or `tokio@patch`: the contestant's workspace under the variant's cache
/// folder, its commands pointed at it.
pub(super) fn variant(
    variant: &mut Contestant,
    spec: &Spec,
    patches: &[Patch],
    places: &Places,
) -> anyhow::Result<Built> {
    let name = variant.name().to_string();
    let runtime = match &variant.manifest.version {
        VersionSource::Crate(c) => c.clone(),
        VersionSource::Crates(c) if !c.is_empty() => c[0].clone(),
        _ => bail!("'{name}': its manifest names no runtime crate (version = {{ crate = … }})"),
    };
    if *spec == Spec::Patch && patches.is_empty() {
        bail!("'{name}': --patch CRATE=PATH says what to build it with");
    }
    if *spec != Spec::Patch {
        super::release(&name, spec, &runtime)?;
    }
    let dir = places.cache.join(&name);
    let manifest = variant_manifest(variant, &runtime, spec, patches, &places.root)
        .with_context(|| format!("'{name}': cannot write its workspace"))?;
    write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
    let lockfile = dir.join("Cargo.lock");
    if !lockfile.exists() {
        std::fs::copy(places.root.join("Cargo.lock"), &lockfile)
            .with_context(|| format!("cannot seed {}", lockfile.display()))?;
    }
    let target = dir.join("target");
    let in_variant = |command: &[String]| -> Vec<String> {
        command
            .iter()
            .map(|w| w.replace("{target}", &target.to_string_lossy()))
            .collect()
    };
    variant.manifest.run = in_variant(&variant.manifest.run);
    variant.manifest.build = variant.manifest.build.as_deref().map(|build| {
        let mut build = in_variant(build);
        // `cargo build …` builds the variant's workspace.
        let at = build.iter().position(|w| w == "build").map_or(1, |i| i + 1);
        let manifest_path = dir.join("Cargo.toml").to_string_lossy().into_owned();
        build.splice(at..at, ["--manifest-path".to_string(), manifest_path]);
        build
    });
    Ok(Built {
        lockfile: Some(lockfile),
        note: (*spec == Spec::Patch).then(|| {
            patches
                .iter()
                .map(|p| format!("patched: {}", checkout(&p.path)))
                .collect::<Vec<_>>()
                .join(", ")
        }),
        fetch: None,
    })
}

/// Every version of `krate` the crates.io sparse index lists, yanked ones left out.
pub(super) fn versions(krate: &str, dir: &Path) -> Result<Vec<String>, String> {
    let url = format!("https://index.crates.io/{}", index_path(krate));
    Ok(versions_of(&super::listing::download(&url, dir)?))
}

/// The sparse index's path of a crate: `1/a`, `2/ab`, `3/a/abc`, `to/ki/tokio`.
fn index_path(krate: &str) -> String {
    let name = krate.to_lowercase();
    match name.len() {
        1 | 2 => format!("{}/{name}", name.len()),
        3 => format!("3/{}/{name}", &name[..1]),
        _ => format!("{}/{}/{name}", &name[..2], &name[2..4]),
    }
}

/// The unyanked `vers` of an index file: one JSON object a line.
fn versions_of(index: &str) -> Vec<String> {
    index
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|entry| entry.get("yanked").and_then(|y| y.as_bool()) != Some(true))
        .filter_map(|entry| Some(entry.get("vers")?.as_str()?.to_string()))
        .collect()
}

/// The repository's profiles as the contestants have them: `[profile.contestant]`, which
/// their build commands name, and the `[profile.release]` it inherits, without the latter's
/// per-package overrides, which name the harness's own crates, absent from a variant's
/// workspace.
fn contestants_profile(profile: &Value) -> Value {
    let mut profile = profile.clone();
    if let Some(release) = profile.get_mut("release").and_then(Value::as_table_mut) {
        release.remove("package");
    }
    profile
}

/// The contestant's Cargo.toml made a workspace of its own: inherited fields and
/// dependencies spelt out from the repository's, paths absolute, the runtime pinned or the
/// checkouts patched in, the repository's profiles (the contestants').
fn variant_manifest(
    contestant: &Contestant,
    runtime: &str,
    spec: &Spec,
    patches: &[Patch],
    root: &Path,
) -> anyhow::Result<String> {
    let read = |path: &Path| -> anyhow::Result<Table> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        toml::from_str(&text).with_context(|| format!("{} is not TOML", path.display()))
    };
    let workspace = read(&root.join("Cargo.toml"))?;
    let mut own = read(&contestant.dir.join("Cargo.toml"))?;
    let inherited = |key: &str| {
        workspace
            .get("workspace")
            .and_then(|w| w.get(key))
            .and_then(Value::as_table)
            .cloned()
            .unwrap_or_default()
    };
    let (package_fields, workspace_deps) = (inherited("package"), inherited("dependencies"));
    if let Some(Value::Table(package)) = own.get_mut("package") {
        for (key, value) in package.iter_mut() {
            if is_inherited(value)
                && let Some(from) = package_fields.get(key)
            {
                *value = from.clone();
            }
        }
    }
    let mut runtime_found = false;
    if let Some(Value::Table(deps)) = own.get_mut("dependencies") {
        for (key, value) in deps.iter_mut() {
            if is_inherited(value) {
                let Some(mut from) = workspace_deps.get(key).cloned() else {
                    bail!("{key} is inherited from a workspace that does not list it");
                };
                absolute_path(&mut from, root);
                *value = from;
            } else {
                absolute_path(value, &contestant.dir);
            }
            if key == runtime {
                runtime_found = true;
                if let Spec::Release { version, .. } = spec {
                    pin(value, version);
                }
            }
        }
    }
    anyhow::ensure!(runtime_found, "{runtime} is not among its dependencies");
    absolute_targets(&mut own, &contestant.dir);
    own.insert("workspace".into(), Value::Table(Table::new()));
    if let Some(profile) = workspace.get("profile") {
        own.insert("profile".into(), contestants_profile(profile));
    }
    if *spec == Spec::Patch {
        own.insert("patch".into(), patch_table(patches));
    }
    Ok(format!(
        "# Written by taskbench for the variant: do not edit (it is written again).\n{}",
        toml::to_string(&own)?
    ))
}

/// Every `[lib]` and `[[bin]]` target's path made absolute (the variant's manifest lives
/// elsewhere), and a `[lib]` written where the contestant has one by convention alone.
fn absolute_targets(own: &mut Table, dir: &Path) {
    for section in ["lib", "bin"] {
        let targets: Vec<&mut Table> = match own.get_mut(section) {
            Some(Value::Table(t)) => vec![t],
            Some(Value::Array(items)) => items.iter_mut().filter_map(Value::as_table_mut).collect(),
            _ => Vec::new(),
        };
        for target in targets {
            let path = target
                .get("path")
                .and_then(Value::as_str)
                .unwrap_or(if section == "lib" {
                    "src/lib.rs"
                } else {
                    "src/main.rs"
                });
            let absolute = dir.join(path).to_string_lossy().into_owned();
            target.insert("path".into(), absolute.into());
        }
    }
    if !own.contains_key("lib") && dir.join("src/lib.rs").is_file() {
        let lib = dir.join("src/lib.rs").to_string_lossy().into_owned();
        own.insert(
            "lib".into(),
            Value::Table(Table::from_iter([("path".into(), lib.into())])),
        );
    }
}

/// `[patch.crates-io]` with each `--patch CRATE=PATH`.
fn patch_table(patches: &[Patch]) -> Value {
    let mut replaced = Table::new();
    for patch in patches {
        let path = patch.path.to_string_lossy().into_owned();
        replaced.insert(
            patch.krate.clone(),
            Value::Table(Table::from_iter([("path".into(), path.into())])),
        );
    }
    Value::Table(Table::from_iter([(
        "crates-io".to_string(),
        Value::Table(replaced),
    )]))
}

/// `edition.workspace = true`, `kit.workspace = true`.
fn is_inherited(value: &Value) -> bool {
    value.get("workspace").and_then(Value::as_bool) == Some(true)
}

/// A dependency's relative `path` made absolute against `base`.
fn absolute_path(dependency: &mut Value, base: &Path) {
    if let Some(table) = dependency.as_table_mut()
        && let Some(path) = table.get("path").and_then(Value::as_str)
    {
        let absolute = base.join(path).to_string_lossy().into_owned();
        table.insert("path".into(), absolute.into());
    }
}

/// The dependency required at exactly `version`, its features kept.
fn pin(dependency: &mut Value, version: &str) {
    let exact = format!("={version}");
    match dependency {
        Value::Table(table) => {
            table.insert("version".into(), exact.into());
        }
        other => *other = exact.into(),
    }
}

/// `PATH @ <commit>` (`, dirty` when its tree has changes), or the path alone out of git.
pub(crate) fn checkout(path: &Path) -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(path)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(commit) => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            format!(
                "{} @ {commit}{}",
                path.display(),
                if dirty { " (dirty)" } else { "" }
            )
        }
        None => path.display().to_string(),
    }
}

/// Writes `text` unless the file holds it already (cargo rebuilds on a newer manifest).
fn write_if_changed(path: &Path, text: &str) -> anyhow::Result<()> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::split;

    #[test]
    fn a_patch_names_a_crate_and_a_checkout() {
        let dir = tempfile::tempdir().unwrap();
        assert!(parse_patch("tokio").is_err());
        assert!(parse_patch(&format!("tokio={}", dir.path().display())).is_err());
        std::fs::write(dir.path().join("Cargo.toml"), "[package]").unwrap();
        let patch = parse_patch(&format!("tokio={}", dir.path().display())).unwrap();
        assert_eq!(patch.krate, "tokio");
        assert_eq!(checkout(&patch.path), patch.path.display().to_string());
    }

    /// The repository's tokio contestant, with the build cache in `cache`.
    fn tokio(cache: &Path) -> (Contestant, Places) {
        let root = crate::home::repository_root();
        let places = Places {
            target: cache.join("contestants"),
            cache: cache.to_path_buf(),
            root: root.clone(),
        };
        let found = crate::discover(&root.join("contestants/rust/tokio")).unwrap();
        (found.into_iter().next().unwrap(), places)
    }

    #[test]
    fn a_version_variant_is_a_workspace_of_its_own_with_the_runtime_pinned() {
        let cache = tempfile::tempdir().unwrap();
        let (contestant, places) = tokio(cache.path());
        let variant = contestant
            .variant(&split("tokio@1.38.0").unwrap().1.unwrap(), &[], &places)
            .unwrap();
        assert_eq!(variant.name(), "tokio@1.38.0");
        let dir = cache.path().join("tokio@1.38.0");
        let manifest: Table =
            toml::from_str(&std::fs::read_to_string(dir.join("Cargo.toml")).unwrap()).unwrap();
        let tokio = &manifest["dependencies"]["tokio"];
        assert_eq!(tokio["version"].as_str(), Some("=1.38.0"));
        assert_eq!(
            tokio["features"].as_array().unwrap().len(),
            1,
            "features kept"
        );
        let kit = manifest["dependencies"]["kit"]["path"].as_str().unwrap();
        assert!(Path::new(kit).is_absolute() && Path::new(kit).join("Cargo.toml").is_file());
        assert_eq!(manifest["package"]["edition"].as_str(), Some("2024"));
        assert!(manifest["workspace"].as_table().unwrap().is_empty());
        // Built as the plain contestant is: the contestant profile, over cargo's release.
        let profile = &manifest["profile"]["contestant"];
        assert_eq!(profile["inherits"].as_str(), Some("release"));
        assert_eq!(profile["codegen-units"].as_integer(), Some(1));
        assert_eq!(profile["lto"].as_str(), Some("thin"));
        let release = manifest["profile"].get("release");
        assert!(
            release.is_none_or(|r| r.get("package").is_none()),
            "the harness's overrides left out: {release:?}"
        );
        let main = manifest["bin"][0]["path"].as_str().unwrap();
        assert!(Path::new(main).is_file(), "{main}");
        assert!(dir.join("Cargo.lock").is_file(), "the lock is seeded");
        // Built into the variant's own target folder, from its own manifest.
        let build = variant.manifest.build.unwrap();
        assert!(
            build
                .windows(2)
                .any(|w| w[0] == "--manifest-path"
                    && w[1] == dir.join("Cargo.toml").to_string_lossy())
        );
        assert!(build.windows(2).any(|w| w == ["--profile", "contestant"]));
        assert!(
            variant.manifest.run[0].starts_with(&*dir.join("target/contestant").to_string_lossy())
        );
        let built = variant.variant.unwrap();
        assert_eq!((built.note, built.fetch), (None, None));
    }

    #[test]
    fn a_patch_variant_names_its_checkout_and_needs_one() {
        let cache = tempfile::tempdir().unwrap();
        let (contestant, places) = tokio(cache.path());
        assert!(contestant.variant(&Spec::Patch, &[], &places).is_err());
        let checkout = tempfile::tempdir().unwrap();
        std::fs::write(checkout.path().join("Cargo.toml"), "[package]").unwrap();
        let patch = parse_patch(&format!("tokio={}", checkout.path().display())).unwrap();
        let variant = contestant
            .variant(&Spec::Patch, std::slice::from_ref(&patch), &places)
            .unwrap();
        let text = std::fs::read_to_string(cache.path().join("tokio@patch/Cargo.toml")).unwrap();
        let manifest: Table = toml::from_str(&text).unwrap();
        assert_eq!(
            manifest["patch"]["crates-io"]["tokio"]["path"].as_str(),
            Some(&*patch.path.to_string_lossy())
        );
        let note = variant.variant.unwrap().note.unwrap();
        assert_eq!(note, format!("patched: {}", patch.path.display()));
    }

    #[test]
    fn the_sparse_index_lists_unyanked_versions_at_its_path() {
        assert_eq!(index_path("tokio"), "to/ki/tokio");
        assert_eq!(index_path("smol"), "sm/ol/smol");
        assert_eq!(index_path("rayon"), "ra/yo/rayon");
        assert_eq!(index_path("a"), "1/a");
        assert_eq!(index_path("Abc"), "3/a/abc");
        let saved = "{\"name\":\"tokio\",\"vers\":\"1.38.0\",\"yanked\":false}\n\
                     {\"name\":\"tokio\",\"vers\":\"1.38.1\",\"yanked\":true}\n\
                     {\"name\":\"tokio\",\"vers\":\"1.39.0\",\"yanked\":false}\n";
        assert_eq!(versions_of(saved), ["1.38.0", "1.39.0"]);
    }
}
