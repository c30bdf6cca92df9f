/**
 * What a file input's allowed types mean (integrations.md 5.1, `allowedFileTypes`), the one rule
 * the widget's picker (`accept`), its check before uploading and the service's check of an upload
 * all read (docs/decisions/2026-11-28-file-input-accept.md).
 *
 * Builders store what their authors typed: `.jpg`, `image/png`, `jpg`, `.jpg, .png` in one entry,
 * and the old media-capture token `capture=camera` (alone or as `image/*;capture=camera`). A list
 * means the kinds of file it names, so each kind comes with its other extensions and MIME types:
 * `.jpg` allows `photo.jpeg` and a picker offers files typed `image/jpeg` (what phones need to
 * offer their camera). The capture token is not a type: it asks for the camera.
 */

/**
 * Extensions and MIME types naming one kind of file, the usual ones first. Kept to the formats a
 * chat asks for (pictures, documents, sheets, slides, text, audio, video, archives) so the
 * widget's file-input chunk stays small; a type not listed here is allowed as written.
 */
const KINDS = [
  'jpg jpeg|image/jpeg image/jpg',
  'png|image/png',
  'gif|image/gif',
  'webp|image/webp',
  'avif|image/avif',
  'heic|image/heic',
  'heif|image/heif',
  'bmp|image/bmp',
  'tif tiff|image/tiff',
  'svg|image/svg+xml',
  'pdf|application/pdf',
  'doc|application/msword',
  'docx|application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'xls|application/vnd.ms-excel',
  'xlsx|application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'ppt|application/vnd.ms-powerpoint',
  'pptx|application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'odt|application/vnd.oasis.opendocument.text',
  'ods|application/vnd.oasis.opendocument.spreadsheet',
  'odp|application/vnd.oasis.opendocument.presentation',
  'rtf|application/rtf text/rtf',
  'txt|text/plain',
  'csv|text/csv',
  'tsv|text/tab-separated-values',
  'json|application/json',
  'xml|application/xml text/xml',
  'md|text/markdown',
  'ics|text/calendar',
  'vcf|text/vcard',
  'mp3|audio/mpeg',
  'wav|audio/wav audio/x-wav',
  'm4a|audio/mp4 audio/x-m4a',
  'ogg oga|audio/ogg',
  'mp4|video/mp4',
  'mov|video/quicktime',
  'webm|video/webm',
  'zip|application/zip application/x-zip-compressed',
  'epub|application/epub+zip',
].map((line) => {
  const [extensions, types] = line.split('|') as [string, string]
  return [...extensions.split(' ').map((extension) => `.${extension}`), ...types.split(' ')]
})

/** The kind `entry` (`.jpeg`, `image/jpeg`) belongs to: its names, extensions first; or none. */
const kindOf = (entry: string) => KINDS.find((names) => names.includes(entry))

/** What an author's list of allowed types says: the file types, and whether it asks for the camera. */
export interface FileTypeRule {
  /**
   * Every extension (`.jpg`) then every MIME type (`image/jpeg`, `image/*`) a file may have, lower
   * case, each once, in the author's order with each kind's other names after the listed ones;
   * empty when the list names no type (any file goes).
   */
  types: string[]
  /** The list held a `capture=camera`-style token: the author wants the camera offered. */
  camera: boolean
}

const EXTENSION = /^\.[a-z0-9][a-z0-9+-]{0,15}$/
const BARE_EXTENSION = /^[a-z0-9][a-z0-9+-]{0,15}$/
const MIME_TYPE = /^[a-z0-9][\w.+-]*\/(\*|[a-z0-9][\w.+-]*)$/

/** Reads an author's list (`[".jpg", "png", "image/*;capture=camera"]`) as the types it allows. */
export function fileTypeRule(listed: readonly string[]): FileTypeRule {
  const extensions: string[] = []
  const types: string[] = []
  let camera = false
  const tokens = listed.flatMap((entry) => entry.toLowerCase().split(/[,;]/)).map((token) => token.trim())
  for (const token of tokens) {
    if (/^capture\s*(=|$)/.test(token)) {
      // `capture`, `capture=camera`, `=camcorder`, `=user`, `=environment`: a camera; `=microphone` and `=filesystem` are not.
      camera ||= !/(microphone|filesystem)/.test(token)
      continue
    }
    const entry = BARE_EXTENSION.test(token) ? `.${token}` : token
    if (EXTENSION.test(entry)) extensions.push(entry)
    else if (MIME_TYPE.test(entry)) types.push(entry)
  }
  for (const entry of [...extensions, ...types]) {
    for (const name of kindOf(entry) ?? []) (name.startsWith('.') ? extensions : types).push(name)
  }
  return { types: [...new Set([...extensions, ...types])], camera }
}
