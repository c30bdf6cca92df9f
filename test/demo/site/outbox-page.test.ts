import { describe, expect, it } from 'vitest'
import { outboxPage } from '../../../demo/site/outbox-page'

const entry = (message: Record<string, unknown>) => ({
  id: 'm1',
  flowId: null,
  resultId: null,
  createdAt: '2026-05-01T10:00:00.000Z',
  message: { from: 'bot@example.com', to: ['a@example.com'], cc: [], bcc: [], subject: 'Hello', ...message },
})

describe('outbox page', () => {
  it('shows each e-mail with its headers, text bodies as text', () => {
    const page = outboxPage([entry({ cc: ['c@example.com'], bcc: ['b@example.com'], text: 'Line <b>one</b>' })])
    expect(page).toContain('<h2 id="email-m1">Hello</h2>')
    expect(page).toContain('<dt>Cc</dt><dd>c@example.com</dd>')
    expect(page).toContain('<dt>Bcc</dt><dd>b@example.com</dd>')
    expect(page).toContain('<pre>Line &#60;b&#62;one&#60;/b&#62;</pre>')
  })

  it('shows an HTML body only in a script-less sandboxed frame, escaped into srcdoc', () => {
    const page = outboxPage([entry({ subject: '<script>x</script>', html: '<p onclick="alert(1)">Hi</p><script>alert(2)</script>' })])
    expect(page).toContain('<iframe class="email-html" sandbox="" title="Body of &#60;script&#62;x&#60;/script&#62;"')
    expect(page).toContain('srcdoc="&#60;p onclick=&#34;alert(1)&#34;&#62;Hi&#60;/p&#62;')
    expect(page).not.toContain('<script>alert(2)')
    expect(page).not.toContain('<script>x</script>')
  })

  it('says when there is nothing to show', () => {
    expect(outboxPage([])).toContain('No e-mail yet')
    expect(outboxPage(undefined)).toContain('needs the demo')
  })
})
