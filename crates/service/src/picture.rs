//! The map picture attached to result mails (`map.png`) and drawn by
//! `umpire map`: the board the side sees, the last action outlined.

use super::Umpire;
use std::sync::Arc;
use umpire_core::board::Place;
use umpire_core::game::Game;
use umpire_core::hash::{Digest, sha256};
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
    let board = view.board?;
    let focus = game
        .report(seq)
        .map(|r| {
            r.events_for(viewer)
                .flat_map(|e| e.focus.iter().copied())
                .collect()
        })
        .unwrap_or_default();
    Some((board, focus))
}

/// The map of entry `seq` for `viewer` as SVG.
pub fn svg(game: &Game, seq: u64, viewer: Viewer) -> Option<String> {
    board_for(game, seq, viewer).map(|(b, f)| umpire_render::svg::svg(&b, &f))
}

/// The map of entry `seq` for `viewer` as PNG.
pub fn png(
    game: &Game,
    seq: u64,
    viewer: Viewer,
) -> Option<Result<Vec<u8>, umpire_render::svg::PictureError>> {
    board_for(game, seq, viewer).map(|(b, f)| umpire_render::svg::png(&b, &f))
}

/// How many recent pictures [`Recent`] keeps: more than the sides and
/// observers of one game's result, so one action's mails share their rasters.
const RECENT: usize = 8;

/// The last pictures drawn, by the digest of their SVG (rasterizing is the
/// dear part; the SVG is cheap and says everything the picture shows).
#[derive(Default)]
pub struct Recent(std::sync::Mutex<std::collections::VecDeque<(Digest, Arc<Vec<u8>>)>>);

impl Recent {
    /// The PNG of `svg`, drawn now or shared from a recent drawing.
    fn png(&self, svg: &str) -> Result<Arc<Vec<u8>>, umpire_render::svg::PictureError> {
        let key = sha256(svg.as_bytes());
        let mut recent = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, bytes)) = recent.iter().find(|(k, _)| *k == key) {
            return Ok(bytes.clone());
        }
        let bytes = Arc::new(umpire_render::svg::raster::png(svg)?);
        if recent.len() == RECENT {
            recent.pop_front();
        }
        recent.push_back((key, bytes.clone()));
        Ok(bytes)
    }
}

impl Umpire {
    /// `map.png` for a result mail, if the game has a board. A picture that
    /// cannot be drawn is left out (logged): the mail's text carries the map too.
    pub(super) fn map_attachment(
        &self,
        game: &Game,
        seq: u64,
        viewer: Viewer,
    ) -> Option<(String, String, Vec<u8>)> {
        let drawn = svg(game, seq, viewer).map(|s| self.pictures.png(&s).map(|b| (*b).clone()));
        match drawn? {
            Ok(bytes) => Some((MAP_PNG.to_string(), "image/png".to_string(), bytes)),
            Err(e) => {
                tracing::warn!(game = game.id(), "no map picture: {e}");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="#c00"/></svg>"##;

    #[test]
    fn the_same_picture_is_drawn_once_and_shared() {
        let recent = Recent::default();
        let a = recent.png(SVG).expect("drawn");
        let b = recent.png(SVG).expect("shared");
        assert!(
            Arc::ptr_eq(&a, &b),
            "the second side shares the first raster"
        );
        assert_eq!(&a[..8], b"\x89PNG\r\n\x1a\n");
        let other = SVG.replace("#c00", "#00c");
        assert!(!Arc::ptr_eq(&a, &recent.png(&other).expect("drawn")));
        // Only the last RECENT pictures are kept.
        for i in 0..RECENT {
            recent
                .png(&SVG.replace("#c00", &format!("#{i:03}")))
                .expect("drawn");
        }
        assert!(!Arc::ptr_eq(&a, &recent.png(SVG).expect("drawn again")));
    }
}
