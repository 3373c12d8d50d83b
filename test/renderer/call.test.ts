import { describe, expect, it } from 'vitest'
import { ApiError, call, describeError } from '@renderer/lib/call'
import { fail, ok } from '@shared/result'

describe('call', () => {
  it('resolves with the data of a successful result', async () => {
    await expect(call(Promise.resolve(ok({ id: 1 })))).resolves.toEqual({ id: 1 })
  })

  it('throws an ApiError carrying the code and message of a failed result', async () => {
    const failure = call(Promise.resolve(fail({ code: 'not_found', message: 'Thread not found' })))
    await expect(failure).rejects.toBeInstanceOf(ApiError)
    await expect(failure).rejects.toMatchObject({ code: 'not_found', message: 'Thread not found' })
  })

  it('turns a rejected bridge call into an internal ApiError', async () => {
    const failure = call(Promise.reject(new Error('No handler registered for threads:list')))
    await expect(failure).rejects.toMatchObject({
      code: 'internal',
      message: 'No handler registered for threads:list'
    })
  })
})

describe('describeError', () => {
  it('prefers the validation issues over the generic summary', () => {
    const error = new ApiError('invalid_input', 'Invalid input', [
      { path: 'title', message: 'Title cannot be empty' }
    ])
    expect(describeError(error)).toBe('Title cannot be empty')
  })

  it('uses the message otherwise', () => {
    expect(describeError(new ApiError('storage_error', 'Disk is full'))).toBe('Disk is full')
  })
})
