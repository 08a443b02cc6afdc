import { describe, expect, it } from 'vitest';
import { ApiError, toApiError } from './errors';

describe('toApiError', () => {
  it('keeps the code and message Go sends', () => {
    const e = toApiError({ code: 'conflict', message: 'Task is not waiting' });
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toBeInstanceOf(Error);
    expect(e.code).toBe('conflict');
    expect(e.message).toBe('Task is not waiting');
  });

  it('reads a JSON string and plain strings', () => {
    expect(toApiError('{"code":"not_found","message":"No such task"}').code).toBe('not_found');
    const plain = toApiError('boom');
    expect(plain.code).toBe('internal');
    expect(plain.message).toBe('boom');
  });

  it('wraps JS errors and unknown values', () => {
    expect(toApiError(new TypeError('x is undefined')).message).toBe('x is undefined');
    expect(toApiError(undefined).message).toBeTruthy();
    const same = new ApiError('model', 'down');
    expect(toApiError(same)).toBe(same);
  });
});

describe('details', () => {
  it('keeps the details Go sends, in every form the rejection takes', () => {
    const json = '{"code":"internal","message":"Could not save","details":"disk I/O error (SQLITE_IOERR)"}';
    expect(toApiError(JSON.parse(json)).details).toBe('disk I/O error (SQLITE_IOERR)');
    expect(toApiError(json).details).toBe('disk I/O error (SQLITE_IOERR)');
    expect(toApiError(new Error(json)).details).toBe('disk I/O error (SQLITE_IOERR)');
  });

  it('has none when Go sent none, or only blanks', () => {
    expect(toApiError({ code: 'conflict', message: 'busy' }).details).toBeUndefined();
    expect(toApiError({ code: 'conflict', message: 'busy', details: '  ' }).details).toBeUndefined();
    expect(toApiError({ code: 'conflict', message: 'busy', details: 42 }).details).toBeUndefined();
  });
});

describe('field', () => {
  it('keeps the field an invalid input is about, as Go sends it through the Wails bridge', () => {
    const json = '{"code":"invalid","message":"The step limit must be between 1 and 10000.","field":"maxSteps"}';
    expect(toApiError(new Error(json)).field).toBe('maxSteps');
    expect(toApiError(json).field).toBe('maxSteps');
    expect(toApiError({ code: 'conflict', message: 'Busy.' }).field).toBeUndefined();
  });
});
