//! The docs as a product: README.md, CHANGELOG.md and every page under
//! `docs/` are read, and
//!
//! - every `umpire …` command (and `cargo run -- …`) in a shell code block
//!   names a real subcommand and real flags, and parses as the binary would
//!   parse it (placeholders such as `GAME` aside);
//! - the blocks marked `<!-- check: run -->` run, command by command, in a
//!   fresh directory, with the binary this build made;
//! - blocks that need what a test cannot have say so with `<!-- needs: mail
//!   -->` (a club's mail server) or `<!-- needs: data-dir -->` (a club's data
//!   directory); they are checked as written, not run. Any other marker is an
//!   error, so a misspelled one does not silently skip anything;
//! - every relative link points at a file that exists, and every `#anchor` at
//!   a heading of its page.

use clap::CommandFactory;
use clap::error::ErrorKind;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, CHANGELOG.md and docs/**/*.md, in a fixed order.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "md") {
                out.push(p);
            }
        }
    }
    let mut out = vec![root().join("README.md"), root().join("CHANGELOG.md")];
    walk(&root().join("docs"), &mut out);
    out
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

/// A fenced code block of a page.
struct Block {
    /// The line of its opening fence (1-based).
    line: usize,
    /// Its info string (`sh`, `toml`, empty…).
    lang: String,
    /// The `<!-- … -->` comment on the last non-blank line before the fence.
    marker: Option<String>,
    /// Its lines, with their line numbers.
    lines: Vec<(usize, String)>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    let mut last_text: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let t = line.trim_start();
        if let Some(b) = open.as_mut() {
            if t.starts_with("```") {
                out.push(open.take().unwrap());
            } else {
                b.lines.push((n, line.to_string()));
            }
            continue;
        }
        if let Some(info) = t.strip_prefix("```") {
            let marker = last_text
                .as_deref()
                .and_then(|l| l.strip_prefix("<!--"))
                .and_then(|l| l.strip_suffix("-->"))
                .map(|m| m.trim().to_string());
            open = Some(Block {
                line: n,
                lang: info.trim().to_string(),
                marker,
                lines: Vec::new(),
            });
        } else if !t.is_empty() {
            last_text = Some(t.trim_end().to_string());
        }
    }
    assert!(open.is_none(), "a code block is not closed");
    out
}

/// Whether a block is shell: `sh`, `bash`, `shell`, `console`, or no language
/// (whose lines are checked only where they call umpire).
fn is_shell(b: &Block) -> bool {
    matches!(b.lang.as_str(), "sh" | "bash" | "shell" | "console" | "")
}

/// Shell words of one line: quotes grouped, `#` comments dropped, and the
/// operators `&&`, `||`, `|`, `;` as words of their own.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut has = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                has = true;
                for d in chars.by_ref() {
                    if d == c {
                        break;
                    }
                    cur.push(d);
                }
            }
            '#' if !has => break,
            ' ' | '\t' => {
                if has {
                    out.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            '&' | '|' | ';' => {
                if has {
                    out.push(std::mem::take(&mut cur));
                    has = false;
                }
                let mut op = c.to_string();
                if chars.peek() == Some(&c) {
                    op.push(chars.next().unwrap());
                }
                out.push(op);
            }
            _ => {
                cur.push(c);
                has = true;
            }
        }
    }
    if has {
        out.push(cur);
    }
    out
}

/// The umpire arguments of each command in `words`: the commands are split
/// at `&&`, `||`, `|` and `;`, redirections dropped, and a command counts if
/// it runs `umpire` (after `sudo -u USER`, `nice -n N` or `VAR=value`
/// prefixes) or `cargo run … -- ARGS`.
fn umpire_commands(words: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for cmd in words.split(|w| matches!(w.as_str(), "&&" | "||" | "|" | ";" | "&")) {
        let mut ws: Vec<&str> = Vec::new();
        let mut skip = false;
        for w in cmd {
            if skip {
                skip = false;
                continue;
            }
            let w = w.as_str();
            let redirect = w.trim_start_matches(|c: char| c.is_ascii_digit());
            if matches!(redirect, ">" | ">>" | "<") {
                skip = true;
            } else if !(redirect.starts_with('>') || redirect.starts_with('<')) {
                ws.push(w);
            }
        }
        let mut i = 0;
        loop {
            match ws.get(i..) {
                Some(["sudo", "-u", _, ..]) => i += 3,
                Some(["nice", "-n", _, ..]) => i += 3,
                Some([w, ..]) if w.contains('=') && !w.starts_with('-') => i += 1,
                _ => break,
            }
        }
        let ws = &ws[i.min(ws.len())..];
        match ws {
            [first, rest @ ..] if *first == "umpire" || first.ends_with("/umpire") => {
                out.push(rest.iter().map(|s| s.to_string()).collect())
            }
            ["cargo", "run", rest @ ..] => {
                if let Some(p) = rest.iter().position(|w| *w == "--") {
                    out.push(rest[p + 1..].iter().map(|s| s.to_string()).collect());
                }
            }
            _ => {}
        }
    }
    out
}

/// Checks umpire's arguments `args` against its command tree: every
/// subcommand exists, every flag exists on the (sub)command it is given to,
/// and the line parses as the binary would parse it, values aside.
fn check_command(args: &[String]) -> Result<(), String> {
    let mut top = umpire::cli::Cli::command();
    top.build();
    let mut cmd = &top;
    let mut path = vec!["umpire".to_string()];
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if a == "--" {
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, _)) => (n, true),
                None => (long, false),
            };
            let arg = cmd
                .get_arguments()
                .find(|x| {
                    x.get_long() == Some(name)
                        || x.get_all_aliases().is_some_and(|v| v.contains(&name))
                })
                .ok_or_else(|| format!("`{}` has no flag --{name}", path.join(" ")))?;
            if !value && arg.get_action().takes_values() {
                i += 1;
            }
        } else if a.len() > 1 && a.starts_with('-') {
            let shorts: Vec<char> = a[1..].chars().collect();
            for (k, c) in shorts.iter().enumerate() {
                let arg = cmd
                    .get_arguments()
                    .find(|x| x.get_short() == Some(*c))
                    .ok_or_else(|| format!("`{}` has no flag -{c}", path.join(" ")))?;
                if arg.get_action().takes_values() {
                    if k + 1 == shorts.len() {
                        i += 1;
                    }
                    break;
                }
            }
        } else if cmd.has_subcommands() {
            cmd = cmd.find_subcommand(a).ok_or_else(|| {
                let names: Vec<&str> = cmd.get_subcommands().map(|s| s.get_name()).collect();
                format!(
                    "`{}` has no subcommand {a:?} (it has: {})",
                    path.join(" "),
                    names.join(", ")
                )
            })?;
            path.push(cmd.get_name().to_string());
        }
    }
    let argv = std::iter::once("umpire".to_string()).chain(args.iter().cloned());
    match umpire::cli::Cli::try_parse_from(argv) {
        Ok(_) => Ok(()),
        Err(e) => match e.kind() {
            // A placeholder (`GAME`, `N`) where the binary wants a number or
            // a known value; help and version print and exit 0.
            ErrorKind::InvalidValue
            | ErrorKind::ValueValidation
            | ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => Ok(()),
            _ => Err(e.render().to_string()),
        },
    }
}

use clap::Parser;

/// Each shell line of `b`, continuation lines joined, with its first line.
fn shell_lines(b: &Block) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut acc: Option<(usize, String)> = None;
    for (n, l) in &b.lines {
        let l = l.trim();
        let l = l.strip_prefix("$ ").unwrap_or(l);
        let (start, mut text) = acc.take().unwrap_or((*n, String::new()));
        match l.strip_suffix('\\') {
            Some(part) => {
                text.push_str(part);
                text.push(' ');
                acc = Some((start, text));
            }
            None => {
                text.push_str(l);
                out.push((start, text));
            }
        }
    }
    if let Some(a) = acc {
        out.push(a);
    }
    out
}

const MARKERS: [&str; 3] = ["needs: mail", "needs: data-dir", "check: run"];

#[test]
fn every_documented_umpire_command_names_real_subcommands_and_flags() {
    let mut faults = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for b in blocks(&text) {
            if let Some(m) = &b.marker
                && !MARKERS.contains(&m.as_str())
            {
                faults.push(format!(
                    "{}:{}: unknown marker <!-- {m} --> (known: {})",
                    rel(&page),
                    b.line,
                    MARKERS.join(", ")
                ));
            }
            if !is_shell(&b) {
                continue;
            }
            for (n, line) in shell_lines(&b) {
                for args in umpire_commands(&words(&line)) {
                    checked += 1;
                    if let Err(e) = check_command(&args) {
                        faults.push(format!("{}:{n}: {line}\n  {e}", rel(&page)));
                    }
                }
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    assert!(
        checked > 60,
        "only {checked} umpire commands found in the docs"
    );
}

#[test]
fn the_blocks_marked_to_run_run() {
    let bin = env!("CARGO_BIN_EXE_umpire");
    let mut ran = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for b in blocks(&text) {
            if b.marker.as_deref() != Some("check: run") {
                continue;
            }
            let dir = tempfile::tempdir().unwrap();
            for (n, line) in shell_lines(&b) {
                let cmds = umpire_commands(&words(&line));
                assert!(
                    !cmds.is_empty() || line.is_empty(),
                    "{}:{n}: a block marked to run holds a line that is no umpire command: {line}",
                    rel(&page)
                );
                for args in cmds {
                    let out = std::process::Command::new(bin)
                        .args(&args)
                        .current_dir(dir.path())
                        .env_remove("UMPIRE_DIR")
                        .env("UMPIRE_NOW", "2026-12-01T10:00:00Z")
                        .output()
                        .unwrap();
                    assert!(
                        out.status.success(),
                        "{}:{n}: `umpire {}` exited {}:\n{}{}",
                        rel(&page),
                        args.join(" "),
                        out.status,
                        String::from_utf8_lossy(&out.stdout),
                        String::from_utf8_lossy(&out.stderr)
                    );
                    ran += 1;
                }
            }
        }
    }
    assert!(ran >= 5, "only {ran} commands ran");
}

/// GitHub's anchor for a heading: lower case, letters, digits, `-` and `_`
/// kept, spaces made `-`, the rest dropped; a repeated heading gets `-1`, `-2`….
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let mut s = slug.clone();
        let mut k = 0;
        while out.contains(&s) {
            k += 1;
            s = format!("{slug}-{k}");
        }
        out.insert(s);
    }
    out
}

/// The targets of the Markdown links of `text` outside code, with their lines.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_code = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        // Inline code is no link.
        let plain: String = line
            .split('`')
            .enumerate()
            .filter(|(k, _)| k % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = plain.as_str();
        while let Some(p) = rest.find("](") {
            let after = &rest[p + 2..];
            let Some(end) = after.find(')') else { break };
            out.push((i + 1, after[..end].trim().to_string()));
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn every_relative_link_points_at_a_file_and_every_anchor_at_a_heading() {
    let mut faults = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (n, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            if !path.exists() {
                faults.push(format!("{}:{n}: no file {target}", rel(&page)));
                continue;
            }
            if let Some(a) = anchor
                && path.extension().is_some_and(|e| e == "md")
                && !anchors(&std::fs::read_to_string(&path).unwrap()).contains(a)
            {
                faults.push(format!(
                    "{}:{n}: no heading #{a} in {}",
                    rel(&page),
                    rel(&path)
                ));
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    assert!(checked > 40, "only {checked} relative links found");
}

/// The checker itself: a misspelled flag, a flag given to the wrong
/// subcommand and an unknown subcommand fail; a documented line passes.
#[test]
fn the_checker_refuses_misspelled_flags_and_subcommands() {
    let check = |line: &str| {
        let cmds = umpire_commands(&words(line));
        assert_eq!(cmds.len(), 1, "{line}");
        check_command(&cmds[0])
    };
    assert!(check("umpire --dir /srv/umpire poll --wait 30").is_ok());
    assert!(check("sudo -u umpire umpire --dir /srv/umpire config check").is_ok());
    assert!(check("umpire admin extend club7 --hours 48 --side allies").is_ok());
    assert!(check("umpire selfplay ldf --games 300 --seed 2 -o gallic_turn=4").is_ok());
    assert!(check("cargo run --release -- demo").is_ok());
    let e = check("umpire poll --wiat 30").unwrap_err();
    assert!(e.contains("--wiat"), "{e}");
    let e = check("umpire admin extend club7 --huors 48").unwrap_err();
    assert!(e.contains("--huors"), "{e}");
    let e = check("umpire admin paus club7").unwrap_err();
    assert!(e.contains("paus"), "{e}");
    let e = check("umpire verify --keep record.txt").unwrap_err();
    assert!(e.contains("--keep"), "{e}");
    assert!(
        check("umpire map sarhu-1 --side ming").is_err(),
        "-o is required"
    );
    let both = umpire_commands(&words(
        "umpire record club7 -o club7.txt && umpire verify club7.txt   # both",
    ));
    assert_eq!(both.len(), 2);
    assert!(
        umpire_commands(&words(
            "umpire completions bash > /etc/bash_completion.d/umpire"
        ))[0]
            == ["completions", "bash"]
    );
}
