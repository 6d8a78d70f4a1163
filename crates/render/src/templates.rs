//! Mail text from the templates in `templates/`, embedded in the binary and
//! overridable per club by files of the same name in the data directory.

use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;
use std::path::Path;

/// The built-in templates, by file name.
pub const BUILT_IN: &[(&str, &str)] = &[
    ("result.txt", include_str!("../../../templates/result.txt")),
    (
        "rejected.txt",
        include_str!("../../../templates/rejected.txt"),
    ),
    (
        "unsigned.txt",
        include_str!("../../../templates/unsigned.txt"),
    ),
    (
        "opening.txt",
        include_str!("../../../templates/opening.txt"),
    ),
    ("notice.txt", include_str!("../../../templates/notice.txt")),
];

/// A template failed.
#[derive(Debug, thiserror::Error)]
#[error("template {name}: {message}")]
pub struct TemplateError {
    pub name: String,
    pub message: String,
}

/// The loaded templates.
pub struct Templates {
    env: Environment<'static>,
    /// The names a file in the data directory replaced.
    overridden: Vec<&'static str>,
}

impl Templates {
    /// The built-in templates, each replaced by `dir/NAME` where that file exists.
    pub fn load(dir: Option<&Path>) -> Result<Templates, TemplateError> {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Chainable);
        // Block tags on their own lines leave no blank lines behind.
        if let Ok(syntax) = minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .keep_trailing_newline(true)
            .build()
        {
            env.set_syntax(syntax);
        }
        env.add_filter("wrap", wrap);
        let mut overridden = Vec::new();
        for (name, text) in BUILT_IN {
            let text = match dir.map(|d| d.join(name)) {
                Some(p) if p.is_file() => {
                    overridden.push(*name);
                    std::fs::read_to_string(&p).map_err(|e| TemplateError {
                        name: p.display().to_string(),
                        message: e.to_string(),
                    })?
                }
                _ => text.to_string(),
            };
            env.add_template_owned(name.to_string(), text)
                .map_err(|e| TemplateError {
                    name: name.to_string(),
                    message: e.to_string(),
                })?;
        }
        Ok(Templates { env, overridden })
    }

    /// Is `name` the built-in template (no file of the club's replaced it)?
    pub fn is_built_in(&self, name: &str) -> bool {
        !self.overridden.contains(&name)
    }

    /// Renders `name` with `ctx`; trailing blanks trimmed from every line.
    pub fn render<C: Serialize>(&self, name: &str, ctx: &C) -> Result<String, TemplateError> {
        let err = |e: minijinja::Error| TemplateError {
            name: name.to_string(),
            message: format!("{e:#}"),
        };
        let t = self.env.get_template(name).map_err(err)?;
        let out = t
            .render(minijinja::Value::from(minijinja::value::Serde(ctx)))
            .map_err(err)?;
        Ok(tidy(&out))
    }
}

/// Trailing blanks trimmed from every line, runs of blank lines (left by
/// conditional blocks) collapsed to one, no leading blank lines, one final
/// line end: in one pass, as this runs for every mail.
pub fn tidy(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 1);
    let mut blanks = 0;
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blanks += 1;
            continue;
        }
        if !s.is_empty() {
            s.push_str(if blanks > 0 { "\n\n" } else { "\n" });
        }
        blanks = 0;
        s.push_str(line);
    }
    if s.is_empty() {
        return s;
    }
    // Blank lines at the end: at most two kept, as before.
    for _ in 0..blanks.min(2) {
        s.push('\n');
    }
    s.push('\n');
    s
}

/// Wraps text at `width` columns; continuation lines are indented by `indent`.
pub fn wrap(text: String, width: Option<usize>, indent: Option<usize>) -> String {
    let width = width.unwrap_or(74).max(20);
    // Most lines need no wrapping.
    if text.len() <= width && !text.contains('\n') && !text.starts_with(' ') {
        return text;
    }
    let pad = " ".repeat(indent.unwrap_or(2).min(width / 2));
    let mut out = String::new();
    for para in text.split('\n') {
        let mut line = String::new();
        let mut first = true;
        for word in para.split(' ') {
            let limit = if first { width } else { width - pad.len() };
            if !line.is_empty() && line.len() + 1 + word.len() > limit {
                if !first {
                    out.push_str(&pad);
                }
                out.push_str(line.trim_end());
                out.push('\n');
                line.clear();
                first = false;
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        if !first {
            out.push_str(&pad);
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_line_is_left_as_it_is_but_for_leading_spaces() {
        assert_eq!(wrap("a  b ".into(), Some(40), None), "a  b ");
        assert_eq!(wrap("  a".into(), Some(40), None), "a");
    }

    #[test]
    fn wrap_keeps_lines_short_and_words_whole() {
        let t = "Waiting for allies: turn 1: your orders as free text, `roll NdS label` for dice, then `end turn`";
        let w = wrap(t.to_string(), Some(40), Some(4));
        assert!(w.lines().all(|l| l.len() <= 40), "{w}");
        assert!(w.lines().skip(1).all(|l| l.starts_with("    ")));
        assert_eq!(
            w.split_whitespace().collect::<Vec<_>>(),
            t.split_whitespace().collect::<Vec<_>>()
        );
    }

    /// What `tidy` replaced, kept as its specification.
    fn tidy_as_it_was(out: &str) -> String {
        let mut s: String = out
            .lines()
            .map(|l| l.trim_end())
            .collect::<Vec<_>>()
            .join("\n");
        while s.contains("\n\n\n") {
            s = s.replace("\n\n\n", "\n\n");
        }
        s.push('\n');
        s.trim_start_matches('\n').to_string()
    }

    #[test]
    fn tidy_trims_lines_and_collapses_blank_runs_as_before() {
        for t in [
            "",
            "\n",
            "\n\n\n",
            "a",
            "a\n",
            "a  \n\n\n\nb \t\n",
            "\n\n a\n\n",
            "a\n\n\n\n",
            "a\n\n\n",
            "a\n\nb\n\n\n\n\nc",
            "x\r\n\r\ny  \r\n",
        ] {
            assert_eq!(tidy(t), tidy_as_it_was(t), "{t:?}");
        }
    }

    #[test]
    fn every_built_in_template_renders_with_an_empty_context() {
        let t = Templates::load(None).unwrap();
        for (name, _) in BUILT_IN {
            t.render(name, &serde_json::json!({})).unwrap();
        }
    }
}
