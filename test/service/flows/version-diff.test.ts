import { describe, expect, it } from 'vitest'
import { describeChange, diffVersions } from '../../../src/service/flows/version-diff'
import { greetingFlow } from '../helpers/flows'

const lines = (before: Record<string, any>, after: Record<string, any>) => diffVersions(before, after).flatMap(describeChange)

describe('diffVersions', () => {
  it('finds no change between a version and itself, nor in blocks moved on the canvas', () => {
    const before = greetingFlow()
    const after = greetingFlow()
    after.groups[0].graphCoordinates = { x: 500, y: 500 }
    expect(diffVersions(before, before)).toEqual([])
    expect(diffVersions(before, after)).toEqual([])
  })

  it("says what changed in a block in the author's words, named by its words or its variable and its group", () => {
    const before = greetingFlow()
    const after = greetingFlow()
    after.groups[0].blocks[1].options.labels.placeholder = 'Your first name'
    after.groups[0].blocks[0].content.richText[0].children[0].text = 'Hi! Who are you?'
    expect(lines(before, after)).toEqual([
      `Block 'Hi! Who are you?' (text) in group 'Ask': text changed from "Hello! What is your name?" to "Hi! Who are you?"`,
      `Block 'Name' (text input) in group 'Ask': placeholder changed from "Your name" to "Your first name"`,
    ])
    const [change] = diffVersions(before, after)
    expect(change).toMatchObject({ area: 'block', change: 'changed', id: 'b1' })
  })

  it('lists added and removed groups, blocks, links and variables, and renamed groups', () => {
    const before = greetingFlow()
    const after = greetingFlow()
    after.groups[2].title = 'Goodbye'
    after.groups.push({ id: 'g4', title: 'Contact', blocks: [{ id: 'b5', type: 'email input', options: { variableId: 'vEmail' } }] })
    after.variables.push({ id: 'vEmail', name: 'Email' })
    after.groups[1].blocks = []
    after.edges = after.edges.filter((edge: { id: string }) => edge.id !== 'e3')
    after.edges.push({ id: 'e4', from: { blockId: 'b2' }, to: { groupId: 'g4' } })
    expect(lines(before, after)).toEqual([
      `Group 'Goodbye': title changed from "End" to "Goodbye"`,
      "Group 'Contact' added",
      "Block 'Email' (email input) in group 'Contact' added",
      "Block 'Age' (number input) in group 'Bye' removed",
      "Link from block 'Name' (text input) in group 'Ask' to group 'Contact' added",
      "Link from block 'Age' (number input) in group 'Bye' to group 'End' removed",
      "Variable 'Email' added",
    ])
  })

  it('names where a link now goes and what it went to before', () => {
    const before = greetingFlow()
    const after = greetingFlow()
    after.edges[1].to = { groupId: 'g3' }
    expect(lines(before, after)).toEqual([
      "Link from block 'Name' (text input) in group 'Ask' to group 'End': was from block 'Name' (text input) in group 'Ask' to group 'Bye'",
    ])
  })

  it("compares a choice's items one by one, and says when a block moved to another group", () => {
    const choice = (items: Array<{ id: string; content: string }>) => ({ id: 'c1', type: 'choice input', items })
    const before = greetingFlow()
    const after = greetingFlow()
    before.groups[1].blocks.push(
      choice([
        { id: 'i1', content: 'Yes' },
        { id: 'i2', content: 'No' },
      ]),
    )
    after.groups[2].blocks.push(
      choice([
        { id: 'i1', content: 'Yes please' },
        { id: 'i3', content: 'Maybe' },
      ]),
    )
    expect(lines(before, after)).toEqual([
      "Block #2 (choice input) in group 'End': moved from group 'Bye'",
      `Block #2 (choice input) in group 'End': items › item 'Yes please' changed from "Yes" to "Yes please"`,
      "Block #2 (choice input) in group 'End': items › item 'Maybe' added",
      "Block #2 (choice input) in group 'End': items › item 'No' removed",
    ])
  })

  it('gives the theme and the settings value by value', () => {
    const before = greetingFlow()
    const after = greetingFlow({
      theme: { general: { font: 'Inter', background: { type: 'Color', content: '#fff' } } },
      settings: { general: {} },
    })
    expect(lines(before, after)).toEqual([
      'Theme: general › font changed from "Open Sans" to "Inter"',
      'Theme: general › background set to {"type":"Color","content":"#fff"}',
      'Settings: general › isInputPrefillEnabled removed (was false)',
    ])
  })

  it('reads snapshots with missing or malformed parts as empty instead of failing', () => {
    expect(diffVersions({}, { groups: 'nope', edges: null, variables: [1, 'x'] })).toEqual([])
    expect(lines({}, { groups: [{ id: 'g', blocks: [{ id: 'b', type: 'text' }] }] })).toEqual([
      "Group 'untitled' added",
      "Block #1 (text) in group 'untitled' added",
    ])
  })
})
