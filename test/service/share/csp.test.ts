import { describe, expect, it } from 'vitest'
import { sharePagePolicy } from '../../../src/service/share/csp'

const parse = (policy: string) =>
  Object.fromEntries(
    policy.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/)
      return [name, sources]
    }),
  ) as Record<string, string[] | undefined>

const none = { allowedOrigins: [] }

describe('sharePagePolicy', () => {
  it('allows only same-origin script and style, no plugins, no base element, whatever the flow', () => {
    const policy = parse(sharePagePolicy(none))
    expect(policy['script-src']).toEqual(["'self'"])
    expect(policy['style-src']).toEqual(["'self'"])
    expect(policy['object-src']).toEqual(["'none'"])
    expect(policy['base-uri']).toEqual(["'none'"])
    expect(policy['frame-ancestors']).toBeUndefined()
  })

  it('adds the origin of a widget bundle served elsewhere', () => {
    const policy = parse(sharePagePolicy({ ...none, scriptOrigins: ['https://cdn.example'] }))
    expect(policy['script-src']).toEqual(["'self'", 'https://cdn.example'])
  })

  it('writes only well-formed allowed origins into frame-ancestors, never a directive smuggled in one', () => {
    const allowedOrigins = ['https://Shop.Example/path', 'https://a.example; script-src *', "'unsafe-inline'", '*', 'null']
    const text = sharePagePolicy({ ...none, allowedOrigins })
    expect(parse(text)['frame-ancestors']).toEqual(["'self'", 'https://shop.example'])
    expect(parse(text)['script-src']).toEqual(["'self'"])
    expect(text.split(';').filter((part) => part.trim().startsWith('script-src'))).toHaveLength(1)
  })
})
