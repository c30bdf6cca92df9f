import { fileTypeFromBuffer } from 'file-type'
import { acceptsFile } from '../../protocol/uploads'
import { HttpError } from '../http/errors'

/** How many first bytes content sniffing reads (file-type's own advice). */
export const SNIFF_BYTES = 4100

/** Programs, refused whatever their name says and whatever the input allows. */
const EXECUTABLES = new Set(['exe', 'elf', 'macho', 'msi', 'dmg', 'deb', 'rpm', 'apk', 'class', 'wasm'])

/**
 * Names and types of text formats, which have no signature to sniff: a file whose content
 * matches no known binary format passes a type check only as one of these.
 */
const TEXT_EXTENSIONS = new Set([
  '.txt',
  '.csv',
  '.tsv',
  '.json',
  '.md',
  '.xml',
  '.html',
  '.htm',
  '.svg',
  '.js',
  '.css',
  '.ics',
  '.vcf',
  '.yaml',
  '.yml',
  '.log',
  '.rtf',
])
const isTextType = (type: string) =>
  type.startsWith('text/') || /^application\/(json|xml|[\w.+-]+\+(json|xml))$/.test(type) || type === 'image/svg+xml'

const refused = (message: string) => new HttpError('unsupported_media_type', message)

/** A `Content-Type` header as a bare, lower-case `type/subtype`; octet-stream when it is not one. */
export function declaredType(header: string | undefined): string {
  const type = (header ?? '').split(';')[0]!.trim().toLowerCase()
  return /^[a-z0-9][\w.+-]*\/[a-z0-9][\w.+-]*$/.test(type) && type.length <= 100 ? type : 'application/octet-stream'
}

/** Refuses, before any byte is read, a file whose name and type the input does not allow. */
export function checkDeclared(types: string[] | undefined, file: { name: string; type: string }): void {
  if (!acceptsFile(types, file)) refusedType(types!)
}

function refusedType(types: string[]): never {
  throw refused(`This input accepts only ${types.join(', ')} files.`)
}

/**
 * What the content is, from its first bytes, checked against the input; the name and the declared
 * type count only where the bytes cannot tell. A program is refused always; a known format must be
 * one the input allows (a renamed executable, a PDF named `.png`). Content of no known format is
 * text or nothing: bytes that are not text are refused by a restricted input, and text passes one
 * only when the input allows a text format and the file is named or typed as one of those (HTML or
 * a script named `invoice.pdf`, whatever its type, is not a PDF). Returns the type to store: the
 * sniffed one; for text, the declared type when it is a text type, else `text/plain`; for anything
 * else, opaque bytes.
 */
export async function checkContent(head: Uint8Array, types: string[] | undefined, file: { name: string; type: string }): Promise<string> {
  const sniffed = await fileTypeFromBuffer(head)
  if (sniffed && EXECUTABLES.has(sniffed.ext)) throw refused('Programs cannot be uploaded.')
  if (sniffed) {
    if (types && !acceptsFile(types, { name: `file.${sniffed.ext}`, type: sniffed.mime })) refusedType(types)
    return sniffed.mime
  }
  const text = looksLikeText(head)
  if (types) {
    const textTypes = types.filter((type) => TEXT_EXTENSIONS.has(type) || isTextType(type))
    if (!text || !acceptsFile(textTypes, file)) throw refused(`This file's content is not a ${types.join(', ')} file.`)
  }
  if (!text) return 'application/octet-stream'
  return isTextType(file.type) ? file.type : 'text/plain'
}

/**
 * Whether the first bytes read as text: UTF-8 (a character cut at the end of what was read
 * aside) without NUL bytes or other control characters than tab, line breaks and form feed.
 */
export function looksLikeText(head: Uint8Array): boolean {
  let end = head.length
  // A multi-byte character cut by the sniffing window: drop its lead and continuation bytes.
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = head[end - back]!
    if (byte < 0x80) break
    if (byte >= 0xc0) {
      const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2
      if (length > back) end -= back
      break
    }
  }
  let decoded: string
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, end))
  } catch {
    return false
  }
  return !/[\u0000-\u0008\u000b\u000e-\u001a\u001c-\u001f\u007f]/.test(decoded)
}
