//! Twins for the noninterference test: a state equal to another in all a
//! viewer may see and different in what it may not (`Ruleset::twin`). A
//! ruleset builds its twins with this small seeded mixer, so a twin is a
//! function of its seed (the test prints the seed of a failing twin).
//! Nothing here is used in play.

/// A splitmix64 stream: good enough to pick which secrets a twin changes,
/// and the same on every machine.
#[derive(Debug, Clone)]
pub struct Mix(u64);

impl Mix {
    /// A stream from `seed`.
    pub fn new(seed: u64) -> Mix {
        Mix(seed ^ 0x5eed_7e57_0f7a_1c0d)
    }

    /// The next 64 bits of the stream.
    pub fn word(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.word() % n as u64) as usize
        }
    }

    /// True one time in `n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// Shuffles `v` in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mix_is_a_function_of_its_seed() {
        let a: Vec<u64> = (0..4).scan(Mix::new(7), |m, _| Some(m.word())).collect();
        let b: Vec<u64> = (0..4).scan(Mix::new(7), |m, _| Some(m.word())).collect();
        assert_eq!(a, b);
        assert_ne!(a[0], Mix::new(8).word());
        let mut v: Vec<u32> = (0..10).collect();
        Mix::new(1).shuffle(&mut v);
        v.sort();
        assert_eq!(v, (0..10).collect::<Vec<_>>());
        assert!((0..100).all(|_| Mix::new(3).below(5) < 5));
    }
}
