//! Thirteen Unique Wonders / Thirteen Orphans.
//!
//! Code §122(q): "one of each of the thirteen major tiles … plus a fourteenth tile which forms a
//! pair with any one of them". Babcock Fig. 33 says the same and adds that the fourteenth tile
//! may be the pair or the last missing single. It is the Code's one exception to four sets and a
//! pair (§122(c)), and the one hand that may rob a concealed kong (§58).

use crate::counts::TileCounts;
use crate::tile::Tile;

pub(super) fn is_complete(hand: &TileCounts) -> bool {
    Tile::THIRTEEN_MAJORS.iter().all(|&t| hand.get(t) >= 1)
        && Tile::ALL.iter().all(|&t| t.is_major() || hand.get(t) == 0)
}

#[cfg(test)]
mod tests {
    use crate::{parse_counts, SpecialShape, Tile};

    #[test]
    fn thirteen_way_call_and_single_call() {
        let shape = SpecialShape::ThirteenUniqueWonders;
        let all13 = parse_counts("19m 19p 19s ESWN RGP", None).unwrap();
        assert_eq!(shape.waits(&all13).len(), 13);
        let missing_g = parse_counts("19m 19p 19s ESWN RPP", None).unwrap();
        assert_eq!(shape.waits(&missing_g).to_tokens(), "G");
        let hand = parse_counts("19m 19p 19s ESWN RGPP", None).unwrap();
        assert!(shape.is_complete(&hand, "P".parse::<Tile>().unwrap()));
        let not = parse_counts("19m 19p 19s ESWN RGP 5p", None).unwrap();
        assert!(!shape.is_complete(&not, "5p".parse::<Tile>().unwrap()));
    }
}
