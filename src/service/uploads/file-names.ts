import { MAX_UPLOAD_NAME_LENGTH } from '../../protocol/uploads'

// Control characters (C0, DEL, C1), and the bidirectional and invisible format characters that
// make a name read differently from what it is ("invoice‮fdp.exe").
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g

/**
 * A visitor's file name as the service keeps and shows it: no path (separators become `_`, so
 * `../../etc/passwd` is the name `.._.._etc_passwd`, never a place), no control or direction
 * characters, no leading dots or spaces, at most MAX_UPLOAD_NAME_LENGTH characters keeping the
 * extension; `file` when nothing is left. Storage never uses the name (keys are the service's own).
 */
export function safeFileName(raw: string): string {
  const cleaned = raw
    .normalize('NFC')
    .replace(UNSAFE, '')
    .replace(/[/\\:]/g, '_')
    .replace(/^[\s.]+/, '')
    .trim()
  if (cleaned === '') return 'file'
  const characters = Array.from(cleaned)
  if (characters.length <= MAX_UPLOAD_NAME_LENGTH) return cleaned
  const extension = /\.[\p{L}\p{N}]{1,16}$/u.exec(cleaned)?.[0] ?? ''
  return characters.slice(0, MAX_UPLOAD_NAME_LENGTH - extension.length).join('') + extension
}

/** `Content-Disposition` for `name`: an ASCII fallback and the exact name (RFC 6266, RFC 8187). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}
