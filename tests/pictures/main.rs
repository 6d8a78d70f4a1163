//! Map pictures, the game page, and the page in headless Chromium.

mod pictures;
