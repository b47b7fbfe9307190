//! The page's building blocks: the style sheet, tables, the
//! legend and collapsed sections. Everything is inline: the file opens
//! offline and can be mailed or attached as it is.

use crate::charts::style::{dash, hex, marker, marker_path};
use crate::escape::escape;

/// Layout: the answer first (two columns on a wide screen, one on a phone),
/// small multiples that reflow with the width, tables that turn into
/// stacked cards below 640 px so that nothing is cut on a phone.
pub const STYLE: &str = "\
*{box-sizing:border-box}\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;color:#1d1d22;\
max-width:1260px;margin:0 auto;padding:10px 20px 40px;line-height:1.35}\
h1{font-size:1.4rem;margin:.3em 0 .1em}\
h2{font-size:1.12rem;margin:1.1em 0 .4em;padding-bottom:.15em;border-bottom:1px solid #d9d9df}\
h3{font-size:1rem;margin:.8em 0 .3em}\
p{margin:.3em 0}\
.sub{color:#55555f;font-size:.9rem;margin:0 0 .4em}\
.note{color:#55555f;font-size:.84rem}\
.warn{color:#8a3200;font-size:.9rem}\
.answer{display:grid;grid-template-columns:minmax(0,1fr);gap:12px 22px;align-items:start}\
@media (min-width:1100px){.answer.two{grid-template-columns:fit-content(680px) minmax(0,1fr)}}\
.answer td{white-space:nowrap}\
table{border-collapse:collapse;font-size:.86rem;font-variant-numeric:tabular-nums;margin:.3em 0}\
th,td{padding:3px 8px;border-bottom:1px solid #e4e4ea;text-align:right;vertical-align:top}\
th{background:#f3f3f6;font-weight:600}\
th:first-child,td:first-child,.l{text-align:left}\
td small{display:block;color:#55555f;font-size:.78rem}\
.badge{display:inline-block;padding:0 6px;border-radius:3px;white-space:nowrap}\
.good{background:#d9f2e4}.bad{background:#fbe0cc}.plain{background:#ececf1}\
.swatch{display:inline-block;width:10px;height:10px;margin-right:5px;border:1px solid #333;vertical-align:baseline}\
.scroll{overflow-x:auto;max-width:100%}\
svg.chart{display:block;width:100%;height:auto}\
figure{margin:0}\
figure.bars{max-width:640px}\
figcaption{color:#55555f;font-size:.84rem;margin:.2em 0}\
.multiples{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:8px 14px}\
.legend{list-style:none;padding:0;margin:.3em 0 .5em;display:flex;flex-wrap:wrap;gap:3px 18px;font-size:.86rem}\
.legend li{display:flex;align-items:center;gap:6px}\
.legend svg{flex:none}\
details{margin:.5em 0}\
summary{cursor:pointer;font-weight:600}\
code{font-size:.84em;background:#f3f3f6;padding:0 3px;overflow-wrap:anywhere}\
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px;font-size:.86rem;margin:.3em 0}\
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}\
@media (max-width:640px){body{padding:8px 10px 30px}\
table.stack,table.stack tbody{display:block;width:100%}\
table.stack thead{display:none}\
table.stack tr{display:flex;flex-wrap:wrap;gap:3px 14px;border:1px solid #e0e0e6;border-radius:4px;margin:0 0 6px;padding:4px 7px}\
table.stack td{display:block;border:0;padding:0;text-align:left;white-space:normal}\
table.stack td::before{content:attr(data-label);display:block;font-size:.72rem;color:#55555f}\
table.stack td:first-child{flex:0 0 100%;font-weight:600}\
table.stack td:first-child::before{display:none}\
dl{grid-template-columns:minmax(0,1fr)}}\
@media print{details{display:block}summary{display:none}.answer.two{grid-template-columns:minmax(0,1fr)}}";

/// A table whose cells are HTML already; the header is text. `stack`
/// tables become one card per row on a narrow screen, each cell led by its
/// column's name.
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Row>,
    pub stack: bool,
    /// Columns of text, aligned left (figures are aligned right).
    pub left: Vec<usize>,
}

/// A row: its cells (HTML) and an optional tooltip for the whole row.
pub struct Row {
    pub cells: Vec<String>,
    pub title: Option<String>,
}

impl Row {
    pub fn new(cells: Vec<String>) -> Row {
        Row { cells, title: None }
    }
}

impl Table {
    fn class(&self, column: usize) -> &'static str {
        if self.left.contains(&column) {
            " class=\"l\""
        } else {
            ""
        }
    }

    pub fn render(&self) -> String {
        let mut s = format!(
            "<div class=\"scroll\"><table{}><thead><tr>",
            if self.stack { " class=\"stack\"" } else { "" }
        );
        for (i, h) in self.header.iter().enumerate() {
            s.push_str(&format!("<th{}>{}</th>", self.class(i), escape(h)));
        }
        s.push_str("</tr></thead><tbody>\n");
        for r in &self.rows {
            match &r.title {
                Some(t) => s.push_str(&format!("<tr title=\"{}\">", escape(t))),
                None => s.push_str("<tr>"),
            }
            for (i, c) in r.cells.iter().enumerate() {
                match self.header.get(i).filter(|_| self.stack) {
                    Some(h) => s.push_str(&format!("<td{} data-label=\"{}\">{c}</td>", self.class(i), escape(h))),
                    None => s.push_str(&format!("<td{}>{c}</td>", self.class(i))),
                }
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</tbody></table></div>\n");
        s
    }
}

/// A small picture of configuration `style` as the charts draw it: its line
/// (colour and dash) with its marker.
pub fn swatch(style: usize) -> String {
    let d = match dash(style) {
        "" => String::new(),
        d => format!(" stroke-dasharray=\"{d}\""),
    };
    format!(
        "<svg width=\"34\" height=\"14\" viewBox=\"0 0 34 14\" aria-hidden=\"true\"><line x1=\"1\" y1=\"7\" x2=\"33\" y2=\"7\" stroke=\"{c}\" stroke-width=\"2\"{d}/>\
         <path d=\"{m}\" fill=\"{c}\" stroke=\"#222\" stroke-width=\"0.8\"/></svg>",
        c = hex(style),
        m = marker_path(marker(style), 17.0, 7.0, 4.2)
    )
}

/// The legend of a chart or a grid of charts: (style, label) per entry.
pub fn legend(entries: &[(usize, String)]) -> String {
    let mut s = String::from("<ul class=\"legend\">");
    for (style, label) in entries {
        s.push_str(&format!(
            "<li class=\"legend-entry\" data-style=\"{style}\">{}<span>{}</span></li>",
            swatch(*style),
            escape(label)
        ));
    }
    s.push_str("</ul>\n");
    s
}

/// A section that starts closed.
pub fn collapsed(id: &str, summary: &str, body: &str) -> String {
    format!("<details id=\"{id}\"><summary>{}</summary>\n{body}</details>\n", escape(summary))
}
