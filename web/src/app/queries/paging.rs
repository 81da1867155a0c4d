//! Long lists a page at a time: `?page=N` (1-based), [`PAGE_SIZE`] rows a page, "page N of M"
//! and links with `rel="prev"`/`rel="next"`.
//!
//! The page is cut in the read model's query (`readmodel::Slice`: `LIMIT`/`OFFSET`, see
//! `readmodel/src/pages.rs` for why offsets rather than a keyset), never by loading the
//! whole list and slicing it. A page number that is not a whole number from 1 is a 400; one
//! beyond the last page is a 404 that says how many pages there are. An empty list has one
//! (empty) page.

use serde::{Deserialize, Serialize};

use crate::app::error::AppError;

/// Rows on a page.
pub const PAGE_SIZE: u32 = 50;

/// `?page=` as typed (read as text so that a garbled number gets our own message).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct PageQuery {
    pub page: Option<String>,
}

/// A page number as asked for: a whole number from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageNumber(u64);

impl PageNumber {
    pub const FIRST: PageNumber = PageNumber(1);

    /// `None` or an empty value is the first page.
    pub fn parse(text: Option<&str>) -> Result<PageNumber, AppError> {
        match text.map(str::trim) {
            None | Some("") => Ok(PageNumber::FIRST),
            Some(t) => match t.parse::<u64>() {
                Ok(n) if n >= 1 => Ok(PageNumber(n)),
                _ => Err(AppError::bad_request(format!(
                    "page `{t}` is not a page number: pages are numbered from 1"
                ))),
            },
        }
    }
}

impl PageQuery {
    pub fn number(&self) -> Result<PageNumber, AppError> {
        PageNumber::parse(self.page.as_deref())
    }
}

/// Where a page stands in its list: what the page shows under it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Paging {
    /// This page, from 1.
    pub number: u64,
    /// How many pages there are (at least 1).
    pub pages: u64,
    /// How many rows the whole list has.
    pub rows: u64,
}

impl Paging {
    /// The page `asked` of a list of `rows`, or a 404 when there is no such page.
    pub fn of(asked: PageNumber, rows: u64, what: &str) -> Result<Paging, AppError> {
        let pages = rows.div_ceil(u64::from(PAGE_SIZE)).max(1);
        if asked.0 > pages {
            return Err(AppError::not_found(format!(
                "no page {} of {what}: there {} {pages} page{}",
                asked.0,
                if pages == 1 { "is" } else { "are" },
                if pages == 1 { "" } else { "s" },
            )));
        }
        Ok(Paging {
            number: asked.0,
            pages,
            rows,
        })
    }

    /// The rows of this page, for the ledger's query.
    pub fn slice(&self) -> readmodel::Slice {
        readmodel::Slice {
            limit: PAGE_SIZE,
            offset: self.offset(),
        }
    }

    /// How many rows come before this page.
    pub fn offset(&self) -> u64 {
        (self.number - 1) * u64::from(PAGE_SIZE)
    }

    pub fn prev(&self) -> Option<u64> {
        (self.number > 1).then(|| self.number - 1)
    }

    pub fn next(&self) -> Option<u64> {
        (self.number < self.pages).then(|| self.number + 1)
    }

    /// Whether there is more than one page (the links are shown only then).
    pub fn many(&self) -> bool {
        self.pages > 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::error::ErrorKind;

    #[test]
    fn page_numbers_are_whole_numbers_from_one() {
        assert_eq!(PageNumber::parse(None).unwrap(), PageNumber(1));
        assert_eq!(PageNumber::parse(Some("")).unwrap(), PageNumber(1));
        assert_eq!(PageNumber::parse(Some("3")).unwrap(), PageNumber(3));
        for bad in ["0", "-1", "x", "1.5", "99999999999999999999999"] {
            let e = PageNumber::parse(Some(bad)).unwrap_err();
            assert_eq!(e.kind, ErrorKind::BadRequest, "{bad}");
        }
    }

    #[test]
    fn a_list_has_as_many_pages_as_it_fills_and_at_least_one() {
        let p = |n, rows| Paging::of(PageNumber(n), rows, "the list");
        assert_eq!(p(1, 0).unwrap().pages, 1);
        assert_eq!(p(1, 50).unwrap().pages, 1);
        assert_eq!(p(2, 51).unwrap().pages, 2);
        assert_eq!(p(2, 51).unwrap().offset(), 50);
        assert_eq!(p(2, 51).unwrap().prev(), Some(1));
        assert_eq!(p(2, 51).unwrap().next(), None);
        assert_eq!(p(1, 51).unwrap().next(), Some(2));
        let e = p(3, 51).unwrap_err();
        assert_eq!(e.kind, ErrorKind::NotFound);
        assert!(e.to_string().contains("there are 2 pages"), "{e}");
        assert_eq!(p(2, 0).unwrap_err().kind, ErrorKind::NotFound);
    }
}
