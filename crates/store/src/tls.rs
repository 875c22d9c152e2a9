//! PostgreSQL over TLS: a store URL's `sslmode` and `sslrootcert` read as libpq reads them,
//! and the rustls client that honours them. rust-postgres knows three of libpq's six modes
//! and no root certificates, so both are taken out of the URL here and the rest left to it.
//! A PostgreSQL error, of connecting or after, is said here in one line.

mod verifier;

use anyhow::Context;
use rustls::CertificateError;
use rustls::client::VerifierBuilderError;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use verifier::Verifier;

/// libpq's `sslmode`s (its manual's "SSL Mode Descriptions"), weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SslMode {
    /// No TLS.
    Disable,
    /// Plain; over TLS if the server refuses a plain connection.
    Allow,
    /// TLS if the server offers it (libpq's default, and ours); plain if it refuses TLS.
    Prefer,
    /// TLS, the certificate unchecked (checked as verify-ca when root certificates are named).
    Require,
    /// TLS, the certificate's chain checked against the root certificates, not its name.
    VerifyCa,
    /// TLS, the chain and the host name it is for both checked.
    VerifyFull,
}

const MODES: [(&str, SslMode); 6] = [
    ("disable", SslMode::Disable),
    ("allow", SslMode::Allow),
    ("prefer", SslMode::Prefer),
    ("require", SslMode::Require),
    ("verify-ca", SslMode::VerifyCa),
    ("verify-full", SslMode::VerifyFull),
];

impl SslMode {
    fn name(self) -> &'static str {
        MODES
            .iter()
            .find(|(_, mode)| *mode == self)
            .map_or("", |m| m.0)
    }
}

/// Where the certificates a server's chain must end in are: a PEM file, or the system's
/// trusted roots (`sslrootcert=system`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Roots {
    File(PathBuf),
    System,
}

/// The roots as messages name them.
impl fmt::Display for Roots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Roots::File(path) => write!(f, "sslrootcert {}", path.display()),
            Roots::System => f.write_str("the system's trusted roots (sslrootcert=system)"),
        }
    }
}

impl Roots {
    fn named(value: &str) -> Roots {
        match value {
            "system" => Roots::System,
            path => Roots::File(PathBuf::from(path)),
        }
    }
}

/// What a URL asks of TLS: its `sslmode` and `sslrootcert`, where it names them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Tls {
    mode: Option<SslMode>,
    roots: Option<Roots>,
}

/// `url` without its `sslmode` and `sslrootcert`, for rust-postgres, and what they ask. An
/// unknown mode, or one too weak for `sslrootcert=system`, is the error.
pub(super) fn split(url: &str) -> Result<(String, Tls), String> {
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let mut tls = Tls::default();
    let mut rest = Vec::new();
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        match decoded(key)?.as_str() {
            "sslmode" => tls.mode = Some(mode(&decoded(value)?)?),
            "sslrootcert" => tls.roots = Some(Roots::named(&decoded(value)?)),
            _ => rest.push(pair),
        }
    }
    tls.settle()?;
    if rest.is_empty() {
        Ok((base.to_string(), tls))
    } else {
        Ok((format!("{base}?{}", rest.join("&")), tls))
    }
}

fn decoded(text: &str) -> Result<String, String> {
    let text = percent_encoding::percent_decode_str(text).decode_utf8();
    Ok(text
        .map_err(|e| format!("not UTF-8 once decoded: {e}"))?
        .into())
}

fn mode(name: &str) -> Result<SslMode, String> {
    match MODES.iter().find(|(known, _)| *known == name) {
        Some((_, mode)) => Ok(*mode),
        None => Err(format!(
            "sslmode \"{name}\" is none of libpq's: disable, allow, prefer, require, \
             verify-ca, verify-full"
        )),
    }
}

impl Tls {
    /// The mode, libpq's default where none is named (prefer; verify-full with
    /// `sslrootcert=system`), and the roots. libpq refuses a weaker mode with the system's
    /// roots, which are for checking a server's name.
    fn settle(&self) -> Result<(SslMode, Option<Roots>), String> {
        let system = self.roots == Some(Roots::System);
        let default = if system {
            SslMode::VerifyFull
        } else {
            SslMode::Prefer
        };
        let mode = self.mode.unwrap_or(default);
        if system && mode != SslMode::VerifyFull {
            return Err(format!(
                "sslmode={} is too weak for sslrootcert=system: use sslmode=verify-full",
                mode.name()
            ));
        }
        Ok((mode, self.roots.clone()))
    }

    /// Connects with `config` (rust-postgres's, from the rest of the URL) as the mode asks.
    /// The roots, where the URL names none, are libpq's: `PGSSLROOTCERT`, else
    /// `~/.postgresql/root.crt` if there is one. No TLS on a Unix-domain socket, as libpq.
    pub(super) fn connect(&self, mut config: postgres::Config) -> anyhow::Result<postgres::Client> {
        use postgres::config::{Host, SslMode as Ask};
        let roots = self.roots.clone().or_else(default_roots);
        let (mode, roots) = Tls {
            roots,
            ..self.clone()
        }
        .settle()
        .map_err(anyhow::Error::msg)?;
        let unix = (config.get_hosts().iter()).all(|host| matches!(host, Host::Unix(_)));
        if mode == SslMode::Disable || unix {
            config.ssl_mode(Ask::Disable);
            return config.connect(postgres::NoTls).map_err(|e| one_line(&e));
        }
        let tls = client_config(mode, roots.clone())?;
        let tls = tokio_postgres_rustls::MakeRustlsConnect::new(tls);
        // Allow and prefer try the other way when the server refuses the first (a pg_hba.conf
        // line for `hostssl` or `hostnossl` only); a failed handshake is not retried in
        // plain, so that a certificate that fails its check never becomes no TLS at all.
        let (first, then) = match mode {
            SslMode::Allow => (Ask::Disable, Some(Ask::Require)),
            SslMode::Prefer => (Ask::Prefer, Some(Ask::Disable)),
            _ => (Ask::Require, None),
        };
        let mut attempt = |ask| config.ssl_mode(ask).connect(tls.clone());
        let client = match (attempt(first), then) {
            (Err(refused), Some(then)) if refused.as_db_error().is_some() => attempt(then),
            (client, _) => client,
        };
        client.map_err(|e| refused(&e, roots.as_ref()))
    }
}

/// `err` in one line, saying what an unknown issuer means: a certificate that none of
/// `roots` signed.
fn refused(err: &postgres::Error, roots: Option<&Roots>) -> anyhow::Error {
    let io = std::error::Error::source(err).and_then(|e| e.downcast_ref::<std::io::Error>());
    let tls = io.and_then(|e| e.get_ref()?.downcast_ref::<rustls::Error>());
    let unknown = rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer);
    match roots {
        Some(roots) if tls == Some(&unknown) => one_line(err).context(format!(
            "the server's certificate is signed by none of {roots}"
        )),
        _ => one_line(err),
    }
}

fn default_roots() -> Option<Roots> {
    if let Some(named) = std::env::var_os("PGSSLROOTCERT").filter(|v| !v.is_empty()) {
        return Some(match named.to_str() {
            Some(value) => Roots::named(value),
            None => Roots::File(named.into()),
        });
    }
    let home = PathBuf::from(std::env::var_os("HOME")?);
    let file = home.join(".postgresql/root.crt");
    file.is_file().then_some(Roots::File(file))
}

/// The rustls client for `mode`: the server's certificate checked against the roots where
/// there are any ([`Verifier`]), its name too for verify-full. verify-ca and verify-full
/// need roots.
fn client_config(mode: SslMode, roots: Option<Roots>) -> anyhow::Result<rustls::ClientConfig> {
    // The process's provider, which rustls takes from its crate features: ring alone here
    // (Cargo.toml). rustls 0.23.48 deprecates naming ring::default_provider() (no
    // post-quantum key exchange); its own choice names no provider, and changes with the
    // features, not with this code.
    let builder = rustls::ClientConfig::builder();
    let provider = Arc::clone(builder.crypto_provider());
    let verifier = match roots {
        Some(roots) => {
            let full = mode == SslMode::VerifyFull;
            Verifier::against(root_certificates(&roots)?, full, provider).map_err(|e| match e {
                VerifierBuilderError::NoRootAnchors => anyhow::anyhow!("no certificate in {roots}"),
                e => e.into(),
            })?
        }
        None if matches!(mode, SslMode::VerifyCa | SslMode::VerifyFull) => anyhow::bail!(
            "sslmode={} checks the server's certificate against root certificates: name them \
             with sslrootcert=PATH (a PEM file) or sslrootcert=system",
            mode.name()
        ),
        None => Verifier::unchecked(&provider),
    };
    let builder = builder
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier));
    Ok(builder.with_no_client_auth())
}

fn root_certificates(roots: &Roots) -> anyhow::Result<Vec<CertificateDer<'static>>> {
    match roots {
        Roots::File(path) => CertificateDer::pem_file_iter(path)
            .and_then(Iterator::collect)
            .with_context(|| roots.to_string()),
        Roots::System => Ok(rustls_native_certs::load_native_certs().certs),
    }
}

/// A PostgreSQL error as one line: what failed ("error connecting to server", "db error")
/// with its cause, the server's DETAIL and HINT on the same line.
pub(super) fn one_line(err: &postgres::Error) -> anyhow::Error {
    let text = match std::error::Error::source(err) {
        Some(cause) => format!("{err}: {cause}"),
        None => err.to_string(),
    };
    anyhow::anyhow!("{}", text.replace('\n', "; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(url: &str) -> (String, SslMode, Option<Roots>) {
        let (rest, tls) = split(url).unwrap();
        let (mode, roots) = tls.settle().unwrap();
        (rest, mode, roots)
    }

    #[test]
    fn every_libpq_mode_is_read_and_taken_out_of_the_url() {
        for (name, mode) in MODES {
            let url =
                format!("postgres://u@h/db?connect_timeout=3&sslmode={name}&application_name=x");
            let rest = "postgres://u@h/db?connect_timeout=3&application_name=x".to_string();
            assert_eq!(asked(&url), (rest, mode, None), "{name}");
        }
    }

    #[test]
    fn without_a_mode_it_is_prefer_and_the_url_is_untouched() {
        let url = "postgres://u:p@h:5433/db";
        assert_eq!(asked(url), (url.to_string(), SslMode::Prefer, None));
        let with = "postgres://u@h/db?connect_timeout=3";
        assert_eq!(asked(with), (with.to_string(), SslMode::Prefer, None));
    }

    #[test]
    fn sslrootcert_is_a_decoded_path_or_the_system() {
        let url = "postgres://u@h/db?sslrootcert=%2Fetc%2Fmy%20ca.pem&sslmode=verify-ca";
        let root = Some(Roots::File("/etc/my ca.pem".into()));
        assert_eq!(
            asked(url),
            ("postgres://u@h/db".into(), SslMode::VerifyCa, root)
        );
        let system = "postgres://u@h/db?sslrootcert=system";
        let roots = Some(Roots::System);
        assert_eq!(
            asked(system),
            ("postgres://u@h/db".into(), SslMode::VerifyFull, roots)
        );
    }

    #[test]
    fn an_unknown_mode_or_one_too_weak_for_the_system_roots_is_one_line() {
        for (url, says) in [
            (
                "postgres://u@h/db?sslmode=verify",
                "sslmode \"verify\" is none of libpq's",
            ),
            (
                "postgres://u@h/db?sslmode=",
                "sslmode \"\" is none of libpq's",
            ),
            (
                "postgres://u@h/db?sslmode=REQUIRE",
                "sslmode \"REQUIRE\" is none of libpq's",
            ),
            (
                "postgres://u@h/db?sslrootcert=system&sslmode=require",
                "sslmode=require is too weak for sslrootcert=system",
            ),
        ] {
            let err = split(url).unwrap_err();
            assert!(err.starts_with(says) && !err.contains('\n'), "{url}: {err}");
        }
    }

    #[test]
    fn verify_modes_without_roots_say_how_to_name_them() {
        for mode in [SslMode::VerifyCa, SslMode::VerifyFull] {
            let err = client_config(mode, None).unwrap_err().to_string();
            assert!(err.contains("sslrootcert=PATH"), "{err}");
        }
        for mode in [SslMode::Allow, SslMode::Prefer, SslMode::Require] {
            assert!(client_config(mode, None).is_ok(), "{mode:?}");
        }
    }

    #[test]
    fn a_root_file_without_certificates_is_refused_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let missing = dir.path().join("missing.pem");
        for file in [empty, missing] {
            let roots = Some(Roots::File(file.clone()));
            let err = format!(
                "{:#}",
                client_config(SslMode::VerifyFull, roots).unwrap_err()
            );
            assert!(err.contains(&file.display().to_string()), "{err}");
        }
    }
}
