//! The server certificate checks of libpq's modes, as a rustls verifier: webpki's chain to
//! the roots (and, for verify-full, the name), and what OpenSSL — so libpq — accepts where
//! webpki does not: a self-signed certificate that is itself one of the roots, as
//! PostgreSQL's manual makes one (issue 35).

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::{VerifierBuilderError, WebPkiServerVerifier, verify_server_name};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};
use std::sync::Arc;
use x509_cert::Certificate;
use x509_cert::der::Decode;
use x509_cert::der::oid::db::rfc5280::ID_KP_SERVER_AUTH;
use x509_cert::ext::pkix::ExtendedKeyUsage;

/// The server's certificate unchecked (`chain` `None`: allow, prefer and require without
/// roots, encrypted but not authenticated, as libpq), or checked against roots. The
/// handshake's signatures are checked either way.
#[derive(Debug)]
pub(super) struct Verifier {
    chain: Option<Chain>,
    algorithms: WebPkiSupportedAlgorithms,
}

/// The roots a certificate must lead to, and whether it must be for the host (verify-full)
/// or not (verify-ca, and the weaker modes given roots).
#[derive(Debug)]
struct Chain {
    webpki: Arc<WebPkiServerVerifier>,
    roots: Vec<CertificateDer<'static>>,
    name: bool,
}

impl Verifier {
    pub(super) fn unchecked(provider: &CryptoProvider) -> Verifier {
        Verifier {
            chain: None,
            algorithms: provider.signature_verification_algorithms,
        }
    }

    /// Checks against `roots` (those of them webpki can take as roots), the host name too
    /// if `name`. No root is [`VerifierBuilderError::NoRootAnchors`].
    pub(super) fn against(
        roots: Vec<CertificateDer<'static>>,
        name: bool,
        provider: Arc<CryptoProvider>,
    ) -> Result<Verifier, VerifierBuilderError> {
        let mut store = RootCertStore::empty();
        let roots: Vec<_> = (roots.into_iter())
            .filter(|root| store.add(root.clone()).is_ok())
            .collect();
        let algorithms = provider.signature_verification_algorithms;
        let webpki = WebPkiServerVerifier::builder_with_provider(Arc::new(store), provider);
        let chain = Chain {
            webpki: webpki.build()?,
            roots,
            name,
        };
        Ok(Verifier {
            chain: Some(chain),
            algorithms,
        })
    }
}

impl Chain {
    fn verify(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if self.is_a_root(end_entity) {
            return self.root_itself(end_entity, server_name, now);
        }
        let checked = self.webpki.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        );
        // webpki checks the chain first: a wrong name means the chain was good.
        match checked {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) if !self.name => Ok(ServerCertVerified::assertion()),
            Err(err) if untrusted_self_signed(&err, end_entity) => {
                Err(CertificateError::UnknownIssuer.into())
            }
            checked => checked,
        }
    }

    fn is_a_root(&self, cert: &CertificateDer<'_>) -> bool {
        self.roots.iter().any(|root| root.as_ref() == cert.as_ref())
    }

    /// A certificate that is one of the roots, byte for byte: trusted as it stands, as OpenSSL
    /// trusts it, where webpki refuses any CA certificate (`CaUsedAsEndEntity`), and a
    /// self-signed one made as PostgreSQL's manual shows is one (`openssl req -x509` marks it
    /// CA:TRUE). What webpki would still check of it is checked here: its dates, that it is
    /// for servers, and for verify-full the host name.
    fn root_itself(
        &self,
        cert: &CertificateDer<'_>,
        server_name: &ServerName<'_>,
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let x509 = Certificate::from_der(cert).map_err(|_| CertificateError::BadEncoding)?;
        within_dates(&x509, now)?;
        for_servers(&x509)?;
        if self.name {
            verify_server_name(&ParsedCertificate::try_from(cert)?, server_name)?;
        }
        Ok(ServerCertVerified::assertion())
    }
}

/// Whether webpki refused `cert` as a CA certificate presented by a server, and it is its own
/// issuer: a self-signed certificate none of the roots is. UnknownIssuer says that (and
/// names the roots, [`super::refused`]), where CaUsedAsEndEntity would send one looking for
/// a fault in a certificate made as PostgreSQL's manual shows.
fn untrusted_self_signed(err: &rustls::Error, cert: &CertificateDer<'_>) -> bool {
    let rustls::Error::InvalidCertificate(CertificateError::Other(other)) = err else {
        return false;
    };
    let as_ca = other.0.downcast_ref::<webpki::Error>();
    let self_issued =
        |cert: Certificate| cert.tbs_certificate.issuer == cert.tbs_certificate.subject;
    matches!(as_ca, Some(webpki::Error::CaUsedAsEndEntity))
        && Certificate::from_der(cert).is_ok_and(self_issued)
}

/// RFC 5280's validity period, refused with the errors webpki gives.
fn within_dates(cert: &Certificate, now: UnixTime) -> Result<(), CertificateError> {
    let validity = &cert.tbs_certificate.validity;
    let not_before = UnixTime::since_unix_epoch(validity.not_before.to_unix_duration());
    let not_after = UnixTime::since_unix_epoch(validity.not_after.to_unix_duration());
    if now < not_before {
        return Err(CertificateError::NotValidYetContext {
            time: now,
            not_before,
        });
    }
    if now > not_after {
        return Err(CertificateError::ExpiredContext {
            time: now,
            not_after,
        });
    }
    Ok(())
}

/// A certificate without extended key usage is for anything; one with it must name server
/// authentication, as webpki asks of a server's.
fn for_servers(cert: &Certificate) -> Result<(), CertificateError> {
    match cert.tbs_certificate.get::<ExtendedKeyUsage>() {
        Ok(None) => Ok(()),
        Ok(Some((_, usage))) if usage.0.contains(&ID_KP_SERVER_AUTH) => Ok(()),
        Ok(Some(_)) => Err(CertificateError::InvalidPurpose),
        Err(_) => Err(CertificateError::BadEncoding),
    }
}

impl ServerCertVerifier for Verifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match &self.chain {
            Some(chain) => chain.verify(end_entity, intermediates, server_name, ocsp_response, now),
            None => Ok(ServerCertVerified::assertion()),
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

/// Certificates made once with openssl 3.0, valid from 2026-12-05 for 100 years, EC P-256:
/// - self-signed.crt: PostgreSQL's manual's `openssl req -new -x509 -nodes -subj
///   /CN=127.0.0.1`, plus `-addext subjectAltName=IP:127.0.0.1,DNS:localhost` (CA:TRUE,
///   openssl's default for `req -x509`);
/// - self-signed-client-only.crt: the same with `-addext extendedKeyUsage=clientAuth`;
/// - ca.crt, a CA (`/CN=test CA`), and signed-by-ca.crt, a server's certificate it signed
///   for localhost (serverAuth), and intermediate-ca.crt, a CA certificate it signed
///   (`/CN=intermediate CA`, CA:TRUE).
#[cfg(test)]
mod tests {
    use super::*;
    use rustls::pki_types::pem::PemObject;
    use std::time::Duration;

    fn pem(text: &str) -> CertificateDer<'static> {
        CertificateDer::from_pem_slice(text.as_bytes()).unwrap()
    }

    fn self_signed() -> CertificateDer<'static> {
        pem(include_str!("certificates/self-signed.crt"))
    }

    fn ca() -> CertificateDer<'static> {
        pem(include_str!("certificates/ca.crt"))
    }

    /// 2026-12-07, a day into the certificates' validity.
    fn now() -> UnixTime {
        UnixTime::since_unix_epoch(Duration::from_secs(1_796_601_600))
    }

    fn verifier(roots: &[CertificateDer<'static>], name: bool) -> Verifier {
        let provider = Arc::clone(rustls::ClientConfig::builder().crypto_provider());
        Verifier::against(roots.to_vec(), name, provider).unwrap()
    }

    /// `verifier`'s verdict on `cert` presented by `host` at `now`.
    fn verdict(
        verifier: &Verifier,
        cert: &CertificateDer<'_>,
        host: &str,
        now: UnixTime,
    ) -> Result<(), rustls::Error> {
        let host = ServerName::try_from(host.to_string()).unwrap();
        let verified = verifier.verify_server_cert(cert, &[], &host, &[], now);
        verified.map(|_| ())
    }

    fn refused_as(err: Result<(), rustls::Error>, says: &str) {
        let err = format!("{:?}", err.unwrap_err());
        assert!(err.contains(says), "{err}");
    }

    #[test]
    fn a_self_signed_root_is_trusted_for_verify_ca_whatever_the_name() {
        let verify_ca = verifier(&[self_signed()], false);
        for host in ["127.0.0.1", "localhost", "elsewhere.invalid"] {
            verdict(&verify_ca, &self_signed(), host, now()).unwrap();
        }
    }

    #[test]
    fn a_self_signed_root_is_trusted_for_verify_full_by_the_names_it_has() {
        let verify_full = verifier(&[ca(), self_signed()], true);
        for host in ["127.0.0.1", "localhost"] {
            verdict(&verify_full, &self_signed(), host, now()).unwrap();
        }
        let elsewhere = verdict(&verify_full, &self_signed(), "elsewhere.invalid", now());
        refused_as(elsewhere, "NotValidForName");
    }

    #[test]
    fn a_self_signed_root_is_refused_outside_its_dates() {
        let verify_ca = verifier(&[self_signed()], false);
        let before = UnixTime::since_unix_epoch(Duration::from_secs(1_700_000_000));
        refused_as(
            verdict(&verify_ca, &self_signed(), "localhost", before),
            "NotValidYet",
        );
        let after = UnixTime::since_unix_epoch(Duration::from_secs(5_000_000_000));
        refused_as(
            verdict(&verify_ca, &self_signed(), "localhost", after),
            "Expired",
        );
    }

    #[test]
    fn a_self_signed_root_for_clients_only_is_refused() {
        let client = pem(include_str!("certificates/self-signed-client-only.crt"));
        let verify_ca = verifier(std::slice::from_ref(&client), false);
        refused_as(
            verdict(&verify_ca, &client, "localhost", now()),
            "InvalidPurpose",
        );
    }

    #[test]
    fn a_self_signed_certificate_not_among_the_roots_is_of_an_unknown_issuer() {
        for name in [false, true] {
            let other_root = verifier(&[ca()], name);
            refused_as(
                verdict(&other_root, &self_signed(), "localhost", now()),
                "UnknownIssuer",
            );
        }
    }

    #[test]
    fn a_ca_certificate_that_is_not_self_signed_keeps_webpkis_refusal() {
        // The CA's certificate presented by a server, the self-signed one its only root:
        // issued by another, so CaUsedAsEndEntity stands.
        let verify_ca = verifier(&[self_signed()], false);
        let intermediate = pem(include_str!("certificates/intermediate-ca.crt"));
        refused_as(
            verdict(&verify_ca, &intermediate, "localhost", now()),
            "CaUsedAsEndEntity",
        );
    }

    #[test]
    fn a_certificate_signed_by_a_root_keeps_webpkis_verdict() {
        let signed = pem(include_str!("certificates/signed-by-ca.crt"));
        let (verify_ca, verify_full) = (verifier(&[ca()], false), verifier(&[ca()], true));
        for verifier in [&verify_ca, &verify_full] {
            verdict(verifier, &signed, "localhost", now()).unwrap();
        }
        verdict(&verify_ca, &signed, "elsewhere.invalid", now()).unwrap();
        refused_as(
            verdict(&verify_full, &signed, "elsewhere.invalid", now()),
            "NotValidForName",
        );
        let not_its_root = verifier(&[self_signed()], false);
        refused_as(
            verdict(&not_its_root, &signed, "localhost", now()),
            "UnknownIssuer",
        );
    }
}
