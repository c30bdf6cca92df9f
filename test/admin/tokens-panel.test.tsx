import { fireEvent, screen, waitFor, within } from '@testing-library/preact'
import { describe, expect, it } from 'vitest'
import { TOKEN_PREFIXES } from '../../src/protocol/management'
import { axeViolations, renderConsole, useConsole } from './helpers/console'

/** The tokens panel with the team's agent tokens, against the team API on loopback. */
const { server } = useConsole()

const tokensPanel = async () => {
  const heading = await screen.findByRole('heading', { name: 'Tokens' })
  return within(heading.closest('section')!)
}

describe('agent tokens in the console', () => {
  it('creates an agent token with the name visitors see and a picture, shown once, and revokes one after confirming', async () => {
    renderConsole(server().secret.value)
    const panel = await tokensPanel()
    await panel.findByText(/agent · Ada/)

    fireEvent.change(panel.getByLabelText('Kind'), { target: { value: 'agent' } })
    const name = panel.getByLabelText('Name')
    expect(name.getAttribute('aria-describedby')).toBe('token-agent-help')
    expect(panel.getByText(/signs in to the inbox only/)).toBeTruthy()
    // A name is needed, and a picture only from an https address.
    fireEvent.click(panel.getByRole('button', { name: 'Create a token' }))
    expect((await panel.findByRole('alert')).textContent).toBe('Enter the name visitors will see for this person.')
    fireEvent.input(name, { target: { value: 'Chen' } })
    fireEvent.input(panel.getByLabelText('Picture address (optional, https)'), { target: { value: 'http://pics.example/chen.png' } })
    fireEvent.click(panel.getByRole('button', { name: 'Create a token' }))
    await waitFor(() => expect(panel.getByRole('alert').textContent).toBe('The picture must be an https:// address.'))
    expect(server().requests.some((request) => request.method === 'POST' && request.path === '/v1/tokens')).toBe(false)

    fireEvent.input(panel.getByLabelText('Picture address (optional, https)'), { target: { value: 'https://pics.example/chen.png' } })
    fireEvent.click(panel.getByRole('button', { name: 'Create a token' }))
    const made = await panel.findByText(/Your new agent token, shown this once/)
    expect(made.querySelector('code')?.textContent).toMatch(new RegExp(`^${TOKEN_PREFIXES.agent}`))
    expect(server().requests.find((request) => request.method === 'POST')?.body).toEqual({
      kind: 'agent',
      label: 'Chen',
      agent: { name: 'Chen', avatarUrl: 'https://pics.example/chen.png' },
    })
    await panel.findByText(/agent · Chen/)
    expect(await axeViolations()).toEqual([])

    fireEvent.click(panel.getByRole('button', { name: /^Revoke the agent token Bea/ }))
    fireEvent.click(await panel.findByRole('button', { name: 'Revoke the token' }))
    await waitFor(() => expect(panel.queryByText(/agent · Bea/)).toBeNull())
    expect(server().requests.at(-2)).toMatchObject({ method: 'DELETE', path: `/v1/tokens/${server().agents[1]!.id}` })
  })
})
