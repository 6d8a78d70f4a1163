//! The map picture attached to result mails (`map.png`) and drawn by
//! `umpire map`: the board the side sees, the last action outlined.

use super::Umpire;
use crate::core::board::Place;
use crate::core::game::Game;
use crate::core::ruleset::Side;

/// File name of the picture in a mail.
pub const MAP_PNG: &str = "map.png";

/// The board `side` sees (`None`: what every side may see) with the focus
/// of entry `seq`'s events that side may see, if the game has a board.
pub fn board_for(
    game: &Game,
    seq: u64,
    side: Option<Side>,
) -> Option<(crate::core::board::Board, Vec<Place>)> {
    let view = game.ruleset().view(game.state(), side);
    let board = view.board?;
    let focus = game
        .report(seq)
        .map(|r| {
            r.events_for(side)
                .flat_map(|e| e.focus.iter().copied())
                .collect()
        })
        .unwrap_or_default();
    Some((board, focus))
}

/// The map of entry `seq` for `side` as SVG.
pub fn svg(game: &Game, seq: u64, side: Option<Side>) -> Option<String> {
    board_for(game, seq, side).map(|(b, f)| crate::render::svg::svg(&b, &f))
}

/// The map of entry `seq` for `side` as PNG.
pub fn png(
    game: &Game,
    seq: u64,
    side: Option<Side>,
) -> Option<Result<Vec<u8>, crate::render::svg::PictureError>> {
    board_for(game, seq, side).map(|(b, f)| crate::render::svg::png(&b, &f))
}

impl Umpire {
    /// `map.png` for a result mail, if the game has a board. A picture that
    /// cannot be drawn is left out (logged): the mail's text carries the map too.
    pub(super) fn map_attachment(
        &self,
        game: &Game,
        seq: u64,
        side: Option<Side>,
    ) -> Option<(String, String, Vec<u8>)> {
        match png(game, seq, side)? {
            Ok(bytes) => Some((MAP_PNG.to_string(), "image/png".to_string(), bytes)),
            Err(e) => {
                tracing::warn!(game = game.id(), "no map picture: {e}");
                None
            }
        }
    }
}
