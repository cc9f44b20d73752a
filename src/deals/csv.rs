//! CSV as spreadsheets write it (RFC 4180): comma-separated fields, double quotes around a
//! field holding a comma, quote or line break (a quote inside written twice), records ended by
//! LF or CRLF, a UTF-8 byte-order mark ignored. Rows are numbered as a spreadsheet shows
//! records: the header is row 1.

/// Why the text is not CSV, with the row it happened in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("row {row}: {reason}")]
pub struct CsvError {
    pub row: usize,
    pub reason: &'static str,
}

/// Every record of `text`, each a list of fields; blank lines are skipped.
pub fn read(text: &str) -> Result<Vec<(usize, Vec<String>)>, CsvError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = Vec::new();
    let (mut fields, mut field) = (Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let (mut row, mut quoted, mut was_quoted) = (1, false, false);
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                c => field.push(c),
            }
            continue;
        }
        match c {
            '"' if field.is_empty() && !was_quoted => (quoted, was_quoted) = (true, true),
            '"' => {
                return Err(CsvError {
                    row,
                    reason: "a quote inside an unquoted field (quote the field, double the quote)",
                });
            }
            ',' => {
                fields.push(std::mem::take(&mut field));
                was_quoted = false;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => {
                fields.push(std::mem::take(&mut field));
                was_quoted = false;
                if !(fields.len() == 1 && fields[0].is_empty()) {
                    records.push((row, std::mem::take(&mut fields)));
                    row += 1;
                }
                fields.clear();
            }
            c if was_quoted => {
                let _ = c;
                return Err(CsvError { row, reason: "text after a closing quote (a field is quoted whole)" });
            }
            c => field.push(c),
        }
    }
    if quoted {
        return Err(CsvError { row, reason: "a quoted field is never closed" });
    }
    fields.push(field);
    if !(fields.len() == 1 && fields[0].is_empty()) {
        records.push((row, fields));
    }
    Ok(records)
}

/// One record of a CSV file, ended by CRLF. A field that a spreadsheet would read as a
/// formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is written with a
/// leading `'`, so an exported deal never runs as one.
pub fn write_record<S: AsRef<str>>(out: &mut String, fields: &[S]) {
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let field = field.as_ref();
        let formula = field.starts_with(['=', '+', '-', '@', '\t', '\r']);
        let value = if formula { format!("'{field}") } else { field.to_owned() };
        if value.contains([',', '"', '\n', '\r']) || value.starts_with(' ') || value.ends_with(' ') {
            out.push('"');
            out.push_str(&value.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(&value);
        }
    }
    out.push_str("\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> Vec<Vec<String>> {
        read(text).expect("csv").into_iter().map(|(_, f)| f).collect()
    }

    #[test]
    fn quoted_fields_hold_commas_quotes_and_line_breaks() {
        let text = "\u{feff}a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n\n1,,3";
        assert_eq!(fields(text), [vec!["a", "b", "c"], vec!["x, y", "say \"hi\"", "two\nlines"], vec!["1", "", "3"]]);
        let rows: Vec<usize> = read(text).expect("csv").iter().map(|(r, _)| *r).collect();
        assert_eq!(rows, [1, 2, 3], "blank lines are not rows");
    }

    #[test]
    fn broken_quoting_names_its_row() {
        assert_eq!(read("a\n\"open").unwrap_err().row, 2);
        assert_eq!(read("a\nb\"c\n").unwrap_err().row, 2);
        assert_eq!(read("a\n\"b\"c\n").unwrap_err().row, 2);
    }

    #[test]
    fn written_records_read_back_and_formulas_are_defused() {
        let mut out = String::new();
        write_record(&mut out, &["plain", "a, b", "say \"hi\"", "=HYPERLINK(\"x\")", " padded"]);
        assert_eq!(fields(&out), [vec!["plain", "a, b", "say \"hi\"", "'=HYPERLINK(\"x\")", " padded"]]);
        assert!(out.ends_with("\r\n"));
    }
}
