//! Canonical JSON (RFC 8785, JCS) written straight from `serde`, for the
//! hashes the record is built on: entry hashes, sealed-item commitments and
//! order digests.
//!
//! The bytes are exactly those of `serde_jcs` 0.2, which every record so far
//! was hashed with (a test compares the two on many shapes of value, and the
//! fixture records keep verifying): object members sorted by the UTF-16 code
//! units of their names, the later of two equal names kept, every number
//! written as the ECMAScript form of its `f64` value (so integers above 2^53
//! round as JavaScript would), non-finite floats refused, strings escaped as
//! `serde_json` escapes them. It exists because `serde_jcs` buffers every
//! member in its own vectors and parses every member name back from JSON,
//! which made hashing a quarter of `umpire verify` (issue 13); this writes
//! into one buffer and reorders each object's members in place.

use serde::ser::{self, Serialize};
use std::borrow::Cow;
use std::fmt::Display;

/// Why a value has no canonical form.
#[derive(Debug, thiserror::Error)]
pub enum CanonError {
    /// NaN and the infinities have no JSON form.
    #[error("a non-finite number has no canonical JSON form")]
    NonFinite,
    /// An object member's name must be a string (or a number or bool,
    /// written as a string, as `serde_json` does).
    #[error("an object member's name is not a string")]
    KeyNotString,
    /// The value's own `Serialize` failed.
    #[error("{0}")]
    Custom(String),
}

impl ser::Error for CanonError {
    fn custom<T: Display>(msg: T) -> Self {
        CanonError::Custom(msg.to_string())
    }
}

type Result<T> = std::result::Result<T, CanonError>;

/// The canonical JSON bytes of `value`.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    let mut w = Writer::default();
    value.serialize(&mut w)?;
    Ok(w.out)
}

/// One member of an object being written: its name, and where its
/// `"name":value` bytes start and end in the output.
struct Member {
    name: Cow<'static, str>,
    start: usize,
    end: usize,
}

/// An object being written: where its members begin in the output, and them.
struct Frame {
    start: usize,
    members: Vec<Member>,
}

struct Writer {
    out: Vec<u8>,
    objects: Vec<Frame>,
    /// Nothing is written yet: the value is the top-level one. `serde_jcs`
    /// checks only that one itself and hands every nested value to
    /// `serde_json`, so a non-finite float is refused at the top and written
    /// `null` inside, and a 128-bit integer is refused at the top only.
    top: bool,
}

impl Default for Writer {
    fn default() -> Self {
        Writer {
            out: Vec::new(),
            objects: Vec::new(),
            top: true,
        }
    }
}

impl Writer {
    fn number(&mut self, v: f64) -> Result<()> {
        if !v.is_finite() {
            if std::mem::take(&mut self.top) {
                return Err(CanonError::NonFinite);
            }
            self.out.extend_from_slice(b"null");
            return Ok(());
        }
        self.out
            .extend_from_slice(ryu_js::Buffer::new().format_finite(v).as_bytes());
        Ok(())
    }

    /// An integer: exact below 2^53, where the ECMAScript form is the plain
    /// digits; above, the `f64` it rounds to, as `serde_jcs` writes it.
    fn integer(&mut self, v: i128) -> Result<()> {
        const EXACT: i128 = 1 << 53;
        if (-EXACT..=EXACT).contains(&v) {
            self.out
                .extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
            Ok(())
        } else {
            self.number(v as f64)
        }
    }

    /// A 128-bit integer: refused at the top (`serde_jcs` has no such
    /// method), else its `f64`.
    fn wide(&mut self, v: f64) -> Result<()> {
        if std::mem::take(&mut self.top) {
            return Err(CanonError::Custom(
                "128-bit integers are not supported".into(),
            ));
        }
        self.number(v)
    }

    /// A string, escaped as `serde_json` escapes it (so `serde_jcs` too).
    fn string(&mut self, s: &str) {
        crate::state_json::string(&mut self.out, s);
    }

    fn begin_object(&mut self) {
        self.top = false;
        self.objects.push(Frame {
            start: self.out.len(),
            members: Vec::new(),
        });
    }

    /// Starts a member: its name is written now, its value next.
    fn begin_member(&mut self, name: Cow<'static, str>) {
        let start = self.out.len();
        self.string(&name);
        self.out.push(b':');
        if let Some(f) = self.objects.last_mut() {
            f.members.push(Member {
                name,
                start,
                end: start,
            });
        }
    }

    fn end_member(&mut self) {
        let end = self.out.len();
        if let Some(m) = self.objects.last_mut().and_then(|f| f.members.last_mut()) {
            m.end = end;
        }
    }

    /// Closes an object: its members, written in the order given, are put
    /// in canonical order (the later of equal names kept).
    fn end_object(&mut self) {
        let Some(mut f) = self.objects.pop() else {
            return;
        };
        let written = self.out.split_off(f.start);
        // Stable sort, then keep the last of each run of equal names.
        f.members.sort_by(|a, b| utf16_cmp(&a.name, &b.name));
        self.out.push(b'{');
        let mut first = true;
        for (i, m) in f.members.iter().enumerate() {
            if f.members.get(i + 1).is_some_and(|n| n.name == m.name) {
                continue;
            }
            if !first {
                self.out.push(b',');
            }
            first = false;
            self.out
                .extend_from_slice(&written[m.start - f.start..m.end - f.start]);
        }
        self.out.push(b'}');
    }
}

/// Orders names by their UTF-16 code units (RFC 8785 3.2.3); for ASCII, and
/// for any two strings without characters above U+FFFF, that is byte order
/// of their UTF-8 except around U+E000..U+FFFF, so compare code units.
fn utf16_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    if a.is_ascii() && b.is_ascii() {
        return a.cmp(b);
    }
    a.encode_utf16().cmp(b.encode_utf16())
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = CanonError;
    type SerializeSeq = Seq<'a>;
    type SerializeTuple = Seq<'a>;
    type SerializeTupleStruct = Seq<'a>;
    type SerializeTupleVariant = Seq<'a>;
    type SerializeMap = Map<'a>;
    type SerializeStruct = Map<'a>;
    type SerializeStructVariant = Map<'a>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.integer(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.integer(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.integer(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.integer(v.into())
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.wide(v as f64)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.integer(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.integer(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.integer(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.integer(v.into())
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.wide(v as f64)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.number(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.number(v)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.string(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.top = false;
        use ser::SerializeSeq as _;
        let mut s = self.serialize_seq(Some(v.len()))?;
        for b in v {
            s.serialize_element(b)?;
        }
        s.end()
    }
    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        self.top = false;
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<()> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<()> {
        self.top = false;
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.begin_object();
        self.begin_member(Cow::Borrowed(variant));
        value.serialize(&mut *self)?;
        self.end_member();
        self.end_object();
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Seq<'a>> {
        self.top = false;
        self.out.push(b'[');
        Ok(Seq {
            w: self,
            first: true,
            variant: false,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq<'a>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Seq<'a>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Seq<'a>> {
        self.begin_object();
        self.begin_member(Cow::Borrowed(variant));
        self.out.push(b'[');
        Ok(Seq {
            w: self,
            first: true,
            variant: true,
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Map<'a>> {
        self.top = false;
        self.begin_object();
        Ok(Map {
            w: self,
            variant: false,
        })
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Map<'a>> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Map<'a>> {
        self.begin_object();
        self.begin_member(Cow::Borrowed(variant));
        self.begin_object();
        Ok(Map {
            w: self,
            variant: true,
        })
    }
}

/// An array being written (a tuple variant's, inside its one-member object).
pub struct Seq<'a> {
    w: &'a mut Writer,
    first: bool,
    variant: bool,
}

impl Seq<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        if !self.first {
            self.w.out.push(b',');
        }
        self.first = false;
        value.serialize(&mut *self.w)
    }

    fn finish(self) -> Result<()> {
        self.w.out.push(b']');
        if self.variant {
            self.w.end_member();
            self.w.end_object();
        }
        Ok(())
    }
}

/// The four array-like traits of serde, all [`Seq::element`] and [`Seq::finish`].
macro_rules! seq_like {
    ($($tr:ident :: $method:ident),*) => {$(
        impl ser::$tr for Seq<'_> {
            type Ok = ();
            type Error = CanonError;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                self.element(value)
            }
            fn end(self) -> Result<()> {
                self.finish()
            }
        }
    )*};
}

seq_like!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// An object being written (a struct variant's, inside its one-member object).
pub struct Map<'a> {
    w: &'a mut Writer,
    variant: bool,
}

impl Map<'_> {
    fn member<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<()> {
        self.w.begin_member(Cow::Borrowed(name));
        value.serialize(&mut *self.w)?;
        self.w.end_member();
        Ok(())
    }

    fn finish(self) -> Result<()> {
        self.w.end_object();
        if self.variant {
            self.w.end_member();
            self.w.end_object();
        }
        Ok(())
    }
}

impl ser::SerializeMap for Map<'_> {
    type Ok = ();
    type Error = CanonError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        let name = key.serialize(KeyName)?;
        self.w.begin_member(Cow::Owned(name));
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.w)?;
        self.w.end_member();
        Ok(())
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

/// Both struct traits of serde, [`Map::member`] and [`Map::finish`].
macro_rules! struct_like {
    ($($tr:ident),*) => {$(
        impl ser::$tr for Map<'_> {
            type Ok = ();
            type Error = CanonError;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Result<()> {
                self.member(key, v)
            }
            fn end(self) -> Result<()> {
                self.finish()
            }
        }
    )*};
}

struct_like!(SerializeStruct, SerializeStructVariant);

/// A map key as the member name `serde_json` makes of it: strings as they
/// are, numbers and bools in their written form, anything else refused.
struct KeyName;

impl KeyName {
    fn number(v: f64) -> Result<String> {
        let mut w = Writer::default();
        w.number(v)?;
        Ok(String::from_utf8_lossy(&w.out).into_owned())
    }
    fn integer(v: i128) -> Result<String> {
        let mut w = Writer::default();
        w.integer(v)?;
        Ok(String::from_utf8_lossy(&w.out).into_owned())
    }
}

impl ser::Serializer for KeyName {
    type Ok = String;
    type Error = CanonError;
    type SerializeSeq = ser::Impossible<String, CanonError>;
    type SerializeTuple = ser::Impossible<String, CanonError>;
    type SerializeTupleStruct = ser::Impossible<String, CanonError>;
    type SerializeTupleVariant = ser::Impossible<String, CanonError>;
    type SerializeMap = ser::Impossible<String, CanonError>;
    type SerializeStruct = ser::Impossible<String, CanonError>;
    type SerializeStructVariant = ser::Impossible<String, CanonError>;

    fn serialize_bool(self, v: bool) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_i8(self, v: i8) -> Result<String> {
        KeyName::integer(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<String> {
        KeyName::integer(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<String> {
        KeyName::integer(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<String> {
        KeyName::integer(v.into())
    }
    fn serialize_i128(self, v: i128) -> Result<String> {
        KeyName::number(v as f64)
    }
    fn serialize_u8(self, v: u8) -> Result<String> {
        KeyName::integer(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<String> {
        KeyName::integer(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<String> {
        KeyName::integer(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<String> {
        KeyName::integer(v.into())
    }
    fn serialize_u128(self, v: u128) -> Result<String> {
        KeyName::number(v as f64)
    }
    fn serialize_f32(self, v: f32) -> Result<String> {
        KeyName::number(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<String> {
        KeyName::number(v)
    }
    fn serialize_char(self, v: char) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_str(self, v: &str) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<String> {
        Err(CanonError::KeyNotString)
    }
    fn serialize_none(self) -> Result<String> {
        Err(CanonError::KeyNotString)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String> {
        Err(CanonError::KeyNotString)
    }
    fn serialize_unit(self) -> Result<String> {
        Err(CanonError::KeyNotString)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<String> {
        Err(CanonError::KeyNotString)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, v: &'static str) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<String> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String> {
        Err(CanonError::KeyNotString)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(CanonError::KeyNotString)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(CanonError::KeyNotString)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(CanonError::KeyNotString)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(CanonError::KeyNotString)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(CanonError::KeyNotString)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(CanonError::KeyNotString)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(CanonError::KeyNotString)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::{BTreeMap, HashMap};

    /// The bytes must be serde_jcs's, which old records were hashed with.
    fn same<T: Serialize + ?Sized>(v: &T) {
        let want = serde_jcs::to_vec(v).map_err(|e| e.to_string());
        let got = to_vec(v).map_err(|e| e.to_string());
        match (&want, &got) {
            (Ok(w), Ok(g)) => assert_eq!(
                String::from_utf8_lossy(g),
                String::from_utf8_lossy(w),
                "canonical bytes differ from serde_jcs"
            ),
            (Err(_), Err(_)) => {}
            _ => panic!("serde_jcs gave {want:?}, canon gave {got:?}"),
        }
    }

    #[derive(Serialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Tagged {
        Plain { zeta: u8, alpha: Option<String> },
        Wrapped(Inner),
        Empty,
    }

    #[derive(Serialize)]
    struct Inner {
        b: Vec<i64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        a: Option<bool>,
        #[serde(flatten)]
        rest: BTreeMap<String, u32>,
    }

    #[derive(Serialize)]
    enum External {
        Unit,
        New(u64),
        Tuple(u8, String),
        Struct { y: f64, x: char },
    }

    #[derive(Serialize)]
    struct Newtype(Vec<u8>);

    #[test]
    fn numbers_are_written_as_serde_jcs_writes_them() {
        for v in [
            0u64,
            1,
            9,
            10,
            (1 << 53) - 1,
            1 << 53,
            (1 << 53) + 1,
            u64::MAX,
        ] {
            same(&v);
        }
        for v in [i64::MIN, -(1 << 53) - 1, -(1 << 53), -1, 0, 42] {
            same(&v);
        }
        same(&u128::MAX);
        same(&i128::MIN);
        for v in [0.0, -0.0, 0.1, 1.5e-7, 1e21, 123456789.125, -2.5e300] {
            same(&v);
        }
        same(&f64::NAN);
        same(&f32::INFINITY);
        same(&[1u8, 2, 255]);
    }

    #[test]
    fn strings_are_escaped_as_serde_jcs_escapes_them() {
        let all: String = (0u8..0x80).map(char::from).collect();
        same(&all);
        same("é € 𝄞 \u{fffd} \u{e000} \"quoted\" back\\slash /");
        same(&'\n');
        same(&'𝄞');
    }

    #[test]
    fn members_are_sorted_by_utf16_code_units() {
        // U+E000 sorts after U+1D11E's surrogates in UTF-16 but before it in
        // UTF-8: the case where byte order would be wrong.
        let mut m = BTreeMap::new();
        for k in [
            "b", "a", "", "aa", "\u{e000}", "𝄞", "é", "A", "\u{7f}", "\n",
        ] {
            m.insert(k.to_string(), k.len());
        }
        same(&m);
        let h: HashMap<&str, u8> = [("z", 1), ("y", 2), ("x", 3)].into_iter().collect();
        same(&h);
        let ints: BTreeMap<u64, &str> = [(10, "ten"), (9, "nine"), (u64::MAX, "max")].into();
        same(&ints);
        let bools: BTreeMap<bool, u8> = [(true, 1), (false, 0)].into();
        same(&bools);
        let bad: BTreeMap<Vec<u8>, u8> = [(vec![1], 1)].into();
        same(&bad);
    }

    #[test]
    fn every_shape_of_value_matches() {
        let rest: BTreeMap<String, u32> = [("m".to_string(), 1), ("a".to_string(), 2)].into();
        same(&Tagged::Plain {
            zeta: 3,
            alpha: None,
        });
        same(&Tagged::Plain {
            zeta: 3,
            alpha: Some("x".into()),
        });
        same(&Tagged::Wrapped(Inner {
            b: vec![-1, 2],
            a: Some(true),
            rest: rest.clone(),
        }));
        same(&Tagged::Empty);
        same(&vec![
            External::Unit,
            External::New(7),
            External::Tuple(1, "t".into()),
            External::Struct { y: 0.5, x: 'q' },
        ]);
        same(&External::Struct {
            y: f64::NAN,
            x: 'q',
        });
        same(&Newtype(vec![]));
        same(&(1u8, "two", [3.0f32], ()));
        same(&BTreeMap::<String, u8>::new());
        same(&Vec::<u8>::new());
        type Leaf<'a> = Vec<BTreeMap<&'a str, u8>>;
        let nested: BTreeMap<&str, BTreeMap<&str, Leaf>> = [(
            "outer",
            [("z", vec![[("b", 1), ("a", 2)].into()]), ("c", vec![])].into(),
        )]
        .into();
        same(&nested);
        same(&Some(Some(3u8)));
        same(&Option::<u8>::None);
    }

    /// Flattened maps can repeat a member name: serde_jcs keeps the later.
    #[test]
    fn of_two_equal_names_the_later_is_kept() {
        #[derive(Serialize)]
        struct Dup {
            a: u8,
            #[serde(flatten)]
            more: BTreeMap<String, u8>,
        }
        same(&Dup {
            a: 1,
            more: [("a".to_string(), 2), ("b".to_string(), 3)].into(),
        });
    }
}
