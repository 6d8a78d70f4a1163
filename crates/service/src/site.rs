//! The public game pages (`umpire site`, and every poll when `[site] out` is
//! set): for each game created `--public`, a static HTML page with the map,
//! the turn, whose move it is and the deadline, the log of moves and rolls,
//! and the record to download with how to verify it.
//!
//! Only what every side may see goes on a page: the board and status are the
//! public view (`view(state, Viewer::Public)`), the log goes through the same
//! audience filter as the mails (`compose::report_ctx` for the public), and
//! the record is the public copy (`compose::record_copy(game, Viewer::Public)`).

use super::compose::{GameCtx, ReportCtx, await_kind, game_ctx, report_ctx};
use super::{ServiceError, Umpire};
use serde::Serialize;
use std::path::{Path, PathBuf};
use umpire_core::record::Body;
use umpire_core::ruleset::Viewer;

/// The page template (minijinja; HTML-escaped because of its name).
const PAGE: &str = include_str!("../../../templates/site/game.html");
/// The list of public games.
const INDEX: &str = include_str!("../../../templates/site/index.html");

#[derive(Serialize, Clone)]
struct AwaitLine {
    side: String,
    ask: String,
    deadline: Option<String>,
}

#[derive(Serialize)]
struct PageCtx {
    game: GameCtx,
    ruleset: String,
    stage: String,
    finished: Option<String>,
    status: Vec<String>,
    awaiting: Vec<AwaitLine>,
    has_map: bool,
    log: Vec<ReportCtx>,
    head: String,
    entries: usize,
    written: String,
}

/// A public game's line on the site's index: what it is, where it stands,
/// whom it waits for and until when.
#[derive(Serialize)]
struct IndexLine {
    id: String,
    title: String,
    ruleset: String,
    stage: String,
    finished: bool,
    awaiting: Vec<AwaitLine>,
    /// The sides whose seats are open (players join by mail).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    open: Vec<String>,
    /// The join file to fill in, for a game with open seats.
    #[serde(skip_serializing_if = "String::is_empty")]
    join: String,
}

/// What `umpire site` wrote.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SiteReport {
    /// The public games, one page each.
    pub games: Vec<String>,
    /// The public games whose page could not be written, and why.
    pub failed: Vec<(String, String)>,
    /// The folder written.
    pub out: PathBuf,
}

/// The names at the site's top level beside the games' folders: what it
/// writes there (`index.html`) and what a web site keeps there. No public
/// game's id may be one, compared without case (a file system may ignore it).
pub const RESERVED: &[&str] = &[
    "index.html",
    "index.htm",
    "style.css",
    "robots.txt",
    "favicon.ico",
];

/// A game id that is a name the site writes beside the games' folders.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game id {id:?}: {reserved} is a file of the public game pages; choose another id")]
pub struct SiteIdError {
    /// The game's id.
    pub id: String,
    /// The name of [`RESERVED`] it is (without case).
    pub reserved: &'static str,
}

/// Why one game's page was not written (`Umpire::write_site` goes on with
/// the others).
#[derive(Debug, thiserror::Error)]
enum PageError {
    #[error(transparent)]
    SiteId(#[from] SiteIdError),
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// Writing the page panicked (the panic's message).
    #[error("internal error: {0}")]
    Panic(String),
}

/// Whether game `id` may have a page: its folder must not be a file the
/// site writes beside it.
pub fn check_site_id(id: &str) -> Result<(), SiteIdError> {
    match RESERVED.iter().find(|r| r.eq_ignore_ascii_case(id)) {
        Some(r) => Err(SiteIdError {
            id: id.to_string(),
            reserved: r,
        }),
        None => Ok(()),
    }
}

/// Writes `bytes` to `path` through a temporary file and a rename, so a web
/// server never serves half a page. The temporary name starts with a dot,
/// which no game id does, so it never meets a game's folder.
fn put(path: &Path, bytes: &[u8]) -> Result<(), ServiceError> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    let io = |e| ServiceError::io(format!("writing {}", path.display()), e);
    std::fs::write(&tmp, bytes).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

fn mkdir(dir: &Path) -> Result<(), ServiceError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| ServiceError::io(format!("creating {}", dir.display()), e))
}

fn render<C: Serialize>(name: &str, text: &str, ctx: &C) -> Result<String, ServiceError> {
    let mut env = minijinja::Environment::new();
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Chainable);
    let err = |e: minijinja::Error| ServiceError::Game(format!("site template {name}: {e:#}"));
    env.add_template(name, text).map_err(err)?;
    env.get_template(name)
        .map_err(err)?
        .render(minijinja::Value::from(minijinja::value::Serde(ctx)))
        .map_err(err)
}

impl Umpire {
    /// Makes game `id` public (its page goes on the site) or private again.
    pub fn set_public(&mut self, id: &str, public: bool) -> Result<(), ServiceError> {
        if public {
            check_site_id(id)?;
        }
        let mut meta = self.meta(id)?;
        meta.public = public;
        let mut batch = umpire_store::Batch::new();
        batch.put_json(umpire_store::Table::Games, id, &meta);
        self.store.commit(batch)?;
        Ok(())
    }

    /// The folder `[site] out` names, relative to the data directory.
    pub fn site_dir(&self) -> Option<PathBuf> {
        self.config.site.out.as_ref().map(|p| self.dir.join(p))
    }

    /// Rewrites the site if `[site] out` is set; a failure is logged, never
    /// fatal: the games go on without their pages.
    pub fn refresh_site(&mut self, now: jiff::Timestamp) {
        if let Some(out) = self.site_dir()
            && let Err(e) = self.write_site(&out, now)
        {
            tracing::warn!(out = %out.display(), "could not write the site: {e}");
        }
    }

    /// Writes `out/index.html` and, for every public game, `out/ID/index.html`,
    /// `map.png`, `record.txt` and `record.txt.sig`. Each game's page is
    /// contained: one that fails (an error or a panic) is logged, listed in
    /// the report and left as it was, and the others are written.
    pub fn write_site(
        &mut self,
        out: &Path,
        now: jiff::Timestamp,
    ) -> Result<SiteReport, ServiceError> {
        mkdir(out)?;
        let mut lines = Vec::new();
        let mut failed = Vec::new();
        for id in self.game_ids()? {
            if !self.meta(&id).is_ok_and(|m| m.public) {
                continue;
            }
            match self.contained_page(&id, out, now) {
                Ok(line) => lines.push(line),
                Err(why) => {
                    tracing::warn!(game = %id, "the game's page was not written: {why}");
                    // Its last page, if it has one, stays listed.
                    if check_site_id(&id).is_ok() && out.join(&id).join("index.html").is_file() {
                        let ruleset = self.meta(&id).map(|m| m.ruleset).unwrap_or_default();
                        lines.push(IndexLine {
                            id: id.clone(),
                            title: ruleset.clone(),
                            ruleset,
                            stage: "(this page could not be brought up to date)".into(),
                            finished: false,
                            awaiting: Vec::new(),
                            open: Vec::new(),
                            join: String::new(),
                        });
                    }
                    failed.push((id, why.to_string()));
                }
            }
        }
        #[derive(Serialize)]
        struct Ctx {
            games: Vec<IndexLine>,
            /// Games with open seats, for the "Open seats" section.
            open: usize,
            umpire: String,
            written: String,
        }
        let games: Vec<String> = lines
            .iter()
            .map(|l| l.id.clone())
            .filter(|id| !failed.iter().any(|(f, _)| f == id))
            .collect();
        put(
            &out.join("index.html"),
            render(
                "index.html",
                INDEX,
                &Ctx {
                    open: lines.iter().filter(|l| !l.open.is_empty()).count(),
                    games: lines,
                    umpire: self.config.umpire.address.clone(),
                    written: super::games::rfc3339(now),
                },
            )?
            .as_bytes(),
        )?;
        Ok(SiteReport {
            games,
            failed,
            out: out.to_path_buf(),
        })
    }

    /// Game `id`'s page in `out/ID/`, or why it could not be written. A game
    /// whose id is a name the site writes beside it gets no folder at all.
    fn contained_page(
        &mut self,
        id: &str,
        out: &Path,
        now: jiff::Timestamp,
    ) -> Result<IndexLine, PageError> {
        check_site_id(id)?;
        let page = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.write_page(id, &out.join(id), now)
        }));
        match page {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(e)) => Err(e.into()),
            Err(p) => {
                // What the panic left in the cached game is dropped.
                self.forget(id);
                Err(PageError::Panic(super::poll::panic_text(&*p)))
            }
        }
    }

    fn write_page(
        &mut self,
        id: &str,
        dir: &Path,
        now: jiff::Timestamp,
    ) -> Result<IndexLine, ServiceError> {
        self.load_every_report(id)?;
        let meta = self.meta(id)?;
        let game = &self.games[id];
        mkdir(dir)?;
        let (last, _) = game.last_report();
        let map_path = dir.join(super::picture::MAP_PNG);
        let has_map = match self.page_map(game, last, &map_path) {
            Some(Ok(map)) => {
                if let Some(png) = &map.png {
                    put(&map_path, png)?;
                    map.written();
                }
                true
            }
            Some(Err(e)) => {
                tracing::warn!(game = id, "no map picture on the page: {e}");
                false
            }
            None => false,
        };
        for (name, _, bytes) in self.signed(self.record_file(game, Viewer::Public, "")) {
            put(&dir.join(name), &bytes)?;
        }
        let names: Vec<String> = game.sides().iter().map(|s| s.name.clone()).collect();
        let mut log = Vec::new();
        for (seq, e) in game.record().entries().iter().enumerate() {
            let Some(r) = game.report(seq as u64) else {
                continue;
            };
            let received = match &e.body {
                Body::Move(m) => Some(m.at.clone()),
                Body::Default(d) => Some(d.at.clone()),
                _ => None,
            };
            log.push(report_ctx(
                game.ruleset().as_ref(),
                r,
                seq as u64,
                &names,
                received,
                Viewer::Public,
            ));
        }
        let prompt = game.prompt();
        let view = game.ruleset().view(game.state(), Viewer::Public);
        let awaiting = game
            .waiting()
            .map(|a| AwaitLine {
                side: names[a.side.index()].clone(),
                ask: if game.hides_information() {
                    await_kind(a.kind).into()
                } else {
                    a.ask.clone()
                },
                deadline: self.deadline_line(&meta, &names[a.side.index()], "", now),
            })
            .collect();
        let open = super::seats::open_names(game);
        let ctx = PageCtx {
            game: game_ctx(game),
            ruleset: game.ruleset().info().name,
            stage: prompt.stage.clone(),
            finished: prompt.finished.as_ref().map(|f| f.summary.clone()),
            status: view.status.clone(),
            awaiting,
            has_map,
            log,
            head: game.record().head().to_hex(),
            entries: game.record().len(),
            written: super::games::rfc3339(now),
        };
        let page = render("game.html", PAGE, &ctx)?;
        put(&dir.join("index.html"), page.as_bytes())?;
        Ok(IndexLine {
            id: id.to_string(),
            title: game.ruleset().info().title,
            ruleset: ctx.ruleset.to_string(),
            stage: ctx.finished.clone().unwrap_or(ctx.stage.clone()),
            finished: ctx.finished.is_some(),
            awaiting: ctx.awaiting.clone(),
            join: open_join(id, &open),
            open,
        })
    }
}

/// The join file for a game's open seats (empty when none is open).
fn open_join(id: &str, open: &[String]) -> String {
    match open {
        [] => String::new(),
        [one] => super::seats::join_template(id, one),
        _ => super::seats::join_template(id, "any"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reserved id names the file it would stand for, whatever its case.
    #[test]
    fn a_reserved_id_names_the_file_it_would_be() {
        let e = check_site_id("Index.HTML").unwrap_err();
        assert_eq!(
            e,
            SiteIdError {
                id: "Index.HTML".into(),
                reserved: "index.html"
            }
        );
        assert_eq!(
            e.to_string(),
            "game id \"Index.HTML\": index.html is a file of the public game pages; choose another id"
        );
        assert!(check_site_id("g1").is_ok());
    }
}
