import type { z } from 'zod/mini'
// Named zod imports, not the `z` namespace: the widget's file-input chunk imports this module and
// takes from the core's zod only what it uses.
import { array, looseObject, number, object, string } from 'zod/mini'
import { bool, num, opt, str } from './common'
import { fileTypeRule } from './file-types'

/**
 * File uploads for a `file input` block (contract.md, "Integrations, streaming, uploads and
 * commands"; docs/decisions/2026-11-26-file-uploads.md): one file per request, its raw bytes as
 * the body, `Content-Type` its type, its name in the `name` query parameter. The service answers
 * `{url, name, size, type}`; the widget answers the input with the URLs.
 */

/** Where a session's files are uploaded. */
export const uploadPath = (sessionId: string) => `/v1/sessions/${encodeURIComponent(sessionId)}/uploads`

/** Where an uploaded file is served: `/v1/files/{id}/{name}`. */
export const FILE_PATH_PREFIX = '/v1/files/'

/** An uploaded file's URL, as the service hands it out: its address, then `/v1/files/{id}/{name}`. */
export const fileUrl = (base: string, id: string, name: string) => `${base}${FILE_PATH_PREFIX}${id}/${encodeURIComponent(name)}`

/** The file id in an uploaded file's URL (`…/v1/files/{id}/{name}`), if it is one. */
export function fileIdOfUrl(url: string): string | undefined {
  try {
    const path = new URL(url).pathname
    return path.startsWith(FILE_PATH_PREFIX) ? /^([A-Za-z0-9_-]{16,64})\/[^/]+$/.exec(path.slice(FILE_PATH_PREFIX.length))?.[1] : undefined
  } catch {
    return undefined
  }
}

/** The block's limit when it names none, and the most any upload may be unless the operator raises it (UPLOAD_MAX_BYTES). */
export const DEFAULT_UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024

/** The longest name kept (longer ones are cut, keeping their extension); a request's name may be at most MAX_UPLOAD_NAME_QUERY long. */
export const MAX_UPLOAD_NAME_LENGTH = 200
export const MAX_UPLOAD_NAME_QUERY = 16_384

/** Most files one session may upload to one input (a multiple input sends at most this many URLs). */
export const MAX_FILES_PER_INPUT = 20

export const uploadedFileSchema = object({ url: string(), name: string(), size: number(), type: string() })
export type UploadedFile = z.infer<typeof uploadedFileSchema>

/** The options of a `file input` block (integrations.md 5.1) the widget and the service read. */
export const fileInputOptionsSchema = looseObject({
  variableId: str(),
  isRequired: bool(),
  isMultipleAllowed: bool(),
  allowedFileTypes: opt(looseObject({ isEnabled: bool(), types: opt(array(string())) })),
  /** `environment` or `user`: the phone's camera (image-only inputs). */
  capture: str(),
  /** Megabytes (schema version 5); later versions use the service's limit. */
  sizeLimit: num(),
  visibility: str(),
  labels: opt(
    looseObject({
      placeholder: str(),
      button: str(),
      clear: str(),
      skip: str(),
      success: opt(looseObject({ single: str(), multiple: str() })),
    }),
  ),
})
export type FileInputOptions = z.infer<typeof fileInputOptionsSchema>

/** The block's size limit in bytes: its own (version 5's `sizeLimit`, in MB) within the service's cap. */
export function uploadLimitBytes(options: FileInputOptions, serviceMaxBytes = DEFAULT_UPLOAD_LIMIT_BYTES): number {
  const own = options.sizeLimit
  const bytes = typeof own === 'number' && Number.isFinite(own) && own > 0 ? Math.floor(own * 1024 * 1024) : DEFAULT_UPLOAD_LIMIT_BYTES
  return Math.min(bytes, serviceMaxBytes)
}

/**
 * The types the block allows, each kind with its other extensions and MIME types (`.jpg` also
 * allows `.jpeg` and `image/jpeg`; see file-types.ts), lower case; none when any file goes.
 */
export function allowedTypes(options: FileInputOptions): string[] | undefined {
  const allowed = options.allowedFileTypes
  if (!allowed?.isEnabled) return undefined
  const { types } = fileTypeRule(allowed.types ?? [])
  return types.length > 0 ? types : undefined
}

/** The extension of `name`, lower case with its dot (`.pdf`), or ''. */
export function extensionOf(name: string): string {
  const match = /\.[a-z0-9]{1,16}$/i.exec(name)
  return match ? match[0].toLowerCase() : ''
}

/** Whether a MIME type is listed (`image/png`, or `image/*`). */
export function typeListed(types: readonly string[], mime: string): boolean {
  const type = mime.toLowerCase()
  return types.some((entry) => entry === type || (entry.endsWith('/*') && type.startsWith(entry.slice(0, -1))))
}

/**
 * Whether a file of this name and type passes `types` (any when undefined): its extension or its
 * type is listed. The widget checks it before uploading; the service checks it again, and also
 * against what the content is (sniffed), which a name cannot fake.
 */
export function acceptsFile(types: readonly string[] | undefined, file: { name: string; type: string }): boolean {
  if (!types) return true
  const extension = extensionOf(file.name)
  return (extension !== '' && types.includes(extension)) || (file.type !== '' && typeListed(types, file.type))
}

/**
 * The input's `accept` attribute, as browsers expect it: the allowed extensions, then their MIME
 * types (`.jpg, .png, .jpeg, image/jpeg, image/jpg, image/png`), which is also what lets a phone
 * offer its camera. An input that asks for the camera and allows any file asks for pictures.
 */
export function acceptAttribute(options: FileInputOptions): string | undefined {
  const types = allowedTypes(options)
  if (types) return types.join(', ')
  return captureAttribute(options) === undefined ? undefined : 'image/*'
}

/**
 * The input's `capture` attribute: the block's `capture` (`user` or `environment`), or, for a list
 * of types holding the old `capture=camera` token (which predates facings), the main camera.
 */
export function captureAttribute(options: FileInputOptions): 'user' | 'environment' | undefined {
  if (options.capture === 'user' || options.capture === 'environment') return options.capture
  const allowed = options.allowedFileTypes
  return allowed?.isEnabled && fileTypeRule(allowed.types ?? []).camera ? 'environment' : undefined
}

/** The answer to a file input: the URLs joined with ", " as its text, and as `attachedFileUrls`. */
export function fileAnswer(urls: readonly string[]): { type: 'text'; text: string; attachedFileUrls: string[] } {
  return { type: 'text', text: urls.join(', '), attachedFileUrls: [...urls] }
}
