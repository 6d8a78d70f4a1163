//! The built-in `templates/result.txt`, rendered without the template engine.
//!
//! Every result mail's text comes from that template, and interpreting it
//! was a quarter of the adjudicating thread's time in a poll (issue 13). This
//! writes exactly what the template writes for the same context (once
//! `templates::tidy` has run over both: blank-line runs and trailing blanks
//! are its business, not this file's). A club that overrides `result.txt`
//! gets its own template through the engine. The test
//! `native_result_text_is_the_templates` renders both over games of every
//! ruleset and asserts they are equal; change the two together.

use super::compose::{OrderCtx, ResultCtx};
use std::fmt::Write;
use umpire_render::templates::wrap;

/// Jinja's truth of an optional string: absent and empty are false.
fn truthy(s: &Option<String>) -> bool {
    s.as_ref().is_some_and(|s| !s.is_empty())
}

/// `wrap` as the template calls it, appended with a line end.
fn line(out: &mut String, prefix: &str, text: String, width: usize, indent: usize) {
    out.push_str(prefix);
    out.push_str(&wrap(text, Some(width), Some(indent)));
    out.push('\n');
}

/// The text of `result.txt` for `c`, before `tidy`.
pub(super) fn render(c: &ResultCtx) -> String {
    let mut out = String::with_capacity(4096);
    let o = &mut out;
    line(
        o,
        "",
        format!("Game {}: {}", c.game.id, c.game.title),
        72,
        2,
    );
    o.push('\n');
    if !c.report.not_carried_out.is_empty() {
        o.push_str(&c.report.not_carried_out);
        o.push('\n');
    }
    report(o, c);
    situation(o, c);
    next(o, c);
    proof(o, c);
    out
}

/// What happened: the mover's orders, an admin's act, the set-up, a sealed
/// round's parts, and the dice.
fn report(o: &mut String, c: &ResultCtx) {
    let r = &c.report;
    let mover = truthy(&r.mover);
    let parts = !r.parts.is_empty();
    if mover {
        let who = r.mover.as_deref().unwrap_or_default();
        let _ = writeln!(o, "== What happened (record entry {}) ==", r.seq);
        if r.by_default {
            let _ = writeln!(
                o,
                "{who} sent no orders in time; the umpire applied the stated default."
            );
            let _ = writeln!(o, "Why: {}", r.reason);
        } else {
            let who = r.mover_of.as_deref().unwrap_or_default();
            let _ = write!(o, "{who} move");
            if truthy(&r.received) {
                let _ = write!(o, ", sent {}", r.received.as_deref().unwrap_or_default());
            }
            o.push_str(":\n");
        }
        for e in &r.standing {
            let _ = writeln!(o, "  standing orders: {e}");
        }
        if !r.by_default && r.standing.is_empty() && r.orders.is_empty() && r.end.is_empty() {
            // A move the fog of war hides whole (another side's set-up):
            // say so rather than leave the heading over nothing.
            o.push_str("  (nothing of it you may see: the rules keep it from you)\n");
        }
        orders(o, &r.orders);
        end(o, &r.end);
        o.push('\n');
    }
    if !mover && !parts && !r.standing.is_empty() {
        if r.seq > 0 {
            let _ = writeln!(o, "== The club's admin (record entry {}) ==", r.seq);
        } else {
            o.push_str("== The set-up ==\n");
        }
        for e in &r.standing {
            line(o, "  ", e.clone(), 70, 2);
        }
        if r.seq > 0 && !r.reason.is_empty() {
            line(o, "  ", format!("Why: {}", r.reason), 70, 2);
        }
        o.push('\n');
    }
    if parts {
        let _ = writeln!(
            o,
            "== The round's orders, opened together (record entry {}) ==",
            r.seq
        );
        for p in &r.parts {
            if p.by_default {
                let _ = writeln!(
                    o,
                    "{} sent no orders in time; the umpire applied the stated default:",
                    p.side
                );
            } else {
                let _ = writeln!(o, "{} orders:", p.side_of);
            }
            for e in &p.standing {
                let _ = writeln!(o, "  standing orders: {e}");
            }
            if p.orders.is_empty() && p.standing.is_empty() {
                o.push_str("  (none you may see: the rules keep them from you)\n");
            }
            orders(o, &p.orders);
            end(o, &p.end);
        }
        o.push('\n');
    }
    if (mover || parts || r.seq == 0) && (!r.rolls.is_empty() || r.hidden_rolls > 0) {
        o.push_str("== Dice");
        if let Some(p) = r.position {
            let _ = write!(o, " (position {p})");
        }
        o.push_str(" ==\n");
        for (i, roll) in r.rolls.iter().enumerate() {
            let text = format!("d{} = {}   {}", roll.sides, roll.value, roll.label);
            line(o, &format!("  {:>2}. ", i + 1), text, 66, 8);
        }
        if r.hidden_rolls > 0 {
            let _ = writeln!(
                o,
                "  (+{} hidden from you: sealed in the record until the end)",
                r.hidden_rolls
            );
        }
        o.push('\n');
    }
}

/// Order lines with their events and, if one failed, why; of an order the
/// reader may not read (no text), its open events where the line would be.
fn orders(o: &mut String, orders: &[OrderCtx]) {
    for order in orders {
        if order.text.is_empty() {
            end(o, &order.events);
            continue;
        }
        let _ = writeln!(o, "  > {}", order.text);
        for e in &order.events {
            line(o, "      ", e.clone(), 66, 8);
        }
        if truthy(&order.failed) {
            let why = order.failed.as_deref().unwrap_or_default();
            line(o, "      ", format!("NOT CARRIED OUT: {why}"), 66, 10);
        }
    }
}

/// The events of the end of a move, after its orders.
fn end(o: &mut String, events: &[String]) {
    for e in events {
        line(o, "  ", e.clone(), 70, 2);
    }
}

/// What a result mail says of its picture of the action.
const PICTURE_NOTE: &str = "The attached map.png draws the map around this action, with its key;\n`command: map` mails the whole map.\n";

/// The situation as the reader sees it: status, map, own forces.
fn situation(o: &mut String, c: &ResultCtx) {
    o.push_str("== The situation");
    if truthy(&c.side) {
        let _ = write!(o, ", as {} sees it", c.side.as_deref().unwrap_or_default());
    }
    o.push_str(" ==\n");
    for l in &c.status {
        line(o, "", l.clone(), 72, 2);
    }
    if !c.map.is_empty() {
        o.push('\n');
        o.push_str(&c.map);
        o.push('\n');
        if c.action_picture {
            o.push_str(PICTURE_NOTE);
        }
    }
    if !c.own_forces.is_empty() {
        o.push_str("\nYour forces:\n");
        o.push_str(&indent_all(&c.own_forces, 2));
        o.push('\n');
    }
    o.push('\n');
}

/// What comes next: the end, or who is awaited and, for the reader, how to move.
fn next(o: &mut String, c: &ResultCtx) {
    if truthy(&c.finished) {
        o.push_str("== GAME OVER ==\n");
        o.push_str(c.finished.as_deref().unwrap_or_default());
        o.push('\n');
    } else {
        o.push_str("== Next ==\n");
        line(o, "", format!("{}.", c.stage), 72, 2);
        for a in &c.awaiting {
            line(o, "", format!("Waiting for {}: {}", a.side, a.ask), 72, 4);
            if truthy(&a.deadline) {
                let _ = writeln!(
                    o,
                    "  deadline {}",
                    a.deadline.as_deref().unwrap_or_default()
                );
            }
        }
        if c.you_act {
            o.push_str(concat!(
                "\n",
                "It is your move. Write a file like this (the `after:` line must be\n",
                "exactly the record head below), sign it and mail it back:\n",
                "\n",
            ));
            o.push_str(&c.move_template);
            o.push_str(concat!(
                "\n",
                "Sign:  umpire sign --key ~/.ssh/id_ed25519 move.txt\n",
                "   or  ssh-keygen -Y sign -n umpire-move -f ~/.ssh/id_ed25519 move.txt\n",
                "then attach move.txt and move.txt.sig (or paste the output of\n",
                "`umpire sign --armor move.txt` into the mail body).\n",
            ));
            if !c.default.is_empty() {
                let text = format!(
                    "If nothing arrives in time, the umpire applies: {}",
                    c.default
                );
                line(o, "", text, 72, 2);
            }
        }
    }
    if !c.standing.is_empty() {
        o.push_str("\nYour standing orders:\n");
        for l in &c.standing {
            line(o, "  ", l.clone(), 70, 2);
        }
    }
}

/// The record head, the dice secrets opened, and how to check them.
fn proof(o: &mut String, c: &ResultCtx) {
    let _ = write!(
        o,
        "\n== Proof ==\nRecord head (entry {}):\n  {}\n",
        c.head_seq, c.head
    );
    for r in &c.reveals {
        let _ = write!(
            o,
            "Dice secret of position {}:\n  {}\n",
            r.position, r.secret
        );
    }
    o.push_str(WHOLE_RECORD);
    if truthy(&c.finished) {
        o.push_str(concat!(
            "\nA long game's whole record comes compressed, as record.txt.gz (with the\n",
            "same record.txt.sig): umpire verify record.txt.gz reads it as it is.\n",
        ));
    }
}

/// The proof's last lines when the mail attaches the whole record.
const WHOLE_RECORD: &str = concat!(
    "The attached record.txt holds every move, roll and refusal of this game;\n",
    "record.txt.sig is the umpire's signature over it (namespace\n",
    "umpire-result).\n",
    "Check everything yourself with:  umpire verify record.txt\n",
);

/// `text` with its proof naming the record file the mail attaches: a part
/// (`record-A-B.txt`, the entries since the side's last mail) is verified
/// together with the files before it, which a player must be told, since
/// the mail holds no `record.txt` to run the command on.
pub(super) fn name_record_file(text: String, file: &str) -> String {
    if file == "record.txt" || !text.contains(WHOLE_RECORD) {
        return text;
    }
    let part = format!(
        "The attached {file} holds the record's entries since your\n\
         last mail; {file}.sig is the umpire's signature over it\n\
         (namespace umpire-result). With the record.txt of your opening\n\
         mail and the parts since, check everything yourself with:\n\
         \x20 umpire verify record.txt record-*.txt\n\
         (or `umpire verify` on the folder of the game's mails).\n"
    );
    text.replacen(WHOLE_RECORD, &part, 1)
}

/// Every line of `text` indented by `width` (the template's
/// `indent(width, true)`: the first line too, a final line end dropped).
fn indent_all(text: &str, width: usize) -> String {
    let text = text.strip_suffix('\n').unwrap_or(text);
    let text = text.strip_suffix('\r').unwrap_or(text);
    let pad = " ".repeat(width);
    let mut out = String::with_capacity(text.len() + 8 * width);
    for l in text.split('\n') {
        if !(l.is_empty() || l == "\r") {
            out.push_str(&pad);
        }
        out.push_str(l);
        out.push('\n');
    }
    out.pop();
    if out.ends_with('\r') {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::Umpire;
    use super::super::games::GameMeta;
    use std::collections::BTreeMap;
    use umpire_core::game::{Game, ReplayMode};
    use umpire_core::record::Record;
    use umpire_core::ruleset::{Side, Viewer};
    use umpire_core::selfplay::{SelfPlayConfig, random_game};
    use umpire_render::templates::{Templates, tidy};

    /// Renders entry `seq` of `game` for every reader both ways, and for a few
    /// contexts with empty strings where the template tests truth.
    fn both_ways_equal(u: &Umpire, engine: &Templates, game: &Game, seq: u64, label: &str) {
        let now: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
        let meta = GameMeta::default();
        let readers = (0..game.sides().len())
            .map(|i| Viewer::Side(Side(i as u8)))
            .chain([Viewer::Public, Viewer::Umpire]);
        for reader in readers {
            let mut ctx = u.result_ctx(game, &meta, seq, reader, now);
            let check = |ctx: &super::ResultCtx, how: &str| {
                let template = engine.render("result.txt", ctx).unwrap();
                let native = tidy(&super::render(ctx));
                assert_eq!(native, template, "{label}, entry {seq}, {reader:?}{how}");
            };
            check(&ctx, "");
            if seq.is_multiple_of(7) {
                // Jinja's truth: an empty string is false, as absent is.
                ctx.report.mover = ctx.report.mover.map(|_| String::new());
                ctx.report.received = Some(String::new());
                ctx.side = ctx.side.map(|_| String::new());
                for a in &mut ctx.awaiting {
                    a.deadline =
                        Some("2026-12-03 12:00 UTC (in 2 days); then 24 hours' grace".into());
                }
                for o in &mut ctx.report.orders {
                    o.failed = o.failed.take().or(Some(String::new()));
                }
                ctx.own_forces = "a\n\nb\n".into();
                check(&ctx, ", emptied");
            }
        }
    }

    /// The native `result.txt` is the template's, over games of every ruleset
    /// and scenario cut at several points (each cut a different situation and
    /// prompt), for every entry's report near the cut and every reader.
    #[test]
    fn native_result_text_is_the_templates() {
        let dir = tempfile::tempdir().unwrap();
        Umpire::init(dir.path(), "umpire@club.test").unwrap();
        let u = Umpire::open(dir.path()).unwrap();
        let engine = Templates::load(None).unwrap();
        let mut checked = 0;
        for ruleset in umpire_games::all() {
            let info = ruleset.info();
            let mut options = BTreeMap::new();
            if info.name == "freeform" {
                options.insert("turns".to_string(), "6".to_string());
            }
            // Asia Crossroads plays slowly: one of its scenarios.
            let scenarios = if info.name == "ac" { 1 } else { 3 };
            for (n, scenario) in info.scenarios.iter().enumerate().take(scenarios) {
                let play = |max_entries| {
                    let config = SelfPlayConfig {
                        max_entries,
                        ..Default::default()
                    };
                    let seed = 77 + n as u64;
                    match random_game(ruleset.clone(), &scenario.name, &options, 0, seed, &config) {
                        Ok((game, _)) => game,
                        // Cut before its end: the game so far, every report kept.
                        Err(cut) => {
                            let record = Record::from_text(&cut.record).unwrap();
                            Game::replay_owned(ruleset.clone(), record, ReplayMode::Trusted)
                                .unwrap()
                                .0
                        }
                    }
                };
                let whole = play(300);
                let len = whole.record().len() as u64;
                for cut in [1, 2, 3, 5, len / 8, len / 3, len / 2, (len * 3) / 4] {
                    if cut < 1 || cut >= len {
                        continue;
                    }
                    let game = play(cut);
                    let head = game.record().len() as u64;
                    for seq in (head.saturating_sub(12)..head).chain([0]) {
                        both_ways_equal(&u, &engine, &game, seq, &info.name);
                        checked += 1;
                    }
                }
                // Every entry of a short game; a long game's spread over 200.
                for seq in (0..len).step_by((len / 200).max(1) as usize) {
                    both_ways_equal(&u, &engine, &whole, seq, &info.name);
                    checked += 1;
                }
            }
        }
        assert!(checked > 500, "{checked} entries checked");
    }

    /// A club's own `result.txt` is rendered by the engine, not replaced by
    /// the native text.
    #[test]
    fn a_clubs_result_template_replaces_the_native_text() {
        let dir = tempfile::tempdir().unwrap();
        Umpire::init(dir.path(), "umpire@club.test").unwrap();
        let templates = dir.path().join(super::super::layout::TEMPLATES);
        std::fs::create_dir_all(&templates).unwrap();
        std::fs::write(
            templates.join("result.txt"),
            "Club text for {{ side }} at entry {{ report.seq }}.\n",
        )
        .unwrap();
        let u = Umpire::open(dir.path()).unwrap();
        let ruleset = umpire_games::find("freeform").unwrap();
        let options = BTreeMap::from([("turns".to_string(), "2".to_string())]);
        let (game, _) =
            random_game(ruleset, "open", &options, 0, 5, &SelfPlayConfig::default()).unwrap();
        let now: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
        let text = u
            .result_text(&game, &GameMeta::default(), 1, Viewer::Side(Side(1)), now)
            .unwrap();
        assert_eq!(text, "Club text for south at entry 1.\n");
        // Without the club's file, the built-in text.
        std::fs::remove_file(templates.join("result.txt")).unwrap();
        drop(u);
        let u = Umpire::open(dir.path()).unwrap();
        let text = u
            .result_text(&game, &GameMeta::default(), 1, Viewer::Side(Side(1)), now)
            .unwrap();
        assert!(text.starts_with("Game selfplay-0: "), "{text}");
    }
}
