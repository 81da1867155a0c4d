//! CSV for a spreadsheet, shared by every export (standings, hands, settlements): quoting and
//! escaping by the well-kept `csv` crate rather than by hand, and a text cell a spreadsheet
//! would take for a formula made plain text.

use actix_web::HttpResponse;

use crate::server::error::AppError;

/// A CSV being written: a header row, then the rows.
pub struct Csv(csv::Writer<Vec<u8>>);

impl Csv {
    pub fn new(header: &[&str]) -> Result<Csv, AppError> {
        let mut csv = Csv(csv::Writer::from_writer(Vec::new()));
        csv.row(header)?;
        Ok(csv)
    }

    /// One row; text from people (names, ids) goes through [`text`] first.
    pub fn row<S: AsRef<[u8]>>(&mut self, cells: &[S]) -> Result<(), AppError> {
        self.0
            .write_record(cells)
            .map_err(|e| AppError::internal(format!("writing the CSV: {e}")))
    }

    /// The file as a download named `filename`.
    pub fn response(self, filename: &str) -> Result<HttpResponse, AppError> {
        let body = self
            .0
            .into_inner()
            .map_err(|e| AppError::internal(format!("writing the CSV: {e}")))?;
        Ok(HttpResponse::Ok()
            .content_type("text/csv; charset=utf-8")
            .insert_header((
                "content-disposition",
                format!("attachment; filename=\"{filename}\""),
            ))
            .insert_header(("cache-control", "no-store"))
            .body(body))
    }
}

/// A text cell safe to open in a spreadsheet: one that would start a formula (`=`, `+`, `-`,
/// `@`, a tab or a carriage return) gets a leading `'`.
pub fn text(s: &str) -> String {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_become_text_and_other_cells_are_left_alone() {
        assert_eq!(text("=SUM(A1)"), "'=SUM(A1)");
        assert_eq!(text("@cmd"), "'@cmd");
        assert_eq!(text("-2+3"), "'-2+3");
        assert_eq!(text("Ann"), "Ann");
        assert_eq!(text(""), "");
    }
}
