//! Building [`Data`] from the files as read, checking every invariant the
//! rules rely on (`umpire data check ac`): one region per land square, one
//! capital per region (Khiva and Chitral by the errata, 2.81), Persia's six
//! cities (26.0 S1 3.5(2)), trade routes as chains of side-adjacent land
//! squares, every table the rules cite complete, scenarios that fit the map.
//! A test's fixture ([`Checks::Fixture`]) goes through the same checks but
//! those of the printed game's geography: see [`Checks`].

use super::data::*;
use super::geom::{Grid, Sq};
use super::prov::Tag;
use std::collections::{BTreeMap, BTreeSet};
use umpire_core::hash::Digest;

fn err(errors: &mut Vec<String>, s: impl Into<String>) {
    errors.push(s.into());
}

/// The four files as read, before the checks.
pub(super) struct Raw {
    /// `map.toml`.
    pub(super) map: RawMapFile,
    /// `units.toml`.
    pub(super) units: RawUnits,
    /// `tables.toml`.
    pub(super) tables: Numbers,
    /// `scenarios.toml`.
    pub(super) scenarios: RawScenarios,
}

/// Builds and checks the data.
pub(super) fn build(
    raw: Raw,
    tags: Vec<Tag>,
    hash: Digest,
    checks: Checks,
    errors: &mut Vec<String>,
) -> Option<Data> {
    let Raw {
        map: m,
        units: u,
        tables: t,
        scenarios: s,
    } = raw;
    // A fixture's regions are those its map draws, in the rulebook's order.
    let regions_by_code: Vec<&str> = REGION_NAMES
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| checks == Checks::Full || m.map.region_key.values().any(|v| v == c))
        .collect();
    let (squares, cities, regions) = map(&m, &t, &regions_by_code, checks, errors)?;
    let mut d = Data {
        cols: m.map.cols,
        rows: m.map.rows,
        squares,
        cities,
        regions,
        route_edges: BTreeSet::new(),
        route_sides: Vec::new(),
        base_routes: BTreeMap::new(),
        base_edges: BTreeMap::new(),
        base_seas: BTreeMap::new(),
        routes: Vec::new(),
        railways: m
            .railway
            .iter()
            .map(|r| (r.name.clone(), r.squares.clone()))
            .collect(),
        stats: BTreeMap::new(),
        overrides: BTreeMap::new(),
        mix: BTreeMap::new(),
        agents: Vec::new(),
        agent_mf: u.agents.mf,
        battle: Vec::new(),
        raid: Vec::new(),
        negotiations: Vec::new(),
        ultimatum: Vec::new(),
        events: Vec::new(),
        event_columns: Default::default(),
        scenarios: Vec::new(),
        num: t,
        enter_mp: [1; 3],
        tags,
        hash,
        version: super::VERSION,
    };
    routes(&mut d, &m, errors);
    base_edges(&mut d, checks, errors);
    units(&mut d, &u, checks, errors);
    tables(&mut d, checks, errors);
    for sc in &s.scenario {
        if let Some(x) = scenario(&d, sc, errors) {
            d.scenarios.push(x);
        }
    }
    Some(d)
}

type MapParts = (Vec<SquareInfo>, Vec<City>, Vec<Region>);

/// Whether `code` names one of the rulebook's regions that a fixture's map
/// leaves out (its pieces are then left out too, [`Checks::Fixture`]).
fn left_out(d: &Data, checks: Checks, code: &str) -> bool {
    checks == Checks::Fixture
        && d.region(code).is_none()
        && REGION_NAMES
            .iter()
            .any(|(c, _)| c.eq_ignore_ascii_case(code))
}

/// The map file read and checked: its squares, cities and regions (2.1, 26.0).
fn map(
    m: &RawMapFile,
    t: &Numbers,
    codes: &[&str],
    checks: Checks,
    errors: &mut Vec<String>,
) -> Option<MapParts> {
    let (cols, rows) = (m.map.cols, m.map.rows);
    let key = region_key(m, codes, checks, errors);
    let mut squares = squares(m, &key, errors)?;
    let mut cities = Vec::new();
    let mut capitals: BTreeMap<RegionId, Vec<CityId>> = BTreeMap::new();
    let mut of_region: BTreeMap<RegionId, Vec<CityId>> = BTreeMap::new();
    for (i, c) in m.city.iter().enumerate() {
        let id = CityId(i as u8);
        let Some(reg) = codes
            .iter()
            .position(|x| *x == c.region)
            .map(|i| RegionId(i as u8))
        else {
            err(
                errors,
                format!("city {}: unknown region {}", c.name, c.region),
            );
            continue;
        };
        let s = c.square;
        if !(1..=cols).contains(&s.col) || !(1..=rows).contains(&s.row) {
            err(errors, format!("city {} at {s} is off the map", c.name));
            continue;
        }
        let info = &mut squares[((s.row - 1) * cols + s.col - 1) as usize];
        if info.terrain == Terrain::Sea {
            err(errors, format!("city {} at {s} is in the sea", c.name));
        }
        if info.region != Some(reg) {
            err(
                errors,
                format!("city {} at {s} lies outside {}", c.name, c.region),
            );
        }
        if info.city.is_some() {
            err(
                errors,
                format!("city {} shares {s} with another city", c.name),
            );
        }
        info.city = Some(id);
        if c.capital {
            capitals.entry(reg).or_default().push(id);
        }
        of_region.entry(reg).or_default().push(id);
        cities.push(City {
            name: c.name.clone(),
            sq: s,
            region: reg,
            capital: c.capital,
            port: c.port,
            income: c.income,
        });
    }
    let regions = regions(t, codes, &capitals, &of_region, errors);
    if checks != Checks::Fixture {
        printed_capitals(codes, &cities, &regions, errors);
    }
    Some((squares, cities, regions))
}

/// `map.region_key`: each glyph of the region grid and its region.
fn region_key(
    m: &RawMapFile,
    codes: &[&str],
    checks: Checks,
    errors: &mut Vec<String>,
) -> BTreeMap<char, RegionId> {
    let key: BTreeMap<char, RegionId> = m
        .map
        .region_key
        .iter()
        .filter_map(|(k, v)| {
            let c = k.chars().next()?;
            match codes.iter().position(|x| x == v) {
                Some(i) => Some((c, RegionId(i as u8))),
                None => {
                    err(
                        errors,
                        format!("map.region_key: {v} is not a region code (26.0)"),
                    );
                    None
                }
            }
        })
        .collect();
    if checks == Checks::Full && key.len() != codes.len() {
        err(
            errors,
            format!(
                "map.region_key names {} regions, the rulebook 19 (26.0)",
                key.len()
            ),
        );
    }
    key
}

/// The squares from the terrain, region and river grids; `None` if a grid
/// has the wrong shape.
fn squares(
    m: &RawMapFile,
    key: &BTreeMap<char, RegionId>,
    errors: &mut Vec<String>,
) -> Option<Vec<SquareInfo>> {
    let (cols, rows) = (m.map.cols, m.map.rows);
    for (name, grid) in [
        ("terrain", &m.map.terrain),
        ("regions", &m.map.regions),
        ("rivers", &m.map.rivers),
    ] {
        if grid.len() != rows as usize || grid.iter().any(|r| r.chars().count() != cols as usize) {
            err(
                errors,
                format!("map.{name}: want {rows} rows of {cols} characters"),
            );
            return None;
        }
    }
    let mut squares = Vec::new();
    for r in 0..rows as usize {
        let tr: Vec<char> = m.map.terrain[r].chars().collect();
        let rr: Vec<char> = m.map.regions[r].chars().collect();
        let vr: Vec<char> = m.map.rivers[r].chars().collect();
        for c in 0..cols as usize {
            let sq = Sq::new(c as i32 + 1, r as i32 + 1);
            let terrain = terrain_glyph(tr[c]).unwrap_or_else(|| {
                err(
                    errors,
                    format!("map.terrain {sq}: unknown glyph {:?}", tr[c]),
                );
                Terrain::Clear
            });
            let region = key.get(&rr[c]).copied();
            if terrain == Terrain::Sea && region.is_some() {
                err(
                    errors,
                    format!("map {sq}: an all-sea square lies in a region"),
                );
            }
            if terrain != Terrain::Sea && region.is_none() {
                err(
                    errors,
                    format!("map {sq}: a land square in no region (2.11)"),
                );
            }
            squares.push(SquareInfo {
                terrain,
                region,
                river: vr[c] == 'r',
                city: None,
            });
        }
    }
    Some(squares)
}

/// The regions, each with one capital (15.0) and its victory points (2.14).
fn regions(
    t: &Numbers,
    codes: &[&str],
    capitals: &BTreeMap<RegionId, Vec<CityId>>,
    of_region: &BTreeMap<RegionId, Vec<CityId>>,
    errors: &mut Vec<String>,
) -> Vec<Region> {
    let mut regions = Vec::new();
    for (i, code) in codes.iter().enumerate() {
        let name = REGION_NAMES
            .iter()
            .find(|(c, _)| c == code)
            .map_or(*code, |(_, n)| *n);
        let r = RegionId(i as u8);
        let caps = capitals.get(&r).cloned().unwrap_or_default();
        if caps.len() != 1 {
            err(
                errors,
                format!("region {code} has {} capitals, want one (15.0)", caps.len()),
            );
        }
        let vp = t.region_vp.get(*code).copied().unwrap_or_else(|| {
            err(
                errors,
                format!("tables.region_vp: no value for {code} (2.14)"),
            );
            0
        });
        regions.push(Region {
            code: code.to_string(),
            name: name.to_string(),
            capital: caps.first().copied().unwrap_or(CityId(0)),
            cities: of_region.get(&r).cloned().unwrap_or_default(),
            vp,
        });
    }
    regions
}

/// The printed map's capitals the errata and set-ups name (errata 2.81,
/// 26.0 S1 3.5(2)); a fixture's map need not have them.
fn printed_capitals(codes: &[&str], cities: &[City], regions: &[Region], errors: &mut Vec<String>) {
    for (code, city) in [("KV", "Khiva"), ("PA", "Chitral")] {
        let i = codes.iter().position(|x| *x == code).unwrap_or(0);
        if regions
            .get(i)
            .and_then(|r| cities.get(r.capital.index()))
            .is_none_or(|c: &City| c.name != city)
        {
            err(
                errors,
                format!("{city} must be the capital of {code} (errata 2.81)"),
            );
        }
    }
    if let Some(pe) = codes.iter().position(|x| *x == "PE")
        && regions[pe].cities.len() != 6
    {
        err(
            errors,
            format!(
                "Persia has {} cities; the set-ups put a garrison in each of six (26.0 S1 3.5(2))",
                regions[pe].cities.len()
            ),
        );
    }
}

fn routes(d: &mut Data, m: &RawMapFile, errors: &mut Vec<String>) {
    for r in &m.route {
        for w in r.squares.windows(2) {
            if w[0].adjacency(w[1]) != Some(false) {
                err(
                    errors,
                    format!(
                        "route {}: {} to {} is not across a square side (ruling A20)",
                        r.name, w[0], w[1]
                    ),
                );
            }
            d.route_edges.insert((w[0], w[1]));
            d.route_edges.insert((w[1], w[0]));
        }
        for s in &r.squares {
            if !d.land(*s) {
                err(
                    errors,
                    format!("route {}: {s} is not a land square", r.name),
                );
            }
        }
        if let Some(b) = &r.base {
            match (Base::parse(b), r.squares.last()) {
                (Some(base), Some(last)) => {
                    d.base_routes.insert(*last, base);
                }
                _ => err(
                    errors,
                    format!("route {}: base {b:?} is not india or urals", r.name),
                ),
            }
        }
        d.routes.push((r.name.clone(), r.squares.clone()));
    }
    d.route_sides = vec![0; d.squares.len()];
    for (f, t) in &d.route_edges {
        if let (Some(i), Some(bit)) = (d.index(*f), super::data::route_side(*f, *t)) {
            d.route_sides[i] |= bit;
        }
    }
}

fn base_edges(d: &mut Data, checks: Checks, errors: &mut Vec<String>) {
    let (ws, ni) = (d.region("WS"), d.region("NI"));
    let mut urals = BTreeSet::new();
    let mut india = BTreeSet::new();
    for s in d.all_squares().collect::<Vec<_>>() {
        let Some(info) = d.sq(s) else { continue };
        if info.terrain == Terrain::Sea {
            continue;
        }
        // 19.12: land squares of West Siberia on the western or northern edge.
        if info.region == ws && (s.col == 1 || s.row == 1) {
            urals.insert(s);
        }
        // 19.11: squares of North India on the southern edge.
        if info.region == ni && s.row == d.rows {
            india.insert(s);
        }
    }
    for (b, s) in &d.base_routes {
        let ok = match s {
            Base::Urals => urals.contains(b),
            Base::India => india.contains(b),
        };
        if !ok {
            err(
                errors,
                format!(
                    "a route enters {} from {b}, which is not on its map edge (19.11, 19.12)",
                    s.name()
                ),
            );
        }
    }
    if checks == Checks::Full && (urals.is_empty() || india.is_empty()) {
        err(errors, "a home base has no map-edge squares (19.11, 19.12)");
    }
    d.base_edges.insert(Base::Urals, urals);
    d.base_edges.insert(Base::India, india);
    base_seas(d, checks, errors);
}

/// 19.11, 19.12: the Persian Gulf and the Caspian Sea, from one square each
/// (a fixture's map may have neither: an anchor off it is left out).
fn base_seas(d: &mut Data, checks: Checks, errors: &mut Vec<String>) {
    let mut anchors = Vec::new();
    for (b, s) in [
        (Base::India, &d.num.base_seas.india),
        (Base::Urals, &d.num.base_seas.urals),
    ] {
        match s.parse::<Sq>() {
            Ok(sq) if checks == Checks::Fixture && !d.on_map(sq) => {}
            Ok(sq) => anchors.push((b, sq)),
            Err(e) => err(errors, format!("base_seas.{}: {e}", b.key())),
        }
    }
    match super::basemove::seas(d, &anchors) {
        Ok(v) => d.base_seas.extend(v),
        Err(e) => err(errors, e),
    }
}

fn units(d: &mut Data, u: &RawUnits, checks: Checks, errors: &mut Vec<String>) {
    let mut highlighted = BTreeMap::new();
    for t in &u.unit_type {
        match Kind::parse(&t.key) {
            Some(k) => {
                highlighted.insert(k, t.highlighted);
            }
            None => err(errors, format!("units.unit_type: unknown kind {}", t.key)),
        }
    }
    for s in &u.stats {
        let (Some(k), Some(crt)) = (Kind::parse(&s.kind), crt_letter(&s.crt)) else {
            err(
                errors,
                format!("units.stats: bad kind {} or crt {}", s.kind, s.crt),
            );
            continue;
        };
        let regular = match s.class.as_str() {
            "regular" => true,
            "native" => false,
            other => {
                err(
                    errors,
                    format!("units.stats: class {other:?} is not regular or native"),
                );
                continue;
            }
        };
        let st = Stats {
            strength: s.strength,
            crt,
            mf: s.mf,
            highlighted: highlighted.get(&k).copied().unwrap_or(false),
        };
        d.stats.insert((regular, k), st);
    }
    for o in &u.overrides {
        if left_out(d, checks, &o.nat) {
            continue;
        }
        let (Some(n), Some(k), Some(crt)) = (
            d.parse_nat(&o.nat),
            Kind::parse(&o.kind),
            crt_letter(&o.crt),
        ) else {
            err(
                errors,
                format!("units.override: bad {} {} {}", o.nat, o.kind, o.crt),
            );
            continue;
        };
        let st = Stats {
            strength: o.strength,
            crt,
            mf: o.mf,
            highlighted: highlighted.get(&k).copied().unwrap_or(false),
        };
        d.overrides.insert((n, k), st);
    }
    for (nat, kinds) in &u.mix {
        if left_out(d, checks, nat) {
            continue;
        }
        let Some(n) = d.parse_nat(nat) else {
            err(errors, format!("units.mix: unknown nationality {nat}"));
            continue;
        };
        for (k, count) in kinds {
            match Kind::parse(k) {
                Some(kind) => {
                    if !d.stats.contains_key(&(n.regular().is_some(), kind))
                        && !d.stats.contains_key(&(n.regular().is_none(), kind))
                    {
                        err(
                            errors,
                            format!("units.mix: {nat} {k} has no values in [[stats]]"),
                        );
                    }
                    d.mix.insert((n, kind), *count);
                }
                None => err(errors, format!("units.mix.{nat}: unknown kind {k}")),
            }
        }
    }
    agents(d, u, checks, errors);
}

fn agents(d: &mut Data, u: &RawUnits, checks: Checks, errors: &mut Vec<String>) {
    let mut seen = BTreeSet::new();
    for a in &u.agent {
        if left_out(d, checks, &a.side) {
            continue;
        }
        let side = match Power::parse(&a.side) {
            Some(p) => AgentSide::Power(p),
            None => match d.region(&a.side) {
                Some(r) => AgentSide::Native(r),
                None => {
                    err(errors, format!("agent {}: side {} unknown", a.name, a.side));
                    continue;
                }
            },
        };
        if a.periods.iter().any(|p| !(1..=3).contains(p)) {
            err(errors, format!("agent {}: periods are 1-3 (16.6)", a.name));
        }
        let id = slug(&a.name);
        if !seen.insert(id.clone()) {
            err(errors, format!("agent {} is listed twice", a.name));
        }
        d.agents.push(AgentInfo {
            id,
            name: a.name.clone(),
            side,
            kind: AgentKind::Named,
            political: a.political,
            military: a.military,
            periods: a.periods.clone(),
        });
    }
    let g = &u.generic;
    for i in 1..=g.pundits {
        d.agents.push(AgentInfo {
            id: format!("pundit{i}"),
            name: format!("Pundit {i}"),
            side: AgentSide::Power(Power::British),
            kind: AgentKind::Pundit,
            political: g.pundit_political,
            military: g.pundit_military,
            periods: Vec::new(),
        });
    }
    for (i, r) in d.regions.iter().enumerate() {
        d.agents.push(AgentInfo {
            id: format!("khan-{}", r.code.to_ascii_lowercase()),
            name: format!("Khan ({})", r.code),
            side: AgentSide::Native(RegionId(i as u8)),
            kind: AgentKind::Khan,
            political: g.khan_political,
            military: g.khan_military,
            periods: Vec::new(),
        });
    }
    d.agents.push(AgentInfo {
        id: "mad-mullah".into(),
        name: "Mad Mullah".into(),
        side: AgentSide::Ghazi,
        kind: AgentKind::Mullah,
        political: g.mullah_political,
        military: g.mullah_military,
        periods: Vec::new(),
    });
}

fn grid<T>(
    name: &str,
    rows: &[Vec<String>],
    width: usize,
    parse: fn(&str) -> Option<T>,
    errors: &mut Vec<String>,
) -> Vec<Vec<T>> {
    if rows.len() != 8 {
        err(
            errors,
            format!(
                "tables.{name}: want 8 rows (modified die <=0 to >=7), found {}",
                rows.len()
            ),
        );
    }
    let mut out = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        if r.len() != width {
            err(
                errors,
                format!(
                    "tables.{name} row {i}: want {width} cells, found {}",
                    r.len()
                ),
            );
        }
        let mut row = Vec::new();
        for c in r {
            match parse(c) {
                Some(x) => row.push(x),
                None => err(errors, format!("tables.{name} row {i}: cannot read {c:?}")),
            }
        }
        out.push(row);
    }
    out
}

fn tables(d: &mut Data, checks: Checks, errors: &mut Vec<String>) {
    terrain_costs(d, errors);
    result_tables(d, errors);
    economy_tables(d, checks, errors);
    d.events = d.num.event.iter().map(|e| event_def(e, errors)).collect();
    d.event_columns = event_columns(&d.num.events, &d.events, errors);
}

/// The Terrain Effects Chart's movement costs, clear, desert and mountain.
fn terrain_costs(d: &mut Data, errors: &mut Vec<String>) {
    for (i, k) in ["clear", "desert", "mountain"].into_iter().enumerate() {
        match d.num.terrain.get(k) {
            Some(t) => d.enter_mp[i] = t.mp,
            None => err(errors, format!("tables.terrain.{k} is missing (TEC)")),
        }
    }
}

/// The combat, raid, Negotiations and Ultimatum tables as grids (15.62).
fn result_tables(d: &mut Data, errors: &mut Vec<String>) {
    let n = &d.num;
    d.battle = grid("battle_crt", &n.battle_crt.rows, 7, crt_cell, errors);
    d.raid = grid("raid_crt", &n.raid_crt.rows, 7, crt_cell, errors);
    d.negotiations = grid(
        "negotiations",
        &n.negotiations.rows,
        n.negotiations.columns.len(),
        neg_cell,
        errors,
    );
    d.ultimatum = grid(
        "ultimatum",
        &n.ultimatum.rows,
        n.ultimatum.columns.len(),
        neg_cell,
        errors,
    );
    if n.negotiations.columns.len() != 7 || n.ultimatum.columns.len() != 8 {
        err(
            errors,
            "tables: the Negotiations Table needs 7 columns, the Ultimatum Table 8 (15.62)",
        );
    }
}

/// The discovery, income and key-city tables.
fn economy_tables(d: &Data, checks: Checks, errors: &mut Vec<String>) {
    let n = &d.num;
    super::discovery::check_table(&n.discovery, errors);
    if n.income.home.len() != 7 {
        err(
            errors,
            "tables.income.home: want 7 values, for a modified die of <=1 to >=7",
        );
    }
    for k in &n.key_cities.cities {
        if d.find_city(k).is_none() && checks == Checks::Full {
            err(errors, format!("tables.key_cities: no city {k}"));
        }
    }
}

/// One `[[event]]` as read: its effect and whom it strikes.
fn event_def(e: &RawEvent, errors: &mut Vec<String>) -> EventDef {
    let (key, name, effect, who, dice) = e.parts();
    let effect = match effect {
        "none" => Effect::None,
        "pounds" => Effect::Pounds,
        "lose_pounds" => Effect::LosePounds,
        "lose_sp" => Effect::LoseSp,
        "uprising" => Effect::Uprising,
        "unrest" => Effect::Unrest,
        "accord" => Effect::Accord,
        "jihad" => Effect::Jihad,
        "mutiny" => Effect::Mutiny,
        other => {
            err(errors, format!("event {key}: unknown effect {other}"));
            Effect::None
        }
    };
    let who = match who.unwrap_or("both") {
        "roller" => Who::Roller,
        "other" => Who::Other,
        "both" => Who::Both,
        p => match Power::parse(p) {
            Some(p) => Who::Power(p),
            None => {
                err(errors, format!("event {key}: who {p:?} unknown"));
                Who::Both
            }
        },
    };
    EventDef {
        key: key.into(),
        name: name.into(),
        effect,
        who,
        dice,
    }
}

/// The Events Table's four columns of six (8.1), as indices into `events`.
fn event_columns(
    cols: &EventColumns,
    events: &[EventDef],
    errors: &mut Vec<String>,
) -> [Vec<usize>; 4] {
    let cols = [&cols.col_a, &cols.col_b, &cols.col_c, &cols.col_d];
    let mut idx: [Vec<usize>; 4] = Default::default();
    for (i, col) in cols.iter().enumerate() {
        if col.len() != 6 {
            err(
                errors,
                format!(
                    "tables.events column {}: want 6 events (8.1)",
                    "ABCD".as_bytes()[i] as char
                ),
            );
        }
        for k in col.iter() {
            match events.iter().position(|e| &e.key == k) {
                Some(x) => idx[i].push(x),
                None => err(errors, format!("tables.events: no [[event]] {k}")),
            }
        }
    }
    idx
}

fn parse_units(d: &Data, s: &str) -> Option<(Nat, Kind, u32)> {
    let w: Vec<&str> = s.split_whitespace().collect();
    if w.len() != 3 {
        return None;
    }
    Some((d.parse_nat(w[0])?, Kind::parse(w[1])?, w[2].parse().ok()?))
}

/// A scenario read and checked against the map, the agents and the counter mix (26.0).
fn scenario(d: &Data, s: &RawScenario, errors: &mut Vec<String>) -> Option<Scenario> {
    let mut control = Vec::new();
    for (p, list) in [(Power::British, &s.british), (Power::Russian, &s.russian)] {
        for c in list {
            match d.region(c) {
                Some(r) => control.push((r, p)),
                None => err(errors, format!("scenario {}: no region {c}", s.key)),
            }
        }
    }
    let picks = picks(d, s, errors);
    let mut places = Vec::new();
    let mut used: BTreeMap<(Nat, Kind), u32> = BTreeMap::new();
    let mut agents_seen = BTreeSet::new();
    for p in &s.place {
        let Some(at) = place_at(d, s, p, errors) else {
            continue;
        };
        let region = match at {
            At::Sq(sq) => d.sq(sq).and_then(|i| i.region),
            At::Base(_) => None,
        };
        let units = placed_units(d, s, p, region, &control, &mut used, errors);
        let agents = placed_agents(d, s, p, region, &mut agents_seen, errors);
        let markers = placed_markers(d, s, p, at, errors);
        let pick = placed_pick(d, s, p, at, &picks, errors);
        places.push(Placement {
            at,
            units,
            agents,
            markers,
            pick,
        });
    }
    within_the_mix(d, s, &used, errors);
    let first_setter = Power::parse(&s.first_setter).unwrap_or_else(|| {
        err(
            errors,
            format!("scenario {}: first_setter {}", s.key, s.first_setter),
        );
        Power::British
    });
    if s.bop == 0 || s.bop.abs() > d.num.bop.limit {
        err(
            errors,
            format!(
                "scenario {}: index {} is not on the track (4.3, errata)",
                s.key, s.bop
            ),
        );
    }
    each_city_defaults(d, &s.key, &picks, &places, errors);
    let money = |k: &str| s.treasury.get(k).copied().unwrap_or(0);
    Some(Scenario {
        key: s.key.clone(),
        title: s.title.clone(),
        turns: s.turns,
        first_year: s.first_year,
        bop: s.bop,
        first_setter,
        treasury: [money("british"), money("russian")],
        control,
        no_events_first_turn: s.no_events_first_turn,
        ranjit_singh: s.ranjit_singh,
        mutiny_done: s.mutiny_done,
        places,
        picks,
    })
}

/// Where a placement is: a home base, a city or a square.
fn place_at(d: &Data, s: &RawScenario, p: &RawPlace, errors: &mut Vec<String>) -> Option<At> {
    if let Some(b) = Base::parse(&p.at) {
        Some(At::Base(b))
    } else if let Some(c) = d.find_city(&p.at) {
        Some(At::Sq(d.city(c).sq))
    } else if let Ok(sq) = p.at.parse::<Sq>() {
        Some(At::Sq(sq))
    } else {
        err(errors, format!("scenario {}: no place {}", s.key, p.at));
        None
    }
}

/// A placement's units, counted into `used` for the counter mix.
fn placed_units(
    d: &Data,
    s: &RawScenario,
    p: &RawPlace,
    region: Option<RegionId>,
    control: &[(RegionId, Power)],
    used: &mut BTreeMap<(Nat, Kind), u32>,
    errors: &mut Vec<String>,
) -> Vec<(Nat, Kind, u32)> {
    let mut units = Vec::new();
    for us in &p.units {
        let Some((n, k, c)) = parse_units(d, us) else {
            err(
                errors,
                format!("scenario {} at {}: cannot read units {us:?}", s.key, p.at),
            );
            continue;
        };
        // Neutral units start in their own region (26.0 "in any X cities");
        // controlled ones may not (S2 3.8(2) puts a Nepal brigade in India).
        if let Nat::Native(r) = n
            && region != Some(r)
            && !control.iter().any(|(c, _)| *c == r)
        {
            err(
                errors,
                format!(
                    "scenario {} at {}: neutral {us} set up outside its region",
                    s.key, p.at
                ),
            );
        }
        *used.entry((n, k)).or_insert(0) += c;
        units.push((n, k, c));
    }
    units
}

/// A placement's agents by id (a Khan of its region, the next pundit), each
/// placed once.
fn placed_agents(
    d: &Data,
    s: &RawScenario,
    p: &RawPlace,
    region: Option<RegionId>,
    agents_seen: &mut BTreeSet<String>,
    errors: &mut Vec<String>,
) -> Vec<String> {
    let mut agents = Vec::new();
    for a in &p.agents {
        let id = if a.eq_ignore_ascii_case("khan") {
            match region {
                Some(r) => format!("khan-{}", d.reg(r).code.to_ascii_lowercase()),
                None => {
                    err(
                        errors,
                        format!("scenario {}: a Khan outside any region", s.key),
                    );
                    continue;
                }
            }
        } else if a.eq_ignore_ascii_case("pundit") {
            (1..)
                .map(|i| format!("pundit{i}"))
                .find(|x| !agents_seen.contains(x))
                .unwrap_or_default()
        } else {
            slug(a)
        };
        if d.find_agent(&id).is_none() {
            err(errors, format!("scenario {}: no agent {a}", s.key));
        }
        if !agents_seen.insert(id.clone()) {
            err(
                errors,
                format!("scenario {}: agent {a} placed twice", s.key),
            );
        }
        agents.push(id);
    }
    agents
}

/// A placement's civilization markers; colonies and trading posts in a city
/// only (20.31, 20.33).
fn placed_markers(
    d: &Data,
    s: &RawScenario,
    p: &RawPlace,
    at: At,
    errors: &mut Vec<String>,
) -> Vec<(Power, MarkerKind)> {
    let mut markers = Vec::new();
    for m in &p.markers {
        let w: Vec<&str> = m.split_whitespace().collect();
        match (
            w.first().and_then(|x| Power::parse(x)),
            w.get(1).and_then(|x| MarkerKind::parse(x)),
        ) {
            (Some(pw), Some(k)) => {
                let city = matches!(at, At::Sq(sq) if d.city_at(sq).is_some());
                if matches!(k, MarkerKind::Colony | MarkerKind::TradingPost) && !city {
                    err(
                        errors,
                        format!(
                            "scenario {}: a {} off a city (20.31, 20.33)",
                            s.key,
                            k.key()
                        ),
                    );
                }
                markers.push((pw, k));
            }
            _ => err(
                errors,
                format!("scenario {}: cannot read marker {m:?}", s.key),
            ),
        }
    }
    markers
}

/// The set-up choice a placement belongs to, if any, at a place it allows.
fn placed_pick(
    d: &Data,
    s: &RawScenario,
    p: &RawPlace,
    at: At,
    picks: &[Pick],
    errors: &mut Vec<String>,
) -> Option<usize> {
    let k = p.pick.as_ref()?;
    let i = picks.iter().position(|x| x.key == *k);
    match (i, at) {
        (None, _) => err(errors, format!("scenario {}: no pick {k}", s.key)),
        (Some(i), At::Sq(sq)) if !picks[i].allows(d, sq) => err(
            errors,
            format!(
                "scenario {}: {} is not a place pick {k} allows",
                s.key, p.at
            ),
        ),
        (Some(_), At::Base(_)) => err(
            errors,
            format!("scenario {}: pick {k} in a home base", s.key),
        ),
        _ => {}
    }
    i
}

/// 10.62: a scenario sets up no more units of a kind than the counter mix has.
fn within_the_mix(
    d: &Data,
    s: &RawScenario,
    used: &BTreeMap<(Nat, Kind), u32>,
    errors: &mut Vec<String>,
) {
    for ((n, k), c) in used {
        let have = d.mix.get(&(*n, *k)).copied().unwrap_or(0);
        if *c > have {
            err(
                errors,
                format!(
                    "scenario {} sets up {c} {} {} but the counter mix has {have} (10.62)",
                    s.key,
                    d.nat_code(*n),
                    k.key()
                ),
            );
        }
    }
}

/// The scenario's set-up choices (26.0).
fn picks(d: &Data, s: &RawScenario, errors: &mut Vec<String>) -> Vec<Pick> {
    let mut out: Vec<Pick> = Vec::new();
    for p in &s.pick {
        let Some(setter) = Power::parse(&p.setter) else {
            err(
                errors,
                format!("scenario {} pick {}: setter {}", s.key, p.key, p.setter),
            );
            continue;
        };
        let mut regions = Vec::new();
        for c in &p.regions {
            match d.region(c) {
                Some(r) => regions.push(r),
                None => err(
                    errors,
                    format!("scenario {} pick {}: no region {c}", s.key, p.key),
                ),
            }
        }
        let non_city = match p.squares.as_deref() {
            None | Some("cities") => false,
            Some("non-city") => true,
            Some(x) => {
                err(
                    errors,
                    format!(
                        "scenario {} pick {}: squares {x:?} (cities | non-city)",
                        s.key, p.key
                    ),
                );
                false
            }
        };
        if out.iter().any(|x| x.key == p.key) {
            err(errors, format!("scenario {}: pick {} twice", s.key, p.key));
        }
        out.push(Pick {
            key: p.key.clone(),
            setter,
            regions,
            non_city,
            each_city: p.each_city,
            paired: p.paired,
        });
    }
    out
}

/// Ruling A58: the default set-up of an "at least one unit per city" choice
/// puts a unit in every city of its regions.
fn each_city_defaults(
    d: &Data,
    key: &str,
    picks: &[Pick],
    places: &[Placement],
    errors: &mut Vec<String>,
) {
    for (i, p) in picks.iter().enumerate().filter(|(_, p)| p.each_city) {
        for r in &p.regions {
            for c in &d.reg(*r).cities {
                let sq = d.city(*c).sq;
                let held = places
                    .iter()
                    .any(|x| x.pick == Some(i) && x.at == At::Sq(sq) && !x.units.is_empty());
                if !held {
                    err(
                        errors,
                        format!(
                            "scenario {key} pick {}: {} holds none of its units (ruling A58)",
                            p.key,
                            d.city(*c).name
                        ),
                    );
                }
            }
        }
    }
}
