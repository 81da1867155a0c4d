//! Writes the shape tables (`src/shape/table/`) into `OUT_DIR`, where the crate embeds them.
//!
//! Building them at run time cost every command tens of milliseconds; here they are built once
//! per compilation. The code is the crate's own module, included by path, so there is one
//! definition of an entry, and the crate's tests compare the embedded tables with it.

use std::path::PathBuf;

#[allow(dead_code)]
#[path = "src/shape/table/generate.rs"]
mod generate;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/shape/table/generate.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for (file, table) in [
        ("suit-table.bin", generate::suit_table()),
        ("honours-table.bin", generate::honours_table()),
    ] {
        let path = out.join(file);
        std::fs::write(&path, generate::to_le_bytes(&table))
            .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
    }
}
