import { describe, expect, it } from 'vitest'
import { startBanner } from '../../../demo/site/banner'

const banner = (workers = 1) =>
  startBanner({
    url: 'http://localhost:8787',
    workers,
    smtpConfigured: false,
    workspace: 'demo',
    tokens: { secret: 'fs_sk_secret', publishable: 'fs_pk_public' },
    data: '/tmp/.data',
    commandLine: 'npx flow-service list',
    flows: [{ file: 'showcase.json', source: 'demo', name: 'Showcase', flowId: 'f1', publicId: 'showcase-1', shareEnabled: true }],
  })

describe('what npm start prints', () => {
  it('names the console beside the demo pages, and the secret token to sign in with', () => {
    const lines = banner().split('\n')
    expect(lines.find((line) => line.trim().startsWith('Console'))).toMatch(
      /^ {2}Console +http:\/\/localhost:8787\/admin +\(.*sign in with the secret token below\)$/,
    )
    expect(lines).toContain('  Secret token      fs_sk_secret')
    expect(lines).toContain('  Command line      npx flow-service list')
    expect(lines).toContain('  http://localhost:8787/demo/inline/showcase-1  Showcase')
  })

  it('says how many processes serve when there are several', () => {
    expect(banner(2)).toContain('Flow Chat is running at http://localhost:8787 (2 processes)')
    expect(banner()).not.toContain('processes')
  })
})
