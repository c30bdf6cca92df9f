import { fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { describe, expect, it } from 'vitest'
import { App } from '../../src/admin/app'
import { useConsole } from './helpers/console'

/** The sign-in form with a person's agent token, against the team API on loopback. */
const { server } = useConsole()

describe('signing in', () => {
  it('takes an agent token after reading the inbox with it (the one thing it may do), and opens the inbox only', async () => {
    render(<App />)
    const field = await screen.findByLabelText('Secret token or agent token')
    await waitFor(() => expect(document.activeElement).toBe(field))
    fireEvent.input(field, { target: { value: server().agents[0]!.value } })
    fireEvent.submit(field.closest('form')!)
    await screen.findByRole('heading', { level: 1, name: 'Team inbox' })
    expect(server().requests[0]).toMatchObject({ method: 'GET', path: '/v1/handoffs?status=waiting' })
    expect(sessionStorage.getItem('flow-console:token')).toBe(server().agents[0]!.value)
  })
})
