import { describe, expect, it } from 'vitest'
import { baseUrlProblem, temperatureProblem, timeoutProblem } from './ModelProviderSettings'

describe('the model provider form: checks as typed', () => {
  it('a base URL is an http(s) URL', () => {
    expect(baseUrlProblem('http://localhost:8080/v1')).toBeNull()
    expect(baseUrlProblem(' https://api.openai.com/v1/ ')).toBeNull()
    expect(baseUrlProblem('')).toContain('required')
    expect(baseUrlProblem('ftp://example.com')).toContain('http:// or https://')
    expect(baseUrlProblem('localhost:8080')).toContain('http:// or https://')
  })

  it('a temperature is empty or from 0 to 2', () => {
    for (const ok of ['', '0', '0.7', '2']) expect(temperatureProblem(ok)).toBeNull()
    for (const bad of ['-0.1', '2.5', 'warm', 'Infinity']) {
      expect(temperatureProblem(bad)).toContain('from 0 to 2')
    }
  })

  it('a timeout is empty or a positive number of seconds', () => {
    for (const ok of ['', '5', '0.25', '120']) expect(timeoutProblem(ok)).toBeNull()
    for (const bad of ['0', '-3', '0.0001', 'soon', 'Infinity']) {
      expect(timeoutProblem(bad)).toContain('positive number of seconds')
    }
  })
})
