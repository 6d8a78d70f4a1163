//! `umpire auth oauth2`: walks the admin through getting the first OAuth2
//! refresh token (the device flow where the provider allows it, else the
//! browser with a loopback redirect) and writes the secrets file owner-only.

use crate::mail::oauth2::consent::{self, Pkce};
use crate::mail::oauth2::{self, OAuth2Settings, Provider, Secrets};
use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, ValueEnum};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long the browser flow waits for the redirect.
const REDIRECT_WAIT: Duration = Duration::from_secs(600);

/// A provider preset, on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ProviderArg {
    /// Google (Gmail, Google Workspace).
    Gmail,
    /// Microsoft 365 and Outlook.com.
    Microsoft,
    /// Any other: give --token-url, --scope and --device-url or --authorize-url.
    Generic,
}

impl From<ProviderArg> for Provider {
    fn from(p: ProviderArg) -> Provider {
        match p {
            ProviderArg::Gmail => Provider::Gmail,
            ProviderArg::Microsoft => Provider::Microsoft,
            ProviderArg::Generic => Provider::Generic,
        }
    }
}

/// `umpire auth oauth2`'s arguments; each overrides `[oauth2]` in umpire.toml.
#[derive(Debug, Args)]
pub struct OAuth2Args {
    /// The provider (default: umpire.toml's [oauth2] provider).
    #[arg(long, value_enum)]
    provider: Option<ProviderArg>,
    /// The app registration's client id.
    #[arg(long)]
    client_id: Option<String>,
    /// Microsoft: the directory (tenant id or domain); default "common".
    #[arg(long)]
    tenant: Option<String>,
    /// A file whose first line is the app's client secret (Google's desktop
    /// apps have one); it is kept in the secrets file.
    #[arg(long, value_name = "FILE")]
    client_secret_file: Option<PathBuf>,
    /// The token endpoint (generic provider).
    #[arg(long)]
    token_url: Option<String>,
    /// The device authorization endpoint (generic provider).
    #[arg(long)]
    device_url: Option<String>,
    /// The authorization endpoint for the browser flow (generic provider).
    #[arg(long)]
    authorize_url: Option<String>,
    /// A scope to ask for (repeat; default: the provider's).
    #[arg(long = "scope")]
    scopes: Vec<String>,
    /// Use the browser and a loopback redirect even where the device flow exists.
    #[arg(long)]
    browser: bool,
    /// The loopback port the browser is sent back to (default: any free one).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Where to write the secrets (default: [oauth2] oauth2_file, else
    /// DIR/oauth2.secrets).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs `umpire auth oauth2`.
pub fn oauth2(dir: &Path, a: &OAuth2Args) -> Result<i32> {
    let configured = crate::service::config::Config::load(dir)
        .ok()
        .and_then(|c| c.oauth2);
    let had_section = configured.is_some();
    let mut s = settings(configured, a)?;
    let out = match &a.out {
        Some(p) => p.clone(),
        None => dir.join(&s.oauth2_file),
    };
    if let Some(ca) = s.ca_file.take() {
        s.ca_file = Some(dir.join(ca));
    }
    s.validate().map_err(|e| anyhow!("{e}"))?;
    let client_secret = client_secret(a, &out)?;
    let granted = if s.device_url().is_some() && !a.browser {
        device(&s, client_secret.as_deref())?
    } else {
        browser(&s, a.port, client_secret.as_deref())?
    };
    let refresh_token = granted.refresh_token.ok_or_else(|| {
        anyhow!(
            "the provider granted access but gave no refresh token: ask for offline access \
             (Microsoft: the scope offline_access)"
        )
    })?;
    oauth2::write_secrets(
        &out,
        &Secrets {
            refresh_token,
            client_secret,
        },
    )?;
    // The old cached access token belongs to the old consent.
    let _ = std::fs::remove_file(dir.join(crate::service::transports::OAUTH2_TOKEN_CACHE));
    println!("wrote the refresh token to {} (owner-only)", out.display());
    if !had_section {
        println!("\nAdd to umpire.toml:\n\n{}", section_text(&s, &out));
        println!("and in [imap] and [smtp]: auth = \"oauth2\" (no password lines).");
    }
    println!("Then run `umpire config check`.");
    Ok(0)
}

/// The settings: umpire.toml's `[oauth2]`, each flag given overriding it.
fn settings(configured: Option<OAuth2Settings>, a: &OAuth2Args) -> Result<OAuth2Settings> {
    let mut s = match (configured, a.provider, &a.client_id) {
        (Some(mut s), p, id) => {
            if let Some(p) = p {
                s.provider = p.into();
            }
            if let Some(id) = id {
                s.client_id = id.clone();
            }
            s
        }
        (None, Some(p), Some(id)) => OAuth2Settings::new(p.into(), id, Path::new("oauth2.secrets")),
        (None, _, _) => bail!(
            "umpire.toml has no [oauth2] section: give --provider and --client-id \
             (see `umpire man`, OAuth2)"
        ),
    };
    let set = |field: &mut Option<String>, v: &Option<String>| {
        if v.is_some() {
            field.clone_from(v);
        }
    };
    set(&mut s.tenant, &a.tenant);
    set(&mut s.token_url, &a.token_url);
    set(&mut s.device_url, &a.device_url);
    set(&mut s.authorize_url, &a.authorize_url);
    if !a.scopes.is_empty() {
        s.scopes = Some(a.scopes.clone());
    }
    Ok(s)
}

/// The client secret: from --client-secret-file, else kept from the
/// secrets file being replaced.
fn client_secret(a: &OAuth2Args, out: &Path) -> Result<Option<String>> {
    if let Some(f) = &a.client_secret_file {
        let text = std::fs::read_to_string(f)
            .with_context(|| format!("reading --client-secret-file {}", f.display()))?;
        let line = text.lines().next().unwrap_or("").trim().to_string();
        if line.is_empty() {
            bail!(
                "--client-secret-file {} starts with an empty line",
                f.display()
            );
        }
        return Ok(Some(line));
    }
    Ok(oauth2::read_secrets(out).ok().and_then(|s| s.client_secret))
}

fn device(s: &OAuth2Settings, client_secret: Option<&str>) -> Result<oauth2::Granted> {
    let code = consent::device_start(s).context("starting the device authorization")?;
    println!(
        "Sign in as the club's mailbox: open {} and enter the code {}",
        code.verification_uri, code.user_code
    );
    if let Some(m) = &code.message {
        println!("({})", super::commands::safe(m));
    }
    println!(
        "Waiting for consent (up to {} minutes)...",
        code.expires_in / 60
    );
    consent::device_finish(s, &code, client_secret).context("waiting for consent")
}

fn browser(s: &OAuth2Settings, port: u16, client_secret: Option<&str>) -> Result<oauth2::Granted> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", port))
        .with_context(|| format!("listening on 127.0.0.1:{port} for the redirect"))?;
    let redirect = format!("http://127.0.0.1:{}", listener.local_addr()?.port());
    let pkce = Pkce::new(&random()?);
    let link = consent::authorize_link(s, &redirect, &pkce)?;
    println!(
        "Open this link in a browser on this machine and sign in as the club's mailbox \
         (on a remote server, forward the port first: ssh -L {0}:127.0.0.1:{0} ...):\n\n{link}\n",
        listener.local_addr()?.port()
    );
    println!(
        "Waiting for the browser (up to {} minutes)...",
        REDIRECT_WAIT.as_secs() / 60
    );
    let code = consent::await_redirect(&listener, &pkce.state, REDIRECT_WAIT)?;
    consent::exchange_code(s, &code, &redirect, &pkce, client_secret)
        .context("exchanging the authorization code")
}

fn random() -> Result<[u8; 64]> {
    let mut b = [0u8; 64];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut b))
        .context("reading /dev/urandom")?;
    Ok(b)
}

/// The `[oauth2]` section for these settings, to paste into umpire.toml.
fn section_text(s: &OAuth2Settings, out: &Path) -> String {
    let mut t = format!(
        "[oauth2]\nprovider = \"{}\"\nclient_id = \"{}\"\noauth2_file = \"{}\"\n",
        s.provider,
        s.client_id,
        out.display()
    );
    if let Some(x) = &s.tenant {
        t.push_str(&format!("tenant = \"{x}\"\n"));
    }
    for (k, v) in [
        ("token_url", &s.token_url),
        ("device_url", &s.device_url),
        ("authorize_url", &s.authorize_url),
    ] {
        if let Some(v) = v {
            t.push_str(&format!("{k} = \"{v}\"\n"));
        }
    }
    if let Some(sc) = &s.scopes {
        let list: Vec<String> = sc.iter().map(|x| format!("\"{x}\"")).collect();
        t.push_str(&format!("scopes = [{}]\n", list.join(", ")));
    }
    t
}
