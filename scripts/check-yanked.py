#!/usr/bin/env python3
"""Supply chain (docs/dev/supply-chain.md): fail if any crate locked in Cargo.lock is yanked.

The RustSec advisory database lives on GitHub, which the project's machines
cannot reach; the crates.io sparse index can be reached. A yanked version is
the registry's own signal that a release is broken or unsafe (most RustSec
advisories against a version are followed by a yank), so CI checks every
locked crates.io package against the index's `yanked` flag. This is not a
substitute for an advisory scan; docs/dev/supply-chain.md says so.

    python3 scripts/check-yanked.py [Cargo.lock]

Exit 0: none yanked. Exit 1: yanked versions (listed). Exit 2: the index
could not be read (network), so nothing was checked.
"""
import json
import sys
import tomllib
import urllib.request
from concurrent.futures import ThreadPoolExecutor

INDEX = "https://index.crates.io/"
CRATES_IO = "registry+https://github.com/rust-lang/crates.io-index"


def index_path(name: str) -> str:
    n = name.lower()
    if len(n) <= 2:
        return f"{len(n)}/{n}"
    if len(n) == 3:
        return f"3/{n[0]}/{n}"
    return f"{n[:2]}/{n[2:4]}/{n}"


def yanked(pkg):
    name, version = pkg
    with urllib.request.urlopen(INDEX + index_path(name), timeout=20) as r:
        for line in r.read().decode().splitlines():
            entry = json.loads(line)
            if entry.get("vers") == version:
                return name, version, bool(entry.get("yanked"))
    # A locked version the index does not list is as suspect as a yanked one.
    return name, version, True


def main() -> int:
    lock = sys.argv[1] if len(sys.argv) > 1 else "Cargo.lock"
    with open(lock, "rb") as f:
        packages = tomllib.load(f).get("package", [])
    locked = [(p["name"], p["version"]) for p in packages if p.get("source") == CRATES_IO]
    try:
        with ThreadPoolExecutor(max_workers=16) as pool:
            results = list(pool.map(yanked, locked))
    except OSError as e:
        print(f"check-yanked: cannot read the crates.io index ({e}); nothing checked", file=sys.stderr)
        return 2
    bad = [(n, v) for n, v, y in results if y]
    for n, v in bad:
        print(f"yanked or unlisted on crates.io: {n} {v}")
    print(f"check-yanked: {len(locked)} locked crates.io packages, {len(bad)} yanked")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
