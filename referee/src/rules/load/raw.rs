//! The ruleset file as written: serde structs whose every value is kept with its span and
//! whatever its type, so that nothing the file says can abort the reading. A wrong type, an
//! unknown key or a number too large for any type is a problem for the checking pass
//! ([`super::check`]) to report with its line, beside every other problem in the file.
//!
//! Three shapes carry this: [`RawValue`] (any TOML value), [`Entry`] (a table read into a
//! struct, remembering its keys, or anything else as written), and [`Entries`] / [`Map`] (an
//! array of such tables, an open table of them).

use std::fmt;
use std::marker::PhantomData;
use std::ops::Range;

use serde::de::{
    self, value::MapAccessDeserializer, value::StringDeserializer, DeserializeOwned,
    DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde::{Deserialize, Deserializer};
use toml::Spanned;

pub(super) type Span = Range<usize>;

/// A key that holds a plain value, if the file gives it.
pub(super) type Field = Option<Spanned<RawValue>>;

/// Any TOML value, as written.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum RawValue {
    String(String),
    /// Any whole number; one beyond `i128` is kept as `i128::MAX` (too large for anything).
    Integer(i128),
    Float(f64),
    Boolean(bool),
    Datetime,
    Array(Vec<Spanned<RawValue>>),
    Table,
    /// A value the TOML reader could not hold (an integer beyond 128 bits), with its message.
    Unreadable(String),
}

impl RawValue {
    /// How a problem names it: `the string "lots"`, `the number -5`, `a list`.
    pub(super) fn describe(&self) -> String {
        match self {
            RawValue::String(s) => format!("the string \"{s}\""),
            RawValue::Integer(n) => format!("the number {n}"),
            RawValue::Float(x) => format!("the decimal {x}"),
            RawValue::Boolean(b) => b.to_string(),
            RawValue::Datetime => "a date".into(),
            RawValue::Array(_) => "a list".into(),
            RawValue::Table => "a table".into(),
            RawValue::Unreadable(m) => format!("a value that cannot be read ({m})"),
        }
    }
}

/// A value that a table or array may be, read by one visitor: any other value is kept as a
/// [`RawValue`].
trait Loose<'de>: Sized {
    fn raw(value: RawValue) -> Self;

    fn map<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        // Keys are read as plain strings: a date arrives as a one-key table.
        let mut datetime = false;
        while let Some(key) = map.next_key::<String>()? {
            datetime |= key.starts_with("$__toml_private");
            map.next_value::<IgnoredAny>()?;
        }
        Ok(Self::raw(if datetime {
            RawValue::Datetime
        } else {
            RawValue::Table
        }))
    }

    fn seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<RawValue>>()? {
            items.push(item);
        }
        Ok(Self::raw(RawValue::Array(items)))
    }

    /// Reads one, turning an error of the TOML reader into [`RawValue::Unreadable`]: the
    /// value has been taken from its table by then, so the reading goes on.
    fn read<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match d.deserialize_any(LooseVisitor(PhantomData)) {
            Ok(v) => Ok(v),
            Err(e) => Ok(Self::raw(RawValue::Unreadable(
                e.to_string().trim().to_owned(),
            ))),
        }
    }
}

struct LooseVisitor<T>(PhantomData<T>);

impl<'de, T: Loose<'de>> Visitor<'de> for LooseVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any TOML value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<T, E> {
        Ok(T::raw(RawValue::Boolean(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        Ok(T::raw(RawValue::Integer(v.into())))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        Ok(T::raw(RawValue::Integer(v.into())))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<T, E> {
        Ok(T::raw(RawValue::Integer(v)))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<T, E> {
        Ok(T::raw(RawValue::Integer(
            i128::try_from(v).unwrap_or(i128::MAX),
        )))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        Ok(T::raw(RawValue::Float(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        Ok(T::raw(RawValue::String(v.to_owned())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<T, E> {
        Ok(T::raw(RawValue::String(v)))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::map(map)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::seq(seq)
    }
}

impl<'de> Loose<'de> for RawValue {
    fn raw(value: RawValue) -> Self {
        value
    }
}

impl<'de> Deserialize<'de> for RawValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Self::read(d)
    }
}

/// A table read into `T` (whose keys it remembers, spans and all, so unknown ones can be
/// reported), or some other value where a table belongs.
#[derive(Clone, Debug)]
pub(super) enum Entry<T> {
    Table {
        keys: Vec<Spanned<String>>,
        fields: T,
    },
    Other(RawValue),
}

impl<'de, T: Deserialize<'de>> Loose<'de> for Entry<T> {
    fn raw(value: RawValue) -> Self {
        Entry::Other(value)
    }

    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        let mut keys = Vec::new();
        let fields = T::deserialize(MapAccessDeserializer::new(KeyRecorder {
            map,
            keys: &mut keys,
        }))?;
        Ok(Entry::Table { keys, fields })
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Entry<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Self::read(d)
    }
}

/// Passes a table's entries on to a derived `Deserialize`, keeping each key with its span.
struct KeyRecorder<'k, A> {
    map: A,
    keys: &'k mut Vec<Spanned<String>>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for KeyRecorder<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let Some(key) = self.map.next_key::<Spanned<String>>()? else {
            return Ok(None);
        };
        let name = key.get_ref().clone();
        self.keys.push(key);
        seed.deserialize(StringDeserializer::<A::Error>::new(name))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

/// An array of tables (`[[element]]`), or some other value where one belongs.
#[derive(Clone, Debug)]
pub(super) enum Entries<T> {
    List(Vec<Spanned<Entry<T>>>),
    Other(RawValue),
}

impl<'de, T: Deserialize<'de>> Loose<'de> for Entries<T> {
    fn raw(value: RawValue) -> Self {
        Entries::Other(value)
    }

    fn seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Entry<T>>>()? {
            items.push(item);
        }
        Ok(Entries::List(items))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Entries<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Self::read(d)
    }
}

/// A table whose keys are names the file chooses (`[options]`), or some other value.
#[derive(Clone, Debug)]
pub(super) enum Map<T> {
    Table(Vec<(Spanned<String>, Spanned<T>)>),
    Other(RawValue),
}

impl<'de, T: Deserialize<'de>> Loose<'de> for Map<T> {
    fn raw(value: RawValue) -> Self {
        Map::Other(value)
    }

    fn map<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Spanned<String>>()? {
            entries.push((key, map.next_value::<Spanned<T>>()?));
        }
        Ok(Map::Table(entries))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Map<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Self::read(d)
    }
}

/// The keys a derived raw struct reads, asked of serde itself so the list of valid keys in a
/// problem is never out of step with the struct.
pub(super) fn keys_of<T: DeserializeOwned>() -> &'static [&'static str] {
    struct Probe<'a>(&'a mut &'static [&'static str]);

    impl<'de> Deserializer<'de> for Probe<'_> {
        type Error = de::value::Error;

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("not a struct"))
        }

        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(de::Error::custom("probed"))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
            identifier ignored_any
        }
    }

    let mut keys: &'static [&'static str] = &[];
    let _ = T::deserialize(Probe(&mut keys));
    keys
}

/// A ruleset file.
#[derive(Debug, Deserialize)]
pub(super) struct RawFile {
    pub name: Field,
    pub title: Field,
    pub source: Field,
    pub base: Field,
    pub params: Option<Spanned<Entry<RawParams>>>,
    pub settlement: Option<Spanned<Entry<RawSettlement>>>,
    pub penalties: Option<Spanned<Entry<RawPenalties>>>,
    pub rotation: Option<Spanned<Entry<RawRotation>>>,
    pub readings: Option<Spanned<Entry<RawReadings>>>,
    pub options: Option<Spanned<Map<Entry<RawOption>>>>,
    pub element: Option<Spanned<Entries<RawElement>>>,
}

/// `[params]`; each key is a field of [`super::super::Params`].
#[derive(Debug, Deserialize)]
pub(super) struct RawParams {
    pub limit: Field,
    pub notional_limit: Field,
    pub bonus_tiles: Field,
    pub bonus_copies: Field,
    pub max_chows: Field,
    pub only_place: Field,
    pub annexed_kong_scores_concealed: Field,
    pub annexed_kong_concealed_for_doubles: Field,
    pub dead_wall: Field,
}

/// `[settlement]`.
#[derive(Debug, Deserialize)]
pub(super) struct RawSettlement {
    pub method: Field,
    pub losers_settle: Field,
    pub limit_hand_cancels_losers: Field,
    pub rounding: Field,
    pub dreamer_payment: Field,
    pub dreamer_limit_doubles: Field,
}

/// `[penalties]`.
#[derive(Debug, Deserialize)]
pub(super) struct RawPenalties {
    pub false_mahjong: Field,
    pub false_mahjong_amount: Field,
    pub false_mahjong_two: Field,
    pub false_mahjong_three: Field,
    pub false_mahjong_east_double: Field,
    pub false_naming_chow: Field,
    pub false_naming_pung: Field,
    pub false_naming_mahjong: Field,
    pub false_naming_false_mahjong: Field,
    pub new_deal_heads: Field,
    pub new_deal_payments: Field,
    pub cite: Field,
}

/// `[rotation]`.
#[derive(Debug, Deserialize)]
pub(super) struct RawRotation {
    pub deal_passes: Field,
    pub east_keeps_on_wash_out: Field,
    pub rounds_per_game: Field,
    pub east_gives_up_after: Field,
    pub cite: Field,
}

/// `[readings]`: each `{ value, cite }`, or in a house file a bare value ([`Entry::Other`]).
#[derive(Debug, Deserialize)]
pub(super) struct RawReadings {
    pub only_place_counts_own_tiles: Option<Spanned<Entry<RawReading>>>,
    pub roof_off_limit_hand: Option<Spanned<Entry<RawReading>>>,
    pub bonus_replacement: Option<Spanned<Entry<RawReading>>>,
    pub kong_box: Option<Spanned<Entry<RawReading>>>,
    pub kong_box_replenished: Option<Spanned<Entry<RawReading>>>,
    pub kong_robbing: Option<Spanned<Entry<RawReading>>>,
    pub cannons: Option<Spanned<Entry<RawReading>>>,
    pub calling_special: Option<Spanned<Entry<RawReading>>>,
}

/// One reading written in full.
#[derive(Debug, Deserialize)]
pub(super) struct RawReading {
    pub value: Field,
    pub cite: Field,
}

/// One option declared in full; in a house file `name = true` switches a base option
/// ([`Entry::Other`]).
#[derive(Debug, Deserialize)]
pub(super) struct RawOption {
    pub description: Field,
    pub cite: Field,
    pub default: Field,
}

/// One `[[element]]`.
#[derive(Debug, Deserialize)]
pub(super) struct RawElement {
    pub id: Field,
    /// `true`: a house file's element that its base does not have (see the README).
    pub new: Field,
    pub name: Field,
    pub when: Field,
    pub tiles: Field,
    pub exposure: Field,
    pub shape: Field,
    pub at_least: Field,
    pub except: Field,
    pub points: Field,
    pub doubles: Field,
    pub limit: Field,
    pub unlimited_doubles: Field,
    pub applies: Field,
    pub cite: Field,
    pub interpretation: Field,
    pub option: Field,
    pub excludes: Field,
    pub enabled: Field,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> RawFile {
        match Entry::<RawFile>::deserialize(toml::de::Deserializer::parse(text).unwrap()).unwrap() {
            Entry::Table { fields, .. } => fields,
            Entry::Other(v) => panic!("{v:?}"),
        }
    }

    #[test]
    fn wrong_types_are_kept_not_fatal() {
        let f = read("name = 5\nparams = \"x\"\n[[element]]\nid = [1, \"a\"]\nwhen = 1979-05-27\n");
        assert_eq!(f.name.unwrap().into_inner(), RawValue::Integer(5));
        assert!(matches!(
            f.params.unwrap().into_inner(),
            Entry::Other(RawValue::String(_))
        ));
        let Entries::List(items) = f.element.unwrap().into_inner() else {
            panic!()
        };
        let Entry::Table { fields, keys } = items[0].get_ref() else {
            panic!()
        };
        assert_eq!(keys.len(), 2);
        assert!(matches!(
            fields.id.as_ref().unwrap().get_ref(),
            RawValue::Array(a) if a.len() == 2
        ));
        assert_eq!(fields.when.as_ref().unwrap().get_ref(), &RawValue::Datetime);
    }

    #[test]
    fn huge_numbers_are_kept() {
        let f = read(
            "name = 99999999999999999999\ntitle = 999999999999999999999999999999999999999999\n",
        );
        assert_eq!(
            f.name.unwrap().into_inner(),
            RawValue::Integer(99_999_999_999_999_999_999)
        );
        assert!(matches!(
            f.title.unwrap().into_inner(),
            RawValue::Unreadable(_)
        ));
    }

    #[test]
    fn keys_are_asked_of_serde() {
        assert!(keys_of::<RawParams>().contains(&"limit"));
        assert_eq!(keys_of::<RawReading>(), ["value", "cite"]);
    }
}
