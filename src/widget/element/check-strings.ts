import { type Emit, widgetWarning } from '../chat/index'
import { isText } from '../i18n/locale'
import { ENGLISH, type StringOverrides } from '../i18n/strings'

/**
 * The page's `strings` option, checked: an id the widget does not have (a typo, an id from
 * another version), or a value that is neither a text nor plural forms (see `isText`), is reported
 * once as an `unknown-string` warning; the chat left them out.
 * A chunk of its own: only a page that sets the option loads it.
 */
export function checkStrings(overrides: StringOverrides | undefined, emit: Emit): void {
  const unknown: string[] = []
  const invalid: string[] = []
  for (const [id, text] of Object.entries(overrides ?? {})) {
    if (!Object.hasOwn(ENGLISH, id)) unknown.push(id)
    else if (!isText(text)) invalid.push(id)
  }
  if (unknown.length > 0 || invalid.length > 0) {
    emit(
      'flowchat:log',
      widgetWarning(
        'unknown-string',
        'Some of the `strings` given are not ids of the widget, or not texts of the kind they take, and were left out',
        { unknown, invalid },
      ),
    )
  }
}
