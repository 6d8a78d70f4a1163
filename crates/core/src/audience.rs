//! Who may see what: every event, roll, order line and standing order has an
//! audience. A ruleset states it; the engine and the mail layer enforce it.

use super::ruleset::Side;
use serde::{Deserialize, Serialize};

/// Who is looking at a game: one side, the public, or the umpire. Views,
/// pictures and mails are made for a viewer; which one is never implied by
/// a missing side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Viewer {
    /// One side: what every side may see, and its own secrets.
    Side(Side),
    /// What every side may see, and nothing more: observers' mails, the
    /// club's game pages, `umpire map` and `show` without a side. It never
    /// shows more than any one side's view.
    Public,
    /// Everything the umpire knows: the admin's own tools alone (`umpire
    /// show --umpire`, `map --umpire`), never mailed or published.
    Umpire,
}

impl Viewer {
    /// The side looking, if it is one.
    pub fn side(self) -> Option<Side> {
        match self {
            Viewer::Side(s) => Some(s),
            _ => None,
        }
    }

    /// May this viewer see what is `side`'s alone (its hand, treasury,
    /// plans)? The side itself and the umpire may; the public may not.
    pub fn sees_own(self, side: Side) -> bool {
        match self {
            Viewer::Side(s) => s == side,
            Viewer::Public => false,
            Viewer::Umpire => true,
        }
    }

    /// May this viewer see an item told to `audience`?
    pub fn sees(self, audience: &Audience) -> bool {
        match self {
            Viewer::Side(s) => audience.sees(Some(s)),
            Viewer::Public => audience.is_public(),
            Viewer::Umpire => true,
        }
    }
}

/// Who may see an item while the game runs. Everything opens at the end.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    /// Every side (and observers).
    #[default]
    All,
    /// These sides only, sorted, never empty.
    Sides(Vec<Side>),
    /// Nobody but the umpire until it opens (hidden movement, a face-down discard).
    Umpire,
}

impl Audience {
    /// One side only.
    pub fn side(side: Side) -> Audience {
        Audience::Sides(vec![side])
    }

    /// Some sides; none at all means the umpire alone.
    pub fn sides(sides: impl IntoIterator<Item = Side>) -> Audience {
        let mut v: Vec<Side> = sides.into_iter().collect();
        v.sort();
        v.dedup();
        if v.is_empty() {
            Audience::Umpire
        } else {
            Audience::Sides(v)
        }
    }

    /// May `side` see it? `None` is an observer, who sees only public items.
    pub fn sees(&self, side: Option<Side>) -> bool {
        match (self, side) {
            (Audience::All, _) => true,
            (Audience::Sides(v), Some(s)) => v.contains(&s),
            _ => false,
        }
    }

    /// Seen by everyone?
    pub fn is_public(&self) -> bool {
        matches!(self, Audience::All)
    }

    /// The side whose own committed stream serves hidden rolls for this
    /// audience: the side itself when it is one side alone, else none (the
    /// umpire's stream, opened to the audience item by item and verified at the end).
    pub fn stream_side(&self) -> Option<Side> {
        match self {
            Audience::Sides(v) if v.len() == 1 => Some(v[0]),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_sees_what() {
        let a = Audience::side(Side(1));
        assert!(a.sees(Some(Side(1))));
        assert!(!a.sees(Some(Side(0))));
        assert!(!a.sees(None));
        assert!(Audience::All.sees(None));
        assert!(!Audience::Umpire.sees(Some(Side(0))));
        assert_eq!(Audience::sides([]), Audience::Umpire);
        assert_eq!(
            Audience::sides([Side(2), Side(0), Side(2)]),
            Audience::Sides(vec![Side(0), Side(2)])
        );
        assert_eq!(a.stream_side(), Some(Side(1)));
        assert!(Viewer::Side(Side(1)).sees(&a) && Viewer::Umpire.sees(&a));
        assert!(!Viewer::Public.sees(&a) && !Viewer::Side(Side(0)).sees(&a));
        assert!(Viewer::Public.sees(&Audience::All) && !Viewer::Public.sees(&Audience::Umpire));
        assert!(Viewer::Umpire.sees(&Audience::Umpire));
        assert!(Viewer::Umpire.sees_own(Side(0)) && !Viewer::Public.sees_own(Side(0)));
        assert_eq!(Audience::sides([Side(0), Side(1)]).stream_side(), None);
    }
}
