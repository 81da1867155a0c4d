//! Hands followed live: each recorded action of a hand in play is announced to whoever follows
//! it (`GET /hands/{hand}/live`, Server-Sent Events), so that the table page and the replay
//! viewer advance without reloading.
//!
//! An announcement carries no tile and nothing of any hand: only the stream's version and the
//! number of the play's last entry. Each follower then reads the hand as *it* may see it (the
//! public never a concealed tile, Code §27), through the page it is on. One channel per hand
//! followed, made when the first follower arrives and dropped once no one follows; a follower
//! too slow for a burst of announcements skips to the latest (only the latest matters).

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::broadcast;

/// How many announcements a channel holds for a slow follower.
const BACKLOG: usize = 16;

/// The announcement of one recorded action: the hand's version and its play's last entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moved {
    pub version: u64,
    pub at: usize,
}

impl Moved {
    /// As one Server-Sent Event.
    pub fn as_event(self) -> String {
        format!(
            "event: play\nid: {}\ndata: {{\"version\":{},\"at\":{}}}\n\n",
            self.version, self.version, self.at
        )
    }
}

/// The channels of the hands being followed.
#[derive(Default)]
pub struct Live {
    channels: Mutex<HashMap<String, broadcast::Sender<Moved>>>,
}

impl Live {
    /// Announces that `hand` moved to `moved`, to whoever follows it.
    pub fn published(&self, hand: &str, moved: Moved) {
        let Ok(mut channels) = self.channels.lock() else {
            return;
        };
        if let Some(tx) = channels.get(hand) {
            if tx.send(moved).is_err() {
                // No one follows it any more.
                channels.remove(hand);
            }
        }
    }

    /// Follows `hand`: every announcement from now on.
    pub fn follow(&self, hand: &str) -> Option<broadcast::Receiver<Moved>> {
        let mut channels = self.channels.lock().ok()?;
        // The channels of hands no one follows any more (their followers left, no action came).
        channels.retain(|_, tx| tx.receiver_count() > 0);
        let tx = channels
            .entry(hand.to_owned())
            .or_insert_with(|| broadcast::channel(BACKLOG).0);
        Some(tx.subscribe())
    }

    /// Announces the action `p` recorded.
    pub fn announce(&self, p: &crate::app::commands::play::Played) {
        self.published(
            p.stream.id(),
            Moved {
                version: p.version,
                at: p.play.events().saturating_sub(1),
            },
        );
    }

    /// How many hands are followed now.
    pub fn followed(&self) -> usize {
        self.channels.lock().map_or(0, |c| c.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_follower_hears_each_move_and_a_hand_no_one_follows_is_dropped() {
        let live = Live::default();
        let moved = Moved { version: 7, at: 5 };
        // No one follows: nothing is kept.
        live.published("t1-g1-h1", moved);
        assert_eq!(live.followed(), 0);
        let mut rx = live.follow("t1-g1-h1").unwrap();
        live.published("t1-g1-h1", moved);
        live.published("t1-g1-h2", Moved { version: 1, at: 0 });
        assert_eq!(rx.try_recv().unwrap(), moved);
        assert!(rx.try_recv().is_err());
        assert_eq!(
            moved.as_event(),
            "event: play\nid: 7\ndata: {\"version\":7,\"at\":5}\n\n"
        );
        drop(rx);
        live.published("t1-g1-h1", moved);
        assert_eq!(live.followed(), 0);
        // A follower that left before any action is forgotten at the next follow.
        drop(live.follow("t1-g1-h3"));
        let _kept = live.follow("t1-g1-h4");
        assert_eq!(live.followed(), 1);
    }
}
