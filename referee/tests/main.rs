//! All integration tests of the referee, in one test binary (one link, one run): properties
//! (quickcheck), the books' worked examples, fuzzing, and mj-server's robot games replayed.

mod calling;
mod cannons;
mod circumstances;
mod fixtures;
mod fuzz;
mod grouped_hands;
mod house_rulesets;
mod insurance;
mod limit_hands_losing;
mod mj_server_replay;
mod penalties;
mod positions;
mod scoring_code;
mod scoring_properties;
mod settlement;
mod shapes;
