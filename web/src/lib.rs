//! `mahjong-referee`'s library half: the application layer (`app`, free of actix), the web
//! service (`server`) and the one door to the rules engine's scoring (`rules`). The binary
//! (`main.rs`) is the command line; integration tests build the same application with
//! [`server::app`] and drive it through actix-web's test server.

pub mod app;
pub mod rules;
pub mod server;
