// The inline demo page's language and colour-scheme switcher: each select sets (or, left on its
// first choice, removes) one attribute of the chat, which follows it without starting over. An
// external file because the demo pages' CSP allows no inline script.
;(() => {
  for (const select of document.querySelectorAll('select[data-chat-attribute]')) {
    select.addEventListener('change', () => {
      const chat = document.querySelector(select.dataset.chatTarget)
      if (!chat) return
      if (select.value) chat.setAttribute(select.dataset.chatAttribute, select.value)
      else chat.removeAttribute(select.dataset.chatAttribute)
    })
  }
})()
