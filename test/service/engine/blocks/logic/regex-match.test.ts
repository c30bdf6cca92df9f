import { describe, expect, it } from 'vitest'
import { compare } from '../../../../../src/service/engine/blocks/logic/conditions'
import {
  compilePattern,
  MAX_PATTERN_LENGTH,
  MAX_SUBJECT_LENGTH,
  testPattern,
} from '../../../../../src/service/engine/blocks/logic/regex-match'
import { REDOS_PATTERNS } from '../../fixtures/redos-patterns'

describe('regex comparisons', () => {
  // A backtracking engine would not finish these before the heat death of the test runner.
  it.each(REDOS_PATTERNS)('$attack: answers instead of stalling', ({ pattern, subject, matches }) => {
    expect(compilePattern(pattern)).toBeDefined()
    expect(compare(subject, 'Matches regex', pattern)).toBe(matches)
    expect(compare(subject, 'Does not match regex', pattern)).toBe(!matches)
  })

  it('reads /pattern/flags with i, m and s, and a bare pattern as case-sensitive', () => {
    expect(testPattern(compilePattern('/^b$/m')!, 'a\nb')).toBe(true)
    expect(testPattern(compilePattern('^b$')!, 'a\nb')).toBe(false)
    expect(testPattern(compilePattern('/a.b/s')!, 'a\nb')).toBe(true)
    expect(testPattern(compilePattern('/Hello/gi')!, 'say hello')).toBe(true)
    expect(testPattern(compilePattern('Hello')!, 'say hello')).toBe(false)
  })

  it('refuses patterns and subjects over the size caps', () => {
    expect(compilePattern('a'.repeat(MAX_PATTERN_LENGTH + 1))).toBeUndefined()
    expect(compilePattern('a'.repeat(MAX_PATTERN_LENGTH))).toBeDefined()
    const any = compilePattern('a')!
    expect(testPattern(any, 'a'.repeat(MAX_SUBJECT_LENGTH))).toBe(true)
    expect(testPattern(any, 'a'.repeat(MAX_SUBJECT_LENGTH + 1))).toBe(false)
  })
})
