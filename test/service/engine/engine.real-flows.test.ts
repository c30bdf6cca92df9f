import { afterAll, describe, expect, it } from 'vitest'
import { closeSandbox } from '../../../src/service/engine/sandbox/sandbox'
import { Conversation, publishedFromFile, texts } from './support/flow-builder'

/**
 * The real exports in ../shared/flows (beside the checkout), imported with the contract's schema
 * and walked to their end through the engine alone, choosing answers that reach the end.
 */
afterAll(closeSandbox)

const messagesOf = (conversation: Conversation) => conversation.outcomes.flatMap(texts)
const logsOf = (conversation: Conversation) => conversation.outcomes.flatMap((outcome) => outcome.response.logs ?? [])

async function walk(file: string, answers: string[]) {
  const conversation = new Conversation(publishedFromFile(file))
  await conversation.start()
  for (const answer of answers) {
    expect(conversation.outcome.ended).toBe(false)
    await conversation.answer(answer)
  }
  return conversation
}

describe('test-chat-main.json', () => {
  it('greets by name, branches on age, sets the magic number, skips integrations and ends', async () => {
    const conversation = await walk('test-chat-main.json', ['Ada', '30', 'ada@example.com', 'example.com', 'Yes'])
    const [start, afterName, afterAge, afterEmail, afterUrl, end] = conversation.outcomes
    expect(texts(start!)).toEqual(['Hi there! 👋', "Welcome. What's your name?"])
    expect(start!.response.input).toMatchObject({
      type: 'text input',
      options: { labels: { placeholder: 'Type your answer...', button: 'Send' } },
    })
    expect(texts(afterName!)).toEqual(['Nice to meet you Ada', 'How old are you?'])
    expect(afterName!.response.messages?.[1]).toMatchObject({
      type: 'image',
      content: { url: expect.stringMatching(/^https:\/\/media2\.giphy\.com\//) },
    })
    expect(texts(afterAge!)).toEqual(['Ok, you are an adult then 😁', 'My magic number is 42', "I'm gonna shoot multiple inputs now..."])
    expect(afterAge!.response.input?.type).toBe('email input')
    expect(afterEmail!.response.input?.type).toBe('url input')
    expect(afterUrl!.response.lastMessageNewFormat).toBe('https://example.com')
    expect(afterUrl!.response.input?.items?.map((item) => item.content)).toEqual(['Yes', 'No'])
    expect(texts(end!)).toEqual(['Ok, you are solid 👏', "Let's trigger a webhook..."])
    expect(end!.ended).toBe(true)
    expect(logsOf(conversation).map((log) => log.description)).toEqual([
      'Linked flow skipped: no published flow "chat-sub-bot" in this workspace',
      "Couldn't parse webhook attributes",
    ])
    expect(conversation.variables).toMatchObject({
      vclauuklnc000b3b6q7xchq4yf: 'Ada',
      vclauulfjk000i3b6qmujooweu: '30',
      vclauuohyp000w3b6qbqrs6c6w: 42,
    })
  })

  it('takes the other branch for a kid and retries an invalid email with the flow’s message', async () => {
    const conversation = await walk('test-chat-main.json', ['Bob', '12', 'bob@', 'bob@example.com', 'https://bob.example', 'No'])
    expect(messagesOf(conversation)).toContain('Oh, you are a kid 😁')
    expect(messagesOf(conversation)).not.toContain('Ok, you are an adult then 😁')
    expect(texts(conversation.outcomes[3]!)).toEqual(["This email doesn't seem to be valid. Can you type it again?"])
    expect(conversation.outcome.ended).toBe(true)
  })
})

describe('tpl-lead-scoring.json', () => {
  const scoreId = 'vcl1sezzln002b2e6e6ssxh9bf'

  it('scores a company with a big team and a developer as qualified', async () => {
    const conversation = await walk('tpl-lead-scoring.json', ['Yes', 'Acme', '50', 'Developer', 'France'])
    // +10 (company) +20 (team over 30) +20 (developer); not based in the United States.
    expect(conversation.variables[scoreId]).toBe(50)
    expect(texts(conversation.outcome)).toEqual([
      'Thank you for answering these questions',
      'Our service is specifically designed for your situation.',
      "We'll get back to you ASAP. 👋",
    ])
    expect(conversation.outcome.ended).toBe(true)
  })

  it('adds 10 for a team of exactly 10 (a comparison without an operator means "Equal to")', async () => {
    const conversation = await walk('tpl-lead-scoring.json', ['Yes', 'Acme', '10', 'Marketing Officer', 'Germany'])
    // +10 (company) +10 (team of 10) +20 (marketing officer).
    expect(conversation.variables[scoreId]).toBe(40)
    expect(messagesOf(conversation)).toContain('Our service is specifically designed for your situation.')
  })

  it('ends as not qualified for a small team based in the United States', async () => {
    const conversation = await walk('tpl-lead-scoring.json', ['No', '5', 'UI/UX Designer', 'United States'])
    // The template's "Add 10" branch for the United States sets the score to 10 outright.
    expect(conversation.variables[scoreId]).toBe(10)
    expect(texts(conversation.outcome)).toEqual([
      'Thank you for answering these questions',
      "Our service doesn't seem to suit your need.",
      "We'll still send you valuable content by email.",
      'Bye bye 👋',
    ])
    expect(conversation.outcome.ended).toBe(true)
  })
})

describe('tpl-nps.json', () => {
  const typeId = 'vcgkjbh8intf2cql1oteyj4mu'

  it('a promoter is asked for a review, then waits and is redirected', async () => {
    const conversation = await walk('tpl-nps.json', ['Sure!', '10', 'It saves me hours', 'Sure!'])
    expect(conversation.outcomes[1]!.response.input).toMatchObject({
      type: 'rating input',
      options: { labels: { left: 'Very unlikely', right: 'Very likely' }, isOneClickSubmitEnabled: true },
    })
    expect(texts(conversation.outcomes[2]!)).toEqual(["I'm glad to hear that 😍", 'Could you tell us why?'])
    expect(conversation.variables[typeId]).toBe('Promoter')
    expect(texts(conversation.outcome)).toEqual(['Amazing 🤩', 'Let me take you there...'])
    expect(conversation.outcome.response.clientSideActions).toEqual([
      { type: 'wait', wait: { secondsToWaitFor: 1 }, lastBubbleBlockId: 'nigypz7fhnt07440o0829o81' },
      {
        type: 'redirect',
        redirect: { url: 'https://www.capterra.com/p/233968/Typebot/', isNewTab: false },
        lastBubbleBlockId: 'nigypz7fhnt07440o0829o81',
      },
    ])
    expect(conversation.outcome.ended).toBe(true)
  })

  it('a neutral rating skips straight to "why" and says a cheerful goodbye', async () => {
    const conversation = await walk('tpl-nps.json', ['Sure!', '7', 'It is fine'])
    expect(texts(conversation.outcomes[2]!)).toEqual(['Could you tell us why?'])
    expect(conversation.variables[typeId]).toBe('Neutral')
    expect(texts(conversation.outcome)).toEqual(['Thank you for taking the time to answer!', 'Have a beautiful day!'])
    expect(conversation.outcome.ended).toBe(true)
  })

  it('a detractor is asked what went wrong and gets a promo code', async () => {
    const conversation = await walk('tpl-nps.json', ['Sure!', '3', 'Too slow'])
    expect(texts(conversation.outcomes[2]!)).toEqual(['Could you tell us what went wrong?'])
    expect(conversation.variables[typeId]).toBe('Detractor')
    expect(texts(conversation.outcome)[1]).toBe("Here is a promo code if you'd like to give our product another chance: PROMO123")
    expect(conversation.outcome.ended).toBe(true)
  })

  it('reports progress that grows to 100 when the progress bar is on', async () => {
    const conversation = new Conversation(publishedFromFile('tpl-nps.json', { general: { progressBar: { isEnabled: true } } }))
    await conversation.start()
    for (const answer of ['Sure!', '10', 'Great', 'Maybe later']) await conversation.answer(answer)
    const progress = conversation.outcomes.map((outcome) => outcome.response.progress!)
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]!)
    expect(progress.at(-1)).toBe(100)
  })
})

describe('tpl-product-recommendation.json', () => {
  it('walks a European visitor who likes every flavour through every recommendation', async () => {
    const conversation = await walk('tpl-product-recommendation.json', [
      'Ada',
      'Europe',
      'Running',
      '♂️ Men',
      'Energy, Hydration, Recovery',
      'Cricket-based, Plant-based',
      'Chocolate, Vanilla, Berries, Caramel, Nuts, Coffee',
      'Gluten free',
      'ada@example.com',
      'Bars - Variety pack',
      'Watermelon Energy Drink Mix',
      'Vanilla Protein Powder',
    ])
    const all = messagesOf(conversation)
    expect(all).toContain('Ok Ada')
    expect(all).toContain('Alright Ada, I think we know exactly what you need.')
    expect(all).toContain('Unfortunately, cricket-based products are not available in Europe. 😢')
    expect(all).toContain("Let's talk about Energy. ⚡")
    expect(all).toContain('Since you like all these flavors you could try our discovery packs')
    const goals = conversation.outcomes[4]!.response.input
    expect(goals).toMatchObject({ type: 'picture choice input', options: { isMultipleChoice: true } })
    expect(conversation.variables.vgz8fr5u7q0p4jdef1krz2vm3).toEqual(['Energy', 'Hydration', 'Recovery'])
    // Items carry display conditions: the lime drink is hidden (no lime chosen), the nut butter shown.
    const hydration = conversation.outcomes[10]!.response.input
    expect(hydration?.items?.map((item) => item.title)).toEqual(['Watermelon Energy Drink Mix'])
    const recovery = conversation.outcomes[11]!.response.input
    expect(recovery?.items?.map((item) => item.title)).toEqual(['Protein Nut Butter', 'Vanilla Protein Powder'])
    expect(conversation.outcome.ended).toBe(true)
  })

  it('a North American visitor who only wants recovery gets the recovery picks and the end', async () => {
    const conversation = await walk('tpl-product-recommendation.json', [
      'Lin',
      'North America',
      'Cycling',
      'Other',
      'Recovery',
      'Plant-based',
      'Lime',
      'Nut free',
      'lin@example.com',
      'Vanilla Protein Powder',
    ])
    const all = messagesOf(conversation)
    expect(all).not.toContain('Unfortunately, cricket-based products are not available in Europe. 😢')
    expect(all).toContain('Recovery 🧘‍♂️ is crucial to perform at your highest level on the field.')
    // "Nut free" hides the nut butter.
    expect(conversation.outcomes[9]!.response.input?.items?.map((item) => item.title)).toEqual(['Vanilla Protein Powder'])
    expect(conversation.outcome.ended).toBe(true)
  })
})
