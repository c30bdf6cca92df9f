import { beforeAll } from 'vitest'
import { loadChatView } from '../../src/widget/element/chat-view'

// The chat's views are a chunk the element imports once a chat starts. Under Vitest that first
// import transforms every view module on demand, which on a busy machine takes longer than the
// one second a `waitFor` gives a first render. These suites test what the chat shows, not how
// long a transform takes: each file starts with the views in the module cache.
beforeAll(async () => {
  await loadChatView()
}, 60_000)
