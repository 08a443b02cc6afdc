import { describe, expect, it } from 'vitest';
import { composerBlocked, formatCost, formatTokens, pauseReasonText, riskInfo } from './format';

describe('agent format', () => {
  it('costs with sensible precision', () => {
    expect(formatCost(0)).toBe('$0.00');
    expect(formatCost(undefined)).toBe('$0.00');
    expect(formatCost(0.00001)).toBe('<$0.0001');
    expect(formatCost(0.00423)).toBe('$0.0042');
    expect(formatCost(0.0425)).toBe('$0.043');
    expect(formatCost(1.254)).toBe('$1.25');
    expect(formatCost(1234.5)).toBe('$1,234.50');
  });

  it('tokens', () => {
    expect(formatTokens(1)).toBe('1 token');
    expect(formatTokens(12345)).toBe('12,345 tokens');
    expect(formatTokens(undefined)).toBe('0 tokens');
  });

  it('risks read honestly, and an unknown one as dangerous', () => {
    expect(riskInfo('read_only')).toMatchObject({ label: 'Read-only', tone: 'info' });
    expect(riskInfo('writes')).toMatchObject({ label: 'Writes files', tone: 'warn' });
    expect(riskInfo('destructive')).toMatchObject({ label: 'Destructive', tone: 'danger' });
    expect(riskInfo('local_network')).toMatchObject({ label: 'Local network', tone: 'warn' });
    expect(riskInfo('nuclear')).toMatchObject({ tone: 'danger', label: 'Unknown risk (nuclear)' });
  });

  it('pause reasons, blocked composer', () => {
    expect(pauseReasonText('steps')).toBe('step limit reached');
    expect(pauseReasonText('cost')).toBe('spend limit reached');
    expect(composerBlocked({ status: 'running' })).toBeNull();
    expect(composerBlocked(undefined)).toBeNull();
    expect(composerBlocked({ status: 'interrupted' })?.hint).toMatch(/resume or dismiss it above/);
  });
});
