import { fileTypeFromBuffer } from 'file-type'
import { acceptsFile, extensionOf } from '../../protocol/uploads'
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
 * What the content is, from its first bytes, checked against the input: a program is refused
 * always; a known format must be one the input allows (a renamed executable, a PDF named
 * `.png`); content of no known format passes a restricted input only as a text format. Returns
 * the type to store: the sniffed one, else the declared one.
 */
export async function checkContent(head: Uint8Array, types: string[] | undefined, file: { name: string; type: string }): Promise<string> {
  const sniffed = await fileTypeFromBuffer(head)
  if (sniffed && EXECUTABLES.has(sniffed.ext)) throw refused('Programs cannot be uploaded.')
  if (sniffed) {
    if (types && !acceptsFile(types, { name: `file.${sniffed.ext}`, type: sniffed.mime })) refusedType(types)
    return sniffed.mime
  }
  if (types && !(TEXT_EXTENSIONS.has(extensionOf(file.name)) || isTextType(file.type))) {
    throw refused(`This file's content is not a ${types.join(', ')} file.`)
  }
  return file.type
}
