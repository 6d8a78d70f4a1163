//! The sections of `umpire(1)` that are no command's help: the move format,
//! standing orders, mail commands, exit status, examples and files. Written
//! as plain text in `manual.txt` (`# TITLE` opens a section, a blank line a
//! paragraph, a line indented four spaces is an example) and turned into roff
//! here.

/// The sections, as written.
pub const TEXT: &str = include_str!("manual.txt");

/// `text` (the `manual.txt` form) as roff sections.
pub fn roff(text: &str) -> String {
    let mut out = String::new();
    let mut in_example = false;
    for line in text.lines() {
        let example = line.strip_prefix("    ");
        if in_example && example.is_none() {
            out.push_str(".fi\n.RE\n");
            in_example = false;
        }
        if let Some(title) = line.strip_prefix("# ") {
            out.push_str(&format!(".SH \"{}\"\n", title.trim()));
        } else if let Some(e) = example {
            if !in_example {
                out.push_str(".PP\n.RS 4\n.nf\n");
                in_example = true;
            }
            out.push_str(&escape(e));
            out.push('\n');
        } else if line.trim().is_empty() {
            continue;
        } else {
            out.push_str(".PP\n");
            out.push_str(&escape(&unquote(line)));
            out.push('\n');
        }
    }
    if in_example {
        out.push_str(".fi\n.RE\n");
    }
    out
}

/// A text line safe for roff: backslashes written `\e`, hyphens `\-`
/// (so they copy as ASCII), and a leading `.` or `'` kept from reading as
/// a request.
fn escape(line: &str) -> String {
    let body = line.replace('\\', "\\e").replace('-', "\\-");
    if body.starts_with('.') || body.starts_with('\'') {
        format!("\\&{body}")
    } else {
        body
    }
}

/// Markdown's inline code marks dropped: `word` reads as word in a manual page.
fn unquote(line: &str) -> String {
    line.replace('`', "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_paragraphs_and_examples_become_roff() {
        let r = roff("# EXIT STATUS\n0: done.\n\n    umpire poll\n    .x -y\nafter\n");
        assert_eq!(
            r,
            ".SH \"EXIT STATUS\"\n.PP\n0: done.\n.PP\n.RS 4\n.nf\numpire poll\n\\&.x \\-y\n.fi\n.RE\n.PP\nafter\n"
        );
    }

    #[test]
    fn the_manual_holds_the_sections_the_players_and_admins_need() {
        for s in [
            "THE MOVE FILE",
            "STANDING ORDERS",
            "MAIL COMMANDS",
            "JOINING A GAME",
            "OAUTH2",
            "PRESS",
            "EXIT STATUS",
            "EXAMPLES",
        ] {
            assert!(TEXT.contains(&format!("# {s}\n")), "{s}");
        }
    }
}
