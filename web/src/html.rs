//! `host-trainer review LOG --html OUT.html`: the review page's own renderer
//! (`www/review-view.js`), tiles (`www/tiles.js`) and style (`www/style.css`), compiled
//! in, with the review's JSON inlined: one file, no network, no module, opens anywhere.

use anyhow::Result;

use crate::review::Review;

const STYLE: &str = include_str!("../www/style.css");
const TILES: &str = include_str!("../www/tiles.js");
const VIEW: &str = include_str!("../www/review-view.js");

/// `s` safe inside a `<script>` element (no `</script>` or `<!--` can close it).
fn script_safe(s: &str) -> String {
    s.replace("</", "<\\/").replace("<!--", "<\\!--")
}

/// `s` safe as HTML text.
fn text_safe(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The self-contained HTML review.
pub fn review_html(review: &Review) -> Result<String> {
    let data = serde_json::to_string(review)?;
    Ok(format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Review: {title}</title>\n<style>{STYLE}</style></head>\n\
         <body><main id=\"review\" class=\"review\"></main>\n\
         <script type=\"application/json\" id=\"review-data\">{data}</script>\n\
         <script>{tiles}\n{view}\n\
         showReview(document.getElementById('review'), \
         JSON.parse(document.getElementById('review-data').textContent));</script>\n\
         </body></html>\n",
        title = text_safe(&review.file),
        data = script_safe(&data),
        tiles = script_safe(TILES),
        view = script_safe(VIEW),
    ))
}
