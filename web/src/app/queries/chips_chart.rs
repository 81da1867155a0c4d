//! A player's chips hand by hand as an SVG line chart drawn on the server (no script): x is the
//! player's hands in order, y their chips (the starting chips plus the running net), with a
//! line at zero, where a player has run out. The drawing scales to its container (a `viewBox`
//! and `width="100%"`), so it fits a 390-pixel phone; it is an image to assistive technology
//! (`role="img"`) whose `<title>` and `aria-label` say where the chips started, ended and were
//! lowest.

use serde::Serialize;

use super::signed;

/// The drawing's own coordinates (the `viewBox`).
const WIDTH: f64 = 360.0;
const HEIGHT: f64 = 180.0;
const LEFT: f64 = 52.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 26.0;

/// A label on an axis: where, and what it says.
#[derive(Clone, Debug, Serialize)]
pub struct AxisLabel {
    pub x: String,
    pub y: String,
    pub text: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct ChipsChart {
    pub width: f64,
    pub height: f64,
    pub title: String,
    /// What the chart shows, in words.
    pub description: String,
    /// The line: "x,y x,y …".
    pub points: String,
    /// The zero line's height.
    pub zero_y: String,
    pub left: f64,
    pub right_edge: f64,
    pub labels: Vec<AxisLabel>,
    /// The lowest point, marked.
    pub low_x: String,
    pub low_y: String,
    /// The bottom of the plot, where the y axis ends.
    pub axis_bottom: String,
    pub hands: usize,
    pub start: i64,
    pub end: i64,
    pub low: i64,
}

fn coord(v: f64) -> String {
    format!("{v:.1}")
}

/// The chart of `name`'s chips: `start` chips, then each hand's net in order.
pub fn chart(name: &str, start: i64, nets: &[i64]) -> ChipsChart {
    let mut chips = Vec::with_capacity(nets.len() + 1);
    chips.push(start);
    for n in nets {
        let last = *chips.last().unwrap_or(&start);
        chips.push(last.saturating_add(*n));
    }
    let end = *chips.last().unwrap_or(&start);
    // The lowest point (the first, among equals) and after which hand.
    let (low_at, low) = chips
        .iter()
        .copied()
        .enumerate()
        .min_by_key(|&(i, c)| (c, i))
        .unwrap_or((0, start));
    let high = chips.iter().copied().max().unwrap_or(start);
    let top = high.max(0);
    let bottom = low.min(0);
    let span = (top - bottom).max(1) as f64;
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |i: usize| LEFT + plot_w * i as f64 / nets.len().max(1) as f64;
    let y = |c: i64| TOP + plot_h * (top - c) as f64 / span;
    let points = chips
        .iter()
        .enumerate()
        .map(|(i, &c)| format!("{},{}", coord(x(i)), coord(y(c))))
        .collect::<Vec<_>>()
        .join(" ");
    let hands = nets.len();
    let description = if hands == 0 {
        format!("{name} has played no hands yet: {start} chips.")
    } else {
        format!(
            "{name}'s chips over {hands} hand{}: started at {start}, ended at {end} ({}), lowest {low}{}.",
            if hands == 1 { "" } else { "s" },
            signed(end - start),
            if low_at == 0 {
                " at the start".to_owned()
            } else {
                format!(" after hand {low_at}")
            },
        )
    };
    let y_label = |c: i64| AxisLabel {
        x: coord(LEFT - 4.0),
        y: coord(y(c) + 4.0),
        text: c.to_string(),
    };
    let mut labels = vec![y_label(top)];
    if bottom != top {
        labels.push(y_label(bottom));
    }
    if top != 0 && bottom != 0 {
        labels.push(y_label(0));
    }
    ChipsChart {
        width: WIDTH,
        height: HEIGHT,
        title: format!("{name}'s chips hand by hand"),
        description,
        points,
        zero_y: coord(y(0)),
        left: LEFT,
        right_edge: WIDTH - RIGHT,
        labels,
        low_x: coord(x(low_at)),
        low_y: coord(y(low)),
        axis_bottom: coord(HEIGHT - BOTTOM),
        hands,
        start,
        end,
        low,
    }
}

impl ChipsChart {
    /// Where the x axis's labels go ("start" at the left, the last hand at the right).
    pub fn x_label_y(&self) -> String {
        coord(HEIGHT - 8.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ys(c: &ChipsChart) -> Vec<f64> {
        c.points
            .split(' ')
            .map(|p| p.split(',').nth(1).unwrap().parse().unwrap())
            .collect()
    }

    #[test]
    fn the_line_follows_the_running_chips_and_the_zero_line_is_inside() {
        let c = chart("Ann", 100, &[50, -200, 30]);
        assert_eq!((c.start, c.end, c.low), (100, -20, -50));
        let ys = ys(&c);
        assert_eq!(ys.len(), 4, "the start and one point a hand");
        // Higher chips are higher on the page (smaller y); the top is the most chips (150).
        assert!(ys[1] < ys[0] && ys[2] > ys[0] && ys[3] < ys[2]);
        assert!((ys[1] - TOP).abs() < 0.1);
        assert!((ys[2] - (HEIGHT - BOTTOM)).abs() < 0.1);
        let zero: f64 = c.zero_y.parse().unwrap();
        assert!(ys[1] < zero && zero < ys[2]);
        assert!(
            c.description.contains("started at 100, ended at -20"),
            "{}",
            c.description
        );
        assert!(
            c.description.contains("lowest -50 after hand 2"),
            "{}",
            c.description
        );
    }

    #[test]
    fn no_hands_is_a_flat_start_and_says_so() {
        let c = chart("Ben", 2_000, &[]);
        assert_eq!(ys(&c).len(), 1);
        assert!(c.description.contains("no hands yet"), "{}", c.description);
    }
}
