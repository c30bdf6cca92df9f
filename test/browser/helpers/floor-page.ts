import type { Hono } from 'hono'

/**
 * The start-up floor (`npm run bench:widget`): what any chat on another site must spend before
 * its first message shows, and nothing more. A page of the host site loads one small script
 * from the service's origin; the script makes the one request a chat cannot do without (a
 * startChat as the widget makes it: the same work on the service, and the CORS preflight a
 * cross-origin JSON request needs) and paints one element. The widget's
 * first bubble is printed beside it, as a ratio, from loads that alternate between the two.
 */
export const FLOOR_SCRIPT_PATH = '/bench/floor.js'

/** The element the floor paints, as a CSS selector. */
export const FLOOR_PAINTED = '#floor-bubble'

const FLOOR_SCRIPT = `const { api, flow } = document.currentScript.dataset
fetch(api + '/v1/flows/' + encodeURIComponent(flow) + '/startChat', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: '{}',
})
  .then((response) => response.json())
  .then((chat) => {
    const bubble = document.createElement('p')
    bubble.id = 'floor-bubble'
    bubble.textContent = 'Messages: ' + (chat.messages ? chat.messages.length : 0)
    document.body.append(bubble)
  })
`

/** Serves the floor's script on the service's origin (tests and benchmarks only). */
export function mountFloorScript(app: Hono): void {
  app.get(FLOOR_SCRIPT_PATH, (c) =>
    c.body(FLOOR_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' }),
  )
}
