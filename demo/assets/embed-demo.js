// Wires the embed demo pages' buttons to the bubble and popup elements and lists their events.
// An external file because the demo pages' CSP allows no inline script. Event details come from
// flows: they are shown as text, never as markup.
;(() => {
  const COMMANDS = new Set(['open', 'close', 'toggle', 'reset', 'reload', 'showPreviewMessage', 'hidePreviewMessage'])
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('[data-chat-command]') : null
    if (!button) return
    const command = button.getAttribute('data-chat-command')
    const target = document.querySelector(button.getAttribute('data-chat-target') ?? '')
    if (target && COMMANDS.has(command) && typeof target[command] === 'function') target[command]()
  })

  const list = document.getElementById('embed-events')
  if (!list) return
  const MAX_SHOWN = 50
  const TYPES = ['flowchat:open', 'flowchat:close', 'flowchat:start', 'flowchat:answer', 'flowchat:end', 'flowchat:error']
  for (const type of TYPES) {
    document.addEventListener(type, (event) => {
      const source = event.target instanceof Element ? event.target : null
      const item = document.createElement('li')
      const name = document.createElement('strong')
      name.textContent = type
      const from = document.createElement('code')
      from.textContent = source ? `${source.localName}${source.id ? `#${source.id}` : ''}` : 'page'
      item.append(name, ' from ', from)
      list.append(item)
      while (list.children.length > MAX_SHOWN) list.firstElementChild?.remove()
    })
  }
})()
