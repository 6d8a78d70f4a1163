//! Open seats at the command line: `umpire new --open SIDE` / `--open-all`,
//! `umpire admin seats` and `umpire admin seat GAME SIDE --approve|--refuse`
//! (see `service::seats`).

use crate::service::Umpire;
use anyhow::{Result, bail};

/// The sides of a new game in the scenario's order: those given by `--side`
/// (NAME, EMAIL, KEY), and open seats (empty address and key) for those
/// named by `--open` or, with `--open-all`, every other side.
pub fn with_open_seats(
    u: &Umpire,
    ruleset: &str,
    scenario: &str,
    given: Vec<(String, String, String)>,
    open: &[String],
    open_all: bool,
) -> Result<Vec<(String, String, String)>> {
    if open.is_empty() && !open_all {
        return Ok(given);
    }
    let info = u.ruleset(ruleset)?.info();
    let Some(sc) = info.scenarios.iter().find(|s| s.name == scenario) else {
        // The engine names the scenarios it knows.
        return Ok(given);
    };
    if sc.sides.is_empty() {
        bail!("scenario {scenario}: the players name their own sides, so no seat can be left open");
    }
    let open: Vec<String> = open.iter().map(|s| s.to_ascii_lowercase()).collect();
    for o in &open {
        if !sc.sides.contains(o) {
            bail!(
                "--open {o}: scenario {scenario} has no such side; its sides are {}",
                sc.sides.join(", ")
            );
        }
        if given.iter().any(|(n, _, _)| n.eq_ignore_ascii_case(o)) {
            bail!("--open {o}: the side is given by --side too");
        }
    }
    let mut out = Vec::new();
    for side in &sc.sides {
        if let Some(g) = given.iter().find(|(n, _, _)| n.eq_ignore_ascii_case(side)) {
            out.push(g.clone());
        } else if open_all || open.contains(side) {
            out.push((side.clone(), String::new(), String::new()));
        } else {
            bail!(
                "side {side}: give it with --side NAME=EMAIL=PUBKEY or leave it open with --open {side}"
            );
        }
    }
    for (n, _, _) in &given {
        if !sc.sides.iter().any(|s| s.eq_ignore_ascii_case(n)) {
            bail!(
                "--side {n}: scenario {scenario} has no such side; its sides are {}",
                sc.sides.join(", ")
            );
        }
    }
    Ok(out)
}

/// `umpire admin seats`: every held join, by game, and each game's open seats.
pub fn list(u: &mut Umpire) -> Result<String> {
    let mut out = String::new();
    for (id, joins) in u.held_joins()? {
        let open = u.open_seats(&id)?;
        out.push_str(&format!("{id}: open seats {}\n", open.join(", ")));
        for h in joins {
            let name = if h.name.is_empty() {
                String::new()
            } else {
                format!(" {:?}", h.name)
            };
            out.push_str(&format!(
                "  {}  {:<10} {}{} <{}>  key {}\n",
                h.id,
                h.side.as_deref().unwrap_or("any"),
                h.at,
                super::commands::safe(&name),
                super::commands::safe(&h.from),
                h.fingerprint
            ));
        }
    }
    if out.is_empty() {
        out.push_str("No join waits for an answer.\n");
    }
    Ok(out)
}

/// `umpire sign` of a join file: only with the key the file names (the
/// umpire checks the signature against it).
pub fn sign_join(
    file: &std::path::Path,
    text: &[u8],
    key: &crate::core::sig::SecretKey,
    as_armor: bool,
) -> Result<i32> {
    use crate::core::sig::MOVE_NAMESPACE;
    let join = crate::core::seat::JoinFile::parse(text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    if join.key.raw() != key.public().raw() {
        bail!(
            "{}: its join: line names key {}, but you sign with {}; put your public key on the join: line",
            file.display(),
            join.key.fingerprint(),
            key.public().fingerprint()
        );
    }
    let sig = key.sign(MOVE_NAMESPACE, text)?;
    if as_armor {
        print!("{}", crate::core::movefile::armor(text, &sig));
    } else {
        let out = std::path::PathBuf::from(format!("{}.sig", file.display()));
        std::fs::write(&out, &sig)
            .map_err(|e| anyhow::anyhow!("writing {}: {e}", out.display()))?;
        eprintln!(
            "Signed the join {} for game {}: mail {} and {} to the umpire.",
            file.display(),
            join.game,
            file.display(),
            out.display()
        );
    }
    Ok(0)
}
