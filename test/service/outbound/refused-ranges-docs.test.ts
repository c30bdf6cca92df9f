import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { REFUSED_HOST_NAMES, REFUSED_RANGES } from '../../../src/service/outbound/refused-ranges'

describe('the security model page', () => {
  it('prints exactly the refused ranges and names the guard uses', () => {
    const page = readFileSync('docs/security.md', 'utf8')
    const printed = [...page.matchAll(/^\| `([0-9a-f.:/]+)` \| (.+) \|$/gm)].map(([, cidr, name]) => ({ cidr, name }))
    expect(printed).toEqual(REFUSED_RANGES.map(({ cidr, name }) => ({ cidr, name })))
    for (const name of REFUSED_HOST_NAMES) expect(page).toContain(`\`${name}\``)
  })
})
