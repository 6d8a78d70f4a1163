//! The map pictures: a Sarhu game's result mails carry `map.png`, which decodes
//! to the SVG's size with each counter's command colour at its hex; every map kind's
//! SVG parses as XML; the mail stays under 300 KB, Asia Crossroads' 40×40 grid
//! included; the same board gives the same bytes twice.

use umpire_testkit as common;

use common::{key, move_mail, outbox, table};
use resvg::tiny_skia::Pixmap;
use std::collections::BTreeMap;
use umpire::core::board::{Board, Place};
use umpire::core::ruleset::Viewer;
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;
use umpire::service::games::NewGame;

/// The largest a result mail with its map may be (issue 11).
const MAX_MAIL: usize = 300 * 1024;

fn rgb(hex: &str) -> [u8; 3] {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

fn near(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 24)
}

/// A Sarhu game by mail, a few legal moves in; returns the club directory.
fn sarhu_club(tmp: &std::path::Path, moves: u64) -> std::path::PathBuf {
    sarhu_club_playing(tmp, moves, |legal| legal[0].clone())
}

/// A Sarhu club's data directory after `moves` moves, each of the order
/// `pick` chooses among the legal ones, and every mail delivered.
fn sarhu_club_playing(
    tmp: &std::path::Path,
    moves: u64,
    pick: impl Fn(&[String]) -> String,
) -> std::path::PathBuf {
    let dir = tmp.join("club");
    Umpire::init(&dir, "umpire@club.test").unwrap();
    let mut u = Umpire::open(&dir).unwrap();
    let now: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
    u.create_game(
        NewGame {
            id: "sarhu-1".into(),
            ruleset: "sarhu".into(),
            scenario: "historical".into(),
            options: BTreeMap::new(),
            deadlines: None,
            time_zones: BTreeMap::new(),
            sides: vec![
                ("ming".into(), "ming@club.test".into(), key(1).public_line()),
                (
                    "jurchen".into(),
                    "jurchen@club.test".into(),
                    key(2).public_line(),
                ),
            ],
        },
        now,
    )
    .unwrap();
    let mut md = Maildir::open(&dir.join("maildir")).unwrap();
    let mut ob = FileOutbox::open(&dir.join("outbox")).unwrap();
    for n in 1..=moves {
        let g = u.game("sarhu-1").unwrap();
        let side = g.prompt().awaiting[0].side;
        let name = g.sides()[side.index()].name.clone();
        let legal = g.ruleset().legal_moves(g.state(), side);
        let mut text = format!(
            "game: sarhu-1\nside: {name}\nafter: {}\norders:\n",
            g.record().head()
        );
        for line in pick(&legal).lines() {
            text.push_str(&format!("  {line}\n"));
        }
        let sig = key(side.0 + 1)
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        let mail = move_mail(
            &format!("{name}@club.test"),
            "umpire@club.test",
            n,
            &text,
            &sig,
            false,
        );
        md.deliver(&format!("{n:05}"), &mail).unwrap();
        assert_eq!(u.poll(&mut md, now).unwrap().accepted, 1, "{text}");
    }
    u.deliver(&mut ob, now).unwrap();
    dir
}

#[test]
fn sarhu_result_mails_carry_a_png_with_each_counter_in_its_command_colour() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = sarhu_club(tmp.path(), 2);
    let mails = outbox(&dir.join("outbox"));
    let (name, mail) = mails
        .iter()
        .rfind(|(k, _)| k.contains(".ming"))
        .expect("a result mail to the Ming");
    let raw = std::fs::read(dir.join("outbox").join(name)).unwrap();
    assert!(raw.len() < MAX_MAIL, "{name}: {} bytes", raw.len());
    let png = &mail
        .attachments
        .iter()
        .find(|a| a.name == "map.png")
        .expect("map.png attached")
        .bytes;
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    let pix = Pixmap::decode_png(png).unwrap();

    // The picture is the board the Ming see now, drawn whole.
    let mut u = Umpire::open(&dir).unwrap();
    let g = u.game("sarhu-1").unwrap();
    let side = g.side("ming").unwrap();
    let board = g
        .ruleset()
        .view(g.state(), umpire::core::ruleset::Viewer::Side(side))
        .board
        .unwrap();
    let svg = umpire::render::svg::svg(&board, &[]);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let w: f64 = doc
        .root_element()
        .attribute("width")
        .unwrap()
        .parse()
        .unwrap();
    let h: f64 = doc
        .root_element()
        .attribute("height")
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        (pix.width(), pix.height()),
        (w.round() as u32, h.round() as u32)
    );

    let Board::Hex(hb) = &board else {
        panic!("Sarhu is a hex map")
    };
    let mut checked = BTreeMap::new();
    let mut colours = std::collections::BTreeSet::new();
    for (hex, cell) in &hb.cells {
        let Some(top) = cell.units.first() else {
            continue;
        };
        let s = top.side.expect("Sarhu units have a side");
        let want = rgb(umpire::render::svg::counter_colour(&board, top));
        colours.insert(top.colour.clone().expect("Sarhu counters have colours"));
        let (x, y) = umpire::render::svg::hex_counter_probe(hb, *hex);
        let p = pix.pixel(x.round() as u32, y.round() as u32).unwrap();
        let got = [p.red(), p.green(), p.blue()];
        assert!(
            near(got, want),
            "{hex} ({}): {got:?}, want {want:?}",
            top.id
        );
        *checked.entry(s).or_insert(0) += 1;
    }
    assert_eq!(
        checked.len(),
        2,
        "both sides' counters on the map: {checked:?}"
    );
    assert_ne!(
        umpire::render::svg::side_colour(&board, 'M'),
        umpire::render::svg::side_colour(&board, 'J')
    );
    // 2.4(1): each command's counters in its colour; on the map at set-up
    // Du Song orange, Li Rubai green, Ma Lin pink, and the Jurchen commands.
    for c in ["orange", "green", "pink", "gold", "white"] {
        assert!(colours.contains(c), "{c} counters drawn: {colours:?}");
    }
    let fills: std::collections::BTreeSet<_> = colours
        .iter()
        .map(|c| umpire::render::svg::counter_colour(&board, &top_of(&board, c)))
        .collect();
    assert_eq!(fills.len(), colours.len(), "each colour its own fill");
}

/// A Sarhu counter of colour `c` on `board`.
fn top_of(board: &Board, c: &str) -> umpire::core::board::Unit {
    let Board::Hex(hb) = board else { panic!() };
    hb.cells
        .values()
        .flat_map(|cell| &cell.units)
        .find(|u| u.colour.as_deref() == Some(c))
        .cloned()
        .unwrap()
}

#[test]
fn every_map_kind_draws_valid_svg_and_the_same_bytes_twice() {
    let mut drawn = Vec::new();
    for (ruleset, sides) in [
        ("sarhu", &["ming", "jurchen"][..]),
        ("ldf", &["roman", "gp"][..]),
        ("ac", &["british", "russian"][..]),
        (
            "adp",
            &["coalition", "government", "taliban", "warlords"][..],
        ),
    ] {
        let rs = umpire::games::find(ruleset).unwrap();
        let scenario = rs.info().scenarios[0].name.clone();
        let t = table(ruleset, &scenario, sides, &[]);
        let g = &t.game;
        for viewer in [
            umpire::core::ruleset::Viewer::Public,
            umpire::core::ruleset::Viewer::Side(umpire::core::ruleset::Side(0)),
        ] {
            // Lest Darkness Fall's view has no board yet (its mails list stacks).
            let Some(board) = g.ruleset().view(g.state(), viewer).board else {
                continue;
            };
            drawn.push(ruleset);
            let focus: Vec<Place> = Vec::new();
            let svg = umpire::render::svg::svg(&board, &focus);
            let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{ruleset}: {e}"));
            assert_eq!(doc.root_element().tag_name().name(), "svg");
            assert_eq!(svg, umpire::render::svg::svg(&board, &focus), "{ruleset}");
            let png = umpire::render::svg::png(&board, &focus).unwrap();
            // The second time its base layer is the kept one: the same bytes.
            assert_eq!(png, umpire::render::svg::png(&board, &focus).unwrap());
            // Drawn sheet over sheet, the picture is the whole SVG drawn at
            // once, up to the rounding of the laid-over names' edges.
            let whole = umpire::render::svg::raster::png(&svg).unwrap();
            let (a, b) = (
                Pixmap::decode_png(&png).unwrap(),
                Pixmap::decode_png(&whole).unwrap(),
            );
            let (mean, off) = diff(&a, &b);
            assert!(
                mean < 0.05 && off == 0.0,
                "{ruleset}: layered differs from whole: mean {mean}, {off} off"
            );
            // With the record and its signature, a mail stays under the cap.
            assert!(
                png.len() < MAX_MAIL - 100 * 1024,
                "{ruleset}: {} bytes",
                png.len()
            );
            if let Ok(keep) = std::env::var("KEEP_PICTURES") {
                std::fs::create_dir_all(&keep).unwrap();
                std::fs::write(format!("{keep}/{ruleset}.svg"), &svg).unwrap();
                std::fs::write(format!("{keep}/{ruleset}.png"), &png).unwrap();
                // And the picture a result mail carries: around a stack.
                let focus: Vec<Place> = match &board {
                    Board::Hex(b) => b
                        .cells
                        .iter()
                        .filter(|(_, c)| !c.units.is_empty())
                        .map(|(h, _)| Place::Hex(*h))
                        .take(1)
                        .collect(),
                    Board::Square(b) => b
                        .cells
                        .iter()
                        .filter(|(_, c)| !c.units.is_empty())
                        .map(|(s, _)| Place::Square(*s))
                        .take(1)
                        .collect(),
                    Board::Points(b) => b
                        .spaces
                        .iter()
                        .filter(|(_, s)| !s.units.is_empty())
                        .map(|(s, _)| Place::Space(*s))
                        .take(1)
                        .collect(),
                };
                let action = umpire::render::svg::picture(&board, &focus)
                    .action_png()
                    .unwrap();
                std::fs::write(format!("{keep}/{ruleset}-action.png"), &action).unwrap();
            }
        }
    }
    // A hex map, a square grid and a point-to-point map, each for all and for a side.
    for kind in ["sarhu", "ac", "adp"] {
        assert_eq!(
            drawn.iter().filter(|r| **r == kind).count(),
            2,
            "{kind}: {drawn:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// The game page (`umpire site`) and what a browser makes of it.

/// Headless Chromium, if installed (Debian's `chromium`). In CI its absence
/// fails the test (`.ci/run` installs it); elsewhere the test says it skips.
fn chromium(test: &str) -> Option<std::path::PathBuf> {
    let p = std::path::PathBuf::from("/usr/bin/chromium");
    if p.is_file() {
        return Some(p);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{test}: /usr/bin/chromium is missing in CI (.ci/run installs chromium)"
    );
    eprintln!("SKIPPED {test}: no /usr/bin/chromium (apt-get install chromium fonts-dejavu-core)");
    None
}

fn headless(chromium: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--allow-file-access-from-files",
            "--virtual-time-budget=5000",
            // Every tile painted before the screenshot: without it the
            // map's lower right (its key) was at times still blank.
            "--run-all-compositor-stages-before-draw",
        ])
        .args(args)
        .output()
        .expect("chromium runs")
}

/// A Sarhu club with its one game public, two moves in, and its site written.
fn sarhu_site(tmp: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = sarhu_club(tmp, 2);
    let mut u = Umpire::open(&dir).unwrap();
    u.set_public("sarhu-1", true).unwrap();
    let out = tmp.join("site");
    let now: jiff::Timestamp = "2026-12-01T11:00:00Z".parse().unwrap();
    let r = u.write_site(&out, now).unwrap();
    assert_eq!(r.games, ["sarhu-1"]);
    (dir, out)
}

/// Every poll that changed something writes the site again, most of its
/// games unchanged: a game page's map is drawn again only when the picture
/// is not the one noted as written there, or the page lost it.
#[test]
fn a_game_page_s_map_is_drawn_again_only_when_its_picture_changed_or_is_lost() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, out) = sarhu_site(tmp.path());
    let map = out.join("sarhu-1/map.png");
    let drawn = std::fs::read(&map).unwrap();
    let now: jiff::Timestamp = "2026-12-01T11:00:00Z".parse().unwrap();
    let mut u = Umpire::open(&dir).unwrap();
    // A stand-in for the picture written: left as it is, the game unchanged.
    std::fs::write(&map, b"kept").unwrap();
    u.write_site(&out, now).unwrap();
    assert_eq!(std::fs::read(&map).unwrap(), b"kept");
    // Lost from the page: drawn again, the same picture.
    std::fs::remove_file(&map).unwrap();
    u.write_site(&out, now).unwrap();
    assert_eq!(std::fs::read(&map).unwrap(), drawn);
    // Noted as another picture (the game moved on since): drawn again.
    std::fs::write(&map, b"kept").unwrap();
    let notes: Vec<_> = std::fs::read_dir(dir.join("cache/pictures"))
        .unwrap()
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "site"))
        .collect();
    assert_eq!(notes.len(), 1, "one page's note");
    std::fs::write(&notes[0], "another picture").unwrap();
    u.write_site(&out, now).unwrap();
    assert_eq!(std::fs::read(&map).unwrap(), drawn);
}

#[test]
fn the_site_has_a_page_per_public_game_with_map_log_and_a_record_that_verifies() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, out) = sarhu_site(tmp.path());
    let page = std::fs::read_to_string(out.join("sarhu-1/index.html")).unwrap();
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("href=\"sarhu-1/index.html\""), "{index}");
    // The index says what each game is, where it stands and whom it awaits.
    let row = index
        .split("<tr id=\"game-sarhu-1\">")
        .nth(1)
        .and_then(|r| r.split("</tr>").next())
        .unwrap_or_else(|| panic!("a row for sarhu-1: {index}"));
    assert!(row.contains("<code>sarhu</code>"), "{row}");
    assert!(row.contains("Turn 1"), "its stage: {row}");
    assert!(
        row.contains("<strong>ming</strong>") || row.contains("<strong>jurchen</strong>"),
        "whom it waits for: {row}"
    );
    assert!(
        row.contains("orders, by Fri 4 Dec 2026 10:00 UTC"),
        "until when: {row}"
    );
    assert!(index.contains("<style>"), "styled like the game pages");
    assert!(
        page.contains("src=\"map.png\"") && !page.contains("<script"),
        "{page}"
    );
    // On a phone the map shrinks to the screen's width: a tap opens it whole.
    assert!(
        page.contains("<a href=\"map.png\"") && page.contains("<img class=\"map\""),
        "the map links to itself at full size: {page}"
    );
    assert!(
        page.matches("<li value=").count() >= 3,
        "set-up and two moves: {page}"
    );
    assert!(
        page.contains(
            "<li value=\"1\" id=\"entry-0\">\n<span class=\"entry\">record entry 0:</span>"
        ),
        "the log counts from 1 and names each item's record entry: {page}"
    );
    assert!(
        page.contains("<code class=\"order\">"),
        "the orders are listed: {page}"
    );
    Pixmap::decode_png(&std::fs::read(out.join("sarhu-1/map.png")).unwrap()).unwrap();
    // The record offered is the observer's copy, and it verifies.
    let mut u = Umpire::open(&dir).unwrap();
    let g = u.game("sarhu-1").unwrap();
    let public =
        umpire::service::compose::record_copy(g, umpire::core::ruleset::Viewer::Public).to_text();
    let rec = out.join("sarhu-1/record.txt");
    assert_eq!(std::fs::read_to_string(&rec).unwrap(), public);
    let v = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("verify")
        .arg(&rec)
        .output()
        .unwrap();
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stdout));
    // A private game gets no page.
    u.set_public("sarhu-1", false).unwrap();
    let r = u
        .write_site(&out, "2026-12-01T12:00:00Z".parse().unwrap())
        .unwrap();
    assert!(r.games.is_empty());
    assert!(
        std::fs::read_to_string(out.join("index.html"))
            .unwrap()
            .contains("No public games")
    );
}

#[test]
fn in_headless_chromium_the_page_shows_its_map_and_lists_the_moves_and_the_index_its_games() {
    let Some(chromium) = chromium(
        "in_headless_chromium_the_page_shows_its_map_and_lists_the_moves_and_the_index_its_games",
    ) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (_, out) = sarhu_site(tmp.path());
    // A probe page beside the site reads the game page through an iframe: the
    // game page itself needs no script.
    std::fs::write(
        out.join("probe.html"),
        r#"<html><body><iframe id="f" src="sarhu-1/index.html" width="1600" height="1200"></iframe><iframe id="i" src="index.html" width="1200" height="600"></iframe><script>
window.addEventListener('load', () => {
  const ix = document.getElementById('i').contentDocument;
  const row = ix.getElementById('game-sarhu-1');
  document.body.setAttribute('data-index', row ? row.querySelectorAll('td').length + '|' + row.querySelector('td.awaiting').textContent + '|' + getComputedStyle(row.querySelector('td')).borderBottomStyle : 'none');
  const d = document.getElementById('f').contentDocument;
  const img = d.getElementById('map');
  document.body.setAttribute('data-map', img && img.complete ? img.naturalWidth + 'x' + img.naturalHeight : 'none');
  document.body.setAttribute('data-log', Array.from(d.querySelectorAll('#log > li')).map(li => li.value).join(','));
  document.body.setAttribute('data-orders', Array.from(d.querySelectorAll('code.order')).map(c => c.textContent).join('|'));
});
</script></body></html>"#,
    )
    .unwrap();
    let url = format!("file://{}", out.join("probe.html").display());
    let o = headless(&chromium, &["--dump-dom", &url]);
    let dom = String::from_utf8_lossy(&o.stdout);
    let attr = |name: &str| {
        let key = format!("{name}=\"");
        let at = dom
            .find(&key)
            .unwrap_or_else(|| panic!("no {name} in {dom}"))
            + key.len();
        dom[at..].split('"').next().unwrap().to_string()
    };
    let png = Pixmap::decode_png(&std::fs::read(out.join("sarhu-1/map.png")).unwrap()).unwrap();
    assert_eq!(
        attr("data-map"),
        format!("{}x{}", png.width(), png.height()),
        "the map loads"
    );
    let page = std::fs::read_to_string(out.join("sarhu-1/index.html")).unwrap();
    let entries = page.matches("<li value=").count();
    assert!(entries >= 3, "set-up and two moves: {entries}");
    // The log is numbered 1, 2, 3… as the reader counts, whatever record
    // entries (dice reveals, refusals) it leaves out.
    let numbers: Vec<String> = (1..=entries).map(|n| n.to_string()).collect();
    assert_eq!(attr("data-log"), numbers.join(","));
    assert!(
        !attr("data-orders").is_empty(),
        "the moves' orders are listed"
    );
    // The index, as the browser lays it out: a styled row of four cells
    // naming whom the game waits for and until when.
    let index = attr("data-index");
    let cells: Vec<&str> = index.split('|').collect();
    assert_eq!(cells[0], "4", "{index}");
    assert!(cells[1].starts_with("ming: their orders, by "), "{index}");
    assert_eq!(cells[2], "solid", "the style sheet applies: {index}");
}

/// Mean per-channel difference and the share of pixels off by more than 64.
fn diff(a: &Pixmap, b: &Pixmap) -> (f64, f64) {
    assert_eq!((a.width(), a.height()), (b.width(), b.height()));
    let (mut sum, mut off) = (0u64, 0u64);
    for (p, q) in a.pixels().iter().zip(b.pixels()) {
        let d = [
            p.red().abs_diff(q.red()),
            p.green().abs_diff(q.green()),
            p.blue().abs_diff(q.blue()),
        ];
        sum += d.iter().map(|x| u64::from(*x)).sum::<u64>();
        off += u64::from(d.iter().any(|x| *x > 64));
    }
    let n = a.pixels().len() as f64;
    (sum as f64 / n / 3.0, off as f64 / n)
}

/// The reference picture: Sarhu's historical set-up, as every side sees it.
const REFERENCE: &str = "tests/fixtures/sarhu-setup.png";

fn sarhu_setup() -> Board {
    let t = table("sarhu", "historical", &["ming", "jurchen"], &[]);
    t.game
        .ruleset()
        .view(t.game.state(), umpire::core::ruleset::Viewer::Public)
        .board
        .unwrap()
}

#[test]
fn the_sarhu_set_up_matches_its_reference_picture() {
    let png = umpire::render::svg::png(&sarhu_setup(), &[]).unwrap();
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(REFERENCE, &png).unwrap();
    }
    let want = Pixmap::decode_png(&std::fs::read(REFERENCE).unwrap()).unwrap();
    let got = Pixmap::decode_png(&png).unwrap();
    let (mean, off) = diff(&got, &want);
    assert!(
        mean < 1.0 && off < 0.002,
        "mean {mean:.3}, {:.3}% of pixels off",
        off * 100.0
    );
}

#[test]
fn chromium_draws_the_sarhu_svg_as_the_reference_picture_within_a_tolerance() {
    let Some(chromium) =
        chromium("chromium_draws_the_sarhu_svg_as_the_reference_picture_within_a_tolerance")
    else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let want = Pixmap::decode_png(&std::fs::read(REFERENCE).unwrap()).unwrap();
    let svg = tmp.path().join("map.svg");
    std::fs::write(&svg, umpire::render::svg::svg(&sarhu_setup(), &[])).unwrap();
    let shot = tmp.path().join("shot.png");
    let o = headless(
        &chromium,
        &[
            &format!("--screenshot={}", shot.display()),
            &format!("--window-size={},{}", want.width(), want.height()),
            &format!("file://{}", svg.display()),
        ],
    );
    let got = Pixmap::decode_png(&std::fs::read(&shot).unwrap_or_else(|e| {
        panic!(
            "no screenshot ({e}): {}",
            String::from_utf8_lossy(&o.stderr)
        )
    }))
    .unwrap();
    // Browser and resvg anti-alias and hint text differently; shapes and colours agree.
    let (mean, off) = diff(&got, &want);
    assert!(
        mean < 6.0 && off < 0.05,
        "mean {mean:.3}, {:.3}% of pixels off",
        off * 100.0
    );
}

/// The texts of an SVG's elements, by the id of the group they are in.
fn texts_in(svg: &str, group: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("id") == Some(group))
        .flat_map(|g| g.descendants().filter(|n| n.has_tag_name("text")))
        .map(|t| t.text().unwrap_or("").to_string())
        .collect()
}

#[test]
fn every_picture_has_a_key_that_names_each_side() {
    for (ruleset, sides, entries) in [
        ("sarhu", &["ming", "jurchen"][..], &["M / J "][..]),
        ("ldf", &["roman", "gp"][..], &["R / G "][..]),
        (
            "ac",
            &["british", "russian"][..],
            &["B British", "R Russian"][..],
        ),
        (
            "adp",
            &["coalition", "government", "taliban", "warlords"][..],
            &["C Coalition", "G Government", "T Taliban", "W Warlords"][..],
        ),
    ] {
        let rs = umpire::games::find(ruleset).unwrap();
        let t = table(ruleset, &rs.info().scenarios[0].name, sides, &[]);
        let viewer = umpire::core::ruleset::Viewer::Public;
        let board = t.game.ruleset().view(t.game.state(), viewer).board.unwrap();
        let key = texts_in(&umpire::render::svg::svg(&board, &[]), "key");
        for e in entries {
            assert!(
                key.iter().any(|k| k.starts_with(e)),
                "{ruleset}: no {e:?} in the key {key:?}"
            );
        }
        assert!(key.contains(&"the last action".to_string()), "{ruleset}");
    }
}

/// A Distant Plain's spaces hold many pieces of a kind: each group is drawn
/// with its count ("2 Guerrilla ?"), not as one counter among others.
#[test]
fn a_distant_plain_picture_counts_the_pieces_of_each_kind() {
    let sides = ["coalition", "government", "taliban", "warlords"];
    let t = table("adp", "standin", &sides, &[]);
    let viewer = umpire::core::ruleset::Viewer::Public;
    let board = t.game.ruleset().view(t.game.state(), viewer).board.unwrap();
    let Board::Points(b) = &board else {
        panic!("a point-to-point map")
    };
    let texts = texts_in(&umpire::render::svg::svg(&board, &[]), "spaces");
    let mut counted = 0;
    for s in b.spaces.values().filter(|s| s.units.len() <= 3) {
        for u in s.units.iter().filter(|u| u.count > 1) {
            let want = format!("{} {}", u.count, u.id);
            assert!(
                texts.iter().any(|t| t.starts_with(&want)),
                "{}: {want:?} not drawn; texts {texts:?}",
                s.name
            );
            counted += 1;
        }
    }
    assert!(counted >= 3, "the opening has groups of pieces: {counted}");
}

/// A Distant Plain's picture puts the spaces where Afghanistan and Pakistan
/// have them: Herat west of Kabul, Badakhshan north and Balochistan south of
/// Kandahar, the Northwest Frontier east of Kabul.
#[test]
fn a_distant_plain_picture_lays_the_spaces_out_as_the_map_of_the_region() {
    let sides = ["coalition", "government", "taliban", "warlords"];
    let t = table("adp", "standin", &sides, &[]);
    let viewer = umpire::core::ruleset::Viewer::Public;
    let board = t.game.ruleset().view(t.game.state(), viewer).board.unwrap();
    let svg = umpire::render::svg::svg(&board, &[]);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let at = |name: &str| -> (f64, f64) {
        let t = doc
            .descendants()
            .find(|n| n.has_tag_name("text") && n.text() == Some(name))
            .unwrap_or_else(|| panic!("{name} drawn"));
        let num = |a: &str| t.attribute(a).unwrap().parse::<f64>().unwrap();
        (num("x"), num("y"))
    };
    let (herat, kabul, kandahar) = (at("Herat"), at("Kabul"), at("Kandahar"));
    assert!(herat.0 < kabul.0, "Herat {herat:?} west of Kabul {kabul:?}");
    assert!(
        at("Badakhshan").1 < kandahar.1,
        "Badakhshan north of Kandahar"
    );
    assert!(
        at("Balochistan").1 > kandahar.1,
        "Balochistan south of Kandahar"
    );
    assert!(
        at("Northwest Frontier").0 > kabul.0,
        "the Frontier east of Kabul"
    );
    // A road lies between its towns.
    let road = at("Kandahar-Kabul");
    assert!(kandahar.1 > road.1 && road.1 > kabul.1, "{road:?}");
}

/// Pixels of `p` within `near` of colour `c`.
fn count_near(p: &Pixmap, c: [u8; 3]) -> usize {
    p.pixels()
        .iter()
        .filter(|q| near([q.red(), q.green(), q.blue()], c))
        .count()
}

#[test]
fn a_result_picture_shows_the_part_of_the_map_around_the_action_with_the_key_under_it() {
    let board = sarhu_setup();
    let hex: umpire::core::hex::Hex = "0807".parse().unwrap();
    let picture = umpire::render::svg::picture(&board, &[Place::Hex(hex)]);
    let whole = Pixmap::decode_png(&picture.png().unwrap()).unwrap();
    let crop = picture
        .action_crop()
        .expect("one hex is a small part of the map");
    assert!(
        crop.w >= 520 && crop.h >= 400,
        "a phone's screen at least: {crop:?}"
    );
    assert!(crop.x + crop.w <= whole.width() && crop.y + crop.h <= whole.height());
    let part = f64::from(crop.w * crop.h) / f64::from(whole.width() * whole.height());
    assert!(part < 0.6, "{crop:?} is {part:.2} of the map");

    let action_bytes = picture.action_png().unwrap();
    let action = Pixmap::decode_png(&action_bytes).unwrap();
    assert_eq!(action.width(), crop.w);
    assert!(action.height() > crop.h + 20, "a key under the map");
    // The map part is the same pixels as that part of the whole picture.
    let same = whole
        .clone_rect(
            resvg::tiny_skia::IntRect::from_xywh(crop.x as i32, crop.y as i32, crop.w, crop.h)
                .unwrap(),
        )
        .unwrap();
    let map = action
        .clone_rect(resvg::tiny_skia::IntRect::from_xywh(0, 0, crop.w, crop.h).unwrap())
        .unwrap();
    let (mean, off) = diff(&map, &same);
    assert!(
        mean < 0.5 && off < 0.001,
        "mean {mean:.3}, {:.3}% off",
        off * 100.0
    );
    // The action's outline is in it; the key below has ink.
    assert!(count_near(&map, rgb("#e4007c")) > 50, "the outlined hex");
    let key = action
        .clone_rect(
            resvg::tiny_skia::IntRect::from_xywh(
                0,
                crop.h as i32,
                crop.w,
                action.height() - crop.h,
            )
            .unwrap(),
        )
        .unwrap();
    assert!(
        count_near(&key, [0x11, 0x11, 0x11]) > 100,
        "the key's words"
    );
}

#[test]
fn without_an_action_or_when_the_action_spans_the_map_the_result_picture_is_the_whole_map() {
    let board = sarhu_setup();
    let picture = umpire::render::svg::picture(&board, &[]);
    assert_eq!(picture.action_crop(), None);
    assert_eq!(picture.action_png().unwrap(), picture.png().unwrap());
    let Board::Hex(hb) = &board else { panic!() };
    let corners: Vec<Place> = [hb.cells.keys().next(), hb.cells.keys().last()]
        .into_iter()
        .flatten()
        .map(|h| Place::Hex(*h))
        .collect();
    let spread = umpire::render::svg::picture(&board, &corners);
    assert_eq!(
        spread.action_crop(),
        None,
        "two far corners are the whole map"
    );
    // One corner: the part stays within the map, against its edge.
    let one = umpire::render::svg::picture(&board, &corners[..1]);
    let c = one.action_crop().expect("a corner is a small part");
    assert!(c.x == 0 || c.y == 0, "{c:?}");
}

/// The size of `png`.
fn png_size(png: &[u8]) -> (u32, u32) {
    let p = Pixmap::decode_png(png).unwrap();
    (p.width(), p.height())
}

/// The `map.png` a mail carries.
fn map_png(mail: &umpire::mail::mime::ReadMail) -> Option<&[u8]> {
    mail.attachments
        .iter()
        .find(|a| a.name == "map.png")
        .map(|a| a.bytes.as_slice())
}

#[test]
fn by_mail_a_result_carries_the_map_around_the_action_and_command_map_the_whole_map() {
    let tmp = tempfile::tempdir().unwrap();
    // Moves, not passes: each result has an action on the map.
    let dir = sarhu_club_playing(tmp.path(), 3, |legal| {
        let moving = legal.iter().find(|l| l.starts_with("move"));
        moving.unwrap_or(&legal[0]).clone()
    });
    let mut u = Umpire::open(&dir).unwrap();
    let g = u.game("sarhu-1").unwrap();
    let (last, _) = g.last_report();
    let ming = Viewer::Side(g.side("ming").unwrap());
    let picture = umpire::service::picture::picture(g, last, ming).unwrap();
    let crop = picture
        .action_crop()
        .expect("a move is a small part of the map");
    let whole = png_size(&picture.png().unwrap());

    let mails = outbox(&dir.join("outbox"));
    let (_, result) = mails
        .iter()
        .rfind(|(k, _)| k.starts_with(&format!("sarhu-1.{last}.ming")))
        .expect("the last result mail to the Ming");
    let got = png_size(map_png(result).expect("map.png attached"));
    assert_eq!(got.0, crop.w, "the part around the action");
    assert!(
        got.1 > crop.h && got.1 < whole.1,
        "{got:?}: the part and its key"
    );
    assert!(
        result
            .text
            .contains("The attached map.png draws the map around this action"),
        "{}",
        result.text
    );

    // A signed `command: map` is answered with the whole map.
    let text = "game: sarhu-1\nside: ming\ncommand: map\n";
    let sig = key(1).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
    let mut md = Maildir::open(&dir.join("maildir")).unwrap();
    let mail = move_mail("ming@club.test", "umpire@club.test", 99, text, &sig, false);
    md.deliver("00099", &mail).unwrap();
    let now: jiff::Timestamp = "2026-12-01T11:00:00Z".parse().unwrap();
    u.poll(&mut md, now).unwrap();
    let out = dir.join("outbox-map");
    u.deliver(&mut FileOutbox::open(&out).unwrap(), now)
        .unwrap();
    let answers = outbox(&out);
    let (_, answer) = answers
        .iter()
        .find(|(_, m)| m.subject.contains("the map"))
        .expect("the answer to command: map");
    let got = png_size(map_png(answer).expect("the whole map.png"));
    assert_eq!(got, whole, "the whole map");
}

/// The game page as headless Chromium lays it out, a quarter size: the
/// reference for layout regressions.
const PAGE_REFERENCE: &str = "tests/fixtures/sarhu-page.png";
/// The window the page is laid out in, in pixels.
const PAGE_WINDOW: (u32, u32) = (1200, 1600);

/// `p` shrunk by `k` on each side, each pixel the mean of its `k`×`k` block.
fn shrink(p: &Pixmap, k: u32) -> Pixmap {
    let (w, h) = (p.width() / k, p.height() / k);
    let mut out = Pixmap::new(w, h).unwrap();
    for y in 0..h {
        for x in 0..w {
            let mut sum = [0u32; 3];
            for dy in 0..k {
                for dx in 0..k {
                    let q = p.pixel(x * k + dx, y * k + dy).unwrap();
                    sum[0] += u32::from(q.red());
                    sum[1] += u32::from(q.green());
                    sum[2] += u32::from(q.blue());
                }
            }
            let n = k * k;
            let c = resvg::tiny_skia::ColorU8::from_rgba(
                (sum[0] / n) as u8,
                (sum[1] / n) as u8,
                (sum[2] / n) as u8,
                255,
            );
            out.pixels_mut()[(y * w + x) as usize] = c.premultiply();
        }
    }
    out
}

#[test]
fn in_headless_chromium_the_game_page_keeps_its_layout() {
    let Some(chromium) = chromium("in_headless_chromium_the_game_page_keeps_its_layout") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (_, out) = sarhu_site(tmp.path());
    let shot = tmp.path().join("page.png");
    let o = headless(
        &chromium,
        &[
            &format!("--screenshot={}", shot.display()),
            &format!("--window-size={},{}", PAGE_WINDOW.0, PAGE_WINDOW.1),
            &format!("file://{}", out.join("sarhu-1/index.html").display()),
        ],
    );
    let page = Pixmap::decode_png(&std::fs::read(&shot).unwrap_or_else(|e| {
        panic!(
            "no screenshot ({e}): {}",
            String::from_utf8_lossy(&o.stderr)
        )
    }))
    .unwrap();
    if let Ok(keep) = std::env::var("KEEP_PICTURES") {
        // To look at: the page at 100% and on a phone held upright.
        std::fs::create_dir_all(&keep).unwrap();
        std::fs::copy(&shot, format!("{keep}/page.png")).unwrap();
        std::fs::copy(out.join("sarhu-1/map.png"), format!("{keep}/page-map.png")).unwrap();
        headless(
            &chromium,
            &[
                &format!("--screenshot={keep}/page-phone.png"),
                "--window-size=390,844",
                &format!("file://{}", out.join("sarhu-1/index.html").display()),
            ],
        );
    }
    let got = shrink(&page, 4);
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        got.save_png(PAGE_REFERENCE).unwrap();
    }
    let want = Pixmap::decode_png(&std::fs::read(PAGE_REFERENCE).unwrap()).unwrap();
    // Compared in blocks of 100 pixels of the page: a moved map, a lost or
    // added section or a changed style shows; the record's head (new dice
    // each run) and the browser's text hinting do not.
    let (mean, off) = diff(&shrink(&got, 25), &shrink(&want, 25));
    eprintln!("the page against its reference: mean {mean:.3}, {off:.4} of blocks off");
    assert!(
        mean < 3.0 && off < 0.01,
        "the page's layout changed against {PAGE_REFERENCE} (UPDATE_FIXTURES=1 to accept): mean {mean:.3}, {:.2}% of blocks off",
        off * 100.0
    );
}

#[test]
fn a_picture_drawn_from_rasters_kept_on_disk_is_the_same_bytes_as_one_drawn_anew() {
    // A cron poll is a fresh process: it reads the base, names, key and
    // stacks kept on the shelf by the last one instead of drawing them.
    let shelf = tempfile::tempdir().unwrap();
    // A map no other test draws (a place renamed, a hex's terrain changed),
    // so that its base and names are drawn here, whatever the tests running
    // beside this one keep in memory.
    let mut board = sarhu_setup();
    let Board::Hex(b) = &mut board else {
        panic!("Sarhu is a hex map")
    };
    let cell = b.cells.values_mut().find(|c| c.name.is_some()).unwrap();
    cell.name = Some("Shelfwick".into());
    cell.terrain = if cell.terrain == '^' { '.' } else { '^' };
    let hex: umpire::core::hex::Hex = "0807".parse().unwrap();
    let picture = umpire::render::svg::picture(&board, &[Place::Hex(hex)]);
    let drawn = picture.action_png_kept_in(Some(shelf.path())).unwrap();
    let kept: Vec<String> = std::fs::read_dir(shelf.path())
        .unwrap()
        .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for kind in [".base.raster", ".kept.raster", ".sprites.pack"] {
        assert!(kept.iter().any(|f| f.ends_with(kind)), "{kind}: {kept:?}");
    }
    // As a fresh process meets them: nothing in memory, all on the shelf.
    umpire::render::svg::raster::forget_kept();
    let read = picture.action_png_kept_in(Some(shelf.path())).unwrap();
    assert_eq!(read, drawn);
    assert_eq!(read, picture.action_png().unwrap());
    let whole = picture.png_kept_in(Some(shelf.path())).unwrap();
    umpire::render::svg::raster::forget_kept();
    assert_eq!(picture.png_kept_in(Some(shelf.path())).unwrap(), whole);
    // A damaged file is drawn again, not trusted.
    for f in std::fs::read_dir(shelf.path()).unwrap() {
        std::fs::write(f.unwrap().path(), b"UMPRAS1\ngarbage").unwrap();
    }
    umpire::render::svg::raster::forget_kept();
    assert_eq!(picture.png_kept_in(Some(shelf.path())).unwrap(), whole);
}

/// The base of each game's picture (terrain, borders, numbers) is kept by
/// what it is drawn from and the version of its drawing
/// (`render::svg::BASE_DRAWING`), not by its SVG, which is not written when
/// its raster is kept. So a change to how a base is drawn must bump that
/// version, or pictures would be laid on a base of the old drawing kept on
/// disk: this pins each base's SVG to the version.
#[test]
fn each_game_base_is_pinned_to_the_drawing_version() {
    let pins = [
        (
            "sarhu",
            "3d16c2afc5db2dbbebb595f28298f050e1a8d4760eb05abc433602122974f73f",
        ),
        (
            "ac",
            "fd1429e6e91db716d502fdd3e6e8178cf5bf46a00bdc3386b0a360ae8a03452c",
        ),
        (
            "adp",
            "2861ccba0387ddd247423d8ca27f5a79ec041b714da5b307572e88284ff79bb4",
        ),
    ];
    let mut wrong = Vec::new();
    for (ruleset, pin) in pins {
        let rs = umpire::games::find(ruleset).unwrap();
        let scenario = rs.info().scenarios[0].clone();
        let sides: Vec<&str> = scenario.sides.iter().map(String::as_str).collect();
        let t = table(ruleset, &scenario.name, &sides, &[]);
        let g = &t.game;
        let board = g.ruleset().view(g.state(), Viewer::Public).board.unwrap();
        let picture = umpire::render::svg::picture(&board, &[]);
        let got = umpire::core::hash::sha256(picture.base_svg().as_bytes()).to_hex();
        if got != pin {
            wrong.push(format!("(\"{ruleset}\", \"{got}\")"));
        }
    }
    assert!(
        wrong.is_empty(),
        "a base's drawing changed at BASE_DRAWING {}: bump it and pin {}",
        umpire::render::svg::BASE_DRAWING,
        wrong.join(", ")
    );
}
