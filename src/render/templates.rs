//! Mail text from the templates in `templates/`, embedded in the binary and
//! overridable per club by files of the same name in the data directory.

use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;
use std::path::Path;

/// The built-in templates, by file name.
pub const BUILT_IN: &[(&str, &str)] = &[
    ("result.txt", include_str!("../../templates/result.txt")),
    ("rejected.txt", include_str!("../../templates/rejected.txt")),
    ("unsigned.txt", include_str!("../../templates/unsigned.txt")),
    ("opening.txt", include_str!("../../templates/opening.txt")),
    ("notice.txt", include_str!("../../templates/notice.txt")),
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
        for (name, text) in BUILT_IN {
            let text = match dir.map(|d| d.join(name)) {
                Some(p) if p.is_file() => {
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
        Ok(Templates { env })
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
        let mut s: String = out
            .lines()
            .map(|l| l.trim_end())
            .collect::<Vec<_>>()
            .join("\n");
        // Collapse runs of blank lines left by conditional blocks.
        while s.contains("\n\n\n") {
            s = s.replace("\n\n\n", "\n\n");
        }
        s.push('\n');
        Ok(s.trim_start_matches('\n').to_string())
    }
}

/// Wraps text at `width` columns; continuation lines are indented by `indent`.
pub fn wrap(text: String, width: Option<usize>, indent: Option<usize>) -> String {
    let width = width.unwrap_or(74).max(20);
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

    #[test]
    fn every_built_in_template_renders_with_an_empty_context() {
        let t = Templates::load(None).unwrap();
        for (name, _) in BUILT_IN {
            t.render(name, &serde_json::json!({})).unwrap();
        }
    }
}
