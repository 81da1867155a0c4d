//! `mahjong-referee waits`: placeholder until the shape module lands.
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_: &Args) -> anyhow::Result<ExitCode> {
    Ok(ExitCode::SUCCESS)
}
