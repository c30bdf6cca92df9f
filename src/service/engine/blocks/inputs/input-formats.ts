import { DECIMAL } from '../../core/field-readers'

/**
 * Validation and normalisation of typed answers. Each parser returns the answer as the service
 * stores it, or undefined when the text is not acceptable for that input type.
 */

export function parseNumber(text: string, min?: number, max?: number): string | undefined {
  const trimmed = text.trim()
  if (!DECIMAL.test(trimmed)) return undefined
  const value = Number(trimmed)
  if (!Number.isFinite(value)) return undefined
  if (min !== undefined && value < min) return undefined
  if (max !== undefined && value > max) return undefined
  return String(value)
}

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)*\.[^\s@.]{2,}$/

export function parseEmail(text: string): string | undefined {
  const trimmed = text.trim()
  return EMAIL.test(trimmed) ? trimmed : undefined
}

const HAS_SCHEME = /^[a-z][a-z\d+.-]*:/i
const BARE_HOST = /^[\w-]+(?:\.[\w-]+)*(?::\d+)?(?:[/?#]\S*)?$/

/** http(s) only; a bare domain (`example.com/page`) is read as https. */
export function parseUrl(text: string): string | undefined {
  const trimmed = text.trim()
  if (trimmed === '' || /\s/.test(trimmed)) return undefined
  const candidate = HAS_SCHEME.test(trimmed) ? trimmed : BARE_HOST.test(trimmed) ? `https://${trimmed}` : undefined
  if (candidate === undefined) return undefined
  let url: URL
  try {
    url = new URL(candidate)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  const host = url.hostname
  const hasTld = /\.[a-z\d-]{2,}$/i.test(host) && !host.startsWith('.') && !host.includes('..')
  if (!hasTld && host !== 'localhost' && !/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)) return undefined
  return candidate
}

const PHONE_CHARS = /^\+?[\d\s().-]+$/

/** International numbers have 15 digits at most (E.164); shorter than 6 is not a phone number. */
export function parsePhone(text: string): string | undefined {
  const trimmed = text.trim()
  if (!PHONE_CHARS.test(trimmed)) return undefined
  let normalised = trimmed.replace(/[\s().-]/g, '')
  if (normalised.startsWith('00')) normalised = `+${normalised.slice(2)}`
  const digits = normalised.replace('+', '')
  if (!/^\d{6,15}$/.test(digits)) return undefined
  return normalised
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/

const DATE_RANGE = /^(\S+)\s+to\s+(\S+)$/i

/** ISO date or date-time; a range is `A to B` with A not after B. */
export function parseDate(text: string, isRange: boolean): string | undefined {
  const trimmed = text.trim()
  if (!isRange) return isIsoDate(trimmed) ? trimmed : undefined
  // Anchored, with no overlap between the parts: splitting on /\s+to\s+/ rescans every run of spaces.
  const match = DATE_RANGE.exec(trimmed)
  if (!match) return undefined
  const [, from, to] = match as unknown as [string, string, string]
  if (!isIsoDate(from) || !isIsoDate(to)) return undefined
  if (Date.parse(from) > Date.parse(to)) return undefined
  return `${from} to ${to}`
}

function isIsoDate(text: string): boolean {
  const match = DATE.exec(text)
  if (!match) return false
  const [, y, m, d, hh, mm, ss] = match
  const year = Number(y)
  const month = Number(m)
  const day = Number(d)
  if (month < 1 || month > 12 || day < 1) return false
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
  if (day > daysInMonth) return false
  if (hh !== undefined && (Number(hh) > 23 || Number(mm) > 59 || Number(ss ?? 0) > 59)) return false
  return true
}

export function parseRating(text: string, startsAt: number, length: number): string | undefined {
  const trimmed = text.trim()
  if (!/^-?\d+$/.test(trimmed)) return undefined
  const value = Number(trimmed)
  return value >= startsAt && value <= length ? String(value) : undefined
}
