//! Victory (25.0): points at the end of the game and the levels of 25.52.

use super::bop::{self, Band};
use super::data::{Data, MarkerKind, Nat, Power};
use super::state::{Loc, State};
use umpire_core::ruleset::{Outcome, Side};

/// A player's victory points (25.11-25.13), with the sum's parts.
pub fn points(d: &Data, st: &State, p: Power) -> (i32, Vec<String>) {
    let v = &d.num.victory;
    let mut parts = Vec::new();
    let regions: u32 = (0..d.regions.len())
        .filter(|i| st.control[*i] == Some(p))
        .map(|i| d.regions[i].vp)
        .sum();
    parts.push(format!("regions {regions}"));
    // Ruling A53: any friendly combat unit occupies a city for its points.
    let cities: u32 = d
        .cities
        .iter()
        .filter(|c| st.occupies(c.sq, p))
        .map(|c| c.income)
        .sum();
    parts.push(format!("cities {cities}"));
    let count = |k: MarkerKind| {
        st.markers
            .iter()
            .filter(|m| m.owner == p && m.kind == k)
            .count() as u32
    };
    let markers = count(MarkerKind::TradingPost) * v.trading_post
        + count(MarkerKind::Railroad) * v.railroad
        + count(MarkerKind::Colony) * v.colony;
    parts.push(format!("markers {markers}"));
    let b = match bop::band(d, st.bop, p) {
        Some(Band::Mild) => v.bop_mild,
        Some(Band::Moderate) => v.bop_moderate,
        Some(Band::Strong) => v.bop_strong,
        None => 0,
    };
    parts.push(format!("balance of power {b}"));
    let treasury = st.treasury[p.index()].div_ceil(v.treasury_per);
    parts.push(format!("treasury {treasury}"));
    let mut total = (regions + cities + markers + b + treasury) as i32;
    if st.open_war == Some(p) {
        total += v.open_war;
        parts.push(format!("started open war {}", v.open_war));
    }
    let regulars_in = |name: &str, who: Nat| {
        d.find_city(name).is_some_and(|c| {
            st.units_at(Loc::Sq(d.city(c).sq))
                .any(|u| st.unit(u).nat == who)
        })
    };
    match p {
        Power::British if regulars_in("Orenburg", Nat::British) => {
            total += v.orenburg as i32;
            parts.push(format!("Orenburg {}", v.orenburg));
        }
        Power::Russian
            if regulars_in("Bushire", Nat::Russian) || regulars_in("Karachi", Nat::Russian) =>
        {
            total += v.gulf as i32;
            parts.push(format!("Bushire/Karachi {}", v.gulf));
        }
        _ => {}
    }
    (total, parts)
}

/// The level of a margin (25.52).
pub fn level(d: &Data, margin: u32) -> &'static str {
    let v = &d.num.victory;
    if margin < v.draw_below {
        "Draw"
    } else if margin < v.regional_below {
        "Regional Victory"
    } else if margin < v.continental_below {
        "Continental Victory"
    } else {
        "Imperial Victory"
    }
}

/// The game's result (25.51-25.52).
pub fn outcome(d: &Data, st: &State) -> Outcome {
    let (b, _) = points(d, st, Power::British);
    let (r, _) = points(d, st, Power::Russian);
    let margin = b.abs_diff(r);
    let lvl = level(d, margin);
    let winners = if lvl == "Draw" {
        Vec::new()
    } else if b > r {
        vec![Side(0)]
    } else {
        vec![Side(1)]
    };
    let who = match winners.first() {
        Some(Side(0)) => "British ",
        Some(_) => "Russian ",
        None => "",
    };
    Outcome {
        winners,
        summary: format!("{who}{lvl}: British {b}, Russian {r} victory points (25.52)"),
    }
}
