//! The store on PostgreSQL over TLS, against the servers .ci/run starts. The first has a
//! certificate signed by a CA made for it (its file in TASKBENCH_TEST_POSTGRES_CA): each of
//! libpq's `sslmode`s, whether the store's connection is encrypted read back from the
//! server (`pg_stat_ssl`); allow and prefer going the other way when the server refuses the
//! first (two users .ci/run admits over TLS only and without only); the server's
//! certificate checked against that CA, by address and by name, and refused against
//! another. The second (TASKBENCH_TEST_POSTGRES_SELF_SIGNED) has a self-signed certificate
//! made as PostgreSQL's manual shows, its own root (its file in
//! TASKBENCH_TEST_POSTGRES_SELF_SIGNED_CRT), taken by verify-ca and verify-full as libpq
//! takes it (issue 35). Without a server or its certificate these skip, and fail under
//! TASKBENCH_REQUIRE_ALL=1.

use super::postgres::{Scratch, admin_client, documents, kept, server};
use super::util::{QUICK, output_within, skip, stderr, taskbench_within, with_test_store};
use std::path::{Path, PathBuf};
use std::process::Command;
use store::{Location, Provenance};

/// The server's admin URL and its CA's certificate, or `None` (after [`skip`]).
fn server_and_ca() -> Option<(String, PathBuf)> {
    let admin = server()?;
    let Some(ca) = std::env::var_os("TASKBENCH_TEST_POSTGRES_CA") else {
        skip("no CA for the PostgreSQL server's TLS: TASKBENCH_TEST_POSTGRES_CA names none");
        return None;
    };
    Some((admin, ca.into()))
}

/// The self-signed server's admin URL and its certificate, or `None` (after [`skip`]).
fn self_signed_server() -> Option<(String, PathBuf)> {
    let url = std::env::var("TASKBENCH_TEST_POSTGRES_SELF_SIGNED").ok();
    let crt = std::env::var_os("TASKBENCH_TEST_POSTGRES_SELF_SIGNED_CRT");
    let (Some(url), Some(crt)) = (url, crt) else {
        skip(
            "no PostgreSQL server with a self-signed certificate: \
             TASKBENCH_TEST_POSTGRES_SELF_SIGNED or _CRT names none (.ci/run starts one)",
        );
        return None;
    };
    Some((url, crt.into()))
}

/// `url` with `params` (`key=value&…`) added to its query.
fn with(url: &str, params: &str) -> String {
    let join = if url.contains('?') { '&' } else { '?' };
    format!("{url}{join}{params}")
}

fn root(ca: &Path) -> String {
    format!("sslrootcert={}", ca.display())
}

/// Whether each connection to `scratch`'s database (the store's, while it is open) is over
/// TLS, as the server sees it.
fn encrypted(scratch: &Scratch) -> Vec<bool> {
    let sql = "SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a ON a.pid = s.pid \
               WHERE a.datname = $1";
    let rows = admin_client(&scratch.admin).query(sql, &[&scratch.name]);
    rows.unwrap().iter().map(|row| row.get(0)).collect()
}

/// Opens the store at `url`, panicking with the reason if it cannot.
fn open(url: &str) -> store::Store {
    let location: Location = url.parse().unwrap_or_else(|e| panic!("{url}: {e}"));
    store::open(&location).unwrap_or_else(|e| panic!("{url}: {e:#}"))
}

/// Why opening the store at `url` fails, after the "cannot open the store URL: " every
/// such error starts with; panics if it opens.
fn refusal(url: &str) -> String {
    let err = match store::open(&url.parse().unwrap()) {
        Ok(_) => panic!("{url}: opens"),
        Err(err) => format!("{err:#}"),
    };
    let why = err.strip_prefix(&format!("cannot open the store {url}: "));
    why.unwrap_or_else(|| panic!("{err}")).to_string()
}

#[test]
fn postgres_over_tls_as_each_sslmode_asks() {
    let Some((admin, ca)) = server_and_ca() else {
        return;
    };
    let scratch = Scratch::new(&admin);
    for (params, tls) in [
        (String::new(), true), // prefer, libpq's default, and the server offers TLS
        ("sslmode=prefer".into(), true),
        ("sslmode=allow".into(), false), // plain first, and the server takes it
        ("sslmode=disable".into(), false),
        ("sslmode=require".into(), true),
        (format!("sslmode=verify-ca&{}", root(&ca)), true),
        (format!("sslmode=verify-full&{}", root(&ca)), true),
        (root(&ca), true), // prefer, the chain checked
    ] {
        let store = open(&with(&scratch.url, &params));
        assert_eq!(encrypted(&scratch), [tls], "{params}");
        drop(store);
    }
}

#[test]
fn postgres_over_tls_with_sslmode_require_keeps_a_run() {
    let Some((admin, _)) = server_and_ca() else {
        return;
    };
    let scratch = Scratch::new(&admin);
    let mut store = open(&with(&scratch.url, "sslmode=require"));
    assert_eq!(encrypted(&scratch), [true]);
    let results = &documents()[0];
    let id = store::record(&mut store, results, &Provenance::default()).unwrap();
    drop(store);
    let mut again = open(&with(&scratch.url, "sslmode=require"));
    assert_eq!(store::runs(&mut again, id).unwrap(), kept(results));
    assert_eq!(store::find(&mut again, "last").unwrap().id, id);
}

/// The refusal of a certificate for 127.0.0.1 and localhost by another name.
const NOT_FOR_ELSEWHERE: &str = "error performing TLS handshake: invalid peer certificate: \
                                 certificate not valid for name \"elsewhere.invalid\"";

/// `url` (at 127.0.0.1) by the name elsewhere.invalid, still at 127.0.0.1.
fn elsewhere(url: &str) -> String {
    let elsewhere = url.replace("@127.0.0.1:", "@elsewhere.invalid:");
    assert_ne!(elsewhere, url, "the URL names 127.0.0.1");
    with(&elsewhere, "hostaddr=127.0.0.1")
}

#[test]
fn postgres_verify_full_checks_the_name_and_verify_ca_only_the_chain() {
    let Some((admin, ca)) = server_and_ca() else {
        return;
    };
    let scratch = Scratch::new(&admin);
    let full = with(&scratch.url, &format!("sslmode=verify-full&{}", root(&ca)));
    // The certificate is for 127.0.0.1 and localhost: both pass.
    drop(open(&full));
    drop(open(&full.replace("@127.0.0.1:", "@localhost:")));
    // Another name, at the same address: the chain is good, the name is not.
    let err = refusal(&elsewhere(&full));
    assert!(err.starts_with(NOT_FOR_ELSEWHERE), "{err}");
    drop(open(&elsewhere(&full).replace("verify-full", "verify-ca")));
    // Over the command line too: the URL is read as the flag is.
    let history = taskbench_within(&["history", "--store", &full], QUICK);
    assert!(history.status.success(), "{}", stderr(&history));
}

/// Issue 35: a self-signed certificate (`openssl req -x509`, so CA:TRUE) given as its own
/// root, which webpki refused as "CaUsedAsEndEntity" and libpq takes.
#[test]
fn postgres_self_signed_certificate_is_its_own_root_as_libpq_takes_it() {
    let Some((admin, crt)) = self_signed_server() else {
        return;
    };
    let scratch = Scratch::new(&admin);
    for mode in ["verify-ca", "verify-full"] {
        let url = with(&scratch.url, &format!("sslmode={mode}&{}", root(&crt)));
        // The certificate is for 127.0.0.1 and localhost (its subjectAltName).
        for host in ["127.0.0.1", "localhost"] {
            let store = open(&url.replace("@127.0.0.1:", &format!("@{host}:")));
            assert_eq!(encrypted(&scratch), [true], "{mode} {host}");
            drop(store);
        }
        let history = taskbench_within(&["history", "--store", &url], QUICK);
        assert!(history.status.success(), "{mode}: {}", stderr(&history));
    }
    // Another name, at the same address: verify-full refuses it, verify-ca does not ask.
    let full = with(&scratch.url, &format!("sslmode=verify-full&{}", root(&crt)));
    let err = refusal(&elsewhere(&full));
    assert!(err.starts_with(NOT_FOR_ELSEWHERE), "{err}");
    drop(open(&elsewhere(&full).replace("verify-full", "verify-ca")));
}

#[test]
fn postgres_self_signed_certificate_is_refused_against_another_root() {
    let (Some((admin, _)), Some((_, ca))) = (self_signed_server(), server_and_ca()) else {
        return;
    };
    let scratch = Scratch::new(&admin);
    for mode in ["verify-full", "verify-ca"] {
        let url = with(&scratch.url, &format!("sslmode={mode}&{}", root(&ca)));
        let says = format!(
            "the server's certificate is signed by none of sslrootcert {}: error performing \
             TLS handshake: invalid peer certificate: UnknownIssuer",
            ca.display()
        );
        assert_eq!(refusal(&url), says, "{mode}");
    }
}

#[test]
fn postgres_certificate_of_another_ca_is_refused_in_one_line() {
    let Some((admin, ca)) = server_and_ca() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let Some(other) = another_ca(dir.path()) else {
        return;
    };
    let scratch = Scratch::new(&admin);
    for mode in ["verify-full", "verify-ca", "require", "prefer"] {
        let url = with(&scratch.url, &format!("sslmode={mode}&{}", root(&other)));
        let says = format!(
            "the server's certificate is signed by none of sslrootcert {}: error performing \
             TLS handshake: invalid peer certificate: UnknownIssuer",
            other.display()
        );
        assert_eq!(refusal(&url), says, "{mode}");
        let history = taskbench_within(&["history", "--store", &url], QUICK);
        let said = stderr(&history);
        assert_eq!(history.status.code(), Some(2), "{said}");
        assert_eq!(said.lines().count(), 1, "{said}");
        assert!(
            said.starts_with("taskbench: cannot open the store"),
            "{said}"
        );
    }
    // The system's roots do not hold a CA made for a test.
    let system = with(&scratch.url, "sslrootcert=system");
    let err = refusal(&system);
    let none = "the server's certificate is signed by none of the system's trusted roots";
    let empty = "no certificate in the system's trusted roots (sslrootcert=system)";
    assert!(err.starts_with(none) || err == empty, "{err}");
    // And the right one still passes.
    drop(open(&with(
        &scratch.url,
        &format!("sslmode=verify-full&{}", root(&ca)),
    )));
}

#[test]
fn postgres_allow_and_prefer_go_the_other_way_when_the_server_refuses_the_first() {
    let Some((admin, _)) = server_and_ca() else {
        return;
    };
    let scratch = Scratch::new(&admin);
    // .ci/run's pg_hba.conf admits the first over TLS only, the second without only.
    let (tls_only, plain_only) = ("taskbench_tls_only", "taskbench_plain_only");
    for user in [tls_only, plain_only] {
        let create = format!(
            "DO $$ BEGIN CREATE ROLE {user} LOGIN SUPERUSER; \
             EXCEPTION WHEN duplicate_object THEN NULL; END $$"
        );
        admin_client(&admin).batch_execute(&create).unwrap();
    }
    let as_user = |user: &str, mode: &str| {
        let url = scratch
            .url
            .replacen("://postgres@", &format!("://{user}@"), 1);
        assert_ne!(url, scratch.url, "the admin URL names the user postgres");
        with(&url, &format!("sslmode={mode}"))
    };
    // allow: plain first, refused, then over TLS; prefer: TLS first, refused, then plain.
    for (user, mode, tls) in [(tls_only, "allow", true), (plain_only, "prefer", false)] {
        let store = open(&as_user(user, mode));
        assert_eq!(encrypted(&scratch), [tls], "{user} {mode}");
        drop(store);
    }
    // The modes that go one way only are refused, with the server's reason.
    for (user, mode) in [(tls_only, "disable"), (plain_only, "require")] {
        let err = refusal(&as_user(user, mode));
        assert!(
            err.contains("pg_hba.conf rejects connection"),
            "{user} {mode}: {err}"
        );
    }
}

/// A self-signed CA of no server's, made with openssl in `dir`; `None` (after [`skip`])
/// without openssl.
fn another_ca(dir: &Path) -> Option<PathBuf> {
    let cert = dir.join("other.crt");
    let made = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt"])
        .args(["ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"])
        .args(["-subj", "/CN=another CA", "-keyout"])
        .arg(dir.join("other.key"))
        .arg("-out")
        .arg(&cert)
        .output();
    match made {
        Ok(made) => assert!(made.status.success(), "{}", stderr(&made)),
        Err(e) => {
            skip(&format!("openssl cannot be run: {e}"));
            return None;
        }
    }
    Some(cert)
}

#[test]
fn postgres_sslmode_unknown_or_without_roots_is_one_line() {
    let home = tempfile::tempdir().unwrap();
    for (store, says) in [
        (
            "postgres://bench@127.0.0.1:1/x?sslmode=verify",
            "taskbench: invalid value 'postgres://bench@127.0.0.1:1/x?sslmode=verify' for \
             '--store <PATH|URL>': sslmode \"verify\" is none of libpq's: disable, allow, \
             prefer, require, verify-ca, verify-full",
        ),
        (
            "postgres://bench@127.0.0.1:1/x?sslmode=require&sslrootcert=system",
            "taskbench: invalid value 'postgres://bench@127.0.0.1:1/x?sslmode=require&\
             sslrootcert=system' for '--store <PATH|URL>': sslmode=require is too weak for \
             sslrootcert=system: use sslmode=verify-full",
        ),
        (
            "postgres://bench@127.0.0.1:1/x?sslmode=verify-full",
            "taskbench: cannot open the store postgres://bench@127.0.0.1:1/x?sslmode=verify-full: \
             sslmode=verify-full checks the server's certificate against root certificates: \
             name them with sslrootcert=PATH (a PEM file) or sslrootcert=system",
        ),
    ] {
        // No root certificates but those the URL names: none from the environment or
        // ~/.postgresql.
        let mut command = Command::new(env!("CARGO_BIN_EXE_taskbench"));
        with_test_store(&mut command)
            .args(["history", "--store", store])
            .env_remove("PGSSLROOTCERT")
            .env("HOME", home.path());
        let history = output_within(&mut command, QUICK).unwrap();
        let err = stderr(&history);
        assert_eq!(history.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end(), says);
    }
}
