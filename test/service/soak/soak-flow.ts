/**
 * The flow most soak visitors walk: every kind of work a step can do on the way. A choice, a text,
 * an HTTP request block against the test's own server (its answer shown), a file upload, an e-mail
 * address, an AI answer streamed from the test's OpenAI-compatible server, a rating, then the end.
 */
export function soakFlow(apiOrigin: string): Record<string, unknown> {
  const text = (id: string, value: string) => ({ id, type: 'text', content: { richText: [{ type: 'p', children: [{ text: value }] }] } })
  const input = (id: string, type: string, variableId: string, outgoingEdgeId: string, more: Record<string, unknown> = {}) => ({
    id,
    type,
    outgoingEdgeId,
    options: { variableId, ...more },
  })
  const ticket = encodeURIComponent(JSON.stringify({ ticket: 4242 }))
  return {
    version: '6',
    name: 'Soak: support request',
    events: [{ id: 'start', type: 'start', outgoingEdgeId: 'e0', graphCoordinates: { x: 0, y: 0 } }],
    variables: ['Topic', 'Name', 'Ticket', 'Files', 'Email', 'Answer', 'Rating'].map((name) => ({ id: `v${name}`, name })),
    groups: [
      {
        id: 'topic',
        title: 'Topic',
        blocks: [
          text('hello', 'Hello! What is it about?'),
          {
            id: 'choose',
            type: 'choice input',
            outgoingEdgeId: 'e1',
            options: { variableId: 'vTopic' },
            items: ['Sales', 'Support', 'Billing'].map((content) => ({ id: content.toLowerCase(), content })),
          },
        ],
      },
      { id: 'name', title: 'Name', blocks: [text('ask-name', 'Your name?'), input('type-name', 'text input', 'vName', 'e2')] },
      {
        id: 'ticket',
        title: 'Ticket',
        blocks: [
          {
            id: 'open-ticket',
            type: 'Webhook',
            options: {
              webhook: { url: `${apiOrigin}/json?value=${ticket}`, method: 'GET' },
              responseVariableMapping: [{ id: 'm1', variableId: 'vTicket', bodyPath: 'data.ticket' }],
            },
          },
          text('show-ticket', 'Ticket {{Ticket}} is open, {{Name}}. Your receipt, please.'),
          input('receipt', 'file input', 'vFiles', 'e3'),
        ],
      },
      { id: 'email', title: 'E-mail', blocks: [input('type-email', 'email input', 'vEmail', 'e4')] },
      {
        id: 'ai',
        title: 'AI',
        blocks: [
          {
            id: 'ask-ai',
            type: 'openai',
            outgoingEdgeId: 'e5',
            options: {
              action: 'Create chat completion',
              model: 'gpt-soak',
              messages: [{ role: 'user', content: 'Help {{Name}} with {{Topic}}' }],
              responseMapping: [{ item: 'Message content', variableId: 'vAnswer' }],
            },
          },
        ],
      },
      {
        id: 'rate',
        title: 'Rate',
        blocks: [text('answer', '{{Answer}}'), input('rating', 'rating input', 'vRating', 'e6', { length: 5 })],
      },
      { id: 'end', title: 'End', blocks: [text('bye', 'Thanks {{Name}}, rated {{Rating}}.')] },
    ],
    edges: [
      { id: 'e0', from: { eventId: 'start' }, to: { groupId: 'topic' } },
      { id: 'e1', from: { blockId: 'choose' }, to: { groupId: 'name' } },
      { id: 'e2', from: { blockId: 'type-name' }, to: { groupId: 'ticket' } },
      { id: 'e3', from: { blockId: 'receipt' }, to: { groupId: 'email' } },
      { id: 'e4', from: { blockId: 'type-email' }, to: { groupId: 'ai' } },
      { id: 'e5', from: { blockId: 'ask-ai' }, to: { groupId: 'rate' } },
    ],
  }
}
