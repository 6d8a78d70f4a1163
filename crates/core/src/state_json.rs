//! The state's JSON for its hash: `serde_json`'s compact bytes, written
//! straight into a buffer.
//!
//! A state's hash is SHA-256 over `serde_json::to_writer`'s bytes, and every
//! record holds such hashes, so these bytes must never change. `serde_json`
//! writes each piece (a quote, a member's name, a comma) through `io::Write`
//! and scans every string byte by byte against its escape table; a state of
//! hundreds of small objects, each member named, spent most of its hash
//! there. This writer makes the same bytes for what states hold
//! (booleans, integers, strings, options, sequences, maps keyed by strings or
//! integers, structs and enums of every kind), a name needing no escape
//! written in one piece. Anything else (a float, bytes, a map key of another
//! kind, a `Serialize` that fails) is [`Unsupported`], and the caller writes
//! the whole value with `serde_json` instead, so the output is `serde_json`'s
//! in every case. Debug builds compare the two on every state they hash.

use serde::ser::{self, Serialize};
use std::fmt::Display;

/// The value holds something this writer leaves to `serde_json`.
#[derive(Debug, thiserror::Error)]
#[error("left to serde_json")]
pub struct Unsupported;

impl ser::Error for Unsupported {
    #[inline]
    fn custom<T: Display>(_: T) -> Self {
        Unsupported
    }
}

type Result<T = ()> = std::result::Result<T, Unsupported>;

/// Appends `value`'s compact JSON, as `serde_json::to_writer` writes it, to
/// `out`; on [`Unsupported`], `out` may hold part of it (the caller truncates).
pub fn write<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) -> Result {
    value.serialize(&mut Writer { out })
}

/// The writer: the output buffer.
struct Writer<'b> {
    out: &'b mut Vec<u8>,
}

/// Does byte `b` need an escape in a JSON string (`serde_json`'s table: the
/// control characters, the quote and the backslash)?
#[inline]
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Writes `s` as a JSON string, escaped as `serde_json` escapes it (the
/// record's canonical JSON, `canon`, writes its strings with it too).
#[inline]
pub(crate) fn string(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if !bytes.iter().any(|&b| needs_escape(b)) {
        out.reserve(bytes.len() + 2);
        out.push(b'"');
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    escaped(out, bytes);
}

/// [`string`] of one that needs escapes.
#[cold]
fn escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    out.push(b'"');
    let mut from = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            0x08 => b"\\b",
            0x0c => b"\\f",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0..=0x1f => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(&bytes[from..i]);
                out.extend_from_slice(b"\\u00");
                out.push(HEX[(b >> 4) as usize]);
                out.push(HEX[(b & 0xf) as usize]);
                from = i + 1;
                continue;
            }
            _ => continue,
        };
        out.extend_from_slice(&bytes[from..i]);
        out.extend_from_slice(esc);
        from = i + 1;
    }
    out.extend_from_slice(&bytes[from..]);
    out.push(b'"');
}

/// Writes an integer's digits.
#[inline]
fn integer(out: &mut Vec<u8>, v: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

/// Where a sequence or map being written stands, as `serde_json`'s `State`:
/// `Empty` when it was announced with no elements (its brackets already
/// closed), `First` before its first element.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Empty,
    First,
    Rest,
}

/// A sequence, map, struct or variant being written.
pub struct Compound<'a, 'b> {
    w: &'a mut Writer<'b>,
    state: State,
}

impl Compound<'_, '_> {
    /// The comma before an element, or nothing before the first.
    #[inline]
    fn next(&mut self) {
        if self.state != State::First {
            self.w.out.push(b',');
        }
        self.state = State::Rest;
    }

    /// The closing bracket, unless the opening already closed it.
    #[inline]
    fn close(&mut self, bracket: u8) {
        if self.state != State::Empty {
            self.w.out.push(bracket);
        }
    }
}

impl<'b> Writer<'b> {
    /// Opens a sequence or map with `open`, closed at once when `len` is 0.
    #[inline]
    fn open<'a>(&'a mut self, len: Option<usize>, open: u8, close: u8) -> Compound<'a, 'b> {
        self.out.push(open);
        let state = if len == Some(0) {
            self.out.push(close);
            State::Empty
        } else {
            State::First
        };
        Compound { w: self, state }
    }

    /// `{"variant":` of a variant holding a value.
    #[inline]
    fn variant(&mut self, variant: &str) {
        self.out.push(b'{');
        string(self.out, variant);
        self.out.push(b':');
    }
}

impl<'a, 'b> ser::Serializer for &'a mut Writer<'b> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Compound<'a, 'b>;
    type SerializeTuple = Compound<'a, 'b>;
    type SerializeTupleStruct = Compound<'a, 'b>;
    type SerializeTupleVariant = Compound<'a, 'b>;
    type SerializeMap = Compound<'a, 'b>;
    type SerializeStruct = Compound<'a, 'b>;
    type SerializeStructVariant = Compound<'a, 'b>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result {
        integer(self.out, v);
        Ok(())
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result {
        integer(self.out, v);
        Ok(())
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result {
        integer(self.out, v);
        Ok(())
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result {
        integer(self.out, v);
        Ok(())
    }
    #[inline]
    fn serialize_i128(self, v: i128) -> Result {
        integer(self.out, v);
        Ok(())
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result {
        integer(self.out, v);
        Ok(())
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result {
        integer(self.out, v);
        Ok(())
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result {
        integer(self.out, v);
        Ok(())
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result {
        integer(self.out, v);
        Ok(())
    }
    #[inline]
    fn serialize_u128(self, v: u128) -> Result {
        integer(self.out, v);
        Ok(())
    }
    /// Floats are left to `serde_json` (its shortest form of each).
    #[inline]
    fn serialize_f32(self, _: f32) -> Result {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_f64(self, _: f64) -> Result {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_char(self, v: char) -> Result {
        string(self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result {
        string(self.out, v);
        Ok(())
    }
    #[inline]
    fn serialize_bytes(self, _: &[u8]) -> Result {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_none(self) -> Result {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result {
        v.serialize(self)
    }
    #[inline]
    fn serialize_unit(self) -> Result {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    #[inline]
    fn serialize_unit_struct(self, _: &'static str) -> Result {
        self.serialize_unit()
    }
    #[inline]
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        string(self.out, variant);
        Ok(())
    }
    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result {
        v.serialize(self)
    }
    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Result {
        self.variant(variant);
        v.serialize(&mut *self)?;
        self.out.push(b'}');
        Ok(())
    }
    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, 'b>> {
        Ok(self.open(len, b'[', b']'))
    }
    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'b>> {
        self.serialize_seq(Some(len))
    }
    #[inline]
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a, 'b>> {
        self.serialize_seq(Some(len))
    }
    #[inline]
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'b>> {
        self.variant(variant);
        self.serialize_seq(Some(len))
    }
    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, 'b>> {
        Ok(self.open(len, b'{', b'}'))
    }
    #[inline]
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Compound<'a, 'b>> {
        self.serialize_map(Some(len))
    }
    #[inline]
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'b>> {
        self.variant(variant);
        self.serialize_map(Some(len))
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;
    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result {
        self.next();
        v.serialize(&mut *self.w)
    }
    #[inline]
    fn end(mut self) -> Result {
        self.close(b']');
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;
    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result {
        ser::SerializeSeq::serialize_element(self, v)
    }
    #[inline]
    fn end(self) -> Result {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result {
        ser::SerializeSeq::serialize_element(self, v)
    }
    #[inline]
    fn end(self) -> Result {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result {
        ser::SerializeSeq::serialize_element(self, v)
    }
    #[inline]
    fn end(mut self) -> Result {
        self.close(b']');
        self.w.out.push(b'}');
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;
    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result {
        self.next();
        key.serialize(Key(self.w.out))
    }
    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result {
        self.w.out.push(b':');
        v.serialize(&mut *self.w)
    }
    #[inline]
    fn end(mut self) -> Result {
        self.close(b'}');
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result {
        self.next();
        string(self.w.out, key);
        self.w.out.push(b':');
        v.serialize(&mut *self.w)
    }
    #[inline]
    fn end(mut self) -> Result {
        self.close(b'}');
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Unsupported;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result {
        ser::SerializeStruct::serialize_field(self, key, v)
    }
    #[inline]
    fn end(mut self) -> Result {
        self.close(b'}');
        self.w.out.push(b'}');
        Ok(())
    }
}

/// A map's key, as `serde_json` writes one: a string, a unit variant's
/// name, or an integer or boolean in quotes; any other kind is left to it.
struct Key<'b>(&'b mut Vec<u8>);

impl Key<'_> {
    /// `"digits"`.
    #[inline]
    fn quoted(self, v: impl itoa::Integer) -> Result {
        self.0.push(b'"');
        integer(self.0, v);
        self.0.push(b'"');
        Ok(())
    }
}

impl ser::Serializer for Key<'_> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = ser::Impossible<(), Unsupported>;
    type SerializeTuple = ser::Impossible<(), Unsupported>;
    type SerializeTupleStruct = ser::Impossible<(), Unsupported>;
    type SerializeTupleVariant = ser::Impossible<(), Unsupported>;
    type SerializeMap = ser::Impossible<(), Unsupported>;
    type SerializeStruct = ser::Impossible<(), Unsupported>;
    type SerializeStructVariant = ser::Impossible<(), Unsupported>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result {
        self.0
            .extend_from_slice(if v { b"\"true\"" } else { b"\"false\"" });
        Ok(())
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result {
        self.quoted(v)
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result {
        self.quoted(v)
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result {
        self.quoted(v)
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result {
        self.quoted(v)
    }
    #[inline]
    fn serialize_i128(self, v: i128) -> Result {
        self.quoted(v)
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result {
        self.quoted(v)
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result {
        self.quoted(v)
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result {
        self.quoted(v)
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result {
        self.quoted(v)
    }
    #[inline]
    fn serialize_u128(self, v: u128) -> Result {
        self.quoted(v)
    }
    #[inline]
    fn serialize_f32(self, _: f32) -> Result {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_f64(self, _: f64) -> Result {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_char(self, v: char) -> Result {
        string(self.0, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result {
        string(self.0, v);
        Ok(())
    }
    #[inline]
    fn serialize_bytes(self, _: &[u8]) -> Result {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_none(self) -> Result {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_unit(self) -> Result {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_unit_struct(self, _: &'static str) -> Result {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        string(self.0, variant);
        Ok(())
    }
    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> Result {
        v.serialize(self)
    }
    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(Unsupported)
    }
    #[inline]
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(Unsupported)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::BTreeMap;

    /// This writer's bytes of `v`, or `None` where it leaves `v` to `serde_json`.
    fn ours<T: Serialize>(v: &T) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        write(v, &mut out).ok().map(|()| out)
    }

    /// Asserts this writer writes `v` as `serde_json` does.
    fn same<T: Serialize>(v: &T) {
        let theirs = serde_json::to_vec(v).expect("serde_json");
        let ours = ours(v).expect("written");
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs)
        );
    }

    #[derive(Serialize)]
    struct Unit;

    #[derive(Serialize)]
    struct Newtype(u8);

    #[derive(Serialize)]
    struct Pair(i32, String);

    #[derive(Serialize)]
    struct NoFields {}

    #[derive(Serialize)]
    enum Every {
        Unit,
        Newtype(i64),
        Tuple(u8, bool),
        EmptyTuple(),
        Struct {
            a: u8,
            b: Option<String>,
        },
        EmptyStruct {},
        #[serde(rename = "we\"ird\n")]
        Renamed,
    }

    #[derive(Serialize)]
    struct Skips {
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        shown: bool,
        kept: u16,
        #[serde(rename = "tab\there")]
        renamed: (),
        #[serde(skip_serializing_if = "Option::is_none")]
        maybe: Option<Every>,
    }

    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    enum KeyKind {
        North,
        South,
    }

    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    struct Label(String);

    #[test]
    fn scalars_and_strings_are_serde_jsons() {
        same(&true);
        same(&false);
        same(&(i8::MIN, i16::MIN, i32::MIN, i64::MIN, i128::MIN));
        same(&(u8::MAX, u16::MAX, u32::MAX, u64::MAX, u128::MAX));
        same(&0u32);
        same(&'x');
        same(&'\n');
        same(&'é');
        same(&());
        same(&Unit);
        same(&Newtype(7));
        same(&Pair(-3, "p".into()));
        same(&NoFields {});
        same(&None::<u8>);
        same(&Some(Some(3u8)));
        let all: String = (0u32..0x80)
            .filter_map(char::from_u32)
            .chain("é€😀\u{7f}\u{2028}".chars())
            .collect();
        same(&all);
        for c in (0u32..0x80).filter_map(char::from_u32) {
            same(&c.to_string());
            same(&format!("ab{c}cd{c}"));
        }
        same(&"");
        same(&"plain");
    }

    #[test]
    fn containers_and_enums_are_serde_jsons() {
        same(&Vec::<u8>::new());
        same(&vec![1u8, 2, 3]);
        same(&[[0u8; 0]; 2]);
        same(&(1u8,));
        same(&vec![vec![], vec![1u8], vec![]]);
        same(&[
            Every::Unit,
            Every::Newtype(-1),
            Every::Tuple(1, false),
            Every::EmptyTuple(),
            Every::Struct { a: 1, b: None },
            Every::Struct {
                a: 2,
                b: Some("\"q\"".into()),
            },
            Every::EmptyStruct {},
            Every::Renamed,
        ]);
        for shown in [false, true] {
            for maybe in [None, Some(Every::Unit), Some(Every::EmptyStruct {})] {
                same(&Skips {
                    shown,
                    kept: 9,
                    renamed: (),
                    maybe,
                });
            }
        }
        same(&BTreeMap::<String, u8>::new());
        same(&BTreeMap::from([
            ("a\u{1}".to_string(), 1u8),
            ("b".into(), 2),
        ]));
        same(&BTreeMap::from([(-1i32, "x"), (5, "y")]));
        same(&BTreeMap::from([(u128::MAX, ())]));
        same(&BTreeMap::from([(true, 1u8), (false, 0)]));
        same(&BTreeMap::from([('c', 1u8)]));
        same(&BTreeMap::from([
            (KeyKind::North, 1u8),
            (KeyKind::South, 2),
        ]));
        same(&BTreeMap::from([(
            Label("0512".into()),
            vec![(1u32, 2u32)],
        )]));
    }

    #[test]
    fn what_it_leaves_to_serde_json_is_refused() {
        assert!(ours(&1.5f64).is_none());
        assert!(ours(&vec![(1u8, 0.25f32)]).is_none());
        assert!(ours(&serde_bytes_like()).is_none());
        assert!(ours(&BTreeMap::from([((1u8, 2u8), 3u8)])).is_none());
        assert!(ours(&BTreeMap::from([(Some(1u8), 3u8)])).is_none());
        assert!(ours(&Failing).is_none());
    }

    /// A value that serialises as bytes.
    fn serde_bytes_like() -> impl Serialize {
        struct Bytes;
        impl Serialize for Bytes {
            fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                s.serialize_bytes(b"ab")
            }
        }
        Bytes
    }

    /// A value whose own `Serialize` fails.
    struct Failing;
    impl Serialize for Failing {
        fn serialize<S: ser::Serializer>(&self, _: S) -> std::result::Result<S::Ok, S::Error> {
            Err(ser::Error::custom("no"))
        }
    }
}
