//! Where an adaptive HIT's chunk of systems is shown (issue 39 item 1: "documents or segments
//! chosen where the unresolved systems' outputs differ").
//!
//! A chunk opens with the open pair that one more observation narrows most; its segment is the
//! one where **that pair's outputs differ most**, measured by the character-level edit distance
//! (Levenshtein over Unicode scalar values, divided by the longer output's length: 0 identical,
//! 1 nothing in common), discounted by how often the segment was already used
//! (`distance / (1 + uses)`, so that the same few divergent segments are not shown over and
//! over and the decisions keep reading the whole test set), ties broken by least use and then by
//! the caller's order. A segment is taken at most once per HIT; segments the asking worker has
//! already seen are offered only when no other is left. Segments where two systems' outputs are
//! identical say nothing about their difference, and are chosen last.
//!
//! The candidates are the `pool` least-used segments (the caller's order), so that a hand-out
//! costs at most `pool` distances per pair of systems whatever the size of the test set;
//! distances are kept for the call.

use std::collections::HashMap;

/// Character-level edit distance between `a` and `b` over the longer one's length, in [0, 1]
/// (0 for two empty strings).
pub fn char_distance(a: &str, b: &str) -> f64 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let longer = a.len().max(b.len());
    if longer == 0 {
        return 0.0;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0usize; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()] as f64 / longer as f64
}

/// Candidates offered per chunk at most (the least used first).
pub const DEFAULT_POOL: usize = 256;

/// Chooses each chunk's segment (see the module's text).
pub struct SegmentPicker<'a> {
    /// Segment indices in the caller's order (unseen by the worker first, least used first).
    order: Vec<usize>,
    /// Uses of each segment index so far (SYSTEM items of the campaign's HITs).
    used: &'a dyn Fn(usize) -> usize,
    /// Segments the asking worker has seen.
    seen: &'a dyn Fn(usize) -> bool,
    /// The output of a system on a segment.
    output: &'a dyn Fn(usize, usize) -> Option<&'a str>,
    pool: usize,
    taken: std::collections::HashSet<usize>,
    cache: HashMap<(usize, usize, usize), f64>,
}

impl<'a> SegmentPicker<'a> {
    pub fn new(
        order: Vec<usize>,
        used: &'a dyn Fn(usize) -> usize,
        seen: &'a dyn Fn(usize) -> bool,
        output: &'a dyn Fn(usize, usize) -> Option<&'a str>,
        pool: usize,
    ) -> Self {
        SegmentPicker { order, used, seen, output, pool: pool.max(1), taken: Default::default(), cache: HashMap::new() }
    }

    /// How much the outputs of systems `a` and `b` differ on segment `g` (0 when one is missing).
    pub fn divergence(&mut self, a: usize, b: usize, g: usize) -> f64 {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        if let Some(&d) = self.cache.get(&(a, b, g)) {
            return d;
        }
        let d = match ((self.output)(a, g), (self.output)(b, g)) {
            (Some(x), Some(y)) => char_distance(x, y),
            _ => 0.0,
        };
        self.cache.insert((a, b, g), d);
        d
    }

    /// The segment for a chunk whose first two systems are its open pair; `None` when every
    /// segment is taken.
    pub fn pick(&mut self, chunk: &[usize]) -> Option<usize> {
        let (a, b) = (chunk[0], *chunk.get(1).unwrap_or(&chunk[0]));
        for unseen_only in [true, false] {
            let pool: Vec<usize> = self
                .order
                .iter()
                .copied()
                .filter(|g| !self.taken.contains(g) && (!unseen_only || !(self.seen)(*g)))
                .take(self.pool)
                .collect();
            let mut best: Option<(f64, usize, usize, usize)> = None; // (score, uses, position, g)
            for (pos, g) in pool.into_iter().enumerate() {
                let uses = (self.used)(g);
                let score = self.divergence(a, b, g) / (1 + uses) as f64;
                let better = match best {
                    None => true,
                    Some((s, u, p, _)) => score > s || (score == s && (uses, pos) < (u, p)),
                };
                if better {
                    best = Some((score, uses, pos, g));
                }
            }
            if let Some((_, _, _, g)) = best {
                self.taken.insert(g);
                return Some(g);
            }
        }
        None
    }

    /// Takes the next segment in the caller's order that no chunk took (for slots the open
    /// pairs leave).
    pub fn next_free(&mut self) -> Option<usize> {
        let g = self.order.iter().copied().find(|g| !self.taken.contains(g))?;
        self.taken.insert(g);
        Some(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_distance_is_levenshtein_over_the_longer_length() {
        assert_eq!(char_distance("", ""), 0.0);
        assert_eq!(char_distance("abc", "abc"), 0.0);
        assert_eq!(char_distance("abc", ""), 1.0);
        // kitten → sitting: 3 edits over 7 characters.
        assert!((char_distance("kitten", "sitting") - 3.0 / 7.0).abs() < 1e-12);
        assert!((char_distance("sitting", "kitten") - 3.0 / 7.0).abs() < 1e-12);
        // Characters, not bytes: one substitution in four.
        assert!((char_distance("Größe", "Grösse") - 2.0 / 6.0).abs() < 1e-12);
        assert_eq!(char_distance("ab", "ba"), 1.0);
    }

    /// Three systems on five segments: systems 0 and 1 agree on segments 0, 1 and 3, differ a
    /// little on 2 and wholly on 4.
    fn outputs(s: usize, g: usize) -> Option<&'static str> {
        const T: [[&str; 5]; 3] = [
            ["the cat sat", "a dog ran", "the house is big", "yes", "good morning to you"],
            ["the cat sat", "a dog ran", "the house is large", "yes", "xxxxxxxxxxxxxxxxxxx"],
            ["le chat", "un chien", "la maison", "oui", "bonjour"],
        ];
        T.get(s).and_then(|r| r.get(g)).copied()
    }

    #[test]
    fn a_chunk_goes_where_its_pairs_outputs_differ_most_then_least_used() {
        let unused = |_: usize| 0usize;
        let unseen = |_: usize| false;
        let out = |s: usize, g: usize| outputs(s, g);
        let mut p = SegmentPicker::new(vec![0, 1, 2, 3, 4], &unused, &unseen, &out, DEFAULT_POOL);
        assert_eq!(p.pick(&[0, 1]), Some(4), "wholly different outputs first");
        assert_eq!(p.pick(&[1, 0, 2]), Some(2), "then the one word apart; the pair's order does not matter");
        // Identical outputs tie at 0: the caller's order decides, each segment once per HIT.
        assert_eq!(p.pick(&[0, 1]), Some(0));
        assert_eq!(p.pick(&[0, 1]), Some(1));
        assert_eq!(p.pick(&[0, 1]), Some(3));
        assert_eq!(p.pick(&[0, 1]), None);

        // Ties broken by least use: segments 0–3 identical for (0, 1); 1 used least.
        let uses = |g: usize| [3usize, 1, 5, 2, 9][g];
        let mut p = SegmentPicker::new(vec![0, 1, 3], &uses, &unseen, &out, DEFAULT_POOL);
        assert_eq!(p.pick(&[0, 1]), Some(1));
        assert_eq!(p.pick(&[0, 1]), Some(3));

        // Use discounts divergence: segment 4 (distance 1, used 9 times: 0.1) loses to segment 2
        // (4 edits over 18 characters, unused).
        let uses = |g: usize| if g == 4 { 9 } else { 0 };
        let mut p = SegmentPicker::new(vec![4, 2], &uses, &unseen, &out, DEFAULT_POOL);
        let d2 = char_distance("the house is big", "the house is large");
        assert!(d2 > 0.1, "{d2}");
        assert_eq!(p.pick(&[0, 1]), Some(2));

        // Segments the worker has seen come last, however different.
        let seen = |g: usize| g == 4;
        let mut p = SegmentPicker::new(vec![0, 1, 2, 3, 4], &unused, &seen, &out, DEFAULT_POOL);
        assert_eq!(p.pick(&[0, 1]), Some(2));
        for _ in 0..3 {
            assert!(p.pick(&[0, 1]).is_some());
        }
        assert_eq!(p.pick(&[0, 1]), Some(4), "a seen segment only when no other is left");
        assert_eq!(p.next_free(), None);

        // The pool bounds the candidates: with a pool of 2, only the caller's first two.
        let mut p = SegmentPicker::new(vec![0, 1, 2, 3, 4], &unused, &unseen, &out, 2);
        assert_eq!(p.pick(&[0, 1]), Some(0));
        assert_eq!(p.next_free(), Some(1));
        assert_eq!(p.pick(&[0, 1]), Some(2));
    }
}
