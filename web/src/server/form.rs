//! Forms read as UTF-8, or refused.
//!
//! actix's own form extractor decodes a value whose percent-escapes are not UTF-8 by replacing
//! the bytes it cannot read (U+FFFD), so a name or a reason sent in another encoding would be
//! recorded garbled, without a word. [`Form`] reads the body (within the same size limit),
//! refuses it with the field it found unreadable, and only then parses it as actix's would.

use std::ops::Deref;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest};
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;

use crate::server::error::{AppError, HtmlError};

/// The largest form body read (actix's own form limit).
pub const MAX_FORM: usize = 16 * 1024;

/// A form body, every name and value in it UTF-8.
#[derive(Debug)]
pub struct Form<T>(pub T);

impl<T> Form<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for Form<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Why a form body is not UTF-8: the field whose name or value is not, when it has a name.
pub fn not_utf8(body: &[u8]) -> Option<String> {
    for pair in body.split(|&b| b == b'&') {
        let (name, value) = match pair.iter().position(|&b| b == b'=') {
            Some(i) => (&pair[..i], &pair[i + 1..]),
            None => (pair, &[][..]),
        };
        let decode = |part: &[u8]| -> Vec<u8> {
            let spaced: Vec<u8> = part
                .iter()
                .map(|&b| if b == b'+' { b' ' } else { b })
                .collect();
            percent_encoding::percent_decode(&spaced).collect()
        };
        let name = decode(name);
        match std::str::from_utf8(&name) {
            Err(_) => return Some("a field's name is not UTF-8".into()),
            Ok(n) if std::str::from_utf8(&decode(value)).is_err() => {
                return Some(format!(
                    "the field `{n}` is not UTF-8: send the form as UTF-8"
                ))
            }
            Ok(_) => {}
        }
    }
    None
}

impl<T: DeserializeOwned + 'static> FromRequest for Form<T> {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Form<T>, actix_web::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let bytes = actix_web::web::Bytes::from_request(req, payload);
        Box::pin(async move {
            let refuse =
                |why: String| -> actix_web::Error { HtmlError(AppError::bad_request(why)).into() };
            let body = bytes.await?;
            if body.len() > MAX_FORM {
                return Err(refuse(format!(
                    "the form could not be read: it is larger than {MAX_FORM} bytes"
                )));
            }
            if let Some(why) = not_utf8(&body) {
                return Err(refuse(format!("the form could not be read: {why}")));
            }
            serde_urlencoded::from_bytes::<T>(&body)
                .map(Form)
                .map_err(|e| refuse(format!("the form could not be read: {e}")))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_not_in_utf8_names_its_field() {
        assert_eq!(not_utf8(b"name=Zo%C3%AB+Lee&csrf=x"), None);
        let why = not_utf8(b"csrf=x&name=Zo%EB").unwrap();
        assert!(why.contains("`name`"), "{why}");
        assert!(not_utf8(b"%FF=1").is_some());
    }
}
