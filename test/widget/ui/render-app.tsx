import { render } from '@testing-library/preact'
import { createConversation } from '../../../src/widget/chat/index'
import { createLocale } from '../../../src/widget/i18n/locale'
import { App } from '../../../src/widget/ui/index'
import { fakeClient, recordEvents } from '../chat/fake-client'

/** The real conversation and UI against a scripted service; CSS values are accepted as the browser would. */
export function renderApp(
  options: Parameters<typeof fakeClient>[0] = {},
  extra: { sleep?: (ms: number, signal?: AbortSignal) => Promise<void> } = {},
) {
  const fake = fakeClient(options)
  const events = recordEvents()
  let keys = 0
  const conversation = createConversation({
    flow: 'f1',
    client: fake.client,
    emit: events.emit,
    newKey: () => `key-${++keys}`,
    ...(extra.sleep ? { sleep: extra.sleep } : {}),
  })
  const locale = createLocale(document.documentElement, '', undefined)
  const view = render(<App conversation={conversation} emit={events.emit} isValidCss={() => true} locale={locale} />)
  return { ...fake, events, conversation, view }
}
