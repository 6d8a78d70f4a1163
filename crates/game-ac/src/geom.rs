//! Square-grid geometry for the Asia Crossroads map (2.1), over the core's
//! [`Square`](umpire_core::square::Square): labels `CCRR`, eight neighbours,
//! four across the sides and four across the vertices (13.2). This adds what
//! the rules need on top: which neighbours are diagonal, and the two squares
//! beside a diagonal step (13.22, ruling A22).

pub use umpire_core::square::Square as Sq;

/// The rules' questions about squares.
pub trait Grid {
    /// The eight neighbours with whether each is across a vertex (diagonal).
    fn around(self) -> [(Sq, bool); 8];
    /// `Some(true)` for a neighbour across a vertex, `Some(false)` across a side.
    fn adjacency(self, o: Sq) -> Option<bool>;
    /// The two squares beside a diagonal step.
    fn corners(self, o: Sq) -> [Sq; 2];
}

impl Grid for Sq {
    fn around(self) -> [(Sq, bool); 8] {
        use umpire_core::square::Dir8;
        Dir8::ALL.map(|d| (self.step(d), d.is_diagonal()))
    }

    fn adjacency(self, o: Sq) -> Option<bool> {
        self.dir_to(o).map(|d| d.is_diagonal())
    }

    fn corners(self, o: Sq) -> [Sq; 2] {
        [Sq::new(o.col, self.row), Sq::new(self.col, o.row)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_neighbours_and_distance() {
        let s: Sq = "0512".parse().unwrap();
        assert_eq!(s, Sq::new(5, 12));
        assert_eq!(s.to_string(), "0512");
        assert!("512".parse::<Sq>().is_err());
        assert_eq!(s.around().iter().filter(|(_, d)| *d).count(), 4);
        assert_eq!(s.distance(Sq::new(7, 13)), 2);
        assert_eq!(s.adjacency(Sq::new(6, 13)), Some(true));
        assert_eq!(s.adjacency(Sq::new(5, 13)), Some(false));
        assert_eq!(s.adjacency(Sq::new(7, 13)), None);
    }
}
