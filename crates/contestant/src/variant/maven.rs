//! Kotlin variants (`kotlin-coroutines@1.8.1`): the contestant's own code built against
//! another kotlinx-coroutines release from Maven Central. The release is fetched first, by
//! Maven's dependency plugin (the version the contestant's pom pins), into the variant's own
//! local repository (`{cache}/m2`), so that a release Central does not have is one line; the
//! build is the contestant's own, with the pom's version property overridden on Maven's
//! command line. The version recorded is the one the built jar's coroutines report.

use super::{Built, FETCH_TIMEOUT, Fetch, Spec};
use crate::Contestant;
use crate::command;
use std::path::{Path, PathBuf};

/// The dependency plugin the contestant's pom pins, which fetches the release.
const GET: &str = "org.apache.maven.plugins:maven-dependency-plugin:3.10.0:get";

/// A library a JVM contestant's release is named by, and the pom property that pins it.
struct Library {
    /// The contestant's language.
    language: &'static str,
    /// The word that may name it before a version (`coroutines1.8.1`).
    word: &'static str,
    /// `group:artifact` on Maven Central.
    artifact: &'static str,
    /// The pom's property holding its version.
    property: &'static str,
}

/// The libraries whose releases make variants.
const LIBRARIES: &[Library] = &[Library {
    language: "Kotlin",
    word: "coroutines",
    artifact: "org.jetbrains.kotlinx:kotlinx-coroutines-core-jvm",
    property: "kotlinx.coroutines.version",
}];

/// A release asked for, and the variant's folder its local repository is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Release {
    /// `org.jetbrains.kotlinx:kotlinx-coroutines-core-jvm`.
    artifact: &'static str,
    /// `1.8.1`.
    version: String,
    dir: PathBuf,
}

/// The contestant's build, its library's version set on Maven's command line.
pub(super) fn variant(variant: &mut Contestant, spec: &Spec, dir: &Path) -> anyhow::Result<Built> {
    let name = variant.name().to_string();
    let language = variant.manifest.language.as_str();
    let library = LIBRARIES
        .iter()
        .find(|l| l.language == language)
        .ok_or_else(|| anyhow::anyhow!("'{name}': no library release is fetched for {language}"))?;
    let version = super::release(&name, spec, library.word)?.to_string();
    anyhow::ensure!(
        version.split('.').count() == 3,
        "'{name}': name a {} release in full, as 1.8.1",
        library.artifact
    );
    let build = variant.manifest.build.as_mut().ok_or_else(|| {
        anyhow::anyhow!(
            "'{name}': {} has no build to set its version in",
            variant.dir.display()
        )
    })?;
    build.push(format!("-D{}={version}", library.property));
    Ok(Built {
        lockfile: None,
        note: None,
        fetch: Some(Fetch::Maven(Release {
            artifact: library.artifact,
            version,
            dir: dir.to_path_buf(),
        })),
    })
}

impl Release {
    /// Every version Maven Central lists of the artifact, from its maven-metadata.xml.
    pub(super) fn versions(&self) -> Result<Vec<String>, String> {
        let (group, artifact) = self.artifact.split_once(':').unwrap_or(("", self.artifact));
        let path = format!("{}/{artifact}", group.replace('.', "/"));
        let url = format!("https://repo.maven.apache.org/maven2/{path}/maven-metadata.xml");
        Ok(versions_of(&super::listing::download(&url, &self.dir)?))
    }

    /// Fetches the release into the variant's local repository (nothing when it is there).
    pub(super) fn fetch(&self) -> Result<(), String> {
        let coordinates = format!("{}:{}", self.artifact, self.version);
        let command: Vec<String> = [
            "mvn",
            "--batch-mode",
            "-Dstyle.color=never",
            GET,
            &format!("-Dartifact={coordinates}"),
            "-Dtransitive=false",
            &format!("-Dmaven.repo.local={}", self.dir.join("m2").display()),
        ]
        .map(String::from)
        .to_vec();
        let done = command::run(&command, &self.dir, FETCH_TIMEOUT).map_err(|e| format!("{e}"))?;
        if done.success() {
            return Ok(());
        }
        Err(reason(&done.stdout, &coordinates))
    }
}

/// Why Maven could not fetch `coordinates`, in one line: Central lacks it (named by its
/// artifact and version), or the first error Maven printed.
fn reason(output: &str, coordinates: &str) -> String {
    let mut parts = coordinates.rsplit(':');
    let (version, artifact) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    if output.contains("Could not find artifact") || output.contains("was not found in") {
        return format!("Maven Central has no {artifact} {version}");
    }
    let first = output
        .lines()
        .filter_map(|l| l.trim().strip_prefix("[ERROR]"))
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("no message");
    format!("Maven could not fetch {coordinates}: {first}")
}

/// The `<version>`s of a maven-metadata.xml.
fn versions_of(xml: &str) -> Vec<String> {
    xml.split("<version>")
        .skip(1)
        .filter_map(|rest| Some(rest.split_once("</version>")?.0.trim().to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::testing::variant as kotlin;

    #[test]
    fn a_kotlin_variant_sets_the_coroutines_version_in_its_own_folder() {
        let cache = tempfile::tempdir().unwrap();
        let variant = kotlin("kotlin-coroutines@1.8.1", cache.path()).unwrap();
        let build = variant.manifest.build.as_ref().unwrap();
        assert_eq!(build.last().unwrap(), "-Dkotlinx.coroutines.version=1.8.1");
        assert_eq!(
            build[2], "{cache}",
            "its own cache folder, m2 and target in it"
        );
        let Some(Fetch::Maven(release)) = variant.variant.unwrap().fetch else {
            panic!("no fetch")
        };
        assert_eq!(release.version, "1.8.1");
        assert_eq!(release.dir, cache.path().join("kotlin-coroutines@1.8.1"));
        assert!(kotlin("kotlin-coroutines@coroutines1.8.1", cache.path()).is_ok());
        let err = kotlin("kotlin-coroutines@1.8", cache.path()).unwrap_err();
        assert!(err.to_string().contains("in full, as 1.8.1"), "{err}");
        let err = kotlin("kotlin-coroutines@node22", cache.path()).unwrap_err();
        assert!(err.to_string().contains("runs on coroutines"), "{err}");
    }

    #[test]
    fn a_release_central_lacks_is_said_so_and_other_failures_by_their_first_error() {
        let missing = "[ERROR] Failed to execute goal ...: Couldn't download artifact: \
                       org.jetbrains.kotlinx:kotlinx-coroutines-core-jvm:jar:9.9.9 was not found \
                       in https://repo.maven.apache.org/maven2 during a previous attempt.";
        let coordinates = "org.jetbrains.kotlinx:kotlinx-coroutines-core-jvm:9.9.9";
        assert_eq!(
            reason(missing, coordinates),
            "Maven Central has no kotlinx-coroutines-core-jvm 9.9.9"
        );
        let offline = "[INFO] Scanning\n[ERROR] Plugin org.apache.maven.plugins:... could not \
                       be resolved: Unknown host repo.maven.apache.org\n[ERROR] -> [Help 1]";
        assert_eq!(
            reason(offline, coordinates),
            format!(
                "Maven could not fetch {coordinates}: Plugin org.apache.maven.plugins:... \
                 could not be resolved: Unknown host repo.maven.apache.org"
            )
        );
    }

    #[test]
    fn maven_centrals_metadata_lists_the_versions() {
        let saved = "<metadata>\n  <groupId>org.jetbrains.kotlinx</groupId>\n  <versioning>\n    \
                     <latest>1.10.2</latest>\n    <versions>\n      <version>1.8.0-RC</version>\n      \
                     <version>1.8.0</version>\n      <version>1.10.2</version>\n    </versions>\n  \
                     </versioning>\n</metadata>\n";
        assert_eq!(versions_of(saved), ["1.8.0-RC", "1.8.0", "1.10.2"]);
        assert!(versions_of("<html>404</html>").is_empty());
    }
}
