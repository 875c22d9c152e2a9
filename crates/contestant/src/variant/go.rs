//! Go variants (`go@1.22`, `go@1.22.12`): the contestant built by another Go release. The
//! toolchain is the module golang.org/toolchain on the Go module proxy (what
//! `GOTOOLCHAIN=go1.22.12` downloads), fetched by the machine's own `go` into the variant's
//! folder and called directly, so no toolchain switch can pick another. A minor (`1.22`)
//! is its newest patch in the proxy's list of that module, resolved when first fetched and
//! kept (delete the folder to resolve it again); a full release (`1.22.12`) is taken as
//! is. The build reads an alternate go.mod (`-modfile`) whose `go` line is the release's,
//! which an older go requires; the version recorded is the one the built binary reports.

use super::{Built, FETCH_TIMEOUT, Fetch, Spec, replace_word};
use crate::toolchain::checked;
use crate::{Contestant, VersionSource};
use std::path::{Path, PathBuf};

/// The module the Go toolchains are published as.
const TOOLCHAIN_MODULE: &str = "golang.org/toolchain";

/// A Go release asked for, and the variant's folder it is fetched into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Release {
    /// `1.22` or `1.22.12`.
    asked: String,
    dir: PathBuf,
    /// The contestant's module path, for the alternate go.mod.
    module: String,
}

/// `go@1.22`: built by the fetched toolchain (`{cache}/toolchain/bin/go`) against
/// `{cache}/contestant.mod`, its version asked of the binary (`go-contestant version`).
pub(super) fn variant(variant: &mut Contestant, spec: &Spec, dir: &Path) -> anyhow::Result<Built> {
    let name = variant.name().to_string();
    let asked = super::release(&name, spec, "go")?.to_string();
    anyhow::ensure!(
        asked.split('.').count() >= 2 && !asked.contains('-'),
        "'{name}': name a Go release as 1.22 (its newest patch) or 1.22.12"
    );
    let go = dir.join("toolchain/bin/go").to_string_lossy().into_owned();
    let modfile = format!("-modfile={}", modfile(dir).display());
    variant.manifest.build = variant.manifest.build.as_deref().map(|build| {
        let mut build = replace_word(build, "go", &go);
        let at = build
            .iter()
            .position(|w| w == "build")
            .map_or(build.len(), |i| i + 1);
        build.insert(at, modfile.clone());
        build
    });
    let mut version = variant.manifest.run.clone();
    version.push("version".into());
    variant.manifest.version = VersionSource::Command(version);
    variant.runs_release(
        "go",
        &asked,
        "fetched from the Go module proxy for this variant",
    );
    Ok(Built {
        lockfile: None,
        note: None,
        fetch: Some(Fetch::Go(Release {
            asked,
            dir: dir.to_path_buf(),
            module: module_path(&variant.dir).unwrap_or_else(|| "contestant".into()),
        })),
    })
}

/// The alternate go.mod in a variant's folder.
fn modfile(dir: &Path) -> PathBuf {
    dir.join("contestant.mod")
}

/// The `module` line of the contestant's go.mod.
fn module_path(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("go.mod")).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix("module "))
        .map(|m| m.trim().to_string())
}

impl Release {
    /// Resolves and downloads the toolchain unless the folder has one, then writes the
    /// alternate go.mod for its release.
    pub(super) fn fetch(&self) -> Result<(), String> {
        let link = self.dir.join("toolchain");
        if !link.join("bin/go").is_file() {
            let release = self.resolve()?;
            let module_dir = self.download(&release)?;
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(&module_dir, &link)
                .map_err(|e| format!("cannot link {}: {e}", link.display()))?;
        }
        executable(&link)?;
        let release = std::fs::read_link(&link)
            .ok()
            .and_then(|target| release_of_dir(&target))
            .ok_or_else(|| format!("{} names no Go release", link.display()))?;
        let text = format!(
            "module {}\n\ngo {}\n",
            self.module,
            language_version(&release)
        );
        std::fs::write(modfile(&self.dir), text)
            .map_err(|e| format!("cannot write its go.mod: {e}"))
    }

    /// The release to fetch: the asked one, or the newest patch of the asked minor, as the
    /// proxy lists them for this platform.
    fn resolve(&self) -> Result<String, String> {
        let listed = self.go(&["list", "-m", "-versions", TOOLCHAIN_MODULE])?;
        let releases = releases(&listed, &platform());
        newest_match(&releases, &self.asked).ok_or_else(|| {
            format!(
                "the Go module proxy has no Go {} for {} (newest: go{})",
                self.asked,
                platform(),
                newest_match(&releases, "").unwrap_or_else(|| "none".into())
            )
        })
    }

    /// Every release of Go the proxy lists for this platform (for `bisect`).
    pub(super) fn versions(&self) -> Result<Vec<String>, String> {
        let listed = self.go(&["list", "-m", "-versions", TOOLCHAIN_MODULE])?;
        Ok(releases(&listed, &platform()))
    }

    /// Downloads `go<release>`'s toolchain module; the folder it is in.
    fn download(&self, release: &str) -> Result<PathBuf, String> {
        let module = format!("{TOOLCHAIN_MODULE}@v0.0.1-go{release}.{}", platform());
        let json = self.go(&["mod", "download", "-json", &module])?;
        let dir = serde_json::from_str::<serde_json::Value>(&json)
            .ok()
            .and_then(|v| v.get("Dir")?.as_str().map(PathBuf::from))
            .ok_or_else(|| format!("`go mod download {module}` named no folder"))?;
        Ok(dir)
    }

    /// Runs the machine's `go` in the variant's folder, never switching toolchains, its
    /// module cache there too.
    fn go(&self, args: &[&str]) -> Result<String, String> {
        let cache = self.dir.join("gomod").to_string_lossy().into_owned();
        let mut command: Vec<String> = [
            "env",
            "GOTOOLCHAIN=local",
            "GOFLAGS=-mod=mod",
            &format!("GOMODCACHE={cache}"),
            "go",
        ]
        .map(String::from)
        .to_vec();
        command.extend(args.iter().map(|a| (*a).to_string()));
        checked(&command, &self.dir, FETCH_TIMEOUT).map_err(|e| e.to_string())
    }
}

/// The toolchain's programs made executable: a module zip keeps no file modes (what `go`
/// does too when it switches to a downloaded toolchain).
fn executable(toolchain: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let tools = std::fs::read_dir(toolchain.join("pkg/tool"))
        .map_err(|e| format!("{}: {e}", toolchain.display()))?
        .filter_map(Result::ok)
        .map(|entry| entry.path());
    for folder in std::iter::once(toolchain.join("bin")).chain(tools) {
        let files = std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        for file in files.filter_map(Result::ok).map(|e| e.path()) {
            let Ok(meta) = std::fs::metadata(&file) else {
                continue;
            };
            if meta.is_file() && meta.permissions().mode() & 0o111 == 0 {
                let mode = meta.permissions().mode() | 0o111;
                std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode))
                    .map_err(|e| format!("cannot make {} executable: {e}", file.display()))?;
            }
        }
    }
    Ok(())
}

/// `linux-amd64`: the platform part of a toolchain module's version.
fn platform() -> String {
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        "x86" => "386",
        other => other,
    };
    format!("{}-{arch}", std::env::consts::OS)
}

/// The releases (`1.22.12`, `1.20`) in `go list -m -versions` output for `platform`.
fn releases(listed: &str, platform: &str) -> Vec<String> {
    let suffix = format!(".{platform}");
    listed
        .split_whitespace()
        .filter_map(|v| v.strip_prefix("v0.0.1-go")?.strip_suffix(&suffix))
        .map(String::from)
        .collect()
}

/// The newest of `releases` that is `asked` or a patch of it (`1.22` → `1.22.12`; `1.20`
/// was the first release of its minor, before `1.21.0` named it so); pre-releases never.
fn newest_match(releases: &[String], asked: &str) -> Option<String> {
    let numbers = |r: &str| -> Option<Vec<u64>> {
        r.split('.')
            .map(|p| p.parse().ok())
            .collect::<Option<Vec<u64>>>()
    };
    releases
        .iter()
        .filter(|r| {
            asked.is_empty()
                || *r == asked
                || r.strip_prefix(asked)
                    .and_then(|rest| rest.strip_prefix('.'))
                    .is_some_and(|patch| patch.bytes().all(|b| b.is_ascii_digit()))
        })
        .filter_map(|r| Some((numbers(r)?, r)))
        .max()
        .map(|(_, r)| r.clone())
}

/// `golang.org/toolchain@v0.0.1-go1.22.12.linux-amd64` → `1.22.12`.
fn release_of_dir(dir: &Path) -> Option<String> {
    let name = dir.file_name()?.to_str()?;
    let rest = name.split_once("@v0.0.1-go")?.1;
    Some(rest.split_once(&format!(".{}", platform()))?.0.to_string())
}

/// `1.22.12` → `1.22`: the go.mod `go` line every release reads (1.20 takes no patch).
fn language_version(release: &str) -> String {
    release.split('.').take(2).collect::<Vec<_>>().join(".")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed() -> Vec<String> {
        let text = "golang.org/toolchain v0.0.1-go1.20.linux-amd64 v0.0.1-go1.20.14.linux-amd64 \
                    v0.0.1-go1.22.2.linux-amd64 v0.0.1-go1.22.12.linux-amd64 \
                    v0.0.1-go1.22.9.linux-amd64 v0.0.1-go1.22.12.darwin-arm64 \
                    v0.0.1-go1.23rc1.linux-amd64 v0.0.1-go1.2.linux-amd64";
        releases(text, "linux-amd64")
    }

    #[test]
    fn a_minor_is_its_newest_patch_and_a_release_itself() {
        let found = listed();
        assert!(!found.iter().any(|r| r.contains("darwin")));
        assert_eq!(newest_match(&found, "1.22").as_deref(), Some("1.22.12"));
        assert_eq!(newest_match(&found, "1.22.9").as_deref(), Some("1.22.9"));
        assert_eq!(newest_match(&found, "1.20").as_deref(), Some("1.20.14"));
        assert_eq!(
            newest_match(&found, "1.2").as_deref(),
            Some("1.2"),
            "not 1.20 nor 1.22"
        );
        assert_eq!(
            newest_match(&found, "1.23"),
            None,
            "a release candidate never"
        );
        assert_eq!(newest_match(&found, "1.99"), None);
        assert_eq!(newest_match(&found, "").as_deref(), Some("1.22.12"));
    }

    #[test]
    fn the_listing_keeps_this_platforms_releases_and_bisect_drops_candidates() {
        let found = listed();
        assert_eq!(found.len(), 7, "{found:?}");
        let kept: Vec<&String> = found
            .iter()
            .filter(|r| super::super::listing::is_release(r))
            .collect();
        assert!(!kept.iter().any(|r| r.contains("rc")), "{kept:?}");
        assert_eq!(kept.len(), 6);
    }

    #[test]
    fn the_release_is_read_back_from_the_module_folder() {
        let dir = format!(
            "/c/gomod/golang.org/toolchain@v0.0.1-go1.22.12.{}",
            platform()
        );
        assert_eq!(release_of_dir(Path::new(&dir)).as_deref(), Some("1.22.12"));
        assert_eq!(language_version("1.22.12"), "1.22");
        assert_eq!(language_version("1.20"), "1.20");
    }

    #[test]
    fn a_go_variant_builds_with_the_fetched_toolchain_and_asks_the_binary() {
        let cache = tempfile::tempdir().unwrap();
        let places = super::super::testing::places(cache.path());
        let variant = super::super::testing::variant("go@1.22", cache.path()).unwrap();
        let dir = cache.path().join("go@1.22");
        let build = variant.manifest.expand(
            variant.manifest.build.as_ref().unwrap(),
            &variant.dir,
            &places,
        );
        let toolchain = dir.join("toolchain/bin/go");
        assert!(
            build.contains(&toolchain.to_string_lossy().into_owned()),
            "{build:?}"
        );
        assert!(!build.iter().any(|w| w == "go"), "{build:?}");
        let modfile = format!("-modfile={}", dir.join("contestant.mod").display());
        assert!(build.contains(&modfile), "{build:?}");
        assert!(build.contains(&format!("GOCACHE={}/go-build", dir.display())));
        let VersionSource::Command(version) = &variant.manifest.version else {
            panic!("{:?}", variant.manifest.version)
        };
        assert_eq!(version[1], "version");
        // Its toolchain's age is the release it runs, not the machine's Go.
        let go = &variant.toolchains[0];
        assert_eq!((go.id.as_str(), go.runs.as_str()), ("go", "1.22"));
        assert!(go.via.contains("Go module proxy"), "{go:?}");
        let Some(Fetch::Go(release)) = variant.variant.unwrap().fetch else {
            panic!("no fetch")
        };
        assert_eq!(
            (release.asked.as_str(), release.module.as_str()),
            ("1.22", "taskbench/contestants/go")
        );
        let err = super::super::testing::variant("go@1", cache.path()).unwrap_err();
        assert!(err.to_string().contains("1.22 (its newest patch)"), "{err}");
    }
}
