//! # Test data: a xorshift64 draw
//!
//! The deterministic pseudo-random numbers the unit tests build their instances from (no
//! dependency, the same numbers on every platform).

/// Marsaglia's xorshift64 (shifts 13, 7, 17) from the state it holds (not 0).
pub(crate) struct Draw(pub u64);

impl Draw {
    /// The next state.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// The next state's top 53 bits as a value in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}
