import { describe, expect, it } from 'vitest'
import { generatePublicId, PUBLIC_ID_PATTERN, slugify } from '../../../src/service/flows/public-id'

describe('public ids', () => {
  it('slugs names into lower-case ASCII words', () => {
    expect(slugify('Lead Scoring — Été 2026!')).toBe('lead-scoring-ete-2026')
    expect(slugify('🤖🤖')).toBe('')
    expect(slugify('x'.repeat(100))).toHaveLength(40)
  })

  it('always produces a valid, suffixed public id', () => {
    for (const name of ['Complete bot', '🤖', '', '---', 'A'.repeat(200), 'Ünïcödé']) {
      const id = generatePublicId(name)
      expect(id).toMatch(PUBLIC_ID_PATTERN)
      expect(id).toMatch(/-[a-z0-9]{6}$/)
    }
    expect(generatePublicId('🤖')).toMatch(/^flow-/)
  })
})
