//! SSHSIG blobs read as strictly as OpenSSH reads them (issue 12.4): every
//! mutation of a good signature's version, length fields, end or inner parts
//! is judged by `ssh-keygen -Y check-novalidate` and by the umpire, and the
//! two must agree, with one difference on purpose: OpenSSH 9.2 takes a
//! version field of 0 (it refuses only versions above 1), the umpire takes
//! exactly version 1, the only version there is, so no second blob exists
//! for one signature.

use base64::Engine as _;
use std::io::Write;
use umpire::core::sig::{MOVE_NAMESPACE, SecretKey};

const MSG: &[u8] = b"game: g1\nside: red\ncommand: status\n";

fn armor(blob: &[u8]) -> String {
    let b64 = base64::engine::general_purpose::STANDARD.encode(blob);
    let mut s = String::from("-----BEGIN SSH SIGNATURE-----\n");
    for chunk in b64.as_bytes().chunks(70) {
        s.push_str(std::str::from_utf8(chunk).unwrap());
        s.push('\n');
    }
    s.push_str("-----END SSH SIGNATURE-----\n");
    s
}

fn dearmor(armored: &str) -> Vec<u8> {
    let b64: String = armored
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .collect();
    base64::engine::general_purpose::STANDARD
        .decode(b64)
        .unwrap()
}

/// Does `ssh-keygen -Y check-novalidate` accept this signature over MSG?
fn openssh_accepts(dir: &std::path::Path, armored: &str) -> bool {
    let sig = dir.join("m.sig");
    std::fs::write(&sig, armored).unwrap();
    let mut child = std::process::Command::new("ssh-keygen")
        .args(["-Y", "check-novalidate", "-n", MOVE_NAMESPACE, "-s"])
        .arg(&sig)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("ssh-keygen is installed");
    // ssh-keygen may refuse the signature before it reads the message.
    let _ = child.stdin.take().unwrap().write_all(MSG);
    child.wait().unwrap().success()
}

/// Offsets of every u32 length (and the version) in a good blob, walking
/// its structure: magic, version, then strings, two of which hold strings.
fn length_fields(blob: &[u8]) -> Vec<usize> {
    let be = |at: usize| u32::from_be_bytes(blob[at..at + 4].try_into().unwrap()) as usize;
    let mut out = vec![6]; // the version
    let mut at = 10;
    for nested in [true, false, false, false, true] {
        out.push(at);
        let len = be(at);
        if nested {
            let mut inner = at + 4;
            while inner < at + 4 + len {
                out.push(inner);
                inner += 4 + be(inner);
            }
        }
        at += 4 + len;
    }
    assert_eq!(at, blob.len());
    out
}

fn with_u32(blob: &[u8], at: usize, v: u32) -> Vec<u8> {
    let mut b = blob.to_vec();
    b[at..at + 4].copy_from_slice(&v.to_be_bytes());
    b
}

#[test]
fn mutated_signatures_are_judged_as_openssh_judges_them() {
    let tmp = tempfile::tempdir().unwrap();
    let key = SecretKey::from_seed(&[5; 32], "red@club.test").unwrap();
    let good = key.sign(MOVE_NAMESPACE, MSG).unwrap();
    let blob = dearmor(&good);
    let mut cases: Vec<(String, Vec<u8>)> = vec![("unchanged".into(), blob.clone())];
    for v in [0u32, 2, 0x0100_0001, u32::MAX] {
        cases.push((format!("version {v}"), with_u32(&blob, 6, v)));
    }
    for at in length_fields(&blob) {
        let was = u32::from_be_bytes(blob[at..at + 4].try_into().unwrap());
        for v in [
            was.wrapping_add(1),
            was.wrapping_sub(1),
            0,
            u32::MAX,
            was + 0x100,
        ] {
            if v == was {
                continue;
            }
            cases.push((format!("u32 at {at}: {was} -> {v}"), with_u32(&blob, at, v)));
        }
    }
    for n in (0..blob.len()).step_by(3).chain([blob.len() - 1]) {
        cases.push((format!("cut to {n} bytes"), blob[..n].to_vec()));
    }
    for extra in [&[0u8][..], &[0, 0, 0, 0], b"trailing"] {
        let mut b = blob.clone();
        b.extend_from_slice(extra);
        cases.push((format!("{} bytes appended", extra.len()), b));
    }
    // Trailing bytes inside the public key and the signature strings, with
    // the enclosing lengths adjusted to match.
    let fields = length_fields(&blob);
    for (outer, name) in [
        (fields[1], "public key"),
        (fields[fields.len() - 3], "signature"),
    ] {
        let len = u32::from_be_bytes(blob[outer..outer + 4].try_into().unwrap()) as usize;
        let end = outer + 4 + len;
        let mut b = with_u32(&blob, outer, len as u32 + 1);
        b.insert(end, 0);
        cases.push((format!("a byte after the {name}"), b));
    }
    let mut disagree = Vec::new();
    let mut refused = 0;
    for (what, b) in &cases {
        let armored = armor(b);
        let openssh = openssh_accepts(tmp.path(), &armored);
        let ours = key.public().verify(MOVE_NAMESPACE, MSG, &armored).is_ok();
        let stricter_on_purpose = openssh && !ours && b[6..10] == [0, 0, 0, 0];
        if openssh != ours && !stricter_on_purpose {
            disagree.push(format!("{what}: openssh {openssh}, umpire {ours}"));
        }
        refused += usize::from(!ours);
    }
    assert!(disagree.is_empty(), "{disagree:#?}");
    assert_eq!(refused, cases.len() - 1, "only the unchanged blob verifies");
}
