//! Text made safe for HTML and SVG: one function, shared by the HTML
//! report and the charts it inlines.

/// `text` with `&`, `<`, `>` and `"` written as entities, for element
/// content and attribute values alike.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
