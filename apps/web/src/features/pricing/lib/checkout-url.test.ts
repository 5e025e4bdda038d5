import { describe, expect, it } from 'vitest';
import { safeCheckoutUrl } from './checkout-url';

const BASE = 'http://localhost:5199/pricing';

describe('safeCheckoutUrl', () => {
  it('accepts provider and sandbox checkout addresses', () => {
    expect(safeCheckoutUrl('https://checkout.stripe.com/c/pay/cs_test_1', BASE)).toBe('https://checkout.stripe.com/c/pay/cs_test_1');
    expect(safeCheckoutUrl('/sandbox/checkout/co_1', BASE)).toBe('http://localhost:5199/sandbox/checkout/co_1');
  });
  it('refuses a missing or non-http address', () => {
    for (const bad of [undefined, null, '', '  ', 42, 'javascript:alert(1)', 'data:text/html,x']) expect(safeCheckoutUrl(bad, BASE)).toBeNull();
  });
});
