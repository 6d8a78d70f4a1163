//! Open seats at the command line: `umpire new --open`, a join signed with
//! `umpire sign`, `umpire admin seats` and `umpire admin seat`.

use super::run::{ok, stderr, umpire};

#[test]
fn a_game_with_an_open_seat_is_made_listed_and_its_join_signed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("club");
    ok(&umpire(&dir, &["init", "--address", "umpire@club.test"]));
    let alice = tmp.path().join("alice");
    let carol = tmp.path().join("carol");
    for k in [&alice, &carol] {
        ok(&umpire(&dir, &["keygen", "-f", k.to_str().unwrap()]));
    }
    let side = format!("ming=alice@club.test={}.pub", alice.display());
    // A side neither given nor open, and an open side the scenario lacks.
    let o = umpire(&dir, &["new", "sarhu", "-s", "historical", "--side", &side]);
    assert!(!o.status.success());
    let o = umpire(
        &dir,
        &[
            "new",
            "sarhu",
            "-s",
            "historical",
            "--side",
            &side,
            "--open",
            "jurchin",
        ],
    );
    assert!(stderr(&o).contains("no such side"), "{}", stderr(&o));
    let o = umpire(
        &dir,
        &[
            "new",
            "sarhu",
            "-s",
            "historical",
            "--id",
            "s1",
            "--side",
            &side,
            "--open",
            "jurchen",
        ],
    );
    ok(&o);
    assert!(stderr(&o).contains("1 seat(s) open"), "{}", stderr(&o));
    assert!(ok(&umpire(&dir, &["admin", "seats"])).contains("No join waits"));
    // A join is signed only with the key it names.
    let pubkey = std::fs::read_to_string(format!("{}.pub", carol.display())).unwrap();
    let join = tmp.path().join("join.txt");
    std::fs::write(
        &join,
        format!("game: s1\nside: jurchen\njoin: {}\n", pubkey.trim()),
    )
    .unwrap();
    let j = join.to_str().unwrap();
    let o = umpire(&dir, &["sign", j, "--key", alice.to_str().unwrap()]);
    assert!(
        stderr(&o).contains("join: line names key"),
        "{}",
        stderr(&o)
    );
    ok(&umpire(
        &dir,
        &["sign", j, "--key", carol.to_str().unwrap()],
    ));
    assert!(tmp.path().join("join.txt.sig").is_file());
    // No join held: the admin is told so.
    let o = umpire(&dir, &["admin", "seat", "s1", "jurchen", "--approve"]);
    assert!(stderr(&o).contains("holds no join"), "{}", stderr(&o));
}
