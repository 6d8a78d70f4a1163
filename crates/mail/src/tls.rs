//! TLS trust for the mail transports: either the public web PKI roots
//! (`webpki-roots`, compiled in, so no system store is read) or, for a club's
//! self-hosted server, only the CA certificate(s) in one PEM file.
//!
//! IMAP and SMTP both use the rustls [`ClientConfig`] from [`client_config`].

#![warn(missing_docs)]

use super::MailError;
use rustls::ClientConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use std::path::Path;
use std::sync::Arc;

/// Reads every certificate in a PEM file. An empty or unreadable file is a
/// settings error, reported with the path.
pub fn load_ca_file(path: &Path) -> Result<Vec<CertificateDer<'static>>, MailError> {
    let bytes = std::fs::read(path)
        .map_err(|e| MailError::Config(format!("reading ca_file {}: {e}", path.display())))?;
    let certs = CertificateDer::pem_slice_iter(&bytes)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| {
            MailError::Config(format!("ca_file {} is not valid PEM: {e}", path.display()))
        })?;
    if certs.is_empty() {
        return Err(MailError::Config(format!(
            "ca_file {} holds no CERTIFICATE block",
            path.display()
        )));
    }
    Ok(certs)
}

/// A rustls client configuration trusting the CA(s) in `ca_file`, or the
/// public web PKI roots when `ca_file` is `None`.
///
/// A custom CA *replaces* the public roots: a club that runs its own CA has
/// no reason to also trust every public one for its mail server.
pub fn client_config(ca_file: Option<&Path>) -> Result<Arc<ClientConfig>, MailError> {
    let mut roots = rustls::RootCertStore::empty();
    match ca_file {
        Some(path) => {
            for cert in load_ca_file(path)? {
                roots.add(cert).map_err(|e| {
                    MailError::Config(format!(
                        "ca_file {}: unusable certificate: {e}",
                        path.display()
                    ))
                })?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    // The provider is named rather than taken from the process default, so
    // another crate enabling a second provider cannot make this panic.
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| MailError::Tls(format!("building TLS configuration: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// The name the server's certificate must carry: a DNS name or an IP address.
pub fn server_name(host: &str) -> Result<ServerName<'static>, MailError> {
    ServerName::try_from(host.to_string())
        .map_err(|_| MailError::Config(format!("{host:?} is neither a DNS name nor an IP address")))
}

/// A rustls error in words, with a hint for the usual certificate mistakes.
pub fn describe(e: &rustls::Error) -> String {
    use rustls::{CertificateError, Error};
    let hint = match e {
        Error::InvalidCertificate(CertificateError::UnknownIssuer) => {
            " (the server's certificate is not signed by a trusted CA: for a self-hosted \
             server, set ca_file to the PEM file of the CA that signed it)"
        }
        Error::InvalidCertificate(CertificateError::NotValidForName)
        | Error::InvalidCertificate(CertificateError::NotValidForNameContext { .. }) => {
            " (the certificate does not name this host: connect with the name it was issued for)"
        }
        Error::InvalidCertificate(CertificateError::Expired)
        | Error::InvalidCertificate(CertificateError::ExpiredContext { .. }) => {
            " (the server's certificate has expired)"
        }
        _ => "",
    };
    format!("{e}{hint}")
}

/// Finds a rustls error in an I/O error's chain: rustls reports handshake
/// failures through `std::io::Error` with the `rustls::Error` inside.
pub fn rustls_error_in<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = cur {
        if let Some(r) = err.downcast_ref::<rustls::Error>() {
            return Some(r);
        }
        if let Some(io) = err.downcast_ref::<std::io::Error>()
            && let Some(inner) = io.get_ref()
            && let Some(r) = inner.downcast_ref::<rustls::Error>()
        {
            return Some(r);
        }
        cur = err.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_roots_build() {
        assert!(client_config(None).is_ok());
    }

    #[test]
    fn bad_ca_files_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.pem");
        let e = client_config(Some(&missing)).unwrap_err().to_string();
        assert!(e.contains("nope.pem"), "{e}");
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let e = client_config(Some(&empty)).unwrap_err().to_string();
        assert!(e.contains("no CERTIFICATE"), "{e}");
    }

    #[test]
    fn server_names() {
        assert!(server_name("localhost").is_ok());
        assert!(server_name("127.0.0.1").is_ok());
        assert!(server_name("bad name").is_err());
    }
}
