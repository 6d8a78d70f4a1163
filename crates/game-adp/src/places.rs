//! Where the spaces lie on the real map (`games/adp/places.toml`), for the
//! picture only: the rules never read it and it is no part of the data hash.

use super::data::Data;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;
use umpire_core::board::{MapPoint, SpaceId};

/// The file, embedded.
pub const PLACES_TOML: &str = include_str!("../../../games/adp/places.toml");

/// Degrees of longitude are this much shorter than degrees of latitude at
/// Afghanistan's middle (cos 33.5°): east is scaled by it so that the picture
/// keeps the country's shape.
const EAST_SCALE: f64 = 0.8339;

#[derive(Deserialize)]
struct File {
    place: Vec<Place>,
}

#[derive(Deserialize)]
struct Place {
    id: String,
    lat: f64,
    lon: f64,
    #[allow(
        dead_code,
        reason = "the provenance tag: read by people, kept by the parser"
    )]
    src: String,
}

/// Each place's key and point, read once.
fn places() -> &'static [(String, MapPoint)] {
    static PLACES: OnceLock<Vec<(String, MapPoint)>> = OnceLock::new();
    PLACES.get_or_init(|| {
        // A test holds the embedded file to this shape, so an error is not met at run time.
        let file: Option<File> = toml::from_str(PLACES_TOML).ok();
        file.map(|f| f.place)
            .unwrap_or_default()
            .into_iter()
            .map(|p| {
                let at = MapPoint {
                    east: p.lon * EAST_SCALE,
                    north: p.lat,
                };
                (p.id, at)
            })
            .collect()
    })
}

/// Where each space of `d` lies, by its board id; a space the file does not
/// name (a club's own map) is left for the picture to place.
pub fn positions(d: &Data) -> BTreeMap<SpaceId, MapPoint> {
    places()
        .iter()
        .filter_map(|(key, at)| {
            let s = d.ids().find(|s| d[*s].key == *key)?;
            Some((SpaceId(u16::from(s.0)), *at))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_file_places_every_space_of_the_embedded_map() {
        let file: File = toml::from_str(PLACES_TOML).expect("places.toml parses");
        let d = crate::data::Data::embedded().expect("the embedded data loads");
        assert_eq!(positions(&d).len(), d.ids().count());
        assert_eq!(file.place.len(), d.ids().count());
        for p in &file.place {
            assert!(p.src.starts_with("public: "), "{}: {}", p.id, p.src);
            // Afghanistan and the Pakistani border provinces.
            assert!(
                (29.0..39.0).contains(&p.lat) && (60.0..73.0).contains(&p.lon),
                "{}",
                p.id
            );
        }
    }
}
