import { loadSharedFlow, text } from './flows'

/**
 * Flows and scenarios for the flow tests (`flow-service test`, `POST /v1/flows/{id}/test`).
 */

/** The joke API the shared export's HTTP block calls once its address is filled in. */
export const JOKE_API = 'https://api.chucknorris.io/jokes/random'
export const JOKE = 'Chuck Norris counted to infinity. Twice.'

/**
 * The shared `test-chat-main.json` export as its author would finish it: its HTTP block (left
 * without an address in the export) calls a joke API, whose answer's `value` becomes `Joke`.
 */
export function chatMainWithJokeApi(): Record<string, any> {
  const flow = loadSharedFlow('test-chat-main.json')
  for (const group of flow.groups) {
    for (const block of group.blocks) if (block.type === 'Webhook') block.options.webhook.url = JOKE_API
  }
  return flow
}

/** A visitor of the shared export who is an adult and hears the stubbed joke: passes. */
export const adultHearsAJoke = {
  name: 'An adult hears a joke',
  stubs: { http: [{ method: 'POST', url: JOKE_API, body: { value: JOKE } }] },
  start: { messages: [{ contains: 'Hi there' }, { equals: "Welcome. What's your name?" }] },
  answers: [
    { answer: 'Ada', expect: { messages: [{ contains: 'Nice to meet you Ada' }], variables: { Name: 'Ada' } } },
    { answer: '36', expect: { messages: [{ equals: 'Ok, you are an adult then 😁' }], variables: { 'Magic number': 42 } } },
    'ada@example.com',
    'https://example.com',
    'Yes',
  ],
  expect: { messages: [{ equals: JOKE }], variables: { Joke: JOKE }, ending: 'finished' },
}

/**
 * A small support desk: a question, a ticket opened by an HTTP call, an AI answer (with
 * credentials the test run sets aside), an e-mail to the team, and the ticket number.
 */
export function supportFlow(): Record<string, any> {
  return {
    version: '6',
    name: 'Support desk',
    events: [{ id: 'start', type: 'start', outgoingEdgeId: 'to-ask' }],
    groups: [
      {
        id: 'ask',
        title: 'Ask',
        blocks: [
          text('hello', 'What can we help you with?'),
          { id: 'question', type: 'text input', outgoingEdgeId: 'to-ticket', options: { variableId: 'vQuestion' } },
        ],
      },
      {
        id: 'ticket',
        title: 'Ticket',
        blocks: [
          {
            id: 'open-ticket',
            type: 'Webhook',
            options: {
              webhook: {
                url: 'https://helpdesk.example.com/api/tickets',
                method: 'POST',
                headers: [{ id: 'h1', key: 'Content-Type', value: 'application/json' }],
                body: '{"question": "{{Question}}"}',
              },
              isCustomBody: true,
              responseVariableMapping: [{ id: 'm1', variableId: 'vTicket', bodyPath: 'data.id' }],
            },
          },
          {
            id: 'suggest',
            type: 'openai',
            options: {
              credentialsId: 'openai-of-the-workspace',
              action: 'Create chat completion',
              model: 'gpt-4o-mini',
              messages: [{ role: 'user', content: 'Suggest a first answer to: {{Question}}' }],
              responseMapping: [{ item: 'Message content', variableId: 'vSuggestion' }],
            },
          },
          text('suggestion', '{{Suggestion}}'),
          {
            id: 'notify',
            type: 'Email',
            options: {
              recipients: ['support@example.com'],
              subject: 'Ticket {{Ticket}}',
              isCustomBody: true,
              body: 'Question: {{Question}}',
            },
          },
          text('done', 'Your ticket number is {{Ticket}}.'),
        ],
      },
    ],
    edges: [
      { id: 'to-ask', from: { eventId: 'start' }, to: { groupId: 'ask' } },
      { id: 'to-ticket', from: { blockId: 'question' }, to: { groupId: 'ticket' } },
    ],
    variables: [
      { id: 'vQuestion', name: 'Question' },
      { id: 'vTicket', name: 'Ticket' },
      { id: 'vSuggestion', name: 'Suggestion' },
    ],
  }
}

export const supportScenario = {
  name: 'A question opens a ticket',
  stubs: {
    http: [{ method: 'POST', url: 'https://helpdesk.example.com/api/tickets', status: 201, body: { id: 'T-1042' } }],
    ai: [{ reply: 'Have you tried turning it off and on again?' }],
  },
  answers: [
    {
      answer: 'My printer is on fire',
      expect: {
        messages: [{ equals: 'Have you tried turning it off and on again?' }, { contains: 'T-1042' }],
        variables: { Ticket: 'T-1042' },
        emails: [{ to: 'support@example.com', subjectContains: 'T-1042', bodyContains: 'My printer is on fire' }],
      },
    },
  ],
}
