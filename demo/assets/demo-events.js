// Lists the events flow scripts send the page (`emitHostEvent` → `flowchat:script-event`).
// An external file because the demo pages' CSP allows no inline script. The payload is data
// from a flow: it is shown as text, never as markup.
;(() => {
  const list = document.getElementById('host-events')
  if (!list) return
  const MAX_SHOWN = 50

  const show = (event) => {
    const { name, payload } = event.detail ?? {}
    const item = document.createElement('li')
    const time = document.createElement('time')
    const now = new Date()
    time.dateTime = now.toISOString()
    time.textContent = now.toLocaleTimeString()
    const label = document.createElement('strong')
    label.textContent = String(name)
    const data = document.createElement('code')
    data.textContent = JSON.stringify(payload)
    item.append(time, ' ', label, ' ', data)
    list.append(item)
    while (list.children.length > MAX_SHOWN) list.firstElementChild?.remove()
  }

  const watched = new WeakSet()
  const watch = (element) => {
    if (watched.has(element)) return
    watched.add(element)
    element.addEventListener('flowchat:script-event', show)
  }
  // Every <flow-chat> on the page, including ones added later.
  document.querySelectorAll('flow-chat').forEach(watch)
  new MutationObserver(() => document.querySelectorAll('flow-chat').forEach(watch)).observe(document.body, {
    childList: true,
    subtree: true,
  })
})()
