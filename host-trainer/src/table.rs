//! Plain-text tables whose columns line up in a terminal: widths are measured in
//! display columns (`unicode-width`), not in `char`s or bytes, because tile glyphs
//! differ (🀄 is two columns wide, the other mahjong tiles one) and a fixed guess
//! misaligns every row that holds another glyph.

use unicode_width::UnicodeWidthStr;

/// How a column's cells are padded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Text first, padding after.
    Left,
    /// Padding first (numbers).
    Right,
}

/// Rows of cells laid out in columns as wide as their widest cell, two spaces apart;
/// every rendered row has the same display width.
#[derive(Clone, Debug, Default)]
pub struct Table {
    align: Vec<Align>,
    rows: Vec<Vec<String>>,
}

/// The display width of `s` in terminal columns.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

impl Table {
    /// A table with one column per entry of `align`.
    pub fn new(align: &[Align]) -> Table {
        Table {
            align: align.to_vec(),
            rows: Vec::new(),
        }
    }

    /// Appends a row; missing cells are empty, extra cells are dropped.
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        let mut row: Vec<String> = cells.into_iter().map(Into::into).collect();
        row.resize(self.align.len(), String::new());
        self.rows.push(row);
    }

    /// The rows, one per line, each ending in `\n`.
    pub fn render(&self) -> String {
        let widths: Vec<usize> = (0..self.align.len())
            .map(|c| self.rows.iter().map(|r| width(&r[c])).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for row in &self.rows {
            for (c, cell) in row.iter().enumerate() {
                if c > 0 {
                    out.push_str("  ");
                }
                let pad = " ".repeat(widths[c] - width(cell));
                match self.align[c] {
                    Align::Left => {
                        out.push_str(cell);
                        out.push_str(&pad);
                    }
                    Align::Right => {
                        out.push_str(&pad);
                        out.push_str(cell);
                    }
                }
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_with_wide_and_narrow_glyphs_have_one_width() {
        let mut t = Table::new(&[Align::Right, Align::Left, Align::Right]);
        t.row(["#", "action", "prob"]);
        t.row(["1", "discard 🀄 7z", "50.0%"]);
        t.row(["2", "discard 🀀 1z", "5.0%"]);
        t.row(["10", "pass", "-"]);
        let text = t.render();
        let widths: Vec<usize> = text.lines().map(width).collect();
        assert_eq!(widths.len(), 4);
        assert!(widths.iter().all(|&w| w == widths[0]), "{widths:?}\n{text}");
        // 🀄 is two columns, 🀀 one: the padding differs by exactly one space.
        assert!(text.contains("discard 🀄 7z  50.0%"), "{text}");
        assert!(text.contains("discard 🀀 1z    5.0%"), "{text}");
    }
}
