//! The mails the umpire writes: the opening, each result (one per side, its
//! own view), refusals, and notes. Text comes from the templates; each result
//! carries the entries its side has not yet received (`service::segments`) and
//! the umpire's signature over them.

use super::games::GameMeta;
use super::segments::SignedFile;
use super::{ServiceError, Umpire};
use serde::Serialize;
use umpire_core::dice::DiceChain;
use umpire_core::game::{Game, RejectKind, Rejection, Report};
use umpire_core::record::Body;
use umpire_core::ruleset::{Side, View, Viewer};
use umpire_core::sig::{RESULT_NAMESPACE, SecretKey};
use umpire_mail::write::{Compose, Prepared, Unwritten, prepare};

#[derive(Serialize)]
pub(super) struct GameCtx {
    pub(super) id: String,
    pub(super) title: String,
    pub(super) scenario: String,
    pub(super) options: String,
}

#[derive(Serialize)]
pub(super) struct OrderCtx {
    /// The order line; empty for an order the reader may not read, of which
    /// only its open events are told, where the line would be.
    pub(super) text: String,
    pub(super) events: Vec<String>,
    pub(super) failed: Option<String>,
}

#[derive(Serialize)]
pub(super) struct RollCtx {
    pub(super) sides: u32,
    pub(super) value: u32,
    pub(super) label: String,
}

#[derive(Serialize)]
pub(super) struct ReportCtx {
    pub(super) seq: u64,
    pub(super) mover: Option<String>,
    /// The mover's name with its possessive (`axis's`, `allies'`).
    pub(super) mover_of: Option<String>,
    pub(super) by_default: bool,
    pub(super) reason: String,
    pub(super) received: Option<String>,
    pub(super) standing: Vec<String>,
    pub(super) orders: Vec<OrderCtx>,
    /// Events of the end of the move, after its orders.
    pub(super) end: Vec<String>,
    /// A sealed round's parts, one per side, in the order applied.
    pub(super) parts: Vec<PartCtx>,
    pub(super) rolls: Vec<RollCtx>,
    /// Rolls of this entry the reader may not see (they open at the end).
    pub(super) hidden_rolls: usize,
    pub(super) position: Option<u64>,
    /// Said at the top of the mail, before anything else: how many of the
    /// move's orders were not carried out, why, and which (empty when all were).
    pub(super) not_carried_out: String,
}

#[derive(Serialize)]
pub(super) struct PartCtx {
    pub(super) side: String,
    /// The side's name with its possessive (`axis's`, `allies'`).
    pub(super) side_of: String,
    pub(super) by_default: bool,
    pub(super) standing: Vec<String>,
    pub(super) orders: Vec<OrderCtx>,
    /// Events of the end of its orders.
    pub(super) end: Vec<String>,
}

#[derive(Serialize)]
pub(super) struct AwaitCtx {
    pub(super) side: String,
    pub(super) ask: String,
    pub(super) deadline: Option<String>,
}

#[derive(Serialize)]
pub(super) struct RevealCtx {
    pub(super) position: u64,
    pub(super) secret: String,
}

#[derive(Serialize)]
pub(super) struct ResultCtx {
    pub(super) game: GameCtx,
    pub(super) side: Option<String>,
    pub(super) report: ReportCtx,
    pub(super) status: Vec<String>,
    pub(super) map: String,
    /// The mail's `map.png` is the part of the map around the action.
    pub(super) action_picture: bool,
    /// Where every unit of the reader's own is (not only those in the map's window).
    pub(super) own_forces: String,
    pub(super) finished: Option<String>,
    pub(super) stage: String,
    pub(super) awaiting: Vec<AwaitCtx>,
    pub(super) you_act: bool,
    pub(super) move_template: String,
    pub(super) default: String,
    pub(super) standing: Vec<String>,
    pub(super) head: String,
    pub(super) head_seq: usize,
    pub(super) reveals: Vec<RevealCtx>,
    /// The board the view gave, for the mail's picture (not rendered).
    #[serde(skip)]
    pub(super) board: Option<umpire_core::board::Board>,
}

/// Room for an order line after `  # e.g. ` in a 72-column mail.
const EXAMPLE_WIDTH: usize = 72 - 9;

/// Does every line of `order` fit one commented line of a template?
fn fits_example(order: &str) -> bool {
    order.lines().all(|l| l.chars().count() <= EXAMPLE_WIDTH)
}

/// A legal order as commented example lines of a move template, one
/// comment line for each of its lines, never wrapped: uncommented, each is
/// an order line as the move file takes it.
fn commented_example(order: &str) -> String {
    let mut t = String::new();
    for (i, l) in order.lines().enumerate() {
        let lead = if i == 0 { "# e.g. " } else { "#       " };
        t.push_str(&format!("  {lead}{l}\n"));
    }
    t
}

/// Draws the map part of a view: a snippet around the action.
pub fn map_text(view: &View, focus: &[umpire_core::board::Place]) -> String {
    match &view.board {
        // Mail is read at 72 columns (RFC 2646's advice for quoted replies).
        Some(board) => umpire_render::map::snippet(
            board,
            focus,
            &umpire_render::map::Options {
                width: 72,
                ..Default::default()
            },
        ),
        None => String::new(),
    }
}

/// Where a snippet with no action to show (the opening, a set-up) looks for
/// a side marked `marks`: its largest stack and the enemy nearest to it, so
/// the first map a player reads shows his forces and what faces them (the
/// window takes both when they fit, else centres on his stack). Without an
/// enemy in sight, his own places; without forces, none (the map's middle).
fn front(board: &umpire_core::board::Board, marks: &[char]) -> Vec<umpire_core::board::Place> {
    let own = umpire_render::map::own_places(board, marks);
    // The own place nearest to an enemy (the largest stack first among
    // equals), and that enemy.
    let pair = own
        .iter()
        .filter_map(|&p| nearest_enemy(board, marks, p).map(|(d, e)| (d, p, e)))
        .min_by_key(|(d, _, _)| *d);
    match pair {
        Some((_, home, enemy)) => vec![home, enemy],
        None => own,
    }
}

/// The place nearest to `from` holding a unit of another side than `marks`
/// (hexes and squares by distance, spaces by links crossed), with its
/// distance, the board's order breaking ties; none when the reader sees no
/// enemy.
fn nearest_enemy(
    board: &umpire_core::board::Board,
    marks: &[char],
    from: umpire_core::board::Place,
) -> Option<(u32, umpire_core::board::Place)> {
    use umpire_core::board::{Board, Place, Unit};
    let enemy = |units: &[Unit]| {
        units
            .iter()
            .any(|u| u.side.is_some_and(|c| !marks.contains(&c)))
    };
    match (board, from) {
        (Board::Hex(b), Place::Hex(h)) => b
            .cells
            .iter()
            .filter(|(_, c)| enemy(&c.units))
            .map(|(x, _)| (h.distance_on(b.offset, *x), Place::Hex(*x)))
            .min_by_key(|(d, _)| *d),
        (Board::Square(b), Place::Square(q)) => b
            .cells
            .iter()
            .filter(|(_, c)| enemy(&c.units))
            .map(|(x, _)| (q.distance(*x), Place::Square(*x)))
            .min_by_key(|(d, _)| *d),
        (Board::Points(b), Place::Space(start)) => {
            // Breadth first over the links, so the nearest by links crossed.
            let mut seen = std::collections::BTreeSet::from([start]);
            let mut ring = vec![start];
            let mut depth = 0;
            while !ring.is_empty() {
                let found = b
                    .spaces
                    .iter()
                    .find(|(id, sp)| ring.contains(id) && enemy(&sp.units));
                if let Some((id, _)) = found {
                    return Some((depth, Place::Space(*id)));
                }
                depth += 1;
                let mut next = Vec::new();
                for l in &b.links {
                    for (x, y) in [(l.a, l.b), (l.b, l.a)] {
                        if ring.contains(&x) && seen.insert(y) {
                            next.push(y);
                        }
                    }
                }
                ring = next;
            }
            None
        }
        _ => None,
    }
}

pub(super) fn game_ctx(game: &Game) -> GameCtx {
    let info = game.ruleset().info();
    let o = game.record().opening();
    GameCtx {
        id: game.id().to_string(),
        title: info.title,
        scenario: o.map(|o| o.scenario.clone()).unwrap_or_default(),
        options: o
            .map(|o| {
                o.options
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default(),
    }
}

/// The Message-ID for an outbox key.
pub fn message_id(key: &str, domain: &str) -> String {
    format!("<{key}@{domain}>")
}

/// The thread root of a side's mails in a game: its opening mail.
pub fn thread_root(game: &str, side: &str, domain: &str) -> String {
    message_id(&format!("{game}.0.{side}"), domain)
}

/// An observer's part of outbox keys and thread ids, from the address (not
/// its place in the list), so a rerun after a crash gives each observer the
/// keys of its own mails even if the list changed in between (invariant 8).
/// Hashed, because an address may hold characters a Message-ID may not.
fn observer_tag(address: &str) -> String {
    let d = umpire_core::hash::sha256(address.trim().to_ascii_lowercase().as_bytes());
    format!("observer-{}", d.short(12))
}

fn to_system_time(t: jiff::Timestamp) -> std::time::SystemTime {
    std::time::UNIX_EPOCH + std::time::Duration::from_secs(t.as_second().max(0) as u64)
}

/// A mail the umpire is about to write.
pub(super) struct Draft<'a> {
    /// The outbox key (also the Message-ID's local part).
    pub key: String,
    pub to: &'a str,
    pub subject: String,
    pub text: String,
    /// A file attached first, followed by the umpire's signature over it.
    pub signed: Option<SignedFile>,
    pub attachments: Vec<(String, String, Vec<u8>)>,
    /// (thread root, the mail this answers)
    pub thread: Option<(String, Option<String>)>,
    pub game: Option<&'a str>,
}

/// A mail composed, its header written and checked, its signature and body
/// still to make ([`Unsealed::seal`]). A poll seals its mails on a worker
/// while it adjudicates the next ones (issue 13); nothing in sealing can fail
/// but the signature, whose part is then left out as before.
/// What a note to a side says and attaches.
pub(super) struct Note<'a> {
    pub(super) title: &'a str,
    pub(super) text: &'a str,
    /// The side's copy of the record, signed.
    pub(super) attach_record: bool,
    /// Files beside it: name, MIME type, bytes.
    pub(super) attachments: Vec<(String, String, Vec<u8>)>,
}

pub(super) struct Unsealed {
    key: String,
    message_id: String,
    from: String,
    to: String,
    prepared: Prepared,
    text: String,
    bodies: Vec<Vec<u8>>,
    /// `bodies[1]` is to be the umpire's signature over `bodies[0]`.
    sign_first: bool,
    /// `bodies[0]` goes out compressed, once signed (a long record:
    /// `SignedFile::packed`).
    pack_first: bool,
}

impl Unsealed {
    /// The outbox key.
    pub(super) fn key(&self) -> &str {
        &self.key
    }

    /// The mail, signed; written when it is delivered.
    pub(super) fn seal(&self, signer: &SecretKey) -> SealedMail {
        let sig = match self.sign_first {
            true => signer.sign(RESULT_NAMESPACE, &self.bodies[0]).ok(),
            false => None,
        };
        let bodies = self
            .bodies
            .iter()
            .enumerate()
            .map(|(i, b)| match (self.sign_first, i) {
                (true, 1) => sig.as_ref().map(|s| s.as_bytes().to_vec()),
                (true, 0) if self.pack_first => Some(super::gzip::compress(b)),
                _ => Some(b.clone()),
            })
            .collect();
        SealedMail {
            key: self.key.clone(),
            message_id: self.message_id.clone(),
            from: self.from.clone(),
            to: self.to.clone(),
            mail: Unwritten {
                prepared: self.prepared.clone(),
                text: self.text.clone(),
                bodies,
            },
        }
    }
}

/// A mail signed and ready to write: what the outbox stores
/// ([`super::outbox::Item::stored_unwritten`]).
pub(super) struct SealedMail {
    pub key: String,
    pub message_id: String,
    /// Envelope sender.
    pub from: String,
    /// Envelope recipient.
    pub to: String,
    pub mail: Unwritten,
}

impl Umpire {
    pub(super) fn mail(
        &self,
        d: Draft<'_>,
        now: jiff::Timestamp,
    ) -> Result<Unsealed, ServiceError> {
        let Draft {
            key,
            to,
            subject,
            text,
            signed,
            attachments,
            thread,
            game,
        } = d;
        let domain = self.config.domain().to_string();
        let message_id = message_id(&key, &domain);
        let (references, in_reply_to) = match thread {
            Some((root, reply)) => {
                let mut refs = vec![root.clone()];
                if let Some(r) = &reply
                    && *r != root
                {
                    refs.push(r.clone());
                }
                (refs, Some(reply.unwrap_or(root)))
            }
            None => (vec![], None),
        };
        let mut headers = vec![("X-Loop".to_string(), self.config.umpire.address.clone())];
        if let Some(g) = game {
            headers.push(("X-Umpire-Game".to_string(), g.to_string()));
        }
        let sign_first = signed.is_some();
        let pack_first = signed.as_ref().is_some_and(SignedFile::packed);
        let mut all = Vec::with_capacity(attachments.len() + 2);
        if let Some(file) = signed {
            // The signature's part is checked now and filled when sealed.
            all.extend(file.mail_parts(Vec::new()));
        }
        all.extend(attachments);
        let mut compose = Compose {
            from_name: self.config.umpire.name.clone(),
            from: self.config.umpire.address.clone(),
            to: vec![to.to_string()],
            subject,
            message_id: message_id.clone(),
            in_reply_to,
            references,
            text: String::new(),
            attachments: all,
            auto_submitted: "auto-replied",
            headers,
            date: to_system_time(now),
        };
        let prepared = prepare(&compose)?;
        Ok(Unsealed {
            key,
            message_id,
            from: self.config.umpire.address.clone(),
            to: to.to_string(),
            prepared,
            text,
            bodies: std::mem::take(&mut compose.attachments)
                .into_iter()
                .map(|a| a.2)
                .collect(),
            sign_first,
            pack_first,
        })
    }

    /// record.txt (the copy `viewer` may hold: the full record once the game
    /// is over), to attach with the umpire's signature over it; for a side,
    /// the mail `key` then gives it the record up to its head
    /// (`service::segments`).
    pub(super) fn record_file(&self, game: &Game, viewer: Viewer, key: &str) -> SignedFile {
        if let Some(s) = viewer.side() {
            self.mark_sent(key, game, s);
        }
        SignedFile {
            name: "record.txt".to_string(),
            text: record_copy(game, viewer).to_text(),
        }
    }

    pub(super) fn result_text(
        &self,
        game: &Game,
        meta: &GameMeta,
        seq: u64,
        viewer: Viewer,
        now: jiff::Timestamp,
    ) -> Result<String, ServiceError> {
        self.result_text_and_board(game, meta, seq, viewer, now)
            .map(|(text, _)| text)
    }

    /// [`Umpire::result_text`] and the board `viewer` sees, which the
    /// text's view computed (its picture need not compute it again).
    pub(super) fn result_text_and_board(
        &self,
        game: &Game,
        meta: &GameMeta,
        seq: u64,
        viewer: Viewer,
        now: jiff::Timestamp,
    ) -> Result<(String, Option<umpire_core::board::Board>), ServiceError> {
        let mut ctx = self.result_ctx(game, meta, seq, viewer, now);
        let board = ctx.board.take();
        self.render_result(&ctx).map(|text| (text, board))
    }

    /// `result.txt` of `ctx`.
    fn render_result(&self, ctx: &ResultCtx) -> Result<String, ServiceError> {
        // The built-in template, written natively: the same text, without the
        // template engine's cost on every result mail (issue 13).
        if self.templates.is_built_in("result.txt") {
            return Ok(umpire_render::templates::tidy(&super::result_text::render(
                ctx,
            )));
        }
        Ok(self.templates.render("result.txt", ctx)?)
    }

    /// What `result.txt` is rendered from: entry `seq`'s report and the game
    /// now, as `viewer` may see them.
    pub(super) fn result_ctx(
        &self,
        game: &Game,
        meta: &GameMeta,
        seq: u64,
        viewer: Viewer,
        now: jiff::Timestamp,
    ) -> ResultCtx {
        let ruleset = game.ruleset();
        let state = game.state();
        let report = game.report(seq).cloned().unwrap_or_default();
        let view = ruleset.view(state, viewer);
        let side = viewer.side();
        let mut focus: Vec<_> = report
            .events_for(viewer)
            .flat_map(|e| e.focus.iter().copied())
            .collect();
        let action_picture = seq > 0
            && !focus.is_empty()
            && view.board.is_some()
            && self.config.pictures.result == super::config::ResultPicture::Action;
        if let (true, Some(s), Some(board)) = (focus.is_empty(), side, &view.board) {
            focus = front(board, &ruleset.own_marks(state, s));
        }
        let map = map_text(&view, &focus);
        let own_forces = match (side, &view.board) {
            (Some(s), Some(board)) => {
                umpire_render::map::own_forces(board, &ruleset.own_marks(state, s), 70)
            }
            _ => String::new(),
        };
        let prompt = game.prompt();
        let names: Vec<String> = game.sides().iter().map(|s| s.name.clone()).collect();
        let you = side.and_then(|s| game.awaits(s));
        let head = game.record().head();
        let move_template = match (side, you) {
            (Some(s), Some(_)) => {
                let mut t = format!(
                    "game: {}\nside: {}\nafter: {head}\norders:\n",
                    game.id(),
                    names[s.index()]
                );
                // Every line commented, so a copied template holds no stray
                // order; an example too long for a line is left out, never
                // broken in two (the half on the next line is no order).
                let examples = ruleset.example_moves(state, s, 12);
                for l in examples.iter().filter(|l| fits_example(l)).take(4) {
                    t.push_str(&commented_example(l));
                }
                t
            }
            _ => String::new(),
        };
        let reveals = game.record().entries()[(seq as usize + 1).min(game.record().len())..]
            .iter()
            .map_while(|e| match &e.body {
                Body::Reveal(r) => Some(RevealCtx {
                    position: r.position,
                    secret: r.secret.to_hex(),
                }),
                _ => None,
            })
            .collect();
        let received = game
            .record()
            .entries()
            .get(seq as usize)
            .and_then(|e| match &e.body {
                Body::Move(m) => Some(m.at.clone()),
                Body::Default(d) => Some(d.at.clone()),
                _ => None,
            });
        ResultCtx {
            game: game_ctx(game),
            side: side.map(|s| names[s.index()].clone()),
            report: report_ctx(ruleset.as_ref(), &report, seq, &names, received, viewer),
            status: view.status.clone(),
            map,
            action_picture,
            own_forces,
            finished: prompt.finished.as_ref().map(|f| f.summary.clone()),
            stage: prompt.stage.clone(),
            awaiting: game
                .waiting()
                .map(|a| AwaitCtx {
                    side: names[a.side.index()].clone(),
                    // In a game that hides something, what another side is asked
                    // (its choices, its default) is its own business.
                    ask: if viewer.sees_own(a.side) || !game.hides_information() {
                        a.ask.clone()
                    } else {
                        await_kind(a.kind).into()
                    },
                    deadline: self.deadline_line(
                        meta,
                        &names[a.side.index()],
                        side.map_or("", |s| names[s.index()].as_str()),
                        now,
                    ),
                })
                .collect(),
            you_act: you.is_some(),
            move_template,
            default: you.map(|a| a.default.join("; ")).unwrap_or_default(),
            standing: side.map(|s| ruleset.standing(state, s)).unwrap_or_default(),
            head: head.to_hex(),
            head_seq: game.record().len().saturating_sub(1),
            reveals,
            board: view.board,
        }
    }

    fn subject(&self, game: &Game, side: Option<Side>) -> String {
        let p = game.prompt();
        match &p.finished {
            Some(f) => format!("[{}] game over: {}", game.id(), f.summary),
            None => {
                let yours = side.is_some_and(|s| game.awaits(s).is_some());
                format!(
                    "[{}] {}{}",
                    game.id(),
                    p.stage,
                    if yours { " (your move)" } else { "" }
                )
            }
        }
    }

    /// The result of entry `seq` to every side (or only `only`), each with its view.
    #[allow(clippy::too_many_arguments)] // each is a distinct fact of the result
    pub(super) fn result_mails(
        &self,
        game: &Game,
        meta: &GameMeta,
        seq: u64,
        signer: Option<(Side, Option<String>)>,
        only: Option<Side>,
        key_suffix: &str,
        now: jiff::Timestamp,
    ) -> Result<Vec<Unsealed>, ServiceError> {
        let domain = self.config.domain().to_string();
        let mut out = Vec::new();
        for (i, s) in game.sides().iter().enumerate() {
            let side = Side(i as u8);
            // An open seat has nobody to mail yet.
            if only.is_some_and(|o| o != side) || s.is_open() {
                continue;
            }
            let key = format!("{}.{seq}.{}{key_suffix}", game.id(), s.name);
            let signed = self.result_file(game, side, &key, key_suffix.is_empty())?;
            let viewer = Viewer::Side(side);
            let (text, board) = self.result_text_and_board(game, meta, seq, viewer, now)?;
            let text = super::result_text::name_record_file(text, &signed.name);
            let attachments = self
                .map_attachment(game, seq, viewer, board)
                .into_iter()
                .collect();
            let reply = signer
                .as_ref()
                .filter(|(s, _)| *s == side)
                .and_then(|(_, r)| r.clone());
            out.push(self.mail(
                Draft {
                    key,
                    to: &s.email,
                    subject: self.subject(game, Some(side)),
                    text,
                    signed: Some(signed),
                    attachments,
                    thread: Some((thread_root(game.id(), &s.name, &domain), reply)),
                    game: Some(game.id()),
                },
                now,
            )?);
        }
        if only.is_none() && key_suffix.is_empty() {
            out.extend(self.observer_mails(game, meta, seq, now)?);
        }
        Ok(out)
    }

    /// The public view of entry `seq` to each observer: only what every side
    /// may see (events, rolls, map and status of [`Viewer::Public`]), no
    /// record copy.
    fn observer_mails(
        &self,
        game: &Game,
        meta: &GameMeta,
        seq: u64,
        now: jiff::Timestamp,
    ) -> Result<Vec<Unsealed>, ServiceError> {
        if meta.observers.is_empty() {
            return Ok(Vec::new());
        }
        let domain = self.config.domain().to_string();
        // One public view for every observer: the text and picture are the
        // same, and a map picture costs up to a tenth of a second to draw.
        let (text, board) = self.result_text_and_board(game, meta, seq, Viewer::Public, now)?;
        let attachments: Vec<_> = self
            .map_attachment(game, seq, Viewer::Public, board)
            .into_iter()
            .collect();
        let mut out = Vec::new();
        for to in &meta.observers {
            let who = observer_tag(to);
            out.push(self.mail(
                Draft {
                    key: format!("{}.{seq}.{who}", game.id()),
                    to,
                    subject: self.subject(game, None),
                    text: text.clone(),
                    signed: None,
                    attachments: attachments.clone(),
                    thread: Some((thread_root(game.id(), &who, &domain), None)),
                    game: Some(game.id()),
                },
                now,
            )?);
        }
        Ok(out)
    }

    /// The opening mail to every side.
    pub(super) fn opening_mails(
        &self,
        game: &Game,
        meta: &GameMeta,
        chain: &DiceChain,
        now: jiff::Timestamp,
    ) -> Result<Vec<Unsealed>, ServiceError> {
        #[derive(Serialize)]
        struct SideCtx {
            name: String,
            email: String,
            fingerprint: String,
        }
        #[derive(Serialize)]
        struct OpeningCtx {
            game: GameCtx,
            sides: Vec<SideCtx>,
            commitment: String,
            umpire_key: String,
        }
        let intro = self.templates.render(
            "opening.txt",
            &OpeningCtx {
                game: game_ctx(game),
                sides: game
                    .sides()
                    .iter()
                    .map(|s| SideCtx {
                        name: s.name.clone(),
                        email: s.email.clone(),
                        fingerprint: s.fingerprint(),
                    })
                    .collect(),
                commitment: chain.commitment().k0.to_hex(),
                umpire_key: self.key.public().fingerprint(),
            },
        )?;
        let mut out = Vec::new();
        for (i, s) in game.sides().iter().enumerate() {
            if s.is_open() {
                continue;
            }
            let key = format!("{}.0.{}", game.id(), s.name);
            let me = Viewer::Side(Side(i as u8));
            let signed = self.record_file(game, me, &key);
            let attachments = self
                .whole_map_picture(game, Side(i as u8))
                .into_iter()
                .collect();
            let press = super::press::press_line(meta);
            let text = format!(
                "{intro}\n{press}\n\n{}",
                self.result_text(game, meta, 0, me, now)?
            );
            out.push(self.mail(
                Draft {
                    key,
                    to: &s.email,
                    subject: format!("[{}] new game: {}", game.id(), game.ruleset().info().title),
                    text,
                    signed: Some(signed),
                    attachments,
                    thread: None,
                    game: Some(game.id()),
                },
                now,
            )?);
        }
        Ok(out)
    }

    /// The refusal of a submission, to `to`.
    #[allow(clippy::too_many_arguments)] // each is a distinct fact of the refusal
    pub(super) fn rejection_mail(
        &self,
        game: &Game,
        seq: Option<u64>,
        r: &Rejection,
        to: &str,
        reply: Option<String>,
        key: String,
        now: jiff::Timestamp,
    ) -> Result<Unsealed, ServiceError> {
        #[derive(Serialize)]
        struct LineCtx {
            number: usize,
            text: String,
            caret: String,
        }
        #[derive(Serialize)]
        struct RejCtx {
            game: GameCtx,
            reason: String,
            line: Option<LineCtx>,
            kind: &'static str,
            stage: String,
            waiting: String,
            seq: Option<u64>,
            head: String,
        }
        let kind = match r.kind {
            RejectKind::Malformed => "malformed",
            RejectKind::WrongGame => "wrong_game",
            RejectKind::UnknownSide => "unknown_side",
            RejectKind::Signature => "signature",
            RejectKind::Finished => "finished",
            RejectKind::NotYourTurn => "not_your_turn",
            RejectKind::Stale => "stale",
            RejectKind::Illegal => "illegal",
        };
        let text = self.templates.render(
            "rejected.txt",
            &RejCtx {
                game: game_ctx(game),
                reason: one_head(&r.reason, &game.record().head().to_hex()),
                line: r.line.as_ref().map(|l| LineCtx {
                    number: l.line,
                    text: l.text.clone(),
                    caret: format!(
                        "{}^",
                        " ".repeat(
                            format!("line {}: ", l.line).len()
                                + l.column.saturating_sub(1).min(200)
                        )
                    ),
                }),
                kind,
                stage: game.prompt().stage.clone(),
                waiting: game.awaiting_names(),
                seq,
                head: game.record().head().to_hex(),
            },
        )?;
        let domain = self.config.domain().to_string();
        let root = r
            .signer
            .map(|s| thread_root(game.id(), &game.sides()[s.index()].name, &domain));
        self.mail(
            Draft {
                key,
                to,
                subject: format!(
                    "[{}] move refused: {}",
                    game.id(),
                    first_words(&r.reason, 8)
                ),
                text,
                signed: None,
                attachments: vec![],
                thread: root.map(|root| (root, reply)),
                game: Some(game.id()),
            },
            now,
        )
    }

    /// How to sign, for a mail that carried no signed move.
    pub(super) fn unsigned_mail(
        &self,
        to: &str,
        reason: &str,
        reply: Option<String>,
        key: String,
        now: jiff::Timestamp,
    ) -> Result<Unsealed, ServiceError> {
        #[derive(Serialize)]
        struct Ctx<'a> {
            umpire: &'a str,
            reason: &'a str,
            /// A player of a running game: answered every time, not once a day.
            known: bool,
            /// The public games with open seats and how to join one.
            open_games: String,
        }
        let text = self.templates.render(
            "unsigned.txt",
            &Ctx {
                umpire: &self.config.umpire.address,
                reason,
                known: self.is_player(to)?,
                open_games: self.open_games_text()?,
            },
        )?;
        self.mail(
            Draft {
                key,
                to,
                subject: "umpire: how to send a signed move".into(),
                text,
                signed: None,
                attachments: vec![],
                thread: reply.map(|r| (r, None)),
                game: None,
            },
            now,
        )
    }

    /// The answer to a mail whose handling failed (an error or a panic in
    /// the umpire, not in the mail): what it came to, and that the admin
    /// knows. It names the mail by its subject and date only, never by what
    /// went wrong, which may quote a game's hidden state.
    pub(super) fn failed_mail(
        &self,
        to: &str,
        about: &umpire_mail::mime::ReadMail,
        key: String,
        now: jiff::Timestamp,
    ) -> Result<Unsealed, ServiceError> {
        let mut name = format!("{:?}", about.subject.chars().take(80).collect::<String>());
        if let Some(d) = &about.date {
            name.push_str(&format!(" of {}", d.chars().take(40).collect::<String>()));
        }
        let text = format!(
            "This is the umpire at {umpire}. Your mail\n\n  {name}\n\n\
             could not be handled: the umpire met an internal error while\n\
             reading it. Nothing in it was carried out; no game changed\n\
             because of it.\n\n\
             The umpire's admin has been told and has kept your mail. Once\n\
             the fault is mended, you may send it again.\n",
            umpire = self.config.umpire.address,
        );
        self.mail(
            Draft {
                key,
                to,
                subject: "umpire: internal error, your mail could not be handled".into(),
                text,
                signed: None,
                attachments: vec![],
                thread: about.message_id.clone().map(|r| (r, None)),
                game: None,
            },
            now,
        )
    }

    /// A short note about a game (commands, duplicates, reminders).
    #[allow(clippy::too_many_arguments)] // each is a distinct fact of the note
    pub(super) fn notice_mail(
        &self,
        game: &Game,
        side: Side,
        title: &str,
        text: &str,
        attach_record: bool,
        reply: Option<String>,
        key: String,
        now: jiff::Timestamp,
    ) -> Result<Unsealed, ServiceError> {
        let to = game.sides()[side.index()].email.clone();
        self.notice_to(game, side, &to, title, text, attach_record, reply, key, now)
    }

    /// [`Umpire::notice_mail`] to another address than the side's own.
    #[allow(clippy::too_many_arguments)] // each is a distinct fact of the note
    pub(super) fn notice_to(
        &self,
        game: &Game,
        side: Side,
        to: &str,
        title: &str,
        text: &str,
        attach_record: bool,
        reply: Option<String>,
        key: String,
        now: jiff::Timestamp,
    ) -> Result<Unsealed, ServiceError> {
        let note = Note {
            title,
            text,
            attach_record,
            attachments: Vec::new(),
        };
        self.note_to(game, side, to, note, reply, key, now)
    }

    /// A note to `to` about `game` for `side`, with what it attaches.
    #[allow(clippy::too_many_arguments)] // each is a distinct fact of the note
    pub(super) fn note_to(
        &self,
        game: &Game,
        side: Side,
        to: &str,
        note: Note<'_>,
        reply: Option<String>,
        key: String,
        now: jiff::Timestamp,
    ) -> Result<Unsealed, ServiceError> {
        let Note {
            title,
            text,
            attach_record,
            attachments,
        } = note;
        #[derive(Serialize)]
        struct Ctx<'a> {
            game: GameCtx,
            title: &'a str,
            text: &'a str,
            head: String,
        }
        let body = self.templates.render(
            "notice.txt",
            &Ctx {
                game: game_ctx(game),
                title,
                text,
                head: game.record().head().to_hex(),
            },
        )?;
        let s = &game.sides()[side.index()];
        let domain = self.config.domain().to_string();
        let signed = attach_record.then(|| self.record_file(game, Viewer::Side(side), &key));
        self.mail(
            Draft {
                key,
                to,
                subject: format!("[{}] {title}", game.id()),
                text: body,
                signed,
                attachments,
                thread: Some((thread_root(game.id(), &s.name, &domain), reply)),
                game: Some(game.id()),
            },
            now,
        )
    }

    /// The subject and text of the result mail of `game`'s entry `seq` as
    /// `viewer` gets it (a side's, or the observers' for the public), with
    /// no deadlines: what the noninterference test compares between a game
    /// and its twin.
    pub fn result_mail_text(
        &self,
        game: &Game,
        seq: u64,
        viewer: Viewer,
        now: jiff::Timestamp,
    ) -> Result<(String, String), ServiceError> {
        let text = self.result_text(game, &GameMeta::default(), seq, viewer, now)?;
        Ok((self.subject(game, viewer.side()), text))
    }

    /// The current situation as `viewer` sees it (the `status` command,
    /// `umpire show`).
    pub fn status_text(
        &mut self,
        id: &str,
        viewer: Viewer,
        now: jiff::Timestamp,
    ) -> Result<String, ServiceError> {
        self.load(id)?;
        let meta = self.meta(id)?;
        let game = &self.games[id];
        let (seq, _) = game.last_report();
        self.result_text(game, &meta, seq, viewer, now)
    }
}

/// The record `viewer` may hold: a side its own copy while the game runs,
/// the public (observers, the club's page) the copy with every side's
/// secrets sealed; the full record (every opening) once it is over, and
/// always for the umpire.
pub fn record_copy(game: &Game, viewer: Viewer) -> umpire_core::record::Record {
    if game.prompt().finished.is_some() || !game.hides_information() {
        return game.record().clone();
    }
    match viewer {
        Viewer::Umpire => game.record().clone(),
        Viewer::Side(s) => game.record().copy_for(Some(&game.sides()[s.index()].name)),
        Viewer::Public => game.record().copy_for(None),
    }
}

/// `name` with its possessive: `axis's`, and `allies'` for a name that
/// ends in s (never `allies's`).
fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

/// What another side owes, without what it is asked (its choices are its own business).
pub(super) fn await_kind(kind: umpire_core::ruleset::AwaitKind) -> &'static str {
    use umpire_core::ruleset::AwaitKind;
    match kind {
        AwaitKind::Orders => "their orders",
        AwaitKind::Decision => "a decision",
        AwaitKind::SealedOrders => "their sealed orders",
    }
}

/// The order lines `viewer` may read (its own always), with the events it may
/// see, in the order they were given. Of an order it may not read, only the
/// events said in the open (`Event::open`: what its map shows anyway, such as
/// a stack arriving) and no line (empty `text`); an open event stands in for
/// the hidden line, so a reader of the line has the order's own account instead.
fn orders_ctx(
    orders: &[umpire_core::game::OrderReport],
    mover: Option<Side>,
    viewer: Viewer,
) -> Vec<OrderCtx> {
    orders
        .iter()
        .filter_map(|o| {
            let reads = reads_order(o, mover, viewer);
            // A reader of the line gets the order's own account; one who may
            // not read it, only what is said in the open.
            let told = |e: &&umpire_core::ruleset::Event| {
                viewer.sees(&e.audience)
                    && if reads {
                        !e.open || o.audience.is_public()
                    } else {
                        e.open
                    }
            };
            let events: Vec<String> = o
                .outcome
                .as_ref()
                .map(|ev| ev.iter().filter(told).map(|e| e.text.clone()).collect())
                .unwrap_or_default();
            if !reads {
                return (!events.is_empty()).then(|| OrderCtx {
                    text: String::new(),
                    events,
                    failed: None,
                });
            }
            Some(OrderCtx {
                text: o.source.text.clone(),
                events,
                failed: o.outcome.as_ref().err().cloned(),
            })
        })
        .collect()
}

/// May `viewer` read order `o` of `mover`'s move (its own always)?
fn reads_order(o: &umpire_core::game::OrderReport, mover: Option<Side>, viewer: Viewer) -> bool {
    mover.is_some_and(|m| viewer.sees_own(m)) || viewer.sees(&o.audience)
}

fn seen(events: &[umpire_core::ruleset::Event], viewer: Viewer) -> Vec<String> {
    events
        .iter()
        .filter(|e| viewer.sees(&e.audience))
        .map(|e| e.text.clone())
        .collect()
}

pub(super) fn report_ctx(
    ruleset: &dyn umpire_core::ruleset::DynRuleset,
    r: &Report,
    seq: u64,
    names: &[String],
    received: Option<String>,
    viewer: Viewer,
) -> ReportCtx {
    ReportCtx {
        seq,
        mover: r.side.map(|s| names[s.index()].clone()),
        mover_of: r.side.map(|s| possessive(&names[s.index()])),
        by_default: r.by_default,
        reason: r.reason.clone(),
        received,
        standing: seen(&r.standing, viewer),
        orders: orders_ctx(&r.orders, r.side, viewer),
        end: seen(&r.end, viewer),
        parts: r
            .round
            .iter()
            .map(|p| PartCtx {
                side: names[p.side.index()].clone(),
                side_of: possessive(&names[p.side.index()]),
                by_default: p.by_default,
                standing: seen(&p.standing, viewer),
                orders: orders_ctx(&p.orders, Some(p.side), viewer),
                end: seen(&p.end, viewer),
            })
            .collect(),
        rolls: r
            .rolls_for(viewer)
            .map(|x| RollCtx {
                sides: x.sides,
                value: x.value,
                // The ruleset's words with the label the record keeps.
                label: umpire_core::ruleset::roll_title(ruleset, &x.label),
            })
            .collect(),
        hidden_rolls: r.rolls.len() - r.rolls_for(viewer).count(),
        position: r.position,
        not_carried_out: not_carried_out_note(r, names, viewer),
    }
}

/// The note at the top of a result mail when orders of its move were not
/// carried out (a phase that ended, a unit lost on the way…): a mail that
/// did only part of what its sender wrote must not read as a success.
/// Counts the orders `viewer` may read; empty when every one was carried out.
fn not_carried_out_note(r: &Report, names: &[String], viewer: Viewer) -> String {
    let mut t = String::new();
    let moves = r.side.map(|s| (s, &r.orders)).into_iter();
    let parts = r.round.iter().map(|p| (p.side, &p.orders));
    for (side, orders) in moves.chain(parts) {
        let shown = orders_ctx(orders, Some(side), viewer);
        let failed: Vec<&OrderCtx> = shown.iter().filter(|o| o.failed.is_some()).collect();
        if failed.is_empty() {
            continue;
        }
        let whose = if viewer.side() == Some(side) {
            "your".to_string()
        } else {
            format!("{}'s", names[side.index()])
        };
        let head = format!(
            "ATTENTION: {} of {whose} {} {} NOT CARRIED OUT",
            failed.len(),
            shown.len(),
            if shown.len() == 1 {
                "order was"
            } else {
                "orders were"
            },
        );
        let why = |o: &OrderCtx| o.failed.clone().unwrap_or_default();
        let one_reason = failed.iter().all(|o| why(o) == why(failed[0]));
        let wrap = |s: String, i| umpire_render::templates::wrap(s, Some(72), Some(i));
        if one_reason {
            t.push_str(&wrap(format!("{head}, because: {}", why(failed[0])), 2));
            t.push('\n');
            t.push_str(if failed.len() == 1 {
                "That order:\n"
            } else {
                "Those orders:\n"
            });
            for o in &failed {
                t.push_str(&wrap(format!("  > {}", o.text), 6));
                t.push('\n');
            }
        } else {
            t.push_str(&wrap(format!("{head}:"), 2));
            t.push('\n');
            for o in &failed {
                t.push_str(&wrap(format!("  > {}: {}", o.text, why(o)), 6));
                t.push('\n');
            }
        }
    }
    t
}

/// A refusal's reason as its mail shows it, with one head to write against:
/// a stale move's reason (as the record keeps it, and its verifier derives
/// it again) names the head the game stood at when the move was judged, and
/// the refusal then became a newer head, the one the mail ends with. Each
/// record head the reason names other than `head` becomes "the record head
/// below", so the player meets one head only.
fn one_head(reason: &str, head: &str) -> String {
    let mut out = String::with_capacity(reason.len());
    let mut rest = reason;
    while let Some(i) = rest.find(|c: char| c.is_ascii_hexdigit()) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let n = rest
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(rest.len());
        let word = &rest[..n];
        let whole = out.is_empty() || !out.ends_with(|c: char| c.is_ascii_alphanumeric());
        if whole && n == head.len() && word != head {
            out.push_str("the record head below");
        } else {
            out.push_str(word);
        }
        rest = &rest[n..];
    }
    out.push_str(rest);
    out
}

fn first_words(s: &str, n: usize) -> String {
    let w: Vec<&str> = s.split_whitespace().take(n).collect();
    let mut t = w.join(" ");
    if s.split_whitespace().count() > n {
        t.push('…');
    }
    t
}

#[cfg(test)]
mod observer_tests {
    use super::observer_tag;

    #[test]
    fn an_observers_keys_follow_its_address_not_its_place_in_the_list() {
        let a = observer_tag("kibitzer@club.test");
        assert_eq!(a, observer_tag(" Kibitzer@Club.test"));
        assert_ne!(a, observer_tag("other@club.test"));
        assert!(a.starts_with("observer-") && a.len() == "observer-".len() + 12);
        assert!(a.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
    }
}
