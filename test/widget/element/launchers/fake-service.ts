import type { FetchLike } from '../../../../src/widget/transport/index'
import { publishedFlow, startResponse, text, textInput } from '../../chat/fake-client'

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/** What the fake service was asked, in order (tests empty it after each). */
export const requests: Array<{ url: string; authorization: string | null; body: unknown }> = []

/** The flow service in a function, recording what it is asked: a themed flow that greets and waits for text. */
export const fetch: FetchLike = async (url, init) => {
  requests.push({
    url,
    authorization: new Headers(init?.headers).get('Authorization'),
    body: init?.body ? JSON.parse(String(init.body)) : undefined,
  })
  // A flow with a name and no share title.
  if (url.includes('/flows/named/publishedFlow')) {
    return json({ publishedFlow: { ...publishedFlow(), name: ' Sales desk ' }, version: '3' })
  }
  if (url.includes('/publishedFlow')) {
    return json({
      publishedFlow: publishedFlow({
        theme: { chat: { buttons: { backgroundColor: 'rgb(0, 51, 102)', color: 'white' } } },
        settings: { metadata: { title: 'Support desk' }, typingEmulation: { enabled: false } },
      }),
      version: '3',
    })
  }
  if (url.endsWith('/startChat')) return json(startResponse({ messages: [text('m1', 'Hello')], input: textInput() }))
  if (url.endsWith('/continueChat')) return json({ messages: [text('w', 'Wizzzzz')], input: textInput() })
  return json({ error: { code: 'not_found', message: 'Not found' } }, 404)
}
