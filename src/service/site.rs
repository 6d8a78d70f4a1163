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
use crate::core::record::Body;
use crate::core::ruleset::Viewer;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The page template (minijinja; HTML-escaped because of its name).
const PAGE: &str = include_str!("../../templates/site/game.html");
/// The list of public games.
const INDEX: &str = include_str!("../../templates/site/index.html");

#[derive(Serialize)]
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

#[derive(Serialize)]
struct IndexLine {
    id: String,
    title: String,
    stage: String,
}

/// What `umpire site` wrote.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SiteReport {
    /// The public games, one page each.
    pub games: Vec<String>,
    /// The folder written.
    pub out: PathBuf,
}

/// Writes `bytes` to `path` through a temporary file and a rename, so a web
/// server never serves half a page.
fn put(path: &Path, bytes: &[u8]) -> Result<(), ServiceError> {
    let tmp = path.with_extension("tmp");
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
        let mut meta = self.meta(id)?;
        meta.public = public;
        let mut batch = crate::store::Batch::new();
        batch.put_json(crate::store::Table::Games, id, &meta);
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
    /// `map.png`, `record.txt` and `record.txt.sig`.
    pub fn write_site(
        &mut self,
        out: &Path,
        now: jiff::Timestamp,
    ) -> Result<SiteReport, ServiceError> {
        mkdir(out)?;
        let mut lines = Vec::new();
        for id in self.game_ids()? {
            if !self.meta(&id)?.public {
                continue;
            }
            let line = self.write_page(&id, &out.join(&id), now)?;
            lines.push(line);
        }
        #[derive(Serialize)]
        struct Ctx {
            games: Vec<IndexLine>,
        }
        let games: Vec<String> = lines.iter().map(|l| l.id.clone()).collect();
        put(
            &out.join("index.html"),
            render("index.html", INDEX, &Ctx { games: lines })?.as_bytes(),
        )?;
        Ok(SiteReport {
            games,
            out: out.to_path_buf(),
        })
    }

    fn write_page(
        &mut self,
        id: &str,
        dir: &Path,
        now: jiff::Timestamp,
    ) -> Result<IndexLine, ServiceError> {
        self.load(id)?;
        let meta = self.meta(id)?;
        let game = &self.games[id];
        mkdir(dir)?;
        let (last, _) = game.last_report();
        let has_map = match super::picture::png(game, last, Viewer::Public) {
            Some(Ok(png)) => {
                put(&dir.join(super::picture::MAP_PNG), &png)?;
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
            log.push(report_ctx(r, seq as u64, &names, received, Viewer::Public));
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
            stage: ctx.finished.clone().unwrap_or(ctx.stage.clone()),
        })
    }
}
