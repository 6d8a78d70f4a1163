//! Reading the three TOML files into [`Data`], recording the provenance tag of
//! every value read (`src_<key>` or the record's `src`).

use super::{
    ActionDef, Back, ChitDef, Data, EmperorPlace, EmperorRow, HexInfo, Kind, OFFSET, Outcome,
    Place, ProvKind, Region, SideKind, Size, Special, Tag, Timing, UnitDef, UnitId, User, Values,
};
use std::collections::BTreeMap;
use toml::{Table, Value};
use umpire_core::hash::Tagged;
use umpire_core::hex::Hex;

pub use umpire_core::data::parse_provenance;

/// Errors and tags collected while reading.
#[derive(Default)]
pub(super) struct Reader {
    pub errors: Vec<String>,
    pub tags: Vec<Tag>,
}

impl Reader {
    fn err(&mut self, m: impl Into<String>) {
        self.errors.push(m.into());
    }

    /// Records the tag of `path.key` from `src_<key>` or `src`.
    fn tag(&mut self, t: &Table, path: &str, key: &str) -> Option<ProvKind> {
        let src = t
            .get(&format!("src_{key}"))
            .or_else(|| t.get("src"))
            .and_then(Value::as_str);
        let full = format!("{path}.{key}");
        match src.map(parse_provenance) {
            Some(Ok((kind, note))) => {
                self.tags.push(Tag {
                    path: full,
                    kind,
                    note,
                });
                Some(kind)
            }
            Some(Err(e)) => {
                self.err(format!("{full}: {e}"));
                None
            }
            None => {
                self.err(format!(
                    "{full} has no provenance tag: add `src` or `src_{key}`"
                ));
                None
            }
        }
    }

    fn get<'a>(&mut self, t: &'a Table, path: &str, key: &str) -> Option<&'a Value> {
        match t.get(key) {
            Some(v) => {
                self.tag(t, path, key);
                Some(v)
            }
            None => {
                self.err(format!("{path}: missing `{key}`"));
                None
            }
        }
    }

    fn int(&mut self, t: &Table, path: &str, key: &str) -> u32 {
        match self.get(t, path, key).map(Value::as_integer) {
            Some(Some(n)) if (0..=i64::from(u32::MAX)).contains(&n) => n as u32,
            Some(_) => {
                self.err(format!("{path}.{key}: not a whole number"));
                0
            }
            None => 0,
        }
    }

    fn str<'a>(&mut self, t: &'a Table, path: &str, key: &str) -> &'a str {
        match self.get(t, path, key).map(Value::as_str) {
            Some(Some(s)) => s,
            Some(None) => {
                self.err(format!("{path}.{key}: not a string"));
                ""
            }
            None => "",
        }
    }

    fn strs<'a>(&mut self, t: &'a Table, path: &str, key: &str) -> Vec<&'a str> {
        match self.get(t, path, key).map(Value::as_array) {
            Some(Some(a)) => a.iter().filter_map(Value::as_str).collect(),
            Some(None) => {
                self.err(format!("{path}.{key}: not a list"));
                Vec::new()
            }
            None => Vec::new(),
        }
    }

    fn hex(&mut self, s: &str, path: &str) -> Hex {
        s.parse().unwrap_or_else(|_| {
            self.err(format!("{path}: {s:?} is not a hex id (CCRR)"));
            Hex::new(0, 0)
        })
    }

    fn table<'a>(&mut self, t: &'a Table, path: &str) -> &'a Table {
        static EMPTY: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
        match t.get(path).and_then(Value::as_table) {
            Some(x) => x,
            None => {
                self.err(format!("missing table [{path}]"));
                EMPTY.get_or_init(Table::new)
            }
        }
    }

    fn records<'a>(&mut self, t: &'a Table, key: &str) -> Vec<&'a Table> {
        match t.get(key).and_then(Value::as_array) {
            Some(a) => a.iter().filter_map(Value::as_table).collect(),
            None => {
                self.err(format!("missing [[{key}]] records"));
                Vec::new()
            }
        }
    }
}

fn parse(name: &str, text: &str, r: &mut Reader) -> Option<Table> {
    match text.parse::<Table>() {
        Ok(t) => Some(t),
        Err(e) => {
            r.err(format!("{name}: {e}"));
            None
        }
    }
}

/// Reads the three files (the checks against the rules are `check`'s).
pub(super) fn read(map: &str, oob: &str, tables: &str) -> Result<Data, Vec<String>> {
    let hash = Tagged::new("umpire-ldf-data-v1")
        .field(map.as_bytes())
        .field(oob.as_bytes())
        .field(tables.as_bytes())
        .finish();
    let mut r = Reader::default();
    let (Some(tm), Some(to), Some(tt)) = (
        parse("map.toml", map, &mut r),
        parse("oob.toml", oob, &mut r),
        parse("tables.toml", tables, &mut r),
    ) else {
        return Err(r.errors);
    };
    let mut d = Data {
        hash,
        bounds: (0, 0, 0, 0),
        hexes: Vec::new(),
        sides: BTreeMap::new(),
        link_bits: Vec::new(),
        places: Vec::new(),
        zones: Vec::new(),
        units: Vec::new(),
        unit_ids: BTreeMap::new(),
        legion_hexes: Vec::new(),
        crt_columns: Vec::new(),
        crt: Vec::new(),
        emperor: Vec::new(),
        chits: Vec::new(),
        actions: Vec::new(),
        values: Values::default(),
        special: Special {
            rome: Hex::new(0, 0),
            ctesiphon: Hex::new(0, 0),
            palmyra: Hex::new(0, 0),
            petra: Hex::new(0, 0),
            trier: Hex::new(0, 0),
            dacia: Hex::new(0, 0),
            decumates: Hex::new(0, 0),
        },
        counter_total: 0,
        markers: 0,
        tags: Vec::new(),
    };
    read_grid(&mut r, &tm, &mut d);
    if r.errors.is_empty() {
        read_map_records(&mut r, &tm, &mut d);
        derive_hexes(&mut d);
        d.derive_links();
    }
    read_oob(&mut r, &to, &mut d);
    read_tables(&mut r, &tt, &mut d);
    if r.errors.is_empty() {
        d.tags = r.tags;
        Ok(d)
    } else {
        Err(r.errors)
    }
}

fn read_grid(r: &mut Reader, tm: &Table, d: &mut Data) {
    let g = r.table(tm, "grid");
    let c0 = r.int(g, "map.grid", "first_col") as i32;
    let c1 = r.int(g, "map.grid", "last_col") as i32;
    let r0 = r.int(g, "map.grid", "first_row") as i32;
    let r1 = r.int(g, "map.grid", "last_row") as i32;
    if r.str(g, "map.grid", "offset") != "odd-q" {
        r.err("map.grid.offset: only \"odd-q\" is supported (ruling R-D2)");
    }
    if c1 < c0 || r1 < r0 {
        r.err("map.grid: empty extent");
        return;
    }
    d.bounds = (c0, c1, r0, r1);
    let rows = r.strs(g, "map.grid", "rows");
    let srcs: Vec<&str> = g
        .get("rows_src")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let key = g.get("src_key").and_then(Value::as_table);
    let width = (c1 - c0 + 1) as usize;
    if rows.len() != (r1 - r0 + 1) as usize || srcs.len() != rows.len() {
        r.err(format!(
            "map.grid.rows and rows_src need {} rows of {width} glyphs",
            r1 - r0 + 1
        ));
        return;
    }
    let mut grid = vec![Region::Sea; width * rows.len()];
    for (ri, (row, src)) in rows.iter().zip(&srcs).enumerate() {
        let (gl, sl): (Vec<char>, Vec<char>) = (row.chars().collect(), src.chars().collect());
        if gl.len() != width || sl.len() != width {
            r.err(format!("map.grid.rows[{ri}]: {width} glyphs expected"));
            continue;
        }
        for ci in 0..width {
            let h = Hex::new(c0 + ci as i32, r0 + ri as i32);
            match Region::from_glyph(gl[ci]) {
                Some(reg) => grid[ci * rows.len() + ri] = reg,
                None => r.err(format!(
                    "map.grid.rows: hex {h}: unknown glyph {:?}",
                    gl[ci]
                )),
            }
            let tag = key
                .and_then(|k| k.get(&sl[ci].to_string()))
                .and_then(Value::as_str);
            match tag.map(parse_provenance) {
                Some(Ok((kind, note))) => r.tags.push(Tag {
                    path: format!("map.rows.{h}"),
                    kind,
                    note,
                }),
                _ => r.err(format!("map.grid.rows_src: hex {h}: no provenance key")),
            }
        }
    }
    for ci in 0..width {
        for ri in 0..rows.len() {
            d.hexes.push(HexInfo {
                hex: Hex::new(c0 + ci as i32, r0 + ri as i32),
                region: grid[ci * rows.len() + ri],
                places: Vec::new(),
                tp: 0,
                legions: 0,
                narrows: None,
                coastal: false,
                riverbank: false,
                zone: None,
            });
        }
    }
}

fn read_map_records(r: &mut Reader, tm: &Table, d: &mut Data) {
    let sp = r.table(tm, "special");
    let h = |r: &mut Reader, k: &str| {
        let s = r.str(sp, "map.special", k);
        r.hex(s, &format!("map.special.{k}"))
    };
    d.special = Special {
        rome: h(r, "rome"),
        ctesiphon: h(r, "ctesiphon"),
        palmyra: h(r, "palmyra"),
        petra: h(r, "petra"),
        trier: h(r, "trier"),
        dacia: h(r, "dacia"),
        decumates: h(r, "decumates"),
    };
    for (i, t) in r.records(tm, "narrows").into_iter().enumerate() {
        let path = format!("map.narrows[{i}]");
        let s = r.str(t, &path, "hex");
        let hx = r.hex(s, &path);
        let connects: Vec<Hex> = r
            .strs(t, &path, "connects")
            .into_iter()
            .map(|s| r.hex(s, &path))
            .collect();
        match d.idx(hx) {
            Some(x) => d.hexes[x].narrows = Some(connects),
            None => r.err(format!("{path}: {hx} is off the map")),
        }
    }
    let sides = r.table(tm, "sides");
    for (key, kind) in [
        ("sea", SideKind::Sea),
        ("rhine", SideKind::Rhine),
        ("danube", SideKind::Danube),
    ] {
        for s in r.strs(sides, "map.sides", key) {
            let Some((a, b)) = s.split_once('/') else {
                r.err(format!("map.sides.{key}: {s:?} is not HEX/HEX"));
                continue;
            };
            let (a, b) = (r.hex(a, "map.sides"), r.hex(b, "map.sides"));
            if !a.adjacent_on(OFFSET, b) {
                r.err(format!("map.sides.{key}: {a} and {b} are not adjacent"));
            }
            d.sides.insert(if a < b { (a, b) } else { (b, a) }, kind);
        }
    }
    for (i, t) in r.records(tm, "place").into_iter().enumerate() {
        let path = format!("map.place[{i}]");
        let name = r.str(t, &path, "name").to_string();
        let s = r.str(t, &path, "hex");
        let hex = r.hex(s, &path);
        let size = match r.str(t, &path, "size") {
            "town" => Size::Town,
            "city" => Size::City,
            "metropolis" => Size::Metropolis,
            other => {
                r.err(format!("{path}.size: {other:?} (town, city, metropolis)"));
                Size::Town
            }
        };
        d.places.push(Place { name, hex, size });
    }
    for (i, t) in r.records(tm, "legion").into_iter().enumerate() {
        let path = format!("map.legion[{i}]");
        let s = r.str(t, &path, "hex");
        let hex = r.hex(s, &path);
        let n = r.strs(t, &path, "legions").len() as u8;
        d.legion_hexes.push((hex, n));
    }
    for (i, t) in r.records(tm, "sea_zone").into_iter().enumerate() {
        let path = format!("map.sea_zone[{i}]");
        d.zones.push(r.str(t, &path, "name").to_string());
        for s in r.strs(t, &path, "hexes") {
            let hx = r.hex(s, &path);
            match d.idx(hx) {
                Some(x) => d.hexes[x].zone = Some(i),
                None => r.err(format!("{path}: {hx} is off the map")),
            }
        }
    }
}

/// TP, legion counts, coastal and riverbank flags, from the records.
fn derive_hexes(d: &mut Data) {
    for p in 0..d.places.len() {
        let (h, size) = (d.places[p].hex, d.places[p].size);
        let tp = d.size_tp_raw(size);
        if let Some(x) = d.idx(h) {
            d.hexes[x].places.push(p);
            d.hexes[x].tp += tp;
        }
    }
    for (h, n) in d.legion_hexes.clone() {
        if let Some(x) = d.idx(h) {
            d.hexes[x].legions += n;
        }
    }
    for i in 0..d.hexes.len() {
        let h = d.hexes[i].hex;
        if !d.hexes[i].is_land() {
            continue;
        }
        let ns = h.neighbours_on(OFFSET);
        let coastal = ns
            .iter()
            .any(|n| d.hex(*n).is_some_and(|x| !x.is_land()) || d.side(h, *n) == SideKind::Sea);
        let riverbank = ns.iter().any(|n| d.side(h, *n).is_river());
        d.hexes[i].coastal = coastal;
        d.hexes[i].riverbank = riverbank;
    }
}

impl Data {
    /// TP by size before the tables are read (6.5's 1/2/3).
    fn size_tp_raw(&self, s: Size) -> u32 {
        match s {
            Size::Town => 1,
            Size::City => 2,
            Size::Metropolis => 3,
        }
    }
}

fn read_oob(r: &mut Reader, to: &Table, d: &mut Data) {
    let total = r.table(to, "total");
    d.counter_total = r.int(total, "oob.total", "counters");
    for (i, t) in r.records(to, "counter").into_iter().enumerate() {
        let path = format!("oob.counter[{i}]");
        let kind_s = r.str(t, &path, "kind");
        let Some(kind) = Kind::from_name(kind_s) else {
            r.err(format!("{path}.kind: unknown {kind_s:?}"));
            continue;
        };
        let prefix = r.str(t, &path, "prefix").to_ascii_lowercase();
        let count = r.int(t, &path, "count");
        r.str(t, &path, "start");
        for n in 1..=count {
            let id = if count == 1 {
                prefix.clone()
            } else {
                format!("{prefix}{n}")
            };
            let u = UnitId(d.units.len() as u16);
            if d.unit_ids.insert(id.clone(), u).is_some() {
                r.err(format!("{path}: counter id {id} twice"));
            }
            d.units.push(UnitDef { id, kind });
        }
    }
    let m = r.table(to, "markers");
    d.markers = ["fortify", "looted", "game_turn", "treasury", "chits"]
        .iter()
        .map(|k| r.int(m, "oob.markers", k))
        .sum();
    let st = r.table(to, "start");
    d.values.start_treasury = r.int(st, "oob.start", "treasury");
    if r.int(st, "oob.start", "turn") != 1 {
        r.err("oob.start.turn: the game starts in Turn 1 (3.2)");
    }
}

fn read_values(r: &mut Reader, tt: &Table, v: &mut Values) {
    let g = r.table(tt, "game");
    v.turns = r.int(g, "tables.game", "turns");
    v.first_admin_turn = r.int(g, "tables.game", "first_admin_turn");
    let m = r.table(tt, "movement");
    v.mf_infantry = r.int(m, "tables.movement", "infantry");
    v.mf_cavalry = r.int(m, "tables.movement", "cavalry");
    v.leader_bonus = r.int(m, "tables.movement", "leader_bonus");
    let c = r.table(tt, "combat");
    v.german_die_add = r.int(c, "tables.combat", "german_die_add");
    v.ctesiphon_garrison = r.int(c, "tables.combat", "ctesiphon_garrison");
    v.caucasus_garrison = r.int(c, "tables.combat", "caucasus_garrison");
    let e = r.table(tt, "economy");
    let p = "tables.economy";
    v.tp = [
        r.int(e, p, "town"),
        r.int(e, p, "city"),
        r.int(e, p, "metropolis"),
    ];
    v.caucasus_tp = r.int(e, p, "caucasus_hex");
    v.dacia_tp = r.int(e, p, "dacia");
    v.decumates_tp = r.int(e, p, "decumates");
    v.palmyra_tp = r.int(e, p, "palmyra");
    v.carry_over = r.int(e, p, "carry_over");
    v.demobilize_pair = r.int(e, p, "demobilize_pair");
    v.reclaim_unit = r.int(e, p, "reclaim_unit");
    v.collapse_award = r.int(e, p, "collapse_award");
    let ch = r.table(tt, "chits");
    v.hand_limit = r.int(ch, "tables.chits", "hand_limit") as usize;
    v.salt_max = r.int(ch, "tables.chits", "salt_max");
    v.modifier_cap = r.int(ch, "tables.chits", "modifier_cap");
    v.success = r.int(ch, "tables.chits", "success");
    let s = r.table(tt, "stacking");
    let p = "tables.stacking";
    v.roman_bases = r.int(s, p, "roman_bases") as usize;
    v.roman_mobile = r.int(s, p, "roman_mobile") as usize;
    v.roman_mobile_leader = r.int(s, p, "roman_mobile_leader") as usize;
    v.garrisons = r.int(s, p, "garrisons") as usize;
    v.parthian_gunds = r.int(s, p, "parthian_gunds") as usize;
    v.palmyran = r.int(s, p, "palmyran") as usize;
    v.germans = r.int(s, p, "germans") as usize;
}

/// Reads an odds column, `3:1`.
pub fn parse_odds(s: &str) -> Option<(u32, u32)> {
    let (a, b) = s.split_once(':')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

fn read_tables(r: &mut Reader, tt: &Table, d: &mut Data) {
    read_values(r, tt, &mut d.values);
    let c = r.table(tt, "combat");
    r.str(c, "tables.combat", "odds_low");
    r.str(c, "tables.combat", "odds_high");
    let crt = r.table(tt, "crt");
    for s in r.strs(crt, "tables.crt", "columns") {
        match parse_odds(s) {
            Some(o) => d.crt_columns.push(o),
            None => r.err(format!("tables.crt.columns: {s:?} is not A:D")),
        }
    }
    if let Some(Some(rows)) = r.get(crt, "tables.crt", "rows").map(Value::as_array) {
        for (i, row) in rows.iter().enumerate() {
            let cells: Vec<Outcome> = row
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().and_then(Outcome::from_code))
                        .collect()
                })
                .unwrap_or_default();
            if cells.len() != d.crt_columns.len() {
                r.err(format!(
                    "tables.crt.rows[{i}]: one of AE AS DE DR EX per column"
                ));
            }
            d.crt.push(cells);
        }
    }
    for (i, t) in r.records(tt, "emperor").into_iter().enumerate() {
        let path = format!("tables.emperor[{i}]");
        if r.int(t, &path, "roll") as usize != i + 1 {
            r.err(format!("{path}.roll: rows go 1 to 6 in order"));
        }
        let place = match r.str(t, &path, "place") {
            "largest_army" => EmperorPlace::LargestArmy,
            "rome" => EmperorPlace::Rome,
            o => {
                r.err(format!("{path}.place: {o:?} (largest_army, rome)"));
                EmperorPlace::LargestArmy
            }
        };
        let tp_die = match r.get(t, &path, "tp_die").map(Value::as_bool) {
            Some(Some(b)) => b,
            _ => false,
        };
        d.emperor.push(EmperorRow { place, tp_die });
    }
    for (i, t) in r.records(tt, "chit").into_iter().enumerate() {
        read_chit(r, t, i, d);
    }
    for (i, t) in r.records(tt, "action").into_iter().enumerate() {
        let path = format!("tables.action[{i}]");
        let order = r.str(t, &path, "order").to_string();
        let who = r.str(t, &path, "who").to_string();
        d.actions.push(ActionDef { order, who });
    }
}

fn user(s: &str) -> Option<User> {
    Some(match s {
        "both" => User::Both,
        "roman" => User::Roman,
        "gp" => User::Gp,
        _ => return None,
    })
}

fn read_chit(r: &mut Reader, t: &Table, i: usize, d: &mut Data) {
    let path = format!("tables.chit[{i}]");
    let id = r.int(t, &path, "id");
    let title = r.str(t, &path, "title").to_string();
    let before = r.tags.len();
    let effect = r.str(t, &path, "effect").to_string();
    let stand_in = r.tags[before..].iter().any(|x| x.kind == ProvKind::StandIn);
    let timing = match r.str(t, &path, "timing") {
        "immediate" => Timing::Immediate,
        "action" => Timing::Action,
        "combat" => Timing::Combat,
        "roll" => Timing::Roll,
        o => {
            r.err(format!("{path}.timing: {o:?}"));
            Timing::Action
        }
    };
    let u = r.str(t, &path, "user");
    let user_v = user(u).unwrap_or_else(|| {
        r.err(format!("{path}.user: {u:?} (both, roman, gp)"));
        User::Both
    });
    let back = match r.str(t, &path, "back") {
        "pool" => Back::Pool,
        "turn" => Back::Turn,
        "removed" => Back::Removed,
        o => {
            r.err(format!("{path}.back: {o:?} (pool, turn, removed)"));
            Back::Pool
        }
    };
    let shown_by = match t.get("shown_by") {
        Some(_) => user(r.str(t, &path, "shown_by")),
        None => None,
    };
    if id as usize != i + 1 {
        r.err(format!("{path}.id: chits go 1 to 24 in order"));
    }
    d.chits.push(ChitDef {
        id: id as u8,
        title,
        effect,
        timing,
        user: user_v,
        back,
        shown_by,
        stand_in,
    });
}
