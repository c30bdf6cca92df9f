import { describe, expect, it } from 'vitest'
import { indexPage } from '../../../demo/site/pages'

describe('the demo index', () => {
  it('says which variables the AI assistant needs when the service has no AI key, and never claims an AI otherwise', () => {
    const without = indexPage([], { aiConfigured: false })
    expect(without).toContain('The AI assistant has no AI to ask')
    expect(without).toMatch(/OPENAI_API_KEY[\s\S]*OPENAI_BASE_URL[\s\S]*OUTBOUND_ALLOW_HOSTS/)
    const configured = indexPage([], { aiConfigured: true })
    expect(configured).not.toContain('no AI to ask')
    expect(configured).toContain('with the model the flow names (<code>gpt-4o-mini</code>')
  })
})
