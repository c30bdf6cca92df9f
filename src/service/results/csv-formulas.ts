/**
 * What keeps a CSV cell from running as a formula beyond its first character. Spreadsheets cut a
 * field into cells on more than the file's own separator: a `;` where the decimal mark is a comma,
 * a tab, a line break; a quote the importer ignores, or a text-to-columns step, does the rest. So
 * every place one of these may begin a cell is treated as a cell's start (OWASP, CSV injection):
 * a formula character there (`=`, `+`, `-`, `@` and their full-width forms, after any spaces) gets
 * a `'` before it, unless what follows reads as a plain negative number, which no spreadsheet runs.
 * The field's own first character is csv-stringify's (`escape_formulas`).
 */

/** Separators besides the comma (which csv-stringify quotes already): fields holding one are quoted. */
export const OTHER_SEPARATORS = [/[;\t]/]

/**
 * csv-stringify's options for every CSV the service writes (results, drop-off figures). A line
 * break of any kind inside a cell is quoted: csv-stringify quotes only the record delimiter itself
 * once one is chosen, unless told.
 */
export const CSV_OPTIONS = {
  escape_formulas: true,
  record_delimiter: 'windows',
  quote_record_delimiter: true,
  quoted_match: OTHER_SEPARATORS,
} as const

const INNER_FORMULA = /([,;\t\r\n] *)([=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/g
const PLAIN_NEGATIVE = /^-\d{1,15}(?:\.\d{1,15})?$/

/** `-5` or `-12.5` exactly as a number reads back (not `-05`, not `-1+1`). */
export function isPlainNegative(text: string): boolean {
  return PLAIN_NEGATIVE.test(text) && String(Number(text)) === text
}

export function neutraliseInnerFormulas(text: string): string {
  return text.replace(INNER_FORMULA, (match, before: string, sign: string, offset: number) => {
    const cell = /^[^,;\t\r\n]*/.exec(text.slice(offset + before.length))![0]
    return isPlainNegative(cell.trimEnd()) ? match : `${before}'${sign}`
  })
}
