import { RE2JS } from 're2js'

/**
 * `Matches regex` patterns come from flows, and their subjects from visitors: a backtracking
 * engine would let one of them stall the service (`(a+)+$` against a long answer). RE2 matches
 * in time linear in the subject, and the caps bound that time and the compiled program's size.
 * RE2 has no backreferences or lookaheads; such a pattern is invalid and matches nothing.
 */
export const MAX_PATTERN_LENGTH = 500
export const MAX_SUBJECT_LENGTH = 10_000

/** `/pattern/flags` as builders write it, or a bare pattern. */
const WITH_FLAGS = /^\/(.+)\/([a-z]*)$/s

const FLAG_BITS: Record<string, number> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
}

/** A compiled pattern, or undefined when it is empty, too long or not valid. */
export function compilePattern(source: string): RE2JS | undefined {
  const written = WITH_FLAGS.exec(source)
  const pattern = written ? written[1]! : source
  if (pattern === '' || pattern.length > MAX_PATTERN_LENGTH) return undefined
  let flags = 0
  // g, u and y change nothing for a yes/no test.
  for (const flag of written?.[2] ?? '') flags |= FLAG_BITS[flag] ?? 0
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern), flags)
  } catch {
    return undefined
  }
}

/** True when the pattern finds a match in the subject; too long a subject never matches. */
export function testPattern(pattern: RE2JS, subject: string): boolean {
  return subject.length <= MAX_SUBJECT_LENGTH && pattern.test(subject)
}
