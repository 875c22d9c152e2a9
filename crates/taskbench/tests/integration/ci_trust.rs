//! What a team trusts docs/ci/taskbench.yml and taskbench-comment.yml with: the store's
//! secret reaches one job, run on a push to main only; tokens read unless a job says why;
//! a pull request's superseded run is cancelled, main's never; a fork's pull request is
//! commented by a `workflow_run` that runs none of its code, one comment edited in place;
//! the caches are keyed on files that exist, where the builds really write.

use super::ci_workflow::{scripts, uses, workflow_named};
use std::path::Path;
use yaml_rust2::Yaml;

fn repository() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Where under `yaml` a string names a secret (`secrets.…`), as dotted paths.
fn secret_uses(yaml: &Yaml, at: &str) -> Vec<String> {
    match yaml {
        Yaml::String(s) if s.contains("secrets.") => vec![at.to_string()],
        Yaml::Hash(hash) => hash
            .iter()
            .flat_map(|(k, v)| secret_uses(v, &format!("{at}.{}", k.as_str().unwrap_or("?"))))
            .collect(),
        Yaml::Array(items) => (items.iter().enumerate())
            .flat_map(|(i, v)| secret_uses(v, &format!("{at}.{i}")))
            .collect(),
        _ => Vec::new(),
    }
}

/// The step of `job` that uses `action` (any version).
fn step<'a>(job: &'a Yaml, action: &str) -> &'a Yaml {
    (job["steps"].as_vec().unwrap().iter())
        .find(|s| (s["uses"].as_str()).is_some_and(|u| u.starts_with(&format!("{action}@"))))
        .unwrap_or_else(|| panic!("no step uses {action}"))
}

/// A permissions block as (scope, access) pairs.
fn permissions(block: &Yaml) -> Vec<(String, String)> {
    let hash = block
        .as_hash()
        .unwrap_or_else(|| panic!("not a map: {block:?}"));
    (hash.iter())
        .map(|(k, v)| (k.as_str().unwrap().into(), v.as_str().unwrap().into()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|&(k, v)| (k.into(), v.into())).collect()
}

#[test]
fn only_the_store_job_gets_the_secret_and_only_on_a_push_to_main() {
    let workflow = workflow_named("taskbench.yml");
    assert_eq!(
        secret_uses(&workflow, "taskbench.yml"),
        ["taskbench.yml.jobs.store.steps.2.env.TASKBENCH_STORE"],
        "the secret is in the env of the store job's import step and nowhere else"
    );
    let comment = workflow_named("taskbench-comment.yml");
    assert!(secret_uses(&comment, "taskbench-comment.yml").is_empty());
    let store = &workflow["jobs"]["store"];
    let condition = store["if"].as_str().unwrap();
    assert!(
        condition.contains("github.event_name == 'push'")
            && condition.contains("github.ref == 'refs/heads/main'"),
        "{condition}"
    );
    assert!(
        uses(store)
            .iter()
            .all(|u| !u.starts_with("actions/checkout@"))
    );
    assert!(
        permissions(&store["permissions"]).is_empty(),
        "no token rights"
    );
    assert!(
        !workflow["on"]["pull_request"].is_badvalue()
            && workflow["on"]["pull_request_target"].is_badvalue(),
        "pull requests run with their own read-only token, never pull_request_target"
    );
}

#[test]
fn tokens_read_unless_a_job_needs_more() {
    let workflow = workflow_named("taskbench.yml");
    assert_eq!(
        permissions(&workflow["permissions"]),
        pairs(&[("contents", "read")])
    );
    for (name, job) in workflow["jobs"].as_hash().unwrap() {
        if !job["permissions"].is_badvalue() {
            let granted = permissions(&job["permissions"]);
            assert!(
                granted.iter().all(|(_, access)| access == "read"),
                "{name:?} writes nothing with its token: {granted:?}"
            );
        }
    }
    let comment = workflow_named("taskbench-comment.yml");
    assert!(permissions(&comment["permissions"]).is_empty());
    assert_eq!(
        permissions(&comment["jobs"]["comment"]["permissions"]),
        pairs(&[("actions", "read"), ("pull-requests", "write")])
    );
}

#[test]
fn a_pull_requests_superseded_run_is_cancelled_and_mains_never() {
    let concurrency = &workflow_named("taskbench.yml")["concurrency"];
    let group = concurrency["group"].as_str().unwrap();
    assert!(
        group.contains("github.workflow") && group.contains("github.ref"),
        "{group}"
    );
    assert_eq!(
        concurrency["cancel-in-progress"].as_str(),
        Some("${{ github.event_name == 'pull_request' }}")
    );
}

/// A fork's run uploads the comparison; the comment workflow, on `workflow_run` of that
/// workflow, checks out nothing, checks the number against the run's head and edits the
/// comment that carries the marker, or creates it.
#[test]
fn the_comment_is_posted_by_a_workflow_run_that_runs_no_code_of_the_pull_request() {
    let workflow = workflow_named("taskbench.yml");
    let comment = workflow_named("taskbench-comment.yml");
    let trigger = &comment["on"]["workflow_run"];
    assert_eq!(trigger["workflows"][0].as_str(), workflow["name"].as_str());
    assert_eq!(trigger["types"][0].as_str(), Some("completed"));
    let job = &comment["jobs"]["comment"];
    assert!(
        uses(job).is_empty(),
        "no action, no checkout: {:?}",
        uses(job)
    );
    let script = scripts(job).join("\n");
    for needed in [
        "gh run download \"$RUN_ID\" --name taskbench-comment",
        "<!-- taskbench -->",
        "select(.user.login == \\\"github-actions[bot]\\\"",
        "[ \"$head\" != \"$HEAD_SHA\" ]",
        "--method PATCH \"repos/$GH_REPO/issues/comments/$id\"",
        "--method POST \"repos/$GH_REPO/issues/$number/comments\"",
    ] {
        assert!(script.contains(needed), "the comment script lacks {needed}");
    }
    assert!(
        !script.contains("${{"),
        "the script reads the event through env, never expanded into the shell"
    );
}

/// Whether any file under the repository matches `pattern` (`*` one name, `**` any depth).
fn matches(dir: &Path, pattern: &[&str]) -> bool {
    let Some((first, rest)) = pattern.split_first() else {
        return dir.is_file();
    };
    let entries = || std::fs::read_dir(dir).into_iter().flatten().flatten();
    match *first {
        "**" => matches(dir, rest) || entries().any(|e| matches(&e.path(), pattern)),
        "*" => entries().any(|e| matches(&e.path(), rest)),
        name => matches(&dir.join(name), rest),
    }
}

fn exists(pattern: &str) -> bool {
    matches(repository(), &pattern.split('/').collect::<Vec<_>>())
}

#[test]
fn the_caches_are_keyed_on_files_that_exist_and_hold_what_the_builds_write() {
    let shard = &workflow_named("taskbench.yml")["jobs"]["shard"];
    for (action, cache) in [
        ("actions/setup-node", "npm"),
        ("actions/setup-python", "pip"),
    ] {
        let with = &step(shard, action)["with"];
        assert_eq!(with["cache"].as_str(), Some(cache));
        // One pattern a line (YAML's `|`), each matching a file.
        let keyed_on = with["cache-dependency-path"].as_str().unwrap();
        for pattern in keyed_on.lines().filter(|l| !l.trim().is_empty()) {
            assert!(
                exists(pattern.trim()),
                "{action}: no file matches {pattern}"
            );
        }
    }
    // Maven's repository is where kotlin-coroutines' build puts it, in taskbench's cache.
    let maven = &step(shard, "actions/cache")["with"];
    let path = maven["path"].as_str().unwrap();
    let cache = contestant::home::places_in(repository().to_path_buf()).cache;
    assert_eq!(
        Path::new(path).parent().and_then(Path::parent),
        cache.strip_prefix(repository()).ok()
    );
    let build =
        std::fs::read_to_string(repository().join("contestants/kotlin/coroutines/build.sh"))
            .unwrap();
    assert!(build.contains("-Dmaven.repo.local=\"$cache/m2\"") && path.ends_with("/*/m2"));
    let key = maven["key"].as_str().unwrap();
    let pattern = key
        .split("hashFiles('")
        .nth(1)
        .unwrap()
        .split('\'')
        .next()
        .unwrap();
    assert!(exists(pattern), "no file matches {pattern}");
    // Post steps run last first: the Maven cache is saved before rust-cache's clean-up.
    let at = |action: &str| {
        (uses(shard).iter().position(|u| u.starts_with(action)))
            .unwrap_or_else(|| panic!("no step uses {action}"))
    };
    assert!(at("Swatinem/rust-cache@") < at("actions/cache@"));
}
