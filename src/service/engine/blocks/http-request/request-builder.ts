import { HTTP_REQUEST_TIMEOUT_SECONDS } from '../../../../protocol/http-request-limits'
import type { VariableValue } from '../../../../protocol/index'
import { asFields, readBoolean, readString, toFiniteNumber } from '../../core/field-readers'
import type { FlowIndex } from '../../core/flow-index'
import { formatValue, singleVariableName, substitute, type Variables, valueByName } from '../../core/variables'

/**
 * An HTTP request block's request, built from its options and the variables
 * (integrations.md 1.3, steps 1–3). Pure: no I/O, the same for the server and the widget.
 */
export interface BuiltRequest {
  url: string
  method: string
  headers: Record<string, string>
  /** What is sent: JSON text, form-encoded text or plain text; absent for GET and HEAD. */
  body?: string
  /** The body as data (the widget sends it again as JSON), when there is one. */
  data?: unknown
  /** Seconds before the call is given up (1–120, 10 by default). */
  timeoutSeconds: number
}

export type BuildOutcome = { ok: true; request: BuiltRequest } | { ok: false; reason: string }

/** Methods builders list that no HTTP client sends on a flow's behalf (fetch forbids them too). */
const REFUSED_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])

export interface RequestScope {
  index: FlowIndex
  variables: Variables
  /** The default body: the result's answers, then every variable with a value. */
  answersSnapshot: () => Record<string, unknown>
}

export function buildHttpRequest(options: unknown, scope: RequestScope): BuildOutcome {
  const fields = asFields(options)
  const webhook = asFields(fields.webhook)
  const fill = (text: string) => substitute(text, scope.index, scope.variables)
  const url = fill(readString(webhook, 'url') ?? '').trim()
  if (url === '') return { ok: false, reason: 'its URL is empty' }
  const method = (readString(webhook, 'method') ?? 'POST').trim().toUpperCase() || 'POST'
  if (REFUSED_METHODS.has(method) || !/^[A-Z]{1,16}$/.test(method)) return { ok: false, reason: `the method ${method} cannot be sent` }

  const headers: Record<string, string> = {}
  for (const [key, value] of pairs(webhook.headers, fill)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) return { ok: false, reason: `"${key}" is not a header name` }
    if (CLIENT_HEADERS.has(key.toLowerCase())) continue
    const folded = value.replace(/[\r\n]+/g, ' ')
    // Named, never quoted: the value may be a key.
    if (CONTROL_CHARACTER.test(folded)) return { ok: false, reason: `the ${key} header holds a control character no header can carry` }
    headers[key] = asHeaderBytes(key.toLowerCase() === 'authorization' ? encodeBasic(folded) : folded)
  }
  const query = new URLSearchParams()
  for (const [key, value] of pairs(webhook.queryParams, fill)) query.append(key, value)
  const search = query.toString()
  const fullUrl = search === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${search}`

  const request: BuiltRequest = { url: fullUrl, method, headers, timeoutSeconds: timeoutOf(fields.timeout) }
  if (method !== 'GET' && method !== 'HEAD') Object.assign(request, bodyOf(fields, webhook, headers, scope))
  return { ok: true, request }
}

/** Headers the HTTP client writes itself (framing, connection, host): a flow's own are not sent. */
const CLIENT_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'proxy-connection',
])

/** What no header value may hold once line breaks are folded into spaces (a tab may stay). */
const CONTROL_CHARACTER = /[\u0000-\u0008\u000a-\u001f\u007f]/

/**
 * A header value as it goes on the wire: ASCII as it is, anything else as its UTF-8 bytes, each
 * written as the character of that code (a byte string, which `fetch` sends byte for byte on the
 * server and in the browser alike), so `Łukasz` or `王芳` arrive as UTF-8 instead of failing.
 */
export function asHeaderBytes(value: string): string {
  if (!/[^\u0000-\u007f]/.test(value)) return value
  let bytes = ''
  for (const byte of new TextEncoder().encode(value)) bytes += String.fromCharCode(byte)
  return bytes
}

/** `{id, key, value}` items with both key and value non-empty once filled in. */
function pairs(items: unknown, fill: (text: string) => string): Array<[string, string]> {
  const out: Array<[string, string]> = []
  for (const item of Array.isArray(items) ? items : []) {
    const fields = asFields(item)
    const key = fill(readString(fields, 'key') ?? '').trim()
    const value = fill(readString(fields, 'value') ?? '')
    if (key !== '' && value.trim() !== '') out.push([key, value])
  }
  return out
}

/** `Basic user:password` is sent as builders send it: the credentials part base64-encoded. */
function encodeBasic(value: string): string {
  const match = /^\s*Basic\s+(.+)$/i.exec(value)
  if (!match || !match[1]!.includes(':')) return value
  return `Basic ${Buffer.from(match[1]!.trim(), 'utf8').toString('base64')}`
}

function timeoutOf(raw: unknown): number {
  const seconds = toFiniteNumber(raw)
  if (seconds === undefined || seconds <= 0) return HTTP_REQUEST_TIMEOUT_SECONDS.default
  return Math.min(Math.max(seconds, 1), HTTP_REQUEST_TIMEOUT_SECONDS.max)
}

function bodyOf(
  fields: Record<string, unknown>,
  webhook: Record<string, unknown>,
  headers: Record<string, string>,
  scope: RequestScope,
): Pick<BuiltRequest, 'body' | 'data'> {
  const template = readString(webhook, 'body') ?? ''
  let data: unknown
  let text: string
  if (readBoolean(fields, 'isCustomBody') !== true || template.trim() === '' || template.trim() === '{{state}}') {
    data = scope.answersSnapshot()
    text = JSON.stringify(data)
  } else {
    const single = singleVariableName(template)
    text = single === undefined ? fillJson(template, scope) : rawText(valueByName(scope.index, scope.variables, single))
    data = parseJson(text)
    // Not JSON after all: plain text, with values as they read.
    if (data === undefined && single === undefined) text = substitute(template, scope.index, scope.variables)
  }
  const contentType = Object.entries(headers).find(([key]) => key.toLowerCase() === 'content-type')?.[1]
  if (contentType?.toLowerCase().includes('x-www-form-urlencoded') && isPlainObject(data)) {
    const form = new URLSearchParams()
    for (const [key, value] of Object.entries(data)) form.append(key, typeof value === 'string' ? value : JSON.stringify(value))
    return { body: form.toString(), data }
  }
  if (contentType === undefined) headers['content-type'] = data === undefined ? 'text/plain; charset=utf-8' : 'application/json'
  return data === undefined ? { body: text, data: text } : { body: text, data }
}

/**
 * Fills a JSON template so it stays JSON: inside a string literal a value is JSON-escaped (the
 * template has the quotes: `"name": "{{Name}}"`); outside one it is a JSON value (`"age": {{Age}}`
 * gives `30`, a list gives a JSON array, an unset variable `null`, other text a quoted string).
 */
export function fillJson(template: string, scope: Pick<RequestScope, 'index' | 'variables'>): string {
  let out = ''
  let inString = false
  let last = 0
  const placeholder = /\{\{([^{}]+)\}\}/g
  for (let match = placeholder.exec(template); match; match = placeholder.exec(template)) {
    inString = stringStateAfter(template.slice(last, match.index), inString)
    const value = valueByName(scope.index, scope.variables, match[1]!.trim())
    out += template.slice(last, match.index) + (inString ? JSON.stringify(formatValue(value)).slice(1, -1) : jsonLiteral(value))
    last = match.index + match[0].length
  }
  return out + template.slice(last)
}

/** Whether the text ends inside a JSON string literal, starting `inString`. */
function stringStateAfter(text: string, inString: boolean): boolean {
  let escaped = false
  for (const char of text) {
    if (escaped) escaped = false
    else if (char === '\\' && inString) escaped = true
    else if (char === '"') inString = !inString
  }
  return inString
}

function jsonLiteral(value: VariableValue | undefined): string {
  if (value === null || value === undefined) return 'null'
  if (Array.isArray(value)) return JSON.stringify(value)
  if (typeof value !== 'string') return String(value)
  return parseJson(value.trim()) === undefined ? JSON.stringify(value) : value.trim()
}

/** A whole-body `{{Var}}`: its value as it is (a list as JSON, so the body can be a JSON array). */
function rawText(value: VariableValue | undefined): string {
  return Array.isArray(value) ? JSON.stringify(value) : formatValue(value)
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
