//! SVG to PNG with resvg, using only the font embedded in the binary
//! (`assets/fonts/`), never the system's: the same picture on every machine.

use resvg::{tiny_skia, usvg};
use std::sync::{Arc, OnceLock};

/// The one font every picture uses (DejaVu Sans, licence beside it).
pub const FONT: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans.ttf");
/// Its family name, as the SVG names it.
pub const FAMILY: &str = "DejaVu Sans";
/// Largest picture drawn, per side in pixels (a bound on the work per mail).
pub const MAX_SIDE: u32 = 4096;

/// Why a picture could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    #[error("the map picture is not valid SVG: {0}")]
    Svg(String),
    #[error("the map picture is {0}×{1} pixels, more than {MAX_SIDE} on a side")]
    TooBig(u32, u32),
    #[error("could not encode the map picture as PNG: {0}")]
    Png(String),
}

fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        db.set_sans_serif_family(FAMILY);
        db.set_serif_family(FAMILY);
        db.set_monospace_family(FAMILY);
        Arc::new(db)
    })
    .clone()
}

/// Rasterises an SVG document to PNG bytes at its own size.
pub fn png(svg: &str) -> Result<Vec<u8>, PictureError> {
    let opt = usvg::Options {
        font_family: FAMILY.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| PictureError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (w, h) = (size.width(), size.height());
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(PictureError::TooBig(w, h));
    }
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or(PictureError::TooBig(w, h))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    encode(&pixmap).map_err(|e| PictureError::Png(e.to_string()))
}

/// PNG of an opaque picture: indexed when it has at most 256 colours (flat
/// fills and unsmoothed text make that the rule, and a mail's map small),
/// else 8-bit RGB.
fn encode(p: &tiny_skia::Pixmap) -> Result<Vec<u8>, png::EncodingError> {
    let rgb: Vec<[u8; 3]> = p
        .pixels()
        .iter()
        .map(|c| [c.red(), c.green(), c.blue()])
        .collect();
    let mut colours: std::collections::BTreeMap<[u8; 3], u8> = std::collections::BTreeMap::new();
    // A map is long runs of one colour: skip the lookup for a repeated pixel.
    let mut last = None;
    for c in &rgb {
        if colours.len() > 256 {
            break;
        }
        if last != Some(*c) {
            last = Some(*c);
            colours.entry(*c).or_insert(0);
        }
    }
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, p.width(), p.height());
    e.set_depth(png::BitDepth::Eight);
    e.set_compression(png::Compression::High);
    let data: Vec<u8> = if colours.len() <= 256 {
        let mut palette = Vec::with_capacity(colours.len() * 3);
        for (i, (c, idx)) in colours.iter_mut().enumerate() {
            *idx = i as u8;
            palette.extend_from_slice(c);
        }
        e.set_color(png::ColorType::Indexed);
        e.set_palette(palette);
        let mut run = ([0u8; 3], None);
        rgb.iter()
            .map(|c| match run {
                (prev, Some(i)) if prev == *c => i,
                _ => {
                    let i = colours[c];
                    run = (*c, Some(i));
                    i
                }
            })
            .collect()
    } else {
        e.set_color(png::ColorType::Rgb);
        rgb.concat()
    };
    let mut w = e.write_header()?;
    w.write_image_data(&data)?;
    w.finish()?;
    Ok(out)
}
