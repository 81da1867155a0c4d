//! The baseline: each session an independent seeded shuffle of all the players, cut into the
//! layout's tables (the last players of the shuffle sit out). Nothing is avoided or balanced;
//! the other methods are measured against the best of many such plans.

use super::rng::Draw;
use super::{Layout, Player, Session};

/// Cuts `order` into the layout's tables, in table order; the players after them sit out.
pub(crate) fn fill(layout: &Layout, order: &[Player]) -> Session {
    let mut rest = order;
    let tables = layout
        .tables()
        .iter()
        .map(|&size| {
            let (table, after) = rest.split_at(usize::from(size));
            rest = after;
            table.to_vec()
        })
        .collect();
    Session {
        tables,
        byes: rest.to_vec(),
    }
}

/// Every player, in number order.
pub(crate) fn everyone(layout: &Layout) -> Vec<Player> {
    (0..usize::from(layout.players()))
        .map(Player::from_index)
        .collect()
}

/// One shuffled session.
pub(crate) fn session(layout: &Layout, draw: &mut Draw) -> Session {
    let mut order = everyone(layout);
    draw.shuffle(&mut order);
    fill(layout, &order)
}

/// A whole plan of independent shuffles.
pub(crate) fn random(layout: &Layout, seed: u64) -> Vec<Session> {
    let mut draw = Draw::new(seed);
    (0..layout.sessions())
        .map(|_| session(layout, &mut draw))
        .collect()
}

/// Byes taken in turn: the players in a seeded order, each session's byes the next block of
/// that order (wrapping round), so that no player sits out twice before every other player has
/// sat out once.
pub(crate) fn byes_in_turn(layout: &Layout, draw: &mut Draw) -> Vec<Vec<Player>> {
    let mut order = everyone(layout);
    draw.shuffle(&mut order);
    let (n, r) = (order.len(), usize::from(layout.byes()));
    (0..usize::from(layout.sessions()))
        .map(|s| (0..r).map(|i| order[(s * r + i) % n]).collect())
        .collect()
}
