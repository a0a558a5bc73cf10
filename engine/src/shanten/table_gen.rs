// Generator of the per-suit max-overlap table. Included verbatim by `build.rs` (and by
// no library module), so it must compile as a plain item list without `use` of crate
// paths.
//
// A suit *pattern* is the 9 counts of one number suit, each 0..=4, total <= 14. Patterns
// are enumerated in lexicographic order (count of 1 most significant, ascending), which
// is the order of the combinatorial rank computed by `table::rank`. For each pattern the
// table stores, in one little-endian u16, the maximum *overlap* sum_i min(h_i, a_i)
// between the pattern h and any arrangement a of at most m sets (pungs or sequences)
// and at most p pairs inside the suit, with a_i <= 4, for m in 0..=4 and p in 0..=1:
//
// * low byte: the four increments v(m+1, 0) - v(m, 0) in 0..=3, two bits each
//   (bits 2m..2m+2);
// * high byte: the five pair increments v(m, 1) - v(m, 0) in 0..=2 as a base-3 number
//   (digit m has weight 3^m), < 243.
//
// The values are computed by a forward dynamic programme over the 9 positions whose
// state is (sequences started at i-1, sequences started at i-2, sets used, pair used);
// at each position the arrangement chooses a pung (0/1), the pair (0/1) and the number
// of sequences starting there, subject to the 4-copy limit. The depth-first enumeration
// shares the programme's prefix states between patterns with a common prefix, so the
// whole table costs about 10^8 simple steps.
//
// Only 126 distinct codes occur (the same count as Nyanten's suit classes). The
// library therefore embeds a one-byte *class* per pattern and, per pair of classes, the
// class of their (max, +) convolution; see `build_tables` below.

/// Number of suit patterns (9 counts, each 0..=4, total <= 14).
const SUIT_PATTERNS: usize = 405_350;

/// DP state count: s1 (0..=4) x s2 (0..=4) x m (0..=4) x p (0..=1).
const GEN_STATES: usize = 250;

const fn gen_state(s1: usize, s2: usize, m: usize, p: usize) -> usize {
    ((s1 * 5 + s2) * 5 + m) * 2 + p
}

/// One DP transition: from state, to state, arrangement count at this position.
#[derive(Clone, Copy)]
struct GenTransition {
    from: u8,
    to: u8,
    a: u8,
}

fn gen_transitions(allow_sequences: bool, out: &mut [GenTransition; 4096]) -> usize {
    let mut n = 0;
    for s1 in 0..5 {
        for s2 in 0..5 {
            for m in 0..5 {
                if s1 + s2 > m {
                    continue;
                }
                for p in 0..2 {
                    for pung in 0..2 {
                        for pair in 0..(2 - p) {
                            for s0 in 0..5 {
                                if s0 > 0 && !allow_sequences {
                                    continue;
                                }
                                let m2 = m + pung + s0;
                                let a = 3 * pung + 2 * pair + s0 + s1 + s2;
                                if m2 > 4 || a > 4 {
                                    continue;
                                }
                                out[n] = GenTransition {
                                    from: gen_state(s1, s2, m, p) as u8,
                                    to: gen_state(s0, s1, m2, p + pair) as u8,
                                    a: a as u8,
                                };
                                n += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    n
}

/// Encodes the at-most overlap values `v[m][p]` as described above.
fn gen_encode(v: &[[i16; 2]; 5]) -> u16 {
    let mut lo = 0u16;
    for m in 0..4 {
        let inc = v[m + 1][0] - v[m][0];
        assert!((0..=3).contains(&inc));
        lo |= (inc as u16) << (2 * m);
    }
    let mut hi = 0u16;
    let mut weight = 1u16;
    for row in v.iter() {
        let inc = row[1] - row[0];
        assert!((0..=2).contains(&inc));
        hi += inc as u16 * weight;
        weight *= 3;
    }
    lo | (hi << 8)
}

fn gen_finish(dp: &[i16; GEN_STATES], emit: &mut impl FnMut(u16)) {
    let mut v = [[-1i16; 2]; 5];
    for s1 in 0..5 {
        for s2 in 0..5 {
            for m in 0..5 {
                for p in 0..2 {
                    let x = dp[gen_state(s1, s2, m, p)];
                    // Sequences may not run past 9, so only states without pending
                    // sequences are complete arrangements.
                    if s1 == 0 && s2 == 0 && x > v[m][p] {
                        v[m][p] = x;
                    }
                }
            }
        }
    }
    // "At most m sets, at most p pairs": prefix maxima.
    for m in 0..5 {
        for p in 0..2 {
            let mut best = v[m][p];
            if m > 0 {
                best = best.max(v[m - 1][p]);
            }
            if p > 0 {
                best = best.max(v[m][0]);
            }
            v[m][p] = best;
        }
    }
    emit(gen_encode(&v));
}

#[allow(clippy::too_many_arguments)]
fn gen_rec(
    pos: usize,
    remaining: usize,
    dp: &[i16; GEN_STATES],
    with_seq: &[GenTransition],
    no_seq: &[GenTransition],
    emit: &mut impl FnMut(u16),
) {
    if pos == 9 {
        gen_finish(dp, emit);
        return;
    }
    // Sequences start at positions 0..=6 only.
    let transitions = if pos <= 6 { with_seq } else { no_seq };
    for h in 0..=remaining.min(4) {
        let mut next = [-1i16; GEN_STATES];
        for t in transitions {
            let cur = dp[t.from as usize];
            if cur < 0 {
                continue;
            }
            let val = cur + (h as i16).min(t.a as i16);
            let slot = &mut next[t.to as usize];
            if val > *slot {
                *slot = val;
            }
        }
        gen_rec(pos + 1, remaining - h, &next, with_seq, no_seq, emit);
    }
}

/// Calls `emit` with the encoded value of every suit pattern in rank order.
fn generate_suit_table(mut emit: impl FnMut(u16)) {
    let mut with_seq = [GenTransition {
        from: 0,
        to: 0,
        a: 0,
    }; 4096];
    let mut no_seq = [GenTransition {
        from: 0,
        to: 0,
        a: 0,
    }; 4096];
    let n_with = gen_transitions(true, &mut with_seq);
    let n_no = gen_transitions(false, &mut no_seq);
    let mut dp = [-1i16; GEN_STATES];
    dp[gen_state(0, 0, 0, 0)] = 0;
    gen_rec(0, 14, &dp, &with_seq[..n_with], &no_seq[..n_no], &mut emit);
}

/// An "at most" overlap vector `v[m][p]`.
type GenVec = [[u8; 2]; 5];

fn gen_decode(code: u16) -> GenVec {
    let mut v = [[0u8; 2]; 5];
    let lo = code & 0xFF;
    let mut hi = code >> 8;
    for m in 0..5 {
        if m > 0 {
            v[m][0] = v[m - 1][0] + ((lo >> (2 * (m - 1))) & 3) as u8;
        }
        v[m][1] = v[m][0] + (hi % 3) as u8;
        hi /= 3;
    }
    v
}

fn gen_conv(a: &GenVec, b: &GenVec) -> GenVec {
    let mut c = [[0u8; 2]; 5];
    for m in 0..5 {
        for m1 in 0..=m {
            let (x, y) = (a[m1], b[m - m1]);
            c[m][0] = c[m][0].max(x[0] + y[0]);
            c[m][1] = c[m][1].max(x[0] + y[1]).max(x[1] + y[0]);
        }
    }
    c
}

/// Honour-like group vector from a histogram (`hist[c]` types with `c` copies).
fn gen_honor_vector(hist: [usize; 5]) -> GenVec {
    let mut top = [0u8; 5];
    let mut n = 0;
    for c in (1..5).rev() {
        for _ in 0..hist[c] {
            if n < 5 {
                top[n] = c as u8;
                n += 1;
            }
        }
    }
    let mut v = [[0u8; 2]; 5];
    let mut sets = 0u8;
    for m in 0..5 {
        v[m][0] = sets;
        v[m][1] = sets + top[m].min(2);
        sets += top[m].min(3);
    }
    v
}

/// Interns `v` in `list`, returning its id.
fn gen_intern(list: &mut Vec<GenVec>, v: GenVec) -> u8 {
    let id = match list.iter().position(|x| *x == v) {
        Some(i) => i,
        None => {
            list.push(v);
            list.len() - 1
        }
    };
    assert!(id < 256, "too many classes");
    id as u8
}

/// All generated tables.
struct GenTables {
    /// Class of each suit pattern, in rank order.
    suit_class: Vec<u8>,
    /// Class of each honour key `n1 + 10 n2 + 100 n3 + 1000 n4` (0..10000).
    honor_class: Vec<u8>,
    /// `pair_ab[a * 128 + b]`: class of conv(suit a, suit b) (rows padded to 128).
    pair_ab: Vec<u8>,
    /// `pair_cd[c * 64 + h]`: class of conv(suit c, honour h) (rows padded to 64).
    pair_cd: Vec<u8>,
    /// `fin[(s * n_ab + ab) * 256 + cd]`: conv(ab, cd) at (s sets, 1 pair); sets-major
    /// with rows padded to 256, so closed hands touch one contiguous fifth.
    fin: Vec<u8>,
    n_suit: usize,
    n_honor: usize,
    n_ab: usize,
    n_cd: usize,
}

fn build_tables() -> GenTables {
    let mut suit_vecs: Vec<GenVec> = Vec::new();
    let mut suit_class = Vec::with_capacity(SUIT_PATTERNS);
    generate_suit_table(|code| {
        let v = gen_decode(code);
        suit_class.push(gen_intern(&mut suit_vecs, v));
    });
    assert_eq!(suit_class.len(), SUIT_PATTERNS);
    let mut honor_vecs: Vec<GenVec> = Vec::new();
    let mut honor_class = Vec::with_capacity(10_000);
    for key in 0..10_000usize {
        let hist = [0, key % 10, key / 10 % 10, key / 100 % 10, key / 1000];
        honor_class.push(gen_intern(&mut honor_vecs, gen_honor_vector(hist)));
    }
    let (n_suit, n_honor) = (suit_vecs.len(), honor_vecs.len());
    let mut ab_vecs: Vec<GenVec> = Vec::new();
    assert!(n_suit <= 128 && n_honor <= 64);
    let mut pair_ab = vec![0u8; n_suit * 128];
    for (i, a) in suit_vecs.iter().enumerate() {
        for (j, b) in suit_vecs.iter().enumerate() {
            pair_ab[i * 128 + j] = gen_intern(&mut ab_vecs, gen_conv(a, b));
        }
    }
    let mut cd_vecs: Vec<GenVec> = Vec::new();
    let mut pair_cd = vec![0u8; n_suit * 64];
    for (i, c) in suit_vecs.iter().enumerate() {
        for (j, h) in honor_vecs.iter().enumerate() {
            pair_cd[i * 64 + j] = gen_intern(&mut cd_vecs, gen_conv(c, h));
        }
    }
    assert!(cd_vecs.len() <= 256);
    let n_ab = ab_vecs.len();
    let mut fin = vec![0u8; 5 * n_ab * 256];
    for (i, ab) in ab_vecs.iter().enumerate() {
        for (j, cd) in cd_vecs.iter().enumerate() {
            let full = gen_conv(ab, cd);
            for (s, row) in full.iter().enumerate() {
                fin[(s * n_ab + i) * 256 + j] = row[1];
            }
        }
    }
    GenTables {
        suit_class,
        honor_class,
        pair_ab,
        pair_cd,
        fin,
        n_suit,
        n_honor,
        n_ab: ab_vecs.len(),
        n_cd: cd_vecs.len(),
    }
}
