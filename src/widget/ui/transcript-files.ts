import { loadTranscriptLines, type TranscriptLine } from '../chat/index'
import type { Widget } from './widget'

/** A line as the visitor reads it: who said it, when, and what. */
interface ShownLine {
  who: string
  when: string
  at: string | undefined
  text: string
}

/** Who said each line, and when, in the chat's language. */
function shownLines(lines: readonly TranscriptLine[], { t, locale }: Widget, flowName: string): ShownLine[] {
  const time = new Intl.DateTimeFormat(locale.lang, { dateStyle: 'medium', timeStyle: 'short' })
  return lines.map((line) => ({
    who: line.from === 'visitor' ? t('you') : line.from === 'flow' ? flowName : (line.name ?? ''),
    when: line.at ? time.format(new Date(line.at)) : '',
    at: line.at,
    text: [line.text, line.url].filter(Boolean).join(line.text && line.url ? ' ' : ''),
  }))
}

/** The transcript as plain text: a title, then a line per message (`[time] who: text`). */
export function transcriptText(title: string, lines: readonly ShownLine[]): string {
  const body = lines.map(({ who, when, text }) => `${when ? `[${when}] ` : ''}${who ? `${who}: ` : ''}${text}`)
  return `${[title, '', ...body].join('\n')}\n`
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
/** Text as HTML text or an attribute value: every character markup could read as its own escaped. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!)

/**
 * The transcript as a page made for printing: self-contained (its style inline, nothing fetched),
 * every text escaped, no script, and a policy forbidding anything but its own style should a
 * browser be asked to run more.
 */
export function transcriptPage(title: string, lines: readonly ShownLine[], { locale }: Widget): string {
  const items = lines.map(
    ({ who, when, at, text }) =>
      `<li><p class="meta"><b>${escapeHtml(who)}</b>${at ? ` <time datetime="${escapeHtml(at)}">${escapeHtml(when)}</time>` : ''}</p><p class="text">${escapeHtml(text)}</p></li>`,
  )
  return `<!doctype html>
<html lang="${escapeHtml(locale.lang)}" dir="${locale.dir}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; color: #111; max-width: 42em; margin: 2em auto; padding: 0 1em; }
h1 { font-size: 1.4em; }
ol { list-style: none; padding: 0; }
li { margin: 0 0 1em; break-inside: avoid; }
.meta { margin: 0; color: #444; font-size: 0.9em; }
time { margin-inline-start: 0.5em; }
.text { margin: 0.2em 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<ol>
${items.join('\n')}
</ol>
</main>
</body>
</html>
`
}

/** `chat-transcript-2026-11-29`: the day the file was made, in the visitor's time zone. */
function fileName(now = new Date()): string {
  const day = [now.getFullYear(), now.getMonth() + 1, now.getDate()].map((part) => String(part).padStart(2, '0')).join('-')
  return `chat-transcript-${day}`
}

/**
 * Downloads the conversation's transcript, every message in order, in the chat's language: as
 * text or as a printable page. The file is made in the page and saved through a link in the
 * chat's own shadow root (`anchor`): nothing is added to the host page, nothing sent anywhere.
 */
export async function downloadTranscript(widget: Widget, anchor: HTMLElement, kind: 'text' | 'page'): Promise<void> {
  const { transcriptLines } = await loadTranscriptLines()
  const flowName = widget.conversation.publishedFlow.peek()?.name?.trim() || widget.t('chat')
  const title = `${widget.t('transcriptTitle')}: ${flowName}`
  const lines = shownLines(transcriptLines(widget.conversation.transcript), widget, flowName)
  const file =
    kind === 'text'
      ? new Blob([transcriptText(title, lines)], { type: 'text/plain;charset=utf-8' })
      : new Blob([transcriptPage(title, lines, widget)], { type: 'text/html;charset=utf-8' })
  const link = document.createElement('a')
  link.href = URL.createObjectURL(file)
  link.download = `${fileName()}.${kind === 'text' ? 'txt' : 'html'}`
  link.hidden = true
  anchor.append(link)
  link.click()
  link.remove()
  // Some browsers read the file after the click returns: its address lives a minute.
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000)
}
