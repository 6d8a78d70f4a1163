//! The map picture attached to result mails (`map.png`) and drawn by
//! `umpire map`: the board the side sees, the last action outlined.

use super::Umpire;
use super::config::ResultPicture;
use std::sync::Arc;
use umpire_core::board::Place;
use umpire_core::game::Game;
use umpire_core::hash::Digest;
use umpire_core::ruleset::Viewer;

/// File name of the picture in a mail.
pub const MAP_PNG: &str = "map.png";

/// The board `viewer` sees with the focus of entry `seq`'s events it may
/// see, if the game has a board.
pub fn board_for(
    game: &Game,
    seq: u64,
    viewer: Viewer,
) -> Option<(umpire_core::board::Board, Vec<Place>)> {
    let view = game.ruleset().view(game.state(), viewer);
    Some((view.board?, focus_for(game, seq, viewer)))
}

/// The places of entry `seq`'s events `viewer` may see.
fn focus_for(game: &Game, seq: u64, viewer: Viewer) -> Vec<Place> {
    game.report(seq)
        .map(|r| {
            r.events_for(viewer)
                .flat_map(|e| e.focus.iter().copied())
                .collect()
        })
        .unwrap_or_default()
}

/// The picture of entry `seq` for `viewer`: the board it sees, that entry's
/// places outlined.
pub fn picture(game: &Game, seq: u64, viewer: Viewer) -> Option<umpire_render::svg::Picture> {
    board_for(game, seq, viewer).map(|(b, f)| umpire_render::svg::picture(&b, &f))
}

/// The map of entry `seq` for `viewer` as SVG.
pub fn svg(game: &Game, seq: u64, viewer: Viewer) -> Option<String> {
    picture(game, seq, viewer).map(|p| p.svg().to_string())
}

/// The whole map of entry `seq` for `viewer` as PNG.
pub fn png(
    game: &Game,
    seq: u64,
    viewer: Viewer,
) -> Option<Result<Vec<u8>, umpire_render::svg::PictureError>> {
    picture(game, seq, viewer).map(|p| p.png())
}

/// How many recent pictures [`Recent`] keeps: more than the sides and
/// observers of one game's result, so one action's mails share their rasters.
const RECENT: usize = 8;

/// Which raster of a picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    /// The part of the map around the last action, with the key.
    Action,
    /// The whole map.
    Whole,
}

/// The last pictures drawn, by their digest and the part drawn
/// (rasterizing is the dear part; the SVG is cheap and says everything the
/// picture shows): sides that see the same board share one raster.
#[derive(Default)]
pub struct Recent(std::sync::Mutex<std::collections::VecDeque<Drawn>>);

/// A picture's SVG digest, the part drawn, and its PNG.
type Drawn = (Digest, Part, Arc<Vec<u8>>);

impl Recent {
    /// The PNG of `part` of `picture`, drawn now or shared from a recent drawing.
    fn png(
        &self,
        picture: &umpire_render::svg::Picture,
        part: Part,
        shelf: &std::path::Path,
    ) -> Result<Arc<Vec<u8>>, umpire_render::svg::PictureError> {
        let key = picture.digest();
        let mut recent = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, _, bytes)) = recent.iter().find(|(k, p, _)| *k == key && *p == part) {
            return Ok(bytes.clone());
        }
        let bytes = Arc::new(match part {
            Part::Action => picture.action_png_kept_in(Some(shelf))?,
            Part::Whole => picture.png_kept_in(Some(shelf))?,
        });
        if recent.len() == RECENT {
            recent.pop_front();
        }
        recent.push_back((key, part, bytes.clone()));
        Ok(bytes)
    }
}

impl Umpire {
    /// `map.png` for a result mail of entry `seq` to `viewer`, drawn from
    /// `board` (what `viewer` sees now, if the game has a board): by default
    /// the part of the map around the entry's action (the whole map is a
    /// `command: map` away; `[pictures] result` in `umpire.toml`). A picture
    /// that cannot be drawn is left out (logged): the mail's text carries the
    /// map too.
    pub(super) fn map_attachment(
        &self,
        game: &Game,
        seq: u64,
        viewer: Viewer,
        board: Option<umpire_core::board::Board>,
    ) -> Option<(String, String, Vec<u8>)> {
        let part = match self.config.pictures.result {
            ResultPicture::Action => Part::Action,
            ResultPicture::Whole => Part::Whole,
            ResultPicture::None => return None,
        };
        let picture = umpire_render::svg::picture(&board?, &focus_for(game, seq, viewer));
        self.attachment(game, &picture, part)
    }

    /// `map.png` of the whole map as `side` sees it now, the last entry's
    /// places outlined: the answer to `command: map` and the opening mail's.
    pub(super) fn whole_map_picture(
        &self,
        game: &Game,
        side: umpire_core::ruleset::Side,
    ) -> Option<(String, String, Vec<u8>)> {
        let (last, _) = game.last_report();
        let picture = picture(game, last, Viewer::Side(side))?;
        self.attachment(game, &picture, Part::Whole)
    }

    /// Where the rasters of the maps' unchanging sheets are kept between
    /// processes (see `umpire_render::svg::raster::png_sheets`): a cache the
    /// admin may delete at any time.
    fn picture_shelf(&self) -> std::path::PathBuf {
        self.dir.join("cache").join("pictures")
    }

    /// The public map of entry `seq` for the game page's `path` (its
    /// `map.png`), if the game has a map: drawn only when it is not the
    /// picture written there last (every poll that changed something
    /// rewrites the site, most of its games unchanged), its unchanging
    /// sheets read from the picture shelf as a result mail's are.
    pub(super) fn page_map(
        &self,
        game: &Game,
        seq: u64,
        path: &std::path::Path,
    ) -> Option<Result<PageMap, umpire_render::svg::PictureError>> {
        let picture = picture(game, seq, Viewer::Public)?;
        // What the page's picture is, noted beside the shelf's rasters (not
        // in the site's folder, which the web serves).
        let shelf = self.picture_shelf();
        let page = umpire_core::hash::Tagged::new("umpire-site-map")
            .field(path.to_string_lossy().as_bytes())
            .finish();
        let note = shelf.join(format!("{}.site", page.to_hex()));
        // The picture and the drawing: an upgrade draws it again.
        let digest = format!(
            "{} {}",
            env!("CARGO_PKG_VERSION"),
            picture.digest().to_hex()
        );
        let png = if path.is_file() && std::fs::read_to_string(&note).is_ok_and(|d| d == digest) {
            None
        } else {
            match picture.png_kept_in(Some(&shelf)) {
                Ok(png) => Some(png),
                Err(e) => return Some(Err(e)),
            }
        };
        Some(Ok(PageMap { png, note, digest }))
    }

    /// `part` of `picture` as `map.png`, shared with the sides that see the same.
    fn attachment(
        &self,
        game: &Game,
        picture: &umpire_render::svg::Picture,
        part: Part,
    ) -> Option<(String, String, Vec<u8>)> {
        match self.pictures.png(picture, part, &self.picture_shelf()) {
            Ok(bytes) => Some((
                MAP_PNG.to_string(),
                "image/png".to_string(),
                (*bytes).clone(),
            )),
            Err(e) => {
                tracing::warn!(game = game.id(), "no map picture: {e}");
                None
            }
        }
    }
}

/// A game page's map ([`Umpire::page_map`]).
pub(super) struct PageMap {
    /// The picture to write, or none if the page has it already.
    pub png: Option<Vec<u8>>,
    /// Where the picture written is noted, and its digest.
    note: std::path::PathBuf,
    digest: String,
}

impl PageMap {
    /// Notes that the picture is written to the page (a failure only means
    /// it is drawn again next time).
    pub fn written(&self) {
        if let Some(dir) = self.note.parent() {
            let _ = std::fs::create_dir_all(dir)
                .and_then(|()| std::fs::write(&self.note, &self.digest));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_core::board::{Board, PointBoard, Space, SpaceId};

    /// A picture of a map of `n` spaces, space "0" the last action.
    fn picture_of(n: usize) -> umpire_render::svg::Picture {
        let mut b = PointBoard::default();
        for i in 0..n {
            let space = Space {
                name: format!("Space {i}"),
                ..Default::default()
            };
            b.spaces.insert(SpaceId(i as u16), space);
        }
        let focus = [Place::Space(SpaceId(0))];
        umpire_render::svg::picture(&Board::Points(b), &focus)
    }

    #[test]
    fn the_same_picture_is_drawn_once_and_shared() {
        let recent = Recent::default();
        let shelf = tempfile::tempdir().expect("a folder");
        let shelf = shelf.path();
        let (one, two) = (picture_of(3), picture_of(3));
        let a = recent.png(&one, Part::Whole, shelf).expect("drawn");
        let b = recent.png(&two, Part::Whole, shelf).expect("shared");
        assert!(
            Arc::ptr_eq(&a, &b),
            "the second side shares the first raster"
        );
        assert_eq!(&a[..8], b"\x89PNG\r\n\x1a\n");
        let action = recent.png(&one, Part::Action, shelf).expect("drawn");
        assert!(!Arc::ptr_eq(&a, &action), "each part is drawn of its own");
        assert!(!Arc::ptr_eq(
            &a,
            &recent
                .png(&picture_of(4), Part::Whole, shelf)
                .expect("drawn")
        ));
        // Only the last RECENT pictures are kept.
        for i in 0..RECENT {
            recent
                .png(&picture_of(5 + i), Part::Whole, shelf)
                .expect("drawn");
        }
        assert!(!Arc::ptr_eq(
            &a,
            &recent.png(&one, Part::Whole, shelf).expect("drawn again")
        ));
    }
}
